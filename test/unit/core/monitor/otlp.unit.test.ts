// `chain-endpoints serve --otlp`: a loopback OTLP/HTTP receiver (the JSON encoding the SDK's
// exporter sends, decoded here) gets the exporter's metrics over the devnet with the expected names,
// attributes and values, the request histogram under OpenTelemetry's RPC conventions, and no
// secret; a collector answering 500 or never answering blocks neither /metrics nor the probes, is
// logged by host only, and the exporter still stops within 2 s. The URL and header options.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http = require('node:http');
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DURATION_BUCKETS } from '../../../../src/core/monitor/exporter';
import { failureReason } from '../../../../src/core/monitor/otlp';
import { runServe } from '../../../../src/core/monitor/serve';
import { parseOtlpHeader, parseOtlpUrl, parseServeArgs } from '../../../../src/core/monitor/serveArgs';
import { secretEnvName } from '../../../../src/core/queries/cliArgs';
import { type Devnet, startDevnet } from '../../../devnet/devnet';

const SECRET = 'sk-otlp-test-5d1f9a';
const HEADER_KEY = 'collector-key-77c2e1';

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
interface Point {
  attributes: Record<string, string | number | boolean>;
  value?: number;
  count?: number;
  sum?: number;
  bucketCounts?: number[];
  explicitBounds?: number[];
}
interface Metric {
  name: string;
  unit?: string;
  kind: 'gauge' | 'sum' | 'histogram';
  monotonic?: boolean;
  points: Point[];
}

const attrs = (list: { key: string; value: AnyValue }[] = []) =>
  Object.fromEntries(
    list.map(({ key, value: v }) => [key, v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue ?? ''))]),
  ) as Record<string, string | number | boolean>;

/** An OTLP/JSON ExportMetricsServiceRequest, decoded: the resource's attributes and the metrics. */
function decode(body: string): { resource: Record<string, string | number | boolean>; metrics: Metric[] } {
  const req = JSON.parse(body) as {
    resourceMetrics: { resource?: { attributes?: { key: string; value: AnyValue }[] }; scopeMetrics: { metrics: Record<string, unknown>[] }[] }[];
  };
  const metrics: Metric[] = [];
  let resource = {};
  for (const rm of req.resourceMetrics) {
    resource = attrs(rm.resource?.attributes);
    for (const sm of rm.scopeMetrics)
      for (const m of sm.metrics) {
        const kind = (['gauge', 'sum', 'histogram'] as const).find((k) => m[k] !== undefined)!;
        const data = m[kind] as { dataPoints: Record<string, unknown>[]; isMonotonic?: boolean };
        metrics.push({
          name: m.name as string,
          unit: m.unit as string | undefined,
          kind,
          monotonic: data.isMonotonic,
          points: data.dataPoints.map((p) => ({
            attributes: attrs(p.attributes as { key: string; value: AnyValue }[]),
            value: p.asDouble !== undefined ? Number(p.asDouble) : p.asInt !== undefined ? Number(p.asInt) : undefined,
            count: p.count !== undefined ? Number(p.count) : undefined,
            sum: p.sum !== undefined ? Number(p.sum) : undefined,
            bucketCounts: (p.bucketCounts as (string | number)[] | undefined)?.map(Number),
            explicitBounds: p.explicitBounds as number[] | undefined,
          })),
        });
      }
  }
  return { resource, metrics };
}

interface Receiver {
  url: string;
  bodies: string[];
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  mode: 'ok' | '500' | 'hang';
  close(): Promise<void>;
}

