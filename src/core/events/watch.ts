// One live event watch: a CometBFT subscription (any query) or an EVM `eth_subscribe` (newHeads,
// logs, newPendingTransactions) over its own WebSocket. Never imports vscode. The socket is the one
// reconnecting subscription of core/transport/subscription.ts (as the height tracker's): client
// pings and a watchdog, reconnection with backoff and jitter, resubscription; this file reads the
// messages and adds a gap line for the time the socket was down. Everything is bounded: a ring
// of entries (count and bytes), a per-event size cap (larger events are kept as a preview), a
// per-frame cap (a larger frame drops the socket), and batches to the listeners at most every
// `batchMs`.

import type WebSocket from 'ws';
import * as l10n from '../base/l10n';
import { formatBytes } from '../base/numbers';
import { redactUrl } from '../secrets/redact';
import { describeRpcError, rawLength, rawToString } from '../transport/wsSupport';
import { isObject } from '../base/text';
import { Subscription } from '../transport/subscription';
import { type EntryFields, type WatchEntry, clock, queryKeys, readCometEvent, readEvmNotification } from './entry';
import { EntryStream } from './stream';
import { type WatchOptions, type WatchSnapshot, type WatchState, type WatchTarget, subscribeRequest } from './spec';
import { Listeners } from '../base/listeners';

export type { EvmSubscription, SocketOpener, WatchOptions, WatchSnapshot, WatchState, WatchTarget } from './spec';

const PREVIEW_CHARS = 4096;

