// A day of use, compressed (`npm run soak`; SOAK_MINUTES, default 30; `npm test` runs 3 minutes).
// The core the status bar and the views run on, in Node without an editor, against the devnet
// (in a child process, so its growing chain is not counted): the height tracker on a devnet with
// 20 ms blocks whose socket is dropped every 30 s, health refreshes every 2 s over 10 providers,
// and a request every second (rendered and masked as a document). Reports heap and RSS growth after
// warm-up (until RSS stops climbing, at most half the run) and the sockets, timers and handles left at the end; exits 1 past the targets.

import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execute } from '../../src/core/chain/execute';
import { HealthMonitor } from '../../src/core/health/health';
import { HeightTracker } from '../../src/core/chain/heightTracker';
import { HttpClient } from '../../src/core/transport/http';
import { interpret, readCometStatus } from '../../src/core/documents/interpret';
import { masker } from '../../src/core/secrets/mask';
import { findOperation } from '../../src/core/chain/operations';
import { type Provider, joinUrl } from '../../src/core/config/providers';
import { renderDocumentBytes } from '../../src/core/documents/render';
import { type DevnetProviderUrls, startDevnet } from '../devnet/devnet';

const MiB = 1024 * 1024;
const PROVIDERS = 10;
const BLOCK_MS = 20;
const DROP_EVERY_MS = 30_000;
const HEALTH_EVERY_MS = 2_000;
const REQUEST_EVERY_MS = 1_000;
const TARGET_GROWTH = 10 * MiB;

type ToChild = { drop: string } | { stop: true };

/** The devnet side: started in a child, driven over IPC. */
async function devnetChild(): Promise<void> {
  const devnet = await startDevnet({
    blockIntervalMs: BLOCK_MS,
    providers: Array.from({ length: PROVIDERS }, (_, i) => ({ name: `p${i}`, lagBlocks: i % 3 })),
  });
  process.send!({ providers: devnet.providers });
  process.on('message', (m: ToChild) => {
    void (async () => {
      if ('drop' in m) {
        await devnet.stopProvider(m.drop);
        await devnet.startProvider(m.drop);
      } else {
        await devnet.stop();
        process.exit(0);
      }
    })();
  });
}

function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) counts[r] = (counts[r] ?? 0) + 1;
  return counts;
}

