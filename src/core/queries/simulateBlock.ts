// A simulation written as a query-file block (`request … = evm.simulate`): what the Simulate command
// opens without a spec and what Look Up's "Simulate with changes…" opens for a mined transaction (its
// sender, nonce, input as function + arguments when the ABI is known, value, gas, the parent block,
// and `replayOf` so the run compares the result with the original). The developer edits it, saves
// it in the repository and re-runs it with the CodeLens. Values are written so that the file's own
// reader (specFromArgs) reads back the same spec: a unit test checks the round trip.

import type { SimulationSpec } from '../contracts/simulate';

/** One line's value: strings as they are (one line), the rest as JSON. */
function valueText(v: unknown): string {
  return typeof v === 'string' ? v.replace(/[\r\n]+/g, ' ') : JSON.stringify(v);
}

/** The block for `spec` on `provider`, named `name`. */
export function simulationBlockText(provider: string, spec: SimulationSpec, name = 'whatIf'): string {
  const replay = spec.replayOf !== undefined;
  const lines = replay
    ? [
        `# A replay of ${valueText(spec.replayOf)} at its parent block (same sender, nonce, input, value and gas).`,
        '# Change an argument, the value, the sender, or add overrides / blockOverrides (JSON), then Run (CodeLens above).',
        '# The result is compared with the mined transaction: `changed` lists what differs (status, return, revert, logs, gas used).',
      ]
    : [
        '# A simulation (what if): edit, save in the repository, run with the CodeLens above the request.',
        '# Keys: address, function, args, data, from, value, gas, nonce, block, overrides (JSON), blockOverrides (JSON), steps (JSON list).',
      ];
  lines.push('# Assertions reach engine, result, revert, logs and steps[i].result / .revert / .logs.');
  lines.push(`request ${name} = evm.simulate`, `provider: ${provider}`);
  const put = (k: string, v: unknown) => {
    if (v === undefined || v === '') return;
    lines.push(`${k}: ${valueText(v)}`);
  };
  const bare = spec.steps === undefined && spec.data === undefined;
  put('address', spec.address ?? spec.to ?? (spec.steps === undefined ? '0x0000000000000000000000000000000000000000' : undefined));
  put('function', spec.function ?? (bare && !replay ? 'balanceOf(address)' : undefined));
  put(
    'args',
    Array.isArray(spec.args)
      ? JSON.stringify(spec.args)
      : (spec.args ?? (bare && !replay && spec.function === undefined ? '0x0000000000000000000000000000000000000000' : undefined)),
  );
  put('data', spec.data);
  put('from', spec.from);
  put('value', spec.value);
  put('gas', spec.gas);
  put('nonce', spec.nonce);
  put('block', spec.block);
  put('overrides', spec.overrides);
  put('blockOverrides', spec.blockOverrides);
  put('steps', spec.steps);
  put('replayOf', spec.replayOf);
  lines.push('assert success');
  return lines.join('\n') + '\n';
}
