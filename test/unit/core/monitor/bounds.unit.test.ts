// What a scrape, a slow client and a query file can cost the exporter, and what it sends: the HTTP
// server's answers to other paths, methods and bodies; slow clients (headers dripped, answers never
// read); /probe shared by concurrent scrapes and aborted when its scrape goes away; the exposition
// valid whatever the providers and files are named; and query files from a repository: no state
// change (refused at start, and the runner's backstop), a file's timeout never past --timeout, a
// slow file never delaying the health probes, spilled answers removed, the series and the
// configuration bounded, explorer.receipt as in the CLI.

import * as assert from 'node:assert/strict';
import http = require('node:http');
import net = require('node:net');
import { type AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Provider } from '../../../../src/core/config/providers';
import { Exporter, type ExporterConfig } from '../../../../src/core/monitor/exporter';
import { MAX_QUERY_REQUESTS, loadConfig, runServe } from '../../../../src/core/monitor/serve';
import { parseServeArgs } from '../../../../src/core/monitor/serveArgs';
import { createExporterServer } from '../../../../src/core/monitor/server';
import { prepareRun } from '../../../../src/core/queries/pipeline';
import { HttpClient } from '../../../../src/core/transport/http';
import { type Devnet, localProviders, startDevnet } from '../../../devnet/devnet';
import { HOSTILE_VALUES, duplicateSeries, promtoolCheckMetrics } from '../../helpers/prometheus';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A node that accepts connections and never answers; counts the requests it got and those still open. */
async function hangingNode(): Promise<{ url: string; requests: () => number; waiting: () => number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let requests = 0;
  let waiting = 0;
  const s = net.createServer((c) => {
    sockets.add(c);
    let asked = false;
    c.on('data', () => {
      if (asked) return;
      asked = true;
      requests++;
      waiting++;
    });
    c.on('close', () => asked && waiting--);
    c.on('error', () => undefined);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    requests: () => requests,
    waiting: () => waiting,
    close: async () => {
      for (const c of sockets) c.destroy();
      await new Promise<void>((r) => s.close(() => r()));
    },
  };
}

/** A JSON-RPC node answering every call and GET with `body` (default a small result); records the methods called. */
async function answeringNode(body?: Buffer): Promise<{ url: string; methods: string[]; close(): Promise<void> }> {
  const methods: string[] = [];
  const s = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      try {
        const m = (JSON.parse(text || '{}') as { method?: string }).method;
        methods.push(m ?? `GET ${req.url}`);
      } catch {
        methods.push('?');
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(body ?? '{"jsonrpc":"2.0","id":1,"result":"0x1"}');
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    methods,
    close: async () => {
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    },
  };
}

function config(providers: Provider[], queries: { name: string; text: string }[] = []): ExporterConfig {
  return {
    providers,
    resolved: new Map(providers.map((p) => [p.name, p])),
    queries: queries.map((q) => ({ name: q.name, prepared: prepareRun([{ name: q.name, source: q.text }], { providers, env: {}, allowEnv: new Set() }) })),
    queryContext: { secretValue: () => undefined, foreignSecrets: () => [] },
  };
}

/** The value of the sample of `name` whose labels include `labels`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

/** Sends `head` (and then `body` chunks until the server closes or `ms` pass): the status line, and whether and when it closed. */
async function rawRequest(port: number, head: string, ms = 3000, chunk?: Buffer): Promise<{ status: string; closedAfterMs?: number; sent: number }> {
  const c = net.connect(port, '127.0.0.1');
  let out = '';
  let closedAt: number | undefined;
  const t0 = performance.now();
  c.on('data', (d: Buffer) => (out += d.toString('latin1')));
  c.on('error', () => undefined);
  c.on('close', () => (closedAt = performance.now() - t0));
  c.write(head);
  // The answer first (a reset once the server closes may discard what the client has not read yet).
  while (chunk && out === '' && closedAt === undefined && performance.now() - t0 < ms) await sleep(10);
  let sent = 0;
  while (closedAt === undefined && performance.now() - t0 < ms) {
    if (chunk && !c.destroyed) {
      c.write(chunk);
      sent += chunk.length;
    }
    await sleep(20);
  }
  c.destroy();
  return { status: out.split('\r\n')[0], closedAfterMs: closedAt, sent };
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
}

describe('monitor: what scrapes, slow clients and query files can cost the exporter', function () {
  this.timeout(60_000);

  describe('the HTTP server', () => {
    const small = Buffer.from('# HELP t Up.\n# TYPE t gauge\nt 1\n');
    let body = small;
    const fake = { metricsBody: () => body, probeNow: async () => 'busy' as const };

    it('answers only its paths and GET/HEAD; //metrics is a path; a request body is refused and the connection closed, not drained', async () => {
      const server = createExporterServer(fake);
      const port = await listen(server);
      try {
        const status = async (method: string, target: string) =>
          (await rawRequest(port, `${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).status;
        assert.equal(await status('GET', '/metrics'), 'HTTP/1.1 200 OK');
        assert.equal(await status('HEAD', '/metrics'), 'HTTP/1.1 200 OK');
        assert.equal(await status('GET', '/metrics?x=%ZZ'), 'HTTP/1.1 200 OK');
        for (const m of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PATCH']) assert.equal(await status(m, '/metrics'), 'HTTP/1.1 405 Method Not Allowed', m);
        for (const p of ['/metrics/', '/METRICS', '/nope', '/probe/x']) assert.equal(await status('GET', p), 'HTTP/1.1 404 Not Found', p);
        // `//metrics` read as a URL is the host "metrics" with the path "/": it was the index page.
        assert.equal(await status('GET', '//metrics'), 'HTTP/1.1 404 Not Found');
        // A header block past Node's 16 KiB: 431.
        assert.match((await rawRequest(port, `GET /metrics HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n`)).status, /^HTTP\/1.1 431/);
        // A body that never ends, announced or chunked: refused, and the connection closed at once (it was read for up to 30 s).
        const mb = Buffer.alloc(1 << 20, 97);
        for (const head of [
          'POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n',
          'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n',
          'GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
        ]) {
          const r = await rawRequest(port, head, 5000, mb);
          assert.match(r.status, /^HTTP\/1.1 (405|413)/, head);
          assert.ok(
            r.closedAfterMs !== undefined && r.closedAfterMs < 2000,
            `${head.split('\r\n')[0]}: closed after ${r.closedAfterMs} ms, ${r.sent} bytes sent`,
          );
        }
      } finally {
        await closeServer(server);
      }
    });

    it('sends every scrape the one buffer of the text: 20 clients that never read a 10 MB text hold no copy of it', async () => {
      body = Buffer.from('chain_endpoints_up{network="n",provider="p",interface="evmRpc"} 1\n'.repeat(150_000));
      const server = createExporterServer(fake);
      const port = await listen(server);
      const clients: net.Socket[] = [];
      try {
        global.gc?.();
        const before = process.memoryUsage().arrayBuffers;
        for (let i = 0; i < 20; i++) {
          const c = net.connect(port, '127.0.0.1');
          c.on('error', () => undefined);
          c.pause(); // never reads: the answer stays in the server's send queue
          c.write('GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n');
          clients.push(c);
        }
        await sleep(1500);
        const grown = process.memoryUsage().arrayBuffers - before;
        // Each answer was its own UTF-8 copy of the string (about 3 bytes a character reserved): 20 x 30 MB.
        assert.ok(grown < 50 * 1024 * 1024, `${(grown / 1024 / 1024).toFixed(0)} MiB held for 20 stalled scrapes of ${(body.length / 1e6).toFixed(0)} MB`);
        const res = await fetch(`http://127.0.0.1:${port}/metrics`);
        assert.equal(res.headers.get('content-length'), String(body.length));
        assert.equal((await res.arrayBuffer()).byteLength, body.length);
      } finally {
        for (const c of clients) c.destroy();
        body = small;
        await closeServer(server);
      }
    });

    it('closes a connection that drips its headers at the headers timeout (10 s), while scrapes are answered', async function () {
      this.timeout(30_000);
      const server = createExporterServer(fake);
      const port = await listen(server);
      const clients: net.Socket[] = [];
      let closed = 0;
      try {
        for (let i = 0; i < 100; i++) {
          const c = net.connect(port, '127.0.0.1');
          c.on('error', () => undefined);
          c.on('close', () => closed++);
          c.write('GET /metrics HTTP/1.1\r\nHost: x\r\n');
          clients.push(c);
        }
        const t0 = performance.now();
        while (closed < 100 && performance.now() - t0 < 20_000) {
          for (const c of clients) if (!c.destroyed) c.write('X-A: b\r\n');
          assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`)).status, 200);
          await sleep(1000);
        }
        // Node checks its timeouts every connectionsCheckingInterval (30 s unless set): 10 s + 1 s.
        assert.equal(closed, 100);
        assert.ok(performance.now() - t0 < 16_000, `closed after ${(performance.now() - t0).toFixed(0)} ms`);
      } finally {
        for (const c of clients) c.destroy();
        await closeServer(server);
      }
    });
  });

  describe('/probe', () => {
    it('two scrapes of one target at once share one probe; a scrape that goes away aborts its probe', async () => {
      const hang = await hangingNode();
      const http1 = new HttpClient();
      const ex = new Exporter(config([{ name: 'hangs', endpoints: { consensusHttp: hang.url } }]), {
        http: http1,
        intervalMs: 60_000,
        timeoutMs: 3000,
        concurrency: 2,
      });
      const server = createExporterServer(ex);
      const port = await listen(server);
      const probe = (signal?: AbortSignal) =>
        fetch(`http://127.0.0.1:${port}/probe?target=hangs&module=consensusHttp`, { headers: { 'X-Prometheus-Scrape-Timeout-Seconds': '1.5' }, signal });
      try {
        const one = await (await probe()).text();
        assert.match(one, /^probe_success 0$/m);
        const alone = hang.requests();
        assert.ok(alone >= 1);
        const [a, b] = await Promise.all([probe(), probe()]);
        assert.deepEqual([a.status, b.status], [200, 200]);
        const [ta, tb] = [await a.text(), await b.text()];
        assert.equal(ta, tb, 'one probe, one answer');
        assert.match(ta, /^chain_endpoints_probe_error\{kind="timeout"\} 1$/m);
        assert.equal(hang.requests() - alone, alone, 'the second scrape joined the first probe');
        // A scrape whose client gives up after 300 ms (its own timeout) while the probe may wait 9.5 s.
        const before = hang.requests();
        const t0 = performance.now();
        await assert.rejects(
          fetch(`http://127.0.0.1:${port}/probe?target=hangs&module=consensusHttp`, {
            headers: { 'X-Prometheus-Scrape-Timeout-Seconds': '10' },
            signal: AbortSignal.timeout(300),
          }),
        );
        while (hang.waiting() > 0 && performance.now() - t0 < 5000) await sleep(50);
        assert.ok(hang.requests() > before, 'the probe was sent');
        assert.equal(hang.waiting(), 0, 'its requests were cancelled');
        assert.ok(performance.now() - t0 < 2000, `the probe was aborted after ${(performance.now() - t0).toFixed(0)} ms (its timeout: 9.5 s)`);
      } finally {
        ex.stop();
        await closeServer(server);
        await http1.close();
        await hang.close();
      }
    });
  });

  describe('the exposition', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(path.join(tmpdir(), 'exporter-names-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('stays valid whatever the providers, networks and query files are named: promtool clean, no series twice', async function () {
      this.timeout(600_000); // a first install of promtool downloads Debian's package
      const refused = await new Promise<number>((resolve) => {
        const s = net.createServer().listen(0, '127.0.0.1', () => {
          const port = (s.address() as AddressInfo).port;
          s.close(() => resolve(port));
        });
      });
      // Names are trimmed and unique regardless of case; the second lone surrogate would collide (refused below).
      // A provider's name is at most 100 characters (core/config/providers.ts): the longest value is cut to that.
      const names = HOSTILE_VALUES.filter((v) => v.trim() !== '' && v !== 'lone\uDC00').map((v) => v.slice(0, 100));
      const providers = names.map((name, i) => ({
        name,
        ...(i % 2 ? { network: name.slice(0, 100) } : { chainId: name.slice(0, 300) }),
        consensusHttp: `http://127.0.0.1:${refused}`,
        evmRpc: `http://127.0.0.1:${refused}/x`,
      }));
      writeFileSync(path.join(dir, 'providers.json'), JSON.stringify(providers));
      mkdirSync(path.join(dir, 'checks'));
      const weird = 'we"ird\\na\nme\u2028 é.chainq';
      writeFileSync(path.join(dir, 'checks', weird), `request tip = consensusHttp.status\nprovider: ${names[0]}\nassert success\n`);
      const cfg = loadConfig(parseServeArgs(['--providers', 'providers.json', '--queries', 'checks']), dir, {});
      const httpClient = new HttpClient();
      const ex = new Exporter(cfg, { http: httpClient, intervalMs: 60_000, timeoutMs: 1000, concurrency: 8, costlyCapabilities: false });
      try {
        await ex.round();
        ex.update();
        const text = ex.metrics();
        assert.equal(sample(text, 'chain_endpoints_up', { provider: 'q\\"uote', interface: 'consensusHttp' }), 0, text.slice(0, 2000));
        assert.equal(sample(text, 'chain_endpoints_query_passed', { file: 'we\\"ird\\\\na\\nme\u2028 é.chainq' }), 0);
        assert.deepEqual(duplicateSeries(text), []);
        assert.equal(ex.metricsBody().toString('utf8'), text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
        const checked = promtoolCheckMetrics(ex.metricsBody().toString('utf8'));
        assert.equal(checked.status, 0, checked.out);
      } finally {
        ex.stop();
        await httpClient.close();
      }
      // Two names that differ only in an unpaired surrogate would be one label: refused at start.
      writeFileSync(
        path.join(dir, 'twins.json'),
        '[{"name": "a\\ud800", "evmRpc": "http://127.0.0.1:1"}, {"name": "a\\udc00", "evmRpc": "http://127.0.0.1:1"}]',
      );
      assert.throws(() => loadConfig(parseServeArgs(['--providers', 'twins.json']), dir, {}), /two providers would both be labelled provider="a\uFFFD"/);
    });
  });

  describe('query files', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(path.join(tmpdir(), 'exporter-queries-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('never changes state: "confirm: broadcast" is refused at start, and the runner sends no broadcast if one gets that far', async () => {
      const node = await answeringNode();
      const providers = [{ name: 'node', endpoints: { evmRpc: node.url } }];
      const text =
        'request send = evmRpc eth_sendRawTransaction\nprovider: node\nparams: ["0x02f8"]\nconfirm: broadcast\n\nrequest head = evmRpc eth_blockNumber\nprovider: node\n';
      writeFileSync(path.join(dir, 'providers.json'), JSON.stringify([{ name: 'node', evmRpc: node.url }]));
      writeFileSync(path.join(dir, 'send.chainq'), text);
      assert.throws(
        () => loadConfig(parseServeArgs(['--providers', 'providers.json', '--queries', 'send.chainq']), dir, {}),
        /send\.chainq:1:1: request send says "confirm: broadcast": the exporter never sends a request that changes state/,
      );
      // The backstop: a configuration built without loadConfig.
      const httpClient = new HttpClient();
      const ex = new Exporter(config(providers, [{ name: 'send.chainq', text }]), {
        http: httpClient,
        intervalMs: 60_000,
        timeoutMs: 2000,
        concurrency: 2,
        costlyCapabilities: false,
      });
      try {
        await ex.round();
        ex.update();
        assert.ok(node.methods.includes('eth_blockNumber'), node.methods.join(', '));
        assert.ok(!node.methods.includes('eth_sendRawTransaction'), node.methods.join(', '));
        assert.equal(sample(ex.metrics(), 'chain_endpoints_query_passed', { request: 'send', provider: 'node' }), 0);
      } finally {
        ex.stop();
        await httpClient.close();
        await node.close();
      }
    });

    it("a file's timeout never lengthens --timeout, and a slow file never delays the health probes", async () => {
      const hang = await hangingNode();
      const node = await answeringNode();
      // The answering node is a health probe that succeeds quickly enough to count (up or down does not matter here).
      const providers: Provider[] = [
        { name: 'hangs', endpoints: { evmRpc: hang.url } },
        { name: 'quick', endpoints: { evmRpc: node.url } },
      ];
      let text = '@provider = hangs\n';
      for (let i = 0; i < 20; i++) text += `request r${i} = evmRpc eth_blockNumber\ntimeout: 3600s\n`;
      const httpClient = new HttpClient();
      const ex = new Exporter(config(providers, [{ name: 'slow.chainq', text }]), {
        http: httpClient,
        intervalMs: 300,
        timeoutMs: 500,
        concurrency: 1,
        costlyCapabilities: false,
      });
      try {
        ex.start();
        await sleep(4000);
        const probes = ex.registry
          .all()
          .find((f) => f.name === 'chain_endpoints_probes_total')!
          .values()
          .find((v) => v.labels.provider === 'quick')!.value;
        // One slot: the query file (20 requests x 0.5 s, one after the other) held it for 10 s and the health probe waited.
        assert.ok(probes >= 5, `${probes} health probes of "quick" in 4 s at a 300 ms interval`);
      } finally {
        ex.stop();
      }
      // Each request of the file stopped at --timeout (0.5 s), not at its own 3600 s.
      const one = new Exporter(config(providers, [{ name: 'one.chainq', text: 'request r = evmRpc eth_blockNumber\nprovider: hangs\ntimeout: 3600s\n' }]), {
        http: httpClient,
        intervalMs: 60_000,
        timeoutMs: 500,
        concurrency: 2,
        costlyCapabilities: false,
      });
      try {
        const t0 = performance.now();
        await one.round();
        assert.ok(performance.now() - t0 < 3000, `the round took ${(performance.now() - t0).toFixed(0)} ms`);
      } finally {
        one.stop();
        await httpClient.close();
        await node.close();
        await hang.close();
      }
    });

    it('removes the answers spilled to disk when a run ends', async () => {
      const big = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { pad: 'x'.repeat(6 * 1024 * 1024) } }));
      const node = await answeringNode(big);
      const spillDir = mkdtempSync(path.join(tmpdir(), 'exporter-spill-'));
      const httpClient = new HttpClient();
      const providers = [{ name: 'big', endpoints: { consensusHttp: node.url } }];
      const ex = new Exporter(config(providers, [{ name: 'big.chainq', text: 'request h = consensusHttp GET /health\nprovider: big\nassert success\n' }]), {
        http: httpClient,
        intervalMs: 60_000,
        timeoutMs: 5000,
        concurrency: 2,
        spillDir,
        costlyCapabilities: false,
      });
      try {
        for (let i = 0; i < 3; i++) await ex.round();
        ex.update();
        assert.equal(sample(ex.metrics(), 'chain_endpoints_query_passed', { request: 'h', provider: 'big' }), 1);
        // Each run left its 6 MB answer behind (a 16 MB one every 30 s is 46 GB a day).
        assert.deepEqual(readdirSync(spillDir), []);
      } finally {
        ex.stop();
        await httpClient.close();
        await node.close();
        rmSync(spillDir, { recursive: true, force: true });
      }
    });

    it('exports at most maxQuerySeries results, saying so once', async () => {
      const node = await answeringNode();
      const providers = [
        { name: 'a', network: 'N', endpoints: { evmRpc: node.url } },
        { name: 'b', network: 'N', endpoints: { evmRpc: node.url } },
      ];
      let text = '@provider = *\n';
      for (let i = 0; i < 6; i++) text += `request r${i} = evmRpc eth_blockNumber\n`;
      const logs: string[] = [];
      const httpClient = new HttpClient();
      const ex = new Exporter(config(providers, [{ name: 'wide.chainq', text }]), {
        http: httpClient,
        intervalMs: 60_000,
        timeoutMs: 2000,
        concurrency: 2,
        costlyCapabilities: false,
        maxQuerySeries: 5,
        log: (l) => logs.push(l),
      });
      try {
        await ex.round();
        await ex.round();
        const family = ex.registry.all().find((f) => f.name === 'chain_endpoints_query_passed')!;
        assert.equal(family.size, 5);
        assert.deepEqual(
          logs.filter((l) => l.includes('not exported')),
          ['query file wide.chainq: 7 result(s) not exported (chain_endpoints_query_passed holds at most 5 series)'],
        );
      } finally {
        ex.stop();
        await httpClient.close();
        await node.close();
      }
    });

    it('logs one line per event whatever a provider or a query file is named (no line feed, no terminal escape)', async () => {
      const node = await answeringNode();
      const forged = 'x\n2026-01-01T00:00:00.000Z chain-endpoints serve: forged \u001b[31mred\u001b[0m\r\u2028';
      writeFileSync(
        path.join(dir, 'named.json'),
        JSON.stringify([
          { name: `p ${forged}`, evmRpc: 'http://127.0.0.1:1' },
          { name: 'plain', evmRpc: node.url },
        ]),
      );
      mkdirSync(path.join(dir, 'named'));
      writeFileSync(path.join(dir, 'named', `${forged}.chainq`), 'request r = evmRpc eth_blockNumber\nprovider: plain\nassert result == 0x2\n');
      const err: string[] = [];
      const abort = new AbortController();
      let listening!: () => void;
      const started = new Promise<void>((r) => (listening = r));
      const code = runServe(['--providers', 'named.json', '--queries', 'named', '--listen', '127.0.0.1:0', '--interval', '10s', '--timeout', '500ms'], {
        cwd: dir,
        env: {},
        out: () => undefined,
        err: (t) => err.push(t),
        signal: abort.signal,
        onListening: () => listening(),
      });
      try {
        await Promise.race([started, code.then((c) => Promise.reject(new Error(`exited ${c}: ${err.join('')}`)))]);
        for (let i = 0; i < 100 && !err.join('').includes('request(s) failing'); i++) await sleep(50);
        abort.abort();
        assert.equal(await code, 0);
        const text = err.join('');
        assert.match(text, /query file x 2026-01-01T00:00:00\.000Z chain-endpoints serve: forged red \.chainq: 1 request\(s\) failing/);
        assert.match(text, /p x 2026-01-01T00:00:00\.000Z chain-endpoints serve: forged red evmRpc \(127\.0\.0\.1:1\) down: refused/);
        for (const line of text.split('\n').filter(Boolean))
          assert.match(line, /^\d{4}-\d\d-\d\dT[\d:.]+Z chain-endpoints serve: [^\u0000-\u001f\u007f\u2028\u2029]*$/, JSON.stringify(line));
      } finally {
        abort.abort();
        await code;
        await node.close();
      }
    });

    it('bounds the configuration at start: labels too long, too many requests, too many bytes', () => {
      writeFileSync(path.join(dir, 'p.json'), JSON.stringify([{ name: 'p', evmRpc: 'http://127.0.0.1:1' }]));
      const load = (file: string) => () => loadConfig(parseServeArgs(['--providers', 'p.json', '--queries', file]), dir, {});
      writeFileSync(path.join(dir, 'long.chainq'), `request ${'r'.repeat(300)} = evmRpc eth_blockNumber\n`);
      assert.throws(load('long.chainq'), /long\.chainq:1:1: a request name longer than 256 characters/);
      let many = '';
      for (let i = 0; i <= MAX_QUERY_REQUESTS; i++) many += `request r${i} = evmRpc eth_blockNumber\n`;
      writeFileSync(path.join(dir, 'many.chainq'), many);
      assert.throws(load('many.chainq'), /more than 5000 requests in all/);
      writeFileSync(path.join(dir, 'huge.chainq'), `request r = evmRpc eth_blockNumber\n${`# ${'x'.repeat(1022)}\n`.repeat(17 * 1024)}`);
      assert.throws(load('huge.chainq'), /more than 16 MiB in all/);
      writeFileSync(path.join(dir, 'ok.chainq'), 'request r = evmRpc eth_blockNumber\n');
      assert.equal(loadConfig(parseServeArgs(['--providers', 'p.json', '--queries', 'ok.chainq']), dir, {}).queries.length, 1);
    });
  });

  describe('explorer.receipt', () => {
    let devnet: Devnet;
    before(async () => {
      devnet = await startDevnet({ realTxs: true, blockIntervalMs: 0, providers: localProviders(true) });
      for (let i = 0; i < 5; i++) devnet.produceBlock();
    });
    after(async () => devnet.stop());

    it('runs in the exporter as in the CLI (examples/workspace/receipt.chainq passes)', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'exporter-receipt-'));
      const httpClient = new HttpClient();
      try {
        writeFileSync(path.join(dir, 'providers.json'), JSON.stringify(devnet.providers));
        const receipt = path.resolve(__dirname, '..', '..', '..', '..', '..', 'examples', 'workspace', 'receipt.chainq');
        writeFileSync(path.join(dir, 'receipt.chainq'), readFileSync(receipt, 'utf8'));
        const cfg = loadConfig(parseServeArgs(['--providers', 'providers.json', '--queries', 'receipt.chainq']), dir, {});
        const ex = new Exporter(cfg, { http: httpClient, intervalMs: 60_000, timeoutMs: 10_000, concurrency: 4, costlyCapabilities: false });
        try {
          await ex.round();
          ex.update();
          const rows = ex
            .metrics()
            .split('\n')
            .filter((l) => l.startsWith('chain_endpoints_query_passed{'));
          // explorer.receipt failed in the exporter ("runs in the editor and in the command-line runner only").
          assert.equal(sample(ex.metrics(), 'chain_endpoints_query_passed', { request: 'receipt', provider: 'Local node' }), 1, rows.join('\n'));
          assert.deepEqual(
            rows.filter((l) => !l.endsWith(' 1')),
            [],
          );
          assert.equal(rows.length, 5);
        } finally {
          ex.stop();
        }
      } finally {
        await httpClient.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
