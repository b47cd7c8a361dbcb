// What the query-file editor offers (core/queries/completion.ts; the editor only maps these to items):
// evm.simulate's assertion roots and what lies below them, its keys, and nothing of it elsewhere.
import * as assert from 'node:assert/strict';
import { SIMULATION_ASSERTIONS, assertionCompletions, keyCompletions } from '../../../../src/core/queries/completion';
import { parseQueryFile } from '../../../../src/core/queries/parse';

const labels = (xs: readonly { label: string }[]) => xs.map((x) => x.label);

describe('queries: completion of evm.simulate', () => {
  it('after `assert `: engine, result, revert, logs, steps (and a replay’s original, changed) beside the usual ones', () => {
    const got = labels(assertionCompletions('evm.simulate'));
    for (const root of ['engine', 'result', 'revert', 'logs', 'steps', 'ok', 'gasUsed', 'balanceChanges', 'original', 'changed', 'success', 'status == 200'])
      assert.ok(got.includes(root), `${root} missing from ${got.join(', ')}`);
    for (const a of SIMULATION_ASSERTIONS) assert.ok(got.includes(a));
    const plain = labels(assertionCompletions('evm.callContract'));
    assert.ok(plain.includes('result') && !plain.includes('engine') && !plain.includes('steps'), plain.join(', '));
  });

  it('below a root: revert.name, steps[i].result / .revert / .logs, original.status; nothing below a plain request’s path', () => {
    assert.ok(labels(assertionCompletions('evm.simulate', 'revert')).includes('name'));
    assert.ok(labels(assertionCompletions('evm.simulate', 'revert')).includes('message'));
    const step = labels(assertionCompletions('evm.simulate', 'steps[1]'));
    for (const k of ['result', 'revert', 'logs']) assert.ok(step.includes(k), step.join(', '));
    assert.ok(labels(assertionCompletions('evm.simulate', 'steps[0].revert')).includes('name'));
    assert.ok(labels(assertionCompletions('evm.simulate', 'logs[0]')).includes('args'));
    assert.ok(labels(assertionCompletions('evm.simulate', 'original')).includes('status'));
    assert.deepEqual(assertionCompletions('evm.simulate', 'engine'), []);
    assert.deepEqual(assertionCompletions('evm.callContract', 'revert'), []);
  });

  it('every whole assertion offered parses on an evm.simulate request (no diagnostic)', () => {
    for (const a of SIMULATION_ASSERTIONS) {
      const text = `request s = evm.simulate\naddress: 0x0000000000000000000000000000000000000001\nfunction: f()\nassert ${a}${a.endsWith(' ') ? '1' : ''}\n`;
      assert.deepEqual(parseQueryFile(text).diagnostics, [], a);
    }
  });

  it('the keys: from, value, gas, overrides, blockOverrides, steps (and the call’s), minus those given', () => {
    const keys = labels(keyCompletions('evm.simulate', { address: '0x1' }));
    for (const k of ['function', 'args', 'block', 'data', 'from', 'value', 'gas', 'nonce', 'overrides', 'blockOverrides', 'steps', 'replayOf', 'provider'])
      assert.ok(keys.includes(k), `${k} missing from ${keys.join(', ')}`);
    assert.ok(!keys.includes('address'), 'a key already given is not offered again');
    assert.equal(keyCompletions('evm.simulate', {}).find((e) => e.label === 'overrides')?.insert, 'overrides: ');
    assert.ok(!labels(keyCompletions('evm.callContract', {})).includes('overrides'));
  });
});
