// @ts-check
// Case "account": the account page (issue #37) of an account with `count` transactions (half bank
// sends it signed, half received) and `tokens` ERC-20 tokens (token pairs, each with Transfer logs
// naming it), served by one loopback node:http server playing CometBFT (status, tx_search paged,
// newest first), REST (bank, staking, distribution, EVM params, token pairs) and the EVM RPC
// (eth_getLogs, eth_call of balanceOf/name/symbol/decimals, balances, code), every answer after
// `delayMs`. (1) The first screen: Look Up of the address (state, stake, history page 1, the tokens
// with their metadata) + its Markdown, against the network floor: the same requests (recorded from
// one run of ours) replayed with bare fetch at the same cap. (2) The next page of history (the kept
// cursor: pages 3, 4, …) against its floor, one tx_search page per search fetched at once. The most
// requests in flight at once is counted at the server.
import http from 'node:http';
import { childMain, core, interleave, summary } from './lib.mjs';

const { lookUp } = core('explorer/lookup');
const { renderLookup } = core('explorer/render');
const { executeSource } = core('explorer/source');
const { forgetContext } = core('explorer/context');
const { forgetHistory } = core('explorer/account/history');
const { forgetTokenMetadata } = core('explorer/account/tokens');
const { HttpClient } = core('transport/http');
const { bech32Encode } = core('chain/validate');

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const hex = (n) => `0x${BigInt(n).toString(16)}`;
const word = (n) => `0x${BigInt(n).toString(16).padStart(64, '0')}`;
const abiString = (s) => `0x${word(32).slice(2)}${word(s.length).slice(2)}${Buffer.from(s).toString('hex').padEnd(64, '0')}`;

