// `assert heights within N` and `assert <path> within N` (with `provider: *`): the integers at the
// path (or each provider's block height) differ by at most N across the providers.

import type { AssertionBase, PathSegment } from '../syntax';
import type { AssertionKind } from './kind';
import { asInteger, valuesAcross } from './values';

/** Fan-out: the integers at `path` (or each provider's height) differ by at most `n`. */
export interface WithinAssertion extends AssertionBase {
  readonly kind: 'within';
  /** Absent: each provider's block height. */
  readonly path?: PathSegment[];
  readonly n: bigint;
}

export const within: AssertionKind<WithinAssertion> = {
  kinds: ['within'],
  keywords: ['heights', 'within'],
  completions: ['heights within 2'],
  readWhole(a) {
    const m = /^heights\s+within\s+(\d{1,18})$/.exec(a.text);
    return m ? { text: a.text, line: a.line, col: a.col, kind: 'within', n: BigInt(m[1]) } : undefined;
  },
  readAfterPath(a, { path, rest }) {
    const m = /^within\s+(\d{1,18})$/.exec(rest);
    return m ? { text: a.text, line: a.line, col: a.col, kind: 'within', path, n: BigInt(m[1]) } : undefined;
  },
  evaluate: (a, r) => within.evaluateAcross!(a, [r]),
  evaluateAcross(a, records) {
    const got = valuesAcross(a, a.path, records);
    if ('passed' in got) return got;
    const { values, label, shown } = got;
    const ints = values.map((v) => asInteger(v.value));
    if (ints.some((i) => i === undefined)) return { assertion: a, passed: false, message: `${label}: not all integers`, actual: shown };
    const nums = ints as bigint[];
    const max = nums.reduce((x, y) => (y > x ? y : x));
    const min = nums.reduce((x, y) => (y < x ? y : x));
    const spread = max - min;
    return { assertion: a, passed: spread <= a.n, message: `spread ${spread} block(s) across ${values.length} provider(s) (${min} to ${max})`, actual: shown };
  },
};
