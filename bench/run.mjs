// @ts-check
// npm run bench: every case in its own process against loopback servers it starts (the devnet and
// plain node:http servers), then one table: per case the median and p90 of ours and of the
// baseline, their ratio (of medians) and the target. Expects `npm run compile:tests` and
// `npm run build:release` to have run (the npm script does both). Options:
//   --only a,b   run only these cases (activation, bundle, requests, fanout, queries, websocket, events, genesis, bigdoc, explorer,
//                explorer-editor, routes, contracts, exporter, simulate, receipt, account)
//   --quick      every case with tiny sizes and few iterations, a few seconds each: a smoke run that
//                checks each case runs and prints its figures (npm test runs it; targets are shown
//                but not enforced, the figures are not for the record). Exits 1 if a case fails or
//                prints no figure.
// The results also go to .cache/bench/results.json (every sample summary, per case).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, fmtBytes, fmtMs, median, runChild, startChild, summary } from './lib.mjs';

const argv = process.argv.slice(2);
const onlyIdx = argv.indexOf('--only');
const only = onlyIdx >= 0 ? new Set(argv[onlyIdx + 1].split(',')) : undefined;
const quick = argv.includes('--quick');
const want = (c) => !only || only.has(c);
const q = (full, small) => (quick ? small : full);

const started = Date.now();
const rows = [];
const results = {};
const row = (r) => rows.push(r);
const log = (m) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${m}`);
const ratio = (a, b) => a / b;
const x = (r) => (Number.isFinite(r) ? `${r.toFixed(2)}x` : '-');

// The release build, copied at once: a concurrent `npm run build` must not change what is measured.
// Activation loads dist/extension.js and the chunks it requires at once; each feature's file
// (dist/<feature>-<hash>.js, src/ui/<feature>/index.ts) with the chunks it requires on the feature's
// first use (scripts/build.mjs); dist/vendor/ on the first request.
const distCopy = path.join(ROOT, '.cache', 'bench-dist');
fs.rmSync(distCopy, { recursive: true, force: true });
fs.cpSync(path.join(ROOT, 'dist'), distCopy, { recursive: true, filter: (f) => !f.endsWith('.map') });
const bundleCopy = path.join(distCopy, 'extension.js');
const sizeOf = (f) => fs.statSync(path.join(distCopy, f)).size;
/** The files `file` requires at once (static), and those it loads later (`import()`, compiled to Promise.resolve().then(() => require(…))). */
const requiresOf = (file) => {
  const text = fs.readFileSync(path.join(distCopy, file), 'utf8');
  const later = new Set([...text.matchAll(/Promise\.resolve\(\)\.then\(\(\)\s*=>\s*(?:[\w$]+\()?require\("\.\/([\w-]+\.js)"\)/g)].map((m) => m[1]));
  const all = [...text.matchAll(/require\("\.\/([\w-]+\.js)"\)/g)].map((m) => m[1]);
  return { atOnce: all.filter((f) => !later.has(f)), later: [...later] };
};
const closure = (file, seen = new Set()) => {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const f of requiresOf(file).atOnce) closure(f, seen);
  return seen;
};
const bytesOf = (files) => [...files].reduce((n, f) => n + sizeOf(f), 0);
const activationFiles = closure('extension.js');
const activationBytes = bytesOf(activationFiles);
const bundleBytes = bytesOf(fs.readdirSync(distCopy).filter((f) => f.endsWith('.js') && f !== 'cli.js'));
/** What each feature's first use adds to what activation loaded. */
const featureBytes = Object.fromEntries(
  requiresOf('extension.js')
    .later.concat([...activationFiles].flatMap((f) => requiresOf(f).later))
    .filter((f, i, all) => all.indexOf(f) === i)
    .map((f) => [f.replace(/-[A-Z0-9]+\.js$/, ''), bytesOf([...closure(f)].filter((x) => !activationFiles.has(x)))]),
);
const largestFirstUse = Math.max(...Object.values(featureBytes));

if (want('bundle')) {
  results.bundle = { bytes: bundleBytes, activationBytes, activationFiles: activationFiles.size, featureBytes };
  row({
    case: 'bundle',
    what: `what a feature's first use loads (release build), the largest of: ${Object.entries(featureBytes)
      .map(([k, v]) => `${k} ${fmtBytes(v)}`)
      .join(', ')}; plus activation's ${fmtBytes(activationBytes)} in ${activationFiles.size} files; everything shipped: ${fmtBytes(bundleBytes)}`,
    ours: [fmtBytes(largestFirstUse)],
    target: '< 1 MB',
    met: largestFirstUse < 1024 * 1024,
  });
}

const listed = (xs) => xs.map((v) => v.toFixed(2)).join(', ');
/**
 * A row measured in several processes (one process's ratio carries a bias of its own: a request row
 * read 1.15-1.26x in four processes on the same code): the median ratio, the figures of the process
 * that gave it, and every process's ratio listed.
 */
const medianBy = (samples, ratioOf) => {
  const ratios = samples.map(ratioOf);
  const r = median(ratios);
  return { r, at: samples[ratios.indexOf(r)], ratios };
};
const medianOf = (samples) => medianBy(samples, (v) => ratio(v.ours.median, v.baseline.median));

