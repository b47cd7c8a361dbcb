// One exchange over a CometBFT WebSocket: send a JSON-RPC request and read its answer, or
// subscribe and collect N events (which arrive with the subscribe request's id), then close.

import type WebSocket from 'ws';
import { WS_OPEN, openWebSocket } from './lazy';
import { EndpointError, networkError } from './errors';
import { isObject } from './interpret';
import * as l10n from './l10n';
import { describeAddress } from './proxy';

export interface WsExchangeOptions {
  message: string;
  id: number;
  /** 0: one answer. N > 0: the subscribe answer, then N events with the same id. */
  collect: number;
  /** Sent before closing a subscription. */
  unsubscribe?: string;
  /** Bounds the connection and each wait for the next message. */
  timeoutMs: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface WsExchange {
  /** Every message received, as received (raw JSON text). */
  messages: string[];
  bytes: number;
  elapsedMs: number;
  result?: unknown;
  error?: EndpointError;
}

const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export function wsExchange(url: string, options: WsExchangeOptions): Promise<WsExchange> {
  const target = describeAddress(url);
  const started = performance.now();
  const messages: string[] = [];
  const events: unknown[] = [];
  let bytes = 0;
  let acknowledged = false;

  return new Promise<WsExchange>((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const socket = openWebSocket(url, {
      handshakeTimeout: options.timeoutMs,
      headers: options.headers,
      maxPayload: MAX_MESSAGE_BYTES,
    });
    const finish = (result?: unknown, error?: EndpointError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (socket.readyState === WS_OPEN && options.unsubscribe && acknowledged) {
        socket.send(options.unsubscribe);
      }
      if (socket.readyState === WS_OPEN) socket.close(1000);
      else socket.terminate();
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      resolve({ messages, bytes, elapsedMs: performance.now() - started, result, error });
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
    const onAbort = () => finish(undefined, new EndpointError('cancelled', l10n.t('WebSocket request to {0} was cancelled.', target)));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    armTimer();

    socket.on('open', () => socket.send(options.message));
    socket.on('message', (data: WebSocket.RawData) => {
      const text = data.toString();
      bytes += Buffer.byteLength(text);
      messages.push(text);
      armTimer();
      let msg: unknown;
      try {
        msg = JSON.parse(text);
      } catch {
        return finish(undefined, new EndpointError('parse', l10n.t('{0} sent a WebSocket message that is not JSON.', target)));
      }
      if (!isObject(msg) || msg.id !== options.id) return; // answers to other requests, or noise
      if (isObject(msg.error)) {
        const e = msg.error;
        const message =
          typeof e.data === 'string' && e.data
            ? l10n.t('JSON-RPC error {0} {1}: {2}.', String(e.code), String(e.message), e.data)
            : l10n.t('JSON-RPC error {0} {1}.', String(e.code), String(e.message));
        return finish(
          undefined,
          new EndpointError('rpc', message, {
            code: e.code as number,
            data: typeof e.data === 'string' ? e.data : undefined,
          }),
        );
      }
      if (options.collect === 0) return finish(msg.result);
      if (!acknowledged) {
        acknowledged = true;
        return;
      }
      events.push(msg.result);
      if (events.length >= options.collect) finish(events);
    });
    socket.on('unexpected-response', (_req, res) => {
      finish(undefined, new EndpointError('http', l10n.t('HTTP {0} from {1}: the server refused the WebSocket upgrade.', String(res.statusCode), target), { status: res.statusCode }));
    });
    socket.on('close', (code, reason) => {
      const why = reason.toString() ? `${code} ${reason.toString()}` : String(code);
      finish(undefined, new EndpointError('network', l10n.t('{0} closed the WebSocket after {1} message(s) ({2}).', target, messages.length, why)));
    });
    socket.on('error', (err) => finish(undefined, networkError(err, target)));
  });
}
