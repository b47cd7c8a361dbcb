// `assert status == 200` (and the other comparisons): the HTTP status of the answer.

import type { AssertionBase, CompareOp, Located } from '../syntax';
import { readComparison } from './compare';
import type { AssertionKind } from './kind';
import { compare, resultOf } from './values';

export interface StatusAssertion extends AssertionBase {
  readonly kind: 'status';
  readonly op: CompareOp;
  readonly value: Located;
}

export const status: AssertionKind<StatusAssertion> = {
  kinds: ['status'],
  keywords: ['status'],
  completions: ['status == 200'],
  readAfterPath(a, after, ctx) {
    if (after.path.length !== 1 || after.path[0] !== 'status') return undefined;
    const c = readComparison(a, after, ctx);
    return c && { text: a.text, line: a.line, col: a.col, kind: 'status', op: c.op, value: c.value };
  },
  value: (a) => a.value,
  evaluate(a, r, { expected }) {
    if (r.status === undefined) return resultOf(a, false, `no HTTP status${r.error ? ` (${r.error})` : ''}`);
    const c = compare(r.status, a.op, expected ?? a.value.text);
    return resultOf(a, c.passed, `status ${r.status}${c.passed ? '' : `, expected ${a.op} ${expected ?? a.value.text}`}`, r.status);
  },
};