if (want('requests')) {
  log('request overhead and anchors (devnet; 3 processes)');
  const runs = [];
  for (let i = 0; i < q(3, 1); i++) runs.push(await runChild('requests.mjs', { warmup: q(150, 2), n: q(500, 5), anchorWarmup: q(50, 2), anchorN: q(300, 5) }));
  results.requests = runs;
  const sumOf = (rows, k, s) => rows.reduce((a, x) => a + x[k][s], 0);
  const sums = runs.map((r) => ({
    ours: { median: sumOf(r.rows, 'ours', 'median'), p90: sumOf(r.rows, 'ours', 'p90') },
    baseline: { median: sumOf(r.rows, 'baseline', 'median'), p90: sumOf(r.rows, 'baseline', 'p90') },
  }));
  const ids = runs[0].rows.map((o) => o.id);
  const perRow = ids.map((id) => ({ id, ...medianOf(runs.map((r) => r.rows.find((o) => o.id === id))) }));
  const worst = [...perRow].sort((a, b) => b.r - a.r);
  const all = medianOf(sums);
  row({
    case: 'request overhead',
    what: `${ids.length} documented HTTP requests, sum of medians; each figure the median of ${runs.length} processes (sum: ${listed(all.ratios)}; worst row: ${worst[0].id} ${x(worst[0].r)}, best: ${worst.at(-1).id} ${x(worst.at(-1).r)})`,
    ours: [fmtMs(all.at.ours.median), fmtMs(all.at.ours.p90)],
    base: [fmtMs(all.at.baseline.median), fmtMs(all.at.baseline.p90)],
    ratio: x(all.r),
    target: '≤ 1.15x',
    met: all.r <= 1.15,
  });
  for (const o of perRow) {
    row({
      case: '',
      what: `· ${o.id} (${listed(o.ratios)})`,
      ours: [fmtMs(o.at.ours.median), fmtMs(o.at.ours.p90)],
      base: [fmtMs(o.at.baseline.median), fmtMs(o.at.baseline.p90)],
      ratio: x(o.r),
      target: '≤ 1.15x',
      met: o.r <= 1.15,
    });
  }
  for (const a0 of runs[0].anchors) {
    const a = medianOf(runs.map((r) => r.anchors.find((v) => v.id === a0.id)));
    row({
      case: 'anchors',
      what: `${a0.id} vs ${a0.lib} (${listed(a.ratios)})`,
      ours: [fmtMs(a.at.ours.median), fmtMs(a.at.ours.p90)],
      base: [fmtMs(a.at.baseline.median), fmtMs(a.at.baseline.p90)],
      ratio: x(a.r),
      target: '≤ 1.0x',
      met: a.r <= 1.0,
    });
  }
}

if (want('fanout')) {
  // 100 ms: the performance issue's case; 200 ms: the health issue's (its target is the same 1.5x).
  for (const delayMs of q([100, 200], [100])) {
    const providers = q(20, 3);
    log(`fan-out (${providers} providers x 5 interfaces, answers after ${delayMs} ms)`);
    const r = await runChild('fanout.mjs', { providers, delayMs, warmup: q(2, 1), n: q(20, 2) });
    results[`fanout${delayMs}`] = r;
    const rr = ratio(r.ours.median, r.baseline.median);
    row({
      case: 'fan-out',
      what: `HealthMonitor.refresh, ${r.interfaces} interfaces vs one probe, servers answering after ${delayMs} ms; HTTP connections: ${r.connectsFirstRefresh} on the first refresh (${r.origins} origins), ${r.connectsLaterRefreshes} for the ${r.requestsLaterRefreshes} requests of the ${r.refreshes - 1} later ones; WebSocket probes open 1 socket each`,
      ours: [fmtMs(r.ours.median), fmtMs(r.ours.p90)],
      base: [fmtMs(r.baseline.median), fmtMs(r.baseline.p90)],
      ratio: x(rr),
      // Reused: warm refreshes open (almost) no connection. Rarely, undici's pool finds all of an
      // origin's connections busy for a moment and opens one more (1 in ~2,000 requests seen).
      target: '≤ 1.5x; pools reused (< 1% new)',
      met: rr <= 1.5 && r.connectsLaterRefreshes < 0.01 * r.requestsLaterRefreshes,
    });
  }
}

if (want('queries')) {
  const requests = q(1000, 50);
  log(`query file: ${requests} requests from one file vs bare undici (devnet)`);
  // 10 warm-up rounds, then 30 (each round ~0.5 s): V8 is still optimising the runner's code in the
  // first ~10 rounds (BENCHMARKS.md, issue 33), and a ratio this close to its bound needs the
  // steadier median. The first round of each side is reported too (one CLI run pays it).
  const r = await runChild('queries.mjs', { requests, warmup: q(10, 1), n: q(30, 2) });
  results.queries = r;
  const rr = ratio(r.ours.median, r.baseline.median);
  row({
    case: 'query file',
    what: `${r.requests} requests of one .chainq file (parse, references, one assertion each), one at a time, vs the same requests with bare undici.request + JSON.parse; after ${r.warmup} warm-up rounds; CPU per round ${fmtMs(r.cpu.ours.median)} vs ${fmtMs(r.cpu.baseline.median)} (${x(ratio(r.cpu.ours.median, r.cpu.baseline.median))}); the first round in a fresh process ${fmtMs(r.first.ours)} vs ${fmtMs(r.first.baseline)} (${x(ratio(r.first.ours, r.first.baseline))})`,
    ours: [fmtMs(r.ours.median), fmtMs(r.ours.p90)],
    base: [fmtMs(r.baseline.median), fmtMs(r.baseline.p90)],
    ratio: x(rr),
    target: '≤ 1.2x',
    met: rr <= 1.2,
  });
}

