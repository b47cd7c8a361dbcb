// `assert success`: the request succeeded on the provider (also the implicit assertion of a request
// that has none).

import type { AssertionBase } from '../syntax';
import type { AssertionKind } from './kind';
import { resultOf } from './values';

export interface SuccessAssertion extends AssertionBase {
  readonly kind: 'success';
}

export const success: AssertionKind<SuccessAssertion> = {
  kinds: ['success'],
  keywords: ['success'],
  completions: ['success'],
  readWhole: (a) => (a.text === 'success' ? { text: a.text, line: a.line, col: a.col, kind: 'success' } : undefined),
  evaluate: (a, r) => (r.error ? resultOf(a, false, `failed: ${r.error}`) : resultOf(a, true, 'succeeded')),
};
