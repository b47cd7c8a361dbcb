// Live block height: a CometBFT WebSocket subscription to NewBlockHeader (the one reconnecting
// subscription of core/transport/subscription.ts: pings, watchdog, backoff with jitter,
// resubscription), stall detection tied to the observed block interval, and a polling fallback
// on `/status` while the socket is unavailable. Never imports vscode; the status bar builds on
// `snapshot()` and `onDidChange`. Only the messages and the states shown are this file's.

import type WebSocket from 'ws';
import * as l10n from '../base/l10n';
import { StatusPoller } from './statusPoller';
import { HeightRecord, type HeightSnapshot, type HeightTrackerOptions, type TrackerState, readSubscriptionMessage } from './heightRecord';
import { redactUrl } from '../secrets/redact';
import { Timers, describeRpcError, formatMs, rawToString } from '../transport/wsSupport';
import { type FailureKind, Subscription } from '../transport/subscription';
import { NEW_BLOCK_QUERY, cometSubscribe } from '../transport/jsonRpc';
import { Listeners } from '../base/listeners';

export type { HeightSnapshot, HeightTrackerOptions, TrackerState } from './heightRecord';

/** Consecutive socket failures after which the tracker falls back to polling. */
const FAILURES_BEFORE_POLLING = 2;
/** NewBlockHeader events are a few KiB; refuse anything absurd instead of buffering it. */
const MAX_PAYLOAD = 4 * 1024 * 1024;

export class HeightTracker {
  private readonly opts: Required<Omit<HeightTrackerOptions, 'wsUrl' | 'fetchStatus' | 'headers' | 'log'>>;
  private readonly log: NonNullable<HeightTrackerOptions['log']>;
  private readonly timers = new Timers<'stall'>();
  private readonly listeners = new Listeners<HeightSnapshot>((message) => this.log('error', message), 'height listener');

  private state: TrackerState = 'stopped';
  /** The heights seen: the highest, when, the gaps it covered, the observed block interval. */
  private readonly record: HeightRecord;
  private socketDetail?: string;