if (want('exporter')) {
  log('exporter: a scrape of 100 providers x 5 interfaces; CPU at a 30 s interval over 20 providers (devnet)');
  const r = await runChild('exporter.mjs', {
    providers: q(100, 10),
    warmup: q(20, 2),
    n: q(200, 5),
    cpuProviders: q(20, 2),
    intervalMs: q(30_000, 1_000),
    rounds: q(5, 1),
  });
  results.exporter = r;
  const s = r.scrape;
  row({
    case: 'exporter scrape',
    what: `GET /metrics of ${s.providers} providers x 5 interfaces (${s.series} series, ${fmtBytes(s.bytes)}) over loopback, vs a bare node:http server sending a pre-rendered string of the same size`,
    ours: [fmtMs(s.ours.median), fmtMs(s.ours.p90)],
    base: [fmtMs(s.baseline.median), fmtMs(s.baseline.p90)],
    ratio: x(ratio(s.ours.median, s.baseline.median)),
    target: '< 50 ms',
    met: s.ours.p90 < 50,
  });
  const c = r.cpu;
  const pct = (v) => `${(v * 100).toFixed(2)}%`;
  // Over a day: the first interval (the process warming up, and the capability probes, sent again
  // every capability TTL) once per TTL, the steady intervals the rest of it (a mean of the intervals
  // measured would weigh the first 10 to 15 times more than a running exporter does).
  const perTtl = Math.max(1, Math.round(c.capabilityTtlMs / c.intervalMs));
  // The steady figure is the median interval: a neighbour on the machine busy for a minute (the gauge,
  // a fixed piece of work in another process, shows it) lands in one interval, the exporter's own work
  // in every one. Each interval is listed with the gauge's CPU beside it.
  const longRun = (c.firstRound.cpuMs + c.steady.median * c.intervalMs * (perTtl - 1)) / (perTtl * c.intervalMs);
  const each = c.intervals.map((v) => `${pct(v.share)} (gauge ${Math.round(v.gaugeMs)} ms)`).join(', ');
  row({
    case: 'exporter CPU',
    what: `the exporter's CPU at a ${c.intervalMs / 1000} s interval over ${c.providers} providers x 6 interfaces, a scrape every ${c.intervalMs / 2000} s: the median of ${c.rounds} intervals after the first (each: ${each}; all ${c.rounds}: ${pct(c.steady.share)}; the first, warming up and with the capability probes: ${pct(c.firstRound.share)}, gauge ${Math.round(c.firstRound.gaugeMs)} ms; over a day, the first interval once per capability TTL of ${perTtl} intervals: ${pct(longRun)})`,
    ours: [pct(c.steady.median)],
    target: '< 2% of one core (steady, and over a day)',
    met: c.steady.median < 0.02 && longRun < 0.02,
  });
}

if (want('websocket')) {
  const events = q(10_000, 500);
  log(`WebSocket (${events} NewBlockHeader events)`);
  const r = await runChild('websocket.mjs', { events, rounds: q(5, 2), warmupEvents: q(2_000, 100) });
  results.websocket = r;
  row({
    case: 'WebSocket',
    what: `events/s (median, p90 of ${r.rounds} rounds of ${r.events}; ${r.frameBytes} B frames)`,
    ours: [Math.round(r.eventsPerSecond.median).toLocaleString('en-US'), Math.round(r.eventsPerSecond.p90).toLocaleString('en-US')],
    target: 'report',
    met: true,
  });
  row({
    case: 'WebSocket',
    what: 'CPU per event (ws parse + tracker + status text)',
    ours: [`${r.cpuUsPerEvent.median.toFixed(1)} µs`, `${r.cpuUsPerEvent.p90.toFixed(1)} µs`],
    target: 'report',
    met: true,
  });
  row({
    case: 'WebSocket',
    what: `frame to status text, p50 / p99 (max ${fmtMs(r.latencyMs.max)})`,
    ours: [fmtMs(r.latencyMs.p50), fmtMs(r.latencyMs.p99)],
    target: 'p99 < 1 ms',
    met: r.latencyMs.p99 < 1,
  });
  const growth = r.heap.after - r.heap.before;
  row({
    case: 'WebSocket',
    what: `heap used before / after (${r.rounds} x ${r.events} events, after GC)`,
    ours: [fmtBytes(r.heap.before), fmtBytes(r.heap.after)],
    target: 'flat',
    met: growth < 2 * 1024 * 1024,
  });
}

