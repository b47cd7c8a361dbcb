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

/** Whether `s` is hex digits (either case) from index `from` to its end, and has at least one there. */
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

/** An EVM address from a node's answer, in lower case; undefined when it is not one. */
export function lowerEvmAddress(v: unknown): string | undefined {
  return isEvmAddress(v) ? (v as string).toLowerCase() : undefined;
}

/** A 0x quantity from a node's answer (1 to 64 hex digits, either case) as a decimal string; undefined for anything else. */
export function hexQuantityDecimal(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length > 66 || !v.startsWith('0x') || !isHexDigits(v, 2)) return undefined;
  // Up to 13 hex digits (52 bits) is a number: no bigint made (most gas figures and heights).
  return v.length <= 15 ? String(Number.parseInt(v.slice(2), 16)) : BigInt(v).toString();
}

const HEX_TEXT = /^0x[0-9a-fA-F]*$/;

/**
 * Hex data from a node's answer (`0x` and hex digits, maybe none), at most `max` characters;
 * undefined otherwise. A regular expression: a trace checks a thousand long inputs with it, where a
 * loop over the characters was slower.
 */
export function hexText(v: unknown, max = Number.POSITIVE_INFINITY): string | undefined {
  return typeof v === 'string' && v.length <= max && HEX_TEXT.test(v) ? v : undefined;
}
