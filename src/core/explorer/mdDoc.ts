// The Markdown pieces every explorer document uses: server text escaped (controls dropped, markup
// and backticks escaped, long values cut), identifiers in backticks, and a small line builder.

import type { Coin } from './views';

const MAX_VALUE = 2000;

/** Characters that need work: controls, and Markdown's own (escaped so server text never becomes markup). */
const SPECIAL = /[\u0000-\u001F\u007F\\`*[\]<>]/;

/** Text from a server, safe in Markdown: control characters dropped, backticks and markup escaped, cut. */
export function esc(v: unknown): string {
  let s = typeof v === 'string' ? v : v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v as number);
  if (s.length <= MAX_VALUE && !SPECIAL.test(s)) return s; // the common case: an identifier or a number
  s = s.replace(/[\u0000-\u001F\u007F]+/g, ' ');
  if (s.length > MAX_VALUE) s = `${s.slice(0, MAX_VALUE)}… (${s.length} characters)`;
  return s.replace(/([\\`*[\]<>])/g, '\\$1');
}

/** An identifier: in backticks (backticks and escapes inside removed). */
export function id(v: unknown): string {
  const e = esc(v);
  const s = e.includes('\\') ? e.replace(/\\`/g, '').replace(/\\/g, '') : e;
  return s === '' ? '—' : `\`${s}\``;
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
