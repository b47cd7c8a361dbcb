// The entries of one watch on their way to the view: a bounded ring (count and bytes), batches
// to the listeners at most every `batchMs` (none while paused: the ring keeps filling, and resume
// delivers what is still in it, with a line for what left it), counts and the rate. How late each
// batch reaches its listeners, measured from when it was due, is kept for the benchmark.

import * as l10n from '../base/l10n';
import { errorMessage } from '../base/errors';
import type { EntryFields, WatchEntry } from './entry';
import { RingBuffer } from './ring';

const RATE_WINDOW_S = 10;
const LATENCY_SAMPLES = 1000;

export class EntryStream {
  private readonly ring: RingBuffer<WatchEntry>;
  private readonly listeners = new Set<(entries: WatchEntry[]) => void>();
  private readonly rate = new Map<number, number>();
  /** The current second's count (kept apart: a Map write per event costs more than the event's line). */
  private rateSec = 0;
  private rateCount = 0;
  private seq = 0;
  private delivered = 0;
  private lastFlush = 0;
  private timer?: NodeJS.Timeout;
  private dueAt = 0;
  private isPaused = false;
  private disposed = false;
  /** Date.now() of the first event: the rate's window is shorter until 10 s have passed. */
  private firstAt?: number;
  /** Events (not gap or note lines) since start. */
  received = 0;
  /** Per batch: milliseconds from when it was due to the end of its listeners (last 1,000). */
  readonly batchLatencies: number[] = [];
  /** Per batch: milliseconds from taking the batch out of the ring to the end of its listeners (last 1,000). */
  readonly batchDurations: number[] = [];

  constructor(
    capacity: number,
    maxBytes: number,
    private readonly batchMs: number,
    private readonly onFlushed: () => void,
    private readonly log: (level: 'error', message: string) => void,
  ) {
    this.ring = new RingBuffer<WatchEntry>(capacity, maxBytes);
  }

  get paused(): boolean {
    return this.isPaused;
  }
  get stored(): number {
    return this.ring.length;
  }
  get evicted(): number {
    return this.ring.evicted;
  }

  /** Events per second over the last 10 s. */
  ratePerSecond(): number {
    if (this.firstAt === undefined) return 0;
    const now = Date.now();
    const sec = Math.floor(now / 1000);
    let n = this.rateSec > sec - RATE_WINDOW_S ? this.rateCount : 0;
    for (const [s, count] of this.rate) if (s > sec - RATE_WINDOW_S && s !== this.rateSec) n += count;
    const window = Math.min(RATE_WINDOW_S, Math.max(1, (now - this.firstAt) / 1000));
    return Math.round((n / window) * 10) / 10;
  }

  listen(listener: (entries: WatchEntry[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    if (this.delivered < this.seq) this.schedule();
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** One entry: its line's fields, the bytes the buffer counts, the event as received. One object per event, always the same shape. */
  push(kind: WatchEntry['kind'], fields: EntryFields, bytes: number, data?: unknown, gap?: WatchEntry['gap'], truncated?: true): void {
    if (this.disposed) return;
    const now = Date.now();
    if (kind === 'event') {
      this.received++;
      this.firstAt ??= now;
      const sec = Math.floor(now / 1000);
      if (sec === this.rateSec) this.rateCount++;
      else {
        if (this.rateCount > 0) this.rate.set(this.rateSec, this.rateCount);
        this.rateSec = sec;
        this.rateCount = 1;
        if (this.rate.size > RATE_WINDOW_S + 2) for (const k of this.rate.keys()) if (k <= sec - RATE_WINDOW_S) this.rate.delete(k);
      }
    }
    const entry: WatchEntry = {
      seq: ++this.seq,
      at: now,
      kind,
      type: fields.type,
      height: fields.height,
      txHash: fields.txHash,
      hashKind: fields.hashKind,
      summary: fields.summary,
      data,
      bytes,
      truncated,
      gap,
    };
    this.ring.push(entry);
    if (this.timer === undefined) this.schedule();
  }

  entries(): WatchEntry[] {
    return this.ring.toArray();
  }

  entry(seq: number): WatchEntry | undefined {
    const first = this.ring.first();
    return first ? this.ring.at(seq - first.seq) : undefined;
  }

  pause(): void {
    this.isPaused = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  resume(): void {
    this.isPaused = false;
    this.schedule();
  }

  clear(): void {
    this.ring.clear();
    this.delivered = this.seq;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }

  private schedule(): void {
    if (this.timer || this.isPaused || this.disposed || this.listeners.size === 0) return;
    const now = performance.now();
    this.dueAt = Math.max(now, this.lastFlush + this.batchMs);
    this.timer = setTimeout(() => this.flush(), this.dueAt - now);
  }

  private flush(): void {
    this.timer = undefined;
    if (this.isPaused || this.disposed) return;
    const first = this.ring.first();
    if (!first || this.delivered >= this.seq) return;
    const started = performance.now();
    const out: WatchEntry[] = [];
    const missed = first.seq - this.delivered - 1;
    if (missed > 0) {
      out.push({
        seq: first.seq - 0.5,
        at: Date.now(),
        kind: 'note',
        bytes: 0,
        summary: l10n.t('{0} entries left the buffer before they could be shown', missed),
      });
    }
    // One by one: a spread passes every event as an argument (a buffer raised past ~125,000 throws).
    for (const e of this.ring.from(this.delivered + 1 - first.seq)) out.push(e);
    this.delivered = this.seq;
    for (const listener of [...this.listeners]) {
      try {
        listener(out);
      } catch (err) {
        this.log('error', `event listener threw: ${errorMessage(err)}`);
      }
    }
    this.lastFlush = performance.now();
    this.batchLatencies.push(this.lastFlush - this.dueAt);
    this.batchDurations.push(this.lastFlush - started);
    if (this.batchLatencies.length > LATENCY_SAMPLES) this.batchLatencies.shift();
    if (this.batchDurations.length > LATENCY_SAMPLES) this.batchDurations.shift();
    this.onFlushed();
  }
}