async function receiver(): Promise<Receiver> {
  const r = { bodies: [] as string[], requests: [] as Receiver['requests'], mode: 'ok' as Receiver['mode'] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.requests.push({ path: req.url ?? '', headers: req.headers });
      if (r.mode === 'hang') return; // never answers
      if (r.mode === '500') {
        res.writeHead(500).end('boom');
        return;
      }
      r.bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(r, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

function serve(argv: string[], cwd: string, env: Record<string, string>) {
  const err: string[] = [];
  const abort = new AbortController();
  let gotUrl!: (u: string) => void;
  const url = new Promise<string>((r) => (gotUrl = r));
  const code = runServe(argv, { cwd, env, out: () => undefined, err: (t) => err.push(t), signal: abort.signal, onListening: gotUrl });
  return { code, url, err, abort };
}

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('monitor: serve --otlp (OpenTelemetry push)', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let dir: string;
  let env: Record<string, string>;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 200, providers: [{ name: 'one' }] });
    dir = mkdtempSync(path.join(tmpdir(), 'otlp-test-'));
    const [one] = devnet.providers;
    // A secret in a header: it must reach the node and nothing else.
    writeFileSync(
      path.join(dir, 'providers.json'),
      JSON.stringify([{ name: 'one', network: 'Devnet', evmRpc: one.evmRpc, rest: one.rest, headers: { 'X-Api-Key': '${secret:key}' } }]),
    );
    env = { [secretEnvName('one', 'key')]: SECRET };
  });

  after(async () => {
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads --otlp and --otlp-header: http(s) only, never user:password@ (not echoed), /v1/metrics added to a bare host', () => {
    assert.equal(parseOtlpUrl('http://127.0.0.1:4318'), 'http://127.0.0.1:4318/v1/metrics');
    assert.equal(parseOtlpUrl('https://otel.example/custom/path'), 'https://otel.example/custom/path');
    assert.throws(() => parseOtlpUrl('grpc://127.0.0.1:4317'), /only http and https/);
    assert.throws(() => parseOtlpUrl('not a url'), /not a URL/);
    for (const bad of ['http://alice:hunter2@otel.example/', 'https://token@otel.example/']) {
      const e = (() => {
        try {
          parseOtlpUrl(bad);
        } catch (err) {
          return (err as Error).message;
        }
        return '';
      })();
      assert.match(e, /user:password@ .* refused/);
      assert.ok(!e.includes('hunter2') && !e.includes('alice') && !e.includes('token@'), e);
    }
    assert.deepEqual(parseOtlpHeader('x-api-key=a=b'), ['x-api-key', 'a=b']);
    assert.throws(() => parseOtlpHeader('=v'), /NAME=VALUE/);
    assert.throws(() => parseOtlpHeader('k=a\nb'), /line break/);
    const o = parseServeArgs(['--providers', 'p', '--otlp', 'http://h:4318', '--otlp-header', 'a=1', '--otlp-header=b=2']);
    assert.deepEqual([o.otlp, o.otlpHeaders], ['http://h:4318/v1/metrics', { a: '1', b: '2' }]);
    assert.throws(() => parseServeArgs(['--providers', 'p', '--otlp-header', 'a=1']), /needs --otlp/);
    assert.equal(failureReason({ code: 500, message: 'http://secret@host failed' }), 'HTTP 500');
    assert.equal(failureReason(new Error('Request timed out at http://host/path?key=x')), 'timeout');
    assert.equal(failureReason({ message: 'something with http://host/?key=x' }), 'failed');
  });

  it('pushes the same metrics with their labels, the request histogram under the RPC conventions, and no secret', async () => {
    const rx = await receiver();
    const s = serve(
      ['--providers', 'providers.json', '--listen', '127.0.0.1:0', '--interval', '300ms', '--otlp', rx.url, '--otlp-header', `x-collector-key=${HEADER_KEY}`],
      dir,
      env,
    );
    try {
      const url = await s.url;
      const has = (name: string, test: (m: Metric) => boolean) => rx.bodies.some((b) => decode(b).metrics.some((m) => m.name === name && test(m)));
      await until(
        'a push with up, height and both RPC systems',
        () =>
          has('chain_endpoints_up', (m) => m.points.length === 2) &&
          has('chain_endpoints_height', (m) => m.points.length >= 1) &&
          has('rpc.client.call.duration', (m) => new Set(m.points.map((p) => p.attributes['rpc.system'])).size === 2),
      );
      const scrape = await (await fetch(`${url}/metrics`)).text();
      const { resource, metrics } = decode(rx.bodies.at(-1)!);
      const byName = new Map(metrics.map((m) => [m.name, m]));
      assert.equal(resource['service.name'], 'chain-endpoints-exporter');

      // Gauges: the same names, the same labels, the same values as /metrics.
      const up = byName.get('chain_endpoints_up')!;
      assert.equal(up.kind, 'gauge');
      for (const iface of ['evmRpc', 'rest']) {
        const p = up.points.find((x) => x.attributes.interface === iface)!;
        assert.deepEqual(p.attributes, { network: 'Devnet', provider: 'one', interface: iface });
        assert.equal(p.value, 1);
        assert.match(scrape, new RegExp(`chain_endpoints_up\\{network="Devnet",provider="one",interface="${iface}"\\} 1`));
      }
      const height = byName.get('chain_endpoints_height')!.points.find((p) => p.attributes.interface === 'evmRpc')!;
      assert.ok(height.value! > 0 && height.value! <= Number(devnet.height()), `height ${height.value}`);
      // Counters: monotonic sums.
      const probes = byName.get('chain_endpoints_probes_total')!;
      assert.equal(probes.kind, 'sum');
      assert.equal(probes.monotonic, true);
      assert.ok(probes.points.every((p) => p.value! >= 1));
      assert.equal(byName.get('chain_endpoints_block_age_seconds')?.unit, 's');

      // The request histogram: rpc.client.call.duration in seconds, with the exporter's buckets.
      const rpc = byName.get('rpc.client.call.duration')!;
      assert.equal(rpc.kind, 'histogram');
      assert.equal(rpc.unit, 's');
      const evm = rpc.points.find((p) => p.attributes['rpc.method'] === 'eth_getBlockByNumber')!;
      assert.ok(evm, JSON.stringify(rpc.points.map((p) => p.attributes)));
      const port = Number(new URL(devnet.providers[0].evmRpc).port);
      assert.deepEqual(evm.attributes, {
        'rpc.system': 'jsonrpc',
        'rpc.system.name': 'jsonrpc',
        'rpc.method': 'eth_getBlockByNumber',
        'server.address': '127.0.0.1',
        'server.port': port,
        network: 'Devnet',
        provider: 'one',
        interface: 'evmRpc',
      });
      assert.deepEqual(evm.explicitBounds, DURATION_BUCKETS);
      assert.ok(evm.count! >= 1 && evm.sum! > 0 && evm.sum! < 10 * evm.count!);
      assert.equal(
        evm.bucketCounts!.reduce((a, b) => a + b, 0),
        evm.count,
      );
      const rest = rpc.points.find((p) => p.attributes['rpc.system'] === 'http')!;
      assert.equal(rest.attributes.interface, 'rest');
      assert.match(String(rest.attributes['rpc.method']), /^\//);
      // Prometheus' histogram of the same requests counts at least as many (it started no later).
      const promCount = Number(
        /chain_endpoints_request_duration_seconds_count\{[^}]*interface="evmRpc",method="eth_getBlockByNumber"\} (\d+)/.exec(scrape)?.[1],
      );
      assert.ok(promCount >= 1);

      // The collector's header went to the collector; the provider's secret went nowhere but the node.
      assert.ok(rx.requests.every((r) => r.path === '/v1/metrics' && r.headers['x-collector-key'] === HEADER_KEY));
      assert.match(String(rx.requests[0].headers['content-type']), /application\/json/);
      for (const b of rx.bodies) assert.ok(!b.includes(SECRET) && !b.includes('X-Api-Key') && !b.includes('http://'), 'no secret or address pushed');
      const log = s.err.join('');
      assert.match(log, /pushing OTLP to 127\.0\.0\.1:\d+/);
      assert.ok(!log.includes(HEADER_KEY) && !log.includes(SECRET), log);
    } finally {
      s.abort.abort();
      assert.equal(await s.code, 0);
      await rx.close();
    }
  });

  for (const mode of ['500', 'hang'] as const) {
    it(`a collector that ${mode === '500' ? 'answers 500' : 'never answers'} blocks neither /metrics nor the probes, is logged by host, and the stop stays within 2 s`, async () => {
      const rx = await receiver();
      rx.mode = mode;
      const s = serve(
        [
          '--providers',
          'providers.json',
          '--listen',
          '127.0.0.1:0',
          '--interval',
          '200ms',
          '--otlp',
          `${rx.url}/otlp/v1/metrics?token=${SECRET}`,
          '--otlp-header',
          `k=${HEADER_KEY}`,
        ],
        dir,
        env,
      );
      try {
        const url = await s.url;
        await until('two pushes tried', () => rx.requests.length >= 2);
        const probes = async () => {
          const t0 = performance.now();
          const text = await (await fetch(`${url}/metrics`)).text();
          const ms = performance.now() - t0;
          assert.ok(ms < 500, `/metrics took ${ms} ms`);
          return Number(/chain_endpoints_probes_total\{[^}]*interface="evmRpc"\} (\d+)/.exec(text)?.[1] ?? 0);
        };
        const before = await probes();
        await until('more probes while the collector fails', () => rx.requests.length >= 4);
        await new Promise((r) => setTimeout(r, 600));
        assert.ok((await probes()) > before, 'the probes go on');
        if (mode === '500') assert.ok(rx.requests.length >= 4, 'tried again each interval');
        const log = s.err.join('');
        assert.match(
          log,
          new RegExp(`OTLP push to 127\\.0\\.0\\.1:\\d+ failed \\(${mode === '500' ? 'HTTP 500' : 'timeout|the previous pushes are still waiting'}\\)`),
        );
        assert.ok(!log.includes(SECRET) && !log.includes(HEADER_KEY) && !log.includes('/otlp/'), log);
        const t0 = performance.now();
        s.abort.abort();
        assert.equal(await s.code, 0);
        assert.ok(performance.now() - t0 < 2000, `stopped in ${performance.now() - t0} ms`);
      } finally {
        s.abort.abort();
        await s.code;
        await rx.close();
      }
    });
  }
});
