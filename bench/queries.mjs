// @ts-check
// Case "query file": 1,000 requests of one .chainq file (through the pipeline the CLI and the editor
// drive, src/core/queries/pipeline.ts: parsed and checked, run in order with references resolved and
// one assertion each) against the devnet (in its own process), against
// the same 1,000 requests (same method, URL and body) made with a bare undici.request +
// JSON.parse at the same concurrency (one at a time, in file order).
import { childMain, core, interleave, require, startChild, summary, time, withCpu } from './lib.mjs';

const { prepareRun, runPrepared } = core('queries/pipeline');
const { describeRequest } = core('chain/execute');
const { HttpClient } = core('transport/http');
const { request } = require('undici');

const KINDS = [
  ['evm.blockNumber', '', 'assert result matches /^0x/'],
  ['consensusRpc.status', '', 'assert result.sync_info.latest_block_height > 0'],
  ['rest.nodeInfo', '', 'assert result.default_node_info.network exists'],
  ['consensusHttp.block', 'height: {{r1.result.sync_info.latest_block_height - 1}}', 'assert status == 200'],
];

childMain(async ({ requests = 1000, warmup, n }) => {
  const server = startChild('server.mjs', { kind: 'devnet', blocks: 5 });
  const info = await server.ready;
  try {
    const { name, ...endpoints } = info.providers[0];
    const provider = { name, endpoints };
    const lines = [];
    for (let i = 0; i < requests; i++) {
      const [op, arg, assertion] = KINDS[i % KINDS.length];
      lines.push(`request r${i} = ${op}`, ...(arg ? [arg] : []), assertion, '');
    }
    const source = lines.join('\n');
    const http = new HttpClient();
    const policy = { providers: [provider], env: {} };
    const ctx = {
      // As the CLI runs a file: no document, so answers are parsed, not formatted as they arrive.
      execute: { http, timeoutMs: 10_000, maxBufferBytes: 20 * 1024 * 1024, spillDir: '/tmp', formatWhileReceiving: false },
      resolveProvider: (p) => p,
      secretValue: () => undefined,
    };
    const ours = async () => {
      const prepared = prepareRun([{ name: 'bench.chainq', source }], policy);
      if (prepared.stop) throw new Error(`query file does not check: ${JSON.stringify(prepared.stop)}`);
      const result = await runPrepared(prepared, ctx);
      const run = result.reports[0].run;
      if (!result.passed)
        throw new Error(
          `query file failed: ${JSON.stringify(run.requests.find((r) => r.error || r.runs.some((p) => p.assertions.some((a) => !a.passed)))?.runs[0]?.assertions)}`,
        );
    };
    // The same wire requests, in the same order (the block height as the file resolves it).
    const height = String(BigInt(info.height) - 1n);
    const { findOperation } = core('chain/operations');
    const wires = [];
    for (let i = 0; i < requests; i++) {
      const [op] = KINDS[i % KINDS.length];
      wires.push(describeRequest(provider, findOperation(op), op === 'consensusHttp.block' ? { height } : {}));
    }
    const baseline = async () => {
      for (const { method, url, body } of wires) {
        const res = await request(url, { method, body, headers: body !== undefined ? { 'content-type': 'application/json' } : undefined });
        JSON.parse(await res.body.text());
      }
    };
    // The first run of each in this fresh process (what one CLI run of the file pays: V8 has optimised
    // nothing yet), for information; then the steady state the target is about (warm-up rounds
    // dropped: V8 is still compiling the runner's code in the first ~10 rounds, BENCHMARKS.md).
    const first = { ours: await time(ours), baseline: await time(baseline) };
    /** CPU milliseconds of this process per round (the devnet runs in its own process). */
    const cpu = { ours: [], baseline: [] };
    const r = await interleave({ ours: withCpu(ours, cpu.ours), baseline: withCpu(baseline, cpu.baseline), warmup, n });
    await http.close();
    return {
      requests,
      warmup,
      ours: summary(r.ours),
      baseline: summary(r.baseline),
      cpu: { ours: summary(cpu.ours.slice(warmup)), baseline: summary(cpu.baseline.slice(warmup)) },
      first,
    };
  } finally {
    await server.stop();
  }
});
