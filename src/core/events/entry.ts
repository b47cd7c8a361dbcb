// What a watch produces: one plain-data entry per event (or a gap / note line), and the reading
// of a CometBFT event or an EVM notification into its line (height, type, key attributes, hash).

import { hexQuantityDecimal, isObject as isRecord } from '../base/text';
import type { WatchOptions } from './spec';

export type WatchEntryKind = 'event' | 'gap' | 'note';

export interface WatchEntry {
  /** 1, 2, 3, … per watch, in arrival order (gap and note lines included). */
  readonly seq: number;
  /** Date.now() at arrival. */
  readonly at: number;
  readonly kind: WatchEntryKind;
  /** `Tx`, `NewBlock`, `newHeads`, `log`, `pendingTx`, … */
  readonly type?: string;
  /** Decimal string (heights can pass 2^53). */
  readonly height?: string;
  /** The transaction hash a click looks up: CometBFT upper-case hex, or EVM 0x-hex. */
  readonly txHash?: string;
  readonly hashKind?: 'comet' | 'evm';
  /** The line: key attributes for an event, the sentence for a gap or a note. */
  readonly summary: string;
  /** The event as received (parsed), or a preview when it was larger than the per-event cap. */
  readonly data?: unknown;
  /** Size of the frame that carried it (what the buffer's byte bound counts). */
  readonly bytes: number;
  readonly truncated?: boolean;
  /** An EVM log's event decoded (src/core/contracts), when its ABI is known. */
  readonly decoded?: unknown;
  /** For a gap line: when the socket was lost and when the subscription was back (Date.now()). */
  readonly gap?: { readonly from: number; readonly to: number };
}

export type EntryFields = Omit<WatchEntry, 'seq' | 'at' | 'bytes' | 'data' | 'truncated' | 'kind'>;

const MAX_ATTRIBUTES = 4;
const MAX_VALUE = 80;

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function short(v: string): string {
  return v.length > MAX_VALUE ? v.slice(0, MAX_VALUE - 1) + '…' : v;
}

/** The keys a query names (`message.sender` in `message.sender='x'`), listed first on a line. */
export function queryKeys(query: string): string[] {
  return [...query.replace(/'[^']*'/g, "''").matchAll(/([A-Za-z_][\w.\-/]*)\s*(?:<=|>=|!=|=|<|>|CONTAINS|EXISTS)/g)].map((m) => m[1]);
}

/** The line of a CometBFT event (`result` of a subscription message: {query, data, events}). */
export function readCometEvent(result: Record<string, unknown>, preferred: readonly string[]): EntryFields {
  const data = isRecord(result.data) ? result.data : {};
  const value = isRecord(data.value) ? data.value : {};
  const type = (str(data.type) ?? 'event').replace(/^tendermint\/event\//, '');
  const events = isRecord(result.events) ? result.events : {};
  const first = (key: string): string | undefined => {
    const v = events[key];
    return Array.isArray(v) ? str(v[0]) : str(v);
  };
  const block = isRecord(value.block) && isRecord(value.block.header) ? value.block.header : undefined;
  const header = isRecord(value.header) ? value.header : undefined;
  const txResult = isRecord(value.TxResult) ? value.TxResult : undefined;
  const height = str(block?.height) ?? str(header?.height) ?? str(txResult?.height) ?? str(value.height) ?? first('tx.height') ?? first('block.height');
  const txHash = first('tx.hash');
  const skip = new Set(['tm.event', 'tx.hash', 'tx.height']);
  const keys = Object.keys(events).filter((k) => !skip.has(k));
  keys.sort((a, b) => Number(!preferred.includes(a)) - Number(!preferred.includes(b)));
  const parts = keys.slice(0, MAX_ATTRIBUTES).map((k) => `${k}=${short(first(k) ?? '')}`);
  if (keys.length > MAX_ATTRIBUTES) parts.push(`+${keys.length - MAX_ATTRIBUTES}`);
  const code = isRecord(txResult?.result) ? txResult.result.code : undefined;
  if (typeof code === 'number' && code !== 0) parts.unshift(`code=${code}`);
  if (type === 'NewBlock' && isRecord(value.block) && isRecord(value.block.data) && Array.isArray(value.block.data.txs)) {
    parts.unshift(`txs=${value.block.data.txs.length}`);
  }
  return {
    type,
    ...(height !== undefined && /^\d+$/.test(height) ? { height } : {}),
    ...(txHash ? { txHash: short(txHash), hashKind: 'comet' as const } : {}),
    summary: parts.join('  '),
  };
}

/** The line of an EVM `eth_subscription` notification's `result`. */
export function readEvmNotification(subscription: string, result: unknown, decodeLog?: WatchOptions['decodeLog']): EntryFields {
  if (subscription === 'newPendingTransactions') {
    const hash = str(result);
    if (hash) return { type: 'pendingTx', txHash: short(hash), hashKind: 'evm', summary: '' };
    const r = isRecord(result) ? result : {};
    const h = str(r.hash);
    return {
      type: 'pendingTx',
      ...(h ? { txHash: short(h), hashKind: 'evm' as const } : {}),
      summary: [str(r.from), str(r.to)]
        .filter(Boolean)
        .map((x) => short(x!))
        .join(' → '),
    };
  }
  const r = isRecord(result) ? result : {};
  if (subscription === 'logs') {
    const height = hexQuantityDecimal(r.blockNumber);
    const tx = str(r.transactionHash);
    const topics = Array.isArray(r.topics) ? r.topics.map(str).filter((t): t is string => !!t) : [];
    const decoded = decodeLog?.({ address: str(r.address), topics, data: str(r.data) ?? '0x' });
    const parts = decoded ? [decoded.line, `address=${short(str(r.address) ?? '?')}`] : [`address=${short(str(r.address) ?? '?')}`];
    if (topics[0] && !decoded) parts.push(`topic0=${short(topics[0])}`);
    if (topics.length > 1 && !decoded) parts.push(`+${topics.length - 1} topic(s)`);
    if (r.removed === true) parts.unshift('removed');
    return {
      type: 'log',
      ...(height ? { height } : {}),
      ...(tx ? { txHash: short(tx), hashKind: 'evm' as const } : {}),
      summary: parts.join('  '),
      ...(decoded ? { decoded: decoded.decoded } : {}),
    };
  }
  const height = hexQuantityDecimal(r.number);
  const parts: string[] = [];
  const hash = str(r.hash);
  if (hash) parts.push(`hash=${short(hash)}`);
  const gasUsed = hexQuantityDecimal(r.gasUsed);
  if (gasUsed) parts.push(`gasUsed=${gasUsed}`);
  return { type: subscription, ...(height ? { height } : {}), summary: parts.join('  ') };
}

/** HH:MM:SS in local time, for gap lines. */
export function clock(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}
