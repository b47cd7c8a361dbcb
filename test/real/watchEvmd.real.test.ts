// Issue #20 against a real Cosmos EVM chain (evmd v0.3.2): the core Watch (what Watch Events…
// and the API's watch() run) receives evmd's own events. A CometBFT `tm.event='Tx'` watch gets
// the Tx events of a bank send (signed with the evmd CLI) and of an EVM transfer (viem), the
// latter with `ethereum_tx.ethereumTxHash`; over evmd's EVM WebSocket (8546's equivalent) a
// `logs` watch filtered on a freshly deployed contract gets the log its call emits, and a
// `newHeads` watch gets consecutive heads. Each wait fails the test when the event never comes.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { type Hex, keccak256 } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import type { WatchEntry } from '../../src/core/events/entry';
import { Watch, type WatchOptions } from '../../src/core/events/watch';
import { EMITTER_INIT, EMITTER_RUNTIME, TRANSFER_TOPIC, transferCallData } from '../devnet/contract';
import { bech32Encode } from '../devnet/encoding';
import { DEV0, EVM_CHAIN_ID, EvmdNode, VALIDATOR } from './helpers/evmd';
import { rawPost, waitFor } from './helpers/nodes';

type Json = any;
const OPTS: WatchOptions = { pingIntervalMs: 5_000, connectTimeoutMs: 10_000, maxBackoffMs: 1_000, batchMs: 50 };

