// Identifiers in a result document's text: block and transaction hashes, addresses (0x; bech32 with
// a valid checksum), and heights (`"height": "5"`, `- height: \`5\``, `"number": "0x5"`), each with
// the query that looks it up. Hovers: an address in its other forms (and its contract name), a selector or topic0 as its signatures, a hex quantity in decimal, a
// base-unit amount in display units, a timestamp as local time and age. Pure text work, bounded by
// the caller to what is visible (ui/explorerLinks.ts) and here by a cap on links per call.

import { bech32 } from '@scure/base';
import { addressForms, accountPrefixOf } from './addresses';
import { displayAmount } from './decodeEvm';
import type { DenomUnit } from './context';

export interface FoundLink {
  /** Offsets in the text scanned. */
  readonly start: number;
  readonly end: number;
  /** What Look Up is given. */
  readonly query: string;
}

const HEIGHT_KEYS = 'height|block_height|latest_block_height|earliest_block_height|initial_height|last_height|blockNumber|number|block';
// One pass, alternatives by group: 1 EVM hash, 2 0x address, 3 64-hex hash, 4 bech32, 5 a consensus
// address (40 UPPERCASE hex, as CometBFT writes it), 6 a height (after its key), 7 a page of a
// block's transactions (`12 page 3`) or of a call trace (`0x… trace page 2`), in backticks as the explorer writes them.
const LINK_RE = new RegExp(
  [
    '(?<![0-9A-Za-z])(0x[0-9a-fA-F]{64})(?![0-9A-Za-z])',
    '(?<![0-9A-Za-z])(0x[0-9a-fA-F]{40})(?![0-9A-Za-z])',
    '(?<![0-9A-Za-z+/])([0-9A-Fa-f]{64})(?![0-9A-Za-z+/=])',
    '(?<![0-9A-Za-z])([a-z][a-z0-9]{0,30}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38,64})(?![0-9A-Za-z])',
    '(?<![0-9A-Za-z])([0-9A-F]{40})(?![0-9A-Za-z])',
    `"?\\b(?:${HEIGHT_KEYS})"?\\s*[:=]\\s*["\`]?(0x[0-9a-fA-F]{1,16}|[1-9][0-9]{0,18})(?![0-9A-Za-z])`,
    '`([1-9][0-9]{0,18} page [1-9][0-9]{0,5}|0x[0-9a-fA-F]{64} trace page [1-9][0-9]{0,5})`',
  ].join('|'),
  'g',
);

export const MAX_LINKS = 2000;

/** Keys of 32-byte values that are no block or transaction (roots and hashes of a header's parts): not linked. */
const NOT_LOOKED_UP =
  /(?:(?:app|data|validators|next_validators|consensus|last_results|evidence|last_commit)_hash|app hash|stateRoot|transactionsRoot|receiptsRoot|sha3Uncles|mixHash|withdrawalsRoot|parentBeaconBlockRoot|requestsHash)"?\s*[:=]\s*["`]?$/;

function validBech32(text: string): boolean {
  return bech32.decodeUnsafe(text, 90) !== undefined;
}

/** The identifiers in `text` (at most `max`). */
export function scanLinks(text: string, max = MAX_LINKS): FoundLink[] {
  const out: FoundLink[] = [];
  LINK_RE.lastIndex = 0;
  for (let m = LINK_RE.exec(text); m !== null && out.length < max; m = LINK_RE.exec(text)) {
    const value = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? m[7];
    if (value === undefined) continue;
    if (m[4] !== undefined && !validBech32(value)) continue;
    if ((m[1] !== undefined || m[3] !== undefined) && NOT_LOOKED_UP.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
    const isHeight = m[6] !== undefined;
    const start = isHeight ? m.index + m[0].length - value.length : m[7] !== undefined ? m.index + 1 : m.index;
    const query = isHeight && value.startsWith('0x') ? BigInt(value).toString() : value;
    if (query === '0') continue;
    out.push({ start, end: start + value.length, query });
  }
  return out;
}

const HOVER_RE =
  /(0x[0-9a-fA-F]{1,64})(?![0-9A-Za-z])|(?<![0-9A-Za-z])([0-9A-F]{40})(?![0-9A-Za-z])|([a-z][a-z0-9]{0,30}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38,64})|(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2}))|(\d{1,78})([a-z][a-z0-9/]{1,127})?/g;

export interface HoverInfo {
  readonly start: number;
  readonly end: number;
  readonly lines: readonly string[];
}

export interface HoverContext {
  readonly prefix?: string;
  /** A contract's name and ABI source for an address, when known without a request. */
  contractName?(address: string): string | undefined;
  /** Signatures a 4-byte selector or a topic0 is known as (the bundled table, artifacts already read). */
  signatures?(selector: string): readonly string[];
  unit(denom: string): DenomUnit | undefined;
  readonly now?: number;
}

/** Display units of a denom: known metadata, else the usual SI prefix of its first letter (a: 18, u: 6). */
function unitFor(denom: string, ctx: HoverContext): { unit: DenomUnit; guessed: boolean } | undefined {
  const known = ctx.unit(denom);
  if (known) return { unit: known, guessed: false };
  const guess: Record<string, number> = { a: 18, u: 6, n: 9, m: 3 };
  const exp = guess[denom[0]];
  return exp && denom.length > 1 ? { unit: { display: denom.slice(1), exponent: exp }, guessed: true } : undefined;
}

function age(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  const text = s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : s < 172800 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86400)} days`;
  return ms >= 0 ? `${text} ago` : `in ${text}`;
}

