// State at a height (src/core/chain/state.ts) on the devnet's REST gateway and EVM RPC: every read
// at the header's height, each read independent, a pruned height said as such (never "no
// delegation"), a module the gateway lacks as a note, the concurrency cap, cancellation, and the
// reconciliation of bank(atest) with the EVM balance.
import * as assert from 'node:assert/strict';
import { EndpointError } from '../../../../src/core/base/errors';
import { type StateSource, STATE_CONCURRENCY, accountBytes, readAccountState, reconcile, stateHeight } from '../../../../src/core/chain/state';
import type { Provider } from '../../../../src/core/config/providers';
import { executeSource } from '../../../../src/core/explorer/source';
import { HttpClient } from '../../../../src/core/transport/http';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { bech32Encode } from '../../../devnet/encoding';
import { DEVNET_DELEGATION, DEVNET_REWARD_PER_BLOCK, DEVNET_UNBONDING } from '../../../devnet/restState';

describe('state at a height (core/chain/state)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  const provider = (i: number): Provider => {
    const { name, ...endpoints } = devnet.providers[i];
    return { name, endpoints };
  };
  const source = (i: number, signal?: AbortSignal): StateSource =>
    executeSource(provider(i), { http, timeoutMs: 10_000, maxBufferBytes: 4 * 1024 * 1024, signal });

  before(async () => {
    devnet = await startDevnet({
      blockIntervalMs: 100,
      providers: [
        { name: 'full' },
        { name: 'pruned', capabilities: { prunedBelow: 4n } },
        { name: 'no staking', capabilities: { restModulesOff: ['staking'] } },
      ],
    });
    http = new HttpClient();
    while (devnet.height() < 6n) await new Promise((r) => setTimeout(r, 30));
  });
  after(async () => {
    await devnet.stop();
    await http.close();
  });

  const alice = () => devnet.chain.ledger.keys[0].address;
  const bob = () => devnet.chain.ledger.keys[1].address;

  it('reads every part of an account at a height, 0x and bech32 alike', async () => {
    const hex = `0x${alice().toString('hex')}`;
    const s = await readAccountState(source(0), hex, { height: '5' });
    const viaBech32 = await readAccountState(source(0), bech32Encode('cosmos', alice()), { height: '5' });
    assert.equal(s.account, bech32Encode('cosmos', alice()));
    assert.equal(s.hex, hex);
    assert.equal(viaBech32.account, s.account);
    assert.equal(s.height, '5');
    const balance = devnet.chain.balanceOf(alice()).toString();
    assert.deepEqual(s.balances.value, [{ denom: 'atest', amount: balance }]);
    assert.equal(s.evmBalance.value, balance);
    assert.equal(s.evmDenom.value, 'atest');
    assert.equal(s.fractional.value, '0');
    const valoper0 = bech32Encode('cosmosvaloper', devnet.chain.validators[0].address);
    assert.deepEqual(s.delegations.value, [
      { validator: valoper0, shares: `${DEVNET_DELEGATION}.000000000000000000`, balance: { denom: 'atest', amount: DEVNET_DELEGATION.toString() } },
    ]);
    assert.deepEqual(s.rewards.value, [{ validator: valoper0, reward: [{ denom: 'atest', amount: `${5n * DEVNET_REWARD_PER_BLOCK}.000000000000000000` }] }]);
    assert.deepEqual(s.unbondings.value, []);
    assert.deepEqual(s.reconciliation, { denom: 'atest', bank: balance, fraction: '0', evm: balance, scale: '1', difference: '0', equal: true });
    assert.equal(s.coverage, undefined);
    assert.deepEqual(viaBech32.rewards, s.rewards);
    const viaOperator = await readAccountState(source(0), bech32Encode('cosmosvaloper', alice()), { height: '5' });
    assert.equal(viaOperator.account, s.account, "an operator address reads its account's state");
  });

  it('reads at the height asked: pending rewards differ between two heights', async () => {
    const addr = bech32Encode('cosmos', alice());
    const [a, b] = await Promise.all([readAccountState(source(0), addr, { height: '3' }), readAccountState(source(0), addr, { height: '6' })]);
    assert.equal(a.rewards.value?.[0].reward[0].amount, `${3n * DEVNET_REWARD_PER_BLOCK}.000000000000000000`);
    assert.equal(b.rewards.value?.[0].reward[0].amount, `${6n * DEVNET_REWARD_PER_BLOCK}.000000000000000000`);
  });

  it("lists an account's unbonding entries, and no delegation as an empty list (not a failure)", async () => {
    const s = await readAccountState(source(0), bech32Encode('cosmos', bob()), { height: '4' });
    assert.deepEqual(s.delegations, { value: [], via: 'REST' });
    assert.deepEqual(s.rewards, { value: [], via: 'REST' });
    assert.equal(s.unbondings.value?.length, 1);
    const e = s.unbondings.value![0];
    assert.equal(e.validator, bech32Encode('cosmosvaloper', devnet.chain.validators[1].address));
    assert.equal(e.balance, DEVNET_UNBONDING.toString());
    assert.match(e.completionTime, /^\d{4}-\d\d-\d\dT/);
  });

  it('says a pruned height is pruned on this provider, distinct from "no delegation"; a kept height reads', async () => {
    const addr = bech32Encode('cosmos', alice());
    const s = await readAccountState(source(1), addr, { height: '2' });
    for (const r of [s.balances, s.delegations, s.rewards, s.unbondings, s.fractional, s.evmDenom, s.evmBalance]) {
      assert.equal(r.pruned, true, JSON.stringify(r));
      assert.equal(r.value, undefined);
      assert.match(r.note ?? '', /height 2 is pruned on this provider/);
    }
    assert.match(s.coverage ?? '', /^Height 2 is pruned on this provider/);
    assert.equal(s.reconciliation, undefined);
    const kept = await readAccountState(source(1), addr, { height: '5' });
    assert.equal(kept.coverage, undefined);
    assert.equal(kept.delegations.value?.length, 1);
  });

  it('keeps the other reads when one module is not served (a note on that read)', async () => {
    const s = await readAccountState(source(2), bech32Encode('cosmos', alice()), { height: '5' });
    assert.equal(s.delegations.unavailable, true);
    assert.equal(s.unbondings.unavailable, true);
    assert.match(s.delegations.note ?? '', /^delegations: not served by this provider/);
    assert.equal(s.rewards.value?.length, 1);
    assert.equal(s.balances.value?.length, 1);
    assert.equal(s.reconciliation?.equal, true);
  });

  it('refuses a height past the tip as a note, not as pruned', async () => {
    const s = await readAccountState(source(0), bech32Encode('cosmos', alice()), { height: '999999' });
    assert.equal(s.delegations.pruned, undefined);
    assert.match(s.delegations.note ?? '', /height in the future/);
    assert.equal(s.coverage, undefined);
  });

  it('refuses a bad address or height before sending anything', async () => {
    let sent = 0;
    const fake: StateSource = { has: { rest: true, evm: true }, rest: async () => ++sent, evm: async () => ++sent };
    await assert.rejects(readAccountState(fake, 'cosmos1notanaddress'), /not a 0x or bech32 account address/);
    await assert.rejects(readAccountState(fake, `0x${'11'.repeat(20)}`, { height: '0' }), /not a block height/);
    await assert.rejects(readAccountState(fake, `0x${'11'.repeat(20)}`, { height: '12a' }), /not a block height/);
    assert.equal(sent, 0);
    assert.equal(stateHeight(' 0042 '), '42');
    assert.equal(Buffer.from(accountBytes(bech32Encode('cosmos', alice()))).toString('hex'), alice().toString('hex'));
  });

  it(`keeps at most ${STATE_CONCURRENCY} reads in flight, and passes the height to every REST read`, async () => {
    let inFlight = 0;
    let most = 0;
    const heights = new Set<string | undefined>();
    const slow = async (): Promise<unknown> => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      throw new Error('unavailable');
    };
    const fake: StateSource = {
      has: { rest: true, evm: true },
      rest: (_p, h) => (heights.add(h), slow()),
      evm: slow,
    };
    const s = await readAccountState(fake, `0x${'11'.repeat(20)}`, { height: '7' });
    assert.equal(most, STATE_CONCURRENCY);
    assert.deepEqual([...heights], ['7']);
    assert.equal(s.balances.note, 'bank balances: unavailable');
  });

  it('stops at cancellation: the whole read rejects', async () => {
    const ctrl = new AbortController();
    const s = source(0, ctrl.signal);
    ctrl.abort();
    await assert.rejects(
      readAccountState(s, bech32Encode('cosmos', alice()), { height: '5' }),
      (e: unknown) => e instanceof EndpointError && e.kind === 'cancelled',
    );
  });

  /** A provider answering every read (an account holding 5 atest, no stake), `over` answering first. */
  const fake = (over: { rest?: (path: string) => unknown; evm?: () => unknown } = {}): StateSource => ({
    has: { rest: true, evm: true },
    rest: async (path) => {
      const r = over.rest?.(path);
      if (r instanceof Error) throw r;
      if (r !== undefined) return r;
      if (path.startsWith('/cosmos/evm/vm/v1/params')) return { params: { evm_denom: 'atest' } };
      if (path.includes('/bank/v1beta1/balances/')) return { balances: [{ denom: 'atest', amount: '5' }], pagination: { next_key: null } };
      if (path.includes('/fractional_balance/')) return { fractional_balance: { denom: 'atest', amount: '0' } };
      if (path.includes('/rewards')) return { rewards: [] };
      const list = ['delegation_responses', 'unbonding_responses', 'redelegation_responses'].find((f) => path.includes(f.split('_')[0]));
      return { [list ?? 'delegation_responses']: [], pagination: {} };
    },
    evm: async () => over.evm?.() ?? '0x5',
  });
  const someone = `0x${'11'.repeat(20)}`;
  const delegation = (v: string) => ({ delegation: { validator_address: v, shares: '10' }, balance: { denom: 'atest', amount: '10' } });

  it('REST pagination that does not advance (the same next_key forever, a cycle, a node ignoring the key) reads each page once, said partial', async () => {
    for (const [name, page] of [
      ['the same next_key forever', (key: string | null) => ({ delegation_responses: [delegation(`v${key ?? ''}`)], pagination: { next_key: 'QQ==' } })],
      [
        'a cycle',
        (key: string | null) => ({ delegation_responses: [delegation(`v${key ?? ''}`)], pagination: { next_key: key === 'QQ==' ? 'Qg==' : 'QQ==' } }),
      ],
      ['a node ignoring the key', () => ({ delegation_responses: [delegation('v')], pagination: { next_key: 'QQ==' } })],
    ] as const) {
      let asked = 0;
      const s = await readAccountState(
        fake({
          rest: (path) => {
            if (!path.includes('/staking/v1beta1/delegations/')) return undefined;
            asked++;
            return page(new URLSearchParams(path.split('?')[1]).get('pagination.key'));
          },
        }),
        someone,
        { height: '7' },
      );
      const validators = s.delegations.value?.map((d) => d.validator);
      assert.equal(new Set(validators).size, validators?.length, `${name}: ${JSON.stringify(validators)}`);
      assert.equal(s.delegations.truncated, true, name);
      assert.match(s.delegations.note ?? '', /pagination does not advance/, name);
      assert.ok(asked <= 3, `${name}: ${asked} pages asked`);
    }
  });

  it('a REST page of 1,000,000 entries gives the 100 asked, said partial', async () => {
    const many = Array.from({ length: 1_000_000 }, (_, i) => ({ denom: `d${i}`, amount: '1' }));
    const s = await readAccountState(
      fake({ rest: (p) => (p.includes('/bank/') ? { balances: many, pagination: { next_key: 'QQ==' } } : undefined) }),
      someone,
      {
        height: '7',
      },
    );
    assert.equal(s.balances.value?.length, 100);
    assert.equal(s.balances.truncated, true);
    assert.equal(s.balances.note, 'bank balances: only the first 100 read');
    // atest is not among the 100 read: no reconciliation that takes its bank amount for 0.
    assert.equal(s.reconciliation, undefined);
    assert.equal(s.unreconciled, 'not made: the bank balances were read in part and atest is not among them');
  });

  it("an unbonding answer of 1,000,000 entries under one validator gives a page's 100, said partial", async () => {
    const entries = Array.from({ length: 1_000_000 }, (_, i) => ({
      creation_height: String(i + 1),
      completion_time: '2030-01-01T00:00:00Z',
      initial_balance: '1',
      balance: '1',
    }));
    const s = await readAccountState(
      fake({
        rest: (p) =>
          p.includes('unbonding_delegations')
            ? { unbonding_responses: [{ delegator_address: someone, validator_address: 'cosmosvaloper1x', entries }], pagination: { next_key: null } }
            : p.includes('/redelegations')
              ? { redelegation_responses: [{ redelegation: { validator_src_address: 'a', validator_dst_address: 'b' }, entries }], pagination: {} }
              : undefined,
      }),
      someone,
      { height: '7' },
    );
    assert.equal(s.unbondings.value?.length, 100);
    assert.equal(s.unbondings.value?.[99].creationHeight, '100');
    assert.equal(s.unbondings.truncated, true);
    assert.equal(s.unbondings.note, 'unbonding delegations: only the first 100 read');
    assert.equal(s.redelegations.value?.length, 100);
    assert.equal(s.redelegations.truncated, true);
  });

  it('says it cannot reconcile rather than show a difference that is not there', async () => {
    // The EVM denom's amount is a 1 MB number: left out, and said; never taken for 0 (a "difference" of 5).
    let s = await readAccountState(
      fake({ rest: (p) => (p.includes('/bank/') ? { balances: [{ denom: 'atest', amount: '1'.repeat(1 << 20) }] } : undefined) }),
      someone,
    );
    assert.deepEqual(s.balances.value, []);
    assert.equal(s.balances.note, 'bank balances: 1 entry left out (a denom or an amount that is not one: atest)');
    assert.equal(s.reconciliation, undefined);
    assert.equal(s.unreconciled, "not made: the bank's atest amount is not a number");
    // The fraction read failed (429) on a 6-decimal denom extended by precise-bank: it may be the difference.
    const evm = `0x${(5n * 10n ** 12n + 7n).toString(16)}`;
    s = await readAccountState(
      fake({ rest: (p) => (p.includes('fractional') ? new Error('HTTP 429 Too Many Requests') : undefined), evm: () => evm }),
      someone,
    );
    assert.equal(s.reconciliation, undefined);
    assert.equal(s.unreconciled, 'not made: the precise-bank fraction was not read');
    // Without the fraction, an agreement is still an agreement.
    s = await readAccountState(fake({ rest: (p) => (p.includes('fractional') ? new Error('HTTP 429 Too Many Requests') : undefined) }), someone);
    assert.equal(s.reconciliation?.equal, true);
    assert.equal(s.unreconciled, undefined);
    // atest twice with two amounts.
    s = await readAccountState(
      fake({
        rest: (p) =>
          p.includes('/bank/')
            ? {
                balances: [
                  { denom: 'atest', amount: '5' },
                  { denom: 'atest', amount: '4' },
                ],
              }
            : undefined,
      }),
      someone,
    );
    assert.equal(s.unreconciled, 'not made: the bank lists atest more than once, with different amounts');
    // The EVM balance not read.
    s = await readAccountState(fake({ evm: () => '<html>' }), someone);
    assert.equal(s.unreconciled, 'not made: the EVM balance was not read');
  });

  it('reconciles bank × scale + fraction with the EVM balance, or shows the difference', () => {
    // A 6-decimal denom extended to 18 by precise-bank.
    assert.deepEqual(reconcile('uatom', [{ denom: 'uatom', amount: '5' }], '123', '5000000000123'), {
      denom: 'uatom',
      bank: '5',
      fraction: '123',
      evm: '5000000000123',
      scale: '1000000000000',
      difference: '0',
      equal: true,
    });
    const off = reconcile('atest', [{ denom: 'atest', amount: '100' }], '0', '90');
    assert.equal(off?.equal, false);
    assert.equal(off?.difference, '-10');
    assert.equal(reconcile('atest', [], undefined, '0')?.equal, true);
    assert.equal(reconcile(undefined, [], '0', '0'), undefined);
  });
});