describe('evmd (real Cosmos EVM chain): live event watches (issue #20)', function () {
  this.timeout(120_000);
  let node: EvmdNode;
  const watches: Watch[] = [];
  const dev0 = mnemonicToAccount(DEV0.mnemonic);

  before(async function () {
    this.timeout(240_000);
    node = await EvmdNode.create({ chainId: 'chain-endpoints-watch-1' });
    await node.start();
  });

  let failed = false;
  afterEach(function () {
    if (this.currentTest?.state === 'failed') failed = true;
    for (const w of watches.splice(0)) w.dispose();
  });
  after(async () => {
    if (failed && node) console.log(`      evmd log (last lines):\n${node.log(30)}`);
    await node?.dispose();
  });

  const evm = async (method: string, params: unknown[]): Promise<Json> => {
    const r = (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method, params })).json;
    if (r.error) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  };

  /** Starts a watch, collects what it emits, and waits until it is live. */
  async function watch(target: ConstructorParameters<typeof Watch>[0]): Promise<{ w: Watch; got: WatchEntry[] }> {
    const w = new Watch(target, OPTS);
    watches.push(w);
    const got: WatchEntry[] = [];
    w.onBatch((b) => got.push(...b));
    w.start();
    await waitFor('the watch to be live', async () => (w.snapshot().state === 'live' ? true : undefined), 20_000);
    return { w, got };
  }

  async function sendEvm(tx: { to?: Hex; value?: bigint; data?: Hex; gas: bigint }): Promise<Hex> {
    const nonce = Number(BigInt(await evm('eth_getTransactionCount', [dev0.address, 'pending'])));
    const gasPrice = BigInt(await evm('eth_gasPrice', []));
    const raw = await dev0.signTransaction({
      type: 'eip1559',
      chainId: Number(EVM_CHAIN_ID),
      nonce,
      ...tx,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: 1n,
    });
    const hash = (await evm('eth_sendRawTransaction', [raw])) as Hex;
    assert.equal(hash, keccak256(raw));
    return hash;
  }

  const receipt = (hash: Hex): Promise<Json> =>
    waitFor(`the receipt of ${hash}`, async () => {
      const r = (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] })).json;
      return r.result ?? undefined;
    });

  it("CometBFT tm.event='Tx': the real Tx events of a bank send and of an EVM tx (ethereum_tx.ethereumTxHash)", async () => {
    const { got } = await watch({ kind: 'comet', url: node.cometWs, query: "tm.event='Tx'" });
    const to = bech32Encode('cosmos', randomBytes(20));
    const bytes = node.signBankSend(node.addresses[VALIDATOR.name].bech32, to, 4242n, 'chain-endpoints watch');
    const bankHash = createHash('sha256').update(Buffer.from(bytes, 'base64')).digest('hex').toUpperCase();
    const sent = (await rawPost(node.cometHttp, { jsonrpc: '2.0', id: 1, method: 'broadcast_tx_sync', params: [bytes] })).json;
    assert.equal(sent.result?.code, 0, JSON.stringify(sent));
    const evmHash = await sendEvm({ to: `0x${randomBytes(20).toString('hex')}`, value: 777n, gas: 21_000n });

    const events = (e: WatchEntry): Record<string, string[]> => ((e.data as Json)?.events ?? {}) as Record<string, string[]>;
    const bank = await waitFor('the bank send Tx event', async () => got.find((e) => e.kind === 'event' && e.txHash === bankHash), 30_000);
    assert.equal(bank.type, 'Tx');
    assert.equal(bank.hashKind, 'comet');
    assert.match(bank.height ?? '', /^\d+$/);
    assert.ok(events(bank)['transfer.recipient']?.includes(to), JSON.stringify(events(bank)['transfer.recipient']));
    assert.ok(events(bank)['message.action']?.includes('/cosmos.bank.v1beta1.MsgSend'));
    assert.ok(events(bank)['tx.acc_seq']?.[0].startsWith(node.addresses[VALIDATOR.name].bech32 + '/'));
    const txResult = (bank.data as Json).data.value.TxResult;
    assert.equal(txResult.tx, bytes, 'the TxResult carries the tx bytes');

    const eth = await waitFor(
      'the EVM tx Tx event',
      async () => got.find((e) => e.kind === 'event' && events(e)['ethereum_tx.ethereumTxHash']?.includes(evmHash)),
      30_000,
    );
    assert.ok(events(eth)['message.action']?.includes('/cosmos.evm.vm.v1.MsgEthereumTx'));
    assert.match(eth.txHash ?? '', /^[0-9A-F]{64}$/);
    assert.ok(events(eth)['ethereum_tx.txHash']?.includes((eth.txHash ?? '').toLowerCase()), 'ethereum_tx.txHash is the Cosmos hash');
    assert.equal((await receipt(evmHash)).status, '0x1');
  });

  it("EVM WebSocket: a logs watch on a deployed contract receives its call's log; newHeads arrive in order", async () => {
    const deploy = await sendEvm({ data: EMITTER_INIT as Hex, gas: 200_000n });
    const created = await receipt(deploy);
    assert.equal(created.status, '0x1');
    const contract = created.contractAddress as Hex;
    assert.equal(await evm('eth_getCode', [contract, 'latest']), EMITTER_RUNTIME, 'the runtime the init code returns');

    const logs = await watch({ kind: 'evm', url: node.evmWs, subscription: 'logs', address: contract, topics: [TRANSFER_TOPIC] });
    const other = await watch({ kind: 'evm', url: node.evmWs, subscription: 'logs', address: `0x${'12'.repeat(20)}` });
    const heads = await watch({ kind: 'evm', url: node.evmWs, subscription: 'newHeads' });
    const to = `0x${randomBytes(20).toString('hex')}` as Hex;
    const call = await sendEvm({ to: contract, data: transferCallData(to, 31337n) as Hex, gas: 100_000n });
    const r = await receipt(call);
    assert.equal(r.logs.length, 1, 'the call emitted one log');

    const log = await waitFor('the log notification', async () => logs.got.find((e) => e.kind === 'event' && e.txHash === call), 30_000);
    const data = log.data as Json;
    assert.equal(log.type, 'log');
    assert.equal(data.address.toLowerCase(), contract.toLowerCase());
    assert.deepEqual(
      (data.topics as string[]).map((t) => t.toLowerCase()),
      [TRANSFER_TOPIC, '0x' + dev0.address.slice(2).toLowerCase().padStart(64, '0'), '0x' + to.slice(2).padStart(64, '0')],
    );
    assert.equal(BigInt(data.data), 31337n);
    assert.equal(log.height, BigInt(r.blockNumber).toString());

    await waitFor('two newHeads', async () => (heads.got.filter((e) => e.kind === 'event').length >= 2 ? true : undefined), 30_000);
    const h = heads.got.filter((e) => e.kind === 'event');
    assert.equal(h[0].type, 'newHeads');
    assert.equal(BigInt(h[1].height ?? '0') - BigInt(h[0].height ?? '0'), 1n);
    assert.equal(other.got.filter((e) => e.kind === 'event').length, 0, 'a watch on another address got nothing');
  });
});
