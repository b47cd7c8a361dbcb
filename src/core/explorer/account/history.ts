// An account's history from the node alone (issue #37): its Cosmos transactions (CometBFT
// `tx_search` on the events that name it, newest first) and its EVM token transfers (`eth_getLogs`
// on the ERC-20/721 `Transfer` topic with the address padded into topic 1 or topic 2, in bounded
// block windows going back from the top), merged into one list sorted newest first and paged.
//
// Each source is a stream sorted newest first that knows down to where it is complete (its floor):
// a `tx_search` stream down to its last entry read, the logs stream down to its lowest window. An
// entry is shown only when every stream that is not finished has been read down to it, so a page
// never skips an entry that a slower stream would have placed above it. Reads go in parallel, at
// most HISTORY_CONCURRENCY at once, and a page spends at most HISTORY_PAGE_REQUESTS requests: past
// that the page says where it stopped (never a silent gap). The cursor is kept for a while
// (HISTORY_CACHE entries, HISTORY_TTL_MS) so "next page" reads only what it adds.
//
// Coverage is said in words: which blocks the provider keeps (CometBFT status), whether its
// transaction index is on, which blocks the EVM transfers cover, and a provider of the same network
// that keeps older blocks or indexes transactions when the caller knows one (its capabilities).

import { parseHexQuantity } from '../../base/limits';
import { getAddress } from 'viem';
import { EndpointError, errorMessage, isEndpointError } from '../../base/errors';
import * as l10n from '../../base/l10n';
import { pool } from '../../chain/state';
import type { CometCall, ExplorerSource } from '../source';
import { rethrowCancel } from '../source';
import { isEvmAddress, scalarText } from '../../base/text';
import { checksummed } from '../../chain/abiCall';

/** Entries on one page of history. */
export const HISTORY_PAGE_SIZE = 25;
/** Reads in flight at once for the history (each stream reads one page or window at a time). */
export const HISTORY_CONCURRENCY = 6;
/** The most requests one page of history spends (the streams' first reads fit several times). */
export const HISTORY_PAGE_REQUESTS = 40;
/** Blocks per eth_getLogs window (providers cap the range: evmd at 10,000, many public ones lower); halved on a range refusal. */
export const LOG_WINDOW = 5_000;
const MIN_LOG_WINDOW = 50;
/** Cursors kept (provider, account, height) and for how long. */
export const HISTORY_CACHE = 16;
export const HISTORY_TTL_MS = 10 * 60_000;
/** The highest page number read (each page costs the pages before it when its cursor is gone). */
export const MAX_HISTORY_PAGE = 400;

/** The most Ethereum hashes one Cosmos transaction's entry keeps. */
export const MAX_ENTRY_EVM_HASHES = 50;

/** The most token transfers of one transaction an entry lists. */
export const MAX_TX_TRANSFERS = 50;

/** The most token addresses remembered from the Transfer logs read. */
export const MAX_TOKENS_SEEN = 100;

/** keccak256("Transfer(address,address,uint256)"): ERC-20 and ERC-721 alike. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

type Json = Record<string, any>;

/** A token transfer read from a `Transfer` log. */
export interface TokenTransfer {
  readonly token: string;
  readonly from: string;
  readonly to: string;
  /** uint256 in decimal (ERC-20 amount; an ERC-721 token id is in topic 3 and then `tokenId`). */
  readonly amount?: string;
  readonly tokenId?: string;
  readonly logIndex?: string;
}

