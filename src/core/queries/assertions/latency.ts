// `assert latency < 2s` (or <=): how long the request took on the provider.

import type { AssertionBase } from '../syntax';
import type { AssertionKind } from './kind';
import { readDuration, resultOf } from './values';

export interface LatencyAssertion extends AssertionBase {
  readonly kind: 'latency';
  readonly op: '<' | '<=';
  readonly ms: number;
}

export const latency: AssertionKind<LatencyAssertion> = {
  kinds: ['latency'],
  keywords: ['latency'],
  completions: ['latency < 2s'],
  readWhole(a, ctx) {
    const m = /^latency\s*(<=|<)\s*(.+)$/.exec(a.text);
    if (!m) return undefined;
    const ms = readDuration(m[2]);
    return ms === undefined
      ? ctx.error('Type a latency bound such as "latency < 500ms" or "latency < 2s".')
      : { text: a.text, line: a.line, col: a.col, kind: 'latency', op: m[1] as '<' | '<=', ms };
  },
  evaluate(a, r) {
    const ok = a.op === '<' ? r.latencyMs < a.ms : r.latencyMs <= a.ms;
    return resultOf(a, ok, `${Math.round(r.latencyMs)} ms${ok ? '' : `, expected ${a.op} ${a.ms} ms`}`, Math.round(r.latencyMs));
  },
};
