// One reconnecting WebSocket subscription, shared by the status bar's height tracker
// (core/chain/heightTracker.ts) and the event console's watches (core/events/watch.ts): connect
// under a deadline, send the subscribe request once per socket, client pings and a watchdog for
// sockets that die silently, exponential backoff with jitter after a failure, resubscription on
// the next socket, and one clean drop. The callers differ only in the messages: the handler
// builds the subscribe request and reads what arrives (calling subscribed() or fail()).
//
// Each socket attempt is one connection; a callback of an abandoned connection changes nothing.
// Every timer lives in one registry, so dispose() clears them all.

import type WebSocket from 'ws';
import * as l10n from '../base/l10n';
import { errorMessage } from '../base/errors';
import { Listeners } from '../base/listeners';
import { WS_OPEN, openWebSocket } from './lazy';
import { Timers, backoffMs, closeSocket, describeClose, describeSocketError, formatMs } from './wsSupport';

/** Opens a socket (the lazy `ws` by default; tests and hostile batteries pass their own). */
export type SocketOpener = (url: string, options: WebSocket.ClientOptions) => WebSocket;

/** idle: not started; connecting: a socket is opening or its subscribe is unanswered; waiting: a failure, the next attempt is scheduled. */
export type SubscriptionState = 'idle' | 'connecting' | 'live' | 'waiting' | 'stopped';

/** connection: the socket failed or went silent; subscription: the server refused or cancelled it. */
export type FailureKind = 'connection' | 'subscription';

export interface SubscriptionOptions {
  url: string;
  headers?: Record<string, string>;
  open?: SocketOpener;
  /** A larger frame is refused and the socket dropped. */
  maxPayload: number;
  perMessageDeflate?: boolean;
  connectTimeoutMs: number;
  pingIntervalMs: number;
  maxBackoffMs: number;
  /** How long without any message or pong before the socket counts as dead (read whenever the watchdog is armed). */
  watchdogMs: () => number;
  log: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
}

/** What differs between subscriptions: the request and the reading of messages. */
export interface SubscriptionHandler {
  /** The subscribe request sent on each new socket, with this attempt's request id. */
  subscribeMessage(id: number): string;
  /** A message on the current socket: call subscribed() once it proves the subscription, fail() when it refuses it. */
  message(data: WebSocket.RawData, requestId: number): void;
  /** A socket is opening (`reconnecting`: not the first attempt since start or the last reconnect()). */
  connecting(reconnecting: boolean): void;
  /** The subscription is answered (or an event proved it). */
  live(): void;
  /** The attempt ended; the next one is scheduled at `reconnectAt` (`wasLive`: it had been subscribed). */
  failed(reason: string, kind: FailureKind, wasLive: boolean): void;
  /** The address cannot be opened at all (retrying cannot help); nothing is scheduled. */
  openFailed(reason: string): void;
  /** Each time a socket is dropped (the caller clears its own per-socket timers). */
  dropped?(): void;
  /** A sentence for a socket error, when the caller has a better one (else describeSocketError). */
  socketError?(err: Error & { code?: string }): string | undefined;
}

interface Connection {
  readonly ws: WebSocket;
  readonly requestId: number;
  subscribeSent: boolean;
  subscribed: boolean;
  /** Set once its end has been handled, so 'error' then 'close' count once. */
  finished: boolean;
  /** Date.now() of the last message or pong (the watchdog reads it: no timer reset per message). */
  seenAt: number;
}

type TimerKey = 'connect' | 'reconnect' | 'ping' | 'watchdog';

export class Subscription {
  private readonly timers = new Timers<TimerKey>();
  private readonly listeners: Listeners<SubscriptionState>;
  private readonly open: SocketOpener;
  private conn?: Connection;
  private nextId = 0;
  private current: SubscriptionState = 'idle';
  private disposed = false;
  /** Consecutive failed attempts (0 once subscribed). */
  failures = 0;
  /** When the next attempt is due (Date.now() scale), while one is scheduled. */
  reconnectAt?: number;

  constructor(
    private readonly o: SubscriptionOptions,
    private readonly handler: SubscriptionHandler,
  ) {
    this.open = o.open ?? openWebSocket;
    this.listeners = new Listeners<SubscriptionState>((message) => o.log('error', message), 'subscription listener');
  }

  get state(): SubscriptionState {
    return this.current;
  }

  /** True while the current socket's subscription is answered. */
  get subscribed(): boolean {
    return this.conn?.subscribed === true;
  }

  onState(listener: (s: SubscriptionState) => void): { dispose(): void } {
    return this.listeners.add(listener);
  }

  start(): void {
    if (this.current === 'idle') this.connect();
  }

  /** Drops the socket, resets the backoff and connects now. */
  reconnect(): void {
    if (this.disposed) return;
    this.drop();
    this.failures = 0;
    this.connect();
  }

  /** Ends the current attempt (the handler's reading refused it, or it went stale) and schedules the next. */
  fail(reason: string, kind: FailureKind = 'connection'): void {
    if (this.conn) this.failConnection(this.conn, kind, reason);
  }

