// @ts-check
// Case "receipt" (issue #35): the two-layer receipt of a transaction with 1,000 trace frames and 2,000
// Cosmos events, built (attribution of every event, the ledger of changes for the accounts read) and
// rendered, vs rendering its two raw documents as the extension makes them (issue #35's words: "≤ 2x
// the time of its raw trace + raw tx documents"): the debug_traceTransaction (callTracer) answer and
// the CometBFT /tx answer, each a JSON body through renderDocumentBytes (header, body pretty-printed
// with its literals intact), the bytes the editor reads. No network on either side: the state
// reads are requests (bounded: 8 accounts × 2 heights × 7 reads, 8 in flight), measured by the
// explorer cases, not here.
// Two figures: the first run of each side in a fresh process (what a person's first Look Up costs),
// then the steady state. The receipt's code is larger than the formatter's and V8 keeps optimising it
// for ~20 rounds (one process, per round: 12.9 ms in rounds 5-20, then 9.6 ms from round 20 on, while
// the raw documents stay at 5.1 ms from round 5): the warm-up is run.mjs's `warmup` rounds past that,
// so that the median compares both sides at steady state, not a mix of the two (BENCHMARKS.md, session 20).
import { createHash } from 'node:crypto';
import { childMain, core, interleave, summary, time } from './lib.mjs';

const { attribute } = core('explorer/receipt/attribute');
const { ledger } = core('explorer/receipt/ledger');
const { renderLookup } = core('explorer/render');
const { bech32Of } = core('explorer/receipt/attribute');
const { renderDocumentBytes } = core('documents/render');

const SENDER = 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm';
const SENDER_HEX = '0xc6fe5d33615a1c52c08018c47e8bc53646a0e101';
const FEE = 'cosmos17xpfvakm2amg962yls6f84z3kell8c5lserqta';
const DIST = 'cosmos1jv65s3grqf6v6jl3dp4t6c9t9rk99cd88lyufl';
const BONDED = 'cosmos1fl48vsnmsdzcv85q5d2q4z5ajdha8yu34mf0eh';
const VALOPER = 'cosmosvaloper10jmp6sgh4cc6zt3e8gw05wavvejgr5pw4xyrql';
const STAKING = '0x0000000000000000000000000000000000000800';

const ev = (type, attrs) => ({ type, attributes: Object.entries(attrs).map(([key, value]) => ({ key, value })) });

/** 2,000 events shaped as evmd v0.3.2's: the ante fee (and its echo), then in message 0 groups of withdraw/delegate/transfer. */
function events(count) {
  const out = [
    ev('coin_spent', { spender: SENDER, amount: '1000atest' }),
    ev('coin_received', { receiver: FEE, amount: '1000atest' }),
    ev('transfer', { recipient: FEE, sender: SENDER, amount: '1000atest' }),
    ev('message', { sender: SENDER }),
    ev('transfer', { recipient: FEE, sender: SENDER, amount: '2000atest' }),
    ev('tx', { fee: '1000atest' }),
  ];
  const inMsg = [];
  for (let i = 0; out.length + inMsg.length < count; i++) {
    const amt = `${1000 + i}atest`;
    if (i % 3 === 0) {
      inMsg.push(ev('coin_spent', { spender: DIST, amount: amt }), ev('coin_received', { receiver: SENDER, amount: amt }));
      inMsg.push(
        ev('transfer', { recipient: SENDER, sender: DIST, amount: amt }),
        ev('withdraw_rewards', { amount: amt, validator: VALOPER, delegator: SENDER }),
      );
    } else if (i % 3 === 1) {
      inMsg.push(ev('coin_spent', { spender: SENDER, amount: amt }), ev('coin_received', { receiver: BONDED, amount: amt }));
      inMsg.push(ev('delegate', { validator: VALOPER, delegator: SENDER, amount: amt, new_shares: `${1000 + i}.0` }));
    } else {
      const to = bech32Of(`0x${(i + 1).toString(16).padStart(40, '0')}`, 'cosmos');
      inMsg.push(ev('coin_spent', { spender: SENDER, amount: amt }), ev('coin_received', { receiver: to, amount: amt }));
      inMsg.push(ev('transfer', { recipient: to, sender: SENDER, amount: amt }), ev('message', { sender: SENDER }));
    }
  }
  inMsg.length = count - out.length;
  return { ante: out, inMsg };
}

