// The account page's state reads (src/core/chain/state.ts, src/core/explorer/account/) against a real
// Cosmos EVM chain (evmd v0.3.2): dev0 delegates to the validator with the evmd CLI between two
// heights; Look Up of `<address>@<height>` at both heights (dev0, and the validator's account with its
// self-delegation and pending rewards) gives the balances, EVM balance, precise-bank fraction,
// delegations, rewards and unbondings that the test reads itself from the node (REST with the
// x-cosmos-block-height header, eth_getBalance at the block); bank(atest) reconciles with the EVM balance.
import * as assert from 'node:assert/strict';
import type { Provider } from '../../src/core/config/providers';
import { forgetContext } from '../../src/core/explorer/context';
import { lookUp } from '../../src/core/explorer/lookup';
import { renderLookup } from '../../src/core/explorer/render';
import { executeSource } from '../../src/core/explorer/source';
import type { AddressView } from '../../src/core/explorer/views';
import { bech32Decode, bech32Encode } from '../devnet/encoding';
import { DENOM, DEV0, GAS_PRICES, EvmdNode, VALIDATOR } from './helpers/evmd';
import { Runner } from './helpers/extension';
import { raw, rawPost, waitFor } from './helpers/nodes';

type Json = any;
const DELEGATED = 5_000_000_000_000_000_000n;

