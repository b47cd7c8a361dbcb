// The account page's history, tokens, comparison and coverage (src/core/explorer/account/) on the
// devnet with real transactions (every block: a bank send, an EVM value transfer and a call logging
// an ERC-20 Transfer; the first block deploys the fixture token and moves it): each checked against
// what the test reads from the node itself (tx_search, eth_getLogs, balanceOf), the next page from
// the kept cursor, a provider with its index off and a pruned one said in the coverage lines.
import * as assert from 'node:assert/strict';
import { encodeFunctionData, type Hex } from 'viem';
import { EndpointError } from '../../../../../src/core/base/errors';
import type { Provider } from '../../../../../src/core/config/providers';
import { forgetContext } from '../../../../../src/core/explorer/context';
import {
  HISTORY_PAGE_SIZE,
  type HistoryEntry,
  MAX_ENTRY_EVM_HASHES,
  MAX_TX_TRANSFERS,
  TRANSFER_TOPIC,
  entriesOfLogs,
  entriesOfSearch,
  forgetHistory,
  paddedTopic,
  readHistory,
} from '../../../../../src/core/explorer/account/history';
import { forgetTokenMetadata, hasBalanceOf } from '../../../../../src/core/explorer/account/tokens';
import { ContractRegistry } from '../../../../../src/core/contracts/registry';
import { identify } from '../../../../../src/core/explorer/identify';
import { scanBudget, scanLinks } from '../../../../../src/core/explorer/links';
import { lookUp } from '../../../../../src/core/explorer/lookup';
import { renderLookup } from '../../../../../src/core/explorer/render';
import { type ExplorerSource, executeSource } from '../../../../../src/core/explorer/source';
import type { AddressView, LookupResult } from '../../../../../src/core/explorer/views';
import { HttpClient } from '../../../../../src/core/transport/http';
import { type Devnet, startDevnet } from '../../../../devnet/devnet';
import { ROUTER_ABI, TOKEN_ABI } from '../../../../devnet/fixtureContracts';
import type { FixtureDeployment } from '../../../../devnet/fixtureTxs';
import * as os from 'node:os';
import { parseQueryFile } from '../../../../../src/core/queries/parse';
import { runQueryFile } from '../../../../../src/core/queries/run';
import { readAccountForQuery } from '../../../../../src/core/explorer/account/accountFields';
import { bech32Encode } from '../../../../devnet/encoding';
import { DEVNET_REDELEGATION, DEVNET_REWARD_PER_BLOCK } from '../../../../devnet/restState';

type Json = Record<string, any>;

function address(r: LookupResult): AddressView {
  assert.equal(r.kind, 'address');
  return (r as Extract<LookupResult, { kind: 'address' }>).address;
}