function frames(n) {
  return Array.from({ length: n }, (_, i) => ({
    index: i,
    depth: i === 0 ? 0 : 1 + (i % 5),
    type: i % 4 === 0 ? 'STATICCALL' : 'CALL',
    from: i === 0 ? SENDER_HEX : `0x${(i % 50).toString(16).padStart(40, '0')}`,
    to: i === 0 ? STAKING : `0x${((i + 1) % 50).toString(16).padStart(40, '0')}`,
    value: i % 7 === 0 ? '0' : String(i),
    gas: '300000',
    gasUsed: '21000',
    input: `0x53266bbb${'00'.repeat(64)}`,
    output: `0x${'00'.repeat(31)}01`,
  }));
}

/** The callTracer tree of the frames (depth-first, as debug_traceTransaction answers), in its JSON-RPC envelope. */
function rawTrace(fr) {
  const node = (f) => ({
    from: f.from,
    gas: `0x${BigInt(f.gas).toString(16)}`,
    gasUsed: `0x${BigInt(f.gasUsed).toString(16)}`,
    to: f.to,
    input: f.input,
    output: f.output,
    value: `0x${BigInt(f.value).toString(16)}`,
    type: f.type,
  });
  const root = node(fr[0]);
  const stack = [root];
  for (const f of fr.slice(1)) {
    const n = node(f);
    stack.length = Math.min(stack.length, f.depth);
    const parent = stack[stack.length - 1];
    (parent.calls ??= []).push(n);
    stack.push(n);
  }
  return JSON.stringify({ jsonrpc: '2.0', id: 1, result: root });
}

/** CometBFT's /tx answer for the transaction: its events (ante, then message 0's, with msg_index) in tx_result. */
function rawTx(ante, inMsg, hash) {
  const attrs = (e, msg) => [...e.attributes.map((a) => ({ ...a, index: true })), ...(msg ? [{ key: 'msg_index', value: '0', index: true }] : [])];
  const events = [...ante.map((e) => ({ type: e.type, attributes: attrs(e, false) })), ...inMsg.map((e) => ({ type: e.type, attributes: attrs(e, true) }))];
  return JSON.stringify({
    jsonrpc: '2.0',
    id: -1,
    result: {
      hash,
      height: '100',
      index: 0,
      tx_result: {
        code: 0,
        data: 'EiYKJC9jb3Ntb3MuZXZtLnZtLnYxLk1zZ0V0aGVyZXVtVHhSZXNwb25zZQ==',
        log: '',
        info: '',
        gas_wanted: '300000',
        gas_used: '150000',
        events,
        codespace: '',
      },
      tx: Buffer.alloc(420, 7).toString('base64'),
    },
  });
}

/** An answer as execute() records it (a JSON body received whole), ready for renderDocumentBytes. */
function answer(id, iface, label, url, request, body) {
  return {
    operation: { id, iface, label },
    providerName: 'bench',
    args: {},
    request: { method: request ? 'POST' : 'GET', url, body: request },
    startedAt: new Date(0),
    status: 200,
    elapsedMs: 12,
    bytes: body.length,
    body,
    notes: [],
  };
}