  /** The current socket's subscription is proven (its answer, or an event). */
  markSubscribed(): void {
    const conn = this.conn;
    if (!conn || conn.subscribed) return;
    conn.subscribed = true;
    this.timers.clear('connect');
    this.failures = 0;
    this.reconnectAt = undefined;
    this.setState('live');
    this.handler.live();
  }

  /** Closes the socket and clears every timer. Calls no handler. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.drop();
    this.timers.clearAll();
    this.reconnectAt = undefined;
    this.current = 'stopped';
    this.listeners.clear();
  }

  private connect(): void {
    if (this.disposed) return;
    this.timers.clear('reconnect');
    this.reconnectAt = undefined;
    const { url, connectTimeoutMs, pingIntervalMs } = this.o;
    let ws: WebSocket;
    try {
      ws = this.open(url, {
        headers: this.o.headers,
        handshakeTimeout: connectTimeoutMs,
        maxPayload: this.o.maxPayload,
        ...(this.o.perMessageDeflate === false ? { perMessageDeflate: false } : {}),
      });
    } catch (err) {
      this.setState('stopped');
      this.handler.openFailed(errorMessage(err));
      return;
    }
    const reconnecting = this.failures > 0;
    const conn: Connection = { ws, requestId: ++this.nextId, subscribeSent: false, subscribed: false, finished: false, seenAt: Date.now() };
    this.conn = conn;
    this.setState('connecting');
    this.handler.connecting(reconnecting);
    this.timers.set('connect', connectTimeoutMs, () => {
      this.failConnection(
        conn,
        'connection',
        conn.subscribeSent
          ? l10n.t('no answer to subscribe within {0}', formatMs(connectTimeoutMs))
          : l10n.t('connection timed out after {0}', formatMs(connectTimeoutMs)),
      );
    });
    ws.on('open', () => {
      if (this.conn !== conn) return;
      this.o.log('debug', 'socket open; subscribing');
      this.armWatchdog(conn);
      this.timers.every('ping', pingIntervalMs, () => {
        if (this.conn === conn && ws.readyState === WS_OPEN) ws.ping();
      });
      if (conn.subscribeSent) return; // never two subscriptions on one socket
      conn.subscribeSent = true;
      ws.send(this.handler.subscribeMessage(conn.requestId), (err) => {
        if (err) this.failConnection(conn, 'connection', l10n.t('cannot send subscribe: {0}', err.message));
      });
    });
    ws.on('message', (data: WebSocket.RawData) => {
      if (this.conn !== conn) return;
      conn.seenAt = Date.now();
      try {
        this.handler.message(data, conn.requestId);
      } catch (err) {
        this.o.log('error', `subscription: ${errorMessage(err)}`);
      }
    });
    ws.on('pong', () => {
      if (this.conn === conn) conn.seenAt = Date.now();
    });
    ws.on('error', (err: Error & { code?: string }) => {
      if (this.conn !== conn) return;
      this.failConnection(conn, 'connection', this.handler.socketError?.(err) ?? describeSocketError(err));
    });
    ws.on('close', (code: number, reason: Buffer) => this.failConnection(conn, 'connection', describeClose(code, reason.toString())));
  }

  /** Fails the connection after watchdogMs() without a message or a pong (one timer, re-armed only when it fires). */
  private armWatchdog(conn: Connection, wait?: number): void {
    const ms = this.o.watchdogMs();
    if (wait === undefined) conn.seenAt = Date.now();
    this.timers.set('watchdog', wait ?? ms, () => {
      if (this.conn !== conn) return;
      const limit = this.o.watchdogMs();
      const idle = Date.now() - conn.seenAt;
      if (idle < limit) return this.armWatchdog(conn, limit - idle);
      this.o.log('warn', `no message or pong for ${limit} ms; dropping the socket`);
      this.failConnection(conn, 'connection', l10n.t('no message or pong from the server for {0}', formatMs(limit)));
    });
  }

  private failConnection(conn: Connection, kind: FailureKind, reason: string): void {
    if (this.disposed || conn.finished || this.conn !== conn) return;
    const wasLive = conn.subscribed;
    this.drop();
    this.failures++;
    const delay = backoffMs(this.failures, this.o.maxBackoffMs);
    this.reconnectAt = Date.now() + delay;
    this.timers.set('reconnect', delay, () => this.connect());
    this.setState('waiting');
    this.handler.failed(reason, kind, wasLive);
  }

  /** Closes the current socket (close frame when open, then terminate) and its timers. */
  private drop(): void {
    for (const key of ['connect', 'ping', 'watchdog'] as const) this.timers.clear(key);
    const conn = this.conn;
    this.conn = undefined;
    if (!conn) return;
    conn.finished = true;
    this.handler.dropped?.();
    closeSocket(conn.ws, (message) => this.o.log('debug', message));
  }

  private setState(state: SubscriptionState): void {
    if (state === this.current) return;
    this.current = state;
    this.listeners.emit(state);
  }
}
