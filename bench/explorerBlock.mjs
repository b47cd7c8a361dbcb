// @ts-check
// A CometBFT block of `count` transactions for the explorer's benchmarks (bench/explorer.mjs, and
// bench/explorerEditor.mjs in the editor): half bank sends signed by ten ethsecp256k1 keys, half
// MsgEthereumTxs holding EIP-1559 transfers signed with viem, with block_results carrying the events
// evmd writes for them (the Ethereum hash, the sender's message event).
import { require } from './lib.mjs';

const { TxRaw, TxBody, AuthInfo } = require('cosmjs-types/cosmos/tx/v1beta1/tx');
const { MsgSend } = require('cosmjs-types/cosmos/bank/v1beta1/tx');
const { BinaryWriter } = require('cosmjs-types/binary');
const { privateKeyToAccount } = require('viem/accounts');
const { secp256k1 } = require('@noble/curves/secp256k1');
const { createHash } = require('node:crypto');
const { keccak256 } = require('viem');
const { bech32 } = require('@scure/base');

const B64 = (b) => Buffer.from(b).toString('base64');

export async function buildBlock(count) {
  const keys = Array.from({ length: 10 }, (_, i) => createHash('sha256').update(`bench key ${i}`).digest());
  const pubs = keys.map((k) => secp256k1.getPublicKey(k, true));
  const accounts = keys.map((k) => privateKeyToAccount(`0x${k.toString('hex')}`));
  const senders = accounts.map((a) => bech32.encode('cosmos', bech32.toWords(Buffer.from(a.address.slice(2), 'hex'))));
  const txs = [];
  const results = [];
  for (let i = 0; i < count; i++) {
    const k = i % keys.length;
    if (i % 2 === 0) {
      const body = TxBody.encode(
        TxBody.fromPartial({
          messages: [
            {
              typeUrl: '/cosmos.bank.v1beta1.MsgSend',
              value: MsgSend.encode(
                MsgSend.fromPartial({
                  fromAddress: `cosmos1sender${k}`,
                  toAddress: `cosmos1receiver${i}`,
                  amount: [{ denom: 'atest', amount: String(1_000_000 + i) }],
                }),
              ).finish(),
            },
          ],
          memo: `bench ${i}`,
        }),
      ).finish();
      const pubKey = new BinaryWriter().uint32(10).bytes(pubs[k]).finish();
      const authInfo = AuthInfo.encode(
        AuthInfo.fromPartial({
          signerInfos: [
            { publicKey: { typeUrl: '/cosmos.evm.crypto.v1.ethsecp256k1.PubKey', value: pubKey }, modeInfo: { single: { mode: 1 } }, sequence: BigInt(i) },
          ],
          fee: { amount: [{ denom: 'atest', amount: '2000000000000000' }], gasLimit: 200000n },
        }),
      ).finish();
      txs.push(B64(TxRaw.encode(TxRaw.fromPartial({ bodyBytes: body, authInfoBytes: authInfo, signatures: [new Uint8Array(65)] })).finish()));
      results.push({
        code: 0,
        gas_wanted: '200000',
        gas_used: '106663',
        events: [
          {
            type: 'transfer',
            attributes: [
              { key: 'recipient', value: `cosmos1receiver${i}`, index: true },
              { key: 'amount', value: `${1_000_000 + i}atest`, index: true },
              { key: 'msg_index', value: '0', index: true },
            ],
          },
        ],
      });
    } else {
      const signed = await accounts[k].signTransaction({
        type: 'eip1559',
        chainId: 262144,
        nonce: i,
        to: accounts[(k + 1) % keys.length].address,
        value: 123456789n + BigInt(i),
        gas: 21000n,
        maxFeePerGas: 2_000_000_000n,
        maxPriorityFeePerGas: 1n,
      });
      const msg = new BinaryWriter()
        .uint32(50)
        .bytes(Buffer.from(signed.slice(2), 'hex'))
        .finish(); // field 6: the signed bytes
      const body = TxBody.encode(
        TxBody.fromPartial({
          messages: [{ typeUrl: '/cosmos.evm.vm.v1.MsgEthereumTx', value: msg }],
          extensionOptions: [{ typeUrl: '/cosmos.evm.vm.v1.ExtensionOptionsEthereumTx', value: new Uint8Array() }],
        }),
      ).finish();
      const authInfo = AuthInfo.encode(AuthInfo.fromPartial({ fee: { amount: [{ denom: 'atest', amount: '42000000000000' }], gasLimit: 21000n } })).finish();
      txs.push(B64(TxRaw.encode(TxRaw.fromPartial({ bodyBytes: body, authInfoBytes: authInfo, signatures: [] })).finish()));
      results.push({
        code: 0,
        gas_wanted: '21000',
        gas_used: '21000',
        // As evmd writes them: the Ethereum hash, and the sender in the message event (the block view's `from`).
        events: [
          {
            type: 'ethereum_tx',
            attributes: [
              { key: 'ethereumTxHash', value: keccak256(signed), index: true },
              { key: 'txIndex', value: String(i >> 1), index: true },
            ],
          },
          {
            type: 'message',
            attributes: [
              { key: 'action', value: '/cosmos.evm.vm.v1.MsgEthereumTx', index: true },
              { key: 'sender', value: senders[k], index: true },
              { key: 'msg_index', value: '0', index: true },
            ],
          },
        ],
      });
    }
  }
  const header = {
    chain_id: 'bench_262144-1',
    height: '5',
    time: '2026-11-23T19:03:28.527476419Z',
    proposer_address: '6AEC738D87184FFC1B4E007D06FF93204423D76C',
    app_hash: 'AB'.repeat(32),
  };
  const block = {
    jsonrpc: '2.0',
    id: -1,
    result: {
      block_id: { hash: '7F'.repeat(32), parts: { total: 1, hash: 'CD'.repeat(32) } },
      block: { header, data: { txs }, evidence: { evidence: [] }, last_commit: { height: '4', round: 0, signatures: [] } },
    },
  };
  const blockResults = {
    jsonrpc: '2.0',
    id: -1,
    result: { height: '5', txs_results: results, finalize_block_events: [{ type: 'block_gas', attributes: [{ key: 'height', value: '5' }] }] },
  };
  return { block: Buffer.from(JSON.stringify(block)), blockResults: Buffer.from(JSON.stringify(blockResults)) };
}
