// The height tracker's fallback while its WebSocket is unusable: `/status` polled about once per
// block interval (at least once a second), each poll under a deadline and abortable; a result
// that arrives after polling stopped is dropped. The tracker owns the state it shows.

import { LocalizedError, errorMessage } from '../base/errors';
import * as l10n from '../base/l10n';
import { Timers, formatMs } from '../transport/wsSupport';
import type { HeightRecord } from './heightRecord';

const MIN_POLL_MS = 1_000;

export interface PollerHost {
  fetchStatus: (signal: AbortSignal) => Promise<{ height: bigint; time?: string }>;
  readonly record: HeightRecord;
  /** Deadline of one poll. */
  readonly timeoutMs: number;
  /** The poll period before any block interval is observed. */
  readonly defaultIntervalMs: number;
  isDisposed(): boolean;
  log(level: 'warn', message: string): void;
  /** Called when a poll changed what the tracker shows (a new height, a new or cleared error). */
  changed(): void;
}

export class StatusPoller {
  /** True between start() and stop(). */
  active = false;
  /** Why the last poll failed; undefined after a good one. */
  error?: string;
  private readonly timers = new Timers<'poll' | 'pollTimeout'>();
  private abort?: AbortController;
  /** Bumped whenever polling stops, so a late poll result is dropped. */
  private generation = 0;

  constructor(private readonly host: PollerHost) {}

  /** Marks polling as active; the first poll goes out with pollNow(). */
  start(): void {
    this.active = true;
    this.error = undefined;
  }

  stop(): void {
    if (!this.active) return;
    this.active = false;
    this.generation++;
    this.error = undefined;
    this.timers.clearAll();
    this.abort?.abort();
    this.abort = undefined;
  }

  pollNow(): void {
    void this.run();
  }

  /** One status poll, then the next one scheduled about one block interval later. */
  private async run(): Promise<void> {
    const { host } = this;
    if (!this.active || host.isDisposed()) return;
    this.timers.clear('poll');
    this.abort?.abort();
    const generation = ++this.generation;
    const abort = new AbortController();
    this.abort = abort;
    const startedAt = Date.now();
    this.timers.set('pollTimeout', host.timeoutMs, () => abort.abort(new LocalizedError(l10n.both('status timed out after {0}', formatMs(host.timeoutMs)))));
    let changed = false;
    try {
      const status = await host.fetchStatus(abort.signal);
      if (generation !== this.generation || host.isDisposed()) return;
      changed = this.error !== undefined;
      this.error = undefined;
      if (typeof status?.height === 'bigint' && host.record.accept(status.height, status.time, 'polling')) changed = true;
    } catch (err) {
      if (generation !== this.generation || host.isDisposed()) return;
      const reason = abort.signal.aborted && abort.signal.reason instanceof Error ? abort.signal.reason.message : errorMessage(err);
      host.log('warn', `status poll failed: ${reason}`);
      changed = this.error !== reason;
      this.error = reason;
    }
    this.timers.clear('pollTimeout');
    this.abort = undefined;
    const period = Math.max(MIN_POLL_MS, host.record.observedIntervalMs() ?? host.defaultIntervalMs);
    this.timers.set('poll', period - (Date.now() - startedAt), () => this.pollNow());
    if (changed) host.changed();
  }
}
