// Byte and text encodings shared by the devnet's three interfaces: hashes, Go-style times,
// bech32 (real checksum) and Keccak-256 (real, so EVM tx hashes match what wallets compute).
import { createHash } from 'node:crypto';

export function sha256(data: Buffer | string): Buffer {
  return createHash('sha256').update(data).digest();
}

export function sha512(data: Buffer | string): Buffer {
  return createHash('sha512').update(data).digest();
}

/** CometBFT RPC form: uppercase hex, no 0x; empty bytes give "". */
export function hexUpper(b: Buffer): string {
  return b.toString('hex').toUpperCase();
}

/** EVM form: 0x lowercase hex. */
export function hex0x(b: Buffer): string {
  return '0x' + b.toString('hex');
}

/** EVM quantity: 0x hex without leading zeros ("0x0" for zero). */
export function quantity(n: bigint | number): string {
  return '0x' + n.toString(16);
}

const NS_PER_S = 1_000_000_000n;

function splitTime(ns: bigint): { base: string; frac: string } {
  const secs = ns / NS_PER_S;
  const frac = (ns % NS_PER_S).toString().padStart(9, '0');
  const iso = new Date(Number(secs) * 1000).toISOString(); // ...T12:34:56.000Z
  return { base: iso.slice(0, 19), frac };
}

/** Go's time.RFC3339Nano as CometBFT prints it: trailing zeros of the fraction trimmed. */
export function goTime(ns: bigint): string {
  const { base, frac } = splitTime(ns);
  const trimmed = frac.replace(/0+$/, '');
  return trimmed ? `${base}.${trimmed}Z` : `${base}Z`;
}

/** protojson Timestamp as the REST gateway prints it: 0, 3, 6 or 9 fractional digits. */
export function protoTime(ns: bigint): string {
  const { base, frac } = splitTime(ns);
  if (/^0+$/.test(frac)) return `${base}Z`;
  if (frac.endsWith('000000')) return `${base}.${frac.slice(0, 3)}Z`;
  if (frac.endsWith('000')) return `${base}.${frac.slice(0, 6)}Z`;
  return `${base}.${frac}Z`;
}

// ---- bech32 (BIP-173) ----
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i];
  }
  return chk >>> 0;
}

function hrpExpand(hrp: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) >> 5);
  out.push(0);
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) & 31);
  return out;
}

function convertBits(data: Uint8Array | number[], from: number, to: number, pad: boolean): number[] | undefined {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const maxv = (1 << to) - 1;
  for (const value of data) {
    acc = (acc << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & maxv);
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & maxv);
  } else if (bits >= from || ((acc << (to - bits)) & maxv) !== 0) {
    return undefined;
  }
  return out;
}

export function bech32Encode(hrp: string, bytes: Buffer): string {
  const data = convertBits(bytes, 8, 5, true) ?? [];
  const mod = polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum: number[] = [];
  for (let i = 0; i < 6; i++) checksum.push((mod >>> (5 * (5 - i))) & 31);
  return hrp + '1' + [...data, ...checksum].map((d) => CHARSET[d]).join('');
}

/** Decodes like Go's bech32 package; throws with its style of message. */
export function bech32Decode(s: string): { hrp: string; bytes: Buffer } {
  if (s.length < 8 || s.length > 90) throw new Error(`decoding bech32 failed: invalid bech32 string length ${s.length}`);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 33 || c > 126) throw new Error(`decoding bech32 failed: invalid character in string: '${s[i]}'`);
  }
  if (s.toLowerCase() !== s && s.toUpperCase() !== s) throw new Error('decoding bech32 failed: string not all lowercase or all uppercase');
  const lower = s.toLowerCase();
  const sep = lower.lastIndexOf('1');
  if (sep < 1 || sep + 7 > lower.length) throw new Error(`decoding bech32 failed: invalid separator index ${sep}`);
  const hrp = lower.slice(0, sep);
  const data: number[] = [];
  for (const ch of lower.slice(sep + 1)) {
    const d = CHARSET.indexOf(ch);
    if (d < 0) throw new Error(`decoding bech32 failed: invalid character not part of charset: ${ch.charCodeAt(0)}`);
    data.push(d);
  }
  if (polymod([...hrpExpand(hrp), ...data]) !== 1) throw new Error('decoding bech32 failed: invalid checksum');
  const bytes = convertBits(data.slice(0, -6), 5, 8, false);
  if (!bytes) throw new Error('decoding bech32 failed: invalid incomplete group');
  return { hrp, bytes: Buffer.from(bytes) };
}

// ---- Keccak-256 (the pre-standard padding Ethereum uses, not NIST SHA3-256) ----
const MASK64 = (1n << 64n) - 1n;
const RC: bigint[] = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n,
];
// ROT[x][y]
const ROT = [
  [0, 36, 3, 41, 18],
  [1, 44, 10, 45, 2],
  [62, 6, 43, 15, 61],
  [28, 55, 25, 21, 56],
  [27, 20, 39, 8, 14],
];

function rotl(v: bigint, n: number): bigint {
  if (n === 0) return v;
  const s = BigInt(n);
  return ((v << s) | (v >> (64n - s))) & MASK64;
}

function keccakF(a: bigint[]): void {
  const c = new Array<bigint>(5);
  const b = new Array<bigint>(25);
  for (let round = 0; round < 24; round++) {
    for (let x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
      for (let y = 0; y < 5; y++) a[x + 5 * y] ^= d;
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], ROT[x][y]);
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        a[x + 5 * y] = b[x + 5 * y] ^ (~b[((x + 1) % 5) + 5 * y] & MASK64 & b[((x + 2) % 5) + 5 * y]);
      }
    }
    a[0] ^= RC[round];
  }
}

export function keccak256(data: Buffer): Buffer {
  const rate = 136;
  const padLen = rate - (data.length % rate);
  const msg = Buffer.alloc(data.length + padLen);
  data.copy(msg);
  msg[data.length] ^= 0x01;
  msg[msg.length - 1] ^= 0x80;
  const state = new Array<bigint>(25).fill(0n);
  for (let off = 0; off < msg.length; off += rate) {
    for (let i = 0; i < rate / 8; i++) state[i] ^= msg.readBigUInt64LE(off + i * 8);
    keccakF(state);
  }
  const out = Buffer.alloc(32);
  for (let i = 0; i < 4; i++) out.writeBigUInt64LE(state[i], i * 8);
  return out;
}
