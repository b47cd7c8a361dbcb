// eth_sendRawTransaction as evmd v0.3.2 checks it (rpc/backend/call_tx.go, then the EVM ante
// handler at CheckTx): decode (go-ethereum's UnmarshalBinary), EIP-155 replay protection, the
// chain id, the signature (sender recovered; high-s refused), the sender's balance against the
// tx's cost, the fee cap against the base fee, the intrinsic gas, and the nonce. A refusal is
// thrown as RawTxRefused with evmd's message (recorded in test/fixtures/evmd/evm-refusals.json;
// devnetRefusals.unit.test.ts holds the devnet to it).
import { secp256k1 } from '@noble/curves/secp256k1';
import { type Hex, getAddress, keccak256, parseTransaction, serializeTransaction, toHex } from 'viem';
import type { SignedEvmTx } from './devTx';

/** A transaction the node refuses: eth_sendRawTransaction answers -32000 with this message. */
export class RawTxRefused extends Error {}

const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/**
 * An ABCI error from CheckTx as evmd's EVM RPC passes it on (errorsmod.ABCIError over the raw log,
 * which already ends with the registered error's text): that text twice.
 */
const abci = (log: string, registered: string): RawTxRefused => new RawTxRefused(`${log}: ${registered}: ${registered}`);

export interface RawTxState {
  chainId: bigint;
  baseFee: bigint;
  balance(address: Buffer): bigint;
  nonce(address: Buffer): bigint;
  intrinsicGas(input: Hex, create: boolean): bigint;
}

/** The checked tx and its sender, or RawTxRefused. */
export function checkRawEvmTx(raw: Buffer, s: RawTxState): { tx: SignedEvmTx; from: Buffer } {
  // 1. Decoding (go-ethereum's Transaction.UnmarshalBinary).
  if (raw.length <= 1 && !(raw.length === 1 && raw[0] > 0x7f)) throw new RawTxRefused('typed transaction too short');
  if (raw[0] <= 0x7f && ![1, 2].includes(raw[0])) throw new RawTxRefused('transaction type not supported');
  const hex = toHex(raw);
  let p: ReturnType<typeof parseTransaction>;
  try {
    p = parseTransaction(hex);
  } catch {
    // go-ethereum's rlp errors vary with the bytes; this is the one for truncated input (`0xdeadbeef`).
    throw new RawTxRefused('rlp: value size exceeds available input length');
  }
  if (p.r === undefined || p.s === undefined) throw new RawTxRefused('invalid transaction v, r, s values');
  // 2. Replay protection and chain id (evmd refuses unprotected txs over RPC by default).
  if (p.type === 'legacy' && p.chainId === undefined) throw new RawTxRefused('only replay-protected (EIP-155) transactions allowed over RPC');
  const chainId = BigInt(p.chainId ?? 0);
  if (chainId !== s.chainId) throw new RawTxRefused(`incorrect chain-id; expected ${s.chainId}, got ${chainId}`);
  if (p.type !== 'eip1559' && p.type !== 'legacy' && p.type !== 'eip2930') throw new RawTxRefused('transaction type not supported');
  // 3. Signature: the sender recovered from it.
  const r = BigInt(p.r);
  const sv = BigInt(p.s);
  const yParity = p.type === 'legacy' ? Number(BigInt(p.v ?? 0n) - 35n - 2n * chainId) : (p.yParity ?? 0);
  if (sv > HALF_N || r === 0n || sv === 0n) {
    throw abci(
      "couldn't retrieve sender address from the ethereum transaction: invalid transaction v, r, s values",
      'tx intended signer does not match the given signer',
    );
  }
  if (yParity !== 0 && yParity !== 1) throw new RawTxRefused('invalid transaction v, r, s values');
  const { r: _r, s: _s, v: _v, yParity: _y, ...unsigned } = p;
  const digest = Buffer.from(keccak256(serializeTransaction(unsigned)).slice(2), 'hex');
  const pub = new secp256k1.Signature(r, sv).addRecoveryBit(yParity).recoverPublicKey(digest).toRawBytes(false);
  const from = Buffer.from(keccak256(pub.subarray(1)).slice(-40), 'hex');
  const gasPrice = p.type === 'eip1559' ? undefined : (p.gasPrice ?? 0n);
  const tx: SignedEvmTx = {
    txType: p.type === 'eip1559' ? undefined : p.type,
    chainId,
    nonce: BigInt(p.nonce ?? 0),
    to: p.to ?? null,
    value: p.value ?? 0n,
    gas: p.gas ?? 0n,
    maxFeePerGas: gasPrice ?? p.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: gasPrice ?? p.maxPriorityFeePerGas ?? 0n,
    input: p.data ?? '0x',
    raw: hex,
    hash: keccak256(hex),
    yParity,
    r,
    s: sv,
  };
  // 4. The ante handler: balance >= gas x fee cap + value, fee cap >= base fee, intrinsic gas, nonce.
  const cost = tx.gas * tx.maxFeePerGas + tx.value;
  const balance = s.balance(from);
  if (balance < cost) throw abci(`failed to check sender balance: sender balance < tx cost (${balance} < ${cost})`, 'insufficient funds');
  if (tx.maxFeePerGas < s.baseFee) throw abci(`max fee per gas less than block base fee (${tx.maxFeePerGas} < ${s.baseFee})`, 'insufficient fee');
  const intrinsic = s.intrinsicGas(tx.input, tx.to === null);
  if (tx.gas < intrinsic) throw abci(`gas limit too low: ${tx.gas} (gas limit) < ${intrinsic} (intrinsic gas)`, 'out of gas');
  const expected = s.nonce(from);
  if (tx.nonce !== expected) throw abci(`invalid nonce; got ${tx.nonce}, expected ${expected}`, 'invalid sequence');
  return { tx, from };
}

/** The EIP-55 form of a 20-byte address. */
export const addressOf = (b: Buffer): Hex => getAddress(toHex(b));
