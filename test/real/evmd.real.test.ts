// Every operation of the extension's catalogue against a real Cosmos EVM chain (evmd v0.3.2: Cosmos
// SDK 0.53, CometBFT 0.38, one validator on loopback), with traffic this suite creates: bank sends
// signed with the evmd CLI and an EVM transfer signed with viem, each sent through the catalogue's
// broadcast operations and then found on chain. Operations are taken from OPERATIONS: a new
// entry is run here without edits, and one whose parameters this file cannot fill fails.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mnemonicToAccount } from 'viem/accounts';
import { type Operation, OPERATIONS } from '../../src/core/chain/operations';
import { bech32Decode, bech32Encode, keccak256 } from '../devnet/encoding';
import { DENOM, DEV0, EVM_CHAIN_ID, EvmdNode, VALIDATOR } from './helpers/evmd';
import { printRecorded, record, Runner } from './helpers/extension';
import { raw, rawPost, waitFor } from './helpers/nodes';

type Json = any;

/** What the traffic left on chain, for the operations that take a hash, height or address. */
interface Traffic {
  cosmos: Array<{ via: string; hash: string; height: string; to: string; amount: bigint; bytes: string }>;
  evm?: { hash: string; height: string; to: `0x${string}`; value: bigint; raw: string };
}

