// What a typed query is: a block height, a hash (0x: an EVM transaction or a block; 64 hex: a Cosmos
// transaction or a CometBFT block), `HEIGHT page N` (a page of a large block's decoded
// transactions), `0xHASH trace page N` (a page of a call tree), an EVM address (EIP-55 checksum verified when mixed case), a
// hex consensus address, or a bech32 account, validator operator or consensus address (checksum
// verified); an account or operator address with `@HEIGHT` (`cosmos1…@1200`, `0x…@1200`) is its state
// at that height, with `@A..B` the comparison of two heights, and `<address> history page N` a page of its history. Nothing is sent for input refused here: the error says what to type.

import { LocalizedError } from '../base/errors';
import * as l10n from '../base/l10n';
import { wrongChecksum } from '../chain/abiCall';
import { bech32Decode } from '../chain/validate';
import { bech32 } from '@scure/base';

/** The highest page of an account's history (explorer/account/history.ts MAX_HISTORY_PAGE). */
const MAX_HISTORY_PAGE = 400;

export type AddressRole = 'account' | 'valoper' | 'valcons';

export type Query =
  /** A block height (decimal string, 1 to 2^63-1); `page`: which page of a large block's transactions to decode (from 1). */
  | { readonly kind: 'height'; readonly height: string; readonly page?: number }
  /** 0x + 64 hex: an EVM transaction hash or a block hash (lowercase, with 0x); `tracePage`: which page of its call tree to decode. */
  | { readonly kind: 'evmHash'; readonly hash: string; readonly tracePage?: number }
  /** 64 hex without 0x: a Cosmos transaction hash or a CometBFT block hash (UPPERCASE, no 0x). */
  | { readonly kind: 'cosmosHash'; readonly hash: string }
  /** 20 (or 32) address bytes, as typed: 0x, bare hex (a consensus address) or bech32. */
  | {
      readonly kind: 'address';
      readonly bytes: Uint8Array;
      readonly role: AddressRole;
      /** The bech32 prefix typed (`cosmos`, `cosmosvaloper`, …) or undefined for hex. */
      readonly prefix?: string;
      readonly typed: string;
      /** `<address>@<height>`: the account's state at that height (decimal, 1 to 2^63-1); undefined: the latest. */
      readonly height?: string;
      /** `<address>@<A>..<B>`: compare the state at `height` (A) with the state at this height (B). */
      readonly compareTo?: string;
      /** `<address> history page N`: page N of its history (from 2: the history alone). */
      readonly historyPage?: number;
    };

export type QueryKind = Query['kind'];

const MAX_HEIGHT = 9223372036854775807n;

function refuse(message: l10n.Message): never {
  throw new LocalizedError(message);
}

/** The most pages a block's transactions can be split into (10,000,000 transactions at 100 a page). */
export const MAX_PAGE = 100_000;

