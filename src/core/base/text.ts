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
