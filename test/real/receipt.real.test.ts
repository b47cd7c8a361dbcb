// Issue #35 against a real Cosmos EVM chain (evmd v0.3.2): one node with the static precompiles,
// `debug` and REST together and `pruning = "nothing"` (helpers/receiptScenario.ts), and the
// transactions a receipt explains: a delegation through the staking precompile, a second one after
// rewards accrued (withdrawn automatically), an undelegation, an ERC-20 transfer of the native
// token and a Cosmos bank send. For each, the test reads the node itself (REST at N−1 and N with
// x-cosmos-block-height, eth_getBalance at both blocks, tx_search, the callTracer trace) and checks
// the facts a receipt must reproduce: every balance change is the sum of its causes (rewards −
// delegated − fee + refund, …), with the fee and refund listed twice more in the events than the
// balances show.
import * as assert from 'node:assert/strict';
import { decodeEventLog, parseAbi } from 'viem';
import type { Provider } from '../../src/core/config/providers';
import { forgetContext } from '../../src/core/explorer/context';
import { lookUp } from '../../src/core/explorer/lookup';
import type { ReceiptView } from '../../src/core/explorer/receipt/types';
import { renderLookup } from '../../src/core/explorer/render';
import { executeSource } from '../../src/core/explorer/source';
import { evmdEnv } from './helpers/evmd';
import { Runner } from './helpers/extension';
import { raw, rawPost } from './helpers/nodes';
import {
  BONDED_POOL,
  DISTRIBUTION,
  FEE_COLLECTOR,
  NOT_BONDED_POOL,
  RECIPIENT_HEX,
  type ReceiptScenario,
  type ScenarioName,
  type ScenarioTx,
  STAKING_PRECOMPILE,
  TOKEN,
  attributes,
  runReceiptScenario,
  toBech32,
} from './helpers/receiptScenario';

