// State at a height through the other interfaces (src/core/chain/stateVia.ts, chosen per read by
// state.ts): real evmd answers recorded by test/real/stateViaEvmd.real.test.ts (test/fixtures/evmd/state/)
// replayed through REST, the precompiles' views alone and abci_query alone (the three agree, each read
// says its interface), REST falling back per read, a pruned height said as pruned on every path, and
// hostile answers (garbage ABI returns, a wrong length, HTML, a kvstore app's abci_query, another
// height, bad protobuf) as notes on their read, never as "none". The cap of reads in flight and
// cancellation hold on the new paths.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { type Abi, type AbiFunction, encodeAbiParameters, encodeFunctionResult, toFunctionSelector } from 'viem';
import { QueryDelegatorDelegationsResponse } from 'cosmjs-types/cosmos/staking/v1beta1/query';
import { EndpointError } from '../../../../src/core/base/errors';
import { type StateSource, STATE_CONCURRENCY, isStateCall, readAccountState, readThrough } from '../../../../src/core/chain/state';
import { STATE_MAX_VALIDATORS, STATE_VIEWS_ABI, type StateCometCall, decText, timestampText } from '../../../../src/core/chain/stateVia';

type Json = any;
const FIXTURES = path.join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'evmd', 'state');
const recorded = JSON.parse(readFileSync(path.join(FIXTURES, 'exchanges.json'), 'utf8')) as {
  dev0: { bech32: string; hex: string };
  validator: string;
  heights: { before: string; after: string };
  exchanges: Record<string, Array<{ request: Json; result?: unknown; error?: string }>>;
};
const pruned = JSON.parse(readFileSync(path.join(FIXTURES, 'pruned.json'), 'utf8')) as {
  dev0: { bech32: string; hex: string };
  height: string;
  answers: Record<string, Array<{ request: Json; result?: unknown; error?: string }>>;
};

const restKey = (p: string, h?: string) => `rest ${p} @${h ?? ''}`;
const evmKey = (m: string, p: readonly unknown[]) => `evm ${JSON.stringify([m, ...p])}`;
const cometKey = (c: Readonly<Record<string, unknown>>) => `comet ${JSON.stringify(c)}`;

/** A source answering from recorded exchanges (all of `labels`), with the interfaces `has`; an unknown request fails the test. */
function replay(
  lists: ReadonlyArray<ReadonlyArray<{ request: Json; result?: unknown; error?: string }>>,
  has: { rest: boolean; evm: boolean; comet: boolean },
  seen: string[] = [],
): StateSource {
  const map = new Map<string, { result?: unknown; error?: string }>();
  for (const list of lists)
    for (const e of list) {
      const r = e.request;
      const key = r.rest !== undefined ? restKey(r.rest, r.height) : r.evm ? evmKey(r.evm[0], r.evm.slice(1)) : cometKey(r.comet);
      map.set(key, e);
    }
  const answer = async (key: string) => {
    seen.push(key);
    const e = map.get(key);
    if (!e) throw new Error(`not recorded: ${key}`);
    if (e.error !== undefined) throw new Error(e.error);
    return e.result;
  };
  return {
    has,
    rest: (p, h) => answer(restKey(p, h)),
    evm: (m, p) => answer(evmKey(m, p)),
    comet: (c: StateCometCall) => answer(cometKey(c.json)),
  };
}
const REST = { rest: true, evm: true, comet: false };
const VIEWS = { rest: false, evm: true, comet: false };
const ABCI = { rest: false, evm: false, comet: true };
const ex = (key: string) => recorded.exchanges[key];
const whole = (s: string) => s.replace(/\..*$/, '');