export interface HistoryEntry {
  readonly height: string;
  /** The Cosmos transaction's index in its block (or the EVM transaction's, for an entry only the logs found). */
  readonly index: number;
  /** The Cosmos transaction hash (UPPERCASE hex) when known. */
  readonly hash?: string;
  /** The EVM transaction hashes it carries (or the one the logs name). */
  readonly evmHashes: readonly string[];
  /** What it did: the messages' actions (`/cosmos.bank.v1beta1.MsgSend`, …), or `EVM token transfer`. */
  readonly actions: readonly string[];
  /** How the account appears: sender, recipient, delegator, token sender, token recipient. */
  readonly roles: readonly string[];
  /** 0: success; another code: failed (CheckTx/DeliverTx code). */
  readonly code?: number;
  readonly transfers?: readonly TokenTransfer[];
  /** What Look Up is given to open it: the Cosmos hash, else the EVM hash. */
  readonly lookUp: string;
}

/** Where the history comes from and what it covers, said in sentences (never a silent gap). */
export interface HistoryCoverage {
  /** Blocks the provider keeps (CometBFT status), `earliest–latest`. */
  readonly blocks?: { readonly earliest: string; readonly latest: string };
  /** false: tx_search answered "transaction indexing is disabled" (or status says tx_index off). */
  readonly txIndex?: boolean;
  /** The EVM transfers cover these blocks (the windows read so far). */
  readonly logs?: { readonly from: string; readonly to: string; readonly complete: boolean };
  /** One sentence each. */
  readonly lines: readonly string[];
}

export interface HistoryPage {
  readonly number: number;
  readonly size: number;
  readonly entries: readonly HistoryEntry[];
  /** Set when more entries may follow: the query for the next page. */
  readonly next?: string;
  /** The page stopped at its request budget (HISTORY_PAGE_REQUESTS) before it was full. */
  readonly partial?: boolean;
  /** Cosmos transactions the index counts for the account's searches (the largest of them). */
  readonly cosmosTotal?: number;
  readonly coverage: HistoryCoverage;
  /** Tokens seen in the account's Transfer logs read so far (shown or not yet), at most MAX_TOKENS_SEEN. */
  readonly tokensSeen: readonly string[];
  /** Requests this page sent. */
  readonly requests: number;
  /** The page continued a kept cursor (no earlier page re-read). */
  readonly cached: boolean;
}

/** Providers of the same network that do better, named in the coverage lines (the editor knows them from capabilities). */
export interface HistoryElsewhere {
  /** A provider that keeps older blocks, and its earliest one. */
  readonly olderBlocks?: { readonly provider: string; readonly earliest: string };
  /** A provider whose transaction index is on. */
  readonly txIndex?: string;
}

interface Key {
  readonly h: bigint;
  readonly i: number;
}
const TOP: Key = { h: 1n << 63n, i: 0 };
const cmp = (a: Key, b: Key): number => (a.h === b.h ? a.i - b.i : a.h < b.h ? -1 : 1);

interface Item extends Key {
  readonly entry: HistoryEntry;
}

/** A stream newest first: `buf` read and not shown; complete for every key ≥ `floor`; `done`: nothing older. */
interface Stream {
  readonly label: string;
  buf: Item[];
  floor: Key;
  done: boolean;
  /** Reads the next page or window: returns the state to adopt (applied only on success, so a cancelled read leaves the cursor whole). */
  read(src: ExplorerSource): Promise<{ items: Item[]; floor: Key; done: boolean }>;
}

interface Cursor {
  readonly streams: Stream[];
  readonly pages: HistoryEntry[][];
  readonly seen: Set<string>;
  readonly coverage: {
    earliest?: bigint;
    latest?: bigint;
    txIndexOff?: boolean;
    logsFrom?: bigint;
    logsTo?: bigint;
    logsDone?: boolean;
    logNote?: string;
    cosmosNotes: string[];
  };
  cosmosTotal?: number;
  readonly tokens: Set<string>;
  /** The end was reached. */
  ended: boolean;
  at: number;
}

const cursors = new Map<string, Cursor>();

/** Forgets every kept cursor (tests, and a provider's settings changing). */
export function forgetHistory(): void {
  cursors.clear();
}

