// A simulation's document rendered as the Markdown preview reads it (markdown-it, linkify and HTML on):
// the replay's "Beside the original" table keeps its four columns and makes no link from what the
// contract returned (a pipe inside a code span still splits a table row).

import * as assert from 'node:assert/strict';
import type { ReplayOriginal, SimulationResult, StepResult } from '../../../../src/core/contracts/simulate';
import { renderSimulation } from '../../../../src/core/explorer/renderSimulation';

// markdown-it has no types here (a devDependency used only by tests).
const MarkdownIt = require('markdown-it') as new (o: object) => { parse(src: string, env: object): Token[] };
interface Token {
  type: string;
  content: string;
  attrs: [string, string][] | null;
  children: Token[] | null;
}

function replayed(returned: string): { r: SimulationResult; original: ReplayOriginal } {
  const step: StepResult = {
    index: 0,
    to: '0x1111111111111111111111111111111111111111',
    data: '0x06fdde03',
    ok: true,
    result: returned,
    logs: [],
    transfers: [],
    gasUsed: '21000',
  };
  const r: SimulationResult = {
    engine: 'debug_traceCall',
    provider: 'p',
    block: '0x9',
    steps: [step],
    result: returned,
    logs: [],
    ok: true,
    balanceChanges: [],
    callTree: true,
    notes: [],
  };
  return { r, original: { hash: `0x${'a'.repeat(64)}`, status: 'success', gasUsed: '21000', logs: 0, logEvents: [] } };
}

describe('explorer: a simulation`s document', () => {
  const md = new MarkdownIt({ linkify: true, html: true });

  it('a returned string with pipes and a command link stays in its cell: four cells a row, no link, no HTML', () => {
    for (const returned of ['"|[click](command:workbench.action.terminal.new)|', '|<a href="command:x">y</a>|', 'a\\|b|c', '|changed|']) {
      const { r, original } = replayed(returned);
      const doc = renderSimulation(r, original);
      const tokens = md.parse(doc, {});
      const unsafe: string[] = [];
      const walk = (ts: Token[]) => {
        for (const t of ts) {
          if (t.type === 'link_open' || t.type === 'image' || t.type === 'html_inline' || t.type === 'html_block') unsafe.push(t.type);
          if (t.children) walk(t.children);
        }
      };
      walk(tokens);
      assert.deepEqual(unsafe, [], doc);
      // Each row of the table: four cells, the returned text whole in the third of the `return` row.
      let cells = 0;
      const rows: string[][] = [];
      for (const t of tokens) {
        if (t.type === 'tr_open') rows.push([]);
        if (t.type === 'inline' && rows.length > 0 && cells >= 0) rows[rows.length - 1].push(t.content);
        if (t.type === 'table_close') cells = -1;
      }
      assert.ok(rows.length >= 5, doc);
      for (const row of rows) assert.equal(row.length, 4, `${JSON.stringify(row)}\n${doc}`);
      const ret = rows.find((row) => row[0] === 'return')!;
      assert.ok(ret[2].includes(returned), JSON.stringify(ret));
      assert.equal(ret[3], '');
    }
  });
});
