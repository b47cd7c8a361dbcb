// Validators for what a user types. Each returns an error sentence that says what to type, or
// undefined when the value is acceptable; `normalize*` turns an accepted value into wire form.

import { bech32 } from '@scure/base';
import * as l10n from '../base/l10n';
import { BoundedMemo } from '../base/memo';
import { dotSegmentOf } from '../config/providers';
import { isEvmAddress, withoutLeadingZeros } from '../base/text';
import { wrongChecksum } from './abiCall';

export type Validator = (value: string) => string | undefined;

const MAX_INT64 = 9223372036854775807n;

export const validateHeight: Validator = (value) => {
  const text = value.trim();
  if (text === '') return l10n.t('Type a block height: a whole number from 1 to 9223372036854775807.');
  if (!/^\d+$/.test(text)) return l10n.t('"{0}" is not a block height: type a whole number from 1 to 9223372036854775807.', text);
  // Past 19 digits (leading zeros aside) it is past int64: said before BigInt reads a pasted megabyte.
  const digits = withoutLeadingZeros(text);
  if (digits.length > 19) return l10n.t('That height is larger than the largest int64: type a whole number from 1 to 9223372036854775807.');
  const n = BigInt(digits);
  if (n < 1n) return l10n.t('Heights start at 1: type a whole number from 1 to 9223372036854775807.');
  if (n > MAX_INT64) return l10n.t('That height is larger than the largest int64: type a whole number from 1 to 9223372036854775807.');
  return undefined;
};

/** Empty means "latest". */
export const validateOptionalHeight: Validator = (value) => (value.trim() === '' ? undefined : validateHeight(value));

/** Canonical decimal form: no spaces, no leading zeros. */
export function normalizeHeight(value: string): string {
  // Checked by validateHeight (19 digits after leading zeros): BigInt reads only those.
  return BigInt(withoutLeadingZeros(value.trim())).toString();
}

export const validateEvmTxHash: Validator = (value) =>
  /^0x[0-9a-fA-F]{64}$/.test(value.trim()) ? undefined : l10n.t('Type a transaction hash: 0x followed by 64 hex digits.');

export const validateCometTxHash: Validator = (value) =>
  /^(0x)?[0-9a-fA-F]{64}$/.test(value.trim()) ? undefined : l10n.t('Type a transaction hash: 64 hex digits (0x optional).');

/** Upper-case hex without 0x, as CometBFT and the REST gateway print hashes. */
export function normalizeCometHash(value: string): string {
  return value.trim().replace(/^0x/i, '').toUpperCase();
}

export const validateEvmAddress: Validator = (value) => {
  const text = value.trim();
  if (!isEvmAddress(text)) return l10n.t('Type an EVM address: 0x followed by 40 hex digits.');
  if (wrongChecksum(text)) return l10n.t('{0} has a wrong EIP-55 checksum (mixed case): check it, or type it all in lowercase.', text);
  return undefined;
};

/** true or false (any case); empty is handled by the parameter being optional. */
export const validateBoolean: Validator = (value) =>
  /^(?:true|false)$/i.test(value.trim()) ? undefined : l10n.t('Type true or false (or leave it empty for false).');

export const validateBech32Address: Validator = (value) => {
  const text = value.trim();
  const decoded = bech32Decode(text);
  if (typeof decoded === 'string') return l10n.t('"{0}" is not a valid bech32 address ({1}): type one such as cosmos1...', truncate(text), decoded);
  return undefined;
};

/** Tx bytes typed as base64 or 0x-hex. */
export const validateTxBytes: Validator = (value) => {
  const text = value.trim();
  if (text === '') return l10n.t('Type the signed transaction bytes as base64 or 0x-prefixed hex.');
  if (/^0x/i.test(text)) {
    const hex = text.slice(2);
    if (hex.length === 0) return l10n.t('The hex transaction is empty: type 0x followed by the bytes in hex.');
    if (!/^[0-9a-fA-F]*$/.test(hex))
      return l10n.t('The hex transaction has characters that are not hex digits: type 0x followed by the bytes in hex (0-9, a-f).');
    if (hex.length % 2 !== 0) return l10n.t('The hex transaction has an odd number of digits (each byte takes two): type 0x followed by whole bytes in hex.');
    return undefined;
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) {
    return l10n.t('Not valid base64 (or hex): type base64 such as "a2V5PXZhbHVl" or hex such as 0x6b65793d76616c7565.');
  }
  return undefined;
};

