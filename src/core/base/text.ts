// Text helpers every layer needs: a plain object test, server text cleaned to one bounded line
// before it goes into any sentence, and a sentence ended once. (Moved down from
// transport/jsonRpc.ts: they read no JSON-RPC.)

import * as l10n from './l10n';

/** A plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How much of a server's own text (error message, data) goes into a sentence. */
export const MAX_SERVER_TEXT = 300;

/** One line, no control characters, at most `max` characters (with an ellipsis when cut). */
export function clean(s: string, max: number): string {
  const line = s
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '') // terminal colour escapes
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? l10n.t('{0}… ({1} characters)', line.slice(0, max).trimEnd(), line.length) : line;
}

/** Ends a sentence with exactly one full stop. */
export function endSentence(s: string): string {
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/**
 * Whether `s` is hex digits (either case) from index `from` to its end, and has at least one there.
 * A loop, not a regular expression: these checks run on every call, simulation and log, and a
 * regular expression's first match after other work costs several times more (bench/simulate.mjs).
 */
export function isHexDigits(s: string, from: number): boolean {
  if (s.length <= from) return false;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // 0-9, A-F, a-f
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** `0x` and 40 hex digits (either case): an EVM address as text (the checksum is checked where it matters). */
export function isEvmAddress(v: unknown): boolean {
  return typeof v === 'string' && v.length === 42 && v.charCodeAt(0) === 48 && v.charCodeAt(1) === 120 && isHexDigits(v, 2);
}
