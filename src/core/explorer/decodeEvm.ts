// The Ethereum transaction inside a MsgEthereumTx: its signed bytes read by viem (parseTransaction),
// the hash as keccak256 of those bytes, the sender recovered from the signature, values in base
// units and in the display denom (18 decimals unless the bank's denom metadata says otherwise).

import { MAX_INTEGER_TEXT, shownNumber } from '../base/limits';
import { secp256k1 } from '@noble/curves/secp256k1';
import { type Hex, type TransactionSerializable, formatUnits, getAddress, keccak256, parseTransaction, serializeTransaction } from 'viem';

export interface EvmTx {
  readonly hash: string;
  /** legacy, eip2930, eip1559, eip4844, eip7702. */
  readonly type: string;
  readonly chainId?: string;
  readonly nonce: string;
  /** Recovered from the signature (undefined when not asked or when it cannot be). */
  readonly from?: string;
  /** undefined: a contract creation. */
  readonly to?: string;
  /** Base units (wei-like), decimal. */
  readonly value: string;
  readonly gas: string;
  readonly gasPrice?: string;
  readonly maxFeePerGas?: string;
  readonly maxPriorityFeePerGas?: string;
  /** 0x hex (bounded in documents by the renderer). */
  readonly input: string;
  readonly accessListLength: number;
  /** The signed bytes, 0x hex. */
  readonly raw: string;
}

/** Reads signed RLP bytes (0x hex or bytes). Throws (viem's error) when they are not a signed transaction. */
export async function decodeEvmRaw(raw: Hex | Uint8Array, options: { recover?: boolean } = {}): Promise<EvmTx> {
  const hex: Hex = typeof raw === 'string' ? raw : `0x${Buffer.from(raw).toString('hex')}`;
  const tx = parseTransaction(hex);
  let from: string | undefined;
  if (options.recover !== false) {
    try {
      from = recoverSender(tx);
    } catch {
      from = undefined;
    }
  }
  const t = tx as {
    gasPrice?: bigint;
    maxFeePerGas?: bigint;
    maxPriorityFeePerGas?: bigint;
    accessList?: readonly unknown[];
  };
  return {
    hash: keccak256(hex),
    type: tx.type ?? 'legacy',
    chainId: tx.chainId === undefined ? undefined : String(tx.chainId),
    nonce: String(tx.nonce ?? 0),
    from,
    to: tx.to ?? undefined,
    value: (tx.value ?? 0n).toString(),
    gas: (tx.gas ?? 0n).toString(),
    gasPrice: t.gasPrice?.toString(),
    maxFeePerGas: t.maxFeePerGas?.toString(),
    maxPriorityFeePerGas: t.maxPriorityFeePerGas?.toString(),
    input: tx.data ?? '0x',
    accessListLength: t.accessList?.length ?? 0,
    raw: hex,
  };
}

/**
 * The sender: the public key recovered from the signature over the unsigned transaction's hash
 * (what viem's recoverTransactionAddress does, without its lazily imported curve module, which
 * would split the bundle).
 */
function recoverSender(tx: ReturnType<typeof parseTransaction>): string | undefined {
  const { r, s, v, yParity, ...unsigned } = tx as { r?: Hex; s?: Hex; v?: bigint; yParity?: number } & Record<string, unknown>;
  if (!r || !s) return undefined;
  const bit = yParity ?? (v === undefined ? undefined : v <= 28n ? Number(v - 27n) : Number((v - 35n) % 2n));
  if (bit !== 0 && bit !== 1) return undefined;
  const hash = keccak256(serializeTransaction(unsigned as TransactionSerializable));
  const key = new secp256k1.Signature(BigInt(r), BigInt(s)).addRecoveryBit(bit).recoverPublicKey(hash.slice(2)).toRawBytes(false);
  return getAddress(`0x${keccak256(key.subarray(1)).slice(-40)}`);
}

/** The signed bytes of a transaction given by its fields (the older MsgEthereumTx's `data` Any). */
export function serializeSigned(tx: TransactionSerializable, signature: { r: Hex; s: Hex; yParity: number; v?: bigint }): Hex {
  return serializeTransaction(tx, signature);
}

/** `amount` base units shown with `decimals` (trailing zeros trimmed). */
export function displayAmount(amount: string | bigint, decimals: number): string {
  if (typeof amount === 'string' && amount.length > MAX_INTEGER_TEXT) return shownNumber(amount);
  try {
    return formatUnits(BigInt(amount), decimals);
  } catch {
    return String(amount);
  }
}
