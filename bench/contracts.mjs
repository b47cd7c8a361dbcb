// @ts-check
// Case "contracts": (1) the logs of a 5,000-transaction block (two logs each: an ERC-20 Transfer and
// a custom event, from 20 token contracts matched to a workspace artifact by their code) decoded
// through the registry (ABI lookup by topic0, values made JSON-safe) against viem's decodeEventLog
// with the same ABI on the same logs; (2) a 10,000-frame call trace to its document (flattened,
// the first page of 1,000 frames decoded, Markdown rendered) against the raw trace document (the
// JSON answer parsed and formatted, as a result document of debug_traceTransaction is made); (3) a workspace of 500 Foundry artifacts:
// what creating the registry reads (nothing: activation and the first command do not index), then
// the first decode (lists and reads all 500) and a later one; (4) a hostile workspace (issue 34,
// item 5): three artifacts of ~13 MB with 350,000 full-length immutable masks each (on main each
// blocked the host 7.7 s), the first decode of an address against the same bytes with the masks under
// a key no reader looks at (the parse alone), both parsed in a worker thread as the editor does, and
// the longest the event loop was held meanwhile.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childMain, core, interleave, require, summary, time } from './lib.mjs';

const viem = require('viem');
const { ArtifactIndex, nodeArtifactFiles } = core('contracts/artifacts');
const { ContractRegistry } = core('contracts/registry');
const { decodeTrace } = core('contracts/trace');
const { renderTrace } = core('explorer/renderEvm');
const { Doc } = core('explorer/mdDoc');
const { formatJson } = core('documents/jsonFormat');

const TOKEN_ABI = viem.parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address account) view returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event Deposited(address indexed account, uint256 amount, string memo)',
  'error InsufficientBalance(uint256 balance, uint256 needed)',
]);

function runtime(seed) {
  const cbor = `a264697066735822${seed.repeat(34).slice(0, 68)}64736f6c6343000812`;
  return `0x6080604052${'5b'.repeat(600)}${cbor}${(cbor.length / 2).toString(16).padStart(4, '0')}`;
}

function workspaceOf(count, root) {
  for (let i = 0; i < count; i++) {
    const dir = path.join(root, 'out', `C${i}.sol`);
    fs.mkdirSync(dir, { recursive: true });
    const abi = [...TOKEN_ABI, ...viem.parseAbi([`function f${i}(uint256 x) returns (uint256)`, `event E${i}(uint256 indexed a, bytes32 b)`])];
    const body = `0x6080604052${(i + 1).toString(16).padStart(4, '0')}${'5b'.repeat(600)}`;
    fs.writeFileSync(path.join(dir, `C${i}.json`), JSON.stringify({ abi, deployedBytecode: { object: body, immutableReferences: {} }, methodIdentifiers: {} }));
  }
}

/** `count` artifacts of `codeBytes` code with `masks` full-length immutable references (or the same bytes under an ignored key). */
function hostileWorkspace(root, count, codeBytes, masks, ignored) {
  // In lists of 1,000 (immutables by id): one list of 350,000 overflowed main's spread and was skipped, this took the host.
  const refs = Object.fromEntries(
    Array.from({ length: Math.ceil(masks / 1000) }, (_, k) => [
      k + 1,
      Array.from({ length: Math.min(1000, masks - k * 1000) }, () => ({ start: 0, length: codeBytes })),
    ]),
  );
  for (let i = 0; i < count; i++) {
    const dir = path.join(root, 'out', `Freeze${i}.sol`);
    fs.mkdirSync(dir, { recursive: true });
    const object = `0x${(i + 1).toString(16).padStart(2, '0')}${'5b'.repeat(codeBytes - 1)}`;
    const deployedBytecode = ignored ? { object, immutableReferences: {}, unread: refs } : { object, immutableReferences: refs };
    fs.writeFileSync(path.join(dir, `Freeze${i}.json`), JSON.stringify({ abi: TOKEN_ABI, deployedBytecode }));
  }
}

