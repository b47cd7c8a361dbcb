import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path = require('node:path');
import { decodeCosmosTx } from '../../../src/core/explorer/decodeCosmos';
import { decodeEvmRaw } from '../../../src/core/explorer/decodeEvm';

export const FIXTURES = path.join(__dirname, '../../../../test/fixtures/evmd');
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