  private started = false;
  private disposed = false;
  /** The socket's subscription; undefined without a WebSocket address. */
  private readonly sub?: Subscription;
  /** The stall period already elapsed once on this socket ('stalled' shown); the next one reconnects. */
  private stalled = false;
  /** The state shown while the next socket opens (a user's reconnect shows 'connecting'). */
  private connectingAs?: TrackerState;
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
    const url = options.wsUrl;
    if (url) {
      this.sub = new Subscription(
        {
          url,
          headers: options.headers,
          maxPayload: MAX_PAYLOAD,
          connectTimeoutMs: this.opts.connectTimeoutMs,
          pingIntervalMs: this.opts.pingIntervalMs,
          maxBackoffMs: this.opts.maxBackoffMs,
          // No message and no pong for this long: the socket is dead even without a close.
          watchdogMs: () => Math.max(2 * this.opts.pingIntervalMs, this.stallThresholdMs()),
          log: (level, message) => this.log(level, message),
        },
        {
          subscribeMessage: (id) => cometSubscribe(NEW_BLOCK_QUERY, id),
          message: (data, id) => this.onMessage(data, id),
          connecting: () => this.onConnecting(url),
          live: () => this.onSubscribed(url),
          failed: (reason, kind) => this.onFailed(reason, kind),
          openFailed: (reason) => this.onOpenFailed(url, reason),
          dropped: () => this.timers.clear('stall'),
        },
      );
    }
  }

  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    if (this.sub) {
      this.sub.start();
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
    const reconnectAt = this.sub?.reconnectAt;
    if (reconnectAt !== undefined && this.state !== 'live') s.reconnectAt = reconnectAt;
    return s;
  }

  onDidChange(listener: (s: HeightSnapshot) => void): { dispose(): void } {
    return this.listeners.add(listener);
  }

  /** User-triggered: drop the socket, reset the backoff and connect now. */
  reconnect(): void {
    if (this.disposed) return;
    if (!this.started) return this.start();
    if (!this.sub) {
      if (this.poller.active) this.poller.pollNow();
      return;
    }
    this.log('info', 'reconnect requested');
    this.poller.stop();
    this.socketDetail = undefined;
    this.connectingAs = 'connecting';
    this.sub.reconnect();
  }

  /** Closes the socket, clears every timer and aborts a poll in flight. Emits nothing. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.timers.clearAll();
    this.sub?.dispose();
    this.poller.stop();
    this.state = 'stopped';
    this.listeners.clear();
  }

  // ---- the subscription's messages and ends ------------------------------------------------

  private onConnecting(url: string): void {
    this.stalled = false;
    this.log('debug', `connecting to ${redactUrl(url)}`);
    const as = this.connectingAs;
    this.connectingAs = undefined;
    if (!this.poller.active) {
      const first = this.state === 'stopped' || this.state === 'connecting';
      this.setState(as ?? (first ? 'connecting' : 'reconnecting'));
    } else {
      this.emit(); // reconnectAt cleared
    }
  }

  private onOpenFailed(url: string, message: string): void {
    // A malformed address: retrying cannot help, so poll if possible, else stop.
    const reason = l10n.t('invalid WebSocket address: {0}', message.split(url).join(redactUrl(url)));
    this.log('error', reason);
    this.socketDetail = reason;
    if (this.options.fetchStatus) this.startPolling();
    else this.setState('stopped');
  }

  private onMessage(data: WebSocket.RawData, requestId: number): void {
    const sub = this.sub!;
    const text = rawToString(data);
    const msg = readSubscriptionMessage(text, requestId);
    if (msg.kind === 'ignored') {
      this.log('debug', `ignored ${msg.what}: ${text.slice(0, 200)}`);
      return;
    }
    if (msg.kind === 'error') return sub.fail(describeRpcError(msg.error), 'subscription');
    // An event proves the subscription even if its answer was lost or reordered.
    sub.markSubscribed();
    if (msg.kind === 'ack') return;
    this.stalled = false;
    this.armStall();
    const changed = this.record.accept(msg.height, msg.time, 'websocket');
    if (this.state === 'stalled') this.setState('live');
    else if (changed) this.emit();
  }

  private onSubscribed(url: string): void {
    this.socketDetail = undefined;
    this.poller.stop();
    this.record.source = 'websocket';
    this.log('info', `subscribed to new blocks on ${redactUrl(url)}`);
    this.armStall();
    this.setState('live');
  }

  /** No new block for the stall threshold: 'stalled'; a second period: reconnect. */
  private armStall(): void {
    const ms = this.stallThresholdMs();
    this.timers.set('stall', ms, () => {
      if (this.disposed) return;
      if (!this.stalled) {
        this.stalled = true;
        this.log('warn', `no new block for ${ms} ms`);
        this.armStall();
        this.setState('stalled', l10n.t('no new block for {0}', formatMs(ms)));
      } else {
        this.sub?.fail(l10n.t('no new block for {0}; reconnecting', formatMs(2 * ms)));
      }
    });
  }

  /** The socket attempt ended (the subscription has scheduled the next): poll, or show the wait. */
  private onFailed(reason: string, kind: FailureKind): void {
    if (this.disposed) return;
    this.socketDetail = reason;
    this.log(kind === 'subscription' ? 'warn' : 'info', `socket: ${reason}`);
    const failures = this.sub?.failures ?? 0;
    if (this.options.fetchStatus && (kind === 'subscription' || failures >= FAILURES_BEFORE_POLLING)) {
      if (!this.poller.active) this.startPolling();
      else this.emit();
    } else if (this.poller.active) {
      this.emit();
    } else {
      this.setState('reconnecting');
    }
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
    if (state === 'live') this.socketDetail = undefined;
    this.state = state;
    this.emit();
  }

  private emit(): void {
    if (this.disposed) return;
    this.listeners.emit(this.snapshot());
  }
}
