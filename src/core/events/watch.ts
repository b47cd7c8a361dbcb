// One live event watch: a CometBFT subscription (any query) or an EVM `eth_subscribe` (newHeads,
// logs, newPendingTransactions) over its own WebSocket. Never imports vscode. Like the height
// tracker (core/chain/heightTracker.ts, whose timers, backoff and sentences it shares through
// core/transport/wsSupport.ts): client pings and a watchdog, reconnection with backoff and jitter,
// resubscription, and a gap line for the time the socket was down. Everything is bounded: a ring
// of entries (count and bytes), a per-event size cap (larger events are kept as a preview), a
// per-frame cap (a larger frame drops the socket), and batches to the listeners at most every
// `batchMs`. Each socket attempt is a `Connection`; callbacks of an abandoned one do nothing.

import type WebSocket from 'ws';
import * as l10n from '../base/l10n';
import { errorMessage } from '../base/errors';
import { formatBytes } from '../base/numbers';
import { redactUrl } from '../secrets/redact';
import { WS_OPEN, openWebSocket } from '../transport/lazy';
import {
  Timers,
  backoffMs,
  closeSocket,
  describeClose,
  describeRpcError,
  describeSocketError,
  formatMs,
  isRecord,
  rawLength,
  rawToString,
} from '../transport/wsSupport';
import { type EntryFields, type WatchEntry, clock, queryKeys, readCometEvent, readEvmNotification } from './entry';
import { EntryStream } from './stream';
import { type SocketOpener, type WatchOptions, type WatchSnapshot, type WatchState, type WatchTarget, subscribeRequest } from './spec';
import { Listeners } from '../base/listeners';

export type { EvmSubscription, SocketOpener, WatchOptions, WatchSnapshot, WatchState, WatchTarget } from './spec';

interface Connection {
  readonly ws: WebSocket;
  readonly requestId: number;
  subscribed: boolean;
  /** EVM: the id eth_subscribe answered. */
  subscriptionId?: string;
  finished: boolean;
  ignoredNoted: boolean;
  /** Date.now() of the last message or pong (the watchdog reads it: no timer reset per message). */
  seenAt: number;
}

type TimerKey = 'connect' | 'reconnect' | 'ping' | 'watchdog';
const PREVIEW_CHARS = 4096;