/** Tx bytes to base64 (the wire form of CometBFT JSON-RPC and the REST gateway). */
export function normalizeTxBytes(value: string): string {
  const text = value.trim();
  return /^0x/i.test(text) ? Buffer.from(text.slice(2), 'hex').toString('base64') : text;
}

export const validateEvmRawTx: Validator = (value) => {
  const text = value.trim();
  if (!/^0x/i.test(text)) return l10n.t('Type the signed transaction as 0x-prefixed hex (RLP bytes).');
  const hex = text.slice(2);
  if (hex.length === 0) return l10n.t('The transaction is empty: type 0x followed by the RLP bytes in hex.');
  if (!/^[0-9a-fA-F]*$/.test(hex))
    return l10n.t('The transaction has characters that are not hex digits: type 0x followed by the RLP bytes in hex (0-9, a-f).');
  if (hex.length % 2 !== 0) return l10n.t('The transaction has an odd number of hex digits (each byte takes two): type 0x followed by whole bytes in hex.');
  return undefined;
};

export const validateMethodName: Validator = (value) =>
  /^[A-Za-z_][A-Za-z0-9_.]*$/.test(value.trim()) ? undefined : l10n.t('Type a JSON-RPC method name such as eth_getLogs or status.');

/** JSON-RPC params: a JSON array or object (empty means none). */
export const validateJsonParams: Validator = (value) => {
  const text = value.trim();
  if (text === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return l10n.t('Params are not valid JSON ({0}): type an array such as ["0x1", false] or an object such as {"height":"5"}.', (e as Error).message);
  }
  if (typeof parsed !== 'object' || parsed === null) {
    return l10n.t('Params must be a JSON array or object, such as ["0x1", false] or {"height":"5"}.');
  }
  return undefined;
};

/** A GET path with an optional query string, relative to the interface's base address. */
export const validateGetPath: Validator = (value) => {
  const text = value.trim();
  if (text === '') return l10n.t('Type a path such as /status or /cosmos/bank/v1beta1/supply?pagination.limit=5.');
  if (/\s/.test(text)) return l10n.t('The path contains spaces: encode them as %20.');
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return l10n.t("Type only the path (and query), not a full address: it is joined to the provider's base address.");
  if (text.includes('#')) return l10n.t('The path cannot contain "#": type the path and query only, encoding a literal # as %23.');
  const dot = dotSegmentOf(text);
  if (dot !== undefined)
    return l10n.t(
      'The path has a dot segment ("{0}", plain or encoded), which would move the request to another route: type the path itself, without "." or ".." segments.',
      dot,
    );
  return undefined;
};

export const validateEventCount: Validator = (value) => {
  const text = value.trim();
  if (text === '') return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 100) return l10n.t('Type how many events to collect: 1 to 100.');
  return undefined;
};

function truncate(s: string, max = 60): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

// --- bech32 (BIP-173): @scure/base does the arithmetic; we only say why an address is refused --

/** Decodes a bech32 string; returns an error description when it is not valid. */
export function bech32Decode(text: string): { hrp: string; data: number[] } | string {
  const decoded = bech32.decodeUnsafe(text, 90);
  if (decoded) return { hrp: decoded.prefix, data: decoded.words };
  if (text.length === 0) return l10n.t('empty');
  if (text.length > 90) return l10n.t('too long');
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return l10n.t('mixed case');
  const s = text.toLowerCase();
  const pos = s.lastIndexOf('1');
  if (pos < 1) return l10n.t('no human-readable prefix before "1"');
  if (pos + 7 > s.length) return l10n.t('too short');
  const bad = [...s.slice(pos + 1)].find((ch) => !BECH32_CHARSET.includes(ch));
  if (bad !== undefined) return l10n.t('character "{0}" is not allowed', bad);
  return l10n.t('checksum mismatch');
}

/** Addresses already encoded: a receipt or an account page shows the same few hundreds of times. */
const encoded = new BoundedMemo<string>(4096);

