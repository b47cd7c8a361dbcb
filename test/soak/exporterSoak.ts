// The exporter's soak (`npm run soak:exporter`; SOAK_MINUTES, default 10): `chain-endpoints serve`'s
// core at a 100 ms interval over the devnet (in a child process, so its growing chain is not
// counted): 5 providers with every interface, one of them stopped and started every 20 s, a query
// file, and a scrape of /metrics every second. Samples the heap after a forced GC every 15 s; after
// a warm-up (a fifth of the run) the heap must stay flat: its growth from the first sample after
// warm-up to the mean of the last three below TARGET_GROWTH, and the series count constant. Exits 1
// past the targets.

import { type ChildProcess, fork } from 'node:child_process';
import { type AddressInfo } from 'node:net';
import type { Provider } from '../../src/core/config/providers';
import { Exporter } from '../../src/core/monitor/exporter';
import { createExporterServer } from '../../src/core/monitor/server';
import { prepareRun } from '../../src/core/queries/pipeline';
import { HttpClient } from '../../src/core/transport/http';
import { type DevnetProviderUrls, startDevnet } from '../devnet/devnet';

const MiB = 1024 * 1024;
const PROVIDERS = 5;
const INTERVAL_MS = 100;
const TARGET_GROWTH = 5 * MiB;

type ToChild = { stop: string } | { start: string } | { quit: true };

async function devnetChild(): Promise<void> {
  const devnet = await startDevnet({ blockIntervalMs: 200, providers: Array.from({ length: PROVIDERS }, (_, i) => ({ name: `p${i}`, lagBlocks: i % 2 })) });
  process.send!({ providers: devnet.providers });
  process.on('message', (m: ToChild) => {
    if ('stop' in m) void devnet.stopProvider(m.stop);
    else if ('start' in m) void devnet.startProvider(m.start);
    else void devnet.stop().then(() => process.exit(0));
  });
}

async function main(): Promise<void> {
  const minutes = Number(process.env.SOAK_MINUTES ?? 10);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const child: ChildProcess = fork(__filename, ['--devnet'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const urls = await new Promise<DevnetProviderUrls[]>((resolve) => child.once('message', (m: { providers: DevnetProviderUrls[] }) => resolve(m.providers)));
  const providers: Provider[] = urls.map(({ name, ...endpoints }) => ({ name, network: 'Devnet', endpoints }));
  const query = 'request tip = consensusHttp.status\nprovider: *\nassert success\nassert heights within 3\n';
  const http = new HttpClient();
  const ex = new Exporter(
    {
      providers,
      resolved: new Map(providers.map((p) => [p.name, p])),
      queries: [{ name: 'tip.chainq', prepared: prepareRun([{ name: 'tip.chainq', source: query }], { providers, env: {}, allowEnv: new Set() }) }],
      queryContext: { secretValue: () => undefined },
    },
    { http, intervalMs: INTERVAL_MS, timeoutMs: 2000, concurrency: 8, capabilityTtlMs: 60_000 },
  );
  const server = createExporterServer(ex);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  ex.start();
  const started = Date.now();
  const endAt = started + minutes * 60_000;
  const warmUntil = started + (minutes * 60_000) / 5;
  let scrapes = 0;
  let slowest = 0;
  /** Every scrape's time (one a second: at most 60 a minute). */
  const scrapeMs: number[] = [];
  const scraper = setInterval(() => {
    const t0 = performance.now();
    void fetch(url)
      .then((r) => r.text())
      .then(() => {
        scrapes++;
        const ms = performance.now() - t0;
        slowest = Math.max(slowest, ms);
        if (scrapeMs.length < minutes * 60 + 60) scrapeMs.push(ms);
      });
  }, 1000);
  let flip = 0;
  const flipper = setInterval(() => child.send(flip++ % 2 === 0 ? { stop: 'p4' } : { start: 'p4' }), 20_000);
  const samples: { at: number; heap: number; series: number }[] = [];
  while (Date.now() < endAt) {
    await new Promise((r) => setTimeout(r, 15_000));
    gc();
    const heap = process.memoryUsage().heapUsed;
    const series = ex.registry.all().reduce((n, f) => n + f.size, 0);
    samples.push({ at: Date.now(), heap, series });
    console.log(
      `soak: +${Math.round((Date.now() - started) / 1000)} s heap ${(heap / MiB).toFixed(1)} MiB, ${series} series, ${scrapes} scrapes (slowest ${slowest.toFixed(1)} ms)`,
    );
  }
  clearInterval(scraper);
  clearInterval(flipper);
  ex.stop();
  server.closeAllConnections();
  server.close();
  await http.close();
  child.send({ quit: true });
  const after = samples.filter((s) => s.at >= warmUntil);
  const first = after[0];
  const last3 = after.slice(-3);
  const end = last3.reduce((n, s) => n + s.heap, 0) / last3.length;
  const growth = end - first.heap;
  const seriesCounts = new Set(after.map((s) => s.series));
  console.log(
    `soak: ${minutes} min at a ${INTERVAL_MS} ms interval over ${PROVIDERS} providers x 6 interfaces; heap after warm-up ${(first.heap / MiB).toFixed(1)} MiB -> ${(end / MiB).toFixed(1)} MiB (growth ${(growth / MiB).toFixed(2)} MiB, target < ${TARGET_GROWTH / MiB} MiB); series ${[...seriesCounts].join(', ')}; ${scrapes} scrapes, slowest ${slowest.toFixed(1)} ms`,
  );
  const sorted = [...scrapeMs].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)].toFixed(1);
  console.log(`soak: scrape times median ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${slowest.toFixed(1)} ms`);
  const ok = growth < TARGET_GROWTH && scrapes > 0;
  process.exit(ok ? 0 : 1);
}

if (process.argv.includes('--devnet')) void devnetChild();
else
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
