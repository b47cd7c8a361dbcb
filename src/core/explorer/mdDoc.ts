// The Markdown pieces every explorer document uses: server text as plain words and numbers or a
// code span fenced so nothing inside closes it (no link, image or HTML from a value, even with
// linkify on), identifiers in code spans, long values cut, and a small line builder.

import type { Coin } from './views';
import { codeSpan as code } from '../documents/markdown';
import { CONTROL_CHARS, DIRECTION_CHARS, controlsAsSpaces, jsonTextOf, withoutDirectionMarks } from '../base/text';

const MAX_VALUE = 2000;

/** Text that Markdown (with linkify) reads as plain text: words, numbers, spaces (no URL, address, e-mail, markup). */
const PLAIN = /^(?:[A-Za-z0-9 _,()+-]*|\d+(?:\.\d+)?)$/;

/** One line, no control or direction characters, cut at MAX_VALUE. */
function flat(v: unknown): string {
  let s =
    typeof v === 'string'
      ? v
      : v === undefined || v === null
        ? ''
        : typeof v === 'object'
          ? (jsonTextOf(v) ?? '(a value nested too deeply to show)')
          : String(v as number);
  s = controlsAsSpaces(s);
  // Direction marks and overrides are dropped: a right-to-left override in a value turns the rest of its line around.
  s = withoutDirectionMarks(s);
  if (s.length > MAX_VALUE) s = `${s.slice(0, MAX_VALUE)}… (${s.length} characters)`;
  return s;
}

/**
 * Text from a server, safe in Markdown: one line, cut; plain words and numbers as they are, anything
 * else in a code span (a URL, an address, markup), so a value never becomes a link, whatever precedes it.
 */
export function esc(v: unknown): string {
  // Plain text is short enough and has no control character: as it is (what flat() then PLAIN give).
  if (typeof v === 'string' && v.length <= MAX_VALUE && PLAIN.test(v)) return v;
  return escSlow(v);
}

/** esc() without its fast path (the tests compare the two). */
export function escSlow(v: unknown): string {
  const s = flat(v);
  return PLAIN.test(s) ? s : code(s);
}

/** What makes an identifier's code span other than one backtick each side: a control or direction character, or a backtick inside. */
const NOT_SIMPLE = new RegExp(`[${CONTROL_CHARS}\`${DIRECTION_CHARS}]`);

/** An identifier: in a code span (the link provider finds it there). */
export function id(v: unknown): string {
  // The common case (a hash, an address, a number), decided in one test: what flat() then codeSpan() give.
  if (typeof v === 'string' && v !== '' && v.length <= MAX_VALUE && !(v.charCodeAt(0) === 32 && v.charCodeAt(v.length - 1) === 32) && !NOT_SIMPLE.test(v))
    return `\`${v}\``;
  return idSlow(v);
}

/** id() without its fast path (the tests compare the two). */
export function idSlow(v: unknown): string {
  const s = flat(v);
  return s === '' ? '—' : code(s);
}

/** esc() and id(), or versions of them that remember (memoEscapes). */
export interface Escapes {
  esc(s: string): string;
  id(s: string): string;
}

/** The most texts a memo keeps (then it works each new one out again). */
const MAX_MEMO = 20_000;

/** `f` remembering its results for up to MAX_MEMO texts: for one document, whose addresses, denoms and keys repeat across thousands of lines. */
export function memo(f: (s: string) => string): (s: string) => string {
  const m = new Map<string, string>();
  return (s) => {
    let v = m.get(s);
    if (v === undefined) {
      v = f(s);
      if (m.size < MAX_MEMO) m.set(s, v);
    }
    return v;
  };
}

/** esc() and id() for one document (make one per document: it keeps what it saw). */
export function memoEscapes(): Escapes {
  return { esc: memo(esc), id: memo(id) };
}

export function coin(c: Coin | undefined): string {
  if (!c) return '—';
  return `${esc(c.amount)} ${esc(c.denom)}${c.display ? ` (${esc(c.display)})` : ''}`;
}

export class Doc {
  readonly lines: string[] = [];
  h(level: number, text: string): void {
    this.lines.push('', `${'#'.repeat(level)} ${text}`, '');
  }
  kv(key: string, value: string | undefined): void {
    if (value !== undefined && value !== '') this.lines.push(`- ${key}: ${value}`);
  }
  line(text: string): void {
    this.lines.push(text);
  }
}
