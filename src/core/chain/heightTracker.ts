// Live block height: a CometBFT WebSocket subscription to NewBlockHeader, with its own pings,
// a watchdog for sockets that die silently, stall detection tied to the observed block
// interval, reconnection with exponential backoff and jitter, and a polling fallback on
// `/status` while the socket is unavailable. Never imports vscode; the status bar builds on
// `snapshot()` and `onDidChange`.
//
// Each socket attempt is a `Connection`; every callback checks that its connection is still
// the current one, so a late event from an abandoned socket can never change the state.
// Every timer lives in one registry, so `dispose()` can clear them all.

import type WebSocket from 'ws';
import { WS_OPEN, openWebSocket } from '../transport/lazy';
import * as l10n from '../base/l10n';
import { StatusPoller } from './statusPoller';
import { HeightRecord, type HeightSnapshot, type HeightTrackerOptions, type TrackerState, readSubscriptionMessage } from './heightRecord';
import { redactUrl } from '../secrets/redact';
import { errorMessage } from '../base/errors';
import { Timers, backoffMs, closeSocket, describeClose, describeRpcError, describeSocketError, formatMs, rawToString } from '../transport/wsSupport';
import { Listeners } from '../base/listeners';

export type { HeightSnapshot, HeightTrackerOptions, TrackerState } from './heightRecord';

const SUBSCRIBE_QUERY = "tm.event='NewBlockHeader'";
/** Consecutive socket failures after which the tracker falls back to polling. */
const FAILURES_BEFORE_POLLING = 2;
/** NewBlockHeader events are a few KiB; refuse anything absurd instead of buffering it. */
const MAX_PAYLOAD = 4 * 1024 * 1024;

interface Connection {
  readonly ws: WebSocket;
  readonly subscribeId: number;
  subscribeSent: boolean;
  subscribed: boolean;
  /** Set once the failure has been handled, so 'error' then 'close' count once. */
  finished: boolean;
  /** The stall period already elapsed once ('stalled' shown); the next one reconnects. */
  stalled: boolean;
}

type TimerKey = 'reconnect' | 'connect' | 'ping' | 'watchdog' | 'stall';

type FailureKind = 'connection' | 'subscription';

export class HeightTracker {
  private readonly opts: Required<Omit<HeightTrackerOptions, 'wsUrl' | 'fetchStatus' | 'headers' | 'log'>>;
  private readonly log: NonNullable<HeightTrackerOptions['log']>;
  private readonly timers = new Timers<TimerKey>();
  private readonly listeners = new Listeners<HeightSnapshot>((message) => this.log('error', message), 'height listener');

  private state: TrackerState = 'stopped';
  /** The heights seen: the highest, when, the gaps it covered, the observed block interval. */
  private readonly record: HeightRecord;
  private socketDetail?: string;
  private reconnectAt?: number;

  private started = false;
  private disposed = false;
  private conn?: Connection;
  private nextRequestId = 0;
  private consecutiveFailures = 0;
  private readonly poller: StatusPoller;

