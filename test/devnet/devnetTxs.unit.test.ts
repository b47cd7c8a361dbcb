// The devnet's real transactions, read back from its interfaces the way an explorer would:
// decoded with cosmjs-types and viem, hashes recomputed, signatures recovered, REST JSON and EVM
// answers checked against the bytes, and the same decoding applied to the recorded evmd block so
// both are known to follow one rule.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { BinaryReader } from 'cosmjs-types/binary';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { AuthInfo, SignDoc, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { Any } from 'cosmjs-types/google/protobuf/any';
import { type Hex, keccak256, recoverTransactionAddress, serializeTransaction, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import WebSocket from 'ws';
import type { WatchEntry } from '../../src/core/events/entry';
import { Watch } from '../../src/core/events/watch';
import { TRANSFER_TOPIC } from './contract';
import { type Devnet, startDevnet } from './devnet';
import { buildBankSend, signEvmTx } from './devTx';
import { bech32Encode, sha256 } from './encoding';

type Json = any;
const FIXTURES = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'evmd');
const fixture = (name: string): Json => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8'));

async function get(url: string): Promise<Json> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  return res.json();
}
async function rpc(url: string, method: string, params: unknown[]): Promise<Json> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(5000),
  });
  const j = (await res.json()) as Json;
  if (j.error) throw new Error(JSON.stringify(j.error));
  return j.result;
}

interface DecodedEvm {
  chainId: bigint;
  nonce: bigint;
  tip: bigint;
  feeCap: bigint;
  gas: bigint;
  to: string;
  value: bigint;
  data: Uint8Array;
  v: bigint;
  r: bigint;
  s: bigint;
  hash: string;
}

const big = (b: Uint8Array): bigint => (b.length ? BigInt('0x' + Buffer.from(b).toString('hex')) : 0n);

/** MsgEthereumTx{data: Any(DynamicFeeTx), hash} read with cosmjs-types' protobuf reader. */
function decodeMsgEthereumTx(value: Uint8Array): DecodedEvm {
  const out: Partial<DecodedEvm> = { nonce: 0n, gas: 0n, to: '', data: new Uint8Array(), v: 0n };
  const r = new BinaryReader(value);
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 === 1) {
      const any = Any.decode(r.bytes());
      assert.equal(any.typeUrl, '/cosmos.evm.vm.v1.DynamicFeeTx');
      const d = new BinaryReader(any.value);
      while (d.pos < d.len) {
        const t = d.uint32();
        switch (t >>> 3) {
          case 1: out.chainId = BigInt(d.string()); break; // prettier-ignore
          case 2: out.nonce = d.uint64(); break; // prettier-ignore
          case 3: out.tip = BigInt(d.string()); break; // prettier-ignore
          case 4: out.feeCap = BigInt(d.string()); break; // prettier-ignore
          case 5: out.gas = d.uint64(); break; // prettier-ignore
          case 6: out.to = d.string(); break; // prettier-ignore
          case 7: out.value = BigInt(d.string()); break; // prettier-ignore
          case 8: out.data = d.bytes(); break; // prettier-ignore
          case 10: out.v = big(d.bytes()); break; // prettier-ignore
          case 11: out.r = big(d.bytes()); break; // prettier-ignore
          case 12: out.s = big(d.bytes()); break; // prettier-ignore
          default: d.skipType(t & 7); // prettier-ignore
        }
      }
    } else if (tag >>> 3 === 3) out.hash = r.string();
    else r.skipType(tag & 7);
  }
  return out as DecodedEvm;
}

/** The signed EIP-1559 bytes rebuilt from the decoded fields (what the EVM hash is the Keccak of). */
function rawOf(d: DecodedEvm): Hex {
  return serializeTransaction(
    {
      type: 'eip1559',
      chainId: Number(d.chainId),
      nonce: Number(d.nonce),
      to: d.to ? (d.to as Hex) : undefined,
      value: d.value,
      gas: d.gas,
      maxFeePerGas: d.feeCap,
      maxPriorityFeePerGas: d.tip,
      data: d.data.length ? toHex(d.data) : undefined,
    },
    { r: toHex(d.r, { size: 32 }), s: toHex(d.s, { size: 32 }), yParity: Number(d.v) },
  );
}

