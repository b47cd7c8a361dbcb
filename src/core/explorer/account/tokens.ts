// An account's ERC-20 balances (issue #37): the tokens it is known to touch, at most MAX_TOKENS, each
// with `balanceOf` at the page's height (eth_call at that block) and its name, symbol and decimals
// (read once per token and kept: they do not change). Where the candidates come from, in order: the
// ERC-20 module's token pairs (`/cosmos/evm/erc20/v1/token_pairs`, a bank denom mirrored as an
// ERC-20), the tokens seen in the account's `Transfer` logs (the history), and the contracts the
// workspace knows (settings and artifacts matched to code). A token whose `balanceOf` fails is
// named with why; more candidates than MAX_TOKENS are counted, not read.

import { type Abi, decodeAbiParameters, getAddress, hexToString } from 'viem';
import { EndpointError, errorMessage, isEndpointError } from '../../base/errors';
import * as l10n from '../../base/l10n';
import { isRevert } from '../../chain/abiCall';
import { pool } from '../../chain/state';
import { displayAmount } from '../decodeEvm';
import { type ExplorerSource, rethrowCancel } from '../source';
import { CONTROL_CHARS, DIRECTION_CHARS, isEvmAddress } from '../../base/text';

/** The most tokens read for one page (each: one balanceOf, and three metadata calls the first time). */
export const MAX_TOKENS = 20;
/** eth_calls in flight at once. */
export const TOKEN_CONCURRENCY = 6;
const MAX_METADATA = 2000;
/** The token pairs asked for (one page). */
export const TOKEN_PAIRS_PAGE = 100;

export interface TokenBalance {
  readonly address: string;
  readonly name?: string;
  readonly symbol?: string;
  readonly decimals?: number;
  /** balanceOf in base units (decimal string). */
  readonly balance?: string;
  /** In whole tokens, when the decimals are known. */
  readonly display?: string;
  /** Where it came from: `token pair <denom>`, `Transfer logs`, `workspace (<name>)`. */
  readonly source: string;
  /** Why there is no balance. */
  readonly error?: string;
}

export interface TokenCandidate {
  readonly address: string;
  readonly source: string;
}

export interface TokensRead {
  readonly tokens: readonly TokenBalance[];
  /** Candidates past MAX_TOKENS (not read). */
  readonly skipped: number;
  readonly notes: readonly string[];
}

type Json = Record<string, any>;
interface Metadata {
  name?: string;
  symbol?: string;
  decimals?: number;
}
const metadata = new Map<string, Metadata>();

export function forgetTokenMetadata(): void {
  metadata.clear();
}

const SELECTOR = { balanceOf: '0x70a08231', name: '0x06fdde03', symbol: '0x95d89b41', decimals: '0x313ce567' } as const;

/** Whether an ABI has ERC-20's `balanceOf(address)` (what the page reads of a token). */
export function hasBalanceOf(abi: Abi): boolean {
  return abi.some((x) => x.type === 'function' && x.name === 'balanceOf' && x.inputs.length === 1 && x.inputs[0].type === 'address');
}

/** Control and direction characters: a right-to-left override in a name turns the rest of its line around. */
const UNSHOWN = new RegExp(`[${CONTROL_CHARS}${DIRECTION_CHARS}]`, 'g');

/** A name a contract or validator gives itself, as shown: without control or direction characters, at most `max` characters. */
export function shownName(s: string, max: number): string {
  return s
    .slice(0, 4 * max)
    .replace(UNSHOWN, '')
    .slice(0, max);
}

/** A string answer of name()/symbol(): ABI `string`, or an old token's `bytes32`. */
export function decodeText(data: unknown): string | undefined {
  if (typeof data !== 'string' || !/^0x[0-9a-fA-F]*$/.test(data) || data.length < 66) return undefined;
  try {
    const [s] = decodeAbiParameters([{ type: 'string' }], data as `0x${string}`);
    return shownName(s, 64);
  } catch {
    if (data.length === 66) return shownName(hexToString(data as `0x${string}`, { size: 32 }), 64);
    return undefined;
  }
}

const word = (data: unknown): bigint | undefined => (typeof data === 'string' && /^0x[0-9a-fA-F]{64}$/.test(data) ? BigInt(data) : undefined);

/** The ERC-20 module's token pairs (their ERC-20 addresses and bank denoms); [] when the chain has none or no such module. */
export async function tokenPairs(src: ExplorerSource, notes: string[]): Promise<TokenCandidate[]> {
  if (!src.has.rest) return [];
  try {
    const r = (await src.rest(`/cosmos/evm/erc20/v1/token_pairs?pagination.limit=${TOKEN_PAIRS_PAGE}`)) as Json;
    const pairs: unknown = r?.token_pairs;
    if (!Array.isArray(pairs)) return [];
    // The page asked for: a node answering 330,000 pairs had each checksummed (10 s with the editor blocked), MAX_TOKENS read.
    return (pairs.slice(0, TOKEN_PAIRS_PAGE) as Json[]).flatMap((p) =>
      typeof p?.erc20_address === 'string' && isEvmAddress(p.erc20_address)
        ? [{ address: getAddress(p.erc20_address), source: `token pair ${String(p.denom ?? '').slice(0, 80)}`.trim() }]
        : [],
    );
  } catch (err) {
    rethrowCancel(err);
    // A chain without the module (501) is no news; anything else is said.
    if (!/not implemented|\b501\b|not found/i.test(errorMessage(err))) notes.push(`ERC-20 token pairs: ${errorMessage(err)}`);
    return [];
  }
}

