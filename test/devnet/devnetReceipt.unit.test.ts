// The devnet's staking-precompile delegation (issue #35's receipt sample, ledger.ts): the second
// block carries alice's `delegate(address,string,uint256)` to 0x…0800, with evmd's event shapes
// (compared with the real recording test/fixtures/evmd/receipt/delegate-again.json), and the state
// at N−1 and N that those effects give: REST with x-cosmos-block-height and eth_getBalance at the
// block agree, and alice's change is exactly rewards − delegated − fee + refund although the events
// list the fee and the refund once more at twice the amount. In v0.5 mode there is no `tx_log`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeEventLog } from 'viem';
import type { Provider } from '../../src/core/config/providers';
import { forgetContext } from '../../src/core/explorer/context';
import { lookUp } from '../../src/core/explorer/lookup';
import type { ReceiptView } from '../../src/core/explorer/receipt/types';
import { executeSource } from '../../src/core/explorer/source';
import { HttpClient } from '../../src/core/transport/http';
import { type Devnet, startDevnet } from './devnet';
import { bech32Encode } from './encoding';
import { SAMPLE_DELEGATION, STAKING_PRECOMPILE, STAKING_PRECOMPILE_ABI } from './ledger';
import { DEVNET_DELEGATION, DEVNET_REWARD_PER_BLOCK } from './staking';

type Json = any;
const REAL = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'evmd', 'receipt', 'delegate-again.json');

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; json: Json; headers: Headers }> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
  return { status: res.status, json: await res.json(), headers: res.headers };
}
async function rpc(url: string, method: string, params: unknown[]): Promise<Json> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(5000),
  });
  const j = (await res.json()) as Json;
  if (j.error) throw new Error(JSON.stringify(j.error));
  return j.result;
}
const attr = (e: Json, key: string): string | undefined => e.attributes.find((a: Json) => a.key === key)?.value;
const coin = (s: string | undefined): bigint => {
  const m = /^(\d+)atest$/.exec(s ?? '');
  assert.ok(m, `not an atest amount: ${s}`);
  return BigInt(m[1]);
};
/** An event list's shape: type and attribute keys, in order. */
const shape = (events: Json[]): string[] => events.map((e) => `${e.type}(${e.attributes.map((a: Json) => a.key).join(',')})`);

/** Look Up of `hash` with its receipt on the devnet's first provider (what `npm start` shows). */
async function receiptOn(devnet: Devnet, http: HttpClient, hash: string): Promise<ReceiptView> {
  forgetContext();
  const { name, ...endpoints } = devnet.providers[0];
  const p: Provider = { name, endpoints };
  const r = await lookUp(executeSource(p, { http, timeoutMs: 10_000, maxBufferBytes: 4 * 1024 * 1024 }), hash, { receipt: true });
  assert.equal(r.kind, 'tx');
  const receipt = (r as Extract<typeof r, { kind: 'tx' }>).receipt;
  assert.ok(receipt, JSON.stringify(r.notes));
  return receipt;
}

/** The receipt explains alice's change exactly, by either hash, with no remainder. */
async function checkReceipt(devnet: Devnet, logCopies: number): Promise<void> {
  const http = new HttpClient();
  try {
    const { s, t } = await sampleOf(devnet);
    const r = await receiptOn(devnet, http, s.evmHash);
    assert.deepEqual(await receiptOn(devnet, http, t.hash), r, 'the CometBFT hash gives the same receipt');
    assert.equal(r.height, t.height.toString());
    assert.equal(r.logCopies, logCopies);
    assert.deepEqual(
      r.changes.filter((c) => c.status === 'unexplained'),
      [],
      r.summary,
    );
    assert.match(r.summary, /^Every balance change is explained: /);
    const hex = s.delegator.hex.toLowerCase();
    const c = r.changes.find((x) => x.account === hex && x.denom === 'atest');
    assert.ok(c);
    assert.equal(c.status, 'explained');
    const ledger = devnet.chain.ledger;
    assert.equal(BigInt(c.measured as string), ledger.balanceAt(s.delegator.address, t.height) - ledger.balanceAt(s.delegator.address, t.height - 1n));
    assert.deepEqual(
      r.causes
        .map((x) => x.kind)
        .filter((k) => ['fee', 'withdrawRewards', 'delegate', 'refund'].includes(k))
        .sort(),
      ['delegate', 'fee', 'refund', 'withdrawRewards'],
    );
  } finally {
    await http.close();
  }
}