describe('evmd (real Cosmos EVM chain): every operation of the catalogue', function () {
  this.timeout(120_000);
  let node: EvmdNode;
  let runner: Runner;
  const traffic: Traffic = { cosmos: [] };
  const dev0 = mnemonicToAccount(DEV0.mnemonic);

  before(async function () {
    this.timeout(240_000);
    node = await EvmdNode.create();
    await node.start();
    runner = new Runner({
      name: 'real evmd',
      endpoints: { evmRpc: node.evmRpc, consensusHttp: node.cometHttp, consensusRpc: node.cometHttp, consensusWs: node.cometWs, rest: node.rest },
    });
  });

  let failed = false;
  afterEach(function () {
    if (this.currentTest?.state === 'failed') failed = true;
  });

  after(async () => {
    if (failed && node) console.log(`      evmd log (last lines):\n${node.log(30)}`);
    await runner?.dispose();
    await node?.dispose();
    printRecorded('evmd');
  });

  const evm = async (method: string, params: unknown[]) => (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method, params })).json;

  /** A transfer from dev0 (local_node.sh's first dev account) signed here with viem. */
  async function signEvmTransfer(to: `0x${string}`, value: bigint): Promise<`0x${string}`> {
    const nonce = Number(BigInt((await evm('eth_getTransactionCount', [dev0.address, 'pending'])).result));
    const gasPrice = BigInt((await evm('eth_gasPrice', [])).result);
    return dev0.signTransaction({
      type: 'eip1559',
      chainId: Number(EVM_CHAIN_ID),
      nonce,
      to,
      value,
      gas: 21_000n,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: 1n,
    });
  }

  /** Fresh signed transactions for each interface's broadcast operation. */
  async function freshTx(op: Operation): Promise<{ tx: string; expect: Traffic['cosmos'][number] | NonNullable<Traffic['evm']> }> {
    if (op.iface === 'evmRpc') {
      const to = `0x${randomBytes(20).toString('hex')}` as const;
      const tx = await signEvmTransfer(to, 12_345n);
      return { tx, expect: { hash: '0x' + keccak256(Buffer.from(tx.slice(2), 'hex')).toString('hex'), height: '', to, value: 12_345n, raw: tx } };
    }
    if (op.iface === 'rest' || op.iface === 'consensusRpc' || op.iface === 'consensusHttp') {
      const to = bech32Encode('cosmos', randomBytes(20));
      const amount = 1000n + BigInt(traffic.cosmos.length);
      const bytes = node.signBankSend(node.addresses[VALIDATOR.name].bech32, to, amount, `chain-endpoints ${op.id}`);
      const hash = createHash('sha256').update(Buffer.from(bytes, 'base64')).digest('hex').toUpperCase();
      return { tx: bytes, expect: { via: op.id, hash, height: '', to, amount, bytes } };
    }
    throw new Error(`broadcast operation ${op.id} on ${op.iface}: this suite has no way to sign a transaction for that interface yet`);
  }

  it('every broadcast operation sends a freshly signed transaction that is then found on chain', async function () {
    this.timeout(180_000);
    const broadcasts = OPERATIONS.filter((op) => op.broadcast);
    assert.ok(broadcasts.length >= 3, 'the catalogue has broadcast operations');
    for (const op of broadcasts) {
      const { tx, expect } = await freshTx(op);
      const o = await runner.ok(op.id, { tx, confirmed: 'true' });
      if ('value' in expect) {
        assert.equal(o.result, expect.hash, `${op.id} answers the keccak hash of the raw tx`);
        const receipt = await waitFor(
          `${op.id}: the receipt`,
          async () => {
            const r = await evm('eth_getTransactionReceipt', [expect.hash]);
            return r.result ?? undefined;
          },
          30_000,
          300,
        );
        assert.equal(receipt.status, '0x1');
        expect.height = BigInt(receipt.blockNumber).toString();
        traffic.evm = expect;
        record(`${op.id}`, `${expect.hash} in block ${expect.height}`);
      } else {
        const r = o.result as Json;
        const code = r.code ?? r.tx_response?.code;
        const hash = r.hash ?? r.tx_response?.txhash;
        assert.equal(code, 0, `${op.id} accepted by CheckTx: ${o.summary}`);
        assert.equal(hash, expect.hash);
        assert.equal(o.summary, `accepted by CheckTx · hash ${expect.hash}`);
        const found = await waitFor(
          `${op.id}: the tx in a block`,
          async () => {
            const t = await raw(`${node.cometHttp}/tx?hash=0x${expect.hash}`);
            return t.status === 200 ? t.json.result : undefined;
          },
          30_000,
          300,
        );
        assert.equal(found.tx_result.code, 0, `${op.id}: DeliverTx ${found.tx_result.log}`);
        assert.equal(found.tx, expect.bytes);
        expect.height = found.height;
        traffic.cosmos.push(expect);
        record(`${op.id}`, `bank send ${expect.hash} in block ${expect.height}`);
      }
    }
    assert.ok(traffic.evm, 'an EVM transaction was sent');
    assert.ok(traffic.cosmos.length >= 2, 'Cosmos transactions were sent through REST and CometBFT');
  });

  /** Arguments for every parameter of an operation, from the traffic above. */
  function argsFor(op: Operation): Record<string, string> {
    const bank = traffic.cosmos[0];
    const e = traffic.evm;
    if (!bank || !e) throw new Error('no traffic: the broadcast test did not run');
    const byKey: Record<string, () => string> = {
      height: () => (op.iface === 'evmRpc' ? e.height : bank.height),
      hash: () => (op.iface === 'evmRpc' ? e.hash : bank.hash),
      address: () => (op.iface === 'evmRpc' ? e.to : bank.to),
      method: () => (op.iface === 'evmRpc' ? 'eth_getTransactionCount' : 'block'),
      params: () => (op.iface === 'evmRpc' ? JSON.stringify([dev0.address, 'latest']) : JSON.stringify({ height: bank.height })),
      path: () => (op.iface === 'rest' ? `/cosmos/bank/v1beta1/supply/by_denom?denom=${DENOM}` : `/block_results?height=${bank.height}`),
      count: () => '2',
      full: () => 'false',
    };
    const args: Record<string, string> = {};
    for (const p of op.params) {
      const make = byKey[p.key];
      if (!make) throw new Error(`${op.id}: parameter "${p.key}" is new; teach test/real/evmd.real.test.ts what to pass for it`);
      args[p.key] = make();
    }
    return args;
  }

  it('every other operation of the catalogue answers without an error, about the traffic sent', async function () {
    this.timeout(180_000);
    const answers: Record<string, Json> = {};
    // evm.callContract needs a contract: contractsDecodeEvmd.real.test.ts runs it on the contracts chain.
    // evm.simulate likewise: simulate.real.test.ts runs it on anvil and evmd.
    for (const op of OPERATIONS.filter((o) => !o.broadcast && o.id !== 'evm.callContract' && o.id !== 'evm.simulate')) {
      const o = await runner.ok(op.id, argsFor(op));
      assert.notEqual(o.result, undefined, `${op.id}: a result`);
      assert.notEqual(o.result, null, `${op.id}: not null`);
      answers[op.id] = o.result;
    }
    const bank = traffic.cosmos[0];
    const e = traffic.evm!;
    // Spot checks that the answers are about the traffic, per interface. Each id must have run: an
    // operation renamed or dropped from the catalogue fails here instead of skipping its check.
    const ran = (id: string): Json => {
      assert.ok(Object.prototype.hasOwnProperty.call(answers, id), `${id} ran (renamed or dropped from the catalogue?)`);
      return answers[id];
    };
    assert.equal(ran('consensusHttp.tx').hash, bank.hash);
    assert.ok(ran('consensusHttp.block').block.data.txs.includes(bank.bytes));
    assert.deepEqual(ran('consensus.block'), ran('consensusHttp.block'));
    assert.equal(ran('rest.tx').tx.body.messages[0]['@type'], '/cosmos.bank.v1beta1.MsgSend');
    assert.deepEqual(ran('rest.balances').balances, [{ denom: DENOM, amount: bank.amount.toString() }]);
    assert.ok(ran('rest.blockByHeight').block.data.txs.includes(bank.bytes));
    assert.equal(ran('evm.getTransactionByHash').hash, e.hash);
    assert.equal(ran('evm.getTransactionReceipt').transactionHash, e.hash);
    assert.equal(BigInt(ran('evm.getBalance')), e.value);
    assert.equal(BigInt(ran('evm.chainId')), EVM_CHAIN_ID);
    assert.ok(ran('evm.getBlockByNumber').transactions.includes(e.hash));
    assert.equal(ran('consensusWs.subscribeNewBlocks').length, 2);
  });

  it('one account, two faces: the bank balance in atest equals eth_getBalance in wei', async () => {
    const e = traffic.evm!;
    const asBech32 = bech32Encode('cosmos', Buffer.from(e.to.slice(2), 'hex'));
    const rest = await runner.ok('rest.balances', { address: asBech32 });
    assert.deepEqual((rest.result as Json).balances, [{ denom: DENOM, amount: e.value.toString() }]);
    const bank = traffic.cosmos[0];
    const hex = await runner.ok('evm.getBalance', { address: '0x' + bech32Decode(bank.to).bytes.toString('hex') });
    assert.equal(BigInt(hex.result as string), bank.amount);
    assert.equal(node.addresses[DEV0.name].hex, dev0.address.toLowerCase(), 'the CLI key from the mnemonic is the viem account');
  });

  it('the EVM transfer on the Cosmos side: a MsgEthereumTx with ethereum_tx events, decoded by REST', async () => {
    const e = traffic.evm!;
    const block = await runner.ok('consensusHttp.block', { height: e.height });
    const txs = (block.result as Json).block.data.txs as string[];
    assert.ok(txs.length >= 1);
    const results = await runner.ok('consensusHttp.custom', { path: `/block_results?height=${e.height}` });
    const events = ((results.result as Json).txs_results as Json[]).flatMap((r) => r.events as Json[]);
    // Two ethereum_tx events per EVM tx: the ante handler's (ethereumTxHash, txIndex) and the
    // message's (amount, ethereumTxHash, txIndex, txGasUsed, txHash, recipient, msg_index).
    const ethTx = events.filter((ev) => ev.type === 'ethereum_tx' && ev.attributes.some((a: Json) => a.key === 'ethereumTxHash' && a.value === e.hash));
    assert.equal(ethTx.length, 2, `two ethereum_tx events with ethereumTxHash ${e.hash}`);
    assert.deepEqual(
      ethTx[0].attributes.map((a: Json) => a.key),
      ['ethereumTxHash', 'txIndex'],
    );
    const full = ethTx[1].attributes.map((a: Json) => a.key) as string[];
    for (const k of ['txIndex', 'txGasUsed', 'txHash', 'recipient']) assert.ok(full.includes(k), `ethereum_tx has ${k}: ${full.join(',')}`);
    assert.equal(ethTx[1].attributes.find((a: Json) => a.key === 'txGasUsed').value, '21000');
    const cosmosHash = createHash('sha256').update(Buffer.from(txs[0], 'base64')).digest('hex').toUpperCase();
    const decoded = await runner.ok('rest.tx', { hash: cosmosHash });
    assert.equal((decoded.result as Json).tx.body.messages[0]['@type'], '/cosmos.evm.vm.v1.MsgEthereumTx');
    assert.equal((decoded.result as Json).tx_response.txhash, cosmosHash);
  });

  it('REST answers as the gateway serves them: base64 hashes, part_set_header, flag names, a bech32 proposer, the height header', async () => {
    const bank = traffic.cosmos[0];
    const r = await raw(`${node.rest}/cosmos/base/tendermint/v1beta1/blocks/${bank.height}`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('x-cosmos-block-height') ?? '', /^\d+$/);
    const b = r.json;
    assert.match(b.block_id.hash, /^[A-Za-z0-9+/]{43}=$/);
    assert.equal(typeof b.block_id.part_set_header.total, 'number');
    assert.equal(b.block.last_commit.signatures[0].block_id_flag, 'BLOCK_ID_FLAG_COMMIT');
    assert.match(b.sdk_block.header.proposer_address, /^cosmosvalcons1[02-9ac-hj-np-z]{38}$/);
    assert.match(b.block.header.proposer_address, /^[A-Za-z0-9+/]{27}=$/);
    const comet = await raw(`${node.cometHttp}/block?height=${bank.height}`);
    assert.equal(Buffer.from(b.block_id.hash, 'base64').toString('hex').toUpperCase(), comet.json.result.block_id.hash, 'one hash, two encodings');
    const decoded = await raw(`${node.rest}/cosmos/tx/v1beta1/txs/${bank.hash}`);
    assert.equal(decoded.json.tx.auth_info.signer_infos[0].public_key['@type'], '/cosmos.evm.crypto.v1.ethsecp256k1.PubKey');
  });

  it('errors as evmd serves them (REST, EVM JSON-RPC, CometBFT)', async () => {
    const tip = BigInt((await raw(`${node.cometHttp}/status`)).json.result.sync_info.latest_block_height);
    const far = (tip + 1000n).toString();
    const past = await runner.run('rest.blockByHeight', { height: far });
    assert.equal(past.status, 400);
    const pastRaw = await raw(`${node.rest}/cosmos/base/tendermint/v1beta1/blocks/${far}`);
    assert.equal(pastRaw.json.code, 3);
    record('REST block past the tip', `HTTP ${pastRaw.status} ${pastRaw.text}`);
    const slash = await raw(`${node.rest}/cosmos/base/tendermint/v1beta1/blocks/latest/`);
    assert.equal(slash.status, 501);
    assert.equal(slash.json.code, 12);
    const dbl = await raw(`${node.rest}//cosmos/base/tendermint/v1beta1/syncing`, { redirect: 'manual' });
    assert.equal(dbl.status, 301);
    record('REST //path', `HTTP ${dbl.status} Location: ${dbl.headers.get('location')}`);
    assert.equal(dbl.headers.get('location'), '/cosmos/base/tendermint/v1beta1/syncing');
    const noVersion = await rawPost(node.evmRpc, { id: 1, method: 'eth_blockNumber', params: [] });
    assert.equal(noVersion.json.error.code, -32600);
    const noType = await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }, { 'content-type': 'text/plain' });
    assert.equal(noType.status, 415);
    const unknown = '0x' + randomBytes(32).toString('hex');
    const receipt = await runner.run('evm.getTransactionReceipt', { hash: unknown });
    assert.equal(receipt.error?.detail.code, -32000);
    record('EVM receipt of an unknown tx', receipt.error?.message ?? '');
    const blockPast = await rawPost(node.cometHttp, { jsonrpc: '2.0', id: 1, method: 'block', params: [far] });
    assert.equal(blockPast.status, 200);
    assert.equal(blockPast.json.error.code, -32603);
    assert.equal(blockPast.headers.get('cache-control'), 'public, max-age=86400');
    const uriPast = await raw(`${node.cometHttp}/block?height=${far}`);
    assert.equal(uriPast.status, 500);
    assert.equal(uriPast.headers.get('cache-control'), null);
  });

  it('covered every operation of the catalogue', () => {
    const missing = OPERATIONS.map((o) => o.id).filter((id) => !runner.exercised.has(id) && id !== 'evm.callContract' && id !== 'evm.simulate');
    assert.deepEqual(missing, [], `operations not exercised against evmd: ${missing.join(', ')}`);
  });
});
