// Text helpers every layer needs: a plain object test, server text cleaned to one bounded line
// before it goes into any sentence, and a sentence ended once. (Moved down from
// transport/jsonRpc.ts: they read no JSON-RPC.)

import * as l10n from './l10n';
import { isHexQuantity } from './limits';

/** A plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How much of a server's own text (error message, data) goes into a sentence. */
export const MAX_SERVER_TEXT = 300;

/**
 * A server's scalar as text: a string as it is, a number, bigint or boolean printed; anything else
 * (an object, a list, null, nothing) `fallback`. Never String() of a server's object: a list nested
 * thousands deep overflows the stack when printed, and an object prints as "[object Object]".
 */
export function scalarText(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? String(v) : fallback;
}

/** JSON.stringify of a server's value, or undefined when it is nested too deeply to print (a list thousands of levels deep overflows the stack). */
export function jsonTextOf(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch {
    return undefined;
  }
}

/** Control characters and the line and paragraph separators, as a character class's contents (regular-expression escapes): never shown as they are. */
export const CONTROL_CHARS = '\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029';
const CONTROL = new RegExp(`[${CONTROL_CHARS}]`);
const CONTROLS = new RegExp(`[${CONTROL_CHARS}]+`, 'g');

/** `s` with each run of control characters (line breaks included) made one space. */
export function controlsAsSpaces(s: string): string {
  return CONTROL.test(s) ? s.replace(CONTROLS, ' ') : s;
}

/** Unicode's direction marks, embeddings, overrides and isolates, as a character class's contents: a right-to-left override in a server's text turns the rest of its line around. */
export const DIRECTION_CHARS = '\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069';
const DIRECTION = new RegExp(`[${DIRECTION_CHARS}]`);
const DIRECTIONS = new RegExp(`[${DIRECTION_CHARS}]+`, 'g');

/** `s` without direction characters. */
export function withoutDirectionMarks(s: string): string {
  return DIRECTION.test(s) ? s.replace(DIRECTIONS, '') : s;
}

/** One line, no control or direction characters, at most `max` characters (with an ellipsis when cut). */
export function clean(s: string, max: number): string {
  const line = s
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '') // terminal colour escapes
    .replace(CONTROLS, ' ')
    .replace(DIRECTIONS, '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? l10n.t('{0}… ({1} characters)', line.slice(0, max).trimEnd(), line.length) : line;
}

/** Ends a sentence with exactly one full stop. */
export function endSentence(s: string): string {
  const last = s.charCodeAt(s.length - 1);
  return last === 0x2e || last === 0x21 || last === 0x3f ? s : `${s}.`; // . ! ?
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * `0x` and 40 hex digits (either case): an EVM address as text (the checksum is checked where it
 * matters). A regular expression, not a loop over the characters: its matcher is native code from
 * the first call, where a loop runs interpreted until V8 optimises it, and a simulation or a query
 * runs these checks a few times per request, too rarely to be optimised (a loop was 40% of a
 * simulation's own time there; see BENCHMARKS.md, session 17).
 */
export function isEvmAddress(v: unknown): boolean {
  return typeof v === 'string' && v.length === 42 && EVM_ADDRESS.test(v);
}

/** An EVM address from a node's answer, in lower case; undefined when it is not one. */
export function lowerEvmAddress(v: unknown): string | undefined {
  return isEvmAddress(v) ? (v as string).toLowerCase() : undefined;
}

/** A 0x quantity from a node's answer (1 to 64 hex digits, either case) as a decimal string; undefined for anything else. */
export function hexQuantityDecimal(v: unknown): string | undefined {
  if (!isHexQuantity(v)) return undefined;
  // Up to 13 hex digits (52 bits) is a number: no bigint made (most gas figures and heights).
  return v.length <= 15 ? String(Number.parseInt(v.slice(2), 16)) : BigInt(v).toString();
}

/**
 * Digits without their leading zeros (one zero kept when all are zeros): decimal, or hex digits
 * after their 0x with `hex`. Callers count the rest before BigInt reads it (a pasted megabyte of
 * zeros and a number past any range are refused in a step, not parsed).
 */
export function withoutLeadingZeros(digits: string, hex = false): string {
  return digits.replace(hex ? /^0+(?=[0-9a-fA-F])/ : /^0+(?=\d)/, '');
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
