// Bad query files: random and mutated files (seeded; QUERY_FUZZ_SEED or HARDENING_SEED replays a
// run) thrown at the parser, the checks and the runner. Zero crashes, and every diagnostic located
// on a line of the file (or the one after it) with line >= 1 and column >= 1.

import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Provider } from '../../../src/core/config/providers';
import { checkQueryFile } from '../../../src/core/queries/check';
import { parseQueryFile } from '../../../src/core/queries/parse';
import { REPORTERS, report } from '../../../src/core/queries/report';
import { runQueryFile } from '../../../src/core/queries/run';
import type { Diagnostic } from '../../../src/core/queries/syntax';
import { HttpClient } from '../../../src/core/transport/http';
import { seededRandom } from '../helpers/seededRandom';
import { type TestServer, startServer } from '../helpers/httpServer';

const SEED = Number(process.env.QUERY_FUZZ_SEED ?? process.env.HARDENING_SEED ?? Date.now() % 1_000_000);
const EXAMPLES = path.resolve(__dirname, '..', '..', '..', '..', 'examples', 'workspace');

const TOKENS = [
  'request ',
  'assert ',
  'provider: ',
  'provider: *',
  '@v = ',
  '${',
  '}',
  '{{',
  '}}',
  '${env:HOME}',
  '${env:X:-1}',
  '${secret:k}',
  '${v}',
  '{{a.result.x - 10}}',
  '{{a.result[0] + 99999999999999999999}}',
  ' = ',
  ': ',
  '==',
  '<=',
  ' matches /',
  '/[/',
  ' exists',
  ' not exists',
  ' same',
  ' within ',
  'heights within 2',
  'latency < ',
  'status == ',
  'confirm: broadcast',
  'timeout: ',
  'evm.blockNumber',
  'consensusHttp.block',
  'evm.sendRawTransaction',
  'consensusWs subscribe ',
  'rest GET /x',
  'evmRpc ',
  'height: ',
  'params: ',
  '["latest", false]',
  '{"a":',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '#',
  '\u0000',
  '\ud800',
  '😀',
  'é',
  '0x',
  '-1',
  '99999999999999999999999999',
  'result.',
  'result[',
  '[0]',
  '["',
  '\\',
];

function mutate(text: string, rnd: () => number): string {
  let s = text;
  const n = 1 + Math.floor(rnd() * 8);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(rnd() * (s.length + 1));
    const kind = Math.floor(rnd() * 6);
    if (kind === 0) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rnd() * 10));
    else if (kind === 1) s = s.slice(0, at) + TOKENS[Math.floor(rnd() * TOKENS.length)] + s.slice(at);
    else if (kind === 2) s = s.slice(0, at) + String.fromCharCode(Math.floor(rnd() * 0x3000)) + s.slice(at);
    else if (kind === 3) {
      const lines = s.split('\n');
      const a = Math.floor(rnd() * lines.length);
      const b = Math.floor(rnd() * lines.length);
      [lines[a], lines[b]] = [lines[b], lines[a]];
      s = lines.join('\n');
    } else if (kind === 4) s = s.slice(0, at) + s.slice(Math.max(0, at - 30), at) + s.slice(at);
    else s = s.slice(0, at) + ' '.repeat(Math.floor(rnd() * 5)) + s.slice(at);
  }
  return s;
}

function randomFile(rnd: () => number): string {
  const parts: string[] = [];
  const n = Math.floor(rnd() * 40);
  for (let i = 0; i < n; i++) parts.push(rnd() < 0.7 ? TOKENS[Math.floor(rnd() * TOKENS.length)] : String.fromCharCode(Math.floor(rnd() * 0x500)));
  return parts.join('');
}

function checkLocated(source: string, diagnostics: readonly Diagnostic[]): void {
  const lines = source.split(/\r\n|\r|\n/).length;
  for (const d of diagnostics) {
    assert.ok(Number.isInteger(d.line) && d.line >= 1 && d.line <= lines + 1, `line ${d.line} of ${lines}: ${d.message}`);
    assert.ok(Number.isInteger(d.col) && d.col >= 1, `col ${d.col}: ${d.message}`);
    assert.ok(d.endCol > d.col, `endCol ${d.endCol} <= col ${d.col}`);
    assert.ok(d.message.length > 0);
  }
}

describe(`hardening: query file fuzz (seed ${SEED})`, function () {
  this.timeout(120_000);
  const seeds = readdirSync(EXAMPLES)
    .filter((f) => f.endsWith('.chainq'))
    .map((f) => readFileSync(path.join(EXAMPLES, f), 'utf8'));
  let server: TestServer;
  let http: HttpClient;
  let dir: string;
  let providers: Provider[];

  before(async () => {
    server = await startServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(req.method === 'POST' ? '{"jsonrpc":"2.0","id":1,"result":{"sync_info":{"latest_block_height":"20"}}}' : '{"block":{"header":{"height":"5"}}}');
    });
    http = new HttpClient();
    dir = mkdtempSync(path.join(tmpdir(), 'ce-qfuzz-'));
    const endpoints = {
      evmRpc: server.url,
      consensusHttp: server.url,
      consensusRpc: server.url,
      rest: server.url,
      consensusWs: server.url.replace('http', 'ws'),
    };
    providers = [
      { name: 'Local node', endpoints },
      { name: 'B', endpoints },
    ];
  });
  after(async () => {
    await http.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('parses and checks 3,000 random and mutated files: no crash, every diagnostic located', () => {
    const rnd = seededRandom(SEED);
    let withErrors = 0;
    for (let i = 0; i < 3000; i++) {
      const source = i % 3 === 0 ? randomFile(rnd) : mutate(seeds[i % seeds.length], rnd);
      try {
        const file = parseQueryFile(source);
        const checked = checkQueryFile(file, { providers, env: {} });
        checkLocated(source, file.diagnostics);
        checkLocated(source, checked);
        if (file.diagnostics.length > 0) withErrors++;
      } catch (err) {
        assert.fail(`seed ${SEED}, file ${i}: ${(err as Error).stack}\n--- input ---\n${JSON.stringify(source)}`);
      }
    }
    assert.ok(withErrors > 500, `only ${withErrors} files had diagnostics`);
  });

  it('runs 150 mutated files against a loopback server: no crash, every report renders', async () => {
    const rnd = seededRandom(SEED + 1);
    for (let i = 0; i < 150; i++) {
      const source = mutate(seeds[i % seeds.length], rnd);
      const file = parseQueryFile(source);
      try {
        const run = await runQueryFile(file, {
          providers,
          execute: { http, timeoutMs: 2000, maxBufferBytes: 1024 * 1024, spillDir: dir },
          env: {},
          defaultProvider: 'Local node',
          concurrency: 2,
          resolveProvider: (p) => p,
          secretValue: () => undefined,
        });
        for (const r of REPORTERS) assert.ok(report(r, [{ file: `f${i}`, run }]).length > 0);
      } catch (err) {
        assert.fail(`seed ${SEED + 1}, file ${i}: ${(err as Error).stack}\n--- input ---\n${JSON.stringify(source)}`);
      }
    }
  });
});
