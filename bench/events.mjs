// @ts-check
// Case "events": `rate` CometBFT Tx events per second for `seconds` (server in another process)
// into one core Watch (src/core/events/watch.ts) with the console's buffer (10,000) and batching
// (100 ms), and a listener doing what the console does per batch (its message of the batch's
// newest 500 lines, core/events/lines.ts, serialised as for postMessage). Measured: events lost (received vs sent; lines delivered vs received), the buffer
// bound, heap after GC every 5 s past the warm-up, and per batch the time from when it was due to
// the end of its listener (the batching callback latency, Watch.batchLatencies); also the age of
// the newest event of each batch when its listener ends.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import { childMain, core, gcNow, percentile, startChild } from './lib.mjs';

const { Watch } = core('events/watch');
const { batchMessage } = core('events/lines');

childMain(async ({ rate, seconds, bufferSize, warmupSeconds, sampleEveryMs = 5000 }) => {
  const server = startChild('server.mjs', { kind: 'wsrate', rate, seconds });
  const info = await server.ready;
  try {
    const watch = new Watch({ kind: 'comet', url: info.url, query: "tm.event='Tx'" }, { bufferSize, pingIntervalMs: 3_600_000 });
    let delivered = 0;
    let notes = 0;
    let lastSeq = 0;
    let outOfOrder = 0;
    let messageBytes = 0;
    const ages = [];
    watch.onBatch((entries) => {
      // The console's own message (src/core/events/lines.ts), serialised as postMessage does.
      messageBytes = Math.max(messageBytes, JSON.stringify(batchMessage(entries)).length);
      for (const e of entries) {
        if (e.kind === 'event') delivered++;
        else notes++;
        if (e.seq <= lastSeq) outOfOrder++;
        lastSeq = e.seq;
      }
      const newest = entries.at(-1);
      if (newest) ages.push(Date.now() - newest.at);
    });
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const load = os.loadavg()[0];
    const cpu0 = process.cpuUsage();
    watch.start();
    const heap = [];
    const t0 = Date.now();
    const total = rate * seconds;
    while (watch.snapshot().received < total && Date.now() - t0 < (seconds + 30) * 1000) {
      await new Promise((r) => setTimeout(r, sampleEveryMs));
      if (Date.now() - t0 >= warmupSeconds * 1000) {
        gcNow();
        heap.push(process.memoryUsage().heapUsed);
      }
    }
    await new Promise((r) => setTimeout(r, 300)); // the last batch
    const { sent } = await server.ask({ cmd: 'sent' });
    const s = watch.snapshot();
    loop.disable();
    const cpu = process.cpuUsage(cpu0);
    const lat = [...watch.batchLatencies];
    const dur = [...watch.batchDurations];
    watch.dispose();
    return {
      rate,
      seconds,
      bufferSize,
      sent,
      received: s.received,
      stored: s.stored,
      evicted: s.evicted,
      delivered,
      notes,
      outOfOrder,
      batches: ages.length,
      frameBytes: info.frameBytes,
      maxMessageBytes: messageBytes,
      batchDurationMs: { p50: percentile(dur, 0.5), p99: percentile(dur, 0.99), max: Math.max(...dur) },
      batchLatencyMs: { p50: percentile(lat, 0.5), p99: percentile(lat, 0.99), max: Math.max(...lat) },
      eventAgeMs: { p50: percentile(ages, 0.5), p99: percentile(ages, 0.99) },
      cpuUsPerEvent: (cpu.user + cpu.system) / Math.max(1, s.received),
      eventLoopDelayMs: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
      loadAverage: [load, os.loadavg()[0]],
      heapAfterWarmup: { min: Math.min(...heap), max: Math.max(...heap), samples: heap.length },
    };
  } finally {
    await server.stop();
  }
});
