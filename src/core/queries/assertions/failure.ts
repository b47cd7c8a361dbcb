// `assert failure`: the request failed on the provider, as expected.

import type { AssertionBase } from '../syntax';
import type { AssertionKind } from './kind';
import { resultOf } from './values';

export interface FailureAssertion extends AssertionBase {
  readonly kind: 'failure';
}

export const failure: AssertionKind<FailureAssertion> = {
  kinds: ['failure'],
  keywords: ['failure'],
  completions: ['failure'],
  readWhole: (a) => (a.text === 'failure' ? { text: a.text, line: a.line, col: a.col, kind: 'failure' } : undefined),
  evaluate: (a, r) => (r.error ? resultOf(a, true, `failed as expected: ${r.error}`) : resultOf(a, false, 'succeeded, a failure was expected')),
};
