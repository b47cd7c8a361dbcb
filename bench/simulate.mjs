// @ts-check
// Case "simulate": the overhead of a simulation (core/contracts/simulate.ts: the spec checked, the
// calldata encoded through the registry, the engine chosen, the answer decoded) over the bare JSON-RPC
// requests it makes, both through execute() against the same loopback server (in its own process, as
// every server of the suite: a node never runs in the extension's process, and the two cores split
// client and server):
//   (1) eth_call engine: simulate() (eth_call + eth_estimateGas in parallel, the return decoded) vs the
//       same two requests sent bare, in parallel too; and the bare pair against itself (a second
//       closure of the same code, interleaved the same way: the noise floor of one process);
//   (2) debug_traceCall engine with a 1,000-frame call tree: simulate() (the tree flattened and every
//       frame decoded, logs and transfers read) vs the bare debug_traceCall.
// Besides wall-clock time (the target's measure), the CPU time of this process per run (the client's
// alone). One process's ratio of the simulation moves by a few hundredths from one process to the next
// (where its code is laid out and when V8 optimises it), while the bare pair against itself reads
// 0.99-1.01x: run.mjs runs this case in 3 processes and reports the median.
import os from 'node:os';
import { childMain, core, interleave, require, startChild, summary, withCpu } from './lib.mjs';

const viem = require('viem');
const { HttpClient } = core('transport/http');
const { ContractRegistry } = core('contracts/registry');
const { evmCaller, simulate } = core('contracts/simulate');

const TOKEN_ABI = viem.parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address account) view returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);
const TOKEN = '0x00000000000000000000000000000000000000aa';
const OTHER = '0x00000000000000000000000000000000000000bb';

function traceTree(frames) {
  const frame = (i) => ({
    type: i % 3 === 0 ? 'STATICCALL' : 'CALL',
    from: i % 2 ? TOKEN : OTHER,
    to: i % 2 ? OTHER : TOKEN,
    gas: '0x2dc6c0',
    gasUsed: '0x6d60',
    input: viem.encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [OTHER, BigInt(i)] }),
    output: viem.encodeAbiParameters([{ type: 'bool' }], [true]),
    value: '0x0',
  });
  const per = 40;
  const groups = Math.floor((frames - 1) / per);
  return {
    ...frame(0),
    calls: Array.from({ length: groups }, (_, g) => ({ ...frame(g + 1), calls: Array.from({ length: per - 1 }, (_, j) => frame(g * per + j + 2)) })),
  };
}

childMain(async ({ warmup, n, callN = n, frames }) => {
  const tree = traceTree(frames);
  const count = (f) => 1 + (f.calls ?? []).reduce((s, c) => s + count(c), 0);
  const answers = {
    eth_call: viem.encodeAbiParameters([{ type: 'uint256' }], [750n]),
    eth_estimateGas: '0x5208',
    debug_traceCall: tree,
  };
  const server = startChild('server.mjs', { kind: 'jsonrpc', answers });
  const { url } = await server.ready;
  try {
    const provider = { name: 'bench', endpoints: { evmRpc: url } };
    const options = { http: new HttpClient(), timeoutMs: 20_000, maxBufferBytes: 64 << 20, spillDir: os.tmpdir(), formatWhileReceiving: false };
    const evm = evmCaller(provider, options);
    // One list until the settings change, as the editor's contractSettings() gives it.
    const settings = Object.freeze([{ address: TOKEN, abi: TOKEN_ABI, name: 'Token' }]);
    const registry = new ContractRegistry({ settings: () => settings });
    const ctx = { network: 'bench' };
    const spec = { address: TOKEN, function: 'balanceOf(address)', args: [OTHER] };
    const tx = { to: viem.getAddress(TOKEN), data: viem.encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [OTHER] }) };

    /** CPU milliseconds of this process per run of each side (warm-up runs dropped at the end). */
    const cpu = { ours: [], baseline: [] };
    const cpuOf = (side, fn) => withCpu(fn, cpu[side]);
    const cpuSummary = () => {
      const out = { ours: summary(cpu.ours.slice(warmup)), baseline: summary(cpu.baseline.slice(warmup)) };
      cpu.ours = [];
      cpu.baseline = [];
      return out;
    };

    /** The same two requests, sent as the simulation sends them (in parallel). */
    const bare = async () => {
      await Promise.all([evm('eth_call', [tx, 'latest']), evm('eth_estimateGas', [tx, 'latest'])]);
    };
    /** @type {any} */
    let result;
    const callTimes = await interleave({
      ours: cpuOf('ours', async () => {
        result = await simulate(evm, spec, registry, ctx, { provider: 'bench', support: { callOverrides: true } });
      }),
      baseline: cpuOf('baseline', bare),
      warmup,
      n: callN,
    });
    const callCpu = cpuSummary();
    // The same two requests against themselves: what one process's bias alone reads.
    const same = await interleave({
      ours: () => bare(),
      baseline: () => bare(),
      warmup,
      n: callN,
    });
    if (result?.result !== '750') throw new Error(`eth_call engine decoded ${JSON.stringify(result?.result)}`);

    const traceSpec = { address: TOKEN, function: 'transfer(address,uint256)', args: [OTHER, '1'] };
    const ttx = { to: viem.getAddress(TOKEN), data: viem.encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [OTHER, 1n] }) };
    let decodedFrames = 0;
    const traceTimes = await interleave({
      ours: cpuOf('ours', async () => {
        const r = await simulate(evm, traceSpec, registry, ctx, { provider: 'bench', support: { traceCall: true } });
        decodedFrames = r.steps[0].trace.frames.filter((f) => f.call?.name === 'transfer').length;
      }),
      baseline: cpuOf('baseline', async () => {
        await evm('debug_traceCall', [ttx, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
      }),
      warmup,
      n,
    });
    const traceCpu = cpuSummary();
    return {
      load: os.loadavg(),
      call: { ours: summary(callTimes.ours), baseline: summary(callTimes.baseline), cpu: callCpu, same: { a: summary(same.ours), b: summary(same.baseline) } },
      trace: { ours: summary(traceTimes.ours), baseline: summary(traceTimes.baseline), cpu: traceCpu, frames: count(tree), decoded: decodedFrames },
    };
  } finally {
    await server.stop();
  }
});