/** Encodes bytes as a bech32 address with the given prefix (@scure/base, remembered). */
export function bech32Encode(hrp: string, bytes: Uint8Array): string {
  const key = `${hrp} ${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
  return encoded.get(key, () => bech32.encode(hrp, bech32.toWords(bytes), false));
}

/** bech32Encode() of bytes given as hex (`0x…`): the same memo, and no bytes made for an address already encoded. */
export function bech32EncodeHex(hrp: string, hex: string): string {
  const body = (hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex).toLowerCase();
  return encoded.get(`${hrp} ${body}`, () => bech32.encode(hrp, bech32.toWords(Buffer.from(body, 'hex')), false));
}

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

// --- typed parameters of the module routes (catalogue/modules.ts) ---------------------------------

/** The bech32 kinds a Cosmos chain uses: an account, a validator operator, a consensus address. */
export type Bech32Kind = 'account' | 'valoper' | 'valcons';

const KIND_EXAMPLE: Record<Bech32Kind, string> = { account: 'cosmos1…', valoper: 'cosmosvaloper1…', valcons: 'cosmosvalcons1…' };

/** The kind a bech32 prefix says (`cosmosvaloper` -> valoper); public-key prefixes are none of them. */
export function bech32KindOf(hrp: string): Bech32Kind | 'pub' {
  if (/pub$/.test(hrp)) return 'pub';
  if (/valoper$/.test(hrp)) return 'valoper';
  if (/valcons$/.test(hrp)) return 'valcons';
  return 'account';
}

/**
 * A bech32 address of the given kind. `accountPrefix` (the chain's, such as `cosmos`) when known:
 * then the prefix must be exactly it (+ `valoper` / `valcons`); else any prefix with the right suffix.
 */
export function validateBech32Kind(kind: Bech32Kind, accountPrefix?: string): Validator {
  return (value) => {
    const text = value.trim();
    const decoded = bech32Decode(text);
    if (typeof decoded === 'string')
      return l10n.t('"{0}" is not a valid bech32 address ({1}): type one such as {2}', truncate(text), decoded, KIND_EXAMPLE[kind]);
    const hrp = decoded.hrp.toLowerCase();
    const got = bech32KindOf(hrp);
    if (got !== kind) {
      const what = { account: l10n.t('an account address'), valoper: l10n.t('a validator operator address'), valcons: l10n.t('a consensus address') };
      return l10n.t('"{0}" is {1}: type {2}, such as {3}', truncate(text), got === 'pub' ? l10n.t('a public key') : what[got], what[kind], KIND_EXAMPLE[kind]);
    }
    if (accountPrefix) {
      const want = kind === 'account' ? accountPrefix : `${accountPrefix}${kind}`;
      if (hrp !== want) return l10n.t('"{0}" has the prefix {1}; this chain uses {2}1…', truncate(text), hrp, want);
    }
    return undefined;
  };
}

export const validateUint64: Validator = (value) => {
  const text = value.trim();
  if (!/^\d{1,20}$/.test(text) || BigInt(text) > 18446744073709551615n) return l10n.t('Type a whole number from 0 to 18446744073709551615.');
  return undefined;
};

export const validateInt64: Validator = (value) => {
  const text = value.trim();
  if (!/^-?\d{1,19}$/.test(text) || BigInt(text) > MAX_INT64 || BigInt(text) < -MAX_INT64 - 1n) return l10n.t('Type a whole number (int64).');
  return undefined;
};

export const validateBool: Validator = (value) => (/^(true|false)$/i.test(value.trim()) ? undefined : l10n.t('Type true or false.'));

/** Bytes as the gateway takes them: base64 (standard or URL-safe; `pagination.next_key` is standard). */
export const validateBase64: Validator = (value) => {
  const text = value.trim();
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1)
    return l10n.t('Type base64 bytes, such as a pagination.next_key ("FPq…=").');
  return undefined;
};

export const validateHex: Validator = (value) =>
  /^(0x)?[0-9a-fA-F]{1,128}$/.test(value.trim()) ? undefined : l10n.t('Type hex digits, 0x optional (at most 64 bytes).');

export function validateEnum(values: readonly string[]): Validator {
  return (value) => (values.includes(value.trim()) ? undefined : l10n.t('Type one of: {0}.', values.join(', ')));
}

/** A comma-separated list of values (at most 100), none empty. */
export const validateList: Validator = (value) => {
  const items = value.split(',').map((s) => s.trim());
  if (items.length > 100 || items.some((s) => s === '' || s.length > 512)) return l10n.t('Type values separated by commas (at most 100, none empty).');
  return undefined;
};

/** Free text for a path segment or query value: one line, at most 1024 characters. */
export const validateText: Validator = (value) => {
  const text = value.trim();
  if (text === '') return l10n.t('Type a value.');
  if (text.length > 1024 || /[\u0000-\u001f\u007f]/.test(text)) return l10n.t('Type one line of at most 1024 characters.');
  return undefined;
};