/** The compressed public key that made an ethsecp256k1 signature (Keccak-256 of the sign doc, r||s||v). */
function recoverSigner(raw: TxRaw, chainId: string, accountNumber: bigint): Buffer {
  const signDoc = SignDoc.encode({ bodyBytes: raw.bodyBytes, authInfoBytes: raw.authInfoBytes, chainId, accountNumber }).finish();
  const sig = raw.signatures[0];
  assert.equal(sig.length, 65, 'r||s||v');
  const pub = secp256k1.Signature.fromCompact(sig.subarray(0, 64)).addRecoveryBit(sig[64]).recoverPublicKey(keccak_256(signDoc));
  return Buffer.from(pub.toRawBytes(true));
}

function ethAddressOf(compressed: Uint8Array): Buffer {
  const uncompressed = secp256k1.ProjectivePoint.fromHex(compressed).toRawBytes(false);
  return Buffer.from(keccak_256(uncompressed.subarray(1)).subarray(12));
}

describe('devnet: real transactions', () => {
  let net: Devnet;
  let P: Devnet['providers'][number];

  before(async () => {
    net = await startDevnet({ blockIntervalMs: 0, realTxs: true, providers: [{ name: 'T' }] });
    net.produceBlock();
    net.produceBlock();
    P = net.providers[0];
  });
  after(() => net.stop());

  it('every block carries txs; each decodes with cosmjs-types and its Cosmos hash is the SHA-256 of its bytes', async () => {
    for (let h = 1; h <= 3; h++) {
      const block = (await get(`${P.consensusHttp}/block?height=${h}`)).result.block;
      const results = (await get(`${P.consensusHttp}/block_results?height=${h}`)).result.txs_results;
      assert.ok(block.data.txs.length >= 3, `block ${h} has txs`);
      assert.equal(results.length, block.data.txs.length);
      const kinds = new Set<string>();
      for (const b64 of block.data.txs as string[]) {
        const bytes = Buffer.from(b64, 'base64');
        const hash = sha256(bytes).toString('hex').toUpperCase();
        const tx = (await get(`${P.consensusHttp}/tx?hash=0x${hash}`)).result;
        assert.equal(tx.hash, hash);
        assert.equal(tx.tx, b64);
        const body = TxBody.decode(TxRaw.decode(bytes).bodyBytes);
        assert.equal(body.messages.length, 1);
        kinds.add(body.messages[0].typeUrl);
      }
      assert.ok(kinds.has('/cosmos.bank.v1beta1.MsgSend') && kinds.has('/cosmos.evm.vm.v1.MsgEthereumTx'), [...kinds].join());
    }
  });

  it('bank sends: ethsecp256k1 signer, the signature recovers the sender, events and REST JSON match the bytes', async () => {
    const t = [...net.chain.allTxs()].find((x) => x.real?.kind === 'bank');
    assert.ok(t);
    const raw = TxRaw.decode(t.bytes);
    const auth = AuthInfo.decode(raw.authInfoBytes);
    const msg = MsgSend.decode(TxBody.decode(raw.bodyBytes).messages[0].value);
    const signer = auth.signerInfos[0];
    assert.equal(signer.publicKey?.typeUrl, '/cosmos.evm.crypto.v1.ethsecp256k1.PubKey');
    const key = PubKey.decode(signer.publicKey.value).key;
    const account = (await get(`${P.rest}/cosmos/auth/v1beta1/accounts/${msg.fromAddress}`)).account;
    const recovered = recoverSigner(raw, net.chainId, BigInt(account.account_number));
    assert.deepEqual(recovered, Buffer.from(key));
    assert.equal(bech32Encode('cosmos', ethAddressOf(key)), msg.fromAddress);
    assert.equal(msg.amount[0].denom, 'atest');

    const rest = await get(`${P.rest}/cosmos/tx/v1beta1/txs/${t.hash}`);
    assert.equal(rest.tx_response.txhash, t.hash);
    assert.deepEqual(rest.tx.body.messages[0], {
      '@type': '/cosmos.bank.v1beta1.MsgSend',
      from_address: msg.fromAddress,
      to_address: msg.toAddress,
      amount: [{ denom: 'atest', amount: msg.amount[0].amount }],
    });
    assert.equal(rest.tx.signatures[0], Buffer.from(raw.signatures[0]).toString('base64'));
    assert.equal(rest.tx.auth_info.signer_infos[0].sequence, signer.sequence.toString());
    assert.equal(rest.tx.auth_info.signer_infos[0].public_key.key, Buffer.from(key).toString('base64'));
    assert.deepEqual(rest.tx_response.tx, { '@type': '/cosmos.tx.v1beta1.Tx', ...rest.tx });

    const attr = (type: string, key: string): string[] =>
      (rest.tx_response.events as Json[])
        .filter((e) => e.type === type)
        .flatMap((e) => (e.attributes as Json[]).filter((a) => a.key === key).map((a) => a.value));
    assert.deepEqual(attr('tx', 'acc_seq'), [`${msg.fromAddress}/${signer.sequence}`]);
    assert.deepEqual(attr('tx', 'signature'), [Buffer.from(raw.signatures[0]).toString('base64')]);
    assert.deepEqual(attr('tx', 'fee'), [`${auth.fee?.amount[0].amount}atest`]);
    assert.ok(attr('transfer', 'recipient').includes(msg.toAddress));
    assert.deepEqual(attr('message', 'action'), ['/cosmos.bank.v1beta1.MsgSend']);
  });

  it('MsgEthereumTx: the EVM hash is the Keccak of the signed tx, the signature recovers the sender, EVM and REST views agree', async () => {
    const evmTxs = [...net.chain.allTxs()].filter((x) => x.real?.kind === 'evm');
    assert.ok(evmTxs.length >= 4);
    for (const t of evmTxs) {
      const raw = TxRaw.decode(t.bytes);
      const body = TxBody.decode(raw.bodyBytes);
      assert.equal(body.messages[0].typeUrl, '/cosmos.evm.vm.v1.MsgEthereumTx');
      assert.deepEqual(
        body.extensionOptions.map((o) => o.typeUrl),
        ['/cosmos.evm.vm.v1.ExtensionOptionsEthereumTx'],
      );
      assert.equal(raw.signatures.length, 0);
      const d = decodeMsgEthereumTx(body.messages[0].value);
      const signed = rawOf(d);
      assert.equal(keccak256(signed), d.hash);
      assert.equal(d.hash, t.evmHash);
      const from = (await recoverTransactionAddress({ serializedTransaction: signed as never })).toLowerCase();
      const evm = await rpc(P.evmRpc, 'eth_getTransactionByHash', [d.hash]);
      assert.equal(evm.from, from);
      assert.equal(evm.hash, d.hash);
      assert.equal(BigInt(evm.nonce), d.nonce);
      assert.equal(BigInt(evm.value), d.value);
      assert.equal(evm.input, d.data.length ? toHex(d.data) : '0x');
      assert.equal(evm.to, d.to ? d.to.toLowerCase() : null);
      assert.equal(BigInt(evm.chainId), 262144n);
      const rest = await get(`${P.rest}/cosmos/tx/v1beta1/txs/${t.hash}`);
      const m = rest.tx.body.messages[0];
      assert.equal(m.hash, d.hash);
      assert.equal(m.data.gas_fee_cap, d.feeCap.toString());
      assert.equal(BigInt('0x' + Buffer.from(m.data.r, 'base64').toString('hex')), d.r);
      assert.equal(BigInt('0x' + Buffer.from(m.data.s, 'base64').toString('hex')), d.s);
      assert.deepEqual(rest.tx.auth_info.fee, {
        amount: [{ denom: 'atest', amount: (d.feeCap * d.gas).toString() }],
        gas_limit: d.gas.toString(),
        payer: '',
        granter: '',
      });
      const ethEvents = (rest.tx_response.events as Json[]).filter((e) => e.type === 'ethereum_tx');
      const attrs = Object.fromEntries((ethEvents[1].attributes as Json[]).map((a) => [a.key, a.value]));
      assert.equal(attrs.ethereumTxHash, d.hash);
      assert.equal(attrs.txHash, t.hash.toLowerCase());
      const receipt = await rpc(P.evmRpc, 'eth_getTransactionReceipt', [d.hash]);
      // The first block's failing fixture transfer (fixtureTxs.ts) is the one failed tx.
      const failed = t.evmHash === net.chain.ledger.fixtureDeployment?.txs.failedTransfer;
      assert.equal(receipt.status, failed ? '0x0' : '0x1');
      assert.equal(attrs.ethereumTxFailed, failed ? 'execution reverted' : undefined);
      assert.equal(attrs.txGasUsed, BigInt(receipt.gasUsed).toString());
      assert.equal(attrs.txIndex, BigInt(receipt.transactionIndex).toString());
    }
  });

  it('the devnet signs EVM txs exactly as viem signTransaction does', async () => {
    const pk = sha256('some key');
    const fields = {
      chainId: 262144n,
      nonce: 7n,
      to: ('0x' + '11'.repeat(20)) as Hex,
      value: 5n,
      gas: 21_000n,
      maxFeePerGas: 2n * 10n ** 9n,
      maxPriorityFeePerGas: 1n,
      input: '0x' as Hex,
    };
    const ours = signEvmTx(fields, pk);
    const viemRaw = await privateKeyToAccount(toHex(pk)).signTransaction({
      type: 'eip1559',
      chainId: 262144,
      nonce: 7,
      to: fields.to,
      value: 5n,
      gas: 21_000n,
      maxFeePerGas: fields.maxFeePerGas,
      maxPriorityFeePerGas: 1n,
    });
    assert.equal(ours.raw, viemRaw);
  });

  it('the same rules hold for the recorded evmd block: signer recovered with Keccak-256, EVM hash and sender rebuilt', async () => {
    const block = fixture('cometbft-block.json').result.block;
    const bank = TxRaw.decode(Buffer.from(block.data.txs[0], 'base64'));
    const account = fixture('rest-account.json').account;
    const key = PubKey.decode(AuthInfo.decode(bank.authInfoBytes).signerInfos[0].publicKey?.value ?? new Uint8Array()).key;
    assert.deepEqual(recoverSigner(bank, 'chain-endpoints-evmd-1', BigInt(account.account_number)), Buffer.from(key));
    assert.equal(bech32Encode('cosmos', ethAddressOf(key)), account.address);
    const eth = TxRaw.decode(Buffer.from(block.data.txs[1], 'base64'));
    const d = decodeMsgEthereumTx(TxBody.decode(eth.bodyBytes).messages[0].value);
    const signed = rawOf(d);
    const evm = fixture('evm-eth_getTransactionByHash.json').result;
    assert.equal(keccak256(signed), evm.hash);
    assert.equal((await recoverTransactionAddress({ serializedTransaction: signed as never })).toLowerCase(), evm.from);
    assert.equal(sha256(Buffer.from(block.data.txs[1], 'base64')).toString('hex').toUpperCase(), fixture('cometbft-tx-ethereum.json').result.hash);
  });

  it('balances move with the sends: bank balance = eth_getBalance, nonce = sequence; the contract has code and logs Transfer', async () => {
    const ledger = net.chain.ledger;
    const [alice] = ledger.keys;
    const before = BigInt((await get(`${P.rest}/cosmos/bank/v1beta1/balances/${alice.bech32}`)).balances[0].amount);
    assert.equal(BigInt(await rpc(P.evmRpc, 'eth_getBalance', [alice.hex, 'latest'])), before);
    net.produceBlock();
    const after = BigInt((await get(`${P.rest}/cosmos/bank/v1beta1/balances/${alice.bech32}`)).balances[0].amount);
    assert.notEqual(after, before);
    assert.equal(BigInt(await rpc(P.evmRpc, 'eth_getBalance', [alice.hex, 'latest'])), after);
    const account = (await get(`${P.rest}/cosmos/auth/v1beta1/accounts/${alice.bech32}`)).account;
    assert.equal(BigInt(await rpc(P.evmRpc, 'eth_getTransactionCount', [alice.hex, 'latest'])), BigInt(account.sequence));

    const deploy = [...net.chain.allTxs()].find((t) => t.exec?.contractAddress);
    assert.ok(deploy);
    const receipt = await rpc(P.evmRpc, 'eth_getTransactionReceipt', [deploy.evmHash]);
    assert.match(receipt.contractAddress, /^0x[0-9a-f]{40}$/);
    assert.equal(receipt.to, null);
    const code = await rpc(P.evmRpc, 'eth_getCode', [receipt.contractAddress, 'latest']);
    assert.ok(code.length > 4);
    assert.equal(await rpc(P.evmRpc, 'eth_getCode', [alice.hex, 'latest']), '0x');
    const logs = await rpc(P.evmRpc, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest', address: receipt.contractAddress, topics: [TRANSFER_TOPIC] }]);
    assert.equal(logs.length, Number(net.height()), 'one Transfer per block');
    const l = logs[1];
    const callReceipt = await rpc(P.evmRpc, 'eth_getTransactionReceipt', [l.transactionHash]);
    assert.deepEqual(callReceipt.logs, [l]);
    assert.equal(BigInt(l.topics[1]), BigInt(callReceipt.from));
    assert.notEqual(callReceipt.logsBloom, '0x' + '00'.repeat(256));
    const block = await rpc(P.evmRpc, 'eth_getBlockByNumber', [l.blockNumber, true]);
    assert.ok((block.transactions as Json[]).some((t) => t.hash === l.transactionHash && t.from === callReceipt.from));
    // The block's bloom holds the receipt's bits (block 2 also carries the staking precompile's Delegate log).
    const [bb, rb] = [BigInt(block.logsBloom), BigInt(callReceipt.logsBloom)];
    assert.equal(bb & rb, rb);
    const none = await rpc(P.evmRpc, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest', topics: [null, '0x' + 'ee'.repeat(32)] }]);
    assert.deepEqual(none, []);
  });

  it('EVM WebSocket: a logs subscription receives the Transfer logs of each new block, filtered by address', async () => {
    const ws = new WebSocket(P.evmWs);
    const got: Json[] = [];
    ws.on('message', (d) => got.push(JSON.parse(String(d))));
    await new Promise((r, j) => ws.once('open', r).once('error', j));
    try {
      const contract = net.chain.ledger.contract as string;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['logs', { address: contract, topics: [TRANSFER_TOPIC] }] }));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', { address: '0x' + '12'.repeat(20) }] }));
      const until = Date.now() + 5000;
      while (got.filter((m) => m.id).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      const [sub, other] = [got.find((m) => m.id === 1).result, got.find((m) => m.id === 2).result];
      net.produceBlock();
      while (!got.some((m) => m.method === 'eth_subscription') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 100));
      const notes = got.filter((m) => m.method === 'eth_subscription');
      assert.equal(notes.length, 1, 'one log, and none for the other address');
      assert.equal(notes[0].params.subscription, sub);
      assert.notEqual(notes[0].params.subscription, other);
      assert.equal(notes[0].params.result.topics[0], TRANSFER_TOPIC);
      assert.equal(notes[0].params.result.blockNumber, '0x' + net.height().toString(16));
    } finally {
      ws.terminate();
    }
  });

  it('eth_sendRawTransaction of a viem-signed tx becomes a real MsgEthereumTx with a receipt', async () => {
    const bob = net.chain.ledger.keys[1];
    const account = privateKeyToAccount(toHex(bob.privateKey));
    const nonce = Number(await rpc(P.evmRpc, 'eth_getTransactionCount', [bob.hex, 'latest']));
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId: 262144,
      nonce,
      to: net.chain.ledger.keys[3].hex,
      value: 42n,
      gas: 21_000n,
      maxFeePerGas: 2n * 10n ** 9n,
      maxPriorityFeePerGas: 1n,
    });
    const tooMuch = await account.signTransaction({
      type: 'eip1559',
      chainId: 262144,
      nonce,
      to: bob.hex,
      value: 10n ** 30n,
      gas: 21_000n,
      maxFeePerGas: 2n * 10n ** 9n,
      maxPriorityFeePerGas: 1n,
    });
    await assert.rejects(rpc(P.evmRpc, 'eth_sendRawTransaction', [tooMuch]), /-32000.*sender balance < tx cost .*insufficient funds/);
    const hash = await rpc(P.evmRpc, 'eth_sendRawTransaction', [raw]);
    assert.equal(hash, keccak256(raw));
    net.produceBlock();
    const receipt = await rpc(P.evmRpc, 'eth_getTransactionReceipt', [hash]);
    assert.equal(receipt.from, bob.hex.toLowerCase());
    const found = (await get(`${P.consensusHttp}/tx_search?query=${encodeURIComponent(`"ethereum_tx.ethereumTxHash='${hash}'"`)}`)).result;
    assert.equal(found.total_count, '1');
    const d = decodeMsgEthereumTx(TxBody.decode(TxRaw.decode(Buffer.from(found.txs[0].tx, 'base64')).bodyBytes).messages[0].value);
    assert.equal(rawOf(d), raw);
  });

  it("the core Watch on the devnet: tm.event='Tx' carries ethereum_tx.ethereumTxHash, a logs watch gets the Transfer logs", async () => {
    const opts = { pingIntervalMs: 1000, connectTimeoutMs: 2000, maxBackoffMs: 100, batchMs: 20 };
    const query = "tm.event='Tx' AND message.action='/cosmos.evm.vm.v1.MsgEthereumTx'";
    const txWatch = new Watch({ kind: 'comet', url: P.consensusWs, query }, opts);
    const logWatch = new Watch({ kind: 'evm', url: P.evmWs, subscription: 'logs', address: net.chain.ledger.contract, topics: [TRANSFER_TOPIC] }, opts);
    const txs: WatchEntry[] = [];
    const logs: WatchEntry[] = [];
    txWatch.onBatch((b) => txs.push(...b));
    logWatch.onBatch((b) => logs.push(...b));
    try {
      txWatch.start();
      logWatch.start();
      const until = Date.now() + 5000;
      while ((txWatch.snapshot().state !== 'live' || logWatch.snapshot().state !== 'live') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      net.produceBlock();
      while ((txs.length < 2 || logs.length < 1) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      const evmTxs = txs.filter((e) => e.kind === 'event');
      assert.equal(evmTxs.length, 2, 'the EVM transfer and the contract call of the new block');
      for (const e of evmTxs) {
        const evmHash = ((e.data as Json).events['ethereum_tx.ethereumTxHash'] as string[])[0];
        assert.equal(net.chain.tx(e.txHash ?? '')?.evmHash, evmHash);
      }
      assert.equal(logs.filter((e) => e.kind === 'event').length, 1);
      assert.equal(logs[0].height, net.height().toString());
      assert.equal(net.chain.txByEvmHash(logs[0].txHash ?? '')?.exec?.logs.length, 1);
    } finally {
      txWatch.dispose();
      logWatch.dispose();
    }
  });

  it('a bank send broadcast by a dev account is checked (sequence, signature) and executed', async () => {
    const [, bob, carol] = net.chain.ledger.keys;
    const account = (await get(`${P.rest}/cosmos/auth/v1beta1/accounts/${bob.bech32}`)).account;
    const send = (sequence: bigint, chainId = net.chainId) =>
      buildBankSend({
        from: bob,
        to: carol.address,
        amount: 777n,
        fee: 10n ** 15n,
        gasLimit: 200_000n,
        sequence,
        accountNumber: BigInt(account.account_number),
        chainId,
        memo: 'by hand',
      });
    const broadcast = async (bytes: Buffer): Promise<Json> => {
      const res = await fetch(`${P.rest}/cosmos/tx/v1beta1/txs`, {
        method: 'POST',
        body: JSON.stringify({ tx_bytes: bytes.toString('base64'), mode: 'BROADCAST_MODE_SYNC' }),
      });
      return ((await res.json()) as Json).tx_response;
    };
    const wrongSeq = await broadcast(send(BigInt(account.sequence) + 5n).bytes);
    assert.equal(wrongSeq.code, 32);
    assert.match(wrongSeq.raw_log, /account sequence mismatch, expected \d+, got \d+/);
    assert.equal((await broadcast(send(BigInt(account.sequence), 'another-chain').bytes)).code, 4, 'signed for another chain');
    const ok = await broadcast(send(BigInt(account.sequence)).bytes);
    assert.equal(ok.code, 0);
    net.produceBlock();
    const tx = (await get(`${P.consensusHttp}/tx?hash=0x${ok.txhash}`)).result;
    const acc = (tx.tx_result.events as Json[]).find((e) => e.type === 'tx' && e.attributes[0].key === 'acc_seq');
    assert.equal(acc.attributes[0].value, `${bob.bech32}/${account.sequence}`);
    const moved = (tx.tx_result.events as Json[])
      .filter((e) => e.type === 'transfer')
      .map((e) => Object.fromEntries((e.attributes as Json[]).map((x) => [x.key, x.value])));
    assert.ok(moved.some((m) => m.recipient === carol.bech32 && m.amount === '777atest' && m.sender === bob.bech32));
    const rest = await get(`${P.rest}/cosmos/tx/v1beta1/txs/${ok.txhash}`);
    assert.equal(rest.tx.body.memo, 'by hand');
  });

  it('REST /cosmos/tx/v1beta1/txs?query= finds txs by their events (the same as tx_search)', async () => {
    const alice = net.chain.ledger.keys[0].bech32;
    const q = `message.sender='${alice}' AND message.action='/cosmos.bank.v1beta1.MsgSend'`;
    const rest = await get(`${P.rest}/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(q)}`);
    const comet = (await get(`${P.consensusHttp}/tx_search?query=${encodeURIComponent(`"${q}"`)}&per_page=100`)).result;
    assert.ok(Number(rest.total) >= 1);
    assert.equal(rest.total, comet.total_count);
    assert.deepEqual(
      (rest.tx_responses as Json[]).map((r) => r.txhash),
      (comet.txs as Json[]).map((t) => t.hash),
    );
    for (const t of rest.txs as Json[]) assert.equal(t.body.messages[0].from_address, alice);
    const evm = [...net.chain.allTxs()].find((t) => t.evmHash)!;
    const byEvm = await get(`${P.rest}/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(`ethereum_tx.ethereumTxHash='${evm.evmHash}'`)}`);
    assert.deepEqual(
      (byEvm.tx_responses as Json[]).map((r) => r.txhash),
      [evm.hash],
    );
    const empty = await fetch(`${P.rest}/cosmos/tx/v1beta1/txs`);
    assert.equal(empty.status, 400);
    assert.equal(((await empty.json()) as Json).message, 'query cannot be empty');
  });
});
