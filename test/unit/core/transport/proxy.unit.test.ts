// Requests through a proxy (src/core/transport/proxy.ts, the ProxyAgent in http.ts, the tunnel for
// WebSockets). The targets are named `<name>.invalid`, which only the test proxy resolves (to
// local servers): an answer proves the request went through it. Also which addresses bypass it,
// proxy authentication, a proxy that refuses or is down, and TLS behind the proxy.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WebSocketServer } from 'ws';
import { execute, type ExecuteOptions } from '../../../../src/core/chain/execute';
import { HealthMonitor } from '../../../../src/core/health/health';
import { HttpClient } from '../../../../src/core/transport/http';
import { findOperation } from '../../../../src/core/chain/operations';
import { type Provider } from '../../../../src/core/config/providers';
import { proxyFor, proxyFromEnvironment, proxyGeneration, setProxy, setProxySource } from '../../../../src/core/transport/proxy';
import { listen } from '../../helpers/httpServer';
import { selfSigned } from '../../helpers/selfSigned';

const RESULT = JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x2a' });

/** A JSON-RPC answer for HTTP, and a WebSocket server answering every call with the same result. */
function rpcServer(server: http.Server | https.Server): http.Server | https.Server {
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // The EVM health probe asks for the latest block: block 42, made now.
      const block = { number: '0x2a', timestamp: `0x${Math.floor(Date.now() / 1000).toString(16)}` };
      res.end(Buffer.concat(chunks).toString().includes('eth_getBlockByNumber') ? JSON.stringify({ jsonrpc: '2.0', id: 1, result: block }) : RESULT);
    });
  });
  new WebSocketServer({ server }).on('connection', (ws) =>
    ws.on('message', (data) => {
      const id = JSON.parse(String(data)).id;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, result: { ok: true } }));
    }),
  );
  return server;
}

interface TestProxy {
  url: string;
  port: number;
  /** What went through: "GET http://a.invalid:80/..." for forwarded requests, "CONNECT host:port" for tunnels. */
  seen: string[];
  close(): Promise<void>;
}