type Json = any;
const DENOM = 'atest';
const LOGS_ABI = parseAbi([
  'event Delegate(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount, uint256 newShares)',
  'event Unbond(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount, uint256 completionTime)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/** `123atest` → 123n (one coin, the EVM denom). */
const coin = (s: string): bigint => {
  const m = /^(\d+)atest$/.exec(s);
  assert.ok(m, `not an atest amount: ${s}`);
  return BigInt(m[1]);
};
const bankOf = (bank: Json): bigint => BigInt(bank.balances.find((c: Json) => c.denom === DENOM)?.amount ?? '0');

describe('evmd (real Cosmos EVM chain): the transactions a receipt explains (issue #35)', function () {
  this.timeout(180_000);
  let s: ReceiptScenario;
  let runner: Runner;
  let provider: Provider;
  const leaked = 'EVMD_API';
  const tx = (name: ScenarioName): ScenarioTx => {
    const t = s.txs.find((x) => x.name === name);
    assert.ok(t, `no ${name} in the scenario`);
    return t;
  };
  const account = (t: ScenarioTx, bech32: string) => {
    const a = t.accounts.find((x) => x.bech32 === bech32);
    assert.ok(a, `${t.name}: ${bech32} not among the touched accounts ${t.accounts.map((x) => x.bech32).join(', ')}`);
    return a;
  };
  /** The change of an account's atest from N−1 to N, checked equal on the bank and EVM sides at both heights. */
  const change = (t: ScenarioTx, bech32: string): bigint => {
    const a = account(t, bech32);
    for (const at of [a.before, a.after]) assert.equal(bankOf(at.bank), BigInt(at.evmBalance), `${t.name} ${bech32}@${at.height}: bank atest = EVM balance`);
    return bankOf(a.after.bank) - bankOf(a.before.bank);
  };
  const events = (t: ScenarioTx): Json[] => t.cometbft.tx.result.tx_result.events;
  const attr = (e: Json, key: string): string | undefined => e.attributes.find((a: Json) => a.key === key)?.value;
  /** Transfers (type `transfer`) from → to, in event order; `inMsg` true for those with a msg_index. */
  const transfers = (t: ScenarioTx, from: string, to: string, inMsg: boolean): bigint[] =>
    events(t)
      .filter((e) => e.type === 'transfer' && attr(e, 'sender') === from && attr(e, 'recipient') === to && (attr(e, 'msg_index') !== undefined) === inMsg)
      .map((e) => coin(attr(e, 'amount') as string));
  /** The fee charged (`tx.fee`) and, for an EVM tx, the refund of unused gas; both checked against the trap's doubled entries and the receipt. */
  const feeAndRefund = (t: ScenarioTx, payer: string): { fee: bigint; refund: bigint } => {
    const fee = coin(
      attr(
        events(t).find((e) => e.type === 'tx' && attr(e, 'fee') !== undefined),
        'fee',
      ) as string,
    );
    if (!t.evm) return { fee, refund: 0n };
    // The trap: the ante handler's transfer of the fee, then one more of exactly twice the fee; the
    // refund likewise (once, then twice). The balances show the fee once and the refund once.
    assert.deepEqual(transfers(t, payer, FEE_COLLECTOR, false), [fee, 2n * fee], `${t.name}: the fee's transfers`);
    const refunds = transfers(t, FEE_COLLECTOR, payer, true);
    assert.equal(refunds.length, 2, `${t.name}: the refund's transfers ${refunds}`);
    const refund = refunds[0];
    assert.equal(refunds[1], 2n * refund);
    // What was charged per gas: the base fee of block N's BeginBlock (`evm_fee_market`) + the tip, so
    // fee = gas limit × that price and fee − refund = gasUsed × that price. The receipt's
    // effectiveGasPrice (and the tx's gasPrice) is NOT that price: evmd computes it from the base fee
    // set at N's EndBlock (`fee_market`, the next block's), so gasUsed × effectiveGasPrice is not what was paid.
    const r = t.evm.receipt;
    const tip = BigInt(t.evm.transaction.maxPriorityFeePerGas);
    const gas = BigInt(t.evm.transaction.gas);
    assert.equal(fee % gas, 0n, `${t.name}: tx.fee is a whole price per gas`);
    const price = fee / gas;
    const baseFee = (mode: string): string => {
      const e = t.blockEvents.find((x: Json) => /fee_market$/.test(x.type) && attr(x, 'mode') === mode);
      assert.ok(e, `${t.name}: no ${mode} fee market event`);
      return attr(e, 'base_fee') as string;
    };
    assert.equal(price, BigInt(baseFee('BeginBlock')) + tip, `${t.name}: price charged = BeginBlock base fee + tip`);
    assert.equal(fee - refund, BigInt(r.gasUsed) * price, `${t.name}: fee − refund = gasUsed × price charged`);
    assert.equal(BigInt(r.effectiveGasPrice), BigInt(baseFee('EndBlock').split('.')[0]) + tip, `${t.name}: effectiveGasPrice from the EndBlock base fee`);
    return { fee, refund };
  };
  const one = (t: ScenarioTx, type: string): Json => {
    const found = events(t).filter((e) => e.type === type);
    assert.equal(found.length, 1, `${t.name}: ${found.length} ${type} events`);
    return found[0];
  };
  const delegatedTo = (d: Json, valoper: string): bigint =>
    BigInt(d.delegation_responses.find((x: Json) => x.delegation.validator_address === valoper)?.balance.amount ?? '0');

  before(async function () {
    this.timeout(300_000);
    // A variable the Cosmos SDK would read as configuration (it would replace the [api] section and
    // turn REST off): the node must not see it.
    const old = process.env[leaked];
    process.env[leaked] = 'eth,net';
    try {
      s = await runReceiptScenario();
    } finally {
      if (old === undefined) delete process.env[leaked];
      else process.env[leaked] = old;
    }
    provider = { name: 'real evmd', endpoints: { evmRpc: s.node.evmRpc, consensusHttp: s.node.cometHttp, rest: s.node.rest } };
    runner = new Runner(provider);
  });
  after(async () => {
    await runner?.dispose();
    await s?.dispose();
  });

  it('one node serves REST, debug and the static precompiles, keeps every height, and never sees EVMD_* variables', async () => {
    assert.equal(evmdEnv({ EVMD_API: 'eth', evmd_pruning: 'x', PATH: '/bin' }).PATH, '/bin');
    assert.deepEqual(Object.keys(evmdEnv({ EVMD_API: 'eth', evmd_pruning: 'x', PATH: '/bin' })), ['PATH']);
    const modules = (await rawPost(s.node.evmRpc, { jsonrpc: '2.0', id: 1, method: 'rpc_modules', params: [] })).json.result;
    assert.ok('debug' in modules, JSON.stringify(modules));
    const info = await raw(`${s.node.rest}/cosmos/base/tendermint/v1beta1/node_info`);
    assert.equal(info.status, 200);
    assert.equal(info.json.default_node_info.network, s.node.chainId);
    const params = (await raw(`${s.node.rest}/cosmos/evm/vm/v1/params`)).json.params;
    assert.ok(params.active_static_precompiles.includes(STAKING_PRECOMPILE));
    // pruning = "nothing": the state of height 1 is still served, on REST and the EVM.
    const early = await raw(`${s.node.rest}/cosmos/bank/v1beta1/balances/${s.dev0.bech32}`, { headers: { 'x-cosmos-block-height': '1' } });
    assert.equal(early.status, 200, early.text);
    assert.equal(bankOf(early.json), 1000n * TOKEN);
    const evm1 = (await rawPost(s.node.evmRpc, { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [s.dev0.hex, '0x1'] })).json;
    assert.equal(BigInt(evm1.result), 1000n * TOKEN);
  });

  it('each tx on both layers: tx_search finds it by either hash, the events copy the EVM logs (tx_log, v0.3), the trace has one top frame', () => {
    for (const t of s.txs) {
      const r = t.cometbft.tx.result;
      assert.equal(r.tx_result.code, 0);
      assert.equal(r.hash, t.cometHash);
      // tx_search's one tx is /tx's answer, and REST's tx_response repeats the same events (the fixtures keep them once).
      assert.deepEqual(t.cometbft.txSearch.result.txs, [r]);
      assert.deepEqual(t.restTx.tx_response.events, r.tx_result.events);
      assert.equal(t.restTx.tx_response.txhash, t.cometHash);
      if (!t.evm) {
        assert.equal(t.restTx.tx.body.messages[0]['@type'], '/cosmos.bank.v1beta1.MsgSend');
        assert.equal(events(t).filter((e) => e.type === 'ethereum_tx').length, 0);
        continue;
      }
      const eth = events(t).filter((e) => e.type === 'ethereum_tx');
      assert.equal(eth.length, 2, `${t.name}: ethereum_tx twice (ante, then the message)`);
      for (const e of eth) assert.equal(attr(e, 'ethereumTxHash'), t.evmHash);
      assert.equal(attr(eth[1], 'txHash')?.toUpperCase(), t.cometHash, 'the CometBFT hash in the second ethereum_tx');
      assert.equal(attr(eth[1], 'recipient')?.toLowerCase(), t.evm.transaction.to.toLowerCase());
      assert.equal(BigInt(attr(eth[1], 'txGasUsed') as string), BigInt(t.evm.receipt.gasUsed));
      assert.equal(t.evm.receipt.status, '0x1');
      assert.equal(BigInt(t.evm.receipt.blockNumber).toString(), t.height);
      // v0.3: every EVM log copied into a tx_log event, in order.
      const txLogs = events(t)
        .filter((e) => e.type === 'tx_log')
        .map((e) => JSON.parse(attr(e, 'txLog') as string));
      assert.equal(txLogs.length, t.evm.receipt.logs.length);
      txLogs.forEach((l, i) => {
        assert.equal(l.address.toLowerCase(), t.evm!.receipt.logs[i].address.toLowerCase());
        assert.deepEqual(l.topics, t.evm!.receipt.logs[i].topics);
      });
      // The trace: one CALL to the precompile or token, no inner frames (the Cosmos work is not a call), output true or a time.
      const tr = t.evm.trace;
      assert.equal(tr.type, 'CALL');
      assert.equal(tr.to.toLowerCase(), t.evm.transaction.to.toLowerCase());
      assert.equal(tr.input, t.evm.transaction.input);
      assert.equal(tr.error, undefined);
      if (t.name === 'contract-delegate') {
        // The contract's CALL to the precompile is the only inner frame.
        assert.equal(tr.calls?.length, 1);
        assert.equal(tr.calls[0].type, 'CALL');
        assert.equal(tr.calls[0].from.toLowerCase(), s.contract);
        assert.equal(tr.calls[0].to.toLowerCase(), STAKING_PRECOMPILE);
        assert.equal(tr.calls[0].calls, undefined);
      } else assert.equal(tr.calls, undefined);
    }
  });

  it('first delegation: the delegator pays 1 TEST + fee − refund; the bonded pool gains 1 TEST; no rewards to withdraw yet', () => {
    const t = tx('delegate');
    const { fee, refund } = feeAndRefund(t, s.dev0.bech32);
    assert.equal(events(t).filter((e) => e.type === 'withdraw_rewards').length, 0);
    const d = one(t, 'delegate');
    assert.equal(attr(d, 'delegator'), s.dev0.bech32);
    assert.equal(attr(d, 'validator'), s.valoper);
    assert.equal(coin(attr(d, 'amount') as string), TOKEN);
    assert.equal(change(t, s.dev0.bech32), -TOKEN - fee + refund);
    assert.equal(change(t, BONDED_POOL), TOKEN);
    const a = account(t, s.dev0.bech32);
    assert.equal(delegatedTo(a.before.delegations, s.valoper), 0n);
    assert.equal(delegatedTo(a.after.delegations, s.valoper), TOKEN);
    // The EVM side: one Delegate log from the precompile, the validator as its 0x form.
    const log = decodeEventLog({ abi: LOGS_ABI, ...t.evm!.receipt.logs[0] });
    assert.equal(log.eventName, 'Delegate');
    assert.equal((log.args as Json).amount, TOKEN);
    assert.equal(((log.args as Json).delegatorAddress as string).toLowerCase(), s.dev0.hex);
    // The validator's tokens grew by the delegation.
    const v = t.validators[s.valoper];
    assert.equal(BigInt(v.after.validator.tokens) - BigInt(v.before.validator.tokens), TOKEN);
  });

  it('second delegation: the rewards accrued are withdrawn automatically; change = rewards − delegated − fee + refund, exactly', () => {
    const t = tx('delegate-again');
    const { fee, refund } = feeAndRefund(t, s.dev0.bech32);
    const w = one(t, 'withdraw_rewards');
    assert.equal(attr(w, 'delegator'), s.dev0.bech32);
    assert.equal(attr(w, 'validator'), s.valoper);
    const rewards = coin(attr(w, 'amount') as string);
    assert.ok(rewards > 0n);
    // Paid by the distribution module to the delegator.
    assert.deepEqual(transfers(t, DISTRIBUTION, s.dev0.bech32, true), [rewards]);
    assert.equal(change(t, s.dev0.bech32), rewards - TOKEN - fee + refund);
    // Pending rewards read at N−1 (before block N's allocation) are at most what was withdrawn; none left at N.
    const a = account(t, s.dev0.bech32);
    const pending = (r: Json): bigint => {
      const e = r.rewards.find((x: Json) => x.validator_address === s.valoper);
      const dec = e?.reward.find((c: Json) => c.denom === DENOM)?.amount ?? '0';
      return BigInt(dec.split('.')[0]);
    };
    assert.ok(pending(a.before.rewards) > 0n && pending(a.before.rewards) <= rewards, `${pending(a.before.rewards)} vs ${rewards}`);
    assert.equal(pending(a.after.rewards), 0n);
    assert.equal(delegatedTo(a.after.delegations, s.valoper) - delegatedTo(a.before.delegations, s.valoper), TOKEN);
    assert.equal(change(t, BONDED_POOL), TOKEN);
  });

  it('undelegation: rewards withdrawn again, 1 TEST from the bonded to the not-bonded pool, an unbonding entry; the balance rises by rewards − fee + refund', () => {
    const t = tx('undelegate');
    const { fee, refund } = feeAndRefund(t, s.dev0.bech32);
    const rewards = coin(attr(one(t, 'withdraw_rewards'), 'amount') as string);
    const u = one(t, 'unbond');
    assert.equal(coin(attr(u, 'amount') as string), TOKEN);
    assert.equal(change(t, s.dev0.bech32), rewards - fee + refund);
    assert.equal(change(t, BONDED_POOL), -TOKEN);
    assert.equal(change(t, NOT_BONDED_POOL), TOKEN);
    const a = account(t, s.dev0.bech32);
    assert.deepEqual(a.before.unbondings.unbonding_responses, []);
    const entries = a.after.unbondings.unbonding_responses.flatMap((x: Json) => x.entries);
    assert.equal(entries.length, 1);
    assert.equal(BigInt(entries[0].balance), TOKEN);
    // The entry's completion time has nanoseconds; the unbond event's is cut to whole seconds.
    assert.equal(Math.floor(new Date(entries[0].completion_time).getTime() / 1000) * 1000, new Date(attr(u, 'completion_time') as string).getTime());
    // The EVM log Unbond carries the same completion time in unix seconds, and the call returned it.
    const log = decodeEventLog({ abi: LOGS_ABI, ...t.evm!.receipt.logs[0] });
    assert.equal(log.eventName, 'Unbond');
    assert.equal(BigInt((log.args as Json).completionTime) * 1000n, BigInt(new Date(attr(u, 'completion_time') as string).getTime()));
    assert.equal(BigInt(t.evm!.trace.output), BigInt((log.args as Json).completionTime));
  });

  it('ERC-20 transfer of the native token: a bank transfer of 2 TEST to the recipient (listed twice more in the events), the fee and refund', () => {
    const t = tx('erc20-transfer');
    const { fee, refund } = feeAndRefund(t, s.dev0.bech32);
    assert.deepEqual(transfers(t, s.dev0.bech32, s.recipient.bech32, true), [2n * TOKEN, 4n * TOKEN], 'the value transfer, then once more at twice the amount');
    assert.equal(change(t, s.dev0.bech32), -2n * TOKEN - fee + refund);
    assert.equal(change(t, s.recipient.bech32), 2n * TOKEN);
    const log = decodeEventLog({ abi: LOGS_ABI, ...t.evm!.receipt.logs[0] });
    assert.equal(log.eventName, 'Transfer');
    assert.equal(((log.args as Json).to as string).toLowerCase(), RECIPIENT_HEX);
    assert.equal((log.args as Json).value, 2n * TOKEN);
  });

  it('Cosmos bank send: the sender pays 3 TEST + tx.fee (gas limit × gas price, no refund); the recipient gains 3 TEST', () => {
    const t = tx('bank-send');
    const { fee } = feeAndRefund(t, s.dev0.bech32);
    assert.equal(fee, BigInt(t.cometbft.tx.result.tx_result.gas_wanted) * 10_000_000_000n);
    assert.equal(transfers(t, FEE_COLLECTOR, s.dev0.bech32, true).length, 0);
    assert.deepEqual(transfers(t, s.dev0.bech32, s.recipient.bech32, true), [3n * TOKEN]);
    assert.equal(change(t, s.dev0.bech32), -3n * TOKEN - fee);
    assert.equal(change(t, s.recipient.bech32), 3n * TOKEN);
  });

  it("module accounts move at block level too: the fee collector's and distribution's changes are not the tx's events alone", () => {
    // The fee collector holds at N what block N's txs left in it (fees of N−1 were distributed at N's
    // begin block): fee − refund here, the block holding only this tx.
    for (const t of s.txs.filter((x) => x.evm)) {
      const { fee, refund } = feeAndRefund(t, s.dev0.bech32);
      const fc = account(t, FEE_COLLECTOR);
      assert.equal(bankOf(fc.after.bank), fee - refund, `${t.name}: the fee collector at N`);
      assert.ok(t.blockEvents.some((e: Json) => e.type === 'mint'));
      assert.ok(attributes({ events: t.blockEvents }).some(([type, k, v]) => type === 'transfer' && k === 'recipient' && v === DISTRIBUTION));
    }
  });

  // ---- The receipt (src/core/explorer/receipt/) of each transaction, against what the test read itself ----

  /** Look Up of `hash` with its receipt, as the extension and api.lookUp() compose it. */
  const receiptOf = async (hash: string): Promise<ReceiptView> => {
    forgetContext();
    const r = await lookUp(executeSource(provider, runner.options()), hash, { receipt: true });
    assert.equal(r.kind, 'tx', JSON.stringify(r).slice(0, 500));
    const receipt = (r as Extract<typeof r, { kind: 'tx' }>).receipt;
    assert.ok(receipt, `no receipt for ${hash}: ${JSON.stringify(r.notes)}`);
    assert.ok(!renderLookup(r).includes('undefined'));
    return receipt;
  };
  /** The receipt's change of one account in atest, which must be measured and explained. */
  const receiptChange = (r: ReceiptView, hex: string): bigint => {
    const c = r.changes.find((x) => x.account === hex.toLowerCase() && x.denom === DENOM);
    assert.ok(c, `no atest change of ${hex} in ${JSON.stringify(r.changes)}`);
    assert.equal(c.status, 'explained', JSON.stringify(c));
    assert.equal(c.unexplained, undefined);
    assert.equal(c.measured, c.explained);
    return BigInt(c.measured as string);
  };
  const causeAmount = (r: ReceiptView, kind: string, hex: string): bigint => {
    const found = r.causes.filter((c) => c.kind === kind);
    assert.equal(found.length, 1, `${kind}: ${JSON.stringify(r.causes)}`);
    return found[0].moves.filter((m) => m.account === hex.toLowerCase() && m.denom === DENOM).reduce((sum, m) => sum + BigInt(m.amount), 0n);
  };
  /** Both hashes give one receipt; it is fully explained, with no unexplained remainder anywhere. */
  const bothHashes = async (t: ScenarioTx): Promise<ReceiptView> => {
    const byComet = await receiptOf(t.cometHash);
    const r = t.evmHash ? await receiptOf(t.evmHash) : byComet;
    assert.deepEqual(r, byComet, `${t.name}: the EVM hash and the CometBFT hash give the same receipt`);
    assert.equal(r.cosmosHash, t.cometHash);
    if (t.evmHash) assert.equal(r.evmHash, t.evmHash);
    assert.equal(r.height, t.height);
    assert.equal(r.parentHeight, (BigInt(t.height) - 1n).toString());
    // No remainder anywhere. Module accounts (fee collector, pools, distribution) are not read by
    // design (every block moves them): their changes are the causes' sums, unmeasured.
    const modules = new Set([FEE_COLLECTOR, BONDED_POOL, NOT_BONDED_POOL, DISTRIBUTION]);
    assert.deepEqual(
      r.changes.filter((c) => c.status === 'unexplained' || (c.status === 'unmeasured' && !modules.has(c.bech32))),
      [],
      `${t.name}: ${r.summary}`,
    );
    assert.ok(r.changes.filter((c) => c.status === 'explained').length > 0);
    for (const c of r.changes.filter((x) => x.status === 'unmeasured')) assert.match(c.why ?? '', /module account is not read/);
    assert.match(r.summary, /^Every balance change is explained: /);
    assert.equal(r.coverage, undefined);
    assert.equal(r.logCopies, t.evm ? t.evm.receipt.logs.length : 0);
    // The state the receipt read at N−1 and N is what the test read.
    const mine = account(t, s.dev0.bech32);
    const acc = r.accounts.find((a) => a.account === s.dev0.hex);
    assert.ok(acc, `${t.name}: dev0 among the receipt's accounts`);
    assert.equal(acc.before?.evmBalance, BigInt(mine.before.evmBalance).toString());
    assert.equal(acc.after?.evmBalance, BigInt(mine.after.evmBalance).toString());
    return r;
  };

  it('receipt of the first delegation: by either hash, fee, refund and delegation explain the change the test measured', async () => {
    const t = tx('delegate');
    const r = await bothHashes(t);
    const { fee, refund } = feeAndRefund(t, s.dev0.bech32);
    assert.equal(receiptChange(r, s.dev0.hex), change(t, s.dev0.bech32));
    assert.equal(causeAmount(r, 'fee', s.dev0.hex), -fee);
    assert.equal(causeAmount(r, 'refund', s.dev0.hex), refund);
    assert.equal(causeAmount(r, 'delegate', s.dev0.hex), -TOKEN);
    assert.equal(r.causes.filter((c) => c.kind === 'withdrawRewards').length, 0);
    assert.equal(r.causes.find((c) => c.kind === 'delegate')?.origin?.precompile?.toLowerCase(), STAKING_PRECOMPILE);
  });

  it('receipt of the second delegation: the rewards withdrawn automatically, in words, and the whole change explained', async () => {
    const t = tx('delegate-again');
    const r = await bothHashes(t);
    const rewards = coin(attr(one(t, 'withdraw_rewards'), 'amount') as string);
    assert.equal(receiptChange(r, s.dev0.hex), change(t, s.dev0.bech32));
    assert.equal(causeAmount(r, 'withdrawRewards', s.dev0.hex), rewards);
    const w = r.causes.find((c) => c.kind === 'withdrawRewards');
    assert.match(w?.sentence ?? '', /automatic/i);
    assert.ok(w?.sentence.includes(s.valoper), w?.sentence);
    // The fee and the refund listed again at twice the amount are recognised as echoes, not counted.
    assert.ok(r.events.filter((e) => e.echo).length >= 2, JSON.stringify(r.events.filter((e) => e.echo)));
  });

  it('the second delegation on a provider without REST (EVM RPC and CometBFT only): state read through the precompile views and abci_query, the same changes', async () => {
    const t = tx('delegate-again');
    const withRest = await receiptOf(t.evmHash!);
    forgetContext();
    const noRest: Provider = { name: 'real evmd without REST', endpoints: { evmRpc: s.node.evmRpc, consensusHttp: s.node.cometHttp } };
    const l = await lookUp(executeSource(noRest, runner.options()), t.evmHash!, { receipt: true });
    assert.equal(l.kind, 'tx');
    const r = (l as Extract<typeof l, { kind: 'tx' }>).receipt;
    assert.ok(r, JSON.stringify(l.notes));
    // The display units come from the bank's metadata (REST): without REST the amounts are in base units, the same.
    const amounts = (v: ReceiptView) => JSON.parse(JSON.stringify(v.changes, (k, x) => (/display$/i.test(k) ? undefined : x)));
    assert.deepEqual(amounts(r), amounts(withRest), `${r.summary} vs ${withRest.summary}`);
    assert.match(r.summary, /^Every balance change is explained: /);
    const mine = r.accounts.find((a) => a.account === s.dev0.hex);
    const theirs = withRest.accounts.find((a) => a.account === s.dev0.hex);
    assert.equal(theirs?.before?.readThrough, 'read through: REST');
    for (const side of ['before', 'after'] as const) {
      assert.equal(
        mine?.[side]?.readThrough,
        'read through: abci_query (EVM denom, bank balances, fraction, rewards, unbondings, redelegations), precompile views (delegations)',
      );
      assert.deepEqual(mine?.[side]?.balances, theirs?.[side]?.balances);
      assert.deepEqual(mine?.[side]?.delegations, theirs?.[side]?.delegations);
      assert.deepEqual(mine?.[side]?.rewards, theirs?.[side]?.rewards);
      assert.equal(mine?.[side]?.evmBalance, theirs?.[side]?.evmBalance);
    }
    assert.ok(renderLookup(l).includes('read through: abci_query'));
  });

  it('receipt of the undelegation: rewards withdrawn and the unbonding, explained', async () => {
    const t = tx('undelegate');
    const r = await bothHashes(t);
    assert.equal(receiptChange(r, s.dev0.hex), change(t, s.dev0.bech32));
    assert.equal(causeAmount(r, 'withdrawRewards', s.dev0.hex), coin(attr(one(t, 'withdraw_rewards'), 'amount') as string));
    assert.equal(r.causes.filter((c) => c.kind === 'unbond').length, 1);
    const acc = r.accounts.find((a) => a.account === s.dev0.hex);
    assert.equal(acc?.after?.unbondings?.length, 1);
    assert.equal(acc?.before?.unbondings?.length ?? 0, 0);
  });

  it('receipt of the ERC-20 transfer: the sender and the recipient, each change explained', async () => {
    const t = tx('erc20-transfer');
    const r = await bothHashes(t);
    assert.equal(receiptChange(r, s.dev0.hex), change(t, s.dev0.bech32));
    assert.equal(receiptChange(r, s.recipient.hex), change(t, s.recipient.bech32));
    assert.equal(receiptChange(r, s.recipient.hex), 2n * TOKEN);
  });

  it('receipt of the Cosmos bank send: no EVM side, the fee and the send explain both changes', async () => {
    const t = tx('bank-send');
    const r = await bothHashes(t);
    const { fee } = feeAndRefund(t, s.dev0.bech32);
    assert.equal(r.evmHash, undefined);
    assert.equal(receiptChange(r, s.dev0.hex), -3n * TOKEN - fee);
    assert.equal(receiptChange(r, s.recipient.hex), 3n * TOKEN);
    assert.equal(causeAmount(r, 'fee', s.dev0.hex), -fee);
  });

  it('a contract delegating its own funds (inner CALL to the precompile): the contract pays the 1 TEST, dev0 the gas; its receipt explains both', async () => {
    const t = tx('contract-delegate');
    const { fee, refund } = feeAndRefund(t, s.dev0.bech32);
    const contract = toBech32(s.contract);
    const d = one(t, 'delegate');
    assert.equal(attr(d, 'delegator'), contract);
    assert.equal(coin(attr(d, 'amount') as string), TOKEN);
    assert.equal(change(t, contract), -TOKEN);
    assert.equal(change(t, s.dev0.bech32), -fee + refund);
    const a = account(t, contract);
    assert.equal(delegatedTo(a.after.delegations, s.valoper), TOKEN);
    const r = await bothHashes(t);
    assert.equal(receiptChange(r, s.contract), -TOKEN);
    assert.equal(receiptChange(r, s.dev0.hex), -fee + refund);
    const del = r.causes.find((c) => c.kind === 'delegate');
    assert.equal(del?.origin?.precompile?.toLowerCase(), STAKING_PRECOMPILE);
    assert.ok((del?.origin?.frame ?? 0) >= 1, `the delegation under the inner frame: ${JSON.stringify(del?.origin)}`);
  });
});
