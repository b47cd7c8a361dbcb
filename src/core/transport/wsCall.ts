// One exchange over a CometBFT WebSocket: send a JSON-RPC request and read its answer, or
// subscribe and collect N events (which arrive with the subscribe request's id), then close.

import type WebSocket from 'ws';
import { WS_OPEN, openWebSocket } from './lazy';
import { EndpointError, bodyPreview, networkError } from '../base/errors';
import { formatBytes } from '../base/numbers';
import { clean, isObject } from '../base/text';
import { describeRetryAfter, notJsonRpc, rpcErrorOf, statusLine } from './jsonRpc';
import * as l10n from '../base/l10n';
import { describeAddress } from './proxy';

export interface WsExchangeOptions {
  message: string;
  id: number;
  /** 0: one answer. N > 0: the subscribe answer, then N events with the same id. */
  collect: number;
  /** Sent before closing a subscription. */
  unsubscribe?: string;
  /** Bounds the connection and each wait for the next message of this request. */
  timeoutMs: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** The largest message accepted (at most, and by default, 16 MiB): a larger one ends the exchange. */
  maxMessageBytes?: number;
}

export interface WsExchange {
  /** Every message received, as received (raw JSON text). */
  messages: string[];
  bytes: number;
  elapsedMs: number;
  /** Milliseconds from the start to the open socket (DNS, TCP, TLS, upgrade), when it opened. */
  connectMs?: number;
  result?: unknown;
  error?: EndpointError;
}

const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** What one call or subscription keeps in all (every message is kept for the document): not every 16 MiB message. */
export const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
/** How long a closing handshake may take before the connection is dropped. */
const CLOSE_GRACE_MS = 1000;
/**
 * Messages that answer another request id are kept for the document up to this much; past it the
 * exchange stops (a fresh connection to a node gets none: a flood would otherwise hold the
 * request, and memory, for as long as it lasts).
 */
const MAX_OTHER_BYTES = 1024 * 1024;

export function wsExchange(url: string, options: WsExchangeOptions): Promise<WsExchange> {
  const target = describeAddress(url);
  const started = performance.now();
  const messages: string[] = [];
  const events: unknown[] = [];
  let bytes = 0;
  let acknowledged = false;
  let connectMs: number | undefined;

  return new Promise<WsExchange>((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const socket = openWebSocket(url, {
      handshakeTimeout: options.timeoutMs,
      headers: options.headers,
      maxPayload: Math.min(MAX_MESSAGE_BYTES, options.maxMessageBytes ?? MAX_MESSAGE_BYTES),
    });
    const finish = (result?: unknown, error?: EndpointError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (socket.readyState === WS_OPEN && options.unsubscribe && acknowledged) {
        socket.send(options.unsubscribe);
      }
      if (socket.readyState === WS_OPEN) {
        socket.close(1000);
        // A server that never answers the close frame is not waited for (ws would wait 30 s).
        setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
      } else socket.terminate();
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      resolve({ messages, bytes, elapsedMs: performance.now() - started, ...(connectMs !== undefined ? { connectMs } : {}), result, error });
    };
    const armTimer = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const seconds = options.timeoutMs / 1000;
        const message = !acknowledged
          ? l10n.t('No answer from {0} within {1} s.', target, seconds)
          : l10n.t('No event {0} of {1} from {2} within {3} s.', events.length + 1, options.collect, target, seconds);
        finish(undefined, new EndpointError('timeout', message));
      }, options.timeoutMs);
    };
    const onAbort = () => finish(undefined, new EndpointError('cancelled', l10n.both('WebSocket request to {0} was cancelled.', target)));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    armTimer();

    socket.on('open', () => {
      connectMs = performance.now() - started;
      socket.send(options.message);
    });
    let otherBytes = 0;
    socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      const size = Array.isArray(data) ? data.reduce((n, piece) => n + piece.length, 0) : data.byteLength;
      if (bytes + size > MAX_TOTAL_BYTES) {
        return finish(
          undefined,
          new EndpointError(
            'protocol',
            l10n.both(
              '{0} sent more than {1} in all over this WebSocket exchange; stopped after {2} message(s).',
              target,
              formatBytes(MAX_TOTAL_BYTES),
              messages.length,
            ),
          ),
        );
      }
      const text = data.toString();
      bytes += size;
      messages.push(text);
      let msg: unknown;
      try {
        msg = JSON.parse(text);
      } catch {
        const what = isBinary
          ? l10n.t('{0} sent a binary WebSocket message ({1}), not JSON text.', target, formatBytes(size))
          : l10n.t('{0} sent a WebSocket message that is not JSON: "{1}".', target, clean(bodyPreview(text, 80), 80));
        return finish(undefined, new EndpointError('parse', what));
      }
      if (!isObject(msg) || !('id' in msg || 'result' in msg || 'error' in msg)) {
        return finish(undefined, new EndpointError('protocol', l10n.both('{0} sent a WebSocket message that is JSON but not JSON-RPC.', target)));
      }
      // Our id as sent (a number), or as a string: some servers echo ids as text.
      if (msg.id !== options.id && msg.id !== String(options.id)) {
        otherBytes += text.length;
        if (otherBytes <= MAX_OTHER_BYTES) return; // an answer to another request: noise, kept in the document
        return finish(
          undefined,
          new EndpointError(
            'protocol',
            l10n.both('{0} sent more than {1} of messages that answer other requests; stopped.', target, formatBytes(MAX_OTHER_BYTES)),
          ),
        );
      }
      armTimer();
      if (isObject(msg.error)) return finish(undefined, rpcErrorOf(msg.error));
      if (!('result' in msg)) return finish(undefined, new EndpointError('protocol', notJsonRpc(target)));
      if (options.collect === 0) return finish(msg.result);
      if (!acknowledged) {
        acknowledged = true;
        return;
      }
      events.push(msg.result);
      if (events.length >= options.collect) finish(events);
    });
    socket.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined;
      const wait = retryAfter && status >= 400 ? ' ' + l10n.t('Retry after {0}.', describeRetryAfter(retryAfter)) : '';
      const sentence = l10n.t('{0} from {1}: the server refused the WebSocket upgrade.', statusLine(status), target);
      finish(undefined, new EndpointError('http', sentence + wait, { status, retryAfter }));
    });
    socket.on('close', (code, reason) => {
      const why = clean(reason.toString(), 200);
      finish(
        undefined,
        new EndpointError(
          'network',
          l10n.both('{0} closed the WebSocket after {1} message(s) ({2}).', target, messages.length, why ? `${code} ${why}` : String(code)),
        ),
      );
    });
    socket.on('error', (err: Error & { code?: string }) => {
      // ws's own codes: the server broke the protocol (a bad frame, invalid UTF-8, a message too large).
      if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        return finish(
          undefined,
          new EndpointError('protocol', l10n.both('{0} sent a WebSocket message larger than {1}; it was not read.', target, formatBytes(MAX_MESSAGE_BYTES))),
        );
      }
      if (err.code?.startsWith('WS_ERR_')) {
        return finish(undefined, new EndpointError('protocol', l10n.both('{0} broke the WebSocket protocol: {1}.', target, clean(err.message, 200))));
      }
      finish(undefined, networkError(err, target));
    });
  });
}