if (want('events')) {
  const seconds = q(60, 3);
  const rate = q(5_000, 500);
  log(`event watch (${rate} Tx events/s for ${seconds} s into one core Watch)`);
  const r = await runChild('events.mjs', {
    rate,
    seconds,
    bufferSize: q(10_000, 1_000),
    warmupSeconds: Math.min(10, seconds / 2),
    sampleEveryMs: q(5000, 1000),
  });
  results.events = r;
  const lost = r.sent - r.received + (r.received - r.delivered);
  row({
    case: 'event watch',
    what: `${r.sent.toLocaleString('en-US')} events (${r.frameBytes} B frames) at ${r.rate.toLocaleString('en-US')}/s: received, delivered to the view in ${r.batches} batches (CPU ${r.cpuUsPerEvent.toFixed(1)} µs per event, GC included)`,
    ours: [r.received.toLocaleString('en-US'), r.delivered.toLocaleString('en-US')],
    target: 'none lost',
    met: lost === 0 && r.outOfOrder === 0,
  });
  row({
    case: 'event watch',
    what: `buffer: kept / evicted (capacity ${r.bufferSize.toLocaleString('en-US')})`,
    ours: [r.stored.toLocaleString('en-US'), r.evicted.toLocaleString('en-US')],
    target: 'bounded',
    met: r.stored === Math.min(r.bufferSize, r.received) && r.evicted === Math.max(0, r.received - r.bufferSize),
  });
  row({
    case: 'event watch',
    what: `batch callback: taken from the buffer -> end of its listener (the console's work: lines + serialising), p50 / p99 (max ${fmtMs(r.batchDurationMs.max)})`,
    ours: [fmtMs(r.batchDurationMs.p50), fmtMs(r.batchDurationMs.p99)],
    target: 'p99 < 50 ms',
    met: r.batchDurationMs.p99 < 50,
  });
  row({
    case: 'event watch',
    what: `batch due -> end of its listener, p50 / p99 (max ${fmtMs(r.batchLatencyMs.max)}); newest event's age at the view p50 ${fmtMs(r.eventAgeMs.p50)}, p99 ${fmtMs(r.eventAgeMs.p99)}; event-loop delay p99 ${fmtMs(r.eventLoopDelayMs.p99)}, load average ${r.loadAverage.map((l) => l.toFixed(1)).join(' -> ')}`,
    ours: [fmtMs(r.batchLatencyMs.p50), fmtMs(r.batchLatencyMs.p99)],
    target: 'report (event-loop delay)',
    met: true,
  });
  row({
    case: 'event watch',
    what: `heap after GC past the warm-up, min / max of ${r.heapAfterWarmup.samples} samples`,
    ours: [fmtBytes(r.heapAfterWarmup.min), fmtBytes(r.heapAfterWarmup.max)],
    target: 'flat',
    met: r.heapAfterWarmup.max - r.heapAfterWarmup.min < 16 * 1024 * 1024,
  });
}

if (want('explorer')) {
  const count = q(5000, 200);
  log(`explorer (a block of ${count} txs decoded; links of a ${q(50, 2)} MB document)`);
  const r = await runChild('explorer.mjs', { count, warmup: q(2, 1), n: q(7, 2), docMegabytes: q(50, 2) });
  results.explorer = r;
  const rt = ratio(r.ours.median, r.baseline.median);
  row({
    case: 'explorer block',
    what: `Look Up of a ${count.toLocaleString('en-US')}-tx block (${fmtBytes(r.blockBytes)} block + ${fmtBytes(r.blockResultsBytes)} results fetched, every tx a line, its first page of 100 decoded in full, ${fmtBytes(r.decodedBytes)} Markdown) vs the raw document (${fmtBytes(r.rawBytes)})`,
    ours: [fmtMs(r.ours.median), fmtMs(r.ours.p90)],
    base: [fmtMs(r.baseline.median), fmtMs(r.baseline.p90)],
    ratio: x(rt),
    // For information: what the user waits for is the editor's row ("explorer in the editor", issue
    // 33's target). The raw document here only formats bytes as they arrive; the decoded view must parse
    // the block and its block_results, more than 2x of that alone (BENCHMARKS.md, session 7).
    target: 'none (the target is the editor row)',
  });
  row({
    case: 'explorer links',
    what: `links of the visible part of a ${fmtBytes(r.docBytes)} document (${r.docLines.toLocaleString('en-US')} lines; 60 visible + 2 x 500 margin: ${r.linkCount} links)`,
    ours: [fmtMs(r.links.median), fmtMs(r.links.p90)],
    target: '< 100 ms',
    met: r.links.p90 < 100,
  });
}

if (want('account')) {
  const count = q(5000, 200);
  const tokens = q(20, 4);
  log(`account page (${count} transactions, ${tokens} tokens, every answer after 5 ms)`);
  const r = await runChild('account.mjs', { count, tokens, warmup: q(2, 1), n: q(7, 2), delayMs: 5 });
  results.account = r;
  const rt = ratio(r.first.ours.median, r.first.baseline.median);
  row({
    case: 'account first screen',
    what: `Look Up of an account with ${count.toLocaleString('en-US')} txs and ${tokens} tokens: state, stake, history page 1 (${r.entries} entries), ${r.tokensShown} token balances with metadata, Markdown (${r.firstRequests} requests, at most ${r.firstMax} in flight) vs the same requests replayed with bare fetch at ${r.firstMax} at once`,
    ours: [fmtMs(r.first.ours.median), fmtMs(r.first.ours.p90)],
    base: [fmtMs(r.first.baseline.median), fmtMs(r.first.baseline.p90)],
    ratio: x(rt),
    target: '< 1 s',
    met: r.first.ours.p90 < 1000,
  });
  const rn = ratio(r.next.ours.median, r.next.baseline.median);
  row({
    case: 'account next page',
    what: `the next page of its history from the kept cursor (${r.nextRequests.toFixed(1)} requests a page on average) vs ${r.nextFloor} tx_search pages fetched at once (bare fetch)`,
    ours: [fmtMs(r.next.ours.median), fmtMs(r.next.ours.p90)],
    base: [fmtMs(r.next.baseline.median), fmtMs(r.next.baseline.p90)],
    ratio: x(rn),
    target: '< 300 ms',
    met: r.next.ours.p90 < 300,
  });
}