/** Candidates without duplicates (first source wins), cut at MAX_TOKENS. */
export function chooseTokens(lists: ReadonlyArray<readonly TokenCandidate[]>): { chosen: TokenCandidate[]; skipped: number } {
  const seen = new Set<string>();
  const all: TokenCandidate[] = [];
  for (const l of lists) {
    for (const c of l) {
      const k = c.address.toLowerCase();
      if (!seen.has(k)) {
        seen.add(k);
        all.push(c);
      }
    }
  }
  return { chosen: all.slice(0, MAX_TOKENS), skipped: Math.max(0, all.length - MAX_TOKENS) };
}

/**
 * Whether a metadata call failed for a reason that may pass (a timeout, a 429, a dropped connection,
 * a node error that is not a revert): then the token's metadata is not remembered and the next page
 * asks again. A revert (the token has no such function) is an answer, remembered as one.
 */
function mayPass(err: unknown): boolean {
  return !(isEndpointError(err) && err.kind === 'rpc' && isRevert(err));
}

/** Reads `holder`'s balance of each candidate at `height` (undefined: latest), metadata once per token. */
export async function readTokens(
  src: ExplorerSource,
  holder: string,
  candidates: readonly TokenCandidate[],
  height: string | undefined,
  skipped = 0,
): Promise<TokensRead> {
  const notes: string[] = [];
  if (!src.has.evm || candidates.length === 0) return { tokens: [], skipped, notes };
  const block = height === undefined ? 'latest' : `0x${BigInt(height).toString(16)}`;
  const padded = `${'0'.repeat(24)}${holder.slice(2).toLowerCase()}`;
  const call = (to: string, data: string) => src.evm('eth_call', [{ to, data }, block]);
  const out: Array<TokenBalance | undefined> = candidates.map(() => undefined);
  const tasks: Array<() => Promise<void>> = [];
  const metaOf = new Map<string, Metadata>();
  // Tokens whose metadata read failed for a reason that may pass: shown with what was read, not remembered.
  const unsure = new Set<string>();
  // Each token's metadata is remembered per provider and chain.
  const keys = candidates.map((c) => `${src.provider}\u0000${src.chainId ?? ''}\u0000${c.address.toLowerCase()}`);
  for (const [i, c] of candidates.entries()) {
    const key = keys[i];
    const known = metadata.get(key);
    const m: Metadata = known ? { ...known } : {};
    metaOf.set(c.address, m);
    tasks.push(async () => {
      try {
        const b = word(await call(c.address, `${SELECTOR.balanceOf}${padded}`));
        if (b === undefined) throw new EndpointError('protocol', l10n.both('balanceOf gave no uint256 (not an ERC-20 token?)'));
        out[i] = { address: c.address, source: c.source, balance: b.toString() };
      } catch (err) {
        rethrowCancel(err);
        out[i] = { address: c.address, source: c.source, error: errorMessage(err).slice(0, 200) };
      }
    });
    if (!known) {
      const meta = async (what: keyof typeof SELECTOR, set: (data: unknown) => void) => {
        try {
          set(await call(c.address, SELECTOR[what]));
        } catch (err) {
          rethrowCancel(err); // a token without name() or symbol() is still a token
          if (mayPass(err)) unsure.add(c.address);
        }
      };
      tasks.push(() => meta('name', (d) => (m.name = decodeText(d))));
      tasks.push(() => meta('symbol', (d) => (m.symbol = decodeText(d))));
      tasks.push(() =>
        meta('decimals', (d) => {
          const n = word(d);
          if (n !== undefined && n <= 77n) m.decimals = Number(n);
        }),
      );
    }
  }
  await pool(tasks, TOKEN_CONCURRENCY);
  const tokens: TokenBalance[] = [];
  for (const [i, c] of candidates.entries()) {
    const m = metaOf.get(c.address) ?? {};
    const t = out[i] ?? { address: c.address, source: c.source, error: 'not read' };
    const key = keys[i];
    if (t.balance !== undefined && !metadata.has(key) && !unsure.has(c.address)) {
      metadata.set(key, m);
      if (metadata.size > MAX_METADATA) metadata.delete(metadata.keys().next().value as string);
    }
    tokens.push({
      ...t,
      ...(m.name ? { name: m.name } : {}),
      ...(m.symbol ? { symbol: m.symbol } : {}),
      ...(m.decimals !== undefined ? { decimals: m.decimals } : {}),
      ...(t.balance !== undefined && m.decimals !== undefined ? { display: displayAmount(t.balance, m.decimals) } : {}),
    });
  }
  // Tokens read first, those whose balanceOf failed (not ERC-20 after all) after them, each group in candidate order.
  tokens.sort((a, b) => Number(a.balance === undefined) - Number(b.balance === undefined));
  if (skipped > 0) notes.push(`ERC-20 tokens: ${skipped} more token(s) the account touched are not read (at most ${MAX_TOKENS} a page).`);
  return { tokens, skipped, notes };
}
