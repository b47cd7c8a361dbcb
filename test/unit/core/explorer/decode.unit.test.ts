import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path = require('node:path');
import { decodeCosmosTx } from '../../../../src/core/explorer/decodeCosmos';
import { decodeEvmRaw } from '../../../../src/core/explorer/decodeEvm';
import { BinaryWriter } from 'cosmjs-types/binary';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { REPO_ROOT } from '../../helpers/repoRoot';

export const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/evmd');
export function fixture(name: string): any {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
}

const BANK_HASH = '05DD664CA50845EF5652766A971FE81C10BCB76F601DCE52CF56C23B775E8EB1';
const ETH_COSMOS_HASH = '5BD19B2385E7D682AAB45A7210E8C52CFD09A409D1DF58E4159A1A1C9ED39E1C';
const ETH_HASH = '0xb1095b1c91b8b316069293d6ecb98b262306416902b888bda4f4ab44d1250163';

describe('explorer: decoding real evmd transactions', () => {
  it('decodes the bank send: MsgSend, fee, gas, the ethsecp256k1 signer and its address', () => {
    const rest = fixture('rest-tx-bank-send.json');
    const bytes = Buffer.from(fixture('cometbft-tx-bank-send.json').result.tx, 'base64');
    const tx = decodeCosmosTx(bytes, 'cosmos');
    assert.equal(tx.error, undefined);
    assert.equal(tx.hash, BANK_HASH);
    assert.equal(tx.messages.length, 1);
    assert.equal(tx.messages[0].typeUrl, '/cosmos.bank.v1beta1.MsgSend');
    const restMsg = rest.tx.body.messages[0];
    assert.equal(tx.messages[0].fields?.from_address ?? tx.messages[0].fields?.fromAddress, restMsg.from_address);
    assert.equal(tx.fee?.gasLimit, rest.tx.auth_info.fee.gas_limit);
    assert.deepEqual(tx.fee?.amount, rest.tx.auth_info.fee.amount);
    assert.equal(tx.signers.length, 1);
    assert.equal(tx.signers[0].sequence, rest.tx.auth_info.signer_infos[0].sequence);
    assert.equal(tx.signers[0].pubKey, rest.tx.auth_info.signer_infos[0].public_key.key);
    // The signer's address is derived from its public key: it is the sender.
    assert.equal(tx.signers[0].address, restMsg.from_address);
    assert.match(tx.signers[0].hexAddress ?? '', /^0x[0-9a-fA-F]{40}$/);
  });

  it('decodes the MsgEthereumTx and the Ethereum transaction inside (hash, from, to, value)', async () => {
    const bytes = Buffer.from(fixture('cometbft-tx-ethereum.json').result.tx, 'base64');
    const tx = decodeCosmosTx(bytes);
    assert.equal(tx.hash, ETH_COSMOS_HASH);
    const msg = tx.messages[0];
    assert.equal(msg.typeUrl, '/cosmos.evm.vm.v1.MsgEthereumTx');
    assert.equal(msg.ethereum?.statedHash, ETH_HASH);
    assert.ok(msg.ethereum?.raw);
    const evm = await decodeEvmRaw(msg.ethereum.raw);
    const byHash = fixture('evm-eth_getTransactionByHash.json').result;
    assert.equal(evm.hash, ETH_HASH);
    assert.equal(evm.from?.toLowerCase(), byHash.from.toLowerCase());
    assert.equal(evm.to?.toLowerCase(), byHash.to.toLowerCase());
    assert.equal(evm.value, BigInt(byHash.value).toString());
    assert.equal(evm.nonce, String(BigInt(byHash.nonce)));
    assert.equal(evm.gas, BigInt(byHash.gas).toString());
    assert.equal(evm.chainId, '262144');
    assert.equal(evm.type, 'eip1559');
  });
});