export class Watch {
  private readonly timers = new Timers<TimerKey>();
  private readonly stream: EntryStream;
  private readonly stateListeners = new Listeners<WatchSnapshot>((message) => this.log('error', message), 'watch state listener');
  private readonly o: Required<Omit<WatchOptions, 'headers' | 'log' | 'open' | 'decodeLog'>>;
  private readonly open: SocketOpener;
  private readonly log: NonNullable<WatchOptions['log']>;
  private readonly preferredKeys: string[];
  private state: WatchState = 'stopped';
  private detail?: string;
  private lastNote?: string;
  private conn?: Connection;
  private nextId = 0;
  private failures = 0;
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
    this.open = options.open ?? openWebSocket;
    this.log = options.log ?? (() => undefined);
    this.stream = new EntryStream(this.o.bufferSize, this.o.maxBufferBytes, this.o.batchMs, () => this.emitState(), this.log);
    this.preferredKeys = target.kind === 'comet' ? queryKeys(target.query) : [];
  }

  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    this.connect();
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
    this.dropConnection();
    this.failures = 0;
    this.connect();
  }

  dispose(): void {
    if (this.disposed) return;
    this.dropConnection();
    this.timers.clearAll();
    this.state = 'stopped';
    this.disposed = true;
    this.stream.dispose();
    this.stateListeners.clear();
  }

  // ---- socket ---------------------------------------------------------------------------

  private connect(): void {
    if (this.disposed) return;
    this.timers.clear('reconnect');
    const url = this.target.url;
    let ws: WebSocket;
    try {
      ws = this.open(url, {
        handshakeTimeout: this.o.connectTimeoutMs,
        headers: this.options.headers,
        maxPayload: this.o.maxFrameBytes,
        perMessageDeflate: false,
      });
    } catch (err) {
      this.setState('stopped', l10n.t('cannot open {0}: {1}', redactUrl(url), errorMessage(err)));
      return;
    }
    const conn: Connection = { ws, requestId: ++this.nextId, subscribed: false, finished: false, ignoredNoted: false, seenAt: Date.now() };
    this.conn = conn;
    this.setState(this.failures === 0 && this.lostAt === undefined ? 'connecting' : 'reconnecting');
    this.timers.set('connect', this.o.connectTimeoutMs, () => {
      this.fail(conn, l10n.t('no answer to subscribe within {0}', formatMs(this.o.connectTimeoutMs)));
    });
    ws.on('open', () => {
      if (this.conn !== conn) return;
      this.armWatchdog(conn);
      this.timers.every('ping', this.o.pingIntervalMs, () => {
        if (this.conn === conn && ws.readyState === WS_OPEN) ws.ping();
      });
      ws.send(JSON.stringify(subscribeRequest(this.target, conn.requestId)), (err) => {
        if (err) this.fail(conn, l10n.t('cannot send subscribe: {0}', err.message));
      });
    });
    ws.on('message', (data: WebSocket.RawData) => {
      if (this.conn !== conn) return;
      conn.seenAt = Date.now();
      try {
        this.onMessage(conn, data);
      } catch (err) {
        this.log('error', `event watch: ${errorMessage(err)}`);
      }
    });
    ws.on('pong', () => {
      if (this.conn === conn) conn.seenAt = Date.now();
    });
    ws.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        this.oversize++;
        const sentence = l10n.t('the server sent a message larger than {0}; it was dropped with the connection', formatBytes(this.o.maxFrameBytes));
        this.note(sentence);
        return this.fail(conn, sentence);
      }
      this.fail(conn, describeSocketError(err));
    });
    ws.on('close', (code: number, reason: Buffer) => this.fail(conn, describeClose(code, reason.toString())));
  }

  private onMessage(conn: Connection, data: WebSocket.RawData): void {
    const bytes = rawLength(data);
    const text = rawToString(data);
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.ignore(conn, l10n.t('ignored a message that is not JSON ({0})', formatBytes(bytes)));
    }
    if (!isRecord(msg)) return this.ignore(conn, l10n.t('ignored a message that is not a JSON-RPC object'));
    const t = this.target;
    const ours = msg.id === conn.requestId || msg.id === String(conn.requestId);
    if (ours && msg.error !== undefined) {
      const sentence = describeRpcError(msg.error);
      this.note(conn.subscribed ? sentence : l10n.t('subscribe refused: {0}', sentence));
      return this.fail(conn, sentence);
    }
    if (t.kind === 'comet') {
      if (!ours) return this.ignore(conn, l10n.t('ignored a message for another request'));
      if (!isRecord(msg.result)) return this.ignore(conn, l10n.t('ignored a message without a result'));
      if (msg.result.data === undefined) {
        if (!conn.subscribed) this.onSubscribed(conn);
        return;
      }
      if (!conn.subscribed) this.onSubscribed(conn); // an event proves the subscription
      return this.accept(bytes, text, msg.result, () => readCometEvent(msg.result as Record<string, unknown>, this.preferredKeys));
    }
    if (ours) {
      if (typeof msg.result !== 'string' || conn.subscribed) return this.ignore(conn, l10n.t('ignored an answer that is not a subscription id'));
      conn.subscriptionId = msg.result;
      return this.onSubscribed(conn);
    }
    const params = isRecord(msg.params) ? msg.params : undefined;
    if (msg.method !== 'eth_subscription' || !params || !conn.subscribed || params.subscription !== conn.subscriptionId) {
      return this.ignore(conn, l10n.t('ignored a message for another subscription'));
    }
    this.accept(bytes, text, params.result, () => readEvmNotification(t.subscription, params.result, this.options.decodeLog));
  }

  private onSubscribed(conn: Connection): void {
    conn.subscribed = true;
    this.timers.clear('connect');
    this.failures = 0;
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

  private ignore(conn: Connection, sentence: string): void {
    this.ignored++;
    if (conn.ignoredNoted) return; // a flood costs a count, not a log line or a stream line each
    conn.ignoredNoted = true; // one line per connection; the count is in the snapshot
    this.log('debug', `event watch: ${sentence}`);
    this.note(sentence);
  }

  private note(sentence: string): void {
    if (sentence === this.lastNote) return; // a repeated failure adds no line per attempt
    this.lastNote = sentence;
    this.stream.push('note', { summary: sentence }, 0);
  }

  /** Fails the connection after 2.5 ping intervals without a message or a pong (one timer, re-armed only when it fires). */
  private armWatchdog(conn: Connection, wait?: number): void {
    const ms = Math.round(2.5 * this.o.pingIntervalMs);
    if (wait === undefined) conn.seenAt = Date.now();
    this.timers.set('watchdog', wait ?? ms, () => {
      if (this.conn !== conn) return;
      const idle = Date.now() - conn.seenAt;
      if (idle < ms) return this.armWatchdog(conn, ms - idle);
      this.fail(conn, l10n.t('no message or pong from the server for {0}', formatMs(ms)));
    });
  }

  private fail(conn: Connection, reason: string): void {
    if (this.disposed || conn.finished || this.conn !== conn) return;
    if (conn.subscribed && this.lostAt === undefined) this.lostAt = Date.now();
    this.dropConnection();
    this.failures++;
    const delay = backoffMs(this.failures, this.o.maxBackoffMs);
    this.log('info', `event watch: ${reason}; next attempt in ${delay} ms`);
    this.timers.set('reconnect', delay, () => this.connect());
    this.setState('reconnecting', reason);
  }

  private dropConnection(): void {
    for (const key of ['connect', 'ping', 'watchdog'] as const) this.timers.clear(key);
    const conn = this.conn;
    this.conn = undefined;
    if (!conn) return;
    conn.finished = true;
    closeSocket(conn.ws, (message) => this.log('debug', message));
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
