// What a HeightTracker reports (its snapshot and options); the heights it has seen: only ever
// higher (a lower or equal one is ignored), the jump of more than one block a reconnect leaves
// (covered by the maximum, never fetched), the observed block interval (median of the last
// arrivals); and the reading of one message of the NewBlockHeader subscription. No I/O.

import { parseDecimalHeight } from '../base/limits';
import { isObject as isRecord } from '../base/text';

export type TrackerState = 'connecting' | 'live' | 'stalled' | 'reconnecting' | 'polling' | 'stopped';

export interface HeightSnapshot {
  state: TrackerState;
  /** Highest height seen; never decreases. */
  height?: bigint;
  /** RFC 3339 time of that block's header. */
  blockTime?: string;
  /** Date.now() when that height arrived. */
  receivedAt?: number;
  /** Observed time per block (median of recent arrivals). */
  blockIntervalMs?: number;
  source?: 'websocket' | 'polling';
  /** Why: the last error or the reason for the current state (translated: never match on it). */
  detail?: string;
  /** Set while polling when the last status poll failed (`detail` then says why). */
  pollFailed?: boolean;
  /** When the next socket attempt is due, while reconnecting/polling. */
  reconnectAt?: number;
  /**
   * The last jump of more than one block (typically the first height after a reconnect):
   * heights `from`..`to` never arrived one by one. The shown height is a maximum, so it covers
   * them; nothing is fetched. `count` = to - from + 1.
   */
  lastGap?: { from: bigint; to: bigint; count: bigint; at: number };
  /** How many such gaps have been covered since start (0 when none). */
  gapsCovered?: number;
}

export interface HeightTrackerOptions {
  /** ws(s)://host/websocket; undefined -> poll only. */
  wsUrl?: string;
  /** Polls {consensusHttp}/status; undefined -> no polling fallback. */
  fetchStatus?: (signal: AbortSignal) => Promise<{ height: bigint; time?: string }>;
  headers?: Record<string, string>;
  /** Client pings, default 20_000. */
  pingIntervalMs?: number;
  /** Default 10_000; covers the handshake and the answer to subscribe (and each poll). */
  connectTimeoutMs?: number;
  /** Default 30_000; stalled = no block for max(3 x interval, minStallMs). */
  minStallMs?: number;
  /** Default 30_000; exponential backoff with jitter, starting ~500 ms. */
  maxBackoffMs?: number;
  /** Before any interval is observed, default 5_000 (used for the polling period too). */
  defaultBlockIntervalMs?: number;
  log?: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
}

/** How many arrivals the observed block interval is the median of. */
const INTERVAL_SAMPLES = 9;

export class HeightRecord {
  height?: bigint;
  blockTime?: string;
  receivedAt?: number;
  source?: 'websocket' | 'polling';
  lastGap?: { from: bigint; to: bigint; count: bigint; at: number };
  gapsCovered = 0;
  private readonly intervalSamples: number[] = [];

  constructor(private readonly log: (message: string) => void) {}

  /** Takes a new height when it is higher than the last; false (nothing changes) when it is not. */
  accept(height: bigint, time: string | undefined, source: 'websocket' | 'polling'): boolean {
    if (this.height !== undefined && height <= this.height) {
      if (height < this.height) this.log(`ignored lower height ${height} (have ${this.height}) from ${source}`);
      return false;
    }
    const now = Date.now();
    if (this.height !== undefined && height > this.height + 1n) {
      // Blocks missed while the socket was down (or between polls): the maximum covers them.
      this.lastGap = { from: this.height + 1n, to: height - 1n, count: height - this.height - 1n, at: now };
      this.gapsCovered++;
      this.log(`height jumped from ${this.height} to ${height}: ${this.lastGap.count} block(s) covered by the new height`);
    }
    if (this.height !== undefined && this.receivedAt !== undefined) {
      const dt = now - this.receivedAt;
      const dh = Number(height - this.height);
      if (dt > 0 && dh > 0) {
        this.intervalSamples.push(dt / dh);
        if (this.intervalSamples.length > INTERVAL_SAMPLES) this.intervalSamples.shift();
      }
    }
    this.height = height;
    this.blockTime = time;
    this.receivedAt = now;
    this.source = source;
    return true;
  }

  /** The median time per block over the last arrivals, when known. */
  observedIntervalMs(): number | undefined {
    if (this.intervalSamples.length === 0) return undefined;
    const sorted = [...this.intervalSamples].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    return Math.round(median);
  }

  /** The snapshot's fields this record knows, for a tracker in `state`. */
  snapshot(state: TrackerState): HeightSnapshot {
    const s: HeightSnapshot = { state };
    if (this.height !== undefined) s.height = this.height;
    if (this.blockTime !== undefined) s.blockTime = this.blockTime;
    if (this.receivedAt !== undefined) s.receivedAt = this.receivedAt;
    const interval = this.observedIntervalMs();
    if (interval !== undefined) s.blockIntervalMs = interval;
    if (this.source !== undefined) s.source = this.source;
    if (this.lastGap !== undefined) s.lastGap = { ...this.lastGap };
    if (this.gapsCovered > 0) s.gapsCovered = this.gapsCovered;
    return s;
  }
}

/** One message on the NewBlockHeader subscription, read. */
export type SubscriptionMessage =
  { kind: 'ignored'; what: string } | { kind: 'error'; error: unknown } | { kind: 'ack' } | { kind: 'header'; height: bigint; time?: string };

/** Reads a message of the subscription whose request id is `subscribeId`. */
export function readSubscriptionMessage(text: string, subscribeId: number | undefined): SubscriptionMessage {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return { kind: 'ignored', what: 'a non-JSON message' };
  }
  if (!isRecord(msg) || msg.id !== subscribeId) return { kind: 'ignored', what: 'a message' };
  if (msg.error !== undefined) return { kind: 'error', error: msg.error };
  const result = msg.result;
  if (!isRecord(result)) return { kind: 'ignored', what: 'a message without result' };
  if (result.data === undefined) return { kind: 'ack' };
  const header = isRecord(result.data) && isRecord(result.data.value) ? result.data.value.header : undefined;
  const height = isRecord(header) ? parseDecimalHeight(header.height) : undefined; // int64, checked before BigInt
  if (!isRecord(header) || height === undefined) return { kind: 'ignored', what: 'an event without a usable header height (an int64)' };
  return { kind: 'header', height, time: typeof header.time === 'string' ? header.time : undefined };
}