const searchCall = (query: string, page: number, perPage: number): CometCall => ({
  method: 'tx_search',
  uri: { query: JSON.stringify(query), page: String(page), per_page: String(perPage), order_by: JSON.stringify('desc') },
  json: { query, page: String(page), per_page: String(perPage), order_by: 'desc' },
});

const attrsOf = (e: Json): Array<{ key: string; value: string }> =>
  Array.isArray(e?.attributes)
    ? (e.attributes as Json[]).filter((a) => typeof a?.key === 'string').map((a) => ({ key: a.key, value: scalarText(a.value) }))
    : [];

/** One `tx_search` answer's transactions as entries. */
export function entriesOfSearch(result: unknown, role: string): Item[] {
  const txs: unknown = (result as Json)?.txs;
  if (!Array.isArray(txs)) throw new EndpointError('protocol', l10n.both('tx_search: the answer has no "txs" list'));
  const out: Item[] = [];
  // The page asked for (HISTORY_PAGE_SIZE): a node answering more is cut there (200,000 entries of one
  // hash made filling a page compare each with all the others, for minutes).
  for (const t of (txs as Json[]).slice(0, HISTORY_PAGE_SIZE)) {
    const height = typeof t?.height === 'string' && /^[0-9]{1,19}$/.test(t.height) ? BigInt(t.height) : undefined;
    const hash = typeof t?.hash === 'string' && /^[0-9A-Fa-f]{64}$/.test(t.hash) ? t.hash.toUpperCase() : undefined;
    if (height === undefined || !hash) continue;
    const index = typeof t.index === 'number' ? t.index : Number(t.index ?? 0) || 0;
    const events: Json[] = Array.isArray(t.tx_result?.events) ? t.tx_result.events : [];
    const actions = new Set<string>();
    const evmHashes = new Set<string>();
    for (const e of events) {
      for (const a of attrsOf(e)) {
        if (e.type === 'message' && a.key === 'action' && a.value) actions.add(a.value.slice(0, 120));
        // At most MAX_ENTRY_EVM_HASHES (entries are joined by comparing these lists, each with each).
        if (e.type === 'ethereum_tx' && a.key === 'ethereumTxHash' && evmHashes.size < MAX_ENTRY_EVM_HASHES && /^0x[0-9a-fA-F]{64}$/.test(a.value))
          evmHashes.add(a.value.toLowerCase());
      }
    }
    const code = typeof t.tx_result?.code === 'number' ? t.tx_result.code : undefined;
    out.push({
      h: height,
      i: index,
      entry: {
        height: height.toString(),
        index,
        hash,
        evmHashes: [...evmHashes],
        actions: [...actions].slice(0, 20),
        roles: [role],
        lookUp: hash,
        ...(code !== undefined ? { code } : {}),
      },
    });
  }
  return out;
}

/** A 20-byte address as a 32-byte topic. */
export const paddedTopic = (hex: string): string => `0x${'0'.repeat(24)}${hex.slice(2).toLowerCase()}`;
const topicAddress = (t: unknown): string | undefined =>
  typeof t === 'string' && /^0x0{24}[0-9a-fA-F]{40}$/.test(t) ? checksummed(`0x${t.slice(26)}`) : undefined;
const hexNum = parseHexQuantity;