/** A forward proxy (absolute-URI requests and CONNECT) that maps `<name>.invalid` to local ports. */
async function startProxy(targets: Record<string, number>, auth?: string): Promise<TestProxy> {
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const route = (host: string) => targets[host.toLowerCase()];
  const allowed = (req: http.IncomingMessage) => !auth || req.headers['proxy-authorization'] === `Basic ${Buffer.from(auth).toString('base64')}`;
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (!allowed(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' });
      res.end();
      return;
    }
    const target = new URL(req.url!);
    const port = route(target.hostname);
    if (!port) {
      res.writeHead(502);
      res.end('unknown host');
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: target.pathname + target.search, headers }, (up) => {
      res.writeHead(up.statusCode!, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    sockets.add(client);
    client.on('error', () => undefined);
    if (!allowed(req)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const [host, portText] = req.url!.split(':');
    const port = route(host);
    if (!port || !portText) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = net.connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
  });
  server.on('connection', (s: net.Socket) => sockets.add(s));
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('proxies', function () {
  this.timeout(20_000);
  let dir: string;
  let plainPort: number;
  let tlsPort: number;
  const servers: (http.Server | https.Server)[] = [];
  let client: HttpClient;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ce-proxy-'));
    const plain = rpcServer(http.createServer());
    const secure = rpcServer(https.createServer(selfSigned(dir, 'secure.invalid', 'DNS:secure.invalid')));
    servers.push(plain, secure);
    [plainPort, tlsPort] = await Promise.all(servers.map(listen));
    client = new HttpClient();
  });

  afterEach(() => setProxy({ noProxy: [], strictSSL: true }));

  after(async () => {
    await client.close();
    for (const s of servers) {
      (s as http.Server).closeAllConnections?.();
      s.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const opts = (): ExecuteOptions => ({ http: client, timeoutMs: 5000, maxBufferBytes: 1 << 20, spillDir: dir });
  const provider = (endpoints: Provider['endpoints']): Provider => ({ name: 'P', endpoints });
  const blockNumber = (url: string) => execute(provider({ evmRpc: url }), findOperation('evm.blockNumber')!, {}, opts());
  const wsStatus = (url: string) => execute(provider({ consensusWs: url }), findOperation('consensusWs.custom')!, { method: 'status', params: '{}' }, opts());

  describe('which addresses go through the proxy', () => {
    it('none without a proxy; loopback never; NO_PROXY-style entries by host, subdomain, port and "*"', () => {
      assert.equal(proxyFor('https://rpc.example.org'), undefined);
      setProxy({ url: 'http://proxy.corp:3128', noProxy: ['.internal.corp', 'node.example.net:8545', 'lan'], strictSSL: true });
      assert.equal(proxyFor('https://rpc.example.org/'), 'http://proxy.corp:3128');
      assert.equal(proxyFor('http://127.0.0.1:8545/'), undefined);
      assert.equal(proxyFor('ws://localhost:26657/websocket'), undefined);
      assert.equal(proxyFor('http://[::1]:1317/'), undefined);
      assert.equal(proxyFor('https://a.internal.corp/'), undefined);
      assert.equal(proxyFor('https://internal.corp/'), undefined);
      assert.equal(proxyFor('https://notinternal.corp/'), 'http://proxy.corp:3128');
      assert.equal(proxyFor('http://node.example.net:8545/'), undefined);
      assert.equal(proxyFor('http://node.example.net:26657/'), 'http://proxy.corp:3128');
      assert.equal(proxyFor('wss://x.lan/websocket'), undefined);
      setProxy({ url: 'http://proxy.corp:3128', noProxy: ['*'], strictSSL: true });
      assert.equal(proxyFor('https://rpc.example.org/'), undefined);
    });

    it('reads HTTPS_PROXY (else HTTP_PROXY), either case, and NO_PROXY lists', () => {
      assert.deepEqual(proxyFromEnvironment({ https_proxy: 'http://p:1', HTTP_PROXY: 'http://q:2', NO_PROXY: 'a.org, .b.org  c:80' }), {
        url: 'http://p:1',
        noProxy: ['a.org', '.b.org', 'c:80'],
      });
      assert.deepEqual(proxyFromEnvironment({ HTTP_PROXY: 'http://q:2' }), { url: 'http://q:2', noProxy: [] });
      assert.deepEqual(proxyFromEnvironment({}), { url: undefined, noProxy: [] });
    });
  });

  describe('through a proxy', () => {
    let proxy: TestProxy;
    beforeEach(async () => {
      proxy = await startProxy({ 'node.invalid': plainPort, 'secure.invalid': tlsPort });
    });
    afterEach(() => proxy.close());

    it('http:// as an absolute-URI request to the proxy', async () => {
      setProxy({ url: proxy.url, noProxy: [], strictSSL: true });
      const o = await blockNumber(`http://node.invalid:8545/`);
      assert.equal(o.error, undefined, o.error?.message);
      assert.equal(o.result, '0x2a');
      assert.deepEqual(proxy.seen, ['POST http://node.invalid:8545/']);
    });

    it('https:// through a CONNECT tunnel; the certificate is checked unless http.proxyStrictSSL is off', async () => {
      setProxy({ url: proxy.url, noProxy: [], strictSSL: true });
      const refused = await blockNumber(`https://secure.invalid:443/`);
      assert.equal(refused.error?.kind, 'network');
      assert.match(
        refused.error!.message,
        /^Could not reach https:\/\/secure\.invalid\/ \(through the proxy http:\/\/127\.0\.0\.1:\d+\/\): TLS error: self-signed certificate\.$/,
      );
      setProxy({ url: proxy.url, noProxy: [], strictSSL: false });
      const o = await blockNumber(`https://secure.invalid:443/`);
      assert.equal(o.error, undefined, o.error?.message);
      assert.equal(o.result, '0x2a');
      assert.ok(
        proxy.seen.every((s) => s === 'CONNECT secure.invalid:443'),
        proxy.seen.join(', '),
      );
    });

    it('ws:// and wss:// through a CONNECT tunnel', async () => {
      setProxy({ url: proxy.url, noProxy: [], strictSSL: false });
      const plain = await wsStatus('ws://node.invalid:26657/websocket');
      assert.equal(plain.error, undefined, plain.error?.message);
      assert.deepEqual(plain.result, { ok: true });
      const secure = await wsStatus('wss://secure.invalid/websocket');
      assert.equal(secure.error, undefined, secure.error?.message);
      assert.deepEqual(proxy.seen, ['CONNECT node.invalid:26657', 'CONNECT secure.invalid:443']);
    });

    it('an address in noProxy goes directly (and a name only the proxy knows then fails to resolve)', async () => {
      setProxy({ url: proxy.url, noProxy: ['node.invalid'], strictSSL: true });
      const o = await blockNumber('http://node.invalid:8545/');
      assert.equal(o.error?.kind, 'network');
      assert.match(o.error!.message, /^Could not reach http:\/\/node\.invalid:8545\/: DNS lookup failed/);
      assert.deepEqual(proxy.seen, []);
    });
  });

  describe('a proxy that asks for credentials', () => {
    let proxy: TestProxy;
    before(async () => {
      proxy = await startProxy({ 'node.invalid': plainPort, 'secure.invalid': tlsPort }, 'dev:s3cret');
    });
    after(() => proxy.close());

    it('credentials in the proxy address are sent, and never shown', async () => {
      const withAuth = proxy.url.replace('http://', 'http://dev:s3cret@');
      setProxy({ url: withAuth, noProxy: [], strictSSL: false });
      assert.equal((await blockNumber('http://node.invalid:8545/')).result, '0x2a');
      assert.equal((await blockNumber('https://secure.invalid/')).result, '0x2a');
      assert.deepEqual((await wsStatus('wss://secure.invalid/websocket')).result, { ok: true });

      // Refused (wrong password): the sentence names the proxy with the credentials masked.
      setProxy({ url: proxy.url.replace('http://', 'http://dev:wrong@'), noProxy: [], strictSSL: false });
      const asks = 'the proxy asks for credentials (HTTP 407): give them in the proxy address, http://user:password@host:port.';
      const http407 = await blockNumber('http://node.invalid:8545/');
      assert.equal(http407.error?.kind, 'network');
      assert.match(http407.error!.message, /^Could not reach http:\/\/node\.invalid:8545\/ \(through the proxy http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:\d+\/\): /);
      assert.ok(http407.error!.message.endsWith(asks), http407.error!.message);
      const tunnel407 = await blockNumber('https://secure.invalid/');
      assert.equal(tunnel407.error?.kind, 'network');
      assert.match(tunnel407.error!.message, /^Could not reach https:\/\/secure\.invalid\/ \(through the proxy http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:\d+\/\): /);
      assert.ok(tunnel407.error!.message.endsWith(asks), tunnel407.error!.message);
      const ws407 = await wsStatus('wss://secure.invalid/websocket');
      assert.equal(ws407.error?.kind, 'network');
      assert.ok(ws407.error!.message.endsWith(asks), ws407.error!.message);
      for (const o of [http407, tunnel407, ws407]) assert.doesNotMatch(o.error!.message, /s3cret|wrong/);
    });
  });

  it("the editor's settings are read on the first request that asks, once, and again after a change (activation reads none)", () => {
    let reads = 0;
    let url = 'http://proxy.invalid:3128';
    const before = proxyGeneration();
    setProxySource(() => {
      reads++;
      return { url, noProxy: ['direct.invalid'], strictSSL: true };
    });
    assert.equal(reads, 0, 'handing the source in reads nothing');
    assert.notEqual(proxyGeneration(), before, 'agents cached before are stale');
    assert.equal(proxyFor('http://node.invalid:8545'), url);
    assert.equal(proxyFor('http://direct.invalid:8545'), undefined);
    assert.equal(reads, 1, 'read once for every later request');
    url = 'http://other.invalid:3128';
    setProxySource(() => {
      reads++;
      return { url, noProxy: [], strictSSL: true };
    });
    assert.equal(proxyFor('http://node.invalid:8545'), 'http://other.invalid:3128');
    assert.equal(reads, 2);
  });

  it('a proxy that is down: the sentence says the proxy was refused, not the node', async () => {
    const closed = net.createServer();
    const port = await listen(closed);
    await new Promise((r) => closed.close(r));
    setProxy({ url: `http://127.0.0.1:${port}`, noProxy: [], strictSSL: true });
    const o = await blockNumber('http://node.invalid:8545/');
    assert.equal(o.error?.kind, 'network');
    assert.match(o.error!.message, /^Could not reach http:\/\/node\.invalid:8545\/ \(through the proxy http:\/\/127\.0\.0\.1:\d+\/\): connection refused/);
    const ws = await wsStatus('wss://node.invalid/websocket');
    assert.equal(ws.error?.kind, 'network');
    assert.match(ws.error!.message, /^Could not reach wss:\/\/node\.invalid\/websocket \(through the proxy http:\/\/127\.0\.0\.1:\d+\/\): connection refused/);
  });

  it('the health probes go through it too', async () => {
    const proxy = await startProxy({ 'node.invalid': plainPort });
    try {
      setProxy({ url: proxy.url, noProxy: [], strictSSL: true });
      const monitor = new HealthMonitor({ http: client, timeoutMs: 5000 });
      const providers = [{ name: 'behind', endpoints: { evmRpc: 'http://node.invalid:8545/' } }];
      await monitor.refresh(providers);
      const [row] = monitor.assess(providers);
      assert.equal(row.last?.ok, true, row.last?.error);
      assert.equal(row.last?.height, 42n);
      assert.ok(proxy.seen.length >= 2, proxy.seen.join(', '));
    } finally {
      await proxy.close();
    }
  });
});
