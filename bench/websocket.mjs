// @ts-check
// Case "WebSocket": N NewBlockHeader events pushed at full speed (server in another process) to a
// HeightTracker, with a status-bar-like listener (onDidChange + formatHeight of the height, as
// the status bar does). Frame-to-status-text latency: from the moment ws emits the frame's 'message' (wrapped
// below) to the end of the listener that formatted the text; CPU per event from process.cpuUsage().
import WebSocket from 'ws';
import { childMain, core, gcNow, percentile, startChild, summary } from './lib.mjs';

const { HeightTracker } = core('chain/heightTracker');
const { formatHeight } = core('base/numbers');

childMain(async ({ events, rounds, warmupEvents }) => {
  let frameAt = 0;
  const emit = WebSocket.prototype.emit;
  WebSocket.prototype.emit = function (event, ...args) {
    if (event === 'message') frameAt = performance.now();
    return emit.call(this, event, ...args);
  };

  const round = async (count, url) => {
    const latencies = new Float64Array(count);
    let seen = 0;
    let text = '';
    let first = 0;
    const tracker = new HeightTracker({ wsUrl: url, pingIntervalMs: 3_600_000, minStallMs: 3_600_000 });
    let cpu0;
    const done = new Promise((resolve) => {
      tracker.onDidChange((s) => {
        if (s.height === undefined) return;
        text = `$(pulse) ${formatHeight(s.height)}`;
        if (seen === 0) {
          first = performance.now();
          cpu0 = process.cpuUsage();
        }
        latencies[seen++] = performance.now() - frameAt;
        if (seen === count) resolve();
      });
    });
    tracker.start();
    await done;
    const elapsed = performance.now() - first;
    const cpu = process.cpuUsage(cpu0);
    return { tracker, text, latencies: [...latencies], eventsPerSecond: (count - 1) / (elapsed / 1000), cpuUsPerEvent: (cpu.user + cpu.system) / (count - 1) };
  };

  // Each round has its own server process pushing heights 1..N to the one subscriber.
  const withServer = async (count, fn) => {
    const server = startChild('server.mjs', { kind: 'wspush', events: count });
    const info = await server.ready;
    try {
      return await fn(info);
    } finally {
      await server.stop();
    }
  };

  let frameBytes = 0;
  const warm = await withServer(warmupEvents, (info) => round(warmupEvents, info.url));
  warm.tracker.dispose();
  const results = [];
  let heapBefore = 0;
  let heapAfter = 0;
  for (let r = 0; r < rounds; r++) {
    const res = await withServer(events, async (info) => {
      frameBytes = info.frameBytes;
      gcNow();
      const before = process.memoryUsage().heapUsed;
      const out = await round(events, info.url);
      gcNow();
      const after = process.memoryUsage().heapUsed; // tracker still alive, all events delivered
      out.tracker.dispose();
      return { ...out, before, after };
    });
    if (r === 0) heapBefore = res.before;
    heapAfter = res.after;
    results.push(res);
  }
  const latencies = results.flatMap((r) => r.latencies);
  return {
    events,
    rounds,
    frameBytes,
    lastText: results.at(-1).text,
    eventsPerSecond: summary(results.map((r) => r.eventsPerSecond)),
    cpuUsPerEvent: summary(results.map((r) => r.cpuUsPerEvent)),
    latencyMs: { p50: percentile(latencies, 0.5), p90: percentile(latencies, 0.9), p99: percentile(latencies, 0.99), max: Math.max(...latencies) },
    heap: { before: heapBefore, after: heapAfter, perRound: results.map((r) => r.after - r.before) },
  };
});