/** `Transfer` logs as entries, one per transaction (its transfers together), for `account` (0x, any case). */
export function entriesOfLogs(logs: unknown, account: string): Item[] {
  if (!Array.isArray(logs)) throw new EndpointError('protocol', l10n.both('eth_getLogs: the answer is not a list'));
  const me = account.toLowerCase();
  // Per transaction: its transfers (the first MAX_TX_TRANSFERS kept) and every (log, token) seen, so a
  // log found twice (as sender and as recipient) counts once, in a Set: a hostile answer of 200,000
  // logs in one transaction compared each with all before it ran for minutes.
  const byTx = new Map<string, { h: bigint; i: number; transfers: TokenTransfer[]; seen: Set<string>; roles: Set<string> }>();
  for (const l of logs as Json[]) {
    const h = hexNum(l?.blockNumber);
    const tx = typeof l?.transactionHash === 'string' && /^0x[0-9a-fA-F]{64}$/.test(l.transactionHash) ? l.transactionHash.toLowerCase() : undefined;
    // Remembered checksums (checksummed()): a page of logs names the same few addresses again and again.
    const token = typeof l?.address === 'string' && isEvmAddress(l.address) ? checksummed(l.address) : undefined;
    const topics: unknown[] = Array.isArray(l?.topics) ? l.topics : [];
    const from = topicAddress(topics[1]);
    const to = topicAddress(topics[2]);
    if (h === undefined || !tx || !token || !from || !to || topics[0] !== TRANSFER_TOPIC) continue;
    const i = Number(hexNum(l.transactionIndex) ?? 0n);
    const item = byTx.get(tx) ?? { h, i, transfers: [], seen: new Set<string>(), roles: new Set<string>() };
    byTx.set(tx, item);
    const tokenId = topics.length === 4 ? hexNum(topics[3]) : undefined;
    const amount = tokenId === undefined ? hexNum(l.data === '0x' ? undefined : l.data) : undefined;
    const logIndex = hexNum(l.logIndex);
    const key = `${logIndex?.toString()}|${token}`;
    if (item.seen.has(key)) continue; // found as sender and as recipient
    item.seen.add(key);
    if (from.toLowerCase() === me) item.roles.add('token sender');
    if (to.toLowerCase() === me) item.roles.add('token recipient');
    if (item.transfers.length >= MAX_TX_TRANSFERS) continue;
    item.transfers.push({
      token,
      from,
      to,
      ...(amount !== undefined ? { amount: amount.toString() } : {}),
      ...(tokenId !== undefined ? { tokenId: tokenId.toString() } : {}),
      ...(logIndex !== undefined ? { logIndex: logIndex.toString() } : {}),
    });
  }
  return [...byTx.entries()].map(([tx, x]) => ({
    h: x.h,
    i: x.i,
    entry: {
      height: x.h.toString(),
      index: x.i,
      evmHashes: [tx],
      actions: ['EVM token transfer'],
      roles: [...x.roles],
      transfers: x.transfers,
      lookUp: tx,
    },
  }));
}

/** The Cosmos searches that name an account: the bech32 form and, for EVM transactions, the 0x form the events write (EIP-55). */
export function accountSearches(account: string, hex: string): Array<{ query: string; role: string }> {
  const checksummed = getAddress(hex);
  return [
    { query: `message.sender='${account}'`, role: 'sender' },
    { query: `message.sender='${checksummed}'`, role: 'sender' },
    { query: `transfer.sender='${account}'`, role: 'sender' },
    { query: `transfer.recipient='${account}'`, role: 'recipient' },
    { query: `delegate.delegator='${account}'`, role: 'delegator' },
  ];
}

function searchStream(query: string, role: string, cursor: Cursor): Stream {
  let page = 0;
  const s: Stream = {
    label: query,
    buf: [],
    floor: TOP,
    done: false,
    async read(src) {
      const r = (await src.comet(searchCall(query, page + 1, HISTORY_PAGE_SIZE))) as Json;
      const items = entriesOfSearch(r, role);
      const total = typeof r?.total_count === 'string' && /^[0-9]{1,12}$/.test(r.total_count) ? Number(r.total_count) : undefined;
      // A total below what the pages already hold is not the index's count: the pages say when they end.
      const counted = page * HISTORY_PAGE_SIZE + items.length;
      const trusted = total !== undefined && total >= counted ? total : undefined;
      if (trusted !== undefined) cursor.cosmosTotal = Math.max(cursor.cosmosTotal ?? 0, trusted);
      page++;
      const done = items.length < HISTORY_PAGE_SIZE || (trusted !== undefined && page * HISTORY_PAGE_SIZE >= trusted);
      return { items, floor: items.length > 0 ? items[items.length - 1] : s.floor, done };
    },
  };
  return s;
}