async function settle(): Promise<{ heap: number; rss: number }> {
  for (let i = 0; i < 3; i++) {
    (global as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 50));
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

export interface SoakReport {
  minutes: number;
  warmUpSeconds: number;
  heights: number;
  lastHeight: string;
  drops: number;
  reconnects: number;
  healthRefreshes: number;
  requests: number;
  requestErrors: number;
  heapGrowthMB: number;
  rssGrowthMB: number;
  /** False on runs too short for RSS to settle: it is then reported, not held to the target. */
  rssChecked: boolean;
  resourcesBefore: Record<string, number>;
  resourcesAfter: Record<string, number>;
  ok: boolean;
}

/**
 * RSS is held to the target only on runs this long or longer. Over 3 minutes it moved by 8-22 MB
 * with the allocator and the connection pools while the heap stayed flat (+0.4 MB): `npm test`'s
 * 3-minute run checks the heap, the handles and that heights and health kept coming; `npm run soak`
 * (30 minutes) checks RSS too.
 */
const RSS_CHECKED_FROM_MINUTES = 10;

export async function soak(minutes: number, log: (s: string) => void = console.log): Promise<SoakReport> {
  log(
    `soak: ${minutes} min: ${PROVIDERS} providers, ${BLOCK_MS} ms blocks, a socket drop every ${DROP_EVERY_MS / 1000} s, health every ${HEALTH_EVERY_MS / 1000} s, a request every ${REQUEST_EVERY_MS / 1000} s`,
  );
  const resourcesBefore = resources(); // before the devnet's child process and its pipe
  const child: ChildProcess = fork(__filename, ['--devnet'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { providers: urls } = await new Promise<{ providers: DevnetProviderUrls[] }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { providers: DevnetProviderUrls[] }));
    child.once('error', reject);
  });
  const providers: Provider[] = urls.map((u) => ({
    name: u.name,
    endpoints: { evmRpc: u.evmRpc, consensusHttp: u.consensusHttp, consensusRpc: u.consensusRpc, consensusWs: u.consensusWs, rest: u.rest },
  }));
  const http = new HttpClient();
  const dir = mkdtempSync(path.join(tmpdir(), 'ce-soak-'));
  masker.set(['soak-secret-value-1']);
  const followed = providers[0];
  const statusBase = followed.endpoints.consensusHttp!;
  const tracker = new HeightTracker({
    wsUrl: followed.endpoints.consensusWs,
    fetchStatus: async (signal) => {
      const url = joinUrl(statusBase, '/status');
      const res = await http.send({ method: 'GET', url, timeoutMs: 5000, signal });
      const status = readCometStatus(interpret(res, 'jsonrpc', url).result);
      if (!status) throw new Error('no height');
      return status;
    },
    defaultBlockIntervalMs: BLOCK_MS,
  });
  let heights = 0;
  let reconnects = 0;
  let lastState = '';
  tracker.onDidChange((s) => {
    heights++;
    if (s.state !== lastState && (s.state === 'reconnecting' || s.state === 'polling')) reconnects++;
    lastState = s.state;
  });
  tracker.start();

  const monitor = new HealthMonitor({ http, timeoutMs: 5000 });
  let healthRefreshes = 0;
  let healthBusy = false;
  const healthTimer = setInterval(() => {
    if (healthBusy) return;
    healthBusy = true;
    void monitor
      .refresh(providers)
      .then(() => {
        monitor.assess(providers);
        healthRefreshes++;
      })
      .finally(() => (healthBusy = false));
  }, HEALTH_EVERY_MS);

  const ops = ['evm.blockNumber', 'consensus.block', 'rest.latestBlock', 'consensusHttp.status', 'evm.getBlockByNumber']
    .map((id) => findOperation(id)!)
    .filter(Boolean);
  let requests = 0;
  let requestErrors = 0;
  const requestTimer = setInterval(() => {
    const op = ops[requests % ops.length];
    const p = providers[requests % providers.length];
    requests++;
    const tip = tracker.snapshot().height;
    const args: Record<string, string> = op.id === 'consensus.block' ? { height: String(tip !== undefined && tip > 10n ? tip - 5n : 1n) } : {};
    void execute(p, op, args, { http, timeoutMs: 5000, maxBufferBytes: 20 * MiB, spillDir: dir }).then((o) => {
      if (o.error && requestErrors++ < 3) log(`soak: ${op.id} on ${p.name}: ${o.error.message}`);
      masker.maskBytes(renderDocumentBytes(o));
    });
  }, REQUEST_EVERY_MS);

  let drops = 0;
  const dropTimer = setInterval(() => {
    drops++;
    child.send({ drop: followed.name } satisfies ToChild);
  }, DROP_EVERY_MS);

  // Warm-up: until RSS stops climbing (under 2 MB over the last 20 s: pools, caches and the heap's
  // spaces have their working size), at least 30 s and at most half the run.
  const totalMs = minutes * 60_000;
  const began = Date.now();
  const samples: { at: number; rss: number }[] = [];
  for (;;) {
    await new Promise((r) => setTimeout(r, 5_000));
    const now = Date.now();
    samples.push({ at: now, rss: process.memoryUsage().rss });
    const past = samples.find((x) => x.at >= now - 20_000);
    const flat = past !== undefined && now - past.at >= 15_000 && samples.at(-1)!.rss - past.rss < 2 * MiB;
    if ((now - began >= 30_000 && flat) || now - began >= totalMs / 2) break;
  }
  const warmMs = Date.now() - began;
  const warm = await settle();
  log(`soak: warm-up done after ${(warmMs / 1000).toFixed(0)} s: heap ${(warm.heap / MiB).toFixed(1)} MB, rss ${(warm.rss / MiB).toFixed(1)} MB`);
  const started = Date.now();
  while (Date.now() - started < totalMs - warmMs) {
    await new Promise((r) => setTimeout(r, Math.min(60_000, totalMs - warmMs - (Date.now() - started))));
    const m = process.memoryUsage();
    log(
      `soak: ${((warmMs + Date.now() - started) / 60_000).toFixed(1)} min · height ${tracker.snapshot().height} (${tracker.snapshot().state}) · ${requests} requests · ${healthRefreshes} health refreshes · heap ${(m.heapUsed / MiB).toFixed(1)} MB · rss ${(m.rss / MiB).toFixed(1)} MB`,
    );
  }
  const end = await settle();
  const lastHeight = String(tracker.snapshot().height);

  clearInterval(healthTimer);
  clearInterval(requestTimer);
  clearInterval(dropTimer);
  tracker.dispose();
  while (healthBusy) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 1500)); // requests in flight, closing handshakes
  await http.close();
  child.send({ stop: true } satisfies ToChild);
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
  masker.set([]);
  await new Promise((r) => setTimeout(r, 200));
  const resourcesAfter = resources();

  const heapGrowth = end.heap - warm.heap;
  const rssGrowth = end.rss - warm.rss;
  const flat = Object.entries(resourcesAfter).every(([k, n]) => n <= (resourcesBefore[k] ?? 0));
  const report: SoakReport = {
    minutes,
    warmUpSeconds: Math.round(warmMs / 1000),
    heights,
    lastHeight,
    drops,
    reconnects,
    healthRefreshes,
    requests,
    requestErrors,
    heapGrowthMB: Math.round((heapGrowth / MiB) * 10) / 10,
    rssGrowthMB: Math.round((rssGrowth / MiB) * 10) / 10,
    resourcesBefore,
    resourcesAfter,
    rssChecked: minutes >= RSS_CHECKED_FROM_MINUTES,
    ok: heapGrowth < TARGET_GROWTH && (minutes < RSS_CHECKED_FROM_MINUTES || rssGrowth < TARGET_GROWTH) && flat && heights > 0 && healthRefreshes > 0,
  };
  return report;
}

if (require.main === module) {
  if (process.argv.includes('--devnet')) {
    void devnetChild();
  } else {
    const minutes = Number(process.env.SOAK_MINUTES ?? 30);
    void soak(minutes).then((r) => {
      console.log(JSON.stringify(r, null, 2));
      console.log(
        `soak: ${r.minutes} min · heap growth ${r.heapGrowthMB} MB · rss growth ${r.rssGrowthMB} MB (target < 10 MB${r.rssChecked ? '' : `, held to it on runs of ${RSS_CHECKED_FROM_MINUTES} min or more`}) · ` +
          `resources at the end ${JSON.stringify(r.resourcesAfter)} (before ${JSON.stringify(r.resourcesBefore)}) · ${r.ok ? 'OK' : 'FAILED'}`,
      );
      process.exit(r.ok ? 0 : 1);
    });
  }
}
