// State at a height through the three interfaces (src/core/chain/state.ts, stateVia.ts) against a real
// Cosmos EVM chain (evmd v0.3.2, static precompiles active): dev0 delegates 5 TEST with the CLI and
// unbonds 1 TEST; the same account (dev0, and the validator's account) is read at the same heights
// through REST (`x-cosmos-block-height`), through the precompiles' view functions alone (a provider
// with only the EVM RPC: eth_call at the block) and through CometBFT's abci_query alone, and the three
// agree: delegations exactly, pending rewards exactly between REST and abci_query and in whole base
// units through the precompile (which cuts the fraction), unbonding entries (the precompile's
// completion time in seconds), bank balances, the fraction and the EVM denom. Then on a node that prunes
// (`pruning = "everything"`), an old height read through each interface alone is said as pruned.
// With CHAIN_ENDPOINTS_RECORD=1 (`npm run record:evmd:state`) the answers are written to
// test/fixtures/evmd/state/ for the unit tests.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { type AccountState, type StateSource, readAccountState } from '../../src/core/chain/state';
import type { StateCometCall } from '../../src/core/chain/stateVia';
import type { Provider } from '../../src/core/config/providers';
import { executeSource } from '../../src/core/explorer/source';
import { bech32Decode, bech32Encode } from '../devnet/encoding';
import { DENOM, DEV0, EvmdNode, VALIDATOR } from './helpers/evmd';
import { Runner } from './helpers/extension';
import { REPO_ROOT, raw, waitFor } from './helpers/nodes';

const DELEGATED = 5_000_000_000_000_000_000n;
const UNBONDED = 1_000_000_000_000_000_000n;

/** One request a source sent and what came back (the fixture's unit of replay). */
export interface Exchange {
  readonly request: { readonly rest?: string; readonly height?: string; readonly evm?: readonly unknown[]; readonly comet?: Readonly<Record<string, unknown>> };
  readonly result?: unknown;
  readonly error?: string;
}

/** `src` recording every exchange into `log`. */
function recording(src: StateSource, log: Exchange[]): StateSource {
  const keep = async (request: Exchange['request'], run: () => Promise<unknown>) => {
    try {
      const result = await run();
      log.push({ request, result });
      return result;
    } catch (err) {
      log.push({ request, error: err instanceof Error ? err.message : String(err) });
      throw err;
    }
  };
  return {
    has: src.has,
    rest: (p, h) => keep({ rest: p, ...(h !== undefined ? { height: h } : {}) }, () => src.rest(p, h)),
    evm: (m, p) => keep({ evm: [m, ...p] }, () => src.evm(m, p)),
    ...(src.comet ? { comet: (c: StateCometCall) => keep({ comet: c.json }, () => src.comet!(c)) } : {}),
  };
}

/** The integer part of a decimal string (`5.000…` -> `5`). */
const whole = (s: string) => s.replace(/\..*$/, '');