function logStream(hex: string, tip: bigint, earliest: bigint, cursor: Cursor): Stream {
  let top = tip;
  let window = BigInt(LOG_WINDOW);
  const topic = paddedTopic(hex);
  const s: Stream = {
    label: 'eth_getLogs',
    buf: [],
    floor: { h: tip + 1n, i: -1 },
    done: tip < earliest,
    async read(src) {
      for (;;) {
        const low = top - window + 1n > earliest ? top - window + 1n : earliest;
        const range = { fromBlock: `0x${low.toString(16)}`, toBlock: `0x${top.toString(16)}` };
        try {
          const [sent, received] = await Promise.all([
            src.evm('eth_getLogs', [{ ...range, topics: [TRANSFER_TOPIC, topic] }]),
            src.evm('eth_getLogs', [{ ...range, topics: [TRANSFER_TOPIC, null, topic] }]),
          ]);
          const items = entriesOfLogs([...(Array.isArray(sent) ? sent : []), ...(Array.isArray(received) ? received : [])], hex);
          if (!Array.isArray(sent) || !Array.isArray(received)) throw new EndpointError('protocol', l10n.both('eth_getLogs: the answer is not a list'));
          items.sort((a, b) => -cmp(a, b));
          for (const it of items) for (const t of it.entry.transfers ?? []) if (cursor.tokens.size < MAX_TOKENS_SEEN) cursor.tokens.add(t.token);
          cursor.coverage.logsFrom = low;
          cursor.coverage.logsTo ??= tip;
          top = low - 1n;
          const done = low <= earliest;
          cursor.coverage.logsDone = done;
          return { items, floor: { h: low, i: -1 }, done };
        } catch (err) {
          rethrowCancel(err);
          // A range or result cap: a smaller window, down to MIN_LOG_WINDOW blocks. A rate limit ("429
          // Too Many Requests", "rate limit exceeded") is no range refusal: asking again at once, smaller, is not waiting.
          if (!isRateLimit(err) && /range|distance|too many|more than|limit|exceed/i.test(errorMessage(err)) && window > BigInt(MIN_LOG_WINDOW)) {
            window /= 2n;
            continue;
          }
          throw err;
        }
      }
    },
  };
  return s;
}

/** A rate limit (HTTP 429, or a JSON-RPC error that says so), not a cap on the range asked. */
function isRateLimit(err: unknown): boolean {
  return (isEndpointError(err) && err.detail.status === 429) || /\b429\b|rate.?limit|too many requests/i.test(errorMessage(err));
}

/** The blocks the provider keeps and whether it indexes transactions (CometBFT status); undefined parts unknown. */
async function providerStatus(src: ExplorerSource): Promise<{ earliest?: bigint; latest?: bigint; txIndexOff?: boolean }> {
  const out: { earliest?: bigint; latest?: bigint; txIndexOff?: boolean } = {};
  try {
    if (src.has.comet) {
      const r = (await src.comet({ method: 'status', uri: {}, json: {} })) as Json;
      const e = r?.sync_info?.earliest_block_height;
      const l = r?.sync_info?.latest_block_height;
      if (typeof e === 'string' && /^[0-9]{1,19}$/.test(e)) out.earliest = BigInt(e);
      if (typeof l === 'string' && /^[0-9]{1,19}$/.test(l)) out.latest = BigInt(l);
      if (r?.node_info?.other?.tx_index === 'off') out.txIndexOff = true;
    } else if (src.has.evm) {
      const n = hexNum(await src.evm('eth_blockNumber', []));
      if (n !== undefined) out.latest = n;
    }
  } catch (err) {
    rethrowCancel(err);
  }
  return out;
}