childMain(async ({ count, tokens, warmup, n, delayMs = 5 }) => {
  const me = Buffer.alloc(20, 0x11);
  const other = Buffer.alloc(20, 0x22);
  const account = bech32Encode('cosmos', me);
  const meHex = `0x${me.toString('hex')}`;
  const tip = 20_000;
  // The account's transactions: one every 4 blocks from the tip down, alternately sent and received.
  const txs = [];
  for (let i = 0; i < count; i++) {
    const height = tip - i * 4;
    const sent = i % 2 === 0;
    const attrs = (type, kv) => ({ type, attributes: Object.entries(kv).map(([key, value]) => ({ key, value, index: true })) });
    txs.push({
      hash: i.toString(16).padStart(64, '0').toUpperCase(),
      height: String(height),
      index: 0,
      tx_result: {
        code: 0,
        events: [
          attrs('message', { action: '/cosmos.bank.v1beta1.MsgSend', sender: sent ? account : bech32Encode('cosmos', other), module: 'bank' }),
          attrs('transfer', {
            sender: sent ? account : bech32Encode('cosmos', other),
            recipient: sent ? bech32Encode('cosmos', other) : account,
            amount: '1000atest',
          }),
        ],
      },
      tx: 'AA==',
    });
  }
  const sentTxs = txs.filter((_, i) => i % 2 === 0);
  const receivedTxs = txs.filter((_, i) => i % 2 === 1);
  const tokenAddrs = Array.from({ length: tokens }, (_, i) => `0x${(i + 1).toString(16).padStart(40, 'a')}`);
  const pad = (a) => `0x${'0'.repeat(24)}${a.slice(2)}`;
  /** Transfer logs: each token moves once every 50 blocks, to the account. */
  const logsIn = (from, to, topics) => {
    const out = [];
    if (topics[2] !== pad(meHex)) return out; // the account only receives tokens here
    for (let h = to - (to % 50); h >= from; h -= 50) {
      const t = tokenAddrs[(h / 50) % tokens];
      out.push({
        address: t,
        topics: [TRANSFER, pad(`0x${other.toString('hex')}`), pad(meHex)],
        data: word(1000 + h),
        blockNumber: hex(h),
        transactionHash: word(h * 7 + 1),
        transactionIndex: '0x1',
        logIndex: '0x0',
        blockHash: word(h),
        removed: false,
      });
    }
    return out;
  };
  const page = (list, p, per) => ({ txs: list.slice((p - 1) * per, p * per), total_count: String(list.length) });
  let inFlight = 0;
  let maxInFlight = 0;
  /** @type {Array<{method: string, url: string, body?: string}> | undefined} */
  let recording;
  const answer = (req, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const p = url.pathname;
    if (p === '/status')
      return {
        jsonrpc: '2.0',
        id: -1,
        result: { node_info: { other: { tx_index: 'on' } }, sync_info: { earliest_block_height: '1', latest_block_height: String(tip) } },
      };
    if (p === '/tx_search') {
      const q = JSON.parse(url.searchParams.get('query') ?? '""');
      const list =
        q.startsWith('message.sender') && q.includes(account)
          ? sentTxs
          : q.startsWith('transfer.sender')
            ? sentTxs
            : q.startsWith('transfer.recipient')
              ? receivedTxs
              : [];
      return { jsonrpc: '2.0', id: -1, result: page(list, Number(url.searchParams.get('page') ?? 1), Number(url.searchParams.get('per_page') ?? 30)) };
    }
    if (p === '/cosmos/evm/vm/v1/params') return { params: { evm_denom: 'atest' } };
    if (p.startsWith('/cosmos/bank/v1beta1/balances/'))
      return { balances: [{ denom: 'atest', amount: '5000000000000000000' }], pagination: { next_key: null, total: '1' } };
    if (p.startsWith('/cosmos/bank/v1beta1/denoms_metadata'))
      return {
        metadata: {
          base: 'atest',
          display: 'test',
          denom_units: [
            { denom: 'atest', exponent: 0 },
            { denom: 'test', exponent: 18 },
          ],
        },
      };
    if (p.startsWith('/cosmos/evm/precisebank/')) return { fractional_balance: { denom: 'atest', amount: '0' } };
    if (p.startsWith('/cosmos/staking/v1beta1/delegations/')) return { delegation_responses: [], pagination: { next_key: null } };
    if (p.endsWith('/unbonding_delegations')) return { unbonding_responses: [], pagination: { next_key: null } };
    if (p.endsWith('/redelegations')) return { redelegation_responses: [], pagination: { next_key: null } };
    if (p.endsWith('/rewards')) return { rewards: [], total: [] };
    if (p.startsWith('/cosmos/auth/v1beta1/accounts/'))
      return { account: { '@type': '/cosmos.auth.v1beta1.BaseAccount', account_number: '7', sequence: String(count / 2) } };
    if (p === '/cosmos/auth/v1beta1/bech32') return { bech32_prefix: 'cosmos' };
    if (p === '/cosmos/evm/erc20/v1/token_pairs')
      return { token_pairs: tokenAddrs.map((a, i) => ({ erc20_address: a, denom: `erc20/token${i}`, enabled: true })), pagination: { next_key: null } };
    if (req.method === 'POST' && body) {
      const call = JSON.parse(body);
      const r = (result) => ({ jsonrpc: '2.0', id: call.id, result });
      switch (call.method) {
        case 'eth_blockNumber':
          return r(hex(tip));
        case 'eth_getBalance':
          return r(hex(5000000000000000000n));
        case 'eth_getTransactionCount':
          return r(hex(count / 2));
        case 'eth_getCode':
          return r('0x');
        case 'eth_getLogs': {
          const f = call.params[0];
          return r(logsIn(Number(BigInt(f.fromBlock)), Number(BigInt(f.toBlock)), f.topics));
        }
        case 'eth_call': {
          const data = call.params[0].data;
          const i = tokenAddrs.indexOf(call.params[0].to);
          if (data.startsWith('0x70a08231')) return r(word(1_000_000 + i));
          if (data === '0x06fdde03') return r(abiString(`Token ${i}`));
          if (data === '0x95d89b41') return r(abiString(`TK${i}`));
          if (data === '0x313ce567') return r(word(18));
          return r('0x');
        }
        default:
          return { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'method not found' } };
      }
    }
    return { code: 12, message: 'Not Implemented', details: [] };
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      recording?.push({ method: req.method ?? 'GET', url: req.url ?? '/', ...(req.method === 'POST' ? { body } : {}) });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const send = () => {
        const a = answer(req, body);
        inFlight--;
        res.statusCode = a && a.code === 12 ? 501 : 200;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(a));
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
  const base = `http://127.0.0.1:${/** @type {any} */ (server.address()).port}`;
  const provider = { name: 'bench', chainId: 'bench_262144-1', endpoints: { consensusHttp: base, rest: base, evmRpc: base } };
  const httpClient = new HttpClient();
  const opts = { http: httpClient, timeoutMs: 30_000, maxBufferBytes: 64 * 1024 * 1024, spillDir: '/tmp' };
  const src = () => executeSource(provider, opts);
  let firstRequests = 0;
  let nextRequests = 0;
  let doc = 0;
  let entries = 0;
  let tokensShown = 0;
  const first = async () => {
    forgetContext();
    forgetHistory();
    forgetTokenMetadata();
    const r = await lookUp(src(), account);
    if (r.kind !== 'address' || !r.address.history || r.address.history.entries.length === 0)
      throw new Error(`account: ${r.kind} ${JSON.stringify(r.notes).slice(0, 300)}`);
    entries = r.address.history.entries.length;
    tokensShown = r.address.tokens?.list.filter((t) => t.balance !== undefined).length ?? 0;
    doc = renderLookup(r).length;
  };
  let pageNo = 1;
  const next = async () => {
    const r = await lookUp(src(), `${account} history page ${++pageNo}`);
    if (r.kind !== 'address' || !r.address.history?.cached) throw new Error('page 2 did not continue the cursor');
    renderLookup(r);
  };
  /** The recorded requests again, bare fetch, at most `cap` at once. */
  const replay = async (list, cap) => {
    let i = 0;
    const worker = async () => {
      while (i < list.length) {
        const q = list[i++];
        const res = await fetch(`${base}${q.url}`, {
          method: q.method,
          headers: { 'content-type': 'application/json' },
          ...(q.body !== undefined ? { body: q.body } : {}),
        });
        JSON.parse(await res.text());
      }
    };
    await Promise.all(Array.from({ length: cap }, worker));
  };
  try {
    // Record what one first screen and one next page send.
    recording = [];
    maxInFlight = 0;
    await first();
    const firstList = recording;
    const firstMax = maxInFlight;
    firstRequests = firstList.length;
    // Pages 2 to 6 from the cursor: what a next page sends on average (some come from what was read already).
    recording = [];
    maxInFlight = 0;
    for (let i = 0; i < 5; i++) await next();
    const nextMax = maxInFlight;
    nextRequests = recording.length / 5;
    // The floor of a next page: one tx_search page per search (the streams' next reads), bare fetch, at once.
    const nextList = recording.filter((q) => q.url.startsWith('/tx_search')).slice(0, 5);
    recording = undefined;
    const cap = Math.max(1, firstMax);
    const t1 = await interleave({ ours: first, baseline: () => replay(firstList, cap), warmup, n });
    await first();
    pageNo = 1;
    const t2 = await interleave({
      // Each round the next page (3, 4, …) from the kept cursor.
      ours: next,
      baseline: () => replay(nextList, nextList.length || 1),
      warmup,
      n,
    });
    return {
      first: { ours: summary(t1.ours), baseline: summary(t1.baseline) },
      next: { ours: summary(t2.ours), baseline: summary(t2.baseline) },
      firstRequests,
      nextRequests,
      firstMax,
      nextMax,
      nextFloor: nextList.length,
      delayMs,
      entries,
      tokensShown,
      doc,
    };
  } finally {
    await httpClient.close();
    server.close();
  }
});
