// `assert <path> exists` and `assert <path> not exists`.

import { type AssertionBase, type PathSegment, getPath, pathText } from '../syntax';
import type { AssertionKind } from './kind';
import { resultOf, shorten } from './values';

export interface ExistsAssertion extends AssertionBase {
  readonly kind: 'exists';
  readonly path: PathSegment[];
  readonly negate: boolean;
}

export const exists: AssertionKind<ExistsAssertion> = {
  kinds: ['exists'],
  keywords: ['exists', 'not'],
  readAfterPath(a, { path, rest }) {
    if (rest === 'exists') return { text: a.text, line: a.line, col: a.col, kind: 'exists', path, negate: false };
    if (/^not\s+exists$/.test(rest)) return { text: a.text, line: a.line, col: a.col, kind: 'exists', path, negate: true };
    return undefined;
  },
  evaluate(a, r) {
    const got = getPath(r, a.path);
    const ok = a.negate ? !got.found : got.found && got.value !== undefined;
    return resultOf(a, ok, got.found ? `found ${shorten(got.value, 80)}` : `${pathText(a.path)} is absent`, got.found ? got.value : undefined);
  },
};