/** The coverage lines of the history as read so far. */
function coverageOf(c: Cursor, height: string | undefined, elsewhere: HistoryElsewhere | undefined, src: ExplorerSource): HistoryCoverage {
  const v = c.coverage;
  const lines: string[] = [];
  const fmt = (n: bigint) => n.toLocaleString('en-US');
  if (v.earliest !== undefined && v.latest !== undefined) {
    const pruned = v.earliest > 1n;
    lines.push(
      `This provider keeps blocks ${fmt(v.earliest)}–${fmt(v.latest)}${pruned ? '; older blocks are pruned on this provider' : ' (from the first block)'}${
        pruned && elsewhere?.olderBlocks && BigInt(elsewhere.olderBlocks.earliest) < v.earliest
          ? `; provider ${elsewhere.olderBlocks.provider} keeps them (from block ${fmt(BigInt(elsewhere.olderBlocks.earliest))})`
          : ''
      }.`,
    );
  }
  if (height !== undefined) lines.push(`History as of height ${height}: later transactions are not listed.`);
  if (!src.has.comet) lines.push('Cosmos transactions are not listed: the provider has no CometBFT RPC address.');
  else if (v.txIndexOff) {
    lines.push(
      `Cosmos transactions are not listed: this provider's transaction index is off ("transaction indexing is disabled")${
        elsewhere?.txIndex ? `; provider ${elsewhere.txIndex} indexes them` : ''
      }.`,
    );
  } else if (c.cosmosTotal !== undefined) lines.push(`Cosmos transactions: found by tx_search on the events that name the account (newest first).`);
  for (const n of c.coverage.cosmosNotes.slice(0, 5)) lines.push(n);
  if (!src.has.evm) lines.push('EVM token transfers are not listed: the provider has no EVM RPC address.');
  else if (v.logNote) lines.push(v.logNote);
  else if (v.logsFrom !== undefined && v.logsTo !== undefined) {
    lines.push(
      v.logsDone
        ? `EVM token transfers cover blocks ${fmt(v.logsFrom)}–${fmt(v.logsTo)}, every block this provider keeps${v.logsFrom > 1n ? ' (older blocks are pruned here)' : ''}.`
        : `EVM token transfers cover blocks ${fmt(v.logsFrom)}–${fmt(v.logsTo)} so far (eth_getLogs in windows of at most ${LOG_WINDOW.toLocaleString('en-US')} blocks); the next page reads older blocks.`,
    );
  }
  return {
    ...(v.earliest !== undefined && v.latest !== undefined ? { blocks: { earliest: v.earliest.toString(), latest: v.latest.toString() } } : {}),
    ...(v.txIndexOff !== undefined ? { txIndex: !v.txIndexOff } : src.has.comet && c.cosmosTotal !== undefined ? { txIndex: true } : {}),
    ...(v.logsFrom !== undefined && v.logsTo !== undefined
      ? { logs: { from: v.logsFrom.toString(), to: v.logsTo.toString(), complete: Boolean(v.logsDone) } }
      : {}),
    lines,
  };
}

/** A stream's failure: the stream ends, its sentence is a coverage line. */
function failStream(c: Cursor, s: Stream, err: unknown): void {
  rethrowCancel(err);
  const m = errorMessage(err);
  s.done = true;
  s.buf = [];
  if (s.label === 'eth_getLogs') {
    const at = c.coverage.logsFrom ?? c.coverage.logsTo;
    c.coverage.logNote = `EVM token transfers ${at !== undefined ? `stop at block ${at.toLocaleString('en-US')}` : 'are not listed'}: eth_getLogs failed (${m.slice(0, 200)}).`;
  } else if (/indexing is disabled/i.test(m)) {
    c.coverage.txIndexOff = true;
  } else {
    c.coverage.cosmosNotes.push(`tx_search ${s.label} failed: ${m.slice(0, 200)}`);
  }
}

