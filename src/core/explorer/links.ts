// Identifiers in a result document's text: block and transaction hashes, addresses (0x; bech32 with
// a valid checksum), and heights (`"height": "5"`, `- height: \`5\``, `"number": "0x5"`), each with
// the query that looks it up. Hovers: an address in its other forms (and its contract name), a selector or topic0 as its signatures, a hex quantity in decimal, a
// base-unit amount in display units, a timestamp as local time and age. Pure text work, bounded by
// the caller to what is visible (ui/explorer/register.ts) and here by a cap on links per call and a work
// budget (ScanBudget: a deadline and a count of candidates, failed checksum decodes included), so
// a 20 MB document of bech32-looking text never holds the editor more than ~30 ms at a time.

import { bech32 } from '@scure/base';
import { addressForms, accountPrefixOf } from './addresses';
import { displayAmount } from './decodeEvm';
import type { DenomUnit } from './context';
import { chainIdText, timeText, weiWithGwei } from './units';

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

/**
 * A log's topics and data words are 32-byte values no lookup finds (event signatures, indexed
 * arguments): not linked. In the explorer's log lines (`- log 0: … topics … data …`) and in JSON
 * (`"topics": [ … ]`, `"data": "0x…"`).
 */
function inLogWords(before: string): boolean {
  const lineStart = before.lastIndexOf('\n') + 1;
  const line = before.slice(lineStart);
  if (/^\s*- log [^:]*:.*\b(?:topics|data)\b/.test(line)) return true;
  if (/"data"\s*:\s*"$/.test(line)) return true;
  const window = before.slice(-4000);
  const topics = window.lastIndexOf('"topics"');
  return topics >= 0 && !window.slice(topics).includes(']');
}

function validBech32(text: string): boolean {
  return bech32.decodeUnsafe(text, 90) !== undefined;
}

/** What one call of the link provider may spend: shared by every scanLinks() call it makes. */
export interface ScanBudget {
  /** performance.now() past which scanning stops. */
  readonly deadline: number;
  /** Work units left: a candidate costs 1, a checksum decode 20, every 1,000 characters scanned 1. */
  work: number;
  /** Set once the budget ran out (the links found so far are returned). */
  exhausted: boolean;
}

/** Default budget of one call: 30 ms (room for a GC or a busy core under the 50 ms target), and work that takes well under that. */
export function scanBudget(ms = 30, work = 100_000): ScanBudget {
  return { deadline: performance.now() + ms, work, exhausted: false };
}

/** Characters per window: one regex exec never runs over more than this (plus the overlap). */
const WINDOW = 32 * 1024;
/** Longer than any identifier and the context before it: a match cut by a window is found whole in the next. */
const OVERLAP = 256;

function spend(budget: ScanBudget, units: number): boolean {
  budget.work -= units;
  if (budget.work < 0 || performance.now() > budget.deadline) budget.exhausted = true;
  return !budget.exhausted;
}

/**
 * The identifiers in `text` (at most `max`), within `budget`; `context`: the lines above it (a log's
 * topics array opened there: its words are not links).
 */
export function scanLinks(text: string, max = MAX_LINKS, budget: ScanBudget = scanBudget(), context = ''): FoundLink[] {
  const out: FoundLink[] = [];
  for (let from = 0; from < text.length && out.length < max && !budget.exhausted; from += WINDOW) {
    if (!spend(budget, Math.ceil(Math.min(WINDOW, text.length - from) / 1000))) break;
    // The window, one character before it (lookbehind) and OVERLAP after it (lookahead, matches that cross its end).
    const pre = from === 0 ? 0 : 1;
    const part = text.slice(from - pre, from + WINDOW + OVERLAP);
    LINK_RE.lastIndex = pre;
    let candidates = 0;
    for (let m = LINK_RE.exec(part); m !== null && out.length < max; m = LINK_RE.exec(part)) {
      if (m.index >= pre + WINDOW) break; // the next window's
      if ((++candidates & 31) === 0 && !spend(budget, 32)) break;
      const value = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? m[7];
      if (value === undefined) continue;
      const at = from - pre + m.index;
      if (m[4] !== undefined) {
        if (!spend(budget, 20)) break;
        if (!validBech32(value)) continue;
      }
      if ((m[1] !== undefined || m[3] !== undefined) && NOT_LOOKED_UP.test(text.slice(Math.max(0, at - 40), at))) continue;
      // Bounded look-back (inLogWords reads at most 4,000 characters): never the whole line before each hash.
      if (m[1] !== undefined && inLogWords(at > 4000 ? text.slice(at - 4000, at) : `${context}\n${text.slice(0, at)}`)) continue;
      const isHeight = m[6] !== undefined;
      const start = isHeight ? at + m[0].length - value.length : m[7] !== undefined ? at + 1 : at;
      const query = isHeight && value.startsWith('0x') ? BigInt(value).toString() : value;
      if (query === '0') continue;
      out.push({ start, end: start + value.length, query });
    }
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

/** The key a value on this line is written under (`"baseFeePerGas": "0x…"`, `- gas price: 12`), if any. */
function keyBefore(line: string, at: number): string | undefined {
  return /"?([A-Za-z_][A-Za-z0-9_ ]{0,40})"?\s*[:=]\s*["`]?$/.exec(line.slice(Math.max(0, at - 60), at))?.[1];
}

const GAS_PRICE_KEY =
  /^(?:gasPrice|effectiveGasPrice|baseFeePerGas|maxFeePerGas|maxPriorityFeePerGas|maxFeePerBlobGas|blobGasPrice|gas price|max fee per gas|max priority fee per gas|base fee)$/i;
const TIME_KEY = /^(?:timestamp|time)$/i;

/** Characters read on each side of a hover's position. */
export const HOVER_WINDOW = 300;

/** What to show over the identifier at `character` of `line` (only ±HOVER_WINDOW characters around it are read). */
export function hoverAt(line: string, character: number, ctx: HoverContext): HoverInfo | undefined {
  if (line.length > 2 * HOVER_WINDOW) {
    const from = Math.max(0, character - HOVER_WINDOW);
    const info = hoverWithin(line.slice(from, character + HOVER_WINDOW), character - from, ctx);
    return info && { ...info, start: info.start + from, end: info.end + from };
  }
  return hoverWithin(line, character, ctx);
}

function hoverWithin(line: string, character: number, ctx: HoverContext): HoverInfo | undefined {
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
      const key = keyBefore(line, start);
      if (key && GAS_PRICE_KEY.test(key)) return { start, end, lines: [weiWithGwei(hex)] };
      if (key && /^chainId$/i.test(key)) return { start, end, lines: [`EVM chain id ${chainIdText(hex)}`] };
      if (key && TIME_KEY.test(key) && hex.length <= 12)
        return { start, end, lines: [`${BigInt(hex).toString()} = ${timeText(Number(BigInt(hex)) * 1000, ctx.now)}`] };
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
      return { start, end, lines: [timeText(t, ctx.now)] };
    }
    if (m[5]) {
      const key = keyBefore(line, start);
      if (key && GAS_PRICE_KEY.test(key) && !m[6]) return { start, end, lines: [weiWithGwei(m[5])] };
      if (key && TIME_KEY.test(key) && !m[6] && m[5].length >= 9 && m[5].length <= 11) return { start, end, lines: [timeText(Number(m[5]) * 1000, ctx.now)] };
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

/** A link that runs a module route (the next page of a paged answer, a denom's metadata). */
export interface RouteLink {
  readonly start: number;
  readonly end: number;
  readonly operation: string;
  readonly args: Readonly<Record<string, string>>;
}

/** The footer of a paged answer's document (src/core/documents/render.ts writes it). */
const NEXT_PAGE_LINE = /^\/\/ next page: (\{.{1,4000}\})\s*$/;
const DENOM_RE = /"denom"\s*:\s*"([a-zA-Z][a-zA-Z0-9/:._-]{1,127})"/g;

/** Route links in one line of a document: the next page, and each `"denom": "…"` (its metadata). */
export function scanRouteLinks(line: string, max = MAX_LINKS): RouteLink[] {
  const next = NEXT_PAGE_LINE.exec(line);
  if (next) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(next[1]);
    } catch {
      return [];
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
    const { operation, ...args } = parsed as Record<string, unknown>;
    if (typeof operation !== 'string' || !Object.values(args).every((v) => typeof v === 'string')) return [];
    return [{ start: 3, end: 12, operation, args: args as Record<string, string> }];
  }
  const out: RouteLink[] = [];
  DENOM_RE.lastIndex = 0;
  for (let m = DENOM_RE.exec(line); m !== null && out.length < max; m = DENOM_RE.exec(line)) {
    const start = m.index + m[0].length - m[1].length - 1;
    out.push({ start, end: start + m[1].length, operation: 'bank.DenomMetadata', args: { denom: m[1] } });
  }
  return out;
}
