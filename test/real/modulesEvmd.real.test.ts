// Every generated module route (src/core/chain/catalogue/modules.json) against a fresh evmd v0.3.2
// chain, with real values taken from the chain: its validator (operator, consensus and account
// address), the validator's self-delegation, a gov proposal submitted here, the `atest` denom, the
// EVM account of a funded key, a contract deployed here and its storage slot, a real EVM
// transaction (for the trace). Each route answers 200 with the documented top-level fields, or is
// listed below with the reason (docs/modules.md repeats the lists). Prints the counts.
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { type Hex, keccak256 } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { moduleOperations } from '../../src/core/chain/catalogue/modules';
import type { Operation } from '../../src/core/chain/operations';
import { EMITTER_INIT } from '../devnet/contract';
import { DEV0, EVM_CHAIN_ID, EvmdNode, GAS_PRICES, VALIDATOR } from './helpers/evmd';
import { Runner } from './helpers/extension';
import { raw, rawPost, waitFor } from './helpers/nodes';

type Json = any;

/** Modules evmd v0.3.2 does not include: its gateway answers 501 Not Implemented. */
export const NOT_IN_EVMD = ['nft', 'group', 'circuit', 'params', 'ibc.interchain_accounts.controller', 'ibc.interchain_accounts.host', 'ibc.wasm'];

/**
 * Served routes that cannot answer 200 on a one-validator chain without IBC connections, evidence,
 * grants or upgrades: the object asked for does not exist (the node says so: 404 NotFound, or
 * 400/500 with the reason). Route id -> why.
 */
export const NO_SUCH_OBJECT: Record<string, string> = {
  'evidence.Evidence': 'no evidence was ever submitted',
  'tx.GetTx': 'a made-up hash: no such transaction',
  'feegrant.Allowance': 'no fee allowance was granted',
  'gov.Vote': 'nobody voted on the proposal',
  'gov.v1beta1.Vote': 'nobody voted on the proposal',
  'staking.UnbondingDelegation': 'the delegator has no unbonding delegation',
  'erc20.TokenPair': 'no token pair registered for the denom',
  'ibc.transfer.EscrowAddress': 'no IBC channel on this chain (404)',
  'ibc.transfer.DenomHash': 'no such IBC denom trace',
  'ibc.transfer.Denom': 'no such IBC denom',
  'ibc.transfer.TotalEscrowForDenom': 'answers 400 for atest on a chain that never sent it over IBC',
  'ibc.client.ClientState': 'no IBC client on this chain',
  'ibc.client.ConsensusState': 'no IBC client on this chain',
  'ibc.client.UpgradedClientState': 'no upgrade planned',
  'ibc.client.UpgradedConsensusState': 'no upgrade planned',
  'ibc.connection.ClientConnections': 'no IBC client on this chain',
  'ibc.connection.Connection': 'no IBC connection on this chain',
  'ibc.connection.ConnectionClientState': 'no IBC connection on this chain',
  'ibc.connection.ConnectionConsensusState': 'no IBC connection on this chain',
  'ibc.channel.Channel': 'no IBC channel on this chain',
  'ibc.channel.ChannelClientState': 'no IBC channel on this chain',
  'ibc.channel.ChannelConsensusState': 'no IBC channel on this chain',
  'ibc.channel.NextSequenceReceive': 'no IBC channel on this chain',
  'ibc.channel.NextSequenceSend': 'no IBC channel on this chain',
  'ibc.channel.PacketAcknowledgement': 'no IBC packet on this chain',
  'ibc.channel.PacketCommitment': 'no IBC packet on this chain',
  'ibc.channel.PacketReceipt': 'no IBC channel on this chain',
  'ibc.channel.PacketAcknowledgements': 'no IBC channel on this chain',
  'ibc.channel.PacketCommitments': 'no IBC channel on this chain',
  'auth.AddressStringToBytes':
    'unreachable over REST: the gateway sends /cosmos/auth/v1beta1/bech32/{x} to AddressBytesToString (the same pattern, registered first), which refuses a bech32 string as bytes',
  'gov.v1beta1.Proposals': 'the legacy v1beta1 view cannot show a v1 proposal that has no message (SDK: "not exactly one"); gov.Proposals shows it',
  'gov.v1beta1.Proposal': 'the legacy v1beta1 view cannot show a v1 proposal that has no message (SDK: "not exactly one"); gov.Proposal shows it',
  'ibc.channel.UnreceivedAcks': 'no IBC channel on this chain',
  'ibc.channel.UnreceivedPackets': 'no IBC channel on this chain',
  'ibc.channel.v2.NextSequenceSend': 'no IBC v2 client on this chain',
  'ibc.channel.v2.PacketAcknowledgement': 'no IBC packet on this chain',
  'ibc.channel.v2.PacketCommitment': 'no IBC packet on this chain',
  'vm.TraceTx': 'tracing needs the whole MsgEthereumTx (its data), which query parameters cannot carry: refused by the node, never sent without msg',
};