  constructor(private readonly options: HeightTrackerOptions) {
    this.opts = {
      pingIntervalMs: options.pingIntervalMs ?? 20_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      minStallMs: options.minStallMs ?? 30_000,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      defaultBlockIntervalMs: options.defaultBlockIntervalMs ?? 5_000,
    };
    this.log = options.log ?? (() => undefined);
    this.record = new HeightRecord((message) => this.log('debug', message));
    this.poller = new StatusPoller({
      fetchStatus: (signal) => this.options.fetchStatus!(signal),
      record: this.record,
      timeoutMs: this.opts.connectTimeoutMs,
      defaultIntervalMs: this.opts.defaultBlockIntervalMs,
      isDisposed: () => this.disposed,
      log: (level, message) => this.log(level, message),
      changed: () => this.emit(),
    });
  }

  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    if (this.options.wsUrl) {
      this.connect();
    } else if (this.options.fetchStatus) {
      this.socketDetail = l10n.t('no WebSocket address');
      this.startPolling();
    } else {
      this.setState('stopped', l10n.t('no WebSocket or status address to track'));
    }
  }

  snapshot(): HeightSnapshot {
    const s = this.record.snapshot(this.state);
    const detail = this.detail();
    if (detail !== undefined) s.detail = detail;
    if (this.state === 'polling' && this.poller.error) s.pollFailed = true;
    if (this.reconnectAt !== undefined) s.reconnectAt = this.reconnectAt;
    return s;
  }

  onDidChange(listener: (s: HeightSnapshot) => void): { dispose(): void } {
    return this.listeners.add(listener);
  }

  /** User-triggered: drop the socket, reset the backoff and connect now. */
  reconnect(): void {
    if (this.disposed) return;
    if (!this.started) return this.start();
    if (!this.options.wsUrl) {
      if (this.poller.active) this.poller.pollNow();
      return;
    }
    this.log('info', 'reconnect requested');
    this.dropConnection();
    this.poller.stop();
    this.consecutiveFailures = 0;
    this.socketDetail = undefined;
    this.connect('connecting');
  }

  /** Closes the socket, clears every timer and aborts a poll in flight. Emits nothing. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.timers.clearAll();
    this.dropConnection();
    this.poller.stop();
    this.reconnectAt = undefined;
    this.state = 'stopped';
    this.listeners.clear();
  }

  // ---- socket ---------------------------------------------------------------------------

  private connect(stateWhileConnecting?: TrackerState): void {
    if (this.disposed || !this.options.wsUrl) return;
    this.timers.clear('reconnect');
    this.reconnectAt = undefined;
    const url = this.options.wsUrl;
    let ws: WebSocket;
    try {
      ws = openWebSocket(url, {
        headers: this.options.headers,
        handshakeTimeout: this.opts.connectTimeoutMs,
        maxPayload: MAX_PAYLOAD,
      });
    } catch (err) {
      // A malformed address: retrying cannot help, so poll if possible, else stop.
      const reason = l10n.t('invalid WebSocket address: {0}', errorMessage(err).split(url).join(redactUrl(url)));
      this.log('error', reason);
      this.socketDetail = reason;
      if (this.options.fetchStatus) this.startPolling();
      else this.setState('stopped');
      return;
    }
    const conn: Connection = {
      ws,
      subscribeId: ++this.nextRequestId,
      subscribeSent: false,
      subscribed: false,
      finished: false,
      stalled: false,
    };
    this.conn = conn;
    this.log('debug', `connecting to ${redactUrl(url)}`);
    if (!this.poller.active) {
      const first = this.state === 'stopped' || this.state === 'connecting';
      this.setState(stateWhileConnecting ?? (first ? 'connecting' : 'reconnecting'));
    } else {
      this.emit(); // reconnectAt cleared
    }

    this.timers.set('connect', this.opts.connectTimeoutMs, () => {
      this.fail(
        conn,
        'connection',
        conn.subscribeSent
          ? l10n.t('no answer to subscribe within {0}', formatMs(this.opts.connectTimeoutMs))
          : l10n.t('connection timed out after {0}', formatMs(this.opts.connectTimeoutMs)),
      );
    });

    ws.on('open', () => {
      if (this.conn !== conn) return;
      this.log('debug', 'socket open; subscribing');
      this.armWatchdog(conn);
      this.timers.every('ping', this.opts.pingIntervalMs, () => {
        if (this.conn === conn && ws.readyState === WS_OPEN) ws.ping();
      });
      this.subscribe(conn);
    });
    ws.on('message', (data: WebSocket.RawData) => {
      if (this.conn !== conn) return;
      this.armWatchdog(conn);
      this.onMessage(conn, data);
    });
    ws.on('pong', () => {
      if (this.conn === conn) this.armWatchdog(conn);
    });
    ws.on('error', (err: Error) => {
      this.fail(conn, 'connection', describeSocketError(err));
    });
    ws.on('close', (code: number, reason: Buffer) => {
      this.fail(conn, 'connection', describeClose(code, reason.toString()));
    });
  }

  private subscribe(conn: Connection): void {
    if (conn.subscribeSent) return; // never two subscriptions on one socket
    conn.subscribeSent = true;
    const request = { jsonrpc: '2.0', method: 'subscribe', id: conn.subscribeId, params: { query: SUBSCRIBE_QUERY } };
    conn.ws.send(JSON.stringify(request), (err) => {
      if (err) this.fail(conn, 'connection', l10n.t('cannot send subscribe: {0}', err.message));
    });
  }

  private onMessage(conn: Connection, data: WebSocket.RawData): void {
    const text = rawToString(data);
    const msg = readSubscriptionMessage(text, conn.subscribeId);
    if (msg.kind === 'ignored') {
      this.log('debug', `ignored ${msg.what}: ${text.slice(0, 200)}`);
      return;
    }
    if (msg.kind === 'error') return this.fail(conn, 'subscription', describeRpcError(msg.error));
    if (msg.kind === 'ack') {
      if (!conn.subscribed) this.onSubscribed(conn);
      return;
    }
    // An event proves the subscription even if its answer was lost or reordered.
    if (!conn.subscribed) this.onSubscribed(conn);
    conn.stalled = false;
    this.armStall(conn);
    const changed = this.record.accept(msg.height, msg.time, 'websocket');
    if (this.state === 'stalled') this.setState('live');
    else if (changed) this.emit();
  }

  private onSubscribed(conn: Connection): void {
    conn.subscribed = true;
    this.timers.clear('connect');
    this.consecutiveFailures = 0;
    this.socketDetail = undefined;
    this.poller.stop();
    this.record.source = 'websocket';
    this.log('info', `subscribed to new blocks on ${redactUrl(this.options.wsUrl ?? '')}`);
    this.armStall(conn);
    this.setState('live');
  }

  /** No message and no pong for this long: the socket is dead even without a close. */
  private armWatchdog(conn: Connection): void {
    const ms = Math.max(2 * this.opts.pingIntervalMs, this.stallThresholdMs());
    this.timers.set('watchdog', ms, () => {
      this.log('warn', `no message or pong for ${ms} ms; dropping the socket`);
      this.fail(conn, 'connection', l10n.t('no message or pong from the server for {0}', formatMs(ms)));
    });
  }

  /** No new block for the stall threshold: 'stalled'; a second period: reconnect. */
  private armStall(conn: Connection): void {
    const ms = this.stallThresholdMs();
    this.timers.set('stall', ms, () => {
      if (this.conn !== conn || this.disposed) return;
      if (!conn.stalled) {
        conn.stalled = true;
        this.log('warn', `no new block for ${ms} ms`);
        this.armStall(conn);
        this.setState('stalled', l10n.t('no new block for {0}', formatMs(ms)));
      } else {
        this.fail(conn, 'connection', l10n.t('no new block for {0}; reconnecting', formatMs(2 * ms)));
      }
    });
  }

  /**
   * Handles the end of a socket attempt (once per connection): drop it, then poll or wait for
   * the next attempt on the backoff schedule.
   */
  private fail(conn: Connection, kind: FailureKind, reason: string): void {
    if (this.disposed || conn.finished || this.conn !== conn) return;
    this.dropConnection();
    this.consecutiveFailures++;
    this.socketDetail = reason;
    this.log(kind === 'subscription' ? 'warn' : 'info', `socket: ${reason}`);
    const delay = this.backoffMs(this.consecutiveFailures);
    this.reconnectAt = Date.now() + delay;
    this.timers.set('reconnect', delay, () => this.connect());
    if (this.options.fetchStatus && (kind === 'subscription' || this.consecutiveFailures >= FAILURES_BEFORE_POLLING)) {
      if (!this.poller.active) this.startPolling();
      else this.emit();
    } else if (this.poller.active) {
      this.emit();
    } else {
      this.setState('reconnecting');
    }
  }

  /** Closes the current socket (close frame when open, then terminate) and its timers. */
  private dropConnection(): void {
    this.timers.clear('connect');
    this.timers.clear('ping');
    this.timers.clear('watchdog');
    this.timers.clear('stall');
    const conn = this.conn;
    this.conn = undefined;
    if (!conn) return;
    conn.finished = true;
    closeSocket(conn.ws, (message) => this.log('debug', message));
  }

  private backoffMs(failures: number): number {
    return backoffMs(failures, this.opts.maxBackoffMs);
  }

  // ---- polling --------------------------------------------------------------------------

  private startPolling(): void {
    if (this.poller.active || !this.options.fetchStatus || this.disposed) return;
    this.record.source = 'polling';
    this.log('info', `polling status (${this.socketDetail ?? 'no socket'})`);
    this.poller.start();
    this.setState('polling');
    this.poller.pollNow();
  }

  // ---- heights and state ----------------------------------------------------------------

  private stallThresholdMs(): number {
    return Math.max(3 * (this.record.observedIntervalMs() ?? this.opts.defaultBlockIntervalMs), this.opts.minStallMs);
  }

  private detail(): string | undefined {
    if (this.state === 'polling' && this.poller.error) {
      return this.socketDetail
        ? l10n.t('{0}; status poll failed: {1}', this.socketDetail, this.poller.error)
        : l10n.t('status poll failed: {0}', this.poller.error);
    }
    return this.socketDetail;
  }

  private setState(state: TrackerState, detail?: string): void {
    if (detail !== undefined) this.socketDetail = detail;
    if (state === 'live') {
      this.reconnectAt = undefined;
      this.socketDetail = undefined;
    }
    this.state = state;
    this.emit();
  }

  private emit(): void {
    if (this.disposed) return;
    this.listeners.emit(this.snapshot());
  }
}