describe('state at a height through precompile views and abci_query (core/chain/stateVia)', () => {
  const dev0 = recorded.dev0;
  const h = recorded.heights.after;

  it("replays evmd's answers: REST, the precompile views alone and abci_query alone read the same state, each saying its interface", async () => {
    for (const [who, key, height] of [
      [dev0.hex, 'dev0-after', h],
      [dev0.bech32, 'dev0-before', recorded.heights.before],
      [dev0.hex, 'validator-after', h],
    ] as const) {
      const account =
        key === 'validator-after'
          ? ex(`${key}/rest`)
              .map((e) => String(e.request.rest ?? '').match(/cosmos1[0-9a-z]{38}/)?.[0])
              .find(Boolean)
          : who;
      const seen: string[] = [];
      const rest = await readAccountState(replay([ex(`${key}/rest`)], REST), account!, { height });
      const views = await readAccountState(replay([ex(`${key}/views`)], VIEWS, seen), account!, { height });
      const abci = await readAccountState(replay([ex(`${key}/abci`)], ABCI), account!, { height });
      assert.equal(rest.readThrough, 'read through: REST');
      assert.equal(views.readThrough, 'read through: precompile views');
      assert.equal(abci.readThrough, 'read through: abci_query');
      assert.ok(rest.delegations.value);
      assert.deepEqual(views.delegations, { value: rest.delegations.value, via: 'precompile views' });
      assert.deepEqual(abci.delegations, { value: rest.delegations.value, via: 'abci_query' });
      assert.deepEqual(abci.rewards.value, rest.rewards.value);
      assert.deepEqual(
        views.rewards.value,
        rest.rewards.value?.map((r) => ({ validator: r.validator, reward: r.reward.map((c) => ({ denom: c.denom, amount: whole(c.amount) })) })),
      );
      assert.deepEqual(abci.unbondings.value, rest.unbondings.value);
      assert.deepEqual(
        views.unbondings.value,
        rest.unbondings.value?.map((u) => ({ ...u, completionTime: u.completionTime.replace(/\.\d+Z$/, 'Z') })),
      );
      assert.match(views.unbondings.note ?? '', /read through precompile views, only from the validators the account delegates to/);
      assert.deepEqual(abci.balances, { value: rest.balances.value, via: 'abci_query' });
      assert.equal(abci.fractional.value, rest.fractional.value);
      assert.equal(abci.evmDenom.value, 'atest');
      assert.deepEqual(abci.redelegations.value, rest.redelegations.value);
      // Through the EVM alone, what the precompiles cannot read is said as such, not guessed.
      assert.equal(views.balances.unavailable, true);
      assert.equal(views.balances.tried, undefined);
      assert.equal(views.balances.note, 'bank balances: the provider has no REST or CometBFT RPC address');
      assert.equal(abci.evmBalance.note, 'the provider has no EVM RPC address');
      assert.equal(views.evmDenom.value, undefined);
      // The precompile views asked: delegatorValidators once, then one delegation and one unbondingDelegation per validator.
      const calls = seen.filter((k) => k.startsWith('evm ["eth_call"')).length;
      assert.equal(calls, 2 + 2 * (rest.delegations.value.length > 0 ? 1 : 0));
    }
    assert.equal(ex('dev0-after/rest').find((e) => String(e.request.rest).includes('unbonding'))?.request.height, h);
  });

  it('says a pruned height is pruned through each interface alone (evmd: REST 500 code 38, eth_call -32000, abci_query code 38)', async () => {
    for (const [label, has] of [
      ['rest', REST],
      ['views', VIEWS],
      ['abci', ABCI],
    ] as const) {
      const s = await readAccountState(replay([pruned.answers[label]], has), pruned.dev0.hex, { height: pruned.height });
      assert.match(s.coverage ?? '', /^Height 2 is pruned on this provider/, label);
      for (const r of label === 'views' ? [s.delegations, s.rewards, s.unbondings, s.evmBalance] : [s.balances, s.delegations, s.rewards, s.unbondings])
        assert.equal(r.pruned, true, `${label}: ${JSON.stringify(r)}`);
      assert.equal(s.readThrough, label === 'rest' ? 'read through: REST' : label === 'views' ? 'read through: precompile views' : 'read through: abci_query');
    }
    assert.ok(
      pruned.answers.abci.some((e) => (e.result as Json)?.response?.code === 38),
      'the recorded abci_query answer is code 38',
    );
  });

  it('REST that fails on one read (a module it lacks: 501) falls back for that read; a pruned REST answer does not', async () => {
    const base = replay([ex('dev0-after/rest'), ex('dev0-after/views'), ex('dev0-after/abci')], { rest: true, evm: true, comet: true });
    const sent: string[] = [];
    const lacking: StateSource = {
      ...base,
      rest: async (p, hh) => {
        if (p.includes('/staking/')) throw new Error('REST error: HTTP 501 Not Implemented, gRPC code 12: Not Implemented');
        return base.rest(p, hh);
      },
      evm: async (m, p) => (sent.push(m), base.evm(m, p)),
    };
    const s = await readAccountState(lacking, dev0.hex, { height: h });
    assert.equal(s.delegations.via, 'precompile views');
    assert.equal(s.unbondings.via, 'abci_query', 'abci_query reads every unbonding; the precompile only those of validators still delegated to');
    assert.equal(s.redelegations.via, 'abci_query');
    assert.equal(s.balances.via, 'REST');
    assert.match(
      s.readThrough ?? '',
      /^read through: REST \(EVM denom, bank balances, fraction, rewards\), precompile views \(delegations\), abci_query \(unbondings, redelegations\)$/,
    );
    assert.ok(sent.includes('eth_call'));

    const prunedRest: StateSource = {
      ...base,
      rest: async () => {
        throw new Error('REST error: HTTP 500, gRPC code 2: codespace sdk code 38: not found: failed to load state at height 7; version does not exist');
      },
      evm: async (m, p) => {
        if (m === 'eth_call') throw new Error('no eth_call after a pruned REST answer');
        return base.evm(m, p);
      },
      comet: async () => {
        throw new Error('no abci_query after a pruned REST answer');
      },
    };
    const p = await readAccountState(prunedRest, dev0.hex, { height: h });
    for (const r of [p.balances, p.delegations, p.rewards, p.unbondings]) assert.deepEqual(r, { pruned: true, via: 'REST', note: r.note });
    assert.match(p.coverage ?? '', /pruned/);
  });

  it('every path failing: one note naming each interface and why, no value, not "none"', async () => {
    const s = await readAccountState(
      {
        has: { rest: true, evm: true, comet: true },
        rest: async () => {
          throw new Error('REST error: HTTP 502 Bad Gateway');
        },
        evm: async (m) => (m === 'eth_getBalance' ? '0x1' : '<html><body>502</body></html>'),
        comet: async () => '<html>gateway</html>',
      },
      dev0.hex,
      { height: h },
    );
    assert.equal(s.delegations.value, undefined);
    assert.deepEqual(s.delegations.tried, ['REST', 'precompile views', 'abci_query']);
    assert.match(
      s.delegations.note ?? '',
      /^delegations: REST: REST error: HTTP 502 Bad Gateway; precompile views: .*not hex bytes; abci_query: .*no "response"$/,
    );
    assert.equal(s.readThrough, undefined);
  });

  describe('hostile precompile answers are a note on their read', () => {
    const validator = recorded.validator;
    const sel = (name: string) => toFunctionSelector(STATE_VIEWS_ABI.find((f) => f.name === name) as AbiFunction);
    const viewsOnly = (answer: (selector: string) => unknown): StateSource => ({
      has: VIEWS,
      rest: async () => assert.fail('no REST'),
      evm: async (m, p) => {
        if (m === 'eth_getBalance') return '0x0';
        const data = (p[0] as { data: string }).data;
        return answer(data.slice(0, 10));
      },
    });
    const validatorsAnswer = encodeFunctionResult({ abi: STATE_VIEWS_ABI, functionName: 'delegatorValidators', result: [validator] } as never);

    for (const [name, bad, expect] of [
      ['garbage hex', '0xzz', /not hex bytes/],
      ['HTML', '<!DOCTYPE html><html>502 Bad Gateway</html>', /not hex bytes/],
      ['a length that is not whole words', `0x${'00'.repeat(33)}`, /not a whole number of 32-byte words \(33 bytes\)/],
      ['an offset past the end', `0x${1000n.toString(16).padStart(64, '0')}${'00'.repeat(32)}`, /not the ABI return/],
      ['a list of 2^64 items', `0x${32n.toString(16).padStart(64, '0')}${'f'.repeat(64)}`, /not the ABI return/],
      ['a number as the answer', 42, /not hex bytes/],
    ] as const) {
      it(`${name}`, async () => {
        const s = await readAccountState(
          viewsOnly((selector) => (selector === sel('delegatorValidators') ? bad : '0x')),
          dev0.hex,
          { height: h },
        );
        assert.equal(s.delegations.value, undefined, JSON.stringify(s.delegations));
        assert.match(s.delegations.note ?? '', expect);
        assert.equal(s.delegations.pruned, undefined);
        assert.equal(s.unbondings.value, undefined);
      });
    }

    it('a validator list of things that are not addresses, and a delegation answer of the wrong shape', async () => {
      const notAddresses = encodeFunctionResult({ abi: STATE_VIEWS_ABI, functionName: 'delegatorValidators', result: ['<script>'] } as never);
      let s = await readAccountState(
        viewsOnly(() => notAddresses),
        dev0.hex,
        { height: h },
      );
      assert.match(s.delegations.note ?? '', /not a list of validator addresses/);
      // delegation() answered with the rewards function's return: decodes as something else or fails: never a delegation.
      const rewards = encodeFunctionResult({ abi: STATE_VIEWS_ABI, functionName: 'delegationTotalRewards', result: [[], []] } as never);
      s = await readAccountState(
        viewsOnly((x) => (x === sel('delegatorValidators') ? validatorsAnswer : rewards)),
        dev0.hex,
        { height: h },
      );
      assert.equal(s.delegations.value, undefined);
      assert.match(s.delegations.note ?? '', /delegation/);
    });

    it('an inactive precompile (empty answer) is "not served", with the other reads kept', async () => {
      const s = await readAccountState(
        viewsOnly(() => '0x'),
        dev0.hex,
        { height: h },
      );
      assert.equal(s.delegations.unavailable, true);
      assert.match(s.delegations.note ?? '', /^delegations: not served by this provider \(delegatorValidators: 0x0+800|0x0+801 answered nothing/);
      assert.equal(s.evmBalance.value, '0');
    });

    it(`reads at most ${STATE_MAX_VALIDATORS} validators' delegations and says so; rewards in whole base units`, async () => {
      const many = Array.from({ length: 12 }, (_, i) => `cosmosvaloper1${'q'.repeat(36)}${'acdefghjkl'[i % 10]}${'ac'[Math.floor(i / 10)]}`);
      let delegationCalls = 0;
      const s = await readAccountState(
        viewsOnly((selector) => {
          if (selector === sel('delegatorValidators'))
            return encodeFunctionResult({ abi: STATE_VIEWS_ABI, functionName: 'delegatorValidators', result: many } as never);
          if (selector === sel('delegation')) {
            delegationCalls++;
            return encodeFunctionResult({
              abi: STATE_VIEWS_ABI,
              functionName: 'delegation',
              result: [5n * 10n ** 36n, { denom: 'atest', amount: 5n * 10n ** 18n }],
            } as never);
          }
          if (selector === sel('delegationTotalRewards'))
            return encodeFunctionResult({
              abi: STATE_VIEWS_ABI,
              functionName: 'delegationTotalRewards',
              result: [
                [{ validatorAddress: validator, reward: [{ denom: 'atest', amount: 7n, precision: 18 }] }],
                [{ denom: 'atest', amount: 7n, precision: 18 }],
              ],
            } as never);
          return encodeFunctionResult({
            abi: STATE_VIEWS_ABI,
            functionName: 'unbondingDelegation',
            result: { delegatorAddress: '', validatorAddress: '', entries: [] },
          } as never);
        }),
        dev0.hex,
        { height: h },
      );
      assert.equal(delegationCalls, STATE_MAX_VALIDATORS);
      assert.equal(s.delegations.value?.length, STATE_MAX_VALIDATORS);
      assert.equal(s.delegations.truncated, true);
      assert.match(s.delegations.note ?? '', /only the first 10 validators read \(precompile views\)/);
      assert.deepEqual(s.delegations.value?.[0], {
        validator: many[0],
        shares: '5000000000000000000.000000000000000000',
        balance: { denom: 'atest', amount: '5000000000000000000' },
      });
      assert.deepEqual(s.rewards.value, [{ validator, reward: [{ denom: 'atest', amount: '7' }] }]);
    });
  });

  it('a page of 200,000 delegations (a hostile abci_query answer) gives the 100 asked, said partial (no "Maximum call stack size exceeded")', async () => {
    const base = replay([ex('dev0-after/abci')], ABCI);
    const many = QueryDelegatorDelegationsResponse.encode(
      QueryDelegatorDelegationsResponse.fromPartial({
        // 7 bytes each (1.4 MB, under the 4 MiB cap on a value): a validator named "v", nothing else.
        delegationResponses: Array.from({ length: 200_000 }, () => ({ delegation: { validatorAddress: 'v' } })),
      }),
    ).finish();
    const source: StateSource = {
      ...base,
      comet: async (c) => {
        const r = structuredClone(await base.comet!(c)) as Json;
        if (String(c.json.path).endsWith('/DelegatorDelegations')) r.response.value = Buffer.from(many).toString('base64');
        return r;
      },
    };
    const st = await readAccountState(source, dev0.hex, { height: h });
    assert.equal(st.delegations.note, 'delegations: only the first 100 read');
    assert.equal(st.delegations.truncated, true);
    assert.equal(st.delegations.value?.length, 100);
    assert.deepEqual(st.delegations.value?.[99], { validator: 'v', shares: '0.000000000000000000' });
  });

  it('abci_query pagination that does not advance (the same next key forever, a node ignoring the key) reads each page once, said partial', async () => {
    const base = replay([ex('dev0-after/abci')], ABCI);
    const page = (n: number, nextKey: number[]) =>
      Buffer.from(
        QueryDelegatorDelegationsResponse.encode(
          QueryDelegatorDelegationsResponse.fromPartial({
            delegationResponses: [{ delegation: { validatorAddress: `v${n}`, shares: '1' } }],
            pagination: { nextKey: Uint8Array.from(nextKey) },
          }),
        ).finish(),
      ).toString('base64');
    for (const [name, answer] of [
      // Page 1 names key [1], page [1] names [1] again.
      ['the same next key forever', (key: string) => page(key === '' ? 0 : 1, [1])],
      // Every request gets the first page (its key [1]).
      ['a node ignoring the key', () => page(0, [1])],
    ] as const) {
      let asked = 0;
      const source: StateSource = {
        ...base,
        comet: async (c) => {
          if (!String(c.json.path).endsWith('/DelegatorDelegations')) return base.comet!(c);
          asked++;
          const req = Buffer.from(String(c.json.data), 'hex');
          return { response: { code: 0, log: '', height: h, value: answer(req.includes(Buffer.from([0x0a, 0x01, 0x01])) ? '1' : '') } };
        },
      };
      const st = await readAccountState(source, dev0.hex, { height: h });
      assert.deepEqual(
        st.delegations.value?.map((d) => d.validator),
        name === 'a node ignoring the key' ? ['v0'] : ['v0', 'v1'],
        `${name}: ${st.delegations.note}`,
      );
      assert.equal(st.delegations.truncated, true, name);
      assert.match(st.delegations.note ?? '', /pagination does not advance/, name);
      assert.ok(asked <= 3, `${name}: ${asked} pages asked`);
    }
  });

  describe('hostile abci_query answers are a note on their read', () => {
    const good = ex('dev0-after/abci');
    const abciOnly = (mangle: (response: Json, path: string) => unknown): StateSource => {
      const base = replay([good], ABCI);
      return {
        ...base,
        comet: async (c) => mangle(structuredClone(await base.comet!(c)) as Json, String(c.json.path)),
      };
    };
    for (const [name, mangle, expect, unavailable] of [
      [
        'a kvstore app (path ignored, log "does not exist")',
        (r: Json) => ((r.response.log = 'does not exist'), (r.response.value = null), r),
        /does not answer Cosmos SDK queries/,
        true,
      ],
      [
        'an unknown query path (code 6)',
        (r: Json) => ({ response: { ...r.response, code: 6, log: 'unknown query path', value: null } }),
        /unknown query path/,
        true,
      ],
      ['another height', (r: Json) => ((r.response.height = '999'), r), /answered for height 999, not \d+/, false],
      ['a value that is not base64', (r: Json) => ((r.response.value = '<html>'), r), /not base64/, false],
      [
        'bytes that are not the protobuf',
        (r: Json) => ((r.response.value = Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 1]).toString('base64')), r),
        /not its protobuf/,
        false,
      ],
      ['an HTML page instead of JSON', () => '<!DOCTYPE html><title>502</title>', /no "response"/, false],
      [
        'a height in the future (code 26)',
        (r: Json) => ({
          response: { ...r.response, code: 26, log: 'cannot query with height in the future; please provide a valid height: invalid height', value: null },
        }),
        /code 26: cannot query with height in the future/,
        false,
      ],
    ] as const) {
      it(name, async () => {
        const s = await readAccountState(abciOnly(mangle as (r: Json) => unknown), dev0.hex, { height: h });
        for (const r of [s.balances, s.delegations, s.rewards, s.unbondings]) {
          assert.equal(r.value, undefined, `${name}: ${JSON.stringify(r)}`);
          assert.match(r.note ?? '', expect);
          assert.equal(r.pruned, undefined);
          assert.equal(Boolean(r.unavailable), unavailable);
        }
        assert.equal(s.coverage, undefined);
      });
    }
  });

  it(`keeps at most ${STATE_CONCURRENCY} requests in flight on the new paths, and a cancellation ends the whole read`, async () => {
    let inFlight = 0;
    let most = 0;
    const slow = async (): Promise<unknown> => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 15));
      inFlight--;
      throw new Error('unavailable');
    };
    await readAccountState({ has: { rest: false, evm: true, comet: true }, rest: slow, evm: slow, comet: slow }, dev0.hex, { height: h });
    assert.equal(most, STATE_CONCURRENCY);

    const cancelled = new EndpointError('cancelled', 'cancelled');
    await assert.rejects(
      readAccountState(
        { has: { rest: false, evm: true, comet: true }, rest: slow, evm: async () => '0x0', comet: async () => Promise.reject(cancelled) },
        dev0.hex,
        { height: h },
      ),
      (e: unknown) => e === cancelled,
    );
    await assert.rejects(
      readAccountState({ has: VIEWS, rest: slow, evm: async () => Promise.reject(cancelled) }, dev0.hex, { height: h }),
      (e: unknown) => e === cancelled,
    );
  });

  it("the view functions read are the shipped cosmos/evm v0.3.2 ABIs' (selectors and return types)", () => {
    const shipped = JSON.parse(
      readFileSync(path.join(__dirname, '..', '..', '..', '..', '..', 'src', 'core', 'contracts', 'abis', 'precompiles.json'), 'utf8'),
    ) as {
      precompiles: Array<{ name: string; abi: Abi }>;
    };
    const all = shipped.precompiles.flatMap((p) => p.abi.filter((x): x is AbiFunction => x.type === 'function'));
    for (const f of STATE_VIEWS_ABI) {
      const theirs = all.find((x) => x.name === f.name);
      assert.ok(theirs, f.name);
      assert.equal(toFunctionSelector(f as AbiFunction), toFunctionSelector(theirs));
      const types = (ps: readonly Json[]): unknown => ps.map((p) => ({ type: p.type, ...(p.components ? { components: types(p.components) } : {}) }));
      assert.deepEqual(types(f.outputs), types(theirs.outputs), f.name);
      assert.equal(theirs.stateMutability, 'view');
    }
  });

  it('helpers: Dec text as REST writes it, times as REST writes them (protojson), which EVM calls count as state reads, the read-through line', () => {
    assert.equal(decText(5n * 10n ** 36n), '5000000000000000000.000000000000000000');
    assert.equal(decText('0'), '0.000000000000000000');
    assert.equal(decText('123'), '0.000000000000000123');
    assert.throws(() => decText('1e5'), /not a number/);
    assert.equal(timestampText({ seconds: BigInt(Date.parse('2026-12-17T23:34:47Z') / 1000), nanos: 126454572 }), '2026-12-17T23:34:47.126454572Z');
    assert.equal(timestampText({ seconds: BigInt(Date.parse('2026-12-17T23:34:47Z') / 1000), nanos: 500000000 }), '2026-12-17T23:34:47.500Z');
    assert.equal(timestampText({ seconds: BigInt(Date.parse('2026-12-17T23:34:47Z') / 1000), nanos: 689679190 }), '2026-12-17T23:34:47.689679190Z');
    assert.equal(timestampText({ seconds: BigInt(Date.parse('2026-12-17T23:34:47Z') / 1000), nanos: 689679000 }), '2026-12-17T23:34:47.689679Z');
    assert.equal(timestampText({ seconds: BigInt(Date.parse('2026-12-17T23:34:47Z') / 1000), nanos: 0 }), '2026-12-17T23:34:47Z');
    assert.equal(isStateCall('eth_getBalance', []), true);
    assert.equal(isStateCall('eth_call', [{ to: '0x0000000000000000000000000000000000000800' }, '0x7']), true);
    assert.equal(isStateCall('eth_call', [{ to: '0x0000000000000000000000000000000000000801' }, '0x7']), true);
    assert.equal(isStateCall('eth_call', [{ to: '0x00000000000000000000000000000000000c0ffe' }, 'latest']), false);
    assert.equal(isStateCall('eth_blockNumber', []), false);
    assert.equal(readThrough({ a: { value: 1, via: 'REST' }, b: { value: 2, via: 'REST' }, c: { note: 'x' } }), 'read through: REST');
    assert.equal(readThrough({ a: { note: 'x', tried: ['REST'] } }), undefined);
    assert.equal(encodeAbiParameters([{ type: 'uint256' }], [1n]).length, 66);
  });
});
