// The HTTP client and the reading of answers: every error shape of docs/protocols.md becomes one
// clear sentence; timeouts, cancellation, redirects, compression and large bodies.

import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { execute, type ExecuteOptions } from '../../../../src/core/chain/execute';
import { HttpClient } from '../../../../src/core/transport/http';
import { findOperation } from '../../../../src/core/chain/operations';
import { type Provider } from '../../../../src/core/config/providers';
import { renderDocument, stripHeader } from '../../../../src/core/documents/render';
import { json, startServer, type TestServer, type Handler } from '../../helpers/httpServer';

describe('transport and error mapping', () => {
  let http: HttpClient;
  let spillDir: string;
  let server: TestServer | undefined;
  let handler: Handler = () => undefined;

  before(async () => {
    http = new HttpClient();
    spillDir = mkdtempSync(path.join(tmpdir(), 'ce-spill-'));
    server = await startServer((req, res) => handler(req, res));
  });
  after(async () => {
    await server?.close();
    await http.close();
    rmSync(spillDir, { recursive: true, force: true });
  });

  const opts = (extra: Partial<ExecuteOptions> = {}): ExecuteOptions => ({ http, timeoutMs: 2000, maxBufferBytes: 1024 * 1024, spillDir, ...extra });
  const prov = (): Provider => ({
    name: 'T',
    endpoints: { evmRpc: server!.url, consensusHttp: server!.url, consensusRpc: server!.url + '/', rest: server!.url + '/' },
  });
  const run = (id: string, args = {}, extra: Partial<ExecuteOptions> = {}) => execute(prov(), findOperation(id)!, args, opts(extra));

  it('a success: result, status, size, and the document body equals what was served', async () => {
    const served = '{"jsonrpc":"2.0","id":1,"result":"0x1b4"}';
    handler = (_req, res) => json(res, 200, served);
    const o = await run('evm.blockNumber');
    assert.equal(o.error, undefined);
    assert.equal(o.status, 200);
    assert.equal(o.result, '0x1b4');
    assert.equal(o.summary, '0x1b4 = 436 (decimal)');
    assert.equal(o.bytes, served.length);
    const text = renderDocument(o);
    assert.match(
      text,
      /^\/\/ EVM RPC · eth_blockNumber · T\n\/\/ POST http:\/\/127\.0\.0\.1:\d+\/\n\/\/ request: \{"jsonrpc":"2\.0","method":"eth_blockNumber","params":\[\],"id":\d+\}\n\/\/ HTTP 200 OK · \d+ ms · /,
    );
    assert.match(text, /\/\/ result: 0x1b4 = 436 \(decimal\)/);
    assert.deepEqual(JSON.parse(stripHeader(text)), JSON.parse(served));
    const last = server!.requests.at(-1)!;
    assert.equal(last.headers['content-type'], 'application/json');
  });

  it('JSON-RPC errors in a 200 (POST) and in a 500 (CometBFT URI form)', async () => {
    handler = (_req, res) =>
      json(res, 200, {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32603, message: 'Internal error', data: 'height 99 must be less than or equal to the current blockchain height 5' },
      });
    let o = await run('consensus.block', { height: '99' });
    assert.equal(o.error?.kind, 'rpc');
    assert.equal(o.error?.message, 'JSON-RPC error -32603 Internal error: height 99 must be less than or equal to the current blockchain height 5.');
    assert.match(renderDocument(o), /^\/\/ ERROR: JSON-RPC error -32603/);
    handler = (_req, res) =>
      json(res, 500, { jsonrpc: '2.0', id: -1, error: { code: -32603, message: 'Internal error', data: 'height must be greater than 0, but got 0' } });
    o = await run('consensusHttp.block', { height: '1' });
    assert.equal(o.error?.message, 'JSON-RPC error -32603 Internal error: height must be greater than 0, but got 0 (HTTP 500 Internal Server Error).');
    handler = (_req, res) => json(res, 200, { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } });
    o = await run('evm.custom', { method: 'eth_nope' });
    assert.equal(o.error?.message, 'JSON-RPC error -32601 Method not found.');
  });

  it('REST error bodies with their gRPC code', async () => {
    handler = (_req, res) => json(res, 400, { code: 3, message: 'requested block height is bigger then the chain length', details: [] });
    const o = await run('rest.blockByHeight', { height: '999' });
    assert.equal(o.error?.kind, 'rest');
    assert.match(o.error!.message, /HTTP 400 Bad Request, gRPC code 3: requested block height is bigger then the chain length\.$/);
    handler = (_req, res) => json(res, 501, { code: 12, message: 'Not Implemented', details: [] });
    assert.match((await run('rest.custom', { path: '/nope' })).error!.message, /HTTP 501 Not Implemented, gRPC code 12: Not Implemented/);
  });

  it('an HTML 502 page, a 429 with Retry-After, a plain 404, garbage and an empty body', async () => {
    handler = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    };
    let o = await run('rest.latestBlock');
    assert.match(
      o.error!.message,
      /^HTTP 502 Bad Gateway from http:\/\/127\.0\.0\.1:\d+\/cosmos\/base\/tendermint\/v1beta1\/blocks\/latest: the server answered with an HTML page\.$/,
    );
    const doc = JSON.parse(stripHeader(renderDocument(o)));
    assert.equal(doc.status, 502);
    assert.match(doc.bodyPreview, /502 Bad Gateway/);

    handler = (_req, res) => {
      res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '7' });
      res.end('slow down');
    };
    o = await run('evm.blockNumber');
    assert.match(o.error!.message, /HTTP 429 Too Many Requests .* rate-limiting requests\. Retry after 7 s\./);
    assert.equal(JSON.parse(stripHeader(renderDocument(o))).retryAfter, '7');

    handler = (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found');
    };
    assert.match((await run('consensusHttp.custom', { path: '/nope' })).error!.message, /HTTP 404 Not Found from .*: 404 page not found\./);

    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"result": tru');
    };
    o = await run('evm.blockNumber');
    assert.equal(o.error?.kind, 'parse');
    assert.match(o.error!.message, /HTTP 200 OK from .*, but the body is not JSON: "\{"result": tru"\./);

    handler = (_req, res) => {
      res.writeHead(200);
      res.end();
    };
    assert.match((await run('evm.blockNumber')).error!.message, /with an empty body/);
  });

  it('a redirect is never followed (a POST must not turn into a GET)', async () => {
    handler = (_req, res) => {
      res.writeHead(301, { location: '/elsewhere' });
      res.end();
    };
    const before = server!.requests.length;
    const o = await run('consensusRpc.broadcastTxSync', { tx: 'a2V5PXZhbHVl' });
    assert.match(o.error!.message, /HTTP 301 .*a redirect to \/elsewhere, not followed/);
    assert.equal(server!.requests.length, before + 1);
    assert.equal(server!.requests.at(-1)!.method, 'POST');
  });

  it('a gzip-compressed body is decoded', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync('{"jsonrpc":"2.0","id":1,"result":"0x10"}'));
    };
    assert.equal((await run('evm.blockNumber')).result, '0x10');
  });

  it('times out a server that never answers, and one whose body never finishes', async () => {
    handler = () => undefined;
    let o = await run('evm.blockNumber', {}, { timeoutMs: 300 });
    assert.equal(o.error?.kind, 'timeout');
    assert.match(o.error!.message, /No complete answer from .* within 0\.3 s\./);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0",');
    };
    o = await run('evm.blockNumber', {}, { timeoutMs: 300 });
    assert.equal(o.error?.kind, 'timeout');
  });

  it('cancellation stops the request at once', async () => {
    handler = () => undefined;
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(), 100);
    const o = await run('evm.blockNumber', {}, { timeoutMs: 10_000, signal: abort.signal });
    assert.equal(o.error?.kind, 'cancelled');
    assert.ok(Date.now() - started < 5000);
  });

  it('a refused connection', async () => {
    const p: Provider = { name: 'dead', endpoints: { evmRpc: 'http://127.0.0.1:1' } };
    const o = await execute(p, findOperation('evm.blockNumber')!, {}, opts());
    assert.equal(o.error?.kind, 'network');
    assert.match(o.error!.message, /Could not reach http:\/\/127\.0\.0\.1:1\/?: connection refused/);
    assert.match(renderDocument(o), /^\/\/ ERROR: Could not reach/);
  });

  it('bodies past the limit are streamed to a file, intact', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: -1, result: { data: 'x'.repeat(3 * 1024 * 1024) } });
    handler = (_req, res) => json(res, 200, big);
    const o = await run('consensusHttp.status', {}, { maxBufferBytes: 1024 * 1024 });
    assert.ok(o.file, 'expected a file');
    assert.equal(o.body, undefined);
    assert.equal(readFileSync(o.file!, 'utf8'), big);
    assert.equal(o.bytes, big.length);
  });

  it('input is validated before anything is sent', async () => {
    const before = server!.requests.length;
    const o = await run('consensus.block', { height: 'abc' });
    assert.equal(o.error?.kind, 'input');
    assert.equal(server!.requests.length, before);
  });

  it('no partial spill file survives a cancelled large download', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"x":"' + 'y'.repeat(2 * 1024 * 1024));
    };
    const abort = new AbortController();
    const dir = mkdtempSync(path.join(tmpdir(), 'ce-spill2-'));
    setTimeout(() => abort.abort(), 300);
    const o = await run('consensusHttp.status', {}, { maxBufferBytes: 1024 * 1024, spillDir: dir, signal: abort.signal, timeoutMs: 10_000 });
    assert.equal(o.error?.kind, 'cancelled');
    assert.deepEqual(readdirSync(dir), []);
    assert.ok(!existsSync(path.join(dir, 'x')));
    rmSync(dir, { recursive: true, force: true });
  });
});
