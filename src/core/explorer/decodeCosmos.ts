// A Cosmos transaction's bytes (TxRaw) decoded locally with cosmjs-types: each message with its type
// URL and fields (MsgEthereumTx with its Ethereum transaction), memo, fee, gas, signers (public key
// -> address) and sequences. A message nobody here knows keeps its type URL, bytes and a field dump;
// a message that fails to decode says why. Neither fails the transaction.

import * as crypto from 'node:crypto';
import { BinaryReader } from 'cosmjs-types/binary';
import { TxRaw, TxBody, AuthInfo } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { keccak256, ripemd160 } from 'viem';
import { secp256k1 } from '@noble/curves/secp256k1';
import { errorMessage } from '../base/errors';
import { bech32Encode } from '../chain/validate';
import { checksumAddress } from './addresses';
import { ETHEREUM_TX_TYPES, type EthereumMsg, readEthereumMsg } from './ethereumMsg';
import { decodeKnownMessage } from './messages';
import { type DumpField, dumpFields, shownHex } from './protoDump';

export interface DecodedMessage {
  readonly typeUrl: string;
  /** Decoded fields (JSON), when the type is known. */
  readonly fields?: Record<string, unknown>;
  /** A MsgEthereumTx: what it carries (the signed bytes as `raw`). */
  readonly ethereum?: EthereumMsg;
  /** A type not known here (or one that failed): the bytes and a field dump. */
  readonly unknown?: { readonly hex: string; readonly base64: string; readonly dump?: readonly DumpField[] };
  /** Why decoding failed (the rest of the transaction is still shown). */
  readonly error?: string;
}

export interface Signer {
  readonly pubKeyType?: string;
  readonly pubKey?: string;
  /** bech32 with the chain's prefix, when the key type is known. */
  readonly address?: string;
  readonly hexAddress?: string;
  readonly sequence: string;
  readonly mode?: string;
}

export interface DecodedTx {
  /** SHA-256 of the bytes, UPPERCASE hex (the Cosmos transaction hash). */
  readonly hash: string;
  readonly size: number;
  readonly messages: readonly DecodedMessage[];
  readonly memo: string;
  readonly timeoutHeight: string;
  readonly extensionOptions: readonly string[];
  readonly fee?: {
    readonly amount: ReadonlyArray<{ denom: string; amount: string }>;
    readonly gasLimit: string;
    readonly payer: string;
    readonly granter: string;
  };
  readonly signers: readonly Signer[];
  readonly signatures: number;
  /** Set when the bytes are not a transaction at all (nothing else is then known). */
  readonly error?: string;
}

/** Node's one-shot hash (20.12+): a third of createHash's cost per call, which counts in a block of thousands. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'hex') => string }).hash;

export function cosmosTxHash(bytes: Uint8Array): string {
  return (oneShot ? oneShot('sha256', bytes, 'hex') : crypto.createHash('sha256').update(bytes).digest('hex')).toUpperCase();
}

/**
 * Only the messages' type URLs (TxRaw.body_bytes -> TxBody.messages[].type_url), read with
 * cosmjs-types' own reader and every other field skipped: a block's one-line summaries need no more.
 * undefined when the bytes are not a transaction.
 */
export function messageTypes(bytes: Uint8Array): string[] | undefined {
  try {
    // One reader over the transaction (cosmjs-types copies what it is given), nested messages read in place.
    const r = new BinaryReader(bytes);
    const body = enter(r, r.len, 1);
    if (body === undefined) return [];
    const types: string[] = [];
    while (r.pos < body) {
      const tag = r.uint32();
      if (tag !== 10) {
        r.skipType(tag & 7);
        continue;
      }
      const end = r.uint32() + r.pos;
      const typeUrl = enter(r, end, 1);
      types.push(typeUrl === undefined ? '?' : Buffer.from(r.buf.buffer, r.buf.byteOffset + r.pos, typeUrl - r.pos).toString('utf8'));
      r.pos = end;
    }
    return types;
  } catch {
    return undefined;
  }
}

/** Moves `r` to the contents of the first length-delimited field `n` before `end`; returns where they end (undefined: none). */
function enter(r: BinaryReader, end: number, n: number): number | undefined {
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((n << 3) | 2)) {
      const len = r.uint32();
      if (r.pos + len > end) throw new RangeError('premature end');
      return r.pos + len;
    }
    r.skipType(tag & 7);
  }
  return undefined;
}