describe('explorer: decoding what is not known, and what is broken', () => {
  // Built with cosmjs-types' encoders: a custom module's message beside a MsgSend.
  const custom = new BinaryWriter()
    .uint32(10)
    .string('hello module')
    .uint32(16)
    .uint64(123456789012345678n)
    .uint32(26)
    .fork()
    .uint32(8)
    .int32(7)
    .ldelim()
    .finish();
  const send = MsgSend.encode(MsgSend.fromPartial({ fromAddress: 'cosmos1a', toAddress: 'cosmos1b', amount: [{ denom: 'atest', amount: '5' }] })).finish();
  const body = TxBody.encode(
    TxBody.fromPartial({
      messages: [
        { typeUrl: '/my.custom.v1.MsgThing', value: custom },
        { typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: send },
        { typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: Uint8Array.from([0xff, 0xff, 0xff]) },
      ],
      memo: 'mixed',
    }),
  ).finish();
  const tx = TxRaw.encode(TxRaw.fromPartial({ bodyBytes: body, authInfoBytes: AuthInfo.encode(AuthInfo.fromPartial({})).finish(), signatures: [] })).finish();

  it('an unknown type keeps its type URL, bytes and a field dump; a broken message says why; the others decode', () => {
    const d = decodeCosmosTx(tx);
    assert.equal(d.error, undefined);
    assert.equal(d.memo, 'mixed');
    assert.equal(d.messages.length, 3);
    const [unknown, known, broken] = d.messages;
    assert.equal(unknown.typeUrl, '/my.custom.v1.MsgThing');
    assert.equal(unknown.unknown?.base64, Buffer.from(custom).toString('base64'));
    assert.equal(unknown.unknown?.hex, `0x${Buffer.from(custom).toString('hex')}`);
    assert.deepEqual(unknown.unknown?.dump, [
      { field: 1, wire: 'bytes', value: 'hello module' },
      { field: 2, wire: 'varint', value: '123456789012345678' },
      { field: 3, wire: 'bytes', nested: [{ field: 1, wire: 'varint', value: '7' }] },
    ]);
    assert.equal((known.fields as any).fromAddress ?? (known.fields as any).from_address, 'cosmos1a');
    assert.equal(broken.typeUrl, '/cosmos.bank.v1beta1.MsgSend');
    assert.ok(broken.error, 'a message that fails to decode says why');
    assert.ok(broken.unknown?.hex);
  });

  it('corrupted or hostile bytes: one error for the transaction, never a throw', () => {
    const real = Buffer.from(fixture('cometbft-tx-bank-send.json').result.tx, 'base64');
    const cut = real.subarray(0, real.length - 7);
    const flipped = Buffer.from(real);
    flipped[3] ^= 0xff;
    for (const bytes of [
      cut,
      Buffer.from('garbage, not base64 protobuf'),
      Buffer.alloc(0),
      Buffer.alloc(64, 0xff),
      Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]),
    ]) {
      const d = decodeCosmosTx(bytes);
      assert.ok(d.error || d.messages.every((m) => m.error || m.unknown || m.fields), 'decoded or refused');
      assert.match(d.hash, /^[0-9A-F]{64}$/);
    }
    const d = decodeCosmosTx(cut);
    assert.match(d.error ?? '', /not a Cosmos transaction/);
    assert.doesNotThrow(() => decodeCosmosTx(flipped));
  });

  it('a huge varint or length in an unknown message is refused in the dump, not trusted', () => {
    const d = decodeCosmosTx(
      TxRaw.encode(
        TxRaw.fromPartial({
          bodyBytes: TxBody.encode(
            TxBody.fromPartial({ messages: [{ typeUrl: '/x.Y', value: Uint8Array.from([0x12, 0xff, 0xff, 0xff, 0xff, 0x07, 0x01]) }] }),
          ).finish(),
          authInfoBytes: new Uint8Array(),
        }),
      ).finish(),
    );
    assert.equal(d.messages[0].typeUrl, '/x.Y');
    assert.equal(d.messages[0].unknown?.dump, undefined);
    assert.ok(d.messages[0].unknown?.hex);
  });

  it('an Ethereum transaction that is not one: an error from decodeEvmRaw', async () => {
    await assert.rejects(decodeEvmRaw('0x02deadbeef'));
    await assert.rejects(decodeEvmRaw(new Uint8Array([1, 2, 3])));
  });
});
