// The devnet's pruning provider (`keepRecent`, and PRUNED_NODE as `npm run devnet` serves it beside
// Local node): it keeps only the last N heights, so the floor moves with the tip. Below it, each
// interface answers as a pruned evmd node does: REST 500 with gRPC code 2 "codespace sdk code 38:
// not found: … version does not exist", the EVM's -32000 "failed to load state", CometBFT's "lowest height is",
// `earliest_block_height` = the floor, and tx_search without the older transactions; the full
// provider of the same chain keeps them all. Then the account page on it: the coverage line names
// the provider that keeps the older blocks.
import * as assert from 'node:assert/strict';
import type { Provider } from '../../src/core/config/providers';
import { forgetContext } from '../../src/core/explorer/context';
import { forgetHistory } from '../../src/core/explorer/account/history';
import { lookUp } from '../../src/core/explorer/lookup';
import { renderLookup } from '../../src/core/explorer/render';
import { executeSource } from '../../src/core/explorer/source';
import { HttpClient } from '../../src/core/transport/http';
import { type Devnet, PRUNED_NODE, startDevnet } from './devnet';

type Json = any;

const KEEP = PRUNED_NODE.capabilities.keepRecent;

describe('devnet: a provider that prunes (keeps the last N heights)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  const urls = (name: string) => devnet.providers.find((p) => p.name === name)!;
  const get = async (url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> => {
    const r = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
    return { status: r.status, body: JSON.parse(await r.text()) as Json };
  };
  const rpc = async (url: string, method: string, params: unknown[]): Promise<Json> => {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(5000),
    });
    return (await r.json()) as Json;
  };
  const status = async (name: string) => (await get(`${urls(name).consensusHttp}/status`)).body.result.sync_info;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 0, realTxs: true, providers: [{ name: 'Local node' }, { ...PRUNED_NODE, ports: undefined }] });
    http = new HttpClient();
  });
  after(async () => {
    await devnet.stop();
    await http.close();
  });

  it('keeps everything while the chain is younger than N; then its floor follows the tip', async () => {
    for (let i = 0; i < 3; i++) devnet.produceBlock();
    assert.equal((await status('Pruned node')).earliest_block_height, '1');
    while (devnet.height() < KEEP + 15n) devnet.produceBlock();
    const tip = devnet.height();
    const floor = tip - KEEP + 1n;
    const s = await status('Pruned node');
    assert.equal(s.latest_block_height, tip.toString());
    assert.equal(s.earliest_block_height, floor.toString());
    assert.equal((await status('Local node')).earliest_block_height, '1', 'the full provider of the same chain keeps every block');
    devnet.produceBlock();
    assert.equal((await status('Pruned node')).earliest_block_height, (floor + 1n).toString(), 'one block later, one height less kept');
  });

  it('below the floor: REST 500 with gRPC code 2 (SDK error 38), EVM -32000, CometBFT "lowest height is"; at the floor all answer', async () => {
    const floor = BigInt((await status('Pruned node')).earliest_block_height);
    const alice = devnet.chain.ledger.keys[0];
    const bank = `${urls('Pruned node').rest}/cosmos/bank/v1beta1/balances/${alice.bech32}`;
    const old = await get(bank, { 'x-cosmos-block-height': String(floor - 1n) });
    // As evmd v0.3.2 answers (test/real/accountStateEvmd.real.test.ts): HTTP 500, gRPC code 2, the SDK's error 38.
    assert.equal(old.status, 500);
    assert.equal(old.body.code, 2);
    assert.match(
      old.body.message,
      /^codespace sdk code 38: not found: failed to load state at height \d+; version mismatch on immutable IAVL tree; version does not exist/,
    );
    assert.equal((await get(bank, { 'x-cosmos-block-height': String(floor) })).status, 200);
    assert.equal((await get(`${urls('Local node').rest}/cosmos/bank/v1beta1/balances/${alice.bech32}`, { 'x-cosmos-block-height': '1' })).status, 200);

    const evm = await rpc(urls('Pruned node').evmRpc, 'eth_getBalance', [alice.hex, `0x${(floor - 1n).toString(16)}`]);
    assert.equal(evm.error?.code, -32000);
    assert.match(evm.error?.message, /failed to load state at height \d+/);
    assert.match((await rpc(urls('Pruned node').evmRpc, 'eth_getBalance', [alice.hex, `0x${floor.toString(16)}`])).result, /^0x[0-9a-f]+$/);

    const block = await rpc(urls('Pruned node').consensusRpc, 'block', [String(floor - 1n)]);
    assert.equal(block.error?.code, -32603);
    assert.equal(block.error?.data, `height ${floor - 1n} is not available, lowest height is ${floor}`);
  });

  it('tx_search lists no transaction below the floor; the full provider lists them', async () => {
    const floor = BigInt((await status('Pruned node')).earliest_block_height);
    const q = encodeURIComponent(`"tx.height>=1"`);
    const pruned = (await get(`${urls('Pruned node').consensusHttp}/tx_search?query=${q}&per_page=100&order_by="asc"`)).body.result;
    const full = (await get(`${urls('Local node').consensusHttp}/tx_search?query=${q}&per_page=100&order_by="asc"`)).body.result;
    assert.ok(pruned.txs.length > 0);
    assert.equal(BigInt(pruned.txs[0].height), floor, 'the oldest it lists is at its floor');
    assert.equal(full.txs[0].height, '1');
    assert.ok(Number(full.total_count) > Number(pruned.total_count));
  });

  it("the account page on it: the coverage line names the provider that keeps the older blocks; a pruned height's state says so", async () => {
    // Past N heights, so the floor is above block 1 (run alone, no earlier test has made them).
    while (devnet.height() < KEEP + 15n) devnet.produceBlock();
    forgetContext();
    forgetHistory();
    const { name, ...endpoints } = urls('Pruned node');
    const provider: Provider = { name, endpoints };
    const src = {
      ...executeSource(provider, { http, timeoutMs: 10_000, maxBufferBytes: 8 * 1024 * 1024 }),
      elsewhere: { olderBlocks: { provider: 'Local node', earliest: '1' } },
    };
    const alice = devnet.chain.ledger.keys[0];
    const floor = BigInt((await status('Pruned node')).earliest_block_height);
    const r = await lookUp(src, alice.bech32);
    assert.equal(r.kind, 'address');
    const a = (r as Extract<typeof r, { kind: 'address' }>).address;
    const first = a.history?.coverage.lines[0] ?? '';
    assert.match(
      first,
      /^This provider keeps blocks (\d+)–[\d,]+; older blocks are pruned on this provider; provider Local node keeps them \(from block 1\)\.$/,
    );
    assert.ok(BigInt(/keeps blocks (\d+)/.exec(first)![1]) >= floor);
    assert.ok(
      a.history!.entries.every((e) => BigInt(e.height) >= floor),
      'no entry below what it keeps',
    );
    assert.equal(a.state?.reconciliation?.equal, true);
    assert.match(renderLookup(r), /- Coverage: `This provider keeps blocks .*provider Local node keeps them/);
    const at1 = await lookUp(src, `${alice.bech32}@1`);
    const s = (at1 as Extract<typeof at1, { kind: 'address' }>).address.state;
    assert.match(s?.coverage ?? '', /^Height 1 is pruned on this provider/);
  });
});