if (want('routes')) {
  log('module routes: the route pick (cold: the table loads on first use; warm: the pick again)');
  const runs = [];
  for (let i = 0; i < q(7, 2); i++) runs.push(await runChild('routes.mjs', { n: q(50, 5) }));
  const cold = summary(runs.map((r) => r.coldMs));
  const r = runs[runs.length - 1];
  results.routes = { runs, cold };
  row({
    case: 'route pick',
    what: `REST: Query a Module Route… opening on ${r.routes} routes, cold in a fresh process (modules.json parsed ${fmtMs(r.parseMs)}, ${r.routes} operations built ${fmtMs(r.buildMs)}, the items); n=${runs.length} processes; the code itself (${fmtMs(r.codeMs)} from out/) is the requests feature's file, loaded by its first command`,
    ours: [fmtMs(cold.median), fmtMs(cold.p90)],
    target: '< 100 ms',
    met: cold.median < 100,
  });
  row({
    case: 'route pick',
    what: `the pick opened again (items rebuilt, served-by notes included); baseline: as many plain items from the static catalogue's ${'30'} operations`,
    ours: [fmtMs(r.warm.median), fmtMs(r.warm.p90)],
    base: [fmtMs(r.baseline.median), fmtMs(r.baseline.p90)],
    ratio: x(ratio(r.warm.median, r.baseline.median)),
    target: '< 100 ms',
    met: r.warm.p90 < 100,
  });
}

if (want('contracts')) {
  log('contracts (logs of a 5,000-tx block decoded vs viem; a 10,000-frame trace to its document; 500 artifacts)');
  const hostile = { files: q(3, 1), codeBytes: q(24_000, 2_000), masks: q(350_000, 5_000) };
  const r = await runChild('contracts.mjs', { txs: 5000, warmup: q(2, 1), n: q(9, 2), hostile });
  results.contracts = r;
  const lr = ratio(r.logs.ours.median, r.logs.baseline.median);
  row({
    case: 'contracts logs',
    what: `${r.logs.count.toLocaleString('en-US')} logs of a 5,000-tx block decoded through the registry (ABI by topic0, JSON-safe values) vs viem decodeEventLog with the same ABI`,
    ours: [fmtMs(r.logs.ours.median), fmtMs(r.logs.ours.p90)],
    base: [fmtMs(r.logs.baseline.median), fmtMs(r.logs.baseline.p90)],
    ratio: x(lr),
    target: '≤ 1.2x',
    met: lr <= 1.2,
  });
  const tr = ratio(r.trace.ours.median, r.trace.baseline.median);
  row({
    case: 'contracts trace',
    what: `a ${r.trace.frames.toLocaleString('en-US')}-frame trace to its document (first page of 1,000 frames decoded, ${fmtBytes(r.trace.docBytes)}) vs the raw trace document (${fmtBytes(r.trace.rawBytes)})`,
    ours: [fmtMs(r.trace.ours.median), fmtMs(r.trace.ours.p90)],
    base: [fmtMs(r.trace.baseline.median), fmtMs(r.trace.baseline.p90)],
    ratio: x(tr),
    target: '< 1 s, ≤ 2.0x',
    met: r.trace.ours.p90 < 1000 && tr <= 2.0,
  });
  const hr = ratio(r.hostile.ours.median, r.hostile.baseline.median);
  row({
    case: 'contracts hostile artifacts',
    what: `first decode in a workspace of ${r.hostile.files} artifacts of ${fmtBytes(r.hostile.fileBytes)} with ${r.hostile.masks.toLocaleString('en-US')} full-length masks each vs the same bytes with the masks under an unread key; masks examined ${r.hostile.masksExamined}, contract named: ${r.hostile.named}; files parsed in a worker thread as in the editor; event loop held at most ${fmtMs(r.hostile.maxLoopDelayMs)} (the same process idle as long: ${fmtMs(r.hostile.idleGapMs)}; longest slice of the index's own work ${fmtMs(r.hostile.longestSliceMs)})`,
    ours: [fmtMs(r.hostile.ours.median), fmtMs(r.hostile.ours.p90)],
    base: [fmtMs(r.hostile.baseline.median), fmtMs(r.hostile.baseline.p90)],
    ratio: x(hr),
    target: '≤ 1.5x, no mask walked, nothing named, event loop held < 50 ms beyond idle',
    met: hr <= 1.5 && r.hostile.masksExamined === 0 && r.hostile.named === 'none' && r.hostile.maxLoopDelayMs < Math.max(50, r.hostile.idleGapMs + 50),
  });
  row({
    case: 'contracts artifacts',
    what: `500 Foundry artifacts: files read when the registry is made ${r.artifacts.readsAtCreate}; first decode (lists and reads all, ${r.artifacts.readsAfter} files) ${fmtMs(r.artifacts.first.median)}; a later decode ${fmtMs(r.artifacts.later.median)}`,
    ours: [fmtMs(r.artifacts.create.median), fmtMs(r.artifacts.create.p90)],
    target: 'nothing read before the first decode',
    met: r.artifacts.readsAtCreate === 0,
  });
}

