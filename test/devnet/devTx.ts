// Real transactions as an evmd chain carries them, built and signed for the devnet:
// - a bank MsgSend in a `cosmos.tx.v1beta1.TxRaw` (cosmjs-types), signed SIGN_MODE_DIRECT with an
//   ethsecp256k1 key (`/cosmos.evm.crypto.v1.ethsecp256k1.PubKey`: secp256k1 over the Keccak-256
//   of the sign doc, 65-byte r||s||v signature, address = last 20 bytes of the Keccak-256 of the
//   uncompressed public key, so one key is cosmos1… and 0x… at once);
// - a `/cosmos.evm.vm.v1.MsgEthereumTx` holding a `DynamicFeeTx` (the EIP-1559 tx's fields and
//   signature) with the `ExtensionOptionsEthereumTx` option and no Cosmos signature, exactly as
//   in test/fixtures/evmd/cometbft-block.json. The EVM tx is serialised with viem; the signature
//   is secp256k1's deterministic (RFC 6979) one, the same bytes viem's signTransaction gives
//   (a unit test checks it), computed synchronously so blocks stay synchronous.
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { Any } from 'cosmjs-types/google/protobuf/any';
import { BinaryWriter } from 'cosmjs-types/binary';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { AuthInfo, SignDoc, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { type Hex, getAddress, keccak256, serializeTransaction, toHex } from 'viem';
import { bech32Encode, sha256 } from './encoding';

export const DENOM = 'atest';

/** The bank metadata of the chain's denom as evmd's local node genesis declares it (18 decimals, shown as `test`); the real-node harness writes the same. */
export const DENOM_METADATA = {
  description: 'The native staking token for evmd.',
  denom_units: [
    { denom: DENOM, exponent: 0, aliases: ['attotest'] },
    { denom: 'test', exponent: 18, aliases: [] },
  ],
  base: DENOM,
  display: 'test',
  name: 'Test Token',
  symbol: 'TEST',
  uri: '',
  uri_hash: '',
};
export const ETH_PUBKEY_TYPE = '/cosmos.evm.crypto.v1.ethsecp256k1.PubKey';
export const MSG_SEND_TYPE = '/cosmos.bank.v1beta1.MsgSend';
export const MSG_ETH_TX_TYPE = '/cosmos.evm.vm.v1.MsgEthereumTx';
export const DYNAMIC_FEE_TX_TYPE = '/cosmos.evm.vm.v1.DynamicFeeTx';
export const ETH_EXT_OPTION_TYPE = '/cosmos.evm.vm.v1.ExtensionOptionsEthereumTx';

export interface DevKey {
  name: string;
  privateKey: Uint8Array;
  /** 33-byte compressed public key (what the signer info carries). */
  pubKey: Buffer;
  address: Buffer;
  bech32: string;
  /** EIP-55 checksummed 0x address. */
  hex: Hex;
}

export function devKey(name: string, privateKey: Uint8Array): DevKey {
  const pubKey = Buffer.from(secp256k1.getPublicKey(privateKey, true));
  const uncompressed = secp256k1.getPublicKey(privateKey, false);
  const address = Buffer.from(keccak_256(uncompressed.subarray(1)).subarray(12));
  return { name, privateKey, pubKey, address, bech32: bech32Encode('cosmos', address), hex: getAddress(toHex(address)) };
}

/** 65 bytes r||s||v (v = recovery id 0/1) over Keccak-256 of `msg`: the ethsecp256k1 signature. */
export function ethSecpSign(msg: Uint8Array, privateKey: Uint8Array): Buffer {
  const sig = secp256k1.sign(keccak_256(msg), privateKey, { lowS: true });
  return Buffer.concat([sig.toCompactRawBytes(), Buffer.from([sig.recovery])]);
}

export interface BankSend {
  from: DevKey;
  to: Buffer;
  amount: bigint;
  fee: bigint;
  gasLimit: bigint;
  sequence: bigint;
  accountNumber: bigint;
  chainId: string;
  memo: string;
}

export function buildBankSend(s: BankSend): { bytes: Buffer; signature: Buffer } {
  const msg = MsgSend.fromPartial({
    fromAddress: s.from.bech32,
    toAddress: bech32Encode('cosmos', s.to),
    amount: [{ denom: DENOM, amount: s.amount.toString() }],
  });
  const bodyBytes = TxBody.encode(TxBody.fromPartial({ messages: [{ typeUrl: MSG_SEND_TYPE, value: MsgSend.encode(msg).finish() }], memo: s.memo })).finish();
  const authInfoBytes = AuthInfo.encode(
    AuthInfo.fromPartial({
      signerInfos: [
        {
          publicKey: Any.fromPartial({ typeUrl: ETH_PUBKEY_TYPE, value: PubKey.encode({ key: s.from.pubKey }).finish() }),
          modeInfo: { single: { mode: SignMode.SIGN_MODE_DIRECT } },
          sequence: s.sequence,
        },
      ],
      fee: { amount: [{ denom: DENOM, amount: s.fee.toString() }], gasLimit: s.gasLimit },
    }),
  ).finish();
  const signDoc = SignDoc.encode({ bodyBytes, authInfoBytes, chainId: s.chainId, accountNumber: s.accountNumber }).finish();
  const signature = ethSecpSign(signDoc, s.from.privateKey);
  return { bytes: Buffer.from(TxRaw.encode({ bodyBytes, authInfoBytes, signatures: [signature] }).finish()), signature };
}

export interface EvmTxFields {
  chainId: bigint;
  nonce: bigint;
  to: Hex | null;
  value: bigint;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  input: Hex;
}

export interface SignedEvmTx extends EvmTxFields {
  /**
   * undefined: EIP-1559 (what the devnet generates). 'legacy' (EIP-155) and 'eip2930' come from
   * eth_sendRawTransaction; for them maxFeePerGas = maxPriorityFeePerGas = the gas price.
   */
  txType?: 'legacy' | 'eip2930';
  /** The signed EIP-2718 bytes (what eth_sendRawTransaction takes). */
  raw: Hex;
  hash: Hex;
  yParity: number;
  r: bigint;
  s: bigint;
}

function viemTx(f: EvmTxFields) {
  return {
    type: 'eip1559' as const,
    chainId: Number(f.chainId),
    nonce: Number(f.nonce),
    to: f.to ?? undefined,
    value: f.value,
    gas: f.gas,
    maxFeePerGas: f.maxFeePerGas,
    maxPriorityFeePerGas: f.maxPriorityFeePerGas,
    data: f.input === '0x' ? undefined : f.input,
  };
}

export function signEvmTx(f: EvmTxFields, privateKey: Uint8Array): SignedEvmTx {
  const unsigned = serializeTransaction(viemTx(f));
  const sig = secp256k1.sign(Buffer.from(keccak256(unsigned).slice(2), 'hex'), privateKey, { lowS: true });
  const raw = serializeTransaction(viemTx(f), { r: toHex(sig.r, { size: 32 }), s: toHex(sig.s, { size: 32 }), yParity: sig.recovery });
  return { ...f, raw, hash: keccak256(raw), yParity: sig.recovery, r: sig.r, s: sig.s };
}

/** big.Int.Bytes(): big-endian without leading zeros (zero is empty). */
function bigBytes(n: bigint): Buffer {
  if (n === 0n) return Buffer.alloc(0);
  const h = n.toString(16);
  return Buffer.from(h.length % 2 ? '0' + h : h, 'hex');
}

/** The protobuf bytes of a Cosmos EVM DynamicFeeTx (field numbers of cosmos/evm/vm/v1/tx.proto). */
export function encodeDynamicFeeTx(t: SignedEvmTx): Uint8Array {
  const w = BinaryWriter.create();
  w.uint32(10).string(t.chainId.toString());
  if (t.nonce !== 0n) w.uint32(16).uint64(t.nonce);
  w.uint32(26).string(t.maxPriorityFeePerGas.toString());
  w.uint32(34).string(t.maxFeePerGas.toString());
  if (t.gas !== 0n) w.uint32(40).uint64(t.gas);
  if (t.to) w.uint32(50).string(getAddress(t.to));
  w.uint32(58).string(t.value.toString());
  if (t.input !== '0x') w.uint32(66).bytes(Buffer.from(t.input.slice(2), 'hex'));
  const v = bigBytes(BigInt(t.yParity));
  if (v.length) w.uint32(82).bytes(v);
  w.uint32(90).bytes(bigBytes(t.r));
  w.uint32(98).bytes(bigBytes(t.s));
  return w.finish();
}

/**
 * The protobuf bytes of a Cosmos EVM LegacyTx (1 nonce 2 gas_price 3 gas 4 to 5 value 6 data 7 v
 * 8 r 9 s) or AccessListTx (1 chain_id 2 nonce 3 gas_price 4 gas 5 to 6 value 7 data 8 accesses
 * 9 v 10 r 11 s); access lists are not kept (always empty here).
 */
export function encodeLegacyOrAccessListTx(t: SignedEvmTx): Uint8Array {
  const w = BinaryWriter.create();
  const legacy = t.txType === 'legacy';
  const f = (n: number): number => (legacy ? n : n + 1);
  if (!legacy) w.uint32(10).string(t.chainId.toString());
  if (t.nonce !== 0n) w.uint32(f(1) * 8).uint64(t.nonce);
  w.uint32(f(2) * 8 + 2).string(t.maxFeePerGas.toString());
  if (t.gas !== 0n) w.uint32(f(3) * 8).uint64(t.gas);
  if (t.to) w.uint32(f(4) * 8 + 2).string(getAddress(t.to));
  w.uint32(f(5) * 8 + 2).string(t.value.toString());
  if (t.input !== '0x') w.uint32(f(6) * 8 + 2).bytes(Buffer.from(t.input.slice(2), 'hex'));
  const v = bigBytes(legacy ? BigInt(t.yParity) + 35n + 2n * t.chainId : BigInt(t.yParity));
  const sig = legacy ? 7 : 9;
  if (v.length) w.uint32(sig * 8 + 2).bytes(v);
  w.uint32((sig + 1) * 8 + 2).bytes(bigBytes(t.r));
  w.uint32((sig + 2) * 8 + 2).bytes(bigBytes(t.s));
  return w.finish();
}

/** The TxRaw of a MsgEthereumTx as evmd builds it: fee = gas fee cap x gas, no signer infos, no signatures. */
export function buildEthereumTx(t: SignedEvmTx): Buffer {
  const msg = BinaryWriter.create();
  const any =
    t.txType === undefined
      ? { typeUrl: DYNAMIC_FEE_TX_TYPE, value: encodeDynamicFeeTx(t) }
      : { typeUrl: t.txType === 'legacy' ? '/cosmos.evm.vm.v1.LegacyTx' : '/cosmos.evm.vm.v1.AccessListTx', value: encodeLegacyOrAccessListTx(t) };
  Any.encode(any, msg.uint32(10).fork()).ldelim();
  msg.uint32(26).string(t.hash);
  const bodyBytes = TxBody.encode(
    TxBody.fromPartial({
      messages: [{ typeUrl: MSG_ETH_TX_TYPE, value: msg.finish() }],
      extensionOptions: [{ typeUrl: ETH_EXT_OPTION_TYPE, value: new Uint8Array() }],
    }),
  ).finish();
  const authInfoBytes = AuthInfo.encode(
    AuthInfo.fromPartial({ fee: { amount: [{ denom: DENOM, amount: (t.maxFeePerGas * t.gas).toString() }], gasLimit: t.gas } }),
  ).finish();
  return Buffer.from(TxRaw.encode({ bodyBytes, authInfoBytes, signatures: [] }).finish());
}

/** The module account address of `name` (Cosmos SDK address.Module: first 20 bytes of SHA-256). */
export function moduleAddress(name: string): Buffer {
  return sha256(name).subarray(0, 20);
}
