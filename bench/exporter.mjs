// @ts-check
// Case "exporter" (chain-endpoints serve, src/core/monitor/): against the devnet (its own process):
//   scrape: 100 providers x 5 interfaces probed once (every series filled: up, height, lag, block
//           age, chain id, the request histogram, capabilities), then GET /metrics over loopback,
//           vs the same-size pre-rendered string served by a bare node:http server (interleaved);
//   cpu:    the exporter's own CPU (process.cpuUsage) at a 30 s interval over 20 providers x 6
//           interfaces, with a scrape every 15 s (from another process, as Prometheus scrapes; in
//           this process before session 19), over `rounds` intervals after the first (the first
//           round's capability probes are reported apart), as a share of one core, each interval
//           apart, beside the CPU a fixed piece of work took in another process in the same window.
import http from 'node:http';
import { childMain, core, interleave, median, startChild, summary } from './lib.mjs';

const { Exporter } = core('monitor/exporter');
const { createExporterServer } = core('monitor/server');
const { HttpClient } = core('transport/http');
const { CAPABILITY_TTL_MS } = core('health/capabilities');

/** @param {http.Server} server */
const listen = (server) => new Promise((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${/** @type {any} */ (server.address()).port}`)));
const get = async (url) => {
  const res = await fetch(url);
  return res.text();
};

/** @param {any} info @param {number} count @param {string[]} ifaces */
function providersOf(info, count, ifaces) {
  const all = { ...info.providers[0] };
  delete all.name;
  return Array.from({ length: count }, (_, i) => ({
    name: `provider-${i}`,
    network: `network-${i % 4}`,
    endpoints: Object.fromEntries(ifaces.map((k) => [k, all[k]])),
  }));
}
const config = (providers) => ({
  providers,
  resolved: new Map(providers.map((p) => [p.name, p])),
  queries: [],
  queryContext: { secretValue: () => undefined },
});

childMain(async ({ providers: count = 100, warmup = 20, n = 200, cpuProviders = 20, intervalMs = 30_000, rounds = 3 }) => {
  const server = startChild('server.mjs', { kind: 'devnet', blocks: 5 });
  const info = await server.ready;
  const out = {};
  try {
    // ---- scrape ----
    {
      const httpClient = new HttpClient();
      const providers = providersOf(info, count, ['evmRpc', 'consensusHttp', 'consensusRpc', 'rest', 'evmWs']);
      const ex = new Exporter(config(providers), { http: httpClient, intervalMs: 3_600_000, timeoutMs: 10_000, concurrency: 16, costlyCapabilities: false });
      await ex.round();
      ex.update();
      const text = ex.metrics();
      const upOnes = (text.match(/^chain_endpoints_up\{.*\} 1$/gm) ?? []).length;
      if (upOnes !== count * 5) throw new Error(`expected ${count * 5} interfaces up, got ${upOnes}`);
      const ours = createExporterServer(ex);
      const oursUrl = `${await listen(ours)}/metrics`;
      const fixed = Buffer.from(text);
      const base = http.createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
        res.end(fixed);
      });
      const baseUrl = `${await listen(base)}/metrics`;
      const r = await interleave({ ours: () => get(oursUrl), baseline: () => get(baseUrl), warmup, n });
      out.scrape = {
        providers: count,
        interfaces: count * 5,
        bytes: fixed.length,
        series: ex.registry.all().reduce((a, f) => a + f.size, 0),
        ours: summary(r.ours),
        baseline: summary(r.baseline),
      };
      ex.stop();
      ours.closeAllConnections();
      base.closeAllConnections();
      ours.close();
      base.close();
      await httpClient.close();
    }
    // ---- cpu ----
    {
      const httpClient = new HttpClient();
      const providers = providersOf(info, cpuProviders, ['evmRpc', 'consensusHttp', 'consensusRpc', 'consensusWs', 'rest', 'evmWs']);
      const ex = new Exporter(config(providers), { http: httpClient, intervalMs, timeoutMs: 10_000, concurrency: 8 });
      const srv = createExporterServer(ex);
      const url = `${await listen(srv)}/metrics`;
      const scraper = startChild('server.mjs', { kind: 'scraper', url, everyMs: intervalMs / 2 });
      const gauge = startChild('server.mjs', { kind: 'gauge' });
      await Promise.all([scraper.ready, gauge.ready]);
      const mark = async () => ({ cpu: process.cpuUsage(), at: performance.now(), gauge: await gauge.ask({ cmd: 'mark' }) });
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const marks = [await mark()];
      ex.start();
      await sleep(intervalMs - 50); // the first round (with the capability probes)
      marks.push(await mark());
      for (let i = 0; i < rounds; i++) {
        await sleep(intervalMs);
        marks.push(await mark());
      }
      const scrapes = await scraper.ask({ cmd: 'stop' });
      await Promise.all([scraper.stop(), gauge.stop()]);
      ex.stop();
      srv.closeAllConnections();
      srv.close();
      await httpClient.close();
      const between = (a, b) => {
        const userMs = (b.cpu.user - a.cpu.user) / 1000;
        const systemMs = (b.cpu.system - a.cpu.system) / 1000;
        const wallMs = b.at - a.at;
        return { cpuMs: userMs + systemMs, userMs, systemMs, wallMs, share: (userMs + systemMs) / wallMs, gaugeMs: b.gauge.cpuMs };
      };
      const intervals = marks.slice(2).map((m, i) => between(marks[i + 1], m));
      const steadyCpu = intervals.reduce((a, v) => a + v.cpuMs, 0);
      const steadyWall = intervals.reduce((a, v) => a + v.wallMs, 0);
      const first = between(marks[0], marks[1]);
      out.cpu = {
        capabilityTtlMs: CAPABILITY_TTL_MS,
        providers: cpuProviders,
        interfaces: cpuProviders * 6,
        intervalMs,
        rounds,
        firstRound: first,
        // Each steady interval apart: another tenant of the machine busy for a minute shows in one or two
        // of them (and in the gauge's CPU beside it), the exporter's own work in all of them.
        intervals,
        steady: { cpuMs: steadyCpu, wallMs: steadyWall, share: steadyCpu / steadyWall, median: median(intervals.map((v) => v.share)) },
        scrapes,
      };
    }
    return out;
  } finally {
    await server.stop();
  }
});