export class Watch {
  private readonly stream: EntryStream;
  private readonly stateListeners = new Listeners<WatchSnapshot>((message) => this.log('error', message), 'watch state listener');
  private readonly o: Required<Omit<WatchOptions, 'headers' | 'log' | 'open' | 'decodeLog'>>;
  private readonly sub: Subscription;
  private readonly log: NonNullable<WatchOptions['log']>;
  private readonly preferredKeys: string[];
  private state: WatchState = 'stopped';
  private detail?: string;
  private lastNote?: string;
  /** Per socket: the id eth_subscribe answered (EVM), and whether an ignored message was noted. */
  private subscriptionId?: string;
  private ignoredNoted = false;
  private started = false;
  private disposed = false;
  private oversize = 0;
  private ignored = 0;
  private gaps = 0;
  /** Date.now() when a live subscription was lost; cleared by the gap line. */
  private lostAt?: number;
  constructor(
    readonly target: WatchTarget,
    private readonly options: WatchOptions = {},
  ) {
    this.o = {
      bufferSize: options.bufferSize ?? 10_000,
      maxBufferBytes: options.maxBufferBytes ?? 64 * 1024 * 1024,
      maxEventBytes: options.maxEventBytes ?? 256 * 1024,
      maxFrameBytes: options.maxFrameBytes ?? 16 * 1024 * 1024,
      batchMs: options.batchMs ?? 100,
      pingIntervalMs: options.pingIntervalMs ?? 20_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
    };
    this.log = options.log ?? (() => undefined);
    this.sub = new Subscription(
      {
        url: target.url,
        headers: options.headers,
        open: options.open,
        maxPayload: this.o.maxFrameBytes,
        perMessageDeflate: false,
        connectTimeoutMs: this.o.connectTimeoutMs,
        pingIntervalMs: this.o.pingIntervalMs,
        maxBackoffMs: this.o.maxBackoffMs,
        watchdogMs: () => Math.round(2.5 * this.o.pingIntervalMs),
        log: (level, message) => this.log(level, message),
      },
      {
        subscribeMessage: (id) => subscribeRequest(target, id),
        message: (data, id) => this.onMessage(data, id),
        connecting: (reconnecting) => this.onConnecting(reconnecting),
        live: () => this.onSubscribed(),
        failed: (reason, _kind, wasLive) => this.onFailed(reason, wasLive),
        openFailed: (reason) => this.setState('stopped', l10n.t('cannot open {0}: {1}', redactUrl(target.url), reason)),
        socketError: (err) => this.socketError(err),
      },
    );
    this.stream = new EntryStream(this.o.bufferSize, this.o.maxBufferBytes, this.o.batchMs, () => this.emitState(), this.log);
    this.preferredKeys = target.kind === 'comet' ? queryKeys(target.query) : [];
  }

  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    this.sub.start();
  }

  snapshot(): WatchSnapshot {
    return {
      state: this.state,
      ...(this.detail ? { detail: this.detail } : {}),
      paused: this.stream.paused,
      received: this.stream.received,
      stored: this.stream.stored,
      evicted: this.stream.evicted,
      oversize: this.oversize,
      ignored: this.ignored,
      gaps: this.gaps,
      ratePerSecond: this.stream.ratePerSecond(),
    };
  }

  /** Batches of new entries, at most one per `batchMs`; none while paused. */
  onBatch(listener: (entries: WatchEntry[]) => void): { dispose(): void } {
    return this.stream.listen(listener);
  }

  onState(listener: (s: WatchSnapshot) => void): { dispose(): void } {
    return this.stateListeners.add(listener);
  }

  /** What the buffer holds, oldest first (for export). */
  entries(): WatchEntry[] {
    return this.stream.entries();
  }

  entry(seq: number): WatchEntry | undefined {
    return this.stream.entry(seq);
  }

  /** Per batch: milliseconds from when it was due to the end of its listeners. */
  get batchLatencies(): readonly number[] {
    return this.stream.batchLatencies;
  }

  /** Per batch: milliseconds from taking it out of the buffer to the end of its listeners. */
  get batchDurations(): readonly number[] {
    return this.stream.batchDurations;
  }

  get paused(): boolean {
    return this.stream.paused;
  }

  /** Keeps receiving into the buffer, but stops the batches until resume(). */
  pause(): void {
    if (this.disposed) return;
    this.stream.pause();
    this.emitState();
  }

  resume(): void {
    if (this.disposed) return;
    this.stream.resume();
    this.emitState();
  }

  /** Empties the buffer (counts since start stay). */
  clear(): void {
    this.stream.clear();
    this.emitState();
  }

  /** Drops the socket, resets the backoff and connects now. */
  reconnect(): void {
    if (this.disposed || !this.started) return;
    this.sub.reconnect();
  }

  dispose(): void {
    if (this.disposed) return;
    this.sub.dispose();
    this.state = 'stopped';
    this.disposed = true;
    this.stream.dispose();
    this.stateListeners.clear();
  }

  // ---- socket ---------------------------------------------------------------------------

  private onConnecting(reconnecting: boolean): void {
    this.subscriptionId = undefined;
    this.ignoredNoted = false;
    this.setState(reconnecting || this.lostAt !== undefined ? 'reconnecting' : 'connecting');
  }

  private socketError(err: Error & { code?: string }): string | undefined {
    if (err.code !== 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return undefined;
    this.oversize++;
    const sentence = l10n.t('the server sent a message larger than {0}; it was dropped with the connection', formatBytes(this.o.maxFrameBytes));
    this.note(sentence);
    return sentence;
  }

  private onMessage(data: WebSocket.RawData, requestId: number): void {
    const bytes = rawLength(data);
    const text = rawToString(data);
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.ignore(l10n.t('ignored a message that is not JSON ({0})', formatBytes(bytes)));
    }
    if (!isObject(msg)) return this.ignore(l10n.t('ignored a message that is not a JSON-RPC object'));
    const t = this.target;
    const ours = msg.id === requestId || msg.id === String(requestId);
    if (ours && msg.error !== undefined) {
      const sentence = describeRpcError(msg.error);
      this.note(this.sub.subscribed ? sentence : l10n.t('subscribe refused: {0}', sentence));
      return this.sub.fail(sentence, 'subscription');
    }
    if (t.kind === 'comet') {
      if (!ours) return this.ignore(l10n.t('ignored a message for another request'));
      if (!isObject(msg.result)) return this.ignore(l10n.t('ignored a message without a result'));
      this.sub.markSubscribed(); // the answer, or an event: either proves the subscription
      if (msg.result.data === undefined) return;
      return this.accept(bytes, text, msg.result, () => readCometEvent(msg.result as Record<string, unknown>, this.preferredKeys));
    }
    if (ours) {
      if (typeof msg.result !== 'string' || this.sub.subscribed) return this.ignore(l10n.t('ignored an answer that is not a subscription id'));
      this.subscriptionId = msg.result;
      return this.sub.markSubscribed();
    }
    const params = isObject(msg.params) ? msg.params : undefined;
    if (msg.method !== 'eth_subscription' || !params || !this.sub.subscribed || params.subscription !== this.subscriptionId) {
      return this.ignore(l10n.t('ignored a message for another subscription'));
    }
    this.accept(bytes, text, params.result, () => readEvmNotification(t.subscription, params.result, this.options.decodeLog));
  }

  private onSubscribed(): void {
    const lostAt = this.lostAt;
    if (lostAt !== undefined) {
      this.lostAt = undefined;
      this.gaps++;
      const now = Date.now();
      this.stream.push('gap', { summary: l10n.t('disconnected {0}–{1}, events may be missing', clock(lostAt), clock(now)) }, 0, undefined, {
        from: lostAt,
        to: now,
      });
    }
    this.log('info', `event watch subscribed on ${redactUrl(this.target.url)}`);
    this.setState('live');
  }

  private accept(bytes: number, text: string, data: unknown, read: () => EntryFields): void {
    let fields: EntryFields;
    try {
      fields = read();
    } catch {
      fields = { summary: '' };
    }
    if (bytes > this.o.maxEventBytes) {
      this.oversize++;
      const note = l10n.t('event of {0} (over {1}): detail truncated', formatBytes(bytes), formatBytes(this.o.maxEventBytes));
      this.stream.push(
        'event',
        { ...fields, summary: `${fields.summary}  [${note}]`.trim() },
        PREVIEW_CHARS,
        {
          truncated: true,
          bytes,
          preview: text.slice(0, PREVIEW_CHARS),
        },
        undefined,
        true,
      );
      return;
    }
    this.stream.push('event', fields, bytes, data);
  }

  private ignore(sentence: string): void {
    this.ignored++;
    if (this.ignoredNoted) return; // a flood costs a count, not a log line or a stream line each
    this.ignoredNoted = true; // one line per connection; the count is in the snapshot
    this.log('debug', `event watch: ${sentence}`);
    this.note(sentence);
  }

  private note(sentence: string): void {
    if (sentence === this.lastNote) return; // a repeated failure adds no line per attempt
    this.lastNote = sentence;
    this.stream.push('note', { summary: sentence }, 0);
  }

  /** The socket attempt ended; the subscription has scheduled the next one. */
  private onFailed(reason: string, wasLive: boolean): void {
    if (this.disposed) return;
    if (wasLive && this.lostAt === undefined) this.lostAt = Date.now();
    this.log('info', `event watch: ${reason}; next attempt in ${Math.max(0, (this.sub.reconnectAt ?? Date.now()) - Date.now())} ms`);
    this.setState('reconnecting', reason);
  }

  private setState(state: WatchState, detail?: string): void {
    this.state = state;
    this.detail = state === 'live' ? undefined : (detail ?? this.detail);
    if (state === 'live') this.lastNote = undefined;
    this.emitState();
  }

  private emitState(): void {
    if (this.disposed) return;
    this.stateListeners.emit(this.snapshot());
  }
}
