// MsgEthereumTx, whose proto is not in cosmjs-types, read with its BinaryReader. Two shapes exist:
// Cosmos EVM v0.3 and ethermint (`/ethermint.evm.v1.MsgEthereumTx`): field 1 an Any holding a
// LegacyTx, AccessListTx or DynamicFeeTx with the signature's v, r, s (field 3 the hash); newer
// Cosmos EVM: field 5 the sender's bytes and field 6 the signed RLP bytes themselves. Either way
// the result is the signed bytes viem reads (src/core/explorer/decodeEvm.ts).

import { parseDecimalQuantity } from '../base/limits';
import { BinaryReader } from 'cosmjs-types/binary';
import type { Hex, TransactionSerializable } from 'viem';
import { serializeSigned } from './decodeEvm';

export const ETHEREUM_TX_TYPES = ['/cosmos.evm.vm.v1.MsgEthereumTx', '/ethermint.evm.v1.MsgEthereumTx'];

export interface EthereumMsg {
  /** The hash the message states (older shape), 0x. */
  readonly statedHash?: string;
  /** The sender the message states (newer shape: bytes; older: a string), 0x or as given. */
  readonly from?: string;
  /** The signed transaction, RLP bytes as 0x hex (undefined when the inner type is unknown). */
  readonly raw?: Hex;
  /** The inner type URL of the older shape. */
  readonly innerType?: string;
}

type Fields = Map<number, Array<bigint | Uint8Array>>;

/** Field number -> values (varints as bigint, length-delimited as bytes, fixed as bigint). */
function readFields(bytes: Uint8Array): Fields {
  const reader = new BinaryReader(bytes);
  const fields: Fields = new Map();
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    let value: bigint | Uint8Array;
    if (wireType === 0) value = reader.uint64();
    else if (wireType === 2) value = reader.bytes();
    else if (wireType === 1) value = reader.fixed64();
    else if (wireType === 5) value = BigInt(reader.fixed32());
    else {
      reader.skipType(wireType);
      continue;
    }
    const list = fields.get(field) ?? [];
    list.push(value);
    fields.set(field, list);
  }
  return fields;
}

const text = (v: bigint | Uint8Array | undefined) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : undefined);
const num = (v: bigint | Uint8Array | undefined) => (typeof v === 'bigint' ? v : 0n);
const hexOf = (v: bigint | Uint8Array | undefined): Hex => (v instanceof Uint8Array ? `0x${Buffer.from(v).toString('hex')}` : '0x');
// A uint256 in decimal (a longer string in a hostile transaction is no amount, and never given to BigInt).
const big = (s: string | undefined) => parseDecimalQuantity(s) ?? 0n;

/** Reads a MsgEthereumTx's value; throws when the bytes are not protobuf. */
export function readEthereumMsg(bytes: Uint8Array): EthereumMsg {
  const f = readFields(bytes);
  const first = (n: number) => f.get(n)?.[0];
  const raw = first(6);
  if (raw instanceof Uint8Array) {
    const from = first(5);
    return { raw: hexOf(raw), from: from instanceof Uint8Array && from.length === 20 ? hexOf(from) : undefined };
  }
  const statedHash = text(first(3)) || undefined;
  const from = text(first(4)) || undefined;
  const any = first(1);
  if (!(any instanceof Uint8Array)) return { statedHash, from };
  const anyFields = readFields(any);
  const innerType = text(anyFields.get(1)?.[0]);
  const value = anyFields.get(2)?.[0];
  if (!(value instanceof Uint8Array) || !innerType) return { statedHash, from, innerType };
  const built = innerTx(innerType, readFields(value));
  return { statedHash, from, innerType, raw: built };
}

/** The signed bytes of a LegacyTx, AccessListTx or DynamicFeeTx (fields as in their .proto). */
function innerTx(typeUrl: string, f: Fields): Hex | undefined {
  const g = (n: number) => f.get(n)?.[0];
  const name = typeUrl.slice(typeUrl.lastIndexOf('.') + 1);
  // Field numbers: LegacyTx 1 nonce 2 gas_price 3 gas 4 to 5 value 6 data 7 v 8 r 9 s;
  // AccessListTx 1 chain_id 2 nonce 3 gas_price 4 gas 5 to 6 value 7 data 8 accesses 9 v 10 r 11 s;
  // DynamicFeeTx 1 chain_id 2 nonce 3 tip_cap 4 fee_cap 5 gas 6 to 7 value 8 data 9 accesses 10 v 11 r 12 s.
  const layouts: Record<string, { at: number; sig: number }> = {
    LegacyTx: { at: 0, sig: 7 },
    AccessListTx: { at: 1, sig: 9 },
    DynamicFeeTx: { at: 1, sig: 10 },
  };
  const layout = layouts[name];
  if (!layout) return undefined;
  const to = text(g(name === 'LegacyTx' ? 4 : name === 'AccessListTx' ? 5 : 6)) || undefined;
  const vBytes = g(layout.sig);
  // v is a word at most (longer bytes in a hostile transaction are no signature, and never given to BigInt).
  const v = vBytes instanceof Uint8Array && vBytes.length > 0 && vBytes.length <= 32 ? BigInt(hexOf(vBytes)) : 0n;
  const signature = { r: padded(g(layout.sig + 1)), s: padded(g(layout.sig + 2)) };
  const accessList = (n: number) =>
    (f.get(n) ?? [])
      .filter((x): x is Uint8Array => x instanceof Uint8Array)
      .map((tuple) => {
        const t = readFields(tuple);
        return { address: text(t.get(1)?.[0]) as Hex, storageKeys: (t.get(2) ?? []).map((k) => text(k) as Hex) };
      });
  let tx: TransactionSerializable;
  if (name === 'LegacyTx') {
    // v = 27/28, or chainId*2 + 35/36 (EIP-155).
    const chainId = v >= 35n ? Number((v - 35n) / 2n) : undefined;
    tx = {
      type: 'legacy',
      nonce: Number(num(g(1))),
      gasPrice: big(text(g(2))),
      gas: num(g(3)),
      to: to as Hex | undefined,
      value: big(text(g(5))),
      data: hexOf(g(6)),
      chainId,
    };
    const yParity = chainId === undefined ? Number(v - 27n) : Number((v - 35n) % 2n);
    // viem serialises a legacy signature from `v` (27/28; it adds the EIP-155 offset itself).
    return serializeSigned(tx, { ...signature, yParity: yParity === 1 ? 1 : 0, v: yParity === 1 ? 28n : 27n });
  }
  const chainId = Number(big(text(g(1))));
  if (name === 'AccessListTx') {
    tx = {
      type: 'eip2930',
      chainId,
      nonce: Number(num(g(2))),
      gasPrice: big(text(g(3))),
      gas: num(g(4)),
      to: to as Hex | undefined,
      value: big(text(g(6))),
      data: hexOf(g(7)),
      accessList: accessList(8),
    };
  } else {
    tx = {
      type: 'eip1559',
      chainId,
      nonce: Number(num(g(2))),
      maxPriorityFeePerGas: big(text(g(3))),
      maxFeePerGas: big(text(g(4))),
      gas: num(g(5)),
      to: to as Hex | undefined,
      value: big(text(g(7))),
      data: hexOf(g(8)),
      accessList: accessList(9),
    };
  }
  return serializeSigned(tx, { ...signature, yParity: v === 1n ? 1 : 0 });
}

function padded(v: bigint | Uint8Array | undefined): Hex {
  const hex = v instanceof Uint8Array ? Buffer.from(v).toString('hex') : '';
  return `0x${hex.padStart(64, '0')}`;
}