if (want('simulate')) {
  log('simulate (a simulation over the bare JSON-RPC requests it makes: eth_call engine; debug_traceCall with a 1,000-frame tree)');
  // eth_call: 1,000 samples per process (a run is ~0.2-0.9 ms). One process's ratio of the simulation
  // moves by a few hundredths from one process to the next (the bare pair against itself stays at
  // 0.99-1.01x), so the case runs in 3 processes and each row reports the median of their ratios, each listed.
  const runs = [];
  for (let i = 0; i < q(3, 1); i++) runs.push(await runChild('simulate.mjs', { frames: q(1000, 100), warmup: q(20, 2), n: q(200, 10), callN: q(1000, 10) }));
  results.simulate = runs;
  const call = medianBy(runs, (v) => ratio(v.call.ours.median, v.call.baseline.median));
  const sameRatios = runs.map((v) => ratio(v.call.same.a.median, v.call.same.b.median));
  const cpuRatios = runs.map((v) => ratio(v.call.cpu.ours.median, v.call.cpu.baseline.median));
  const cr = call.r;
  const r = call.at;
  row({
    case: 'simulate eth_call',
    what: `simulate() on the eth_call engine (spec checked, calldata encoded, eth_call + eth_estimateGas, return decoded) vs the same two requests bare, both through execute(), server in its own process; median of ${runs.length} processes (${listed(call.ratios)}; the bare pair against itself: ${listed(sameRatios)}); CPU per run ${fmtMs(r.call.cpu.ours.median)} vs ${fmtMs(r.call.cpu.baseline.median)} (${x(median(cpuRatios))})`,
    ours: [fmtMs(r.call.ours.median), fmtMs(r.call.ours.p90)],
    base: [fmtMs(r.call.baseline.median), fmtMs(r.call.baseline.p90)],
    ratio: x(cr),
    target: '≤ 1.15x',
    met: cr <= 1.15,
  });
  const trace = medianBy(runs, (v) => ratio(v.trace.ours.median, v.trace.baseline.median));
  const tr = trace.r;
  const t = trace.at;
  row({
    case: 'simulate trace',
    what: `simulate() on debug_traceCall with a ${t.trace.frames.toLocaleString('en-US')}-frame tree (flattened, ${t.trace.decoded.toLocaleString('en-US')} frames decoded, logs and transfers read) vs the bare debug_traceCall; median of ${runs.length} processes (${listed(trace.ratios)}); CPU per run ${fmtMs(t.trace.cpu.ours.median)} vs ${fmtMs(t.trace.cpu.baseline.median)} (${x(median(runs.map((v) => ratio(v.trace.cpu.ours.median, v.trace.cpu.baseline.median))))})`,
    ours: [fmtMs(t.trace.ours.median), fmtMs(t.trace.ours.p90)],
    base: [fmtMs(t.trace.baseline.median), fmtMs(t.trace.baseline.p90)],
    ratio: x(tr),
    target: '≤ 1.3x',
    met: tr <= 1.3,
  });
}

if (want('receipt')) {
  log(
    'receipt (#35: a receipt of a tx with 1,000 trace frames and 2,000 Cosmos events, built and rendered, vs rendering its raw debug_traceTransaction + raw CometBFT tx documents)',
  );
  // Three processes (one process's ratio moves by ±0.1 on the same code): the median of their
  // steady-state ratios, and of their first runs; each listed. Both must be within 2x.
  const runs = [];
  for (let i = 0; i < q(3, 1); i++)
    runs.push(await runChild('receipt.mjs', { frameCount: q(1000, 100), eventCount: q(2000, 200), warmup: q(25, 1), n: q(30, 3) }));
  results.receipt = runs;
  const steady = medianOf(runs);
  const first = medianBy(runs, (v) => ratio(v.first.ours, v.first.baseline));
  const fr = first.r;
  const r = steady.at;
  row({
    case: 'receipt',
    what: `a receipt of a transaction with ${r.frames.toLocaleString('en-US')} trace frames and ${r.events.toLocaleString('en-US')} Cosmos events (every event attributed, the ledger of 8 accounts, the document rendered) vs rendering its two raw documents as the extension makes them (the debug_traceTransaction callTracer answer and the CometBFT /tx answer, ${(r.rawBytes / 1e6).toFixed(1)} MB together); steady state after ${r.warmup} rounds, median of ${runs.length} processes (${listed(steady.ratios)}); the first run in a fresh process ${fmtMs(first.at.first.ours)} vs ${fmtMs(first.at.first.baseline)} (${x(fr)}; ${listed(first.ratios)})`,
    ours: [fmtMs(r.ours.median), fmtMs(r.ours.p90)],
    base: [fmtMs(r.baseline.median), fmtMs(r.baseline.p90)],
    ratio: x(steady.r),
    target: '< 1 s and ≤ 2x (steady and first run)',
    met: steady.r <= 2 && fr <= 2 && r.ours.p90 < 1000 && runs.every((v) => v.first.ours < 1000),
  });
}