childMain(async ({ warmup, n, frameCount, eventCount }) => {
  const { ante, inMsg } = events(eventCount);
  const trace = { frames: frames(frameCount), total: frameCount, depthCut: false, page: 1, pages: 1, configAs: 'string' };
  const evm = {
    hash: `0x${'ab'.repeat(32)}`,
    cosmosHash: 'CD'.repeat(32),
    from: SENDER_HEX,
    to: STAKING,
    value: { denom: 'atest', amount: '0' },
    gas: '300000',
    gasUsed: '150000',
    status: 'success',
    logs: [],
    source: 'evmRpc',
    decoded: { trace },
  };
  const tx = {
    hash: 'CD'.repeat(32),
    height: '100',
    decodedBy: 'local',
    messages: [{ typeUrl: '/cosmos.evm.vm.v1.MsgEthereumTx', evmHash: evm.hash }],
    signers: [],
    events: [{ events: ante }, { msgIndex: '0', events: inMsg }],
    evm: [evm],
  };
  const base = { provider: 'bench', query: evm.hash, found: 'an EVM transaction hash', notes: [], kind: 'tx', tx };
  // attribute()'s input as buildReceipt() (receipt.ts) makes it: each event an object literal with its msg_index.
  const flat = [
    ...ante.map((e) => ({ type: e.type, attributes: e.attributes })),
    ...inMsg.map((e) => ({ type: e.type, attributes: e.attributes, msgIndex: 0 })),
  ];
  const balances = (amount) => [{ denom: 'atest', amount }];
  const traceBody = Buffer.from(rawTrace(trace.frames));
  const txBody = Buffer.from(rawTx(ante, inMsg, tx.hash));
  const traceReq = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'debug_traceTransaction',
    params: [evm.hash, { tracer: 'callTracer', tracerConfig: '{"withLog":false}' }],
  });
  let shown = 0;
  let doc = '';
  let rawShown = 0;
  const ours = async () => {
    const at = attribute({
      events: flat,
      messages: tx.messages,
      evm: { ...evm, message: 0, value: '0', frames: trace.frames },
      evmDenom: 'atest',
      prefix: 'cosmos',
      unit: () => undefined,
    });
    const accounts = [...at.roles.keys()].slice(0, 8).map((account) => ({
      account,
      bech32: bech32Of(account, 'cosmos'),
      roles: [...at.roles.get(account)],
      before: { height: '99', balances: balances('1000000000'), missing: [] },
      after: { height: '100', balances: balances('1000000001'), missing: [] },
    }));
    const { changes, summary: line } = ledger({
      causes: at.causes,
      accounts,
      modules: at.modules,
      bech32Of: (h) => bech32Of(h, 'cosmos'),
      evmDenom: 'atest',
      display: () => undefined,
    });
    const receipt = {
      evmHash: evm.hash,
      cosmosHash: tx.hash,
      height: '100',
      parentHeight: '99',
      causes: at.causes,
      events: at.events,
      logCopies: at.logCopies,
      accounts,
      changes,
      summary: line,
      notes: [],
    };
    doc = renderLookup({ ...base, receipt });
    shown = doc.length;
  };
  const baseline = async () => {
    // Fresh records each round: renderDocumentBytes formats the body (nothing cached between rounds).
    const a = renderDocumentBytes(answer('evm.debugTraceTransaction', 'evmRpc', 'debug_traceTransaction', 'http://127.0.0.1:8545', traceReq, traceBody));
    const b = renderDocumentBytes(answer('consensusHttp.tx', 'consensusHttp', 'tx', `http://127.0.0.1:26657/tx?hash=0x${tx.hash}`, undefined, txBody));
    rawShown = a.length + b.length;
  };
  // The first run of each, in a fresh process: the receipt first (what it warms helps the raw side, if anything).
  const first = { ours: await time(ours), baseline: await time(baseline) };
  const times = await interleave({ ours, baseline, warmup, n });
  return {
    first,
    warmup,
    ours: summary(times.ours),
    baseline: summary(times.baseline),
    frames: frameCount,
    events: eventCount,
    chars: shown,
    rawBytes: rawShown,
    sha256: createHash('sha256').update(doc).digest('hex').slice(0, 16),
  };
});
