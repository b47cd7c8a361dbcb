// The exporter's core over the devnet (loopback fake nodes) and a refusing port: the metrics the
// issue lists with their labels, up 1 and 0, the error kinds, capabilities, query files passing
// and failing, a bounded number of series over many rounds, no secret anywhere, a scrape that
// never waits on a hanging node, /probe and /-/healthy, and promtool's check of the whole text.

import * as assert from 'node:assert/strict';
import net = require('node:net');
import { type AddressInfo } from 'node:net';
import type { Provider } from '../../../../src/core/config/providers';
import { resolveProvider } from '../../../../src/core/config/secrets';
import { Exporter, type ExporterConfig } from '../../../../src/core/monitor/exporter';
import { createExporterServer } from '../../../../src/core/monitor/server';
import { prepareRun } from '../../../../src/core/queries/pipeline';
import { HttpClient } from '../../../../src/core/transport/http';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { promtoolCheckMetrics } from '../../helpers/prometheus';

const SECRET = 'sEcReT-9f3a1c77';

/** A port nothing listens on (bound, then closed). */
async function refusingPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A node that accepts connections and never answers. */
async function hangingNode(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const s = net.createServer((c) => {
    sockets.add(c);
    c.on('error', () => undefined);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: async () => {
      for (const c of sockets) c.destroy();
      await new Promise<void>((r) => s.close(() => r()));
    },
  };
}

function config(providers: Provider[], secrets: Record<string, string> = {}, queries: { name: string; text: string }[] = []): ExporterConfig {
  const values = new Map(Object.entries(secrets));
  return {
    providers,
    resolved: new Map(providers.map((p) => [p.name, resolveProvider(p, values)])),
    queries: queries.map((q) => ({ name: q.name, prepared: prepareRun([{ name: q.name, source: q.text }], { providers, env: {}, allowEnv: new Set() }) })),
    queryContext: { secretValue: (_p, n) => secrets[n], foreignSecrets: () => [] },
  };
}

/** The value of the sample whose line starts with `prefix` (name and labels), or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf('}'));
    if (Object.entries(labels).every(([k, v]) => inside.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('monitor: the exporter over the devnet', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let http: HttpClient;
  let refused: number;
  let providers: Provider[];

  before(async () => {
    devnet = await startDevnet({
      blockIntervalMs: 200,
      providers: [{ name: 'good' }, { name: 'second', lagBlocks: 5, capabilities: { txIndex: false, restModulesOff: ['gov'] } }],
    });
    refused = await refusingPort();
    const [good, second] = devnet.providers;
    const { name: _g, ...goodEndpoints } = good;
    const { name: _s, ...secondEndpoints } = second;
    providers = [
      {
        name: 'good',
        network: 'Devnet',
        chainId: devnet.chainId,
        // A secret in the headers and in the address' path: it must never reach the output.
        endpoints: { ...goodEndpoints, rest: `${goodEndpoints.rest}` },
        headers: { Authorization: 'Bearer ${secret:key}' },
      },
      { name: 'second', network: 'Devnet', chainId: devnet.chainId, endpoints: secondEndpoints },
      {
        name: 'down "quoted"\\',
        network: 'Devnet',
        chainId: devnet.chainId,
        endpoints: { evmRpc: `http://127.0.0.1:${refused}/\${secret:key}`, consensusHttp: `http://127.0.0.1:${refused}` },
      },
      { name: 'wrong', network: 'Devnet', chainId: 'another-chain', endpoints: { consensusHttp: goodEndpoints.consensusHttp } },
    ];
    http = new HttpClient();
  });

  after(async () => {
    await http.close();
    await devnet.stop();
  });

  it('exports up, height, lag, block age, chain id match, durations, errors and capabilities with the issue labels', async () => {
    const logs: string[] = [];
    const ex = new Exporter(config(providers, { key: SECRET }), { http, intervalMs: 1000, timeoutMs: 2000, concurrency: 4, log: (l) => logs.push(l) });
    try {
      await ex.round();
      await ex.round();
      ex.update();
      const text = ex.metrics();
      const at = (iface: string, provider = 'good') => ({ network: 'Devnet', provider, interface: iface });
      for (const iface of ['evmRpc', 'evmWs', 'consensusHttp', 'consensusRpc', 'consensusWs', 'rest']) {
        assert.equal(sample(text, 'chain_endpoints_up', at(iface)), 1, `${iface} up\n${text}`);
        assert.equal(sample(text, 'chain_endpoints_chain_id_match', at(iface)), 1, `${iface} chain id`);
      }
      const h = sample(text, 'chain_endpoints_height', at('consensusHttp'))!;
      assert.ok(h >= 1, 'a height');
      assert.ok(sample(text, 'chain_endpoints_lag_blocks', at('consensusHttp', 'second'))! >= 3, 'the lagging provider lags');
      assert.equal(sample(text, 'chain_endpoints_lag_blocks', at('consensusHttp')), 0);
      assert.ok(sample(text, 'chain_endpoints_block_age_seconds', at('consensusHttp'))! < 30);
      // The refusing port: up 0 and a "refused" error, its name escaped.
      const down = { network: 'Devnet', provider: 'down \\"quoted\\"\\\\', interface: 'consensusHttp' };
      assert.equal(sample(text, 'chain_endpoints_up', down), 0, text);
      assert.equal(sample(text, 'chain_endpoints_errors_total', { ...down, kind: 'refused' }), 2);
      // A provider declared on another chain: wrong chain.
      assert.equal(sample(text, 'chain_endpoints_chain_id_match', at('consensusHttp', 'wrong')), 0);
      assert.ok(sample(text, 'chain_endpoints_errors_total', { ...at('consensusHttp', 'wrong'), kind: 'wrong_chain' })! >= 1);
      // The request histogram, by method.
      assert.ok(sample(text, 'chain_endpoints_request_duration_seconds_count', { ...at('evmRpc'), method: 'eth_chainId' })! >= 2, text);
      assert.ok(sample(text, 'chain_endpoints_request_duration_seconds_count', { ...at('consensusHttp'), method: '/status' })! >= 2);
      // Capabilities: tx index on one provider, off on the other; a REST module off.
      assert.equal(sample(text, 'chain_endpoints_capability', { ...at('consensusRpc'), capability: 'tx_index' }), 1, text);
      assert.equal(sample(text, 'chain_endpoints_capability', { ...at('consensusRpc', 'second'), capability: 'tx_index' }), 0);
      assert.equal(sample(text, 'chain_endpoints_capability', { ...at('rest', 'second'), capability: 'gov' }), 0);
      assert.equal(sample(text, 'chain_endpoints_capability', { ...at('rest'), capability: 'bank' }), 1);
      assert.notEqual(sample(text, 'chain_endpoints_capability', { ...at('evmRpc'), capability: 'debug' }), undefined);
      // promtool accepts the whole text.
      const checked = promtoolCheckMetrics(text);
      assert.equal(checked.status, 0, checked.out);
      assert.equal(checked.out, '');
      // No secret, no path, no credentials in metrics or logs.
      for (const out of [text, logs.join('\n')]) {
        assert.ok(!out.includes(SECRET), 'no secret');
        assert.ok(!out.includes('${secret'), 'no secret reference');
        assert.ok(!out.includes('http://'), 'no address');
      }
      assert.ok(
        logs.some((l) => l.includes(`127.0.0.1:${refused}`) && l.includes('refused')),
        logs.join('\n'),
      );
    } finally {
      ex.stop();
    }
  });

  it('keeps the number of series bounded over many rounds: no heights, hashes or free text in labels', async () => {
    const ex = new Exporter(config(providers, { key: SECRET }), { http, intervalMs: 1000, timeoutMs: 2000, concurrency: 8 });
    try {
      const counts: number[] = [];
      for (let i = 0; i < 6; i++) {
        await ex.round();
        devnet.produceBlock();
        ex.update();
        if (i >= 2) counts.push(ex.registry.all().reduce((n, f) => n + f.size, 0));
      }
      assert.equal(new Set(counts).size, 1, `series per round: ${counts.join(', ')}`);
      const kinds = new Set(['timeout', 'refused', 'dns', 'tls', 'http_status', 'rate_limited', 'wrong_chain', 'bad_answer', 'network', 'cancelled']);
      const names = new Set(providers.map((p) => p.name));
      for (const f of ex.registry.all())
        for (const { labels } of f.values()) {
          for (const [k, v] of Object.entries(labels)) {
            assert.doesNotMatch(v, /^(0x)?[0-9a-f]{6,}$|^\d+$/, `${f.name} ${k}="${v}" looks like a height or hash`);
            if (k === 'provider') assert.ok(names.has(v), v);
            if (k === 'kind') assert.ok(kinds.has(v), v);
            if (k === 'network') assert.equal(v, 'Devnet');
          }
        }
      // A reload without a provider drops its series.
      ex.reload(
        config(
          providers.filter((p) => p.name !== 'second'),
          { key: SECRET },
        ),
      );
      assert.ok(!ex.metrics().includes('provider="second"'));
      assert.ok(ex.metrics().includes('provider="good"'));
    } finally {
      ex.stop();
    }
  });

  it('runs query files as probes: 1 when a request passes, 0 when it fails or cannot run', async () => {
    const good = providers[0];
    const text = `request tip = consensusHttp.status\nprovider: good\nassert success\n\nrequest impossible = consensusHttp.status\nprovider: good\nassert result.node_info.network == "not-this-chain"\n`;
    const ex = new Exporter(config([good], { key: SECRET }, [{ name: 'sub/checks.chainq', text }]), {
      http,
      intervalMs: 1000,
      timeoutMs: 2000,
      concurrency: 2,
    });
    try {
      await ex.round();
      ex.update();
      const m = ex.metrics();
      assert.equal(sample(m, 'chain_endpoints_query_passed', { file: 'sub/checks.chainq', request: 'tip', provider: 'good' }), 1, m);
      assert.equal(sample(m, 'chain_endpoints_query_passed', { file: 'sub/checks.chainq', request: 'impossible', provider: 'good' }), 0);
      assert.match(m, /chain_endpoints_query_duration_seconds\{file="sub\/checks.chainq"\} \d/);
      assert.ok(!m.includes('not-this-chain'), 'no assertion text in labels');
    } finally {
      ex.stop();
    }
  });

  it('never makes a scrape wait on a hanging node; /probe answers within its timeout; /-/healthy', async () => {
    const hang = await hangingNode();
    const p: Provider = { name: 'hangs', endpoints: { evmRpc: hang.url } };
    const ex = new Exporter(config([providers[0], p], { key: SECRET }), { http, intervalMs: 60_000, timeoutMs: 3000, concurrency: 4 });
    const server = createExporterServer(ex);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const round = ex.round(); // the hanging probe stays in flight for its 3 s
      await new Promise((r) => setTimeout(r, 300));
      const t0 = performance.now();
      const res = await fetch(`${base}/metrics`);
      const body = await res.text();
      const ms = performance.now() - t0;
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
      assert.ok(ms < 200, `the scrape took ${ms} ms`);
      assert.match(body, /# TYPE chain_endpoints_up gauge/);
      const healthy = await fetch(`${base}/-/healthy`);
      assert.equal(healthy.status, 200);
      // A one-off probe of the hanging node gives up at the scrape timeout (header), success 0.
      const t1 = performance.now();
      const probe = await fetch(`${base}/probe?target=hangs&module=evmRpc`, { headers: { 'X-Prometheus-Scrape-Timeout-Seconds': '1.5' } });
      const probeText = await probe.text();
      assert.ok(performance.now() - t1 < 2500, 'within the scrape timeout');
      assert.equal(probe.status, 200);
      assert.match(probeText, /^probe_success 0$/m);
      assert.match(probeText, /^chain_endpoints_probe_error\{kind="timeout"\} 1$/m);
      const ok = await (await fetch(`${base}/probe?target=good&module=consensusHttp`)).text();
      assert.match(ok, /^probe_success 1$/m);
      assert.match(ok, /^chain_endpoints_height \d+$/m);
      assert.match(ok, /^chain_endpoints_chain_id_match 1$/m);
      assert.equal(promtoolCheckMetrics(ok).status, 0);
      // Unknown target or module: 400, nothing echoed.
      const bad = await fetch(`${base}/probe?target=%3Cscript%3E&module=evmRpc`);
      assert.equal(bad.status, 400);
      assert.ok(!(await bad.text()).includes('script'));
      assert.equal((await fetch(`${base}/probe?target=good&module=nope`)).status, 400);
      assert.equal((await fetch(`${base}/metrics`, { method: 'POST' })).status, 405);
      assert.equal((await fetch(`${base}/other`)).status, 404);
      // Stopping aborts the hanging probe at once.
      const t2 = performance.now();
      ex.stop();
      await round;
      assert.ok(performance.now() - t2 < 1000, 'stop aborts the probes in flight');
    } finally {
      ex.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await hang.close();
    }
  });

  it('keeps at most one probe in flight per interface and a bounded number overall', async () => {
    const hang = await hangingNode();
    const many: Provider[] = Array.from({ length: 6 }, (_, i) => ({ name: `h${i}`, endpoints: { evmRpc: hang.url, consensusHttp: hang.url } }));
    const ex = new Exporter(config(many), { http, intervalMs: 60_000, timeoutMs: 1500, concurrency: 3 });
    try {
      const first = ex.round();
      await new Promise((r) => setTimeout(r, 200));
      const second = ex.round(); // every interface is still in flight: nothing new starts
      await second;
      await first;
      // 12 interfaces, 3 at a time, each up to 1.5 s (one request on a hanging port): their probes counted once each.
      const probes = ex.registry
        .all()
        .find((f) => f.name === 'chain_endpoints_probes_total')!
        .values();
      assert.equal(probes.length, 12);
      assert.ok(
        probes.every((v) => v.value === 1),
        JSON.stringify(probes),
      );
    } finally {
      ex.stop();
      await hang.close();
    }
  });
});
