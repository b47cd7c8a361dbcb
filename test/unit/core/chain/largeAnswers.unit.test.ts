// Answers above 4 MiB that still open as documents: formatted while they arrive and not also held
// whole, read (errors, results) from the formatted text, with a copy on disk only while their
// length is unknown, and that copy kept, byte for byte, only when they outgrow the limit.

import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execute, type ExecuteOptions } from '../../../../src/core/chain/execute';
import { HttpClient } from '../../../../src/core/transport/http';
import { findOperation } from '../../../../src/core/chain/operations';
import { type Provider } from '../../../../src/core/config/providers';
import { renderDocument, stripHeader } from '../../../../src/core/documents/render';
import { type Handler, startServer, type TestServer } from '../../helpers/httpServer';

const MB = 1024 * 1024;

/** A JSON-RPC answer of about `size` bytes: many small transactions, like block_results. */
function bigAnswer(size: number, extra = ''): string {
  const txs: string[] = [];
  for (let i = 0, bytes = 0; bytes < size; i++) {
    const tx = JSON.stringify({
      code: 0,
      gas_used: String(1000 + i),
      log: `tx ${i} é`,
      events: [{ type: 'transfer', attributes: [{ key: 'amount', value: `${i}uatom` }] }],
    });
    txs.push(tx);
    bytes += tx.length + 1;
  }
  return `{"jsonrpc":"2.0","id":1,${extra}"result":{"height":"42","txs_results":[${txs.join(',')}]}}`;
}

/** Sends `body` in 64 KB writes: chunked (no content-length) unless `withLength`. */
function send(res: ServerResponse, status: number, body: string, withLength: boolean, type = 'application/json'): void {
  const bytes = Buffer.from(body);
  res.writeHead(status, withLength ? { 'content-type': type, 'content-length': bytes.length } : { 'content-type': type });
  for (let at = 0; at < bytes.length; at += 64 * 1024) res.write(bytes.subarray(at, at + 64 * 1024));
  res.end();
}

describe('large answers (over 4 MiB) as documents', function () {
  this.timeout(60_000);
  let http: HttpClient;
  let spillDir: string;
  let server: TestServer | undefined;
  let handler: Handler = () => undefined;

  before(async () => {
    http = new HttpClient();
    server = await startServer((req, res) => handler(req, res));
  });
  beforeEach(() => {
    spillDir = mkdtempSync(path.join(tmpdir(), 'ce-large-'));
  });
  afterEach(() => rmSync(spillDir, { recursive: true, force: true }));
  after(async () => {
    await server?.close();
    await http.close();
  });

  const provider = (): Provider => ({ name: 'T', endpoints: { consensusHttp: server!.url, consensusRpc: server!.url, rest: server!.url } });
  const opts = (extra: Partial<ExecuteOptions> = {}): ExecuteOptions => ({ http, timeoutMs: 30_000, maxBufferBytes: 32 * MB, spillDir, ...extra });

  for (const withLength of [false, true]) {
    it(`a 12 MB JSON answer ${withLength ? 'with' : 'without'} a content-length: the same document, no body held whole, no file left`, async () => {
      const served = bigAnswer(12 * MB);
      handler = (_req, res) => send(res, 200, served, withLength);
      const o = await execute(provider(), findOperation('consensusRpc.custom')!, { method: 'block_results', params: '["42"]' }, opts());
      assert.equal(o.error, undefined, o.error?.message);
      assert.equal(o.bytes, Buffer.byteLength(served));
      assert.equal(o.body, undefined, 'the raw body is not kept beside the formatted one');
      assert.ok(o.head && o.head.length <= 64 * 1024, 'its first bytes are, for previews');
      assert.ok(o.formatted);
      const text = renderDocument(o);
      assert.equal(stripHeader(text), JSON.stringify(JSON.parse(served), null, 2) + '\n');
      assert.deepEqual(o.result, JSON.parse(served).result, 'the result, parsed on first use');
      assert.deepEqual(readdirSync(spillDir), [], 'the copy on disk (length unknown) is removed once the answer fits');
    });
  }

  it('a 12 MB answer past a 8 MB limit goes to a file, byte for byte (the disk copy kept)', async () => {
    const served = bigAnswer(12 * MB);
    handler = (_req, res) => send(res, 200, served, false);
    const o = await execute(provider(), findOperation('consensusRpc.custom')!, { method: 'block_results', params: '["42"]' }, opts({ maxBufferBytes: 8 * MB }));
    assert.equal(o.error, undefined, o.error?.message);
    assert.ok(o.file);
    assert.equal(readFileSync(o.file!, 'utf8'), served);
    assert.deepEqual(readdirSync(spillDir), [path.basename(o.file!)]);
  });

  it('a JSON-RPC error carrying 6 MB of data is read from the formatted text', async () => {
    const served = JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error', data: 'd'.repeat(6 * MB) } });
    handler = (_req, res) => send(res, 500, served, false);
    const o = await execute(provider(), findOperation('consensusHttp.block')!, { height: '5' }, opts());
    assert.equal(o.error?.kind, 'rpc');
    assert.match(o.error!.message, /^JSON-RPC error -32603 Internal error: d+… \(6291456 characters\) \(HTTP 500 Internal Server Error\)\.$/);
    assert.equal(o.error!.detail.code, -32603);
    assert.match(renderDocument(o), /^\/\/ ERROR: JSON-RPC error -32603/);
  });

  it('a REST error and a JSON answer without "result" are recognised from their top-level members', async () => {
    const padding = 'p'.repeat(5 * MB);
    handler = (_req, res) => send(res, 404, JSON.stringify({ code: 5, message: 'not found', details: [padding] }), false);
    let o = await execute(provider(), findOperation('rest.custom')!, { path: '/cosmos/x' }, opts());
    assert.equal(o.error?.kind, 'rest');
    assert.match(o.error!.message, /404 Not Found, gRPC code 5: not found\.$/);
    handler = (_req, res) => send(res, 200, JSON.stringify({ jsonrpc: '2.0', id: 1, other: padding }), false);
    o = await execute(provider(), findOperation('consensusRpc.custom')!, { method: 'status', params: '[]' }, opts());
    assert.equal(o.error?.kind, 'protocol');
  });

  it('a 6 MB HTML page answered with 200 is a clear error with a preview, and leaves no file', async () => {
    const page = `<!doctype html><html><body>${'<p>maintenance</p>'.repeat((6 * MB) / 18)}</body></html>`;
    handler = (_req, res) => send(res, 200, page, false, 'text/html');
    const o = await execute(provider(), findOperation('rest.custom')!, { path: '/x' }, opts());
    assert.equal(o.error?.kind, 'parse');
    assert.match(o.error!.message, /the body is an HTML page, not JSON/);
    const described = JSON.parse(stripHeader(renderDocument(o)));
    assert.match(described.bodyPreview, /^<!doctype html>/);
    assert.deepEqual(readdirSync(spillDir), []);
  });

  it('cancelled while the disk copy is being written: no file survives', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(bigAnswer(6 * MB).slice(0, 5 * MB)); // and never ends
    };
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 500);
    const o = await execute(provider(), findOperation('consensusRpc.custom')!, { method: 'status', params: '[]' }, opts({ signal: abort.signal }));
    assert.equal(o.error?.kind, 'cancelled');
    assert.deepEqual(readdirSync(spillDir), []);
  });
});