describe('evmd (real Cosmos EVM chain): state read through REST, the precompile views and abci_query agree', function () {
  this.timeout(120_000);
  let node: EvmdNode;
  let runner: Runner;
  let valoper: string;
  let h0: string;
  let h1: string;
  const exchanges: Record<string, Exchange[]> = {};

  const tip = async (): Promise<string> => (await raw(`${node.cometHttp}/status`)).json.result.sync_info.latest_block_height;
  const source = (endpoints: Provider['endpoints'], log?: Exchange[]): StateSource => {
    const s = executeSource({ name: 'real evmd', endpoints }, runner.options());
    return log ? recording(s, log) : s;
  };
  const cli = (args: string[]): string => node.broadcastTx(args, { from: DEV0.name });
  const included = (hash: string) =>
    waitFor(
      `tx ${hash} in a block`,
      async () => {
        const t = await raw(`${node.cometHttp}/tx?hash=0x${hash}`);
        return t.status === 200 ? t.json.result : undefined;
      },
      30_000,
      300,
    );

  before(async function () {
    this.timeout(240_000);
    node = await EvmdNode.create({ trace: true, pruning: 'nothing', moniker: 'chain-endpoints-state' });
    await node.start();
    runner = new Runner({ name: 'real evmd', endpoints: { rest: node.rest, evmRpc: node.evmRpc, consensusHttp: node.cometHttp } });
    valoper = bech32Encode('cosmosvaloper', bech32Decode(node.addresses[VALIDATOR.name].bech32).bytes);
    h0 = await tip();
    const d = await included(cli(['tx', 'staking', 'delegate', valoper, `${DELEGATED}${DENOM}`]));
    assert.equal(d.tx_result.code, 0, JSON.stringify(d.tx_result));
    const u = await included(cli(['tx', 'staking', 'unbond', valoper, `${UNBONDED}${DENOM}`]));
    assert.equal(u.tx_result.code, 0, JSON.stringify(u.tx_result));
    h1 = u.height;
    await waitFor('a block past the unbonding', async () => (BigInt(await tip()) > BigInt(h1) ? true : undefined), 20_000, 200);
  });
  after(async () => {
    if (process.env.CHAIN_ENDPOINTS_RECORD === '1' && Object.keys(exchanges).length > 0) {
      const dir = path.join(REPO_ROOT, 'test', 'fixtures', 'evmd', 'state');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        path.join(dir, 'exchanges.json'),
        `${JSON.stringify({ recorded: new Date().toISOString().slice(0, 10), dev0: node.addresses[DEV0.name], validator: valoper, heights: { before: h0, after: h1 }, exchanges }, null, 2)}\n`,
      );
    }
    await runner?.dispose();
    await node?.dispose();
  });

  /** The same account at `h` through each interface alone (and REST with everything), recorded under `key`. */
  const three = async (who: string, h: string, key: string): Promise<{ rest: AccountState; views: AccountState; abci: AccountState }> => {
    const log = (k: string) => (exchanges[`${key}/${k}`] = []);
    const [rest, views, abci] = await Promise.all([
      readAccountState(source({ rest: node.rest, evmRpc: node.evmRpc }, log('rest')), who, { height: h }),
      readAccountState(source({ evmRpc: node.evmRpc }, log('views')), who, { height: h }),
      readAccountState(source({ consensusHttp: node.cometHttp }, log('abci')), who, { height: h }),
    ]);
    return { rest, views, abci };
  };

  it('dev0 before and after delegating and unbonding: REST, precompile views and abci_query read the same state', async () => {
    const dev0 = node.addresses[DEV0.name];
    for (const [h, label] of [
      [h0, 'dev0-before'],
      [h1, 'dev0-after'],
    ] as const) {
      const { rest, views, abci } = await three(dev0.hex, h, label);
      assert.equal(rest.readThrough, 'read through: REST');
      assert.equal(abci.readThrough, 'read through: abci_query');
      assert.equal(views.readThrough, 'read through: precompile views');
      for (const s of [rest, views, abci]) assert.equal(s.coverage, undefined);
      // Delegations: the same validator, shares (18 decimals) and balance.
      assert.ok(rest.delegations.value, rest.delegations.note);
      assert.deepEqual(views.delegations.value, rest.delegations.value, views.delegations.note);
      assert.deepEqual(abci.delegations.value, rest.delegations.value, abci.delegations.note);
      assert.equal(views.delegations.via, 'precompile views');
      if (h === h1) assert.equal(rest.delegations.value?.[0]?.balance?.amount, (DELEGATED - UNBONDED).toString());
      else assert.deepEqual(rest.delegations.value, []);
      // Rewards: exact through abci_query; whole base units through the precompile.
      assert.deepEqual(abci.rewards.value, rest.rewards.value, abci.rewards.note);
      assert.deepEqual(
        views.rewards.value,
        rest.rewards.value?.map((r) => ({ validator: r.validator, reward: r.reward.map((c) => ({ denom: c.denom, amount: whole(c.amount) })) })),
        views.rewards.note,
      );
      // Unbondings: the entry of the unbond; the precompile's completion time in whole seconds.
      assert.deepEqual(abci.unbondings.value, rest.unbondings.value, abci.unbondings.note);
      assert.equal(rest.unbondings.value?.length, h === h1 ? 1 : 0);
      assert.deepEqual(
        views.unbondings.value?.map((u) => ({ ...u, completionTime: u.completionTime })),
        rest.unbondings.value?.map((u) => ({ ...u, completionTime: u.completionTime.replace(/\.\d+Z$/, 'Z') })),
      );
      if (h === h1) assert.equal(rest.unbondings.value?.[0].balance, UNBONDED.toString());
      assert.equal(views.unbondings.truncated, true, 'the precompile asks only the validators still delegated to: said');
      // Bank, the fraction, the EVM denom and redelegations: REST and abci_query (the precompiles do not read them).
      assert.deepEqual(abci.balances.value, rest.balances.value, abci.balances.note);
      assert.equal(abci.fractional.value, rest.fractional.value);
      assert.equal(abci.evmDenom.value, DENOM);
      assert.equal(rest.evmDenom.value, DENOM);
      assert.deepEqual(abci.redelegations.value, rest.redelegations.value);
      assert.equal(views.balances.unavailable, true);
      // The EVM balance (eth_getBalance at the block) equals bank(atest) read through abci_query as through REST.
      assert.equal(views.evmBalance.value, rest.evmBalance.value);
      assert.equal(rest.balances.value?.find((c) => c.denom === DENOM)?.amount, rest.evmBalance.value);
    }
  });

  it('abci_query over CometBFT JSON-RPC (POST, params by name) reads what the URI form reads', async () => {
    const dev0 = node.addresses[DEV0.name];
    const [uri, post] = await Promise.all([
      readAccountState(source({ consensusHttp: node.cometHttp }), dev0.hex, { height: h1 }),
      readAccountState(source({ consensusRpc: node.cometHttp }), dev0.hex, { height: h1 }),
    ]);
    assert.equal(post.readThrough, 'read through: abci_query');
    for (const k of ['evmDenom', 'balances', 'fractional', 'delegations', 'rewards', 'unbondings', 'redelegations'] as const) {
      assert.ok(uri[k].value !== undefined, `${k}: ${uri[k].note}`);
      assert.deepEqual(post[k], uri[k], k);
    }
  });

  it("the validator's account: its self-delegation and pending rewards agree through the three interfaces", async () => {
    const v = node.addresses[VALIDATOR.name];
    const { rest, views, abci } = await three(v.bech32, h1, 'validator-after');
    assert.equal(rest.delegations.value?.length, 1);
    assert.deepEqual(views.delegations.value, rest.delegations.value);
    assert.deepEqual(abci.delegations.value, rest.delegations.value);
    assert.ok((rest.rewards.value?.[0]?.reward.length ?? 0) > 0, 'the validator has pending rewards');
    assert.deepEqual(abci.rewards.value, rest.rewards.value);
    assert.equal(views.rewards.value?.[0].reward[0].amount, whole(rest.rewards.value![0].reward[0].amount));
    assert.deepEqual(abci.balances.value, rest.balances.value);
  });
});