async function newCursor(src: ExplorerSource, hex: string, account: string, height: string | undefined): Promise<Cursor> {
  const st = await providerStatus(src);
  const cursor: Cursor = {
    streams: [],
    pages: [],
    seen: new Set(),
    tokens: new Set(),
    coverage: { ...st, cosmosNotes: [] },
    ended: false,
    at: Date.now(),
  };
  if (src.has.comet && !st.txIndexOff) {
    for (const s of accountSearches(account, hex)) {
      const q = height === undefined ? s.query : `${s.query} AND tx.height<=${height}`;
      cursor.streams.push(searchStream(q, s.role, cursor));
    }
  }
  if (src.has.evm) {
    let tip = st.latest;
    if (tip === undefined || src.has.comet) {
      try {
        tip = hexNum(await src.evm('eth_blockNumber', [])) ?? tip;
      } catch (err) {
        rethrowCancel(err);
      }
    }
    if (tip !== undefined && height !== undefined && BigInt(height) < tip) tip = BigInt(height);
    if (tip !== undefined) cursor.streams.push(logStream(hex, tip, st.earliest !== undefined && st.earliest > 0n ? st.earliest : 1n, cursor));
    else cursor.coverage.logNote = 'EVM token transfers are not listed: the latest block could not be read.';
  }
  return cursor;
}

const sameTx = (a: HistoryEntry, b: HistoryEntry): boolean => (a.hash !== undefined && a.hash === b.hash) || a.evmHashes.some((x) => b.evmHashes.includes(x));

/** One transaction found twice: the Cosmos side's hash and actions, every role and transfer. */
function mergeEntries(a: HistoryEntry, b: HistoryEntry): HistoryEntry {
  const cosmos = a.hash ? a : b.hash ? b : a;
  const transfers = [...(a.transfers ?? []), ...(b.transfers ?? [])];
  return {
    ...cosmos,
    roles: [...new Set([...a.roles, ...b.roles])],
    evmHashes: [...new Set([...a.evmHashes, ...b.evmHashes])],
    ...(transfers.length > 0 ? { transfers: transfers.slice(0, 50) } : {}),
  };
}

/** Fills the next page from the streams within `budget` requests (each read counts its requests). */
async function fillPage(src: ExplorerSource, c: Cursor, budget: { left: number }): Promise<{ entries: HistoryEntry[]; partial: boolean }> {
  const out: Item[] = [];
  let partial = false;
  while (out.length < HISTORY_PAGE_SIZE) {
    let best: Stream | undefined;
    for (const s of c.streams) if (s.buf.length > 0 && (!best || cmp(s.buf[0], best.buf[0]) > 0)) best = s;
    const head = best?.buf[0];
    // Streams that could still hold an entry above the best one read (or any entry at all).
    const blocking = c.streams.filter((s) => !s.done && s.buf.length === 0 && (!head || cmp(s.floor, head) > 0));
    if (blocking.length === 0) {
      if (!best || !head) {
        c.ended = true;
        break;
      }
      best.buf.shift();
      let e = head.entry;
      // The same transaction already read by another stream (another search, or its EVM transfers): one entry.
      for (const s of c.streams) {
        const same = s.buf.filter((x) => x.h === head.h && sameTx(x.entry, e));
        if (same.length === 0) continue;
        s.buf = s.buf.filter((x) => !same.includes(x));
        for (const x of same) e = mergeEntries(e, x.entry);
      }
      const keys = [e.hash, ...e.evmHashes].filter((k): k is string => Boolean(k));
      if (keys.some((k) => c.seen.has(k))) {
        // The same transaction from another search (or its EVM transfers): roles and transfers join the entry shown.
        const shown = out.find((o) => sameTx(o.entry, e));
        if (shown) out[out.indexOf(shown)] = { ...shown, entry: mergeEntries(shown.entry, e) };
        for (const k of keys) c.seen.add(k);
        continue;
      }
      for (const k of keys) c.seen.add(k);
      out.push({ ...head, entry: e });
      continue;
    }
    const cost = (s: Stream) => (s.label === 'eth_getLogs' ? 2 : 1);
    const affordable: Stream[] = [];
    for (const s of blocking) {
      if (budget.left >= cost(s)) {
        budget.left -= cost(s);
        affordable.push(s);
      }
    }
    if (affordable.length === 0) {
      partial = true;
      break;
    }
    await pool(
      affordable.map((s) => async () => {
        try {
          const r = await s.read(src);
          // One by one: a spread passes every item as an argument (a hostile page of 200,000 throws).
          for (const x of r.items) if (cmp(x, s.floor) <= 0 || s.floor === TOP) s.buf.push(x);
          s.floor = r.floor;
          s.done = r.done;
        } catch (err) {
          failStream(c, s, err);
        }
      }),
      HISTORY_CONCURRENCY,
    );
  }
  // An EVM transfer shown on this page and the Cosmos transaction that carries it: one entry.
  return { entries: out.map((o) => o.entry), partial };
}

