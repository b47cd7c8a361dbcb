// The account page's state reads (src/core/chain/state.ts, src/core/explorer/account/) against a real
// Cosmos EVM chain (evmd v0.3.2): dev0 delegates to the validator with the evmd CLI between two
// heights; Look Up of `<address>@<height>` at both heights (dev0, and the validator's account with its
// self-delegation and pending rewards) gives the balances, EVM balance, precise-bank fraction,
// delegations, rewards and unbondings that the test reads itself from the node (REST with the
// x-cosmos-block-height header, eth_getBalance at the block); bank(atest) reconciles with the EVM balance.
// Then history and tokens (issue #37): dev0 bank-sends to a second account and transfers an ERC-20
// (the fixture token, deployed with viem from its Foundry artifact) to it; the delegation, the bank
// send (for both sides) and the token transfer (for both sides) appear in the pages' history, found
// by tx_search and eth_getLogs exactly as the test finds them itself, and the token's balanceOf in
// both pages' tokens equals the test's own eth_call. Last, dev0 undelegates 1 TEST through the staking
// precompile 0x…0800 (an EVM call, as the receipt's real test sends it: its helpers): the page's
// unbonding entry (validator, balance, completion time, creation height) and its delegation equal
// what the test reads from the node at the page's block, the undelegation is in its history joined
// to its EVM hash, and the native token pair's balance (0xEeee…EEeE ↔ atest, registered in the
// genesis with the precompiles) equals bank(atest) at that block.
import * as assert from 'node:assert/strict';
import type { Provider } from '../../src/core/config/providers';
import { forgetContext } from '../../src/core/explorer/context';
import { lookUp } from '../../src/core/explorer/lookup';
import { renderLookup } from '../../src/core/explorer/render';
import { executeSource } from '../../src/core/explorer/source';
import type { AddressView } from '../../src/core/explorer/views';
import { bech32Decode, bech32Encode } from '../devnet/encoding';
import { DENOM, DEV0, EvmdNode, VALIDATOR } from './helpers/evmd';
import { Runner } from './helpers/extension';
import { raw, rawPost, waitFor } from './helpers/nodes';
import { type Hex, encodeDeployData, encodeFunctionData, getContractAddress } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { TOKEN_ABI, TOKEN_ARTIFACT } from '../devnet/fixtureContracts';
import { FIXTURE_SUPPLY } from '../devnet/fixtureTxs';
import { forgetHistory } from '../../src/core/explorer/account/history';
import { STAKING_PRECOMPILE, TOKEN, evmSender, stakeCall } from './helpers/receiptScenario';
import { NATIVE_ERC20 } from './helpers/evmd';

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
  let delegationHash: string;
  let sendHash: string;
  let token: Hex;
  let transferEvmHash: string;
  let other: { hex: Hex; bech32: string };
  let undelegateEvmHash: Hex;
  let undelegateHeight: string;
  /** The Unbond log's completionTime (unix seconds). */
  let unbondCompletes: bigint;

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
    // The static precompiles active (staking 0x…0800 for the undelegation) and the native token pair, as local_node.sh sets them.
    node = await EvmdNode.create({ trace: true });
    await node.start();
    provider = { name: 'real evmd', endpoints: { evmRpc: node.evmRpc, consensusHttp: node.cometHttp, rest: node.rest } };
    runner = new Runner(provider);
    valoper = bech32Encode('cosmosvaloper', bech32Decode(node.addresses[VALIDATOR.name].bech32).bytes);
    h0 = await tip();
    // dev0 delegates 5 TEST to the validator (the CLI signs and broadcasts), then a block or two pass.
    const hash = node.broadcastTx(['tx', 'staking', 'delegate', valoper, `${DELEGATED}${DENOM}`], { from: DEV0.name });
    delegationHash = hash.toUpperCase();
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

    // A second account; dev0 bank-sends to it (CLI), deploys the fixture token and transfers some (viem).
    const second = mnemonicToAccount(DEV0.mnemonic, { addressIndex: 1 });
    other = { hex: second.address, bech32: bech32Encode('cosmos', Buffer.from(second.address.slice(2), 'hex')) };
    sendHash = node.broadcastTx(['tx', 'bank', 'send', DEV0.name, other.bech32, `1000000000000000000${DENOM}`], { gas: 200_000 }).toUpperCase();
    await waitFor(
      'the bank send in a block',
      async () => ((await raw(`${node.cometHttp}/tx?hash=0x${sendHash}`)).status === 200 ? true : undefined),
      30_000,
      300,
    );
    const rpc = async (method: string, params: unknown[]): Promise<Json> => (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method, params })).json;
    const dev0 = mnemonicToAccount(DEV0.mnemonic);
    const chainId = Number(BigInt((await rpc('eth_chainId', [])).result));
    const gasPrice = BigInt((await rpc('eth_gasPrice', [])).result);
    const n0 = Number(BigInt((await rpc('eth_getTransactionCount', [dev0.address, 'latest'])).result));
    const sign = (nonce: number, to: Hex | undefined, data: Hex, gas: bigint) =>
      dev0.signTransaction({ type: 'eip1559', chainId, nonce, to, data, gas, maxFeePerGas: gasPrice * 2n, maxPriorityFeePerGas: 1n });
    const mined = (h: string) => waitFor(`the receipt of ${h}`, async () => (await rpc('eth_getTransactionReceipt', [h])).result ?? undefined, 30_000, 200);
    token = getContractAddress({ from: dev0.address, nonce: BigInt(n0) });
    const deploy = (
      await rpc('eth_sendRawTransaction', [
        await sign(n0, undefined, encodeDeployData({ abi: TOKEN_ABI, bytecode: TOKEN_ARTIFACT.bytecode.object as Hex, args: [FIXTURE_SUPPLY] }), 1_500_000n),
      ])
    ).result;
    await mined(deploy);
    const data = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [other.hex, 42n * 10n ** 18n] } as never);
    transferEvmHash = String((await rpc('eth_sendRawTransaction', [await sign(n0 + 1, token, data, 100_000n)])).result).toLowerCase();
    const receipt = await mined(transferEvmHash);
    assert.equal(receipt.status, '0x1');

    // dev0 undelegates 1 TEST through the staking precompile (an EVM call; rewards withdrawn, an unbonding entry).
    const sender = await evmSender(node, dev0);
    undelegateEvmHash = await sender.sendEvm(STAKING_PRECOMPILE as Hex, stakeCall('undelegate', dev0.address, valoper), 300_000n);
    const unbond = await sender.minedEvm(undelegateEvmHash);
    undelegateHeight = BigInt(unbond.blockNumber).toString();
    const log = (unbond.logs as Json[]).find((l: Json) => l.address.toLowerCase() === STAKING_PRECOMPILE);
    assert.ok(log, JSON.stringify(unbond.logs));
    unbondCompletes = BigInt(`0x${String(log.data).slice(2 + 64, 2 + 128)}`);
    await waitFor('a block past the undelegation', async () => (BigInt(await tip()) > BigInt(undelegateHeight) ? true : undefined), 20_000, 200);
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

  it('history from the node alone: the delegation, the bank send (both sides) and the ERC-20 transfer (both sides), as tx_search and eth_getLogs find them', async () => {
    forgetHistory();
    const dev0 = node.addresses[DEV0.name];
    const mine = await page(dev0.hex);
    const h = mine.history;
    assert.ok(h, 'a history page');
    assert.equal(h.coverage.txIndex, true);
    const byHash = (x: string) => h.entries.find((e) => e.hash === x);
    assert.ok(byHash(delegationHash), `the delegation ${delegationHash} is listed: ${JSON.stringify(h.entries.map((e) => e.lookUp))}`);
    assert.ok(byHash(delegationHash)!.roles.includes('sender'));
    assert.ok(byHash(sendHash)?.roles.includes('sender'), 'the bank send, as its sender');
    assert.ok(byHash(sendHash)?.actions.includes('/cosmos.bank.v1beta1.MsgSend'));
    const transfer = h.entries.find((e) => e.evmHashes.includes(transferEvmHash));
    assert.ok(transfer, 'the token transfer is listed');
    assert.ok(transfer.hash, 'joined to the Cosmos transaction that carries it');
    assert.ok(transfer.roles.includes('token sender'));
    assert.deepEqual(
      transfer.transfers?.map((t) => ({ token: t.token.toLowerCase(), to: t.to.toLowerCase(), amount: t.amount })),
      [{ token: token.toLowerCase(), to: other.hex.toLowerCase(), amount: (42n * 10n ** 18n).toString() }],
    );
    // What the node itself says: tx_search finds the same delegation and send, eth_getLogs the same transfer.
    const search = async (q: string) =>
      (await raw(`${node.cometHttp}/tx_search?query=${encodeURIComponent(`"${q}"`)}&per_page=100&order_by="desc"`)).json.result.txs as Json[];
    const sentByDev0 = (await search(`message.sender='${dev0.bech32}'`)).map((t: Json) => t.hash);
    assert.ok(sentByDev0.includes(delegationHash) && sentByDev0.includes(sendHash));
    const logs = (
      await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x1', toBlock: 'latest', address: token }] })
    ).json.result as Json[];
    assert.ok(logs.some((l: Json) => l.transactionHash === transferEvmHash));
    // The recipient's page: the bank send as recipient, the transfer as token recipient.
    forgetHistory();
    const theirs = (await page(other.bech32)).history!;
    assert.ok(theirs.entries.find((e) => e.hash === sendHash)?.roles.includes('recipient'), 'the bank send, as its recipient');
    assert.ok(theirs.entries.find((e) => e.evmHashes.includes(transferEvmHash))?.roles.includes('token recipient'), 'the transfer, as its recipient');
  });

  it("tokens: the token's balanceOf on both pages equals the test's own eth_call", async () => {
    const dev0 = node.addresses[DEV0.name];
    for (const [who, hex] of [
      [dev0.hex, dev0.hex],
      [other.bech32, other.hex],
    ] as const) {
      forgetHistory();
      const a = await page(who);
      const t = a.tokens?.list.find((x) => x.address.toLowerCase() === token.toLowerCase());
      assert.ok(t, `the token on ${who}'s page: ${JSON.stringify(a.tokens)}`);
      const data = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [hex] } as never);
      const own = BigInt((await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: token, data }, 'latest'] })).json.result);
      assert.equal(t.balance, own.toString());
      assert.equal(t.decimals, 18);
    }
  });

  it("the undelegation through the staking precompile: the page's unbonding entry and delegation, as the node answers at the page's block", async () => {
    forgetHistory();
    const dev0 = node.addresses[DEV0.name];
    const a = await page(dev0.hex);
    const at = a.readAt;
    assert.ok(at && BigInt(at) >= BigInt(undelegateHeight), `read at the tip, past the undelegation (${at})`);
    assert.equal(a.state?.height, at, 'every state read at the one block');
    // What the test reads itself, at that block.
    const unb = (await restAt(`/cosmos/staking/v1beta1/delegators/${dev0.bech32}/unbonding_delegations`, at)).unbonding_responses as Json[];
    const own = unb.flatMap((u: Json) =>
      (u.entries as Json[]).map((e: Json) => ({
        validator: u.validator_address,
        balance: e.balance,
        completionTime: e.completion_time,
        creationHeight: e.creation_height,
      })),
    );
    assert.equal(own.length, 1, JSON.stringify(unb));
    assert.equal(own[0].balance, TOKEN.toString());
    assert.equal(own[0].creationHeight, undelegateHeight);
    assert.deepEqual(
      a.state?.unbondings?.map((u) => ({
        validator: u.validator,
        balance: u.balance.amount,
        completionTime: u.completionTime,
        creationHeight: u.creationHeight,
      })),
      own,
    );
    assert.equal(a.state?.unbondings?.[0].moniker, (await restAt(`/cosmos/staking/v1beta1/validators/${valoper}`, at)).validator.description.moniker);
    // The completion time is the Unbond log's (unix seconds).
    assert.equal(BigInt(Math.floor(Date.parse(own[0].completionTime) / 1000)), unbondCompletes);
    const dels = (await restAt(`/cosmos/staking/v1beta1/delegations/${dev0.bech32}`, at)).delegation_responses as Json[];
    assert.equal(dels[0].balance.amount, (DELEGATED - TOKEN).toString());
    assert.equal(a.state?.delegations?.[0].amount?.amount, dels[0].balance.amount);
    assert.equal(a.state?.reconciliation?.equal, true, a.state?.reconciliation?.line);
    assert.match(
      renderLookup(await lookUp(executeSource(provider, runner.options()), dev0.hex)),
      /- unbonding: 1000000000000000000 atest \(`?1 test`?\) from `cosmosvaloper1/,
    );
    // In the history: the Cosmos transaction carrying the EVM call, with its sender.
    const entry = a.history?.entries.find((e) => e.evmHashes.includes(undelegateEvmHash.toLowerCase()));
    assert.ok(entry?.hash, `the undelegation is listed: ${JSON.stringify(a.history?.entries.map((e) => e.lookUp))}`);
    assert.ok(entry.roles.includes('sender'));
    assert.equal(entry.height, undelegateHeight);
    // The native token pair (0xEeee…EEeE ↔ atest): its balanceOf at the page's block is bank(atest) there.
    const pair = a.tokens?.list.find((t) => t.address.toLowerCase() === NATIVE_ERC20.toLowerCase());
    assert.ok(pair, `the token pair on the page: ${JSON.stringify(a.tokens)}`);
    assert.equal(pair.source, `token pair ${DENOM}`);
    const bank = (await restAt(`/cosmos/bank/v1beta1/balances/${dev0.bech32}`, at)).balances as Json[];
    assert.equal(pair.balance, bank.find((c: Json) => c.denom === DENOM)?.amount);
    // And at the undelegation's height, the same entry (its state at that block).
    const then = await page(`${dev0.hex}@${undelegateHeight}`);
    assert.deepEqual(
      then.state?.unbondings?.map((u) => u.balance.amount),
      [TOKEN.toString()],
    );
  });
});

// A second, short-lived node with `pruning = "everything"` (the SDK keeps the 2 latest states and
// prunes every 10 heights): once it is past height 25, the page of an early height says the height is
// pruned on this provider, because the node itself answers REST 500 with gRPC code 2 "codespace sdk
// code 38: not found: … version does not exist" and the EVM an error for that block; the latest page still reconciles. (CometBFT keeps
// its blocks: the SDK retains them for the evidence age, 100,000 blocks by default, so
// `earliest_block_height` stays 1 and the history's coverage line cannot be checked here cheaply.)
describe('evmd (real Cosmos EVM chain): an account on a node that prunes its state', function () {
  this.timeout(120_000);
  let node: EvmdNode;
  let runner: Runner;
  let provider: Provider;

  before(async function () {
    this.timeout(240_000);
    node = await EvmdNode.create({ pruning: 'everything', moniker: 'chain-endpoints-pruned' });
    await node.start();
    provider = { name: 'real evmd pruned', endpoints: { evmRpc: node.evmRpc, consensusHttp: node.cometHttp, rest: node.rest } };
    runner = new Runner(provider);
    await waitFor(
      'height 25 (past two pruning intervals)',
      async () => (BigInt((await raw(`${node.cometHttp}/status`)).json.result.sync_info.latest_block_height) >= 25n ? true : undefined),
      60_000,
      250,
    );
  });
  after(async () => {
    await runner?.dispose();
    await node?.dispose();
  });

  it('an early height: the coverage line and the notes say it is pruned, as the node itself answers; the latest page reconciles', async () => {
    const dev0 = node.addresses[DEV0.name];
    // What the node says for height 3.
    const rest = await raw(`${node.rest}/cosmos/bank/v1beta1/balances/${dev0.bech32}`, { headers: { 'x-cosmos-block-height': '3' } });
    // evmd v0.3.2 (SDK 0.53.4) answers HTTP 500 with gRPC code 2 and the SDK's error 38 in the text (not the
    // 404 / code 5 read from the source earlier): the devnet answers the same (test/devnet/restState.ts).
    assert.equal(rest.status, 500, rest.text.slice(0, 300));
    assert.equal(rest.json.code, 2);
    assert.match(
      rest.json.message,
      /^codespace sdk code 38: not found: failed to load state at height 3; version mismatch on immutable IAVL tree; version does not exist/,
    );
    const evm = (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [dev0.hex, '0x3'] })).json;
    assert.ok(evm.error, JSON.stringify(evm));
    // The page at height 3.
    forgetContext();
    const r = await lookUp(executeSource(provider, runner.options()), `${dev0.hex}@3`);
    assert.equal(r.kind, 'address');
    const a = (r as Extract<typeof r, { kind: 'address' }>).address;
    assert.match(a.state?.coverage ?? '', /^Height 3 is pruned on this provider/);
    assert.equal(a.balances, undefined);
    assert.equal(a.state?.delegations, undefined, 'never "no delegation" for a height it cannot read');
    assert.ok(a.state?.missing.includes('bank balances: height 3 is pruned on this provider'), a.state?.missing.join('\n'));
    assert.ok(
      a.state?.missing.includes('EVM balance (eth_getBalance): height 3 is pruned on this provider'),
      `${a.state?.missing.join('\n')}\nEVM: ${JSON.stringify(evm.error)}`,
    );
    assert.match(renderLookup(r), /Coverage: `Height 3 is pruned on this provider/);
    // The latest page: pinned to the tip, which the node keeps.
    forgetHistory();
    const latest = await page2(dev0.hex);
    assert.equal(latest.state?.coverage, undefined);
    assert.equal(latest.state?.reconciliation?.equal, true, latest.state?.reconciliation?.line);
    assert.deepEqual(latest.state?.missing, []);
  });

  const page2 = async (query: string): Promise<AddressView> => {
    forgetContext();
    const r = await lookUp(executeSource(provider, runner.options()), query);
    assert.equal(r.kind, 'address', JSON.stringify(r));
    return (r as Extract<typeof r, { kind: 'address' }>).address;
  };
});