describe('evmd (real Cosmos EVM chain): a pruned height is said as pruned through every interface', function () {
  this.timeout(120_000);
  let node: EvmdNode;
  let runner: Runner;
  const answers: Record<string, Exchange[]> = {};

  before(async function () {
    this.timeout(240_000);
    node = await EvmdNode.create({ trace: true, pruning: 'everything', moniker: 'chain-endpoints-pruned' });
    await node.start();
    runner = new Runner({ name: 'pruned evmd', endpoints: { rest: node.rest, evmRpc: node.evmRpc, consensusHttp: node.cometHttp } });
    // pruning = "everything" keeps the last 2 states: height 2 is gone a few blocks later.
    await waitFor(
      'height 12',
      async () => (BigInt((await raw(`${node.cometHttp}/status`)).json.result.sync_info.latest_block_height) >= 12n ? true : undefined),
      60_000,
      300,
    );
  });
  after(async () => {
    if (process.env.CHAIN_ENDPOINTS_RECORD === '1' && Object.keys(answers).length > 0) {
      const dir = path.join(REPO_ROOT, 'test', 'fixtures', 'evmd', 'state');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        path.join(dir, 'pruned.json'),
        `${JSON.stringify({ recorded: new Date().toISOString().slice(0, 10), dev0: node.addresses[DEV0.name], height: '2', answers }, null, 2)}\n`,
      );
    }
    await runner?.dispose();
    await node?.dispose();
  });

  it('height 2 through REST, through the precompile views alone and through abci_query alone: pruned, with the coverage line', async () => {
    const dev0 = node.addresses[DEV0.name];
    for (const [label, endpoints] of [
      ['rest', { rest: node.rest, evmRpc: node.evmRpc }],
      ['views', { evmRpc: node.evmRpc }],
      ['abci', { consensusHttp: node.cometHttp }],
    ] as const) {
      const log: Exchange[] = [];
      const s = await readAccountState(recording(executeSource({ name: 'pruned evmd', endpoints }, runner.options()), log), dev0.hex, { height: '2' });
      answers[label] = log;
      assert.match(s.coverage ?? '', /^Height 2 is pruned on this provider/, `${label}: ${JSON.stringify(s)}`);
      const read =
        label === 'views'
          ? [s.delegations, s.rewards, s.unbondings, s.evmBalance]
          : [s.balances, s.delegations, s.rewards, s.unbondings, s.fractional, s.evmDenom];
      for (const r of read) {
        assert.equal(r.pruned, true, `${label}: ${JSON.stringify(r)}`);
        assert.equal(r.value, undefined);
      }
      if (label !== 'rest') assert.equal(s.delegations.via, label === 'views' ? 'precompile views' : 'abci_query');
      // And the latest height reads through the same interface.
      const now = await readAccountState(executeSource({ name: 'pruned evmd', endpoints }, runner.options()), dev0.hex);
      assert.deepEqual(now.delegations.value, [], `${label}: ${JSON.stringify(now.delegations)}`);
    }
  });
});
