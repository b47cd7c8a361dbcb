// The two-layer receipt (issue #35, core/explorer/receipt/) on real evmd v0.3.2 answers recorded by
// test/real/recordEvmdReceipt.ts: every balance change equals its causes (the fee and refund that the
// events list twice counted once), the automatic withdrawal of rewards said in words under the staking
// precompile's frame, tx_log recognised as copies of the EVM logs (and the v0.5 shape without them), a
// plain bank send, a pruned N−1 naming a provider that keeps it, a failed read leaving the rest, and a
// movement no event explains flagged with its amount.

import * as assert from 'node:assert/strict';
import { forgetContext } from '../../../../../src/core/explorer/context';
import { lookUp } from '../../../../../src/core/explorer/lookup';
import { renderLookup } from '../../../../../src/core/explorer/render';
import { changesByAccount, denomsNamed, RECEIPT_STATE_REQUESTS } from '../../../../../src/core/explorer/receipt/receipt';
import type { ReceiptView } from '../../../../../src/core/explorer/receipt/types';
import { MAX_STATE_REQUESTS } from '../../../../../src/core/explorer/source';
import type { LookupResult } from '../../../../../src/core/explorer/views';
import { type FakeOptions, receiptFixture, receiptSource } from './receiptSource';

const DEV0 = '0xc6fe5d33615a1c52c08018c47e8bc53646a0e101';
const DEV0_B32 = 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm';
const VALOPER = 'cosmosvaloper10jmp6sgh4cc6zt3e8gw05wavvejgr5pw4xyrql';

type Json = Record<string, any>;

async function receiptOf(name: string, o: FakeOptions = {}, by: 'evm' | 'cosmos' = 'evm', archiveElsewhere?: string) {
  const fx = receiptFixture(name);
  const src = receiptSource(fx, o);
  const query = by === 'evm' ? (fx.evmHash as string) : (fx.cometHash as string);
  const r = await lookUp({ ...src, ...(archiveElsewhere ? { contracts: { registry: undefined as never, archiveElsewhere } } : {}) }, query, { receipt: true });
  assert.equal(r.kind, 'tx', `not a tx: ${JSON.stringify(r).slice(0, 300)}`);
  const receipt = (r as Extract<LookupResult, { kind: 'tx' }>).receipt;
  assert.ok(receipt, `no receipt; notes: ${r.notes.join('; ')}`);
  return { fx, src, r, receipt };
}

/** The balance (bank atest) of a recorded account at N−1 and N. */
function measured(fx: Json, bech32: string): bigint {
  const a = (fx.accounts as Json[]).find((x) => x.bech32 === bech32)!;
  const amt = (s: Json) => BigInt((s.bank.balances as Json[]).find((c) => c.denom === 'atest')?.amount ?? '0');
  return amt(a.after) - amt(a.before);
}

function change(r: ReceiptView, account: string, denom = 'atest') {
  return r.changes.find((c) => (c.account === account || c.bech32 === account) && c.denom === denom);
}

function txFee(fx: Json): bigint {
  const e = (fx.cometbft.tx.result.tx_result.events as Json[]).find((x) => x.type === 'tx' && x.attributes.some((a: Json) => a.key === 'fee'))!;
  return BigInt(/^(\d+)/.exec(e.attributes.find((a: Json) => a.key === 'fee').value as string)![1]);
}