export interface HistoryOptions {
  readonly height?: string;
  /** The page wanted, from 1. */
  readonly page?: number;
  readonly elsewhere?: HistoryElsewhere;
  /** The Look Up text of the account (the next page's query is `<it> history page N`). */
  readonly typed: string;
}

/**
 * Page `page` of `account`'s history on `src` (`hex`: its 0x form). Never rejects except when
 * cancelled: what could not be read is in the coverage lines.
 */
export async function readHistory(src: ExplorerSource, account: string, hex: string, opts: HistoryOptions): Promise<HistoryPage> {
  const number = Math.max(1, Math.min(opts.page ?? 1, MAX_HISTORY_PAGE));
  const key = `${src.provider}\u0000${src.chainId ?? ''}\u0000${account}\u0000${opts.height ?? 'latest'}`;
  let cursor = cursors.get(key);
  // Page 1 of the latest state is always read afresh (new blocks); a later page continues the cursor kept.
  if (cursor && (Date.now() - cursor.at > HISTORY_TTL_MS || (number === 1 && opts.height === undefined) || cursor.pages.length < number - 1))
    cursor = undefined;
  const cached = Boolean(cursor);
  let requests = 0;
  const counted: ExplorerSource = {
    ...src,
    rest: (p, h) => (requests++, src.rest(p, h)),
    comet: (c) => (requests++, src.comet(c)),
    evm: (m, p) => (requests++, src.evm(m, p)),
  };
  try {
    if (!cursor) {
      cursor = await newCursor(counted, hex, account, opts.height);
      cursors.delete(key);
    }
    let partial = false;
    while (cursor.pages.length < number && !cursor.ended) {
      const budget = { left: HISTORY_PAGE_REQUESTS };
      const r = await fillPage(counted, cursor, budget);
      partial = r.partial;
      cursor.pages.push(r.entries);
      if (partial) break;
    }
    cursor.at = Date.now();
    cursors.set(key, cursor);
    while (cursors.size > HISTORY_CACHE) cursors.delete(cursors.keys().next().value as string);
    const entries = cursor.pages[number - 1] ?? [];
    const more = !cursor.ended || cursor.streams.some((s) => s.buf.length > 0);
    return {
      number,
      size: HISTORY_PAGE_SIZE,
      entries,
      ...(more && cursor.pages.length >= number && number < MAX_HISTORY_PAGE
        ? { next: `${opts.typed}${opts.height ? `@${opts.height}` : ''} history page ${number + 1}` }
        : {}),
      ...(partial ? { partial } : {}),
      ...(cursor.cosmosTotal !== undefined ? { cosmosTotal: cursor.cosmosTotal } : {}),
      coverage: coverageOf(cursor, opts.height, opts.elsewhere, src),
      tokensSeen: [...cursor.tokens],
      requests,
      cached,
    };
  } catch (err) {
    // A cancelled read leaves no half-read cursor behind.
    cursors.delete(key);
    throw err;
  }
}