function height(text: string): Extract<Query, { kind: 'height' }> {
  if (text.length > 19 || BigInt(text) > MAX_HEIGHT) refuse(l10n.both('{0} is past the largest block height (2^63-1).', text));
  const h = BigInt(text);
  if (h === 0n) refuse(l10n.both('Block heights start at 1.'));
  return { kind: 'height', height: h.toString() };
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** Reads a query; throws a LocalizedError that says what to type. */
export function identify(input: string): Query {
  const text = input.trim();
  if (text === '') {
    refuse(l10n.both('Type a block height, a transaction or block hash, or an address (0x… or bech32 such as cosmos1…).'));
  }
  if (text.length > 200) refuse(l10n.both('That is too long for a height, a hash or an address ({0} characters).', String(text.length)));
  const history = /^(.*?)\s+history\s+page\s+([0-9]+)$/i.exec(text);
  if (history) {
    const page = history[2].length > 7 ? 0 : Number(history[2]);
    if (page < 1 || page > MAX_HISTORY_PAGE) refuse(l10n.both("Pages of an account's history are numbered from 1 to {0}.", String(MAX_HISTORY_PAGE)));
    const q = identify(history[1]);
    if (q.kind !== 'address' || q.role === 'valcons' || q.compareTo) {
      refuse(l10n.both('"history page N" follows an account address (0x… or cosmos1…, with an optional @height).'));
    }
    return { ...q, historyPage: page };
  }
  const at = /^(.*?)\s*@\s*(.*)$/.exec(text);
  if (at) return addressAt(at[1], at[2]);
  const paged = /^([0-9]+)\s+page\s+([0-9]+)$/i.exec(text);
  if (paged) {
    const page = paged[2].length > 7 ? 0 : Number(paged[2]);
    if (page < 1 || page > MAX_PAGE) refuse(l10n.both("Pages of a block's transactions are numbered from 1 to {0}.", String(MAX_PAGE)));
    return { ...height(paged[1]), page };
  }
  const traced = /^(0x[0-9a-fA-F]{64})\s+trace\s+page\s+([0-9]+)$/i.exec(text);
  if (traced) {
    const page = traced[2].length > 7 ? 0 : Number(traced[2]);
    if (page < 1 || page > MAX_PAGE) refuse(l10n.both('Pages of a call trace are numbered from 1 to {0}.', String(MAX_PAGE)));
    return { kind: 'evmHash', hash: traced[1].toLowerCase(), tracePage: page };
  }
  if (/^[0-9]+$/.test(text)) return height(text);
  const hex = /^(0x)?([0-9a-fA-F]+)$/.exec(text);
  if (hex) return identifyHex(text, Boolean(hex[1]), hex[2]);
  if (text.includes('1')) return identifyBech32(text);
  return refuse(
    l10n.both(
      '"{0}" is not a block height, a hash or an address: type a height (e.g. 12345), a 64-digit hex hash (0x for EVM), a 0x address or a bech32 address.',
      text.length > 40 ? `${text.slice(0, 40)}…` : text,
    ),
  );
}

/** `<address>@<height>`: an account (or operator) address at a height. */
function addressAt(address: string, at: string): Query {
  const range = /^([0-9]+)\s*\.\.\s*([0-9]+)$/.exec(at);
  if (range) {
    const a = addressAt(address, range[1]);
    const from = height(range[1]).height;
    const to = height(range[2]).height;
    if (BigInt(from) >= BigInt(to)) refuse(l10n.both('Compare two heights as <address>@<lower>..<higher> (e.g. cosmos1…@1200..1300).'));
    return { ...a, compareTo: to } as Query;
  }
  if (!/^[0-9]+$/.test(at)) refuse(l10n.both('After @ comes a block height (e.g. cosmos1…@1200), not "{0}".', at.length > 30 ? `${at.slice(0, 30)}…` : at));
  const q = identify(address);
  if (q.kind !== 'address' || q.role === 'valcons') {
    refuse(l10n.both('@height reads an account at a height: type an account address before it (0x… or cosmos1…), e.g. cosmos1…@1200.'));
  }
  return { ...q, height: height(at).height };
}

function identifyHex(text: string, prefixed: boolean, digits: string): Query {
  if (digits.length === 64) {
    return prefixed ? { kind: 'evmHash', hash: `0x${digits.toLowerCase()}` } : { kind: 'cosmosHash', hash: digits.toUpperCase() };
  }
  if (digits.length === 40) {
    if (prefixed && wrongChecksum(text)) refuse(l10n.both('{0} has a wrong EIP-55 checksum (mixed case): check it, or type it all in lowercase.', text));
    return { kind: 'address', bytes: hexBytes(digits), role: prefixed ? 'account' : 'valcons', typed: text };
  }
  return refuse(l10n.both('{0} hex digits: a hash has 64 (0x for an EVM hash) and an address 40 (0x…).', String(digits.length)));
}

function identifyBech32(text: string): Query {
  const decoded = bech32Decode(text);
  if (typeof decoded === 'string') refuse(l10n.both('{0} is not a valid bech32 address ({1}).', text.length > 60 ? `${text.slice(0, 60)}…` : text, decoded));
  let bytes: Uint8Array;
  try {
    bytes = bech32.fromWords(decoded.data);
  } catch {
    return refuse(l10n.both('{0} is not a valid bech32 address (bad padding).', text));
  }
  if (bytes.length !== 20 && bytes.length !== 32) {
    refuse(l10n.both('{0} holds {1} bytes: an account or validator address holds 20 (or 32).', text, String(bytes.length)));
  }
  const prefix = decoded.hrp.toLowerCase();
  const role: AddressRole = prefix.endsWith('valoper') ? 'valoper' : prefix.endsWith('valcons') ? 'valcons' : 'account';
  return { kind: 'address', bytes, role, prefix, typed: text.toLowerCase() };
}