describe('explorer: the two-layer receipt (#35)', () => {
  beforeEach(() => forgetContext());

  it('a second delegation: rewards − delegated − fee + refund = the measured change, with the events` doubled fee and refund not counted', async () => {
    const { fx, receipt } = await receiptOf('delegate-again', { metadata: true });
    const c = change(receipt, DEV0)!;
    assert.equal(c.status, 'explained', JSON.stringify(c));
    assert.equal(BigInt(c.measured!), measured(fx, DEV0_B32));
    const kinds = c.parts.map((p) => receipt.causes[p.cause].kind).sort();
    assert.deepEqual(kinds, ['delegate', 'fee', 'refund', 'withdrawRewards']);
    const part = (k: string) => BigInt(c.parts.find((p) => receipt.causes[p.cause].kind === k)!.amount);
    assert.equal(part('fee'), -txFee(fx));
    assert.equal(part('delegate'), -1000000000000000000n);
    assert.equal(part('withdrawRewards'), 14519171555131889n);
    assert.equal(part('refund'), 38675641018821n);
    // The doubled entries (2× fee, 2× refund) are marked, never counted.
    const echoes = receipt.events.filter((e) => e.type === 'transfer' && e.echo);
    assert.equal(echoes.length, 2);
    assert.deepEqual(
      echoes.map((e) => e.attributes.find((a) => a.key === 'amount')!.value),
      [`${2n * txFee(fx)}atest`, `${2n * 38675641018821n}atest`],
    );
    assert.match(receipt.summary, /^Every balance change is explained/);
    // In words, under the staking precompile's frame, with the chain's display units.
    const w = receipt.causes.find((x) => x.kind === 'withdrawRewards')!;
    assert.equal(w.sentence, `rewards of 0.014519171555131889 test withdrawn automatically because the delegation to ${VALOPER} changed`);
    assert.equal(w.origin?.precompile, '0x0000000000000000000000000000000000000800');
    assert.equal(w.origin?.precompileName, 'staking');
    assert.equal(w.origin?.frame, 0);
    assert.equal(receipt.causes.find((x) => x.kind === 'delegate')!.origin?.precompileName, 'staking');
    // The fee is tx.fee (what was charged), the stated gas limit × max fee named as not charged.
    assert.match(receipt.causes.find((x) => x.kind === 'fee')!.sentence, /not what was charged/);
    // The validator (named by the events) and the delegator, in both forms.
    const acc = receipt.accounts.find((a) => a.account === DEV0)!;
    assert.equal(acc.bech32, DEV0_B32);
    assert.ok(acc.roles.includes('delegator') && acc.roles.includes('fee payer'));
    assert.ok(receipt.accounts.some((a) => a.roles.includes('validator')));
    assert.equal(acc.before?.delegations?.length, 1);
    assert.equal(acc.after?.delegations?.[0]?.amount, '2000000000000000000');
    // Both hashes; the changes keyed for query files by both forms.
    assert.equal(receipt.evmHash, fx.evmHash);
    assert.equal(receipt.cosmosHash, fx.cometHash);
    assert.equal(receipt.parentHeight, String(BigInt(fx.height) - 1n));
    assert.equal(changesByAccount(receipt)[DEV0].atest, String(measured(fx, DEV0_B32)));
    assert.equal(changesByAccount(receipt)[DEV0_B32].atest, String(measured(fx, DEV0_B32)));
  });

  it('looked up by its CometBFT hash: the same receipt, the EVM hash shown', async () => {
    const byEvm = (await receiptOf('delegate-again')).receipt;
    forgetContext();
    const { receipt, r } = await receiptOf('delegate-again', {}, 'cosmos');
    assert.equal(receipt.evmHash, byEvm.evmHash);
    assert.deepEqual(receipt.changes, byEvm.changes);
    const doc = renderLookup(r);
    assert.ok(doc.includes(`\`${byEvm.evmHash}\``));
  });

  it('every recorded transaction: each account read at N−1 and N is fully explained', async () => {
    for (const name of ['delegate', 'delegate-again', 'undelegate', 'erc20-transfer', 'bank-send', 'contract-delegate']) {
      forgetContext();
      const { fx, receipt } = await receiptOf(name, {}, name === 'bank-send' ? 'cosmos' : 'evm');
      const read = receipt.changes.filter((c) => c.status !== 'unmeasured');
      assert.ok(read.length > 0, name);
      for (const c of read) assert.equal(c.status, 'explained', `${name}: ${JSON.stringify(c)}`);
      assert.equal(BigInt(change(receipt, DEV0)!.measured!), measured(fx, DEV0_B32), name);
      assert.match(receipt.summary, /^Every balance change is explained/, name);
    }
  });

  it('an ERC-20 transfer of the native token: its bank transfer (listed again at twice the amount) counted once, from the called contract', async () => {
    const { receipt } = await receiptOf('erc20-transfer');
    const t = receipt.causes.filter((c) => c.kind === 'bankTransfer');
    assert.equal(t.length, 1);
    assert.equal(t[0].moves.find((m) => m.account === DEV0)?.amount, '-2000000000000000000');
    assert.equal(t[0].origin?.precompile, '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee');
    assert.ok(receipt.events.some((e) => e.echo?.includes('twice its amount')));
    assert.equal(change(receipt, '0x00000000000000000000000000000000000c0ffe')?.measured, '2000000000000000000');
  });

  it('a contract delegating its own funds: the delegation under the inner staking frame, the contract`s change explained', async () => {
    const { receipt } = await receiptOf('contract-delegate');
    const d = receipt.causes.find((c) => c.kind === 'delegate')!;
    assert.equal(d.origin?.precompileName, 'staking');
    assert.ok((d.origin?.frame ?? 0) > 0, `frame ${d.origin?.frame}`);
    const contract = d.moves.find((m) => m.amount.startsWith('-'))!.account;
    assert.notEqual(contract, DEV0);
    assert.equal(change(receipt, contract)?.status, 'explained');
    assert.equal(change(receipt, contract)?.measured, '-1000000000000000000');
    assert.ok(receipt.accounts.find((a) => a.account === contract)?.roles.includes('contract in the trace'));
    assert.match(receipt.summary, /^Every balance change is explained/);
  });

  it('an undelegation: rewards withdrawn, the unbonding entry paid later, the pools moved', async () => {
    const { receipt } = await receiptOf('undelegate');
    const u = receipt.causes.find((c) => c.kind === 'unbond')!;
    assert.match(u.sentence, /unbonding from cosmosvaloper1.*not in this transaction/);
    assert.ok(!u.moves.some((m) => m.account === DEV0), 'the delegator`s balance does not move on unbond');
    assert.equal(change(receipt, DEV0)?.status, 'explained');
  });

  it('tx_log events (v0.3.x) are recognised as the EVM logs they copy; the v0.5 shape has none and the same changes', async () => {
    const v03 = (await receiptOf('delegate-again')).receipt;
    assert.equal(v03.logCopies, 1);
    const copy = v03.events.find((e) => e.type === 'tx_log')!;
    assert.equal(copy.copyOfLog, 0);
    forgetContext();
    const { receipt: v05, r } = await receiptOf('delegate-again', { v05: true });
    assert.equal(v05.logCopies, 0);
    assert.ok(!v05.events.some((e) => e.type === 'tx_log'));
    assert.deepEqual(
      v05.changes.map((c) => [c.account, c.measured, c.status]),
      v03.changes.map((c) => [c.account, c.measured, c.status]),
    );
    assert.ok(renderLookup(r).length > 0);
  });

  it('the document shows the tx_log copy once, as a copy, not its JSON again', async () => {
    const { r } = await receiptOf('delegate-again');
    const doc = renderLookup(r);
    assert.match(doc, /tx_log · copy of EVM log 0/);
    assert.ok(!doc.includes('txLog='), 'the tx_log JSON is not shown');
    assert.match(doc, /\*\*Every balance change is explained/);
  });

  it('a plain Cosmos bank send: the fee (with its payer) and the transfer explain both accounts', async () => {
    const { fx, receipt } = await receiptOf('bank-send', {}, 'cosmos');
    assert.equal(receipt.evmHash, undefined);
    const c = change(receipt, DEV0)!;
    assert.equal(c.status, 'explained');
    assert.equal(BigInt(c.measured!), -txFee(fx) - 3000000000000000000n);
    assert.equal(change(receipt, 'cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqcrl7v3q22f')?.measured, '3000000000000000000');
    assert.ok(!receipt.causes.some((x) => x.kind === 'refund'));
  });

  it('N−1 pruned on this provider: said, with a provider of the same network that keeps it, the causes still shown', async () => {
    const fx = receiptFixture('delegate-again');
    const parent = String(BigInt(fx.height) - 1n);
    const { receipt, r } = await receiptOf('delegate-again', { pruned: [parent] }, 'evm', 'evmd-archive');
    assert.match(receipt.coverage ?? '', new RegExp(`Height ${parent} is pruned on evmd-receipt`));
    assert.match(receipt.coverage ?? '', /evmd-archive, a provider of the same network, keeps old states/);
    assert.equal(change(receipt, DEV0)?.status, 'unmeasured');
    assert.match(change(receipt, DEV0)?.why ?? '', /pruned/);
    assert.ok(receipt.causes.some((c) => c.kind === 'withdrawRewards'));
    assert.doesNotMatch(receipt.summary, /Every balance change is explained/);
    assert.match(renderLookup(r), /Coverage: Height/);
    // Without a known archive provider: said so.
    forgetContext();
    const bare = (await receiptOf('delegate-again', { pruned: [parent] })).receipt;
    assert.match(bare.coverage ?? '', /No provider of the same network is known to keep old states/);
  });

  it('a failed read leaves the rest: the account is unmeasured with the reason, the others are measured', async () => {
    const { receipt } = await receiptOf('bank-send', { failBalancesOf: DEV0_B32 }, 'cosmos');
    const c = change(receipt, DEV0)!;
    // The EVM view of atest is still read: the change is measured through eth_getBalance.
    assert.equal(c.status, 'explained');
    assert.equal(change(receipt, 'cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqcrl7v3q22f')?.status, 'explained');
    const acc = receipt.accounts.find((a) => a.account === DEV0)!;
    assert.ok(acc.after?.missing.some((m) => /bank balances: .*503/.test(m)));
    // Without the EVM RPC too: unmeasured, the reason said.
    forgetContext();
    const noEvm = (await receiptOf('bank-send', { failBalancesOf: DEV0_B32, has: { evm: false } }, 'cosmos')).receipt;
    assert.equal(change(noEvm, DEV0)?.status, 'unmeasured');
    assert.match(change(noEvm, DEV0)?.why ?? '', /503/);
    assert.equal(change(noEvm, 'cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqcrl7v3q22f')?.status, 'explained');
  });

  it('a movement no event explains is flagged as unexplained with its amount', async () => {
    const { receipt, r } = await receiptOf('delegate-again', { extraAfter: { [DEV0_B32]: 7n } });
    const c = change(receipt, DEV0)!;
    assert.equal(c.status, 'unexplained');
    assert.equal(c.unexplained, '7');
    assert.match(receipt.summary, /1 balance change\(s\) not fully explained/);
    assert.match(renderLookup(r), /\*\*unexplained\*\* `?\+7`? atest/);
  });

  it('state reads are bounded and counted apart from the lookup`s own requests', async () => {
    const { src, receipt } = await receiptOf('undelegate');
    assert.ok(receipt.accounts.length <= 8);
    assert.ok(src.stateAsked <= RECEIPT_STATE_REQUESTS, `${src.stateAsked}`);
    assert.ok(RECEIPT_STATE_REQUESTS <= MAX_STATE_REQUESTS);
    // Module accounts are never read: every block moves them.
    assert.ok(!src.asked.some((a) => a.includes('cosmos17xpfvakm2amg962yls6f84z3kell8c5lserqta')));
    assert.ok(receipt.notes.some((n) => /Module accounts/.test(n)));
  });

  it('server text in events never becomes markup', async () => {
    const fx = receiptFixture('bank-send');
    const events = fx.cometbft.tx.result.tx_result.events as Json[];
    events.push({ type: 'message', attributes: [{ key: 'memo', value: '[click](https://evil.example) <img src=x>', index: true }] });
    const src = receiptSource(fx);
    const r = await lookUp(src, fx.cometHash as string, { receipt: true });
    const doc = renderLookup(r);
    assert.ok(doc.includes('`[click](https://evil.example) <img src=x>`'));
    const outsideCode = doc.replace(/(`+)[\s\S]*?\1/g, '');
    assert.ok(!outsideCode.includes('<img') && !outsideCode.includes('](https'), outsideCode);
  });
});

describe('receipt: the denoms its events name', () => {
  it('amount and fee lists, in order; a 1 MB run of digits is no list (its pattern backtracked from every start, for minutes)', () => {
    const ev = (key: string, value: string) => ({ type: 'transfer', attributes: [{ key, value }] });
    assert.deepEqual(
      [...denomsNamed([ev('amount', '100atest,5uatom'), ev('fee', '7ibc/ABC'), ev('sender', '9zzz')], ['atest'])],
      ['atest', 'uatom', 'ibc/ABC'],
    );
    assert.deepEqual([...denomsNamed([ev('amount', '9'.repeat(1 << 20)), ev('amount', `${'9'.repeat(40_000)}!`)], [])], []);
  });
});
