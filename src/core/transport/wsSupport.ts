// What the long-lived WebSocket clients share (the status bar's height tracker and the event
// console's watches): named timers that one call clears, exponential backoff with jitter, the
// reading of a raw message, and one sentence for each way a socket or a subscription ends.
// Moved out of core/chain/heightTracker.ts unchanged, so both clients behave alike.

import type WebSocket from 'ws';
import * as l10n from '../base/l10n';
import { errorMessage } from '../base/errors';
import { WS_OPEN } from './lazy';
import { MAX_SERVER_TEXT, clean, isObject } from '../base/text';

/** Named timers; setting a key replaces its previous timer. */
export class Timers<K extends string = string> {
  private readonly handles = new Map<K, { handle: NodeJS.Timeout; repeat: boolean }>();

  set(key: K, ms: number, fn: () => void): void {
    this.clear(key);
    const handle = setTimeout(
      () => {
        this.handles.delete(key);
        fn();
      },
      Math.max(0, ms),
    );
    this.handles.set(key, { handle, repeat: false });
  }

  every(key: K, ms: number, fn: () => void): void {
    this.clear(key);
    this.handles.set(key, { handle: setInterval(fn, Math.max(1, ms)), repeat: true });
  }

  clear(key: K): void {
    const t = this.handles.get(key);
    if (!t) return;
    if (t.repeat) clearInterval(t.handle);
    else clearTimeout(t.handle);
    this.handles.delete(key);
  }

  clearAll(): void {
    for (const key of [...this.handles.keys()]) this.clear(key);
  }
}

export const INITIAL_BACKOFF_MS = 500;

/** The wait before attempt `failures + 1`: ~500 ms doubling up to `maxMs`, jittered by ±25 %. */
/** Closes a socket for good: its listeners removed, a close frame when open, then terminated (a failure is only logged). */
export function closeSocket(ws: WebSocket, log: (message: string) => void): void {
  ws.removeAllListeners();
  ws.on('error', () => undefined); // terminate() during the handshake emits an error
  try {
    if (ws.readyState === WS_OPEN) ws.close(1000);
    ws.terminate();
  } catch (err) {
    log(`closing the socket: ${errorMessage(err)}`);
  }
}

export function backoffMs(failures: number, maxMs: number): number {
  const base = Math.min(maxMs, INITIAL_BACKOFF_MS * 2 ** Math.min(failures - 1, 20));
  const jittered = base * (0.75 + Math.random() * 0.5);
  return Math.round(Math.min(maxMs, jittered));
}

export function rawToString(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

export function rawLength(data: WebSocket.RawData): number {
  if (Array.isArray(data)) return data.reduce((n, piece) => n + piece.length, 0);
  return data.byteLength;
}

/** A server's text in one line of at most MAX_SERVER_TEXT characters, its true length said when cut; a long one is never scanned whole. */
function serverText(s: string): string {
  return s.length > 4 * MAX_SERVER_TEXT
    ? l10n.t('{0}… ({1} characters)', clean(s.slice(0, MAX_SERVER_TEXT), MAX_SERVER_TEXT), s.length)
    : clean(s, MAX_SERVER_TEXT);
}

/** One sentence for a JSON-RPC error on a subscription (limits, cancellation). */
export function describeRpcError(error: unknown): string {
  if (!isObject(error)) return l10n.t('subscription failed: {0}', JSON.stringify(error));
  // The server's words in one bounded line: a 16 MB `data` repeating "subscription was cancelled
  // (reason: " without its ")" kept an unbounded pattern scanning to the end from every repeat (hours).
  const data = typeof error.data === 'string' ? serverText(error.data) : '';
  const message = typeof error.message === 'string' ? serverText(error.message) : '';
  // Read only in a text short enough to be whole (a cut one ends with its length in brackets).
  const cancelled = data.length <= MAX_SERVER_TEXT ? /subscription was cancell?ed \(reason: (.*)\)/i.exec(data) : null;
  if (cancelled) return l10n.t('subscription cancelled: {0}', cancelled[1]);
  if (data) return data; // e.g. "max_subscription_clients 100 reached"
  return l10n.t('subscription failed: {0} ({1})', message || l10n.t('error'), String(error.code));
}

export function describeSocketError(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  switch (code) {
    case 'ECONNREFUSED':
      return l10n.t('connection refused');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return l10n.t('DNS lookup failed ({0})', code);
    case 'ECONNRESET':
      return l10n.t('connection reset');
    case 'ETIMEDOUT':
      return l10n.t('connection timed out');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return l10n.t('host unreachable');
  }
  // Matched on the library's own (English, never translated) words.
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return l10n.t('TLS error: {0}', err.message);
  if (/handshake has timed out/i.test(err.message)) return l10n.t('WebSocket handshake timed out');
  const status = /Unexpected server response: (\d+)/.exec(err.message);
  if (status) return l10n.t('server answered HTTP {0} instead of a WebSocket', status[1]);
  return err.message || code || l10n.t('socket error');
}

export function describeClose(code: number, reason: string): string {
  if (code === 1006) return l10n.t('connection lost (no close frame)');
  return reason ? l10n.t('closed by the server ({0}: {1})', code, reason) : l10n.t('closed by the server ({0})', code);
}

export function formatMs(ms: number): string {
  return ms < 10_000 ? l10n.t('{0} ms', Math.round(ms)) : l10n.t('{0} s', Math.round(ms / 1000));
}