/** Decodes a transaction's bytes. Never throws: a failure is in `error` (whole tx) or in a message. */
export function decodeCosmosTx(bytes: Uint8Array, prefix = 'cosmos'): DecodedTx {
  const hash = cosmosTxHash(bytes);
  const empty = { hash, size: bytes.length, messages: [], memo: '', timeoutHeight: '0', extensionOptions: [], signers: [], signatures: 0 };
  let raw: TxRaw;
  let body: TxBody;
  let authInfo: AuthInfo;
  try {
    raw = TxRaw.decode(bytes);
    body = TxBody.decode(raw.bodyBytes);
    authInfo = AuthInfo.decode(raw.authInfoBytes);
  } catch (err) {
    return { ...empty, error: `not a Cosmos transaction (${errorMessage(err)})` };
  }
  return {
    hash,
    size: bytes.length,
    messages: body.messages.map((m) => decodeMessage(m.typeUrl, m.value)),
    memo: body.memo,
    timeoutHeight: body.timeoutHeight.toString(),
    extensionOptions: body.extensionOptions.map((o) => o.typeUrl),
    fee: authInfo.fee && {
      amount: authInfo.fee.amount.map((c) => ({ denom: c.denom, amount: c.amount })),
      gasLimit: authInfo.fee.gasLimit.toString(),
      payer: authInfo.fee.payer,
      granter: authInfo.fee.granter,
    },
    signers: authInfo.signerInfos.map((s) => {
      const key = s.publicKey;
      const single = s.modeInfo?.single?.mode;
      const addr = key ? signerAddress(key.typeUrl, key.value, prefix) : undefined;
      return {
        pubKeyType: key?.typeUrl,
        pubKey: key ? pubKeyBase64(key.value) : undefined,
        address: addr?.bech32,
        hexAddress: addr?.hex,
        sequence: s.sequence.toString(),
        mode: single === undefined ? (s.modeInfo?.multi ? 'multi' : undefined) : String(single),
      };
    }),
    signatures: raw.signatures.length,
  };
}

export function decodeMessage(typeUrl: string, value: Uint8Array): DecodedMessage {
  try {
    if (ETHEREUM_TX_TYPES.includes(typeUrl)) return { typeUrl, ethereum: readEthereumMsg(value) };
    const fields = decodeKnownMessage(typeUrl, value);
    if (fields) return { typeUrl, fields };
    return { typeUrl, unknown: unknownBytes(value) };
  } catch (err) {
    return { typeUrl, unknown: unknownBytes(value), error: errorMessage(err) };
  }
}

function unknownBytes(value: Uint8Array): { hex: string; base64: string; dump?: DumpField[] } {
  let dump: DumpField[] | undefined;
  try {
    dump = dumpFields(value);
  } catch {
    dump = undefined;
  }
  const shown = value.subarray(0, 4096);
  return { hex: shownHex(value), base64: Buffer.from(shown).toString('base64') + (value.length > shown.length ? '…' : ''), dump };
}

/** A PubKey message (`key` in field 1) to base64. */
function pubKeyBase64(value: Uint8Array): string | undefined {
  const key = pubKeyBytes(value);
  return key && Buffer.from(key).toString('base64');
}

function pubKeyBytes(value: Uint8Array): Uint8Array | undefined {
  // secp256k1, ethsecp256k1 and ed25519 PubKey: { bytes key = 1 }.
  if (value.length < 2 || value[0] !== 0x0a || value[1] !== value.length - 2) return undefined;
  return value.subarray(2);
}

/** Addresses by key and prefix: a block's transactions come from few signers, and ethsecp256k1 needs a costly decompression. */
const addressCache = new Map<string, { bech32: string; hex?: string } | undefined>();
const MAX_CACHED = 1000;

function signerAddress(typeUrl: string, value: Uint8Array, prefix: string): { bech32: string; hex?: string } | undefined {
  const key = pubKeyBytes(value);
  return key && signerAddressFromKey(typeUrl, key, prefix);
}

/** The address of a public key (secp256k1: ripemd160(sha256); ethsecp256k1: keccak of the uncompressed key). */
export function signerAddressFromKey(typeUrl: string, key: Uint8Array, prefix: string): { bech32: string; hex?: string } | undefined {
  const cacheKey = `${prefix} ${typeUrl} ${Buffer.from(key).toString('base64')}`;
  if (addressCache.has(cacheKey)) return addressCache.get(cacheKey);
  let addr: Uint8Array | undefined;
  try {
    if (/ethsecp256k1/.test(typeUrl)) {
      const full = secp256k1.ProjectivePoint.fromHex(key).toRawBytes(false);
      addr = Uint8Array.from(Buffer.from(keccak256(full.subarray(1)).slice(2 + 24), 'hex'));
    } else if (/secp256k1\.PubKey$/.test(typeUrl) && key.length === 33) {
      addr = Uint8Array.from(Buffer.from(ripemd160(crypto.createHash('sha256').update(key).digest()).slice(2), 'hex'));
    }
  } catch {
    addr = undefined;
  }
  const result = addr && { bech32: bech32Encode(prefix, addr), hex: checksumAddress(addr) };
  if (addressCache.size >= MAX_CACHED) addressCache.clear();
  addressCache.set(cacheKey, result);
  return result;
}
