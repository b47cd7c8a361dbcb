// `assert <path> matches /re/flags`: the value at the path (a string as it is, anything else as
// JSON) matches the regular expression, run in a worker within the request's deadline (core/queries/regex.ts).

import { matchWithin } from '../regex';
import { type AssertionBase, type PathSegment, getPath, pathText } from '../syntax';
import type { AssertionKind } from './kind';
import { matchedText, resultOf, shorten } from './values';

/** One RegExp per source and flags (bounded): a file repeating `matches /^0x/` compiles it once. */
const regexes = new Map<string, RegExp>();
function regexOf(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let re = regexes.get(key);
  if (!re) {
    re = new RegExp(source, flags); // throws for a bad one: reported by the caller
    if (regexes.size >= 256) regexes.clear();
    regexes.set(key, re);
  }
  return re;
}

export interface MatchesAssertion extends AssertionBase {
  readonly kind: 'matches';
  readonly path: PathSegment[];
  readonly regex: RegExp;
}

export const matches: AssertionKind<MatchesAssertion> = {
  kinds: ['matches'],
  keywords: ['matches'],
  readAfterPath(a, { path, rest, restCol }, ctx) {
    const m = /^matches\s+\/(.*)\/([a-z]*)$/.exec(rest);
    if (!m) return undefined;
    try {
      return { text: a.text, line: a.line, col: a.col, kind: 'matches', path, regex: regexOf(m[1], m[2]) };
    } catch (e) {
      return ctx.error(`Bad regular expression: ${(e as Error).message}.`, restCol, rest.length);
    }
  },
  prepare(a, r, deadline) {
    const text = matchedText(r, a.path);
    if (text === undefined) return undefined;
    return matchWithin(a.regex, text, deadline);
  },
  evaluate(a, r, { prepared: matched }) {
    const got = getPath(r, a.path);
    if (!got.found) return resultOf(a, false, `${pathText(a.path)} is absent${r.error ? ` (the request failed: ${r.error})` : ''}`);
    // Run by prepare(), bounded: never here, on the calling thread.
    if (!matched) return resultOf(a, false, 'the regular expression was not run');
    if ('error' in matched) return resultOf(a, false, matched.error, got.value);
    const ok = matched.matched;
    return resultOf(a, ok, `found ${shorten(got.value, 80)}${ok ? '' : `, which does not match ${String(a.regex)}`}`, got.value);
  },
};
