// One exchange over a CometBFT WebSocket: send a JSON-RPC request and read its answer, or
// subscribe and collect N events (which arrive with the subscribe request's id), then close.

import type WebSocket from 'ws';
import { WS_OPEN, openWebSocket } from './lazy';
import { EndpointError, networkError } from './errors';
import { isObject } from './interpret';
import { redactUrl } from './providers';

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
  const target = redactUrl(url);
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
        const waiting = !acknowledged ? 'an answer' : `event ${events.length + 1} of ${options.collect}`;
        finish(undefined, new EndpointError('timeout', `No ${waiting} from ${target} within ${options.timeoutMs / 1000} s.`));
      }, options.timeoutMs);
    };
    const onAbort = () => finish(undefined, new EndpointError('cancelled', `WebSocket request to ${target} was cancelled.`));
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
        return finish(undefined, new EndpointError('parse', `${target} sent a WebSocket message that is not JSON.`));
      }
      if (!isObject(msg) || msg.id !== options.id) return; // answers to other requests, or noise
      if (isObject(msg.error)) {
        const e = msg.error;
        const data = typeof e.data === 'string' && e.data ? `: ${e.data}` : '';
        return finish(
          undefined,
          new EndpointError('rpc', `JSON-RPC error ${String(e.code)} ${String(e.message)}${data}.`, {
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
      finish(undefined, new EndpointError('http', `HTTP ${res.statusCode} from ${target}: the server refused the WebSocket upgrade.`, { status: res.statusCode }));
    });
    socket.on('close', (code, reason) => {
      const why = reason.toString() ? ` (${code} ${reason.toString()})` : ` (${code})`;
      finish(undefined, new EndpointError('network', `${target} closed the WebSocket after ${messages.length} message(s)${why}.`));
    });
    socket.on('error', (err) => finish(undefined, networkError(err, target)));
  });
}
