// `assert <path> same` (with `provider: *`): the value at the path is the same on every provider.

import type { AssertionBase, PathSegment } from '../syntax';
import type { AssertionKind } from './kind';
import { shorten, valuesAcross } from './values';

/** Fan-out: the value at `path` is the same on every provider. */
export interface SameAssertion extends AssertionBase {
  readonly kind: 'same';
  readonly path: PathSegment[];
}

export const same: AssertionKind<SameAssertion> = {
  kinds: ['same'],
  keywords: ['same'],
  readAfterPath: (a, { path, rest }) => (rest === 'same' ? { text: a.text, line: a.line, col: a.col, kind: 'same', path } : undefined),
  evaluate: (a, r) => same.evaluateAcross!(a, [r]),
  evaluateAcross(a, records) {
    const got = valuesAcross(a, a.path, records);
    if ('passed' in got) return got;
    const { values, shown } = got;
    const first = shorten(values[0].value, Infinity);
    const passed = values.every((v) => shorten(v.value, Infinity) === first);
    return {
      assertion: a,
      passed,
      message: passed ? `${shorten(values[0].value, 80)} on ${values.length} provider(s)` : 'the providers differ',
      actual: shown,
    };
  },
};