/** What to show over the identifier at `character` of `line` (a window of a line: pass ±300 characters at most). */
export function hoverAt(line: string, character: number, ctx: HoverContext): HoverInfo | undefined {
  HOVER_RE.lastIndex = 0;
  for (let m = HOVER_RE.exec(line); m !== null; m = HOVER_RE.exec(line)) {
    if (m.index > character) return undefined;
    if (m.index + m[0].length < character) continue;
    const start = m.index;
    const end = start + m[0].length;
    if (m[1]) {
      const hex = m[1];
      if (hex.length === 42) {
        const forms = addressForms(Uint8Array.from(Buffer.from(hex.slice(2), 'hex')), ctx.prefix ?? 'cosmos');
        const name = ctx.contractName?.(hex);
        return { start, end, lines: [...(name ? [`contract: ${name}`] : []), `account: ${forms.account}`, `EVM (checksum): ${forms.hex}`] };
      }
      // A selector or a topic0: its signatures, when known.
      const sigs = hex.length === 10 || hex.length === 66 ? (ctx.signatures?.(hex) ?? []) : [];
      if (sigs.length > 0) return { start, end, lines: sigs.slice(0, 6) };
      if (hex.length === 66) return undefined; // a hash: its link says enough
      return { start, end, lines: [`${hex} = ${BigInt(hex).toString()} (decimal)`] };
    }
    if (m[2]) {
      // A consensus address as CometBFT writes it (a validator's, a proposer's).
      const forms = addressForms(Uint8Array.from(Buffer.from(m[2], 'hex')), ctx.prefix ?? 'cosmos', 'valcons');
      return { start, end, lines: [`consensus: ${forms.valcons}`, `EVM form of the same bytes: ${forms.hex}`] };
    }
    if (m[3]) {
      const d = bech32.decodeUnsafe(m[3], 90);
      if (!d) return undefined;
      const bytes = bech32.fromWords(d.words);
      const role = d.prefix.endsWith('valcons') ? 'valcons' : 'account';
      const forms = addressForms(bytes, accountPrefixOf(d.prefix), role);
      const lines = [
        forms.hex && `EVM: ${forms.hex}`,
        forms.account && forms.account !== m[3] && `account: ${forms.account}`,
        forms.valoper && forms.valoper !== m[3] && `validator operator: ${forms.valoper}`,
        `hex: ${forms.cometHex}`,
      ];
      return { start, end, lines: lines.filter((l): l is string => Boolean(l)) };
    }
    if (m[4]) {
      const t = Date.parse(m[4]);
      if (Number.isNaN(t)) return undefined;
      return { start, end, lines: [`${new Date(t).toLocaleString()} (${age((ctx.now ?? Date.now()) - t)})`] };
    }
    if (m[5]) {
      // An amount: "123atest", or digits on a line that names an amount and a denom.
      const denom = m[6] ?? /"denom"\s*:\s*"([a-z][a-z0-9/]{1,127})"/.exec(line)?.[1];
      if (!denom || !(m[6] || /amount|value|balance/i.test(line))) return undefined;
      const u = unitFor(denom, ctx);
      if (!u) return undefined;
      return { start, end, lines: [`${displayAmount(m[5], u.unit.exponent)} ${u.unit.display}${u.guessed ? ` (assuming ${u.unit.exponent} decimals)` : ''}`] };
    }
  }
  return undefined;
}