if (want('explorer-editor')) {
  const count = q(5000, 200);
  log(`explorer in the editor (real extension host: Look Up of a ${count}-tx block vs its raw document, command to document shown)`);
  const r = await runChild('explorerEditor.mjs', { count, warmup: q(2, 1), n: q(9, 1) });
  const ours = summary(r.times.ours);
  const base = summary(r.times.baseline);
  results.explorerEditor = { ours, baseline: base, lines: r.lines };
  const rt = ratio(ours.median, base.median);
  row({
    case: 'explorer in the editor',
    what: `Look Up of a ${count.toLocaleString('en-US')}-tx block in VS Code, from the command to its document shown (${r.lines.ours.toLocaleString('en-US')} lines) vs the raw document of the block (${r.lines.baseline.toLocaleString('en-US')} lines)`,
    ours: [fmtMs(ours.median), fmtMs(ours.p90)],
    base: [fmtMs(base.median), fmtMs(base.p90)],
    ratio: x(rt),
    target: '≤ 2.0x',
    met: rt <= 2.0,
  });
}

if (want('bigdoc')) {
  const megabytes = q(50, 2);
  log(`big document (${megabytes} MB JSON)`);
  const server = startChild('server.mjs', { kind: 'fixed', megabytes });
  const info = await server.ready;
  try {
    const t = await runChild('bigDocument.mjs', { mode: 'time', url: info.url, warmup: 1, n: q(5, 2) });
    const mo = await runChild('bigDocument.mjs', { mode: 'memory-ours', url: info.url });
    const mb = await runChild('bigDocument.mjs', { mode: 'memory-baseline', url: info.url });
    results.bigdoc = { time: t, memoryOurs: mo, memoryBaseline: mb };
    const rt = ratio(t.ours.median, t.baseline.median);
    row({
      case: 'big document',
      what: `${fmtBytes(t.bytes)} answer: time (ours includes the fetch)`,
      ours: [fmtMs(t.ours.median), fmtMs(t.ours.p90)],
      base: [fmtMs(t.baseline.median), fmtMs(t.baseline.p90)],
      ratio: x(rt),
      target: '≤ 1.0x',
      met: rt <= 1.0,
    });
    const rm = ratio(mo.rssGrowth, mb.rssGrowth);
    row({
      case: 'big document',
      what: 'peak RSS growth (one run in a fresh process)',
      ours: [fmtBytes(mo.rssGrowth)],
      base: [fmtBytes(mb.rssGrowth)],
      ratio: x(rm),
      target: '≤ 0.5x',
      met: rm <= 0.5,
    });
  } finally {
    await server.stop();
  }
}

if (want('genesis')) {
  const megabytes = q(256, 4);
  const chunkMegabytes = q(16, 1);
  log(`genesis (${megabytes} MB through genesis_chunked)`);
  // The baseline is curl itself: without it the case cannot be measured, and says so at once.
  if (spawnSync('curl', ['--version']).status !== 0) {
    console.error('bench: the genesis case compares with curl, which is not installed (Debian: apt-get install -y curl)');
    process.exit(1);
  }
  const server = startChild('server.mjs', {
    kind: 'devnet',
    blocks: 1,
    genesisAppStateBytes: megabytes * 1024 * 1024,
    genesisChunkBytes: chunkMegabytes * 1024 * 1024,
  });
  const devnet = await server.ready;
  try {
    const t = await runChild('genesis.mjs', { mode: 'time', megabytes, chunkMegabytes, warmup: 1, n: q(3, 1), devnet });
    const m = await runChild('genesis.mjs', { mode: 'memory', megabytes, chunkMegabytes, devnet });
    results.genesis = { time: t, memory: m };
    const mbps = (ms) => `${(t.genesisBytes / 1024 / 1024 / (ms / 1000)).toFixed(0)} MB/s`;
    const thr = t.baseline.median / t.ours.median; // throughput ratio, ours / curl
    row({
      case: 'genesis',
      what: `${fmtBytes(t.genesisBytes)} in ${t.chunks} chunks to disk (curl: ${fmtBytes(t.curlBytes)} of chunk answers, not decoded); time`,
      ours: [fmtMs(t.ours.median), fmtMs(t.ours.p90)],
      base: [fmtMs(t.baseline.median), fmtMs(t.baseline.p90)],
      ratio: x(t.ours.median / t.baseline.median),
      target: 'time ≤ 1.25x',
      met: thr >= 0.8,
    });
    row({
      case: 'genesis',
      what: 'throughput (genesis bytes / s); ratio = ours / curl',
      ours: [mbps(t.ours.median)],
      base: [mbps(t.baseline.median)],
      ratio: x(thr),
      target: '≥ 0.8x',
      met: thr >= 0.8,
    });
    row({
      case: 'genesis',
      what: 'peak RSS growth (one run in a fresh process)',
      ours: [fmtBytes(m.growth)],
      target: '< 100 MB',
      met: m.growth < 100 * 1024 * 1024,
    });
  } finally {
    await server.stop();
  }
}