describe('evmd (real Cosmos EVM chain): every generated module route', function () {
  this.timeout(180_000);
  let node: EvmdNode;
  let runner: Runner;
  const dev0 = mnemonicToAccount(DEV0.mnemonic);
  const values: Record<string, string> = {};

  const evm = async (method: string, params: unknown[]): Promise<Json> => {
    const r = (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method, params })).json;
    if (r.error) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  };
  const rest = async (p: string): Promise<Json> => (await raw(`${node.rest}${p}`)).json;

  before(async function () {
    this.timeout(300_000);
    node = await EvmdNode.create({ chainId: 'chain-endpoints-modules-1' });
    await node.start();
    runner = new Runner({ name: 'real evmd', endpoints: { rest: node.rest } });
    // The validator and its addresses.
    const vals = await rest('/cosmos/staking/v1beta1/validators');
    values.valoper = vals.validators[0].operator_address;
    const infos = await waitFor('a signing info', async () => (await rest('/cosmos/slashing/v1beta1/signing_infos')).info?.[0]?.address as string | undefined);
    values.valcons = infos;
    values.account = node.addresses[VALIDATOR.name].bech32;
    // An EVM transaction from dev0 deploying a contract: the EVM account, the contract and its slot, the hash for traces.
    const nonce = Number(BigInt(await evm('eth_getTransactionCount', [dev0.address, 'pending'])));
    const gasPrice = BigInt(await evm('eth_gasPrice', []));
    const signed = await dev0.signTransaction({
      type: 'eip1559',
      chainId: Number(EVM_CHAIN_ID),
      nonce,
      data: EMITTER_INIT as Hex,
      gas: 200_000n,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: 1n,
    });
    const hash = await evm('eth_sendRawTransaction', [signed]);
    assert.equal(hash, keccak256(signed));
    const receipt = await waitFor('the deployment receipt', async () => {
      const r = (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] })).json;
      return r.result ?? undefined;
    });
    values.evmAccount = dev0.address;
    values.contract = receipt.contractAddress;
    values.evmTx = hash;
    values.evmTxBlock = String(BigInt(receipt.blockNumber));
    // A gov proposal (no messages: a text proposal), submitted by the validator with a deposit.
    const dir = mkdtempSync(path.join(node.home, 'gov-'));
    const file = path.join(dir, 'proposal.json');
    writeFileSync(
      file,
      JSON.stringify({
        messages: [],
        metadata: 'ipfs://chain-endpoints-test',
        deposit: `10000000${'atest'}`,
        title: 'chain-endpoints',
        summary: 'a proposal for the module routes test',
      }),
    );
    const submitted = node.cli([
      'tx',
      'gov',
      'submit-proposal',
      file,
      '--from',
      VALIDATOR.name,
      '--chain-id',
      node.chainId,
      '--keyring-backend',
      'test',
      '--node',
      `tcp://127.0.0.1:${node.ports.rpc}`,
      '--gas',
      '400000',
      '--gas-prices',
      GAS_PRICES,
      '--yes',
      '-o',
      'json',
    ]);
    const sent = JSON.parse(submitted.slice(submitted.indexOf('{'))) as { code: number; raw_log: string; txhash: string };
    assert.equal(sent.code, 0, `submit-proposal: ${submitted.slice(0, 500)}`);
    const included = await waitFor('the proposal tx', async () => (await rest(`/cosmos/tx/v1beta1/txs/${sent.txhash}`)).tx_response, 30_000);
    assert.equal(included.code, 0, `submit-proposal failed: ${included.raw_log}`);
    values.proposal = await waitFor('the proposal', async () => (await rest('/cosmos/gov/v1/proposals')).proposals?.[0]?.id as string | undefined, 30_000);
    values.height = String((await rest('/cosmos/base/tendermint/v1beta1/blocks/latest')).block.header.height);
  });

  after(async () => {
    await runner?.dispose();
    await node?.dispose();
  });

  /** Real values for a route's parameters, by name (and route where the name is ambiguous). */
  function argsFor(op: Operation): Record<string, string> {
    const args: Record<string, string> = {};
    const byId: Record<string, Record<string, string>> = {
      'auth.ModuleAccountByName': { name: 'fee_collector' },
      'upgrade.AppliedPlan': { name: 'v1' },
      'auth.AccountAddressByID': { id: '0' },
      'auth.AddressBytesToString': { address_bytes: Buffer.from(values.evmAccount.slice(2), 'hex').toString('base64') },
      'vm.Storage': { address: values.contract, key: '0x' + '00'.repeat(32) },
      'vm.Code': { address: values.contract },
      'vm.EthCall': { args: Buffer.from(JSON.stringify({ to: values.contract, data: '0x' })).toString('base64') },
      'vm.EstimateGas': {
        args: Buffer.from(JSON.stringify({ from: values.evmAccount, to: values.contract, data: '0x' })).toString('base64'),
        gas_cap: '25000000',
      },
      'tendermint.ABCIQuery': { path: '/app/version' },
      'vm.TraceTx': { 'msg.hash': values.evmTx, 'msg.from': values.evmAccount, block_number: values.evmTxBlock },
      'vm.TraceBlock': { block_number: values.evmTxBlock },
      'feemarket.BlockGas': {},
      'tx.GetTxsEvent': { query: `tx.height>=1` },
      'tx.GetTx': { hash: 'AB'.repeat(32) },
      'erc20.TokenPair': { token: 'atest' },
      'ibc.transfer.Denom': { hash: 'ibc/' + 'AB'.repeat(32) },
      'ibc.transfer.DenomHash': { trace: 'transfer/channel-0/atest' },
    };
    for (const p of op.params) {
      if (p.hidden) continue;
      if (byId[op.id] && p.key in byId[op.id]) continue;
      const kind = op.route!.path.includes(`{${p.key}}`) || !p.optional;
      if (!kind) continue;
      const v = (() => {
        if (p.validate === undefined) return undefined;
        if (/valoper|validator_addr|validator_address/.test(p.key)) return values.valoper;
        if (p.key === 'cons_address') return values.valcons;
        if (
          ['address', 'delegator_addr', 'delegator_address', 'depositor', 'voter', 'granter', 'grantee', 'owner', 'admin', 'address_string'].includes(p.key)
        ) {
          return op.route!.module === 'vm' ? values.evmAccount : values.account;
        }
        if (p.key === 'proposal_id') return values.proposal;
        if (p.key === 'params_type') return 'voting';
        if (p.key === 'denom') return 'atest';
        if (p.key === 'height' || p.key === 'last_height' || p.key === 'revision_height') return values.height;
        if (p.key === 'revision_number' || p.key === 'sequence' || p.key === 'group_id' || p.key === 'id') return '1';
        if (/sequences$/.test(p.key)) return '1,2';
        if (p.key === 'client_id') return '07-tendermint-0';
        if (p.key === 'connection_id' || p.key === 'connection') return 'connection-0';
        if (p.key === 'channel_id') return 'channel-0';
        if (p.key === 'port_id') return 'transfer';
        if (p.key === 'class_id') return 'class';
        if (p.key === 'checksum') return 'ab'.repeat(32);
        if (p.key === 'hash') return 'AB'.repeat(32);
        return undefined;
      })();
      if (v !== undefined) args[p.key] = v;
    }
    return { ...args, ...(byId[op.id] ?? {}) };
  }

  it('runs every generated route: 200 with the documented fields, or listed with the reason', async () => {
    const ops = moduleOperations();
    const answered: string[] = [];
    const notServed: string[] = [];
    const noObject: string[] = [];
    const problems: string[] = [];
    for (const op of ops) {
      const args = argsFor(op);
      const o = await runner.run(op.id, args);
      const module = op.route!.module;
      if (o.status === 200 && !o.error) {
        const result = o.result as Record<string, unknown>;
        const keys = Object.keys(result ?? {});
        const undocumented = op.route!.fields.length ? keys.filter((k) => !op.route!.fields.includes(k)) : [];
        if (undocumented.length) problems.push(`${op.id}: fields not documented: ${undocumented.join(', ')}`);
        else answered.push(op.id);
      } else if (o.status === 501 && NOT_IN_EVMD.includes(module)) {
        notServed.push(op.id);
      } else if (NO_SUCH_OBJECT[op.id] !== undefined) {
        noObject.push(`${op.id} (${o.status ?? o.error?.kind}: ${NO_SUCH_OBJECT[op.id]})`);
      } else {
        problems.push(`${op.id} ${JSON.stringify(args)} -> ${o.status ?? '-'} ${o.error?.message ?? ''}`.slice(0, 700));
      }
    }
    // The node is still up (trace_tx with its msg did not crash it).
    const alive = await raw(`${node.rest}/cosmos/base/tendermint/v1beta1/syncing`);
    assert.equal(alive.status, 200, 'evmd still answers after every route');
    console.log(
      `      module routes: ${ops.length} generated, ${ops.length - notServed.length} served by evmd, ${answered.length} answered 200 with the documented fields, ` +
        `${notServed.length} not in evmd (501), ${noObject.length} served without such an object here`,
    );
    for (const n of noObject) console.log(`        - ${n}`);
    assert.deepEqual(problems, []);
    for (const m of NOT_IN_EVMD)
      assert.ok(
        notServed.some((id) => id.startsWith(`${m}.`)),
        `${m} answered 501 as expected`,
      );
  });
});
