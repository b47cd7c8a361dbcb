// @ts-check
// Case "big document": a 50 MB JSON answer (plain node:http server in another process) opened as a
// document: execute (fetch, formatted as it arrives, + interpret) then renderDocumentBytes (the bytes
// the editor reads). Baseline: JSON.parse +
// JSON.stringify(v, null, 2) of the same bytes (already in memory). Modes: 'time' (interleaved)
// and 'memory-ours' / 'memory-baseline' (one run in a fresh process: peak RSS and heap growth).
import { childMain, core, gcNow, interleave, maxRss, require, summary } from './lib.mjs';

const { execute } = core('chain/execute');
const { HttpClient } = core('transport/http');
const { findOperation } = core('chain/operations');
const { renderDocumentBytes } = core('documents/render');
const { request } = require('undici');

childMain(async ({ mode, url, warmup, n }) => {
  const provider = { name: 'bench', endpoints: { rest: url } };
  const http = new HttpClient();
  const opts = { http, timeoutMs: 120_000, maxBufferBytes: 64 * 1024 * 1024, spillDir: '/tmp' };
  const op = findOperation('rest.custom');
  const ours = async () => {
    const o = await execute(provider, op, { path: '/block_results' }, opts);
    if (o.error || !o.formatted) throw new Error(`big document failed: ${o.error?.message}`);
    return renderDocumentBytes(o).length;
  };
  const fetchBytes = async () => Buffer.from(await (await request(`${url}/block_results`)).body.arrayBuffer());
  const baselineOf = (bytes) => () => JSON.stringify(JSON.parse(bytes.toString('utf8')), null, 2).length;
  try {
    if (mode === 'time') {
      const bytes = await fetchBytes();
      const r = await interleave({ ours, baseline: baselineOf(bytes), warmup, n });
      return { ours: summary(r.ours), baseline: summary(r.baseline), bytes: bytes.length };
    }
    // Memory: the process holds nothing else; the body bytes count for both.
    gcNow();
    const rssBefore = process.memoryUsage().rss;
    const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().external;
    let peakHeap = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed + m.external);
    }, 1);
    const t0 = performance.now();
    const length = mode === 'memory-ours' ? await ours() : baselineOf(await fetchBytes())();
    const ms = performance.now() - t0;
    clearInterval(sampler);
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed + m.external);
    return { ms, length, rssGrowth: maxRss() - rssBefore, heapGrowth: peakHeap - heapBefore };
  } finally {
    await http.close();
  }
});
