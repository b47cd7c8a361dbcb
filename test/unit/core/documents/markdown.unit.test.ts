// The one Markdown escaper (core/documents/markdown.ts) over hostile server and file text, as the
// Markdown renderers read it (markdown-it, linkify and HTML on): in a sentence, in bold, in a table
// cell (the status bar's tooltip) and as a code span (History's arguments), no image, link or HTML
// comes out of a value, and the value reads back as it was (one line, bounded).

import * as assert from 'node:assert/strict';
import { codeSpan, escapeMarkdown, markdownCode } from '../../../../src/core/documents/markdown';

// markdown-it has no types here (a devDependency used only by tests).
const MarkdownIt = require('markdown-it') as new (o: object) => { parse(src: string, env: object): Token[] };
interface Token {
  type: string;
  content: string;
  attrs: [string, string][] | null;
  children: Token[] | null;
}

/** What a hostile node, provider entry or query file may put where a value goes. */
const HOSTILE = [
  '![x](https://evil.example/track.png)',
  '2024-01-01T00:00:00Z ![](https://evil.example/p.png?h=1)',
  '[click](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)',
  '[a][ref]\n\n[ref]: https://evil.example',
  '<img src="https://evil.example/x.png">',
  '<a href="command:x">y</a>',
  '<script>alert(1)</script>',
  '<https://evil.example>',
  '<a@b.co>',
  'https://evil.example/x',
  'www.evil.example',
  'evil.example',
  'mailto:a@b.co',
  'a@b.co',
  'javascript:alert(1)',
  'command:workbench.action.quit',
  '`',
  '``',
  'a`b',
  '`code` [x](https://e.x)',
  '``` ![i](https://e.x/i.png) ```',
  '\\',
  '\\`',
  '\\[x](https://e.x)',
  '&#96;![i](https://e.x/i.png)',
  '&lt;img src=x&gt;',
  '| a | b |',
  '**bold** _it_ ~~s~~',
  '# title',
  '- item',
  '1. item',
  '> quote',
  '=== ---',
  '$(zap) icon',
  'line\nbreak ![i](https://e.x/i.png)',
  'cr\r\n<b>x</b>',
  '\u2028![i](https://e.x/i.png)',
  ' x'.repeat(400) + '![i](https://e.x/i.png)',
];

/** Where the escaper's output goes in the tooltips. */
const CONTEXTS: [string, (v: string) => string][] = [
  ['sentence', (v) => `last block time: ${escapeMarkdown(v)}`],
  ['bold', (v) => `**${escapeMarkdown(v)}** · block height`],
  ['table cell', (v) => `| | |\n|---|---|\n| last block time | ${escapeMarkdown(v)} |`],
  ['code span', (v) => `arguments: ${markdownCode(v)}`],
  ['code span, then a link of ours', (v) => `arguments: ${markdownCode(v)} · [open](command:chainEndpoints.x)`],
];

describe('Markdown: one escaper for server and file text (markdown-it, linkify and HTML on)', () => {
  const md = new MarkdownIt({ linkify: true, html: true });

  /** Links, images and HTML of a rendered text, and its inline text as read. */
  function read(doc: string): { unsafe: string[]; text: string } {
    const unsafe: string[] = [];
    let text = '';
    const walk = (tokens: Token[]) => {
      for (const t of tokens) {
        if (t.type === 'link_open' || t.type === 'image' || t.type === 'html_inline' || t.type === 'html_block') {
          unsafe.push(`${t.type} ${JSON.stringify(t.attrs)} ${JSON.stringify(t.content)}`);
        }
        if (t.type === 'text' || t.type === 'code_inline') text += t.content;
        if (t.children) walk(t.children);
      }
    };
    walk(md.parse(doc, {}));
    return { unsafe, text };
  }

  for (const [where, put] of CONTEXTS) {
    it(`${where}: no image, link or HTML from ${HOSTILE.length} hostile values, each read back as it was`, () => {
      const problems: string[] = [];
      for (const value of HOSTILE) {
        const doc = put(value);
        const { unsafe, text } = read(doc);
        const ours = where.endsWith('of ours') ? 1 : 0; // the one link the sentence adds itself
        if (unsafe.length !== ours) problems.push(`${JSON.stringify(value)} -> ${unsafe.join('; ')}`);
        const shown = value
          .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ')
          .replace(/\s+/g, ' ')
          .trim();
        if (shown.length <= 300 && !text.includes(shown)) problems.push(`${JSON.stringify(value)} read back as ${JSON.stringify(text)}`);
      }
      assert.deepEqual(problems, []);
    });
  }

  it('bounded: a megabyte of hostile text becomes at most a few hundred characters', () => {
    const big = '![i](https://e.x/i.png)`'.repeat(50_000);
    assert.ok(escapeMarkdown(big).length < 1_000);
    assert.ok(markdownCode(big).length < 1_000);
    assert.deepEqual(read(`x ${markdownCode(big)}`).unsafe, []);
  });

  it('codeSpan of a line with 300,000 runs of backticks: one fence longer than the longest run (no spread into Math.max)', () => {
    const s = `${'` '.repeat(300_000)}\`\`\``;
    const span = codeSpan(s);
    assert.ok(span.startsWith('```` ') && span.endsWith(' ````'), span.slice(0, 8));
  });
});