async function sampleOf(devnet: Devnet) {
  const chain = devnet.chain;
  while (chain.tip < 3n) devnet.produceBlock();
  const s = chain.ledger.receiptSample;
  assert.ok(s, 'the ledger generated the precompile delegation');
  const t = chain.txByEvmHash(s.evmHash);
  assert.ok(t, 'the delegation is in a block');
  return { s, t, p: devnet.providers[0] };
}

describe('devnet: a delegation through the staking precompile, as evmd gives it (issue #35)', function () {
  this.timeout(30_000);

  describe('v0.3 event shapes (the default)', () => {
    let devnet: Devnet;
    before(async () => {
      devnet = await startDevnet({ realTxs: true, blockIntervalMs: 0 });
    });
    after(async () => devnet?.stop());

    it('its events follow evmd v0.3.2 exactly (shape of the real delegate-again recording), with tx_log', async () => {
      const { s, t, p } = await sampleOf(devnet);
      assert.equal(t.height, 2n, 'the second block');
      const found = (await get(`${p.consensusHttp}/tx_search?query="ethereum_tx.ethereumTxHash='${s.evmHash}'"`)).json.result;
      assert.equal(found.total_count, '1');
      const events = found.txs[0].tx_result.events;
      const real = JSON.parse(fs.readFileSync(REAL, 'utf8')).cometbft.tx.result.tx_result.events;
      assert.deepEqual(shape(events), shape(real));
      assert.equal(
        attr(
          events.find((e: Json) => e.type === 'ethereum_tx' && attr(e, 'txHash')),
          'txHash',
        ),
        t.hash.toLowerCase(),
      );
      assert.equal(
        attr(
          events.find((e: Json) => e.type === 'ethereum_tx' && attr(e, 'recipient')),
          'recipient',
        ),
        STAKING_PRECOMPILE,
      );
      // The EVM side: one Delegate log from the precompile (copied into tx_log), the trace's one CALL frame returning true.
      const receipt = await rpc(p.evmRpc, 'eth_getTransactionReceipt', [s.evmHash]);
      assert.equal(receipt.status, '0x1');
      assert.equal(receipt.logs.length, 1);
      const log = decodeEventLog({ abi: STAKING_PRECOMPILE_ABI, data: receipt.logs[0].data, topics: receipt.logs[0].topics });
      assert.equal(log.eventName, 'Delegate');
      assert.equal((log.args as Json).amount, SAMPLE_DELEGATION);
      assert.equal(((log.args as Json).delegatorAddress as string).toLowerCase(), s.delegator.hex.toLowerCase());
      const txLog = JSON.parse(
        attr(
          events.find((e: Json) => e.type === 'tx_log'),
          'txLog',
        ) as string,
      );
      assert.deepEqual(txLog.topics, receipt.logs[0].topics);
      assert.equal(Buffer.from(txLog.data, 'base64').toString('hex'), receipt.logs[0].data.slice(2));
      const trace = await rpc(p.evmRpc, 'debug_traceTransaction', [s.evmHash, { tracer: 'callTracer' }]);
      assert.equal(trace.type, 'CALL');
      assert.equal(trace.to, STAKING_PRECOMPILE);
      assert.equal(BigInt(trace.output), 1n);
      assert.equal(trace.calls, undefined);
    });

    it('state at N−1 and N: every change is its causes exactly; fee and refund are listed twice more than the balances show', async () => {
      const { s, t, p } = await sampleOf(devnet);
      const N = t.height;
      const events: Json[] = t.result.events.map((e) => ({ type: e.type, attributes: e.attributes }));
      const alice = s.delegator.bech32;
      const feeCollector = bech32Encode('cosmos', devnet.chain.ledger.feeCollector);
      const bonded = bech32Encode('cosmos', devnet.chain.ledger.bondedPool);
      const distribution = bech32Encode('cosmos', devnet.chain.ledger.distribution);
      const fee = coin(
        attr(
          events.find((e) => e.type === 'tx'),
          'fee',
        ),
      );
      const transfers = (from: string, to: string) =>
        events.filter((e) => e.type === 'transfer' && attr(e, 'sender') === from && attr(e, 'recipient') === to).map((e) => coin(attr(e, 'amount')));
      assert.deepEqual(transfers(alice, feeCollector), [fee, 2n * fee]);
      const refunds = transfers(feeCollector, alice);
      assert.equal(refunds.length, 2);
      const refund = refunds[0];
      assert.equal(refunds[1], 2n * refund);
      const rewards = coin(
        attr(
          events.find((e) => e.type === 'withdraw_rewards'),
          'amount',
        ),
      );
      assert.equal(rewards, N * DEVNET_REWARD_PER_BLOCK, 'rewards since genesis, block N included');
      assert.deepEqual(transfers(distribution, alice), [rewards]);
      const receipt = await rpc(p.evmRpc, 'eth_getTransactionReceipt', [s.evmHash]);
      assert.equal(fee - refund, BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice));

      const bank = async (addr: string, h: bigint): Promise<bigint> => {
        const r = await get(`${p.rest}/cosmos/bank/v1beta1/balances/${addr}`, { 'x-cosmos-block-height': h.toString() });
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('x-cosmos-block-height'), h.toString());
        return BigInt(r.json.balances.find((c: Json) => c.denom === 'atest')?.amount ?? '0');
      };
      const evm = async (hex: string, h: bigint): Promise<bigint> => BigInt(await rpc(p.evmRpc, 'eth_getBalance', [hex, `0x${h.toString(16)}`]));
      const [a0, a1] = [await bank(alice, N - 1n), await bank(alice, N)];
      assert.equal(await evm(s.delegator.hex, N - 1n), a0);
      assert.equal(await evm(s.delegator.hex, N), a1);
      assert.equal(a1 - a0, rewards - SAMPLE_DELEGATION - fee + refund);
      assert.equal((await bank(bonded, N)) - (await bank(bonded, N - 1n)), SAMPLE_DELEGATION);
      assert.equal((await bank(distribution, N)) - (await bank(distribution, N - 1n)), -rewards);
      // Later blocks do not change what N−1 and N answer.
      devnet.produceBlock();
      assert.equal(await bank(alice, N - 1n), a0);
      assert.equal(await bank(alice, N), a1);

      // Staking state: 10 TEST delegated before, 11 after; rewards pending before, none after.
      const at = async (route: string, h: bigint): Promise<Json> => (await get(`${p.rest}${route}`, { 'x-cosmos-block-height': h.toString() })).json;
      const dels = async (h: bigint) => (await at(`/cosmos/staking/v1beta1/delegations/${alice}`, h)).delegation_responses;
      assert.equal((await dels(N - 1n))[0].balance.amount, DEVNET_DELEGATION.toString());
      assert.equal((await dels(N))[0].balance.amount, (DEVNET_DELEGATION + SAMPLE_DELEGATION).toString());
      assert.equal((await dels(N))[0].delegation.validator_address, s.validator);
      const pending = async (h: bigint) =>
        BigInt((await at(`/cosmos/distribution/v1beta1/delegators/${alice}/rewards`, h)).rewards[0].reward[0].amount.split('.')[0]);
      assert.equal(await pending(N - 1n), (N - 1n) * DEVNET_REWARD_PER_BLOCK);
      assert.equal(await pending(N), 0n);
      assert.ok((await pending(N - 1n)) <= rewards);
    });

    it("Look Up with the receipt (src/core/explorer/receipt): both hashes, alice's change explained exactly, tx_log recognised", async () => {
      await checkReceipt(devnet, 1);
    });

    it("no other tx of the sample's block moves the delegator's balance", async () => {
      const { s, t } = await sampleOf(devnet);
      const block = devnet.chain.block(t.height);
      assert.ok(block);
      for (const r of block.results) {
        if (r === t.result) continue;
        for (const e of r.events)
          if (['coin_spent', 'coin_received'].includes(e.type)) for (const a of e.attributes) assert.notEqual(a.value, s.delegator.bech32);
      }
    });
  });

  describe('v0.5 event shapes', () => {
    let devnet: Devnet;
    before(async () => {
      devnet = await startDevnet({ realTxs: true, blockIntervalMs: 0, cosmosEvm: 'v0.5' });
    });
    after(async () => devnet?.stop());

    it('no tx_log in any EVM tx (cosmos/evm #576); the delegation otherwise the same, its log only on the EVM side', async () => {
      const { s, t, p } = await sampleOf(devnet);
      for (const r of devnet.chain.allTxs()) assert.equal(r.result.events.filter((e) => e.type === 'tx_log').length, 0, r.hash);
      const real = JSON.parse(fs.readFileSync(REAL, 'utf8')).cometbft.tx.result.tx_result.events.filter((e: Json) => e.type !== 'tx_log');
      assert.deepEqual(shape(t.result.events), shape(real));
      const receipt = await rpc(p.evmRpc, 'eth_getTransactionReceipt', [s.evmHash]);
      assert.equal(receipt.logs.length, 1);
    });

    it('Look Up with the receipt: the same explanation without tx_log copies', async () => {
      await checkReceipt(devnet, 0);
    });
  });
});