describe('evmd (real Cosmos EVM chain): an account at two heights', function () {
  this.timeout(120_000);
  let node: EvmdNode;
  let runner: Runner;
  let provider: Provider;
  let h0: string;
  let h1: string;
  let valoper: string;

  /** REST at a height, as the test reads it itself. */
  const restAt = async (path: string, height: string): Promise<Json> => {
    const r = await raw(`${node.rest}${path}`, { headers: { 'x-cosmos-block-height': height } });
    assert.equal(r.status, 200, `${path} at ${height}: ${r.text.slice(0, 300)}`);
    assert.equal(r.headers.get('x-cosmos-block-height'), height);
    return r.json;
  };
  const evmBalanceAt = async (hex: string, height: string): Promise<string> =>
    BigInt(
      (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [hex, `0x${BigInt(height).toString(16)}`] })).json.result,
    ).toString();
  const page = async (query: string): Promise<AddressView> => {
    forgetContext();
    const r = await lookUp(executeSource(provider, runner.options()), query);
    assert.equal(r.kind, 'address', JSON.stringify(r));
    assert.ok(!renderLookup(r).includes('undefined'));
    return (r as Extract<typeof r, { kind: 'address' }>).address;
  };
  const tip = async (): Promise<string> => (await raw(`${node.cometHttp}/status`)).json.result.sync_info.latest_block_height;

  before(async function () {
    this.timeout(240_000);
    node = await EvmdNode.create();
    await node.start();
    provider = { name: 'real evmd', endpoints: { evmRpc: node.evmRpc, consensusHttp: node.cometHttp, rest: node.rest } };
    runner = new Runner(provider);
    valoper = bech32Encode('cosmosvaloper', bech32Decode(node.addresses[VALIDATOR.name].bech32).bytes);
    h0 = await tip();
    // dev0 delegates 5 TEST to the validator (the CLI signs and broadcasts), then a block or two pass.
    const out = node.cli([
      'tx',
      'staking',
      'delegate',
      valoper,
      `${DELEGATED}${DENOM}`,
      '--from',
      DEV0.name,
      '--gas',
      '300000',
      '--gas-prices',
      GAS_PRICES,
      '--keyring-backend',
      'test',
      '--node',
      node.cometHttp.replace(/^http/, 'tcp'),
      '--output',
      'json',
      '-y',
    ]);
    const hash = String(JSON.parse(out.slice(out.indexOf('{'))).txhash);
    const included = await waitFor(
      'the delegation in a block',
      async () => {
        const t = await raw(`${node.cometHttp}/tx?hash=0x${hash}`);
        return t.status === 200 ? t.json.result : undefined;
      },
      30_000,
      300,
    );
    assert.equal(included.tx_result.code, 0, JSON.stringify(included.tx_result));
    h1 = included.height;
    await waitFor('a block past the delegation', async () => (BigInt(await tip()) > BigInt(h1) ? true : undefined), 20_000, 200);
  });
  after(async () => {
    await runner?.dispose();
    await node?.dispose();
  });

  it("dev0's page at both heights: balances, EVM balance, delegations and rewards as the node answers them", async () => {
    const dev0 = node.addresses[DEV0.name];
    for (const [h, delegated] of [
      [h0, false],
      [h1, true],
    ] as const) {
      const a = await page(`${dev0.hex}@${h}`);
      assert.equal(a.height, h);
      assert.equal(a.forms.account, dev0.bech32);
      const bank = await restAt(`/cosmos/bank/v1beta1/balances/${dev0.bech32}`, h);
      assert.deepEqual(
        a.balances?.map((c) => ({ denom: c.denom, amount: c.amount })),
        bank.balances,
      );
      const evm = await evmBalanceAt(dev0.hex, h);
      assert.equal(a.evmBalance?.amount, evm);
      assert.equal(a.state?.fractional, (await restAt(`/cosmos/evm/precisebank/v1/fractional_balance/${dev0.bech32}`, h)).fractional_balance.amount);
      assert.equal(a.state?.reconciliation?.equal, true, a.state?.reconciliation?.line);
      assert.equal(a.state?.reconciliation?.line, `bank(${DENOM}) = EVM balance (${evm})`);
      const dels = (await restAt(`/cosmos/staking/v1beta1/delegations/${dev0.bech32}`, h)).delegation_responses;
      assert.deepEqual(
        a.state?.delegations?.map((d) => ({ validator: d.validator, amount: d.amount?.amount })),
        dels.map((d: Json) => ({ validator: d.delegation.validator_address, amount: d.balance.amount })),
      );
      assert.equal(dels.length, delegated ? 1 : 0);
      if (delegated) assert.equal(a.state?.delegations?.[0].amount?.amount, DELEGATED.toString());
      assert.deepEqual(a.state?.unbondings, []);
      assert.equal(a.state?.coverage, undefined);
      assert.deepEqual(a.state?.missing, []);
    }
    // The balance fell by the delegation and the fee between the two heights.
    const [b0, b1] = [BigInt(await evmBalanceAt(dev0.hex, h0)), BigInt(await evmBalanceAt(dev0.hex, h1))];
    assert.ok(b0 - b1 > DELEGATED, `${b0} -> ${b1}`);
  });

  it("the validator's account: its self-delegation (with its moniker) and pending rewards at both heights, as the node answers", async () => {
    const v = node.addresses[VALIDATOR.name];
    for (const h of [h0, h1]) {
      const a = await page(`${v.bech32}@${h}`);
      const dels = (await restAt(`/cosmos/staking/v1beta1/delegations/${v.bech32}`, h)).delegation_responses;
      assert.equal(dels.length, 1);
      assert.equal(a.state?.delegations?.[0].validator, valoper);
      assert.equal(a.state?.delegations?.[0].amount?.amount, dels[0].balance.amount);
      assert.equal(a.state?.delegations?.[0].moniker, (await restAt(`/cosmos/staking/v1beta1/validators/${valoper}`, h)).validator.description.moniker);
      const rewards = (await restAt(`/cosmos/distribution/v1beta1/delegators/${v.bech32}/rewards`, h)).rewards;
      assert.deepEqual(
        a.state?.rewards?.map((r) => ({ validator_address: r.validator, reward: r.reward.map((c) => ({ denom: c.denom, amount: c.amount })) })),
        rewards,
      );
      assert.equal(a.state?.reconciliation?.equal, true);
    }
  });
});
