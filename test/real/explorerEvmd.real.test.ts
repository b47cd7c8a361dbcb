// The explorer against a real Cosmos EVM chain (evmd v0.3.2): a bank send signed by the evmd CLI and
// an EVM transfer signed with viem, looked up by their hashes (Cosmos and EVM, each finding the
// other), their blocks, and the accounts involved, through every interface and with some removed
// (local decoding when REST is missing, the Ethereum bytes decoded when the EVM RPC is missing).
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mnemonicToAccount } from 'viem/accounts';
import type { Provider } from '../../src/core/config/providers';
import { forgetContext } from '../../src/core/explorer/context';
import { lookUp } from '../../src/core/explorer/lookup';
import { renderLookup } from '../../src/core/explorer/render';
import { executeSource } from '../../src/core/explorer/source';
import { keccak256 } from '../devnet/encoding';
import { DENOM, DEV0, EVM_CHAIN_ID, EvmdNode, VALIDATOR } from './helpers/evmd';
import { record, printRecorded, Runner } from './helpers/extension';
import { raw, rawPost, waitFor } from './helpers/nodes';

type Json = any;

describe('evmd (real Cosmos EVM chain): the explorer', function () {
  this.timeout(120_000);
  let node: EvmdNode;
  let runner: Runner;
  let full: Provider;
  const dev0 = mnemonicToAccount(DEV0.mnemonic);
  let bank: { hash: string; height: string; to: string };
  let evmTx: { hash: string; height: string; to: `0x${string}`; cosmosHash: string };

  const source = (p: Partial<Provider['endpoints']> | undefined = undefined) => {
    forgetContext();
    const provider: Provider = { ...full, endpoints: p ?? full.endpoints };
    return executeSource(provider, runner.options());
  };

  before(async function () {
    this.timeout(240_000);
    node = await EvmdNode.create();
    await node.start();
    full = { name: 'real evmd', endpoints: { evmRpc: node.evmRpc, consensusHttp: node.cometHttp, consensusRpc: node.cometHttp, rest: node.rest } };
    runner = new Runner(full);
    const evm = async (method: string, params: unknown[]) => (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method, params })).json;

    // A bank send from the validator, broadcast over CometBFT.
    const bankTo = node.addresses[DEV0.name].bech32;
    const bytes = node.signBankSend(node.addresses[VALIDATOR.name].bech32, bankTo, 4242n, 'explorer real test');
    const hash = createHash('sha256').update(Buffer.from(bytes, 'base64')).digest('hex').toUpperCase();
    await rawPost(node.cometHttp, { jsonrpc: '2.0', id: 1, method: 'broadcast_tx_sync', params: { tx: bytes } });
    const found = await waitFor(
      'the bank send in a block',
      async () => {
        const t = await raw(`${node.cometHttp}/tx?hash=0x${hash}`);
        return t.status === 200 ? t.json.result : undefined;
      },
      30_000,
      300,
    );
    bank = { hash, height: found.height, to: bankTo };

    // An EVM transfer from dev0, signed with viem.
    const evmTo = `0x${randomBytes(20).toString('hex')}` as const;
    const nonce = Number(BigInt((await evm('eth_getTransactionCount', [dev0.address, 'pending'])).result));
    const gasPrice = BigInt((await evm('eth_gasPrice', [])).result);
    const signed = await dev0.signTransaction({
      type: 'eip1559',
      chainId: Number(EVM_CHAIN_ID),
      nonce,
      to: evmTo,
      value: 777n,
      gas: 21_000n,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: 1n,
    });
    const evmHash = '0x' + keccak256(Buffer.from(signed.slice(2), 'hex')).toString('hex');
    await evm('eth_sendRawTransaction', [signed]);
    const receipt = await waitFor('the EVM receipt', async () => (await evm('eth_getTransactionReceipt', [evmHash])).result ?? undefined, 30_000, 300);
    const search = await waitFor(
      'the Cosmos tx of the EVM hash',
      async () => {
        const t = await raw(`${node.cometHttp}/tx_search?query=${encodeURIComponent(JSON.stringify(`ethereum_tx.ethereumTxHash='${evmHash}'`))}`);
        return t.status === 200 && t.json.result.txs.length > 0 ? t.json.result.txs[0] : undefined;
      },
      30_000,
      300,
    );
    evmTx = { hash: evmHash, height: BigInt(receipt.blockNumber).toString(), to: evmTo, cosmosHash: search.hash };
  });

  after(async () => {
    await runner?.dispose();
    await node?.dispose();
    printRecorded('evmd explorer');
  });

  it('a Cosmos hash: decoded by the node (REST), and the same decoded locally from CometBFT alone', async () => {
    const r = await lookUp(source(), bank.hash.toLowerCase());
    assert.equal(r.kind, 'tx');
    if (r.kind !== 'tx') return;
    assert.equal(r.tx.decodedBy, 'rest');
    assert.equal(r.tx.height, bank.height);
    assert.equal(r.tx.messages[0].typeUrl, '/cosmos.bank.v1beta1.MsgSend');
    assert.equal(r.tx.signers[0].address, node.addresses[VALIDATOR.name].bech32);
    assert.equal(r.tx.memo, 'explorer real test');
    assert.equal(r.tx.code, 0);
    const local = await lookUp(source({ consensusHttp: node.cometHttp }), bank.hash);
    assert.equal(local.kind === 'tx' && local.tx.decodedBy, 'local');
    if (local.kind !== 'tx') return;
    assert.equal((local.tx.messages[0].fields as Json).toAddress, bank.to);
    assert.equal(local.tx.signers[0].address, node.addresses[VALIDATOR.name].bech32);
    assert.equal(local.tx.fee?.gasLimit, r.tx.fee?.gasLimit);
    record('explorer: Cosmos hash', renderLookup(r).split('\n').slice(0, 14).join('\n'));
  });

  it('an EVM hash finds its Cosmos transaction, and the Cosmos hash finds the EVM one', async () => {
    const r = await lookUp(source(), evmTx.hash);
    assert.equal(r.kind, 'tx');
    if (r.kind !== 'tx') return;
    assert.equal(r.tx.hash, evmTx.cosmosHash);
    const e = r.tx.evm[0];
    assert.equal(e.hash, evmTx.hash);
    assert.equal(e.source, 'evmRpc');
    assert.equal(e.from?.toLowerCase(), dev0.address.toLowerCase());
    assert.equal(e.to?.toLowerCase(), evmTx.to);
    assert.equal(e.value?.amount, '777');
    assert.equal(e.status, 'success');
    const back = await lookUp(source(), evmTx.cosmosHash);
    assert.equal(back.kind === 'tx' && back.tx.evm[0]?.hash, evmTx.hash);
    // Without the EVM RPC: the Ethereum transaction read from the Cosmos bytes, its sender recovered.
    const noEvm = await lookUp(source({ consensusHttp: node.cometHttp, rest: node.rest }), evmTx.hash);
    assert.equal(noEvm.kind, 'tx');
    if (noEvm.kind !== 'tx') return;
    assert.equal(noEvm.tx.evm[0].source, 'decoded');
    assert.equal(noEvm.tx.evm[0].from?.toLowerCase(), dev0.address.toLowerCase());
    assert.equal(noEvm.tx.evm[0].hash, evmTx.hash);
  });

  it('blocks by height and by hash: transactions decoded, proposer, events, the EVM block', async () => {
    const r = await lookUp(source(), evmTx.height);
    assert.equal(r.kind, 'block');
    if (r.kind !== 'block') return;
    const line = r.block.txs.find((t) => t.hash === evmTx.cosmosHash);
    assert.ok(line, 'the EVM transfer is a line of its block');
    assert.match(line.summary, /^MsgEthereumTx 0x/);
    assert.equal(line.tx?.evm[0].hash, evmTx.hash);
    assert.match(r.block.proposer?.valcons ?? '', /^cosmosvalcons1/);
    assert.ok(r.block.events.length > 0);
    assert.ok(r.block.evm && r.block.evm.txCount >= 1);
    const byHash = await lookUp(source(), r.block.evm.hash);
    assert.equal(byHash.kind === 'block' && byHash.block.height, evmTx.height);
    record('explorer: block', renderLookup(r).split('\n').slice(0, 20).join('\n'));
  });

  it('addresses: both forms, balances with the bank, the EVM balance and nonce, a validator record', async () => {
    const r = await lookUp(source(), dev0.address);
    assert.equal(r.kind, 'address');
    if (r.kind !== 'address') return;
    assert.equal(r.address.forms.account, node.addresses[DEV0.name].bech32);
    assert.ok(r.address.balances?.some((c) => c.denom === DENOM && BigInt(c.amount) > 0n));
    assert.ok(BigInt(r.address.evmBalance?.amount ?? '0') > 0n);
    assert.ok(Number(r.address.nonce) >= 1);
    assert.equal(r.address.isContract, false);
    const v = await lookUp(source(), node.addresses[VALIDATOR.name].bech32);
    assert.equal(v.kind, 'address');
    if (v.kind !== 'address') return;
    const op = await lookUp(source(), v.address.forms.valoper!);
    assert.equal(op.kind === 'address' && op.address.validator?.operator_address, v.address.forms.valoper);
  });
});
