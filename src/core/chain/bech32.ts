// bech32 (BIP-173) of the common case, without @scure/base's general machinery: a lowercase
// address to its bytes and bytes to an address, each a few integer loops. Anything else (uppercase,
// odd prefixes, a wrong checksum or padding) is left to @scure/base (validate.ts), which then says
// why: these return undefined for "not handled here", never for "invalid". A receipt turns hundreds
// of addresses one way or the other; the tests check these against @scure/base.

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
/** The 5-bit value of each charset letter by its char code (-1: not in the charset). */
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < CHARSET.length; i++) VALUE[CHARSET.charCodeAt(i)] = i;
/** The char code of each 5-bit value's letter. */
const CODES = Array.from(CHARSET, (c) => c.charCodeAt(0));

function polymod(pre: number): number {
  const b = pre >> 25;
  return (
    ((pre & 0x1ffffff) << 5) ^
    (b & 1 ? 0x3b6a57b2 : 0) ^
    (b & 2 ? 0x26508e6d : 0) ^
    (b & 4 ? 0x1ea119fa : 0) ^
    (b & 8 ? 0x3d4233dd : 0) ^
    (b & 16 ? 0x2a1462b3 : 0)
  );
}

/** The checksum state after the prefix (BIP-173's expansion: high bits, a zero, low bits). */
function prefixState(hrp: string): number {
  let chk = 1;
  for (let i = 0; i < hrp.length; i++) chk = polymod(chk) ^ (hrp.charCodeAt(i) >> 5);
  chk = polymod(chk);
  for (let i = 0; i < hrp.length; i++) chk = polymod(chk) ^ (hrp.charCodeAt(i) & 0x1f);
  return chk;
}

/** A prefix handled here: 1 to 83 lowercase letters and digits. */
const PLAIN_PREFIX = /^[a-z0-9]{1,83}$/;

/** `bytes` as bech32 with prefix `hrp` (no length limit, as validate.ts encodes); undefined when `hrp` is not plain lowercase. */
export function encodeBech32(hrp: string, bytes: Uint8Array): string | undefined {
  if (!PLAIN_PREFIX.test(hrp)) return undefined;
  let chk = prefixState(hrp);
  // The data and checksum letters as char codes, made a string once.
  const codes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < bytes.length; i++) {
    acc = ((acc << 8) | bytes[i]) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      const w = (acc >> bits) & 31;
      chk = polymod(chk) ^ w;
      codes.push(CODES[w]);
    }
  }
  if (bits > 0) {
    const w = (acc << (5 - bits)) & 31;
    chk = polymod(chk) ^ w;
    codes.push(CODES[w]);
  }
  for (let i = 0; i < 6; i++) chk = polymod(chk);
  chk ^= 1;
  for (let i = 5; i >= 0; i--) codes.push(CODES[(chk >> (5 * i)) & 31]);
  return `${hrp}1${String.fromCharCode(...codes)}`;
}

/**
 * The prefix and bytes of a valid lowercase bech32 string of at most 90 characters whose data
 * converts to whole bytes; undefined when it is anything else (then ask @scure/base).
 */
export function decodeBech32(text: string): { hrp: string; bytes: Uint8Array } | undefined {
  const n = text.length;
  if (n < 8 || n > 90) return undefined;
  const sep = text.lastIndexOf('1');
  if (sep < 1 || n - sep - 1 < 6) return undefined;
  const hrp = text.slice(0, sep);
  if (!PLAIN_PREFIX.test(hrp)) return undefined;
  let chk = prefixState(hrp);
  const words = n - sep - 1 - 6;
  const bytes = new Uint8Array(Math.floor((words * 5) / 8));
  let acc = 0;
  let bits = 0;
  let k = 0;
  for (let i = sep + 1; i < n; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? VALUE[c] : -1;
    if (v < 0) return undefined;
    chk = polymod(chk) ^ v;
    if (i < n - 6) {
      acc = ((acc << 5) | v) & 0xfff;
      bits += 5;
      if (bits >= 8) {
        bits -= 8;
        bytes[k++] = (acc >> bits) & 0xff;
      }
    }
  }
  // The checksum (the last six words included, the state is 1 exactly when it matches), then the
  // padding: fewer than 5 bits left over, all zero.
  if (chk !== 1) return undefined;
  if (bits >= 5 || (acc & ((1 << bits) - 1)) !== 0) return undefined;
  return { hrp, bytes };
}