childMain(async ({ txs, warmup, n, hostile }) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-contracts-'));
  try {
    // (1) Logs of a 5,000-tx block.
    fs.mkdirSync(path.join(root, 'ws1', 'out', 'Token.sol'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'ws1', 'out', 'Token.sol', 'Token.json'),
      JSON.stringify({ abi: TOKEN_ABI, deployedBytecode: { object: runtime('ab'), immutableReferences: {} } }),
    );
    const registry = new ContractRegistry({ artifacts: new ArtifactIndex(nodeArtifactFiles(path.join(root, 'ws1'))) });
    const tokens = Array.from({ length: 20 }, (_, i) => /** @type {`0x${string}`} */ (`0x${(i + 1).toString(16).padStart(40, '0')}`));
    const ctx = { network: 'bench', getCode: async () => runtime('cd') };
    const logs = [];
    for (let i = 0; i < txs; i++) {
      const from = /** @type {`0x${string}`} */ (`0x${(i * 7 + 1).toString(16).padStart(40, 'a')}`);
      const to = /** @type {`0x${string}`} */ (`0x${(i * 13 + 5).toString(16).padStart(40, 'b')}`);
      logs.push({
        address: tokens[i % 20],
        topics: viem.encodeEventTopics({ abi: TOKEN_ABI, eventName: 'Transfer', args: { from, to } }),
        data: viem.encodeAbiParameters([{ type: 'uint256' }], [BigInt(i) * 10n ** 18n]),
      });
      logs.push({
        address: tokens[i % 20],
        topics: viem.encodeEventTopics({ abi: TOKEN_ABI, eventName: 'Deposited', args: { account: from } }),
        data: viem.encodeAbiParameters([{ type: 'uint256' }, { type: 'string' }], [BigInt(i), `memo ${i}`]),
      });
    }
    let decodedCount = 0;
    const ours = async () => {
      let k = 0;
      for (const l of logs) if ((await registry.decodeLog(l, ctx)).kind === 'event') k++;
      decodedCount = k;
    };
    const baseline = async () => {
      for (const l of logs) viem.decodeEventLog({ abi: TOKEN_ABI, topics: l.topics, data: l.data });
    };
    const logTimes = await interleave({ ours, baseline, warmup, n });
    if (decodedCount !== logs.length) throw new Error(`decoded ${decodedCount} of ${logs.length}`);

    // (2) A 10,000-frame trace to its document.
    const frame = (i) => ({
      type: i % 3 === 0 ? 'STATICCALL' : 'CALL',
      from: tokens[i % 20],
      to: tokens[(i + 1) % 20],
      gas: '0x2dc6c0',
      gasUsed: '0x6d60',
      input: viem.encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [tokens[i % 20], BigInt(i)] }),
      output: viem.encodeAbiParameters([{ type: 'bool' }], [true]),
      value: '0x0',
    });
    const root10k = {
      ...frame(0),
      calls: Array.from({ length: 99 }, (_, i) => ({ ...frame(i + 1), calls: Array.from({ length: 100 }, (_, j) => frame(i * 100 + j + 2)) })),
    };
    const rawText = JSON.stringify({ jsonrpc: '2.0', id: 1, result: root10k });
    let docBytes = 0;
    let rawBytes = 0;
    const traceOurs = async () => {
      const t = await decodeTrace(JSON.parse(rawText).result, 'string', registry, ctx, 1);
      const d = new Doc();
      renderTrace(d, `0x${'ab'.repeat(32)}`, t, 2);
      docBytes = Buffer.byteLength(d.lines.join('\n'));
    };
    // The raw document as the extension makes it for evm.custom debug_traceTransaction: the answer parsed and formatted.
    const traceBaseline = async () => {
      JSON.parse(rawText);
      rawBytes = Buffer.byteLength(formatJson(rawText));
    };
    const traceTimes = await interleave({ ours: traceOurs, baseline: traceBaseline, warmup, n });

    // (3) 500 artifacts: nothing read before the first decode.
    const ws = path.join(root, 'ws500');
    workspaceOf(500, ws);
    const createTimes = [];
    const firstTimes = [];
    const laterTimes = [];
    let readsAtCreate = -1;
    let readsAfter = 0;
    for (let i = 0; i < 2 + n; i++) {
      let r;
      const index = new ArtifactIndex(nodeArtifactFiles(ws));
      const c = await time(() => {
        r = new ContractRegistry({ artifacts: index });
      });
      readsAtCreate = index.reads;
      const input = viem.encodeFunctionData({ abi: viem.parseAbi(['function f250(uint256 x) returns (uint256)']), args: [5n] });
      const f = await time(() => r.decodeCall(input, undefined, {}));
      const l = await time(() => r.decodeCall(input, undefined, {}));
      readsAfter = index.reads;
      if (i >= 2) {
        createTimes.push(c);
        firstTimes.push(f);
        laterTimes.push(l);
      }
    }
    // (4) A hostile workspace: the first decode of an address whose code has the artifacts' length.
    const evil = path.join(root, 'evil');
    const plain = path.join(root, 'plain');
    hostileWorkspace(evil, hostile.files, hostile.codeBytes, hostile.masks, false);
    hostileWorkspace(plain, hostile.files, hostile.codeBytes, hostile.masks, true);
    const fileBytes = fs.statSync(path.join(evil, 'out', 'Freeze0.sol', 'Freeze0.json')).size;
    const address = `0x${'77'.repeat(20)}`;
    const codeCtx = { network: 'bench', getCode: async () => `0x${'aa'.repeat(hostile.codeBytes)}` };
    // The longest gap between two turns of a 1 ms interval: how long the event loop was held.
    let maxGap = 0;
    let stats = { masksExamined: -1, slices: 0, longestSliceMs: 0 };
    let named = 'none';
    const firstDecode = async (dir, watch) => {
      // As the editor makes it: files parsed in a worker thread.
      const index = new ArtifactIndex(nodeArtifactFiles(dir), undefined, { parseOffThread: true });
      const r = new ContractRegistry({ artifacts: index });
      let last = performance.now();
      const tick = watch
        ? setInterval(() => {
            const now = performance.now();
            maxGap = Math.max(maxGap, now - last);
            last = now;
          }, 1)
        : undefined;
      const c = await r.contractAt(address, codeCtx);
      if (tick) {
        clearInterval(tick);
        maxGap = Math.max(maxGap, performance.now() - last);
      }
      if (watch) {
        stats = index.stats;
        named = c?.name ?? 'none';
      }
    };
    const hostileTimes = await interleave({ ours: () => firstDecode(evil, true), baseline: () => firstDecode(plain, false), warmup, n });
    // The control: the same interval with nothing to do for as long as the decodes took (on a loaded
    // machine the OS alone holds a process this long; the decode's own hold is what exceeds it).
    let idleGap = 0;
    {
      const until =
        performance.now() +
        Math.min(
          5000,
          hostileTimes.ours.reduce((a, b) => a + b, 0),
        );
      let last = performance.now();
      await new Promise((resolve) => {
        const tick = setInterval(() => {
          const now = performance.now();
          idleGap = Math.max(idleGap, now - last);
          last = now;
          if (now >= until) {
            clearInterval(tick);
            resolve(undefined);
          }
        }, 1);
      });
    }
    return {
      hostile: {
        ours: summary(hostileTimes.ours),
        baseline: summary(hostileTimes.baseline),
        files: hostile.files,
        fileBytes,
        masks: hostile.masks,
        masksExamined: stats.masksExamined,
        slices: stats.slices,
        longestSliceMs: stats.longestSliceMs,
        maxLoopDelayMs: maxGap,
        idleGapMs: idleGap,
        named,
      },
      logs: { ours: summary(logTimes.ours), baseline: summary(logTimes.baseline), count: logs.length },
      trace: { ours: summary(traceTimes.ours), baseline: summary(traceTimes.baseline), docBytes, rawBytes, frames: 1 + 99 + 9900 },
      artifacts: { create: summary(createTimes), first: summary(firstTimes), later: summary(laterTimes), readsAtCreate, readsAfter },
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
