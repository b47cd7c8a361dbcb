// Look Up documents rendered as the Markdown preview reads them (markdown-it, linkify on), over
// fuzzed server text (issue 25 §4): no link, image or HTML whose text or target came from a value,
// whatever precedes a code span (an attribute key ending in a URL, a backslash, backticks). And a
// "__proto__" key of an answer survives masking.

import * as assert from 'node:assert/strict';
import { renderLookup } from '../../../../src/core/explorer/render';
import type { EventView, LookupResult } from '../../../../src/core/explorer/views';
import { maskDeep, SecretMasker } from '../../../../src/core/secrets/mask';
import { seededRandom } from '../../helpers/seededRandom';

// markdown-it has no types here (a devDependency used only by this test).
const MarkdownIt = require('markdown-it') as new (o: object) => { parse(src: string, env: object): Token[] };
interface Token {
  type: string;
  content: string;
  attrs: [string, string][] | null;
  children: Token[] | null;
}

const FRAGMENTS = [
  'https://evil.example/a',
  'http://x.io/',
  'www.evil.com',
  'evil.io',
  'mailto:a@b.co',
  'a@b.co',
  '[click](command:workbench.action.terminal.new)',
  '[x]',
  '](command:x)',
  '![i](https://evil.example/p.png)',
  '<a href="command:x">y</a>',
  '<https://evil.example>',
  '`',
  '``',
  '\\',
  '\\`',
  '*',
  '_',
  '~~',
  '|',
  '&#96;',
  '&lt;',
  ' ',
  '\n',
  '\r\n',
  '\u2028',
  '=',
  ':',
  '#',
  '- ',
  '1. ',
  '> ',
  'javascript:alert(1)',
  'command:x',
  'cosmos1qqqq',
  '0xdeadbeef',
  'plain',
];

describe('explorer: the Look Up Markdown over fuzzed server text (markdown-it, linkify on)', function () {
  this.timeout(60_000);
  const md = new MarkdownIt({ linkify: true, html: true });
  const rand = seededRandom(Number(process.env.HARDENING_SEED ?? 2525));
  const fuzz = (parts: number) => Array.from({ length: 1 + Math.floor(rand() * parts) }, () => FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)]).join('');

  /** Every link, image and HTML token of the rendered document (none should come from server text). */
  function unsafe(doc: string): string[] {
    const out: string[] = [];
    const walk = (tokens: Token[]) => {
      for (const t of tokens) {
        if (t.type === 'link_open' || t.type === 'image' || t.type === 'html_inline' || t.type === 'html_block') {
          out.push(`${t.type} ${JSON.stringify(t.attrs)} ${JSON.stringify(t.content)}`);
        }
        if (t.children) walk(t.children);
      }
    };
    walk(md.parse(doc, {}));
    return out;
  }

  it('attribute keys ending in a URL do not swallow the code span of their value', () => {
    const events: EventView[] = [
      { type: 'transfer', attributes: [{ key: 'https://evil.example/a', value: 'x [click](command:workbench.action.terminal.new) y' }] },
    ];
    const doc = renderLookup(txResult(events, {}));
    assert.deepEqual(unsafe(doc), [], doc);
  });

  it('1,000 fuzzed documents: no link, image or HTML from a value', () => {
    for (let i = 0; i < 1000; i++) {
      const events: EventView[] = Array.from({ length: 3 }, () => ({
        type: fuzz(3),
        attributes: Array.from({ length: 3 }, () => ({ key: fuzz(4), value: fuzz(6) })),
      }));
      const r = txResult(events, {
        memo: fuzz(5),
        log: fuzz(5),
        codespace: fuzz(2),
        typeUrl: fuzz(3),
        denom: fuzz(2),
        field: fuzz(3),
        fieldKey: fuzz(3),
        note: fuzz(4),
      });
      const doc = renderLookup(r);
      const found = unsafe(doc);
      assert.deepEqual(found, [], `case ${i}:\n${doc}`);
    }
  });

  it('a "__proto__" key of an answer survives masking (copied without prototypes)', () => {
    const answer = JSON.parse('{"events":[{"__proto__":{"polluted":"yes"},"type":"t"}],"__proto__":"x","ok":1}') as Record<string, unknown>;
    const m = new SecretMasker();
    m.set(['sekret-value']);
    const masked = maskDeep(answer, m) as Record<string, unknown>;
    assert.ok(Object.prototype.hasOwnProperty.call(masked, '__proto__'));
    assert.equal(Object.getOwnPropertyDescriptor(masked, '__proto__')?.value, 'x');
    const event = (masked.events as Record<string, unknown>[])[0];
    assert.deepEqual(Object.getOwnPropertyDescriptor(event, '__proto__')?.value, { polluted: 'yes' });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(event), Object.prototype);
    // And the Look Up document shows it.
    const doc = renderLookup(txResult([{ type: 't', attributes: [] }], { fields: masked }));
    assert.match(doc, /__proto__/);
  });
});

function txResult(
  events: EventView[],
  t: { memo?: string; log?: string; codespace?: string; typeUrl?: string; denom?: string; field?: string; fieldKey?: string; note?: string; fields?: unknown },
): LookupResult {
  const fields = t.fields ?? (t.fieldKey !== undefined ? { [t.fieldKey]: t.field, nested: { [t.fieldKey]: [t.field, { k: t.field }] } } : {});
  return {
    kind: 'tx',
    provider: 'Local node',
    query: 'A'.repeat(64),
    found: 'a Cosmos transaction hash',
    notes: t.note !== undefined ? [t.note] : [],
    tx: {
      hash: 'A'.repeat(64),
      height: '5',
      code: 1,
      codespace: t.codespace,
      log: t.log,
      decodedBy: 'rest',
      memo: t.memo,
      fee: { amount: [{ denom: t.denom ?? 'atest', amount: '5', display: t.denom }], gasLimit: '200000' },
      messages: [{ typeUrl: t.typeUrl ?? '/x', fields } as never],
      signers: [],
      events: [{ msgIndex: '0', events }],
      evm: [],
    },
  };
}
