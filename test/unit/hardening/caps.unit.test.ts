// Issue 14, part 3: caps on what an answer may cost. A gzip bomb stops at
// chainEndpoints.maxDownloadMegabytes (counted after decompression) and leaves no file; a chunked
// genesis announcing a billion chunks is refused after its first chunk; spilled files go by age,
// as partial leftovers and by a total budget; a WebSocket exchange keeps a bounded total; and a
// 20 MB answer of nested arrays formats into a document of a small multiple of its size, in a
// child process whose memory grows less than 300 MB.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import zlib = require('node:zlib');
import { WebSocketServer } from 'ws';
import { execute } from '../../../src/core/chain/execute';
import { HttpClient } from '../../../src/core/transport/http';
import { findOperation } from '../../../src/core/chain/operations';
import { type Provider } from '../../../src/core/config/providers';
import { sweepSpillDir } from '../../../src/core/transport/spillFiles';
import { wsExchange } from '../../../src/core/transport/wsCall';
import { listen } from '../helpers/httpServer';

const MiB = 1024 * 1024;

describe('issue 14 / 3: caps on what an answer may cost', function () {
  this.timeout(60_000);
  let server: http.Server;
  let wss: WebSocketServer;
  let base: string;
  let client: HttpClient;
  let dir: string;
  let chunkRequests = 0;
  // 64 MiB of zeros in a JSON string, about 64 KB gzipped.
  const bomb = zlib.gzipSync(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"result":"'), Buffer.alloc(64 * MiB, 0x30), Buffer.from('"}')]));

  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/bomb' || req.method === 'POST') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
          return res.end(bomb);
        }
        if (req.url?.startsWith('/genesis_chunked')) {
          chunkRequests++;
          const chunk = /chunk=(\d+)/.exec(req.url)?.[1] ?? '0';
          if (chunkRequests > 20) {
            res.writeHead(500);
            return res.end('enough');
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          const data = Buffer.alloc(MiB, 0x61).toString('base64');
          return res.end(JSON.stringify({ jsonrpc: '2.0', id: -1, result: { chunk, total: '1000000000', data } }));
        }
        if (req.url?.startsWith('/genesis')) {
          res.writeHead(500, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: -1,
              error: { code: -32603, message: 'Internal error', data: 'genesis response is large, please use the genesis_chunked API instead' },
            }),
          );
        }
        res.writeHead(404);
        res.end();
      });
    });
    wss = new WebSocketServer({ server, path: '/websocket' });
    wss.on('connection', (ws) => {
      ws.on('message', (m) => {
        const { id } = JSON.parse(m.toString()) as { id: number };
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, result: {} }));
        // Ten 10 MB events: each under the per-message limit, 100 MB in all.
        const big = JSON.stringify({ jsonrpc: '2.0', id, result: { data: 'x'.repeat(10 * MiB) } });
        for (let i = 0; i < 10; i++) ws.send(big);
      });
    });
    base = `http://127.0.0.1:${await listen(server)}`;
    client = new HttpClient();
  });
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'ce-caps-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  after(async () => {
    wss.close();
    server.closeAllConnections();
    server.close();
    await client.close();
  });

  const options = (maxDownloadBytes: number) => ({ http: client, timeoutMs: 20_000, maxBufferBytes: MiB, maxDownloadBytes, spillDir: dir });

  it('a gzip bomb stops at maxDownloadMegabytes (after decompression): a clear error, no file', async () => {
    const p: Provider = { name: 'bomb', endpoints: { evmRpc: base } };
    const started = performance.now();
    const o = await execute(p, findOperation('evm.blockNumber')!, {}, options(8 * MiB));
    assert.ok(o.error, 'the answer was refused');
    assert.match(o.error.message, /chainEndpoints\.maxDownloadMegabytes/);
    assert.match(o.error.message, /8\.0 MB/);
    assert.equal(o.file, undefined);
    assert.deepEqual(readdirSync(dir), [], 'no partial or complete file is left');
    assert.ok(performance.now() - started < 10_000);
  });

  it('a genesis announcing a billion chunks is refused after the first, before downloading the rest', async () => {
    chunkRequests = 0;
    const p: Provider = { name: 'g', endpoints: { consensusHttp: base } };
    const o = await execute(p, findOperation('consensus.genesis')!, {}, options(64 * MiB));
    assert.ok(o.error, 'refused');
    assert.match(o.error.message, /1000000000 chunks/);
    assert.match(o.error.message, /chainEndpoints\.maxDownloadMegabytes/);
    assert.equal(chunkRequests, 1, 'only the first chunk was asked for');
    assert.deepEqual(readdirSync(dir), [], 'no partial file is left');
  });

  it('a WebSocket subscription keeps a bounded total, not every message', async () => {
    const r = await wsExchange(`${base.replace('http', 'ws')}/websocket`, {
      message: JSON.stringify({ jsonrpc: '2.0', method: 'subscribe', id: 1, params: { query: "tm.event='NewBlockHeader'" } }),
      id: 1,
      collect: 10,
      timeoutMs: 20_000,
    });
    assert.ok(r.error, 'stopped');
    assert.match(r.error.message, /in all/);
    assert.ok(r.bytes <= 32 * MiB, `${(r.bytes / MiB).toFixed(1)} MB kept`);
  });

  it('spilled files: partial leftovers, stale files and the oldest past the budget are deleted', async () => {
    const now = Date.now();
    const file = (name: string, bytes: number, ageMs: number) => {
      const f = path.join(dir, name);
      writeFileSync(f, Buffer.alloc(bytes));
      utimesSync(f, new Date(now - ageMs), new Date(now - ageMs));
      return f;
    };
    file('response-old.json', 10, 8 * 24 * 3600 * 1000);
    file('response-left.json.partial', 10, 2 * 3600 * 1000);
    file('genesis-b.json', 600, 3000);
    file('response-c.json', 600, 2000);
    const open = file('response-d.json', 600, 1000);
    file('response-e.json', 100, 500);
    file('response-now.json.partial', 10, 1000); // a transfer in flight in another window
    const gone = await sweepSpillDir(dir, { now, budgetBytes: 1000, keep: new Set([open]) });
    assert.deepEqual(gone.map((f) => path.basename(f)).sort(), ['genesis-b.json', 'response-c.json', 'response-left.json.partial', 'response-old.json']);
    assert.deepEqual(readdirSync(dir).sort(), ['response-d.json', 'response-e.json', 'response-now.json.partial']);
  });

  it('a 20 MB answer of nested arrays, requested and rendered: the document stays a small multiple, memory under 300 MB of growth', () => {
    // In a child process with nothing else in it: a loopback server, then the request as a command runs it.
    const core = (m: string) => JSON.stringify(path.resolve(__dirname, `../../../src/core/${m}.js`));
    const script = `
      const http = require('node:http');
      const { execute } = require(${core('chain/execute')});
      const { HttpClient } = require(${core('transport/http')});
      const { findOperation } = require(${core('chain/operations')});
      const { renderDocumentBytes } = require(${core('documents/render')});
      const { JsonFormatter, formatJson } = require(${core('documents/jsonFormat')});
      const half = 10 * 1024 * 1024;
      const body = Buffer.concat([Buffer.alloc(half, 0x5b), Buffer.alloc(half, 0x5d)]);
      const server = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); });
      server.listen(0, '127.0.0.1', async () => {
        const url = 'http://127.0.0.1:' + server.address().port;
        const client = new HttpClient();
        await client.send({ method: 'GET', url: url + '/warm', timeoutMs: 5000 });
        for (let i = 0; i < 3; i++) global.gc();
        const before = process.memoryUsage().rss;
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
        const o = await execute({ name: 'n', endpoints: { rest: url } }, findOperation('rest.custom'), { path: '/nested' },
          { http: client, timeoutMs: 30000, maxBufferBytes: 64 * 1024 * 1024, spillDir: ${JSON.stringify(tmpdir())} });
        const doc = renderDocumentBytes(o);
        peak = Math.max(peak, process.memoryUsage().rss);
        clearInterval(sampler);
        // Wide at the indentation limit: 64 opens, then a million short members.
        const wide = '['.repeat(64) + '1,'.repeat(1000000) + '1' + ']'.repeat(64);
        const text = formatJson(wide);
        const fast = JsonFormatter.format(Buffer.from(wide));
        process.stdout.write(JSON.stringify({ error: o.error && o.error.message, file: o.file, docBytes: doc.length, growth: peak - before, wide: wide.length, wideText: text.length, wideFast: fast.end - fast.start }));
        process.exit(0);
      });
    `;
    const r = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
    assert.equal(r.status, 0, r.stderr);
    const m = JSON.parse(r.stdout) as { error?: string; file?: string; docBytes: number; growth: number; wide: number; wideText: number; wideFast: number };
    assert.equal(m.error, undefined);
    assert.equal(m.file, undefined, 'formatted as a document, not written to a file');
    assert.ok(m.docBytes <= 3 * 20 * MiB, `document ${(m.docBytes / MiB).toFixed(0)} MB for a 20 MB answer`);
    assert.ok(m.growth < 300 * MiB, `memory grew ${(m.growth / MiB).toFixed(0)} MB`);
    assert.ok(m.wideText <= 6 * m.wide && m.wideFast <= 6 * m.wide, `wide: ${m.wideText} / ${m.wideFast} characters for ${m.wide}`);
    console.log(`      [caps] 20 MB nested answer: document ${(m.docBytes / MiB).toFixed(1)} MB, peak RSS growth ${(m.growth / MiB).toFixed(0)} MB`);
  });
});