if (want('activation')) {
  log('activation (real extension host: code-server + headless Chromium)');
  const r = await runChild('activation.mjs', { launches: q(7, 1), observeMs: 1500, bundle: bundleCopy });
  // Baseline: an empty extension that only requires 'vscode' (the editor's own cost of loading an
  // extension and building its API object), in the same host, the same way.
  const empty = path.join(os.tmpdir(), `bench-empty-extension-${process.pid}.js`);
  fs.writeFileSync(empty, "require('vscode');\nexports.activate = () => ({});\nexports.deactivate = () => undefined;\n");
  let b;
  try {
    b = await runChild('activation.mjs', { launches: q(3, 1), observeMs: 500, bundle: empty });
  } finally {
    fs.rmSync(empty, { force: true });
  }
  results.activation = r;
  results.activationBaseline = b;
  row({
    case: 'activation',
    what: `require(bundle) + activate() in the extension host (${r.host.node}); n=${r.ownMs.n} launches; load ${fmtMs(r.loadMs.median)} + activate ${fmtMs(r.activateCallMs.median)} (CPU time of the host meanwhile ${fmtMs(r.ownCpuMs.median)}); baseline: an empty extension that only requires 'vscode'`,
    ours: [fmtMs(r.ownMs.median), fmtMs(r.ownMs.p90)],
    base: [fmtMs(b.ownMs.median), fmtMs(b.ownMs.p90)],
    ratio: `${(r.ownMs.median / b.ownMs.median).toFixed(2)}x`,
    target: '< 20 ms',
    met: r.ownMs.median < 20,
  });
  row({
    case: 'activation',
    what: 'ours minus the empty extension: the part of activation that is our code',
    ours: [fmtMs(r.ownMs.median - b.ownMs.median)],
    target: '< 20 ms',
    met: r.ownMs.median - b.ownMs.median < 20,
  });
  // The same, activated by the test 3 s after the workbench came up: at onStartupFinished the
  // workbench (Chromium, the server) is still loading on the same 2 cores, which moves the figure
  // above by several ms from launch to launch; here it is closer to what our code costs.
  const idle = await runChild('activation.mjs', { launches: q(4, 1), observeMs: 500, bundle: bundleCopy, activateAfterMs: 3000 });
  results.activationIdle = idle;
  row({
    case: 'activation',
    what: `the same in a host done starting (activated 3 s after the workbench came up); n=${idle.ownMs.n} launches; load ${fmtMs(idle.loadMs.median)} + activate ${fmtMs(idle.activateCallMs.median)} (CPU ${fmtMs(idle.ownCpuMs.median)})`,
    ours: [fmtMs(idle.ownMs.median), fmtMs(idle.ownMs.p90)],
    target: '< 20 ms',
    met: idle.ownMs.median < 20,
  });
  const during = r.socketsDuringActivation.reduce((a, b) => a + b, 0);
  const first = r.socketsAfter[0];
  row({
    case: 'activation',
    what: `sockets opened while loading + activating (all launches)${first ? `; first after: ${first.target} +${first.atMs} ms (status bar WebSocket, by design)` : ''}${r.busyPorts.length ? `; ports in use, not counted: ${r.busyPorts.join(', ')}` : ''}`,
    ours: [String(during)],
    target: 'no network',
    met: during === 0,
  });
}

// ---- the table -------------------------------------------------------------------------------
const cpus = os.cpus();
const machine = `${cpus[0]?.model ?? 'unknown cpu'}, ${cpus.length} cores, Node ${process.version}, ${os.platform()} ${os.release()}, load average ${os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' ')}`;
const date = new Date().toISOString();
const header = ['case', 'what', 'ours median', 'ours p90', 'baseline median', 'baseline p90', 'ratio', 'target', 'met'];
const lines = [
  `Chain Endpoints benchmarks — ${date}${quick ? ' (--quick: not for the record)' : ''}`,
  `machine: ${machine}`,
  '',
  `| ${header.join(' | ')} |`,
  `|${header.map(() => '---').join('|')}|`,
  ...rows.map(
    (r) =>
      `| ${[r.case, r.what, r.ours?.[0] ?? '-', r.ours?.[1] ?? '-', r.base?.[0] ?? '-', r.base?.[1] ?? '-', r.ratio ?? '-', r.target, r.met === undefined ? '-' : r.met ? 'yes' : '**no**'].join(' | ')} |`,
  ),
  '',
  `total ${((Date.now() - started) / 1000).toFixed(0)} s`,
];
console.log(lines.join('\n'));
fs.mkdirSync(path.join(ROOT, '.cache', 'bench'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.cache', 'bench', 'results.json'), JSON.stringify({ date, machine, quick, rows, results }, null, 2) + '\n');
// A case that ran but printed no figure (NaN, an empty sample) is as broken as one that threw.
const blank = rows.filter((r) => !r.ours?.length || r.ours.some((v) => v === undefined || v === '-' || /NaN|undefined|Infinity/.test(String(v))));
if (blank.length) {
  console.error(`bench: no figure for ${blank.map((r) => `${r.case || '·'} ${r.what.slice(0, 60)}`).join('; ')}`);
  process.exit(1);
}
process.exit(0);
