// A contract call's document: what was called (contract, function, arguments, block, overrides),
// the decoded outputs or the decoded revert, the raw return data, and eth_estimateGas beside it.

import type { CallOutcome, CallSpec } from '../contracts/call';
import { shortValue } from '../contracts/values';
import { Doc, esc, id } from './mdDoc';
import { revertText } from './renderEvm';

export function renderCall(provider: string, spec: CallSpec, o: CallOutcome): string {
  const d = new Doc();
  d.line(`# Call ${esc(o.contract ? `${o.contract}.` : '')}${id(o.function)} · ${esc(provider)}`);
  d.line('');
  d.kv('address', id(spec.address));
  d.kv('contract', o.contract && `${esc(o.contract)} (ABI: ${esc(o.source ?? '?')})`);
  d.kv('function', id(o.function));
  d.kv('block', id(o.block));
  d.kv('from', spec.from && id(spec.from));
  d.kv('value', spec.value && esc(spec.value));
  d.kv('overrides', spec.overrides && id(JSON.stringify(spec.overrides)));
  d.kv('calldata', id(o.data));
  if (o.outputs) {
    d.h(2, 'Result');
    if (o.outputs.length === 0) d.line('- (no outputs declared)');
    for (const [i, a] of o.outputs.entries()) d.line(`- ${esc(a.name || `output ${i}`)} (${esc(a.type)}): ${id(shortValue(a.value, 2000))}`);
  }
  if (o.revert) {
    d.h(2, 'Reverted');
    d.kv('revert', revertText(o.revert));
    for (const a of o.revert.args ?? []) d.line(`  - ${esc(a.name || '(unnamed)')} (${esc(a.type)}): ${id(shortValue(a.value, 400))}`);
    d.kv('revert data', o.revert.data && id(o.revert.data));
  }
  if (o.error && !o.revert) {
    d.h(2, 'Failed');
    d.line(esc(o.error));
  }
  d.kv('return data', o.raw && id(o.raw));
  d.h(2, 'Gas');
  d.kv('eth_estimateGas', o.gasEstimate ? esc(o.gasEstimate) : `not estimated: ${esc(o.gasError ?? '?')}`);
  d.line('');
  return d.lines.join('\n');
}