describe('explorer: the account page: history, tokens, comparison, coverage', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let http: HttpClient;
  const provider = (i: number): Provider => {
    const { name, ...endpoints } = devnet.providers[i];
    return { name, endpoints };
  };
  const source = (i: number, extra: Partial<ExplorerSource> = {}): ExplorerSource => {
    forgetContext();
    return { ...executeSource(provider(i), { http, timeoutMs: 10_000, maxBufferBytes: 8 * 1024 * 1024 }), ...extra };
  };
  const rpc = async (url: string, method: string, params: unknown[]): Promise<any> => {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return ((await r.json()) as Json).result;
  };
  const comet = async (query: string, perPage = 100): Promise<Json> => {
    const r = await fetch(`${devnet.providers[0].consensusHttp}/tx_search?query=${encodeURIComponent(`"${query}"`)}&per_page=${perPage}&order_by="desc"`);
    return ((await r.json()) as Json).result;
  };

  before(async () => {
    devnet = await startDevnet({
      blockIntervalMs: 0,
      realTxs: true,
      providers: [{ name: 'full' }, { name: 'no index', capabilities: { txIndex: false } }, { name: 'pruned', capabilities: { prunedBelow: 20n } }],
    });
    http = new HttpClient();
    for (let i = 0; i < 40; i++) devnet.produceBlock();
  });
  after(async () => {
    await devnet.stop();
    await http.close();
  });
  beforeEach(() => {
    forgetHistory();
    forgetTokenMetadata();
  });

  const alice = () => devnet.chain.ledger.keys[0];
  const fixture = () => devnet.chain.ledger.fixtureDeployment as FixtureDeployment;

  it('lists the Cosmos transactions tx_search finds for the account, newest first, each linked to its Look Up', async () => {
    const r = await lookUp(source(0), alice().bech32);
    const h = address(r).history;
    assert.ok(h, 'a history page');
    assert.equal(h.number, 1);
    assert.equal(h.entries.length, HISTORY_PAGE_SIZE);
    for (let i = 1; i < h.entries.length; i++) {
      const [a, b] = [h.entries[i - 1], h.entries[i]];
      assert.ok(BigInt(a.height) > BigInt(b.height) || (a.height === b.height && a.index >= b.index), `newest first at ${i}`);
    }
    // What the node says itself: the newest bank sends alice signed are all on the page, with her role.
    const own = (await comet(`message.sender='${alice().bech32}'`)).txs as Json[];
    const lowest = BigInt(h.entries[h.entries.length - 1].height);
    const expected = own.filter((t) => BigInt(t.height) > lowest).map((t) => String(t.hash));
    assert.ok(expected.length > 0);
    for (const hash of expected) {
      const e: HistoryEntry | undefined = h.entries.find((x) => x.hash === hash);
      assert.ok(e, `${hash} is listed`);
      assert.ok(e.roles.includes('sender'));
      assert.equal(e.lookUp, hash);
    }
    // Received bank sends too (transfer.recipient).
    const received = ((await comet(`transfer.recipient='${alice().bech32}'`)).txs as Json[]).filter((t) => BigInt(t.height) > lowest);
    for (const t of received)
      assert.ok(
        h.entries.some((x) => x.hash === t.hash && x.roles.includes('recipient')),
        `received ${t.hash} listed`,
      );
    // The document links each entry's hash (its Look Up = its receipt, and says so) and the next page.
    const md = renderLookup(r);
    for (const e of h.entries) assert.match(md, new RegExp(`· receipt \`${e.lookUp}\` · `));
    assert.match(md, new RegExp(`next page: \`${alice().bech32} history page 2\``));
    assert.match(md, /Coverage: `This provider keeps blocks 1–4[0-9] \(from the first block\)\.`/);
    assert.equal(h.coverage.txIndex, true);
  });

  it('history at a height lists nothing later; the next-page query is a link the documents find', async () => {
    const r = await lookUp(source(0), `${alice().hex}@20`);
    const h = address(r).history!;
    assert.ok(h.entries.length > 0);
    for (const e of h.entries) assert.ok(BigInt(e.height) <= 20n, `${e.height} <= 20`);
    assert.match(h.coverage.lines.join('\n'), /History as of height 20/);
    assert.equal(h.next, `${alice().hex}@20 history page 2`);
    const md = renderLookup(r);
    // What is linked, not how fast: a budget a loaded machine cannot run out of (the default is 30 ms).
    const links = scanLinks(md, undefined, scanBudget(60_000));
    assert.ok(
      links.some((l) => l.query === h.next),
      'the next page is linked',
    );
    assert.ok(
      links.some((l) => l.query === h.entries[0].lookUp),
      'an entry is linked',
    );
    const page2 = identify(h.next);
    assert.equal((page2 as { height?: string }).height, '20');
    assert.equal((page2 as { historyPage?: number }).historyPage, 2);
    assert.throws(() => identify(`${alice().hex} history page 0`), /numbered from 1/);
    assert.throws(() => identify(`12 history page 2`), /follows an account address/);
  });

  it('the next page continues the kept cursor: older entries, none repeated, few requests', async () => {
    const first = address(await lookUp(source(0), alice().bech32)).history!;
    assert.equal(first.cached, false);
    const q = identify(`${alice().bech32} history page 2`);
    assert.equal((q as { historyPage?: number }).historyPage, 2);
    const second = address(await lookUp(source(0), `${alice().bech32} history page 2`)).history!;
    assert.equal(second.cached, true, 'page 2 continued page 1');
    assert.ok(second.requests <= 12, `page 2 sent ${second.requests} requests`);
    const seen = new Set(first.entries.map((e) => e.lookUp));
    for (const e of second.entries) assert.ok(!seen.has(e.lookUp), `${e.lookUp} not repeated`);
    assert.ok(BigInt(second.entries[0].height) <= BigInt(first.entries[first.entries.length - 1].height));
    // Without the cursor (forgotten), page 2 is the same list, read again from the top.
    forgetHistory();
    const again = address(await lookUp(source(0), `${alice().bech32} history page 2`)).history!;
    assert.equal(again.cached, false);
    assert.deepEqual(
      again.entries.map((e) => e.lookUp),
      second.entries.map((e) => e.lookUp),
    );
  });

  it('EVM token transfers from eth_getLogs (topic 1 or 2), joined to the Cosmos transaction that carries them', async () => {
    // carol (keys[2]) calls the Transfer-logging contract; the fixture token moved to bob and carol in block 1.
    const carol = devnet.chain.ledger.keys[2];
    const h = await readHistory(source(0), carol.bech32, carol.hex, { typed: carol.bech32 });
    const withTransfers = h.entries.filter((e) => (e.transfers ?? []).length > 0);
    assert.ok(withTransfers.length > 0);
    const logs = (await rpc(devnet.providers[0].evmRpc, 'eth_getLogs', [
      { fromBlock: `0x${BigInt(h.entries[h.entries.length - 1].height).toString(16)}`, toBlock: 'latest', topics: [TRANSFER_TOPIC, paddedTopic(carol.hex)] },
    ])) as Json[];
    for (const l of logs) {
      const e = h.entries.find((x) => x.evmHashes.includes(String(l.transactionHash).toLowerCase()));
      assert.ok(e, `${l.transactionHash} listed`);
      assert.ok(e.roles.includes('token sender'), JSON.stringify(e));
      assert.ok(e.hash, 'joined to its Cosmos transaction (same entry)');
    }
    assert.match(h.coverage.lines.join('\n'), /EVM token transfers cover blocks 1–4[0-9], every block this provider keeps/);
  });

  it("reads the ERC-20 balances of the tokens the account touched, at the page's height, with their metadata", async () => {
    const bob = devnet.chain.ledger.keys[1];
    const f = fixture();
    const page = address(await lookUp(source(0), bob.hex));
    const token = page.tokens?.list.find((t) => t.address.toLowerCase() === f.token.toLowerCase());
    assert.ok(token, `the fixture token is listed: ${JSON.stringify(page.tokens)}`);
    const data = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [bob.hex as Hex] } as never);
    const own = BigInt(await rpc(devnet.providers[0].evmRpc, 'eth_call', [{ to: f.token, data }, 'latest']));
    assert.equal(token.balance, own.toString());
    assert.ok(token.symbol && token.decimals === 18, JSON.stringify(token));
    assert.ok(page.tokens!.list.length <= 20);
    assert.match(renderLookup({ kind: 'address', provider: 'full', query: bob.hex, found: 'x', notes: [], address: page }), /### ERC-20 tokens/);
  });

  it('workspace contracts are token candidates only when their known ABI reads balances: the router is not listed "not read"', async () => {
    const bob = devnet.chain.ledger.keys[1];
    const f = fixture();
    const settings = Object.freeze([
      { address: f.token, abi: TOKEN_ABI, name: 'FixtureToken' },
      { address: f.router, abi: ROUTER_ABI, name: 'FixtureRouter' },
    ]);
    const registry = new ContractRegistry({ settings: () => settings });
    const page = address(await lookUp(source(0, { contracts: { registry } }), bob.hex));
    const listed = (page.tokens?.list ?? []).map((t) => t.address.toLowerCase());
    assert.ok(listed.includes(f.token.toLowerCase()), JSON.stringify(page.tokens));
    assert.ok(!listed.includes(f.router.toLowerCase()), `the router is no token: ${JSON.stringify(page.tokens)}`);
    assert.ok(hasBalanceOf(TOKEN_ABI) && !hasBalanceOf(ROUTER_ABI));
  });

  it('compares two heights: pending rewards grew, bank and delegations unchanged; redelegations listed', async () => {
    const r = await lookUp(source(0), `${alice().bech32}@5..30`);
    const a = address(r);
    assert.ok(a.comparison);
    assert.equal(a.comparison.from, '5');
    assert.equal(a.comparison.to, '30');
    // Rewards grow by one step a block; the bank balance changes as alice's own transactions do
    // (realTxs): the comparison says exactly what the node answers at each height.
    const rewards = a.comparison.changes.find((c) => c.part === 'pending rewards');
    assert.ok(rewards, JSON.stringify(a.comparison));
    assert.equal(rewards.delta, `+${25n * DEVNET_REWARD_PER_BLOCK}`);
    const bankAt = async (h: number): Promise<bigint> => {
      const r = await fetch(`${devnet.providers[0].rest}/cosmos/bank/v1beta1/balances/${alice().bech32}`, {
        headers: { 'x-cosmos-block-height': String(h) },
      });
      const balances = ((await r.json()) as Json).balances as { denom: string; amount: string }[];
      return BigInt(balances.find((b) => b.denom === 'atest')?.amount ?? '0');
    };
    const bankDelta = (await bankAt(30)) - (await bankAt(5));
    const bank = a.comparison.changes.find((c) => c.part === 'bank');
    if (bankDelta === 0n) assert.ok(a.comparison.unchanged.includes('bank'), JSON.stringify(a.comparison));
    else assert.equal(bank?.delta, `${bankDelta > 0n ? '+' : ''}${bankDelta}`, JSON.stringify(a.comparison));
    assert.ok(a.comparison.unchanged.includes('delegation'));
    assert.match(renderLookup(r), /Changes from height `5` to `30`/);
    assert.throws(() => identify(`${alice().bech32}@30..5`), /Compare two heights/);
    const bob = devnet.chain.ledger.keys[1];
    const b = address(await lookUp(source(0), bob.bech32));
    assert.equal(b.state?.redelegations?.[0]?.balance, DEVNET_REDELEGATION.toString());
    assert.match(
      renderLookup({ kind: 'address', provider: 'full', query: bob.bech32, found: 'x', notes: [], address: b }),
      /redelegation: .* from `cosmosvaloper/,
    );
  });

  it('coverage: an index that is off and a pruning provider are said, naming a provider that does better', async () => {
    const off = address(await lookUp(source(1, { elsewhere: { txIndex: 'full' } }), alice().bech32)).history!;
    assert.equal(off.coverage.txIndex, false);
    assert.match(off.coverage.lines.join('\n'), /transaction index is off \("transaction indexing is disabled"\); provider full indexes them/);
    assert.ok(
      off.entries.every((e) => !e.hash),
      'only EVM transfers without the index',
    );
    const pruned = address(await lookUp(source(2, { elsewhere: { olderBlocks: { provider: 'full', earliest: '1' } } }), alice().bech32)).history!;
    assert.match(
      pruned.coverage.lines.join('\n'),
      /keeps blocks 20–4[0-9]; older blocks are pruned on this provider; provider full keeps them \(from block 1\)/,
    );
    assert.match(
      pruned.coverage.lines.join('\n'),
      /EVM token transfers cover blocks 20–4[0-9], every block this provider keeps \(older blocks are pruned here\)/,
    );
  });

  it('query files: explorer.account with assertions on balances, delegations, tokens and history; refused input sends nothing', async () => {
    const valoper0 = bech32Encode('cosmosvaloper', devnet.chain.validators[0].address);
    const balance = devnet.chain.balanceOf(alice().address).toString();
    // Where the rewards' line is among the changes from 5 to 9 (bank, when alice's transactions moved it, comes first).
    const rewardsIndex = address(await lookUp(source(0), `${alice().bech32}@5..9`)).comparison!.changes.findIndex((c) => c.part === 'pending rewards');
    assert.ok(rewardsIndex >= 0);
    const file = parseQueryFile(
      [
        `request me = explorer.account`,
        `provider: full`,
        `address: ${alice().hex}`,
        `assert balances.atest >= 1000`,
        `assert balances.atest == ${balance}`,
        `assert delegations[0].validator == ${valoper0}`,
        `assert delegations[0].moniker == validator-0`,
        `assert history.entries[0].height > 1`,
        `assert coverage[0] matches /keeps blocks/`,
        `assert evmBalance == ${balance}`,
        ``,
        `request then = explorer.account`,
        `provider: full`,
        `address: ${alice().bech32}`,
        `height: 5..9`,
        `assert comparison.changes[${rewardsIndex}].part == pending rewards`,
        ``,
        `request wrong = explorer.account`,
        `provider: full`,
        `address: ${alice().bech32}`,
        `assert delegations[0].validator == cosmosvaloper1nobody`,
      ].join('\n'),
    );
    assert.deepEqual(file.diagnostics, []);
    const providers = devnet.providers.map((u) => {
      const { name, ...endpoints } = u;
      return { name, endpoints };
    });
    const execute = { http, timeoutMs: 10_000, maxBufferBytes: 4 << 20, spillDir: os.tmpdir(), formatWhileReceiving: false };
    const run = await runQueryFile(file, {
      providers,
      execute,
      env: {},
      resolveProvider: (p) => p,
      secretValue: () => undefined,
      account: readAccountForQuery,
    });
    const [me, then, wrong] = run.requests;
    for (const r of [me, then])
      assert.ok(
        r.runs[0].assertions.every((a) => a.passed),
        JSON.stringify(r.runs[0].assertions),
      );
    assert.equal(wrong.runs[0].assertions[0].passed, false, 'an assertion that does not hold fails');
    // A root the operation does not have is a located error before anything runs; so is a bad address.
    const bad = parseQueryFile(`request x = explorer.account\naddress: nope\nassert stakes.atest > 1`);
    assert.match(bad.diagnostics.map((d) => d.message).join('\n'), /A path starts with one of .*balances, evmBalance/);
    // Without the explorer's reader (a runner that has none), the request fails saying so.
    const none = await runQueryFile(parseQueryFile(`request me = explorer.account\nprovider: full\naddress: ${alice().hex}`), {
      providers,
      execute,
      env: {},
      resolveProvider: (p) => p,
      secretValue: () => undefined,
    });
    assert.match(none.requests[0].runs[0].record.error ?? '', /explorer.account is not available here/);
  });

  it('cancelled: the lookup rejects and no half-read cursor is kept', async () => {
    const ac = new AbortController();
    forgetContext();
    const src = executeSource(provider(0), { http, timeoutMs: 10_000, maxBufferBytes: 8 * 1024 * 1024, signal: ac.signal });
    ac.abort();
    await assert.rejects(readHistory(src, alice().bech32, alice().hex, { typed: alice().bech32 }), (e: Error) => /cancel/i.test(e.message));
    const next = await readHistory(source(0), alice().bech32, alice().hex, { typed: alice().bech32, page: 2 });
    assert.equal(next.cached, false);
  });
});

describe('explorer: the account history from hostile eth_getLogs answers', () => {
  const ME = '0x' + '11'.repeat(20);
  const TOKEN = '0x' + '22'.repeat(20);
  const log = (logIndex: number, tx = '0x' + 'ab'.repeat(32)) => ({
    address: TOKEN,
    topics: [TRANSFER_TOPIC, paddedTopic(ME), paddedTopic('0x' + '33'.repeat(20))],
    data: '0x' + '0'.repeat(63) + '1',
    blockNumber: '0x10',
    transactionHash: tx,
    transactionIndex: '0x0',
    logIndex: `0x${logIndex.toString(16)}`,
  });

  it('200,000 Transfer logs in one transaction: one entry, its first 50 transfers, read in linear time (each was compared with all before it)', () => {
    const logs = Array.from({ length: 200_000 }, (_, i) => log(i));
    const entries = entriesOfLogs(logs, ME);
    assert.equal(entries.length, 1);
    assert.equal(entries[0].entry.transfers?.length, MAX_TX_TRANSFERS);
    assert.deepEqual(entries[0].entry.roles, ['token sender']);
  });

  it('a log found twice (as sender and as recipient) is listed once', () => {
    const entries = entriesOfLogs([log(7), log(7), log(8)], ME);
    assert.deepEqual(
      entries[0].entry.transfers?.map((t) => t.logIndex),
      ['7', '8'],
    );
  });

  it('a tx_search page of 200,000 entries of one transaction is cut to the page asked for; an entry keeps at most 50 Ethereum hashes', () => {
    const evmEvents = Array.from({ length: 500 }, (_, i) => ({
      type: 'ethereum_tx',
      attributes: [{ key: 'ethereumTxHash', value: `0x${i.toString(16).padStart(64, '0')}` }],
    }));
    const tx = { height: '7', hash: 'AB'.repeat(32), index: 0, tx_result: { code: 0, events: evmEvents } };
    const items = entriesOfSearch({ txs: Array.from({ length: 200_000 }, () => tx), total_count: '200000' }, 'sender');
    assert.equal(items.length, HISTORY_PAGE_SIZE);
    assert.equal(items[0].entry.evmHashes.length, MAX_ENTRY_EVM_HASHES);
  });

  it('a tx_search total_count below what the pages hold (a lie) does not end the history: the pages say when it ends', async () => {
    forgetHistory();
    const account = bech32Encode('cosmos', Buffer.alloc(20, 2));
    const tx = (n: number) => ({ height: String(1000 - n), hash: n.toString(16).padStart(64, '0'), index: 0, tx_result: { code: 0, events: [] } });
    const src: ExplorerSource = {
      provider: 'lying total',
      has: { rest: false, comet: true, evm: false },
      rest: () => Promise.reject(new Error('no REST')),
      evm: () => Promise.reject(new Error('no EVM')),
      comet: async (call) => {
        if (call.method === 'status')
          return { sync_info: { earliest_block_height: '1', latest_block_height: '1000' }, node_info: { other: { tx_index: 'on' } } };
        const query = String(call.json.query);
        const page = Number(call.json.page);
        // 60 transactions for the first search, three pages; the node says there is 1.
        const txs = query.startsWith(`message.sender='${account}'`) ? Array.from({ length: 60 }, (_, i) => tx(i)).slice((page - 1) * 25, page * 25) : [];
        return { txs, total_count: txs.length > 0 ? '1' : '0' };
      },
    };
    const first = await readHistory(src, account, ME, { typed: account });
    assert.equal(first.entries.length, HISTORY_PAGE_SIZE);
    assert.notEqual(first.cosmosTotal, 1, 'a count below the entries read is not taken');
    const second = await readHistory(src, account, ME, { typed: account, page: 2 });
    const third = await readHistory(src, account, ME, { typed: account, page: 3 });
    assert.equal(second.entries.length, HISTORY_PAGE_SIZE);
    assert.equal(third.entries.length, 10);
    assert.equal(third.next, undefined);
  });

  it('eth_getLogs answering 429 Too Many Requests: asked once (not again at once in smaller windows), said in the coverage', async () => {
    forgetHistory();
    for (const err of [
      new EndpointError('http', 'HTTP 429 Too Many Requests (retry after 30 s)', { status: 429, retryAfter: '30' }),
      new EndpointError('rpc', 'JSON-RPC error -32005 rate limit exceeded.', { code: -32005 }),
    ]) {
      let logCalls = 0;
      const src: ExplorerSource = {
        provider: `rate-limited ${err.kind}`,
        has: { rest: false, comet: false, evm: true },
        rest: () => Promise.reject(new Error('no REST')),
        comet: () => Promise.reject(new Error('no CometBFT')),
        evm: async (method) => {
          if (method === 'eth_blockNumber') return '0x100000';
          logCalls++;
          throw err;
        },
      };
      const page = await readHistory(src, bech32Encode('cosmos', Buffer.alloc(20, 1)), ME, { typed: ME });
      assert.equal(logCalls, 2, `${err.message}: both topics once`);
      assert.ok(
        page.coverage.lines.some((l) => l.includes('eth_getLogs failed') && /429|rate limit/.test(l)),
        page.coverage.lines.join('\n'),
      );
    }
  });
});
