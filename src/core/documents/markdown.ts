// The one way server and file text (error messages and data, chain ids, block times, close
// reasons, provider names and addresses from settings, History's arguments) enters Markdown: one
// line, bounded, every Markdown and HTML character escaped, or fenced in a code span nothing inside
// can close, so a hostile server or workspace cannot add links, images, commands or tables to the
// editor's UI. The explorer's documents (explorer/mdDoc.ts) fence their values with the same code
// span. Never imports vscode.

import { clean } from '../base/text';

/** How much of a server's text a tooltip shows. */
export const MAX_TOOLTIP_TEXT = 300;

/** `text` as literal Markdown: at most `max` characters, on one line, nothing interpreted. */
export function escapeMarkdown(text: string, max = MAX_TOOLTIP_TEXT): string {
  // Cut before escaping: the limit is on what is shown, and an escape is never split.
  return clean(text, max).replace(/[\\`*_{}[\]()#+\-.!|<>&~:"'$%=]/g, (c) => `\\${c}`);
}

/**
 * A code span holding `s` exactly: fenced by one more backtick than its longest run (padded with a
 * space when it starts or ends with one), so nothing inside can close it, and nothing in it is
 * Markdown: no link, image, HTML or autolink (linkify never reads code spans). `s` must be one line.
 * Not for a table cell: a `|` inside a code span still splits the cell (use escapeMarkdown there).
 */
export function codeSpan(s: string): string {
  // The longest run, by a loop (a spread into Math.max throws past ~100,000 runs).
  let longest = 0;
  for (const r of s.match(/`+/g) ?? []) if (r.length > longest) longest = r.length;
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') || (s.startsWith(' ') && s.endsWith(' ') && s.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

/** `text` as a code span: at most `max` characters, on one line, nothing interpreted. */
export function markdownCode(text: string, max = MAX_TOOLTIP_TEXT): string {
  return codeSpan(clean(text, max));
}
