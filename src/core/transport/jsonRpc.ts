// The JSON-RPC reading that HTTP and WebSocket share: one sentence for a JSON-RPC `error` member, the
// sentence for JSON that is not JSON-RPC, HTTP status lines, Retry-After; and the one builder of
// JSON-RPC request envelopes (every request, probe and subscription). Server text is cleaned to one
// bounded line (core/base/text.ts) before it goes into any sentence.

import { EndpointError, type FailureDetail } from '../base/errors';
import * as l10n from '../base/l10n';
import { MAX_SERVER_TEXT, clean, endSentence } from '../base/text';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusLine(status: number): string {
  const text = STATUS_TEXT[status];
  return text ? `HTTP ${status} ${text}` : `HTTP ${status}`;
}

/**
 * One sentence for a JSON-RPC `error` member, over HTTP (`status`) or a WebSocket (no status).
 * The server's words go into one line of bounded length (a hostile or broken server can send
 * megabytes, newlines or terminal escapes); `detail.data` keeps the full text.
 */
export function rpcErrorOf(e: Record<string, unknown>, status?: number, detail: FailureDetail = {}, suffix = ''): EndpointError {
  const code = typeof e.code === 'number' || typeof e.code === 'string' ? e.code : undefined;
  const message = (typeof e.message === 'string' ? clean(e.message, MAX_SERVER_TEXT) : '') || l10n.t('without a message');
  const data = e.data === undefined || e.data === null ? undefined : typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
  const httpPart = status === undefined || (status >= 200 && status < 300) ? '' : ` (${statusLine(status)})`;
  const shownData = data ? clean(data, MAX_SERVER_TEXT) : '';
  const codeText = code !== undefined ? clean(String(code), 40) || '?' : '?';
  const sentence = shownData
    ? l10n.t('JSON-RPC error {0} {1}: {2}{3}', codeText, message, shownData, httpPart)
    : l10n.t('JSON-RPC error {0} {1}{2}', codeText, message, httpPart);
  // Each field written out (the type makes a new one a compile error): `{ ...detail, code, data }` cost
  // ~9 µs on every JSON-RPC error answer, a third of the reading (BENCHMARKS.md, session 20).
  const facts: { [K in keyof Required<FailureDetail>]: FailureDetail[K] } = {
    status: detail.status,
    code,
    data,
    retryAfter: detail.retryAfter,
    bodyPreview: detail.bodyPreview,
    contentType: detail.contentType,
  };
  return new EndpointError('rpc', endSentence(sentence) + suffix, facts);
}

/** The sentence for JSON that is not a JSON-RPC response. */
export function notJsonRpc(where: string): string {
  return l10n.t('The answer from {0} is JSON but not a JSON-RPC response (no "result" or "error").', where);
}

/** Retry-After is either seconds or an HTTP date. */
export function describeRetryAfter(value: string): string {
  const v = clean(value, 80);
  if (/^\d+$/.test(v)) return l10n.t('{0} s', v);
  const when = Date.parse(v);
  if (!Number.isNaN(when)) return l10n.t('{0} s ({1})', Math.max(0, Math.ceil((when - Date.now()) / 1000)), v);
  return v;
}

/**
 * The one JSON-RPC 2.0 request envelope: what JSON.stringify({ jsonrpc: '2.0', method, params, id })
 * gives (params left out when undefined), without building the object. Every request, probe and
 * subscription on the wire is built here.
 */
export function jsonRpcRequest(method: string, params: unknown, id: number | string): string {
  const p = params === undefined ? undefined : JSON.stringify(params);
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},${p === undefined ? '' : `"params":${p},`}"id":${JSON.stringify(id)}}`;
}

/** CometBFT's `subscribe` to an event query (the height tracker, watches, probes, subscribe operations). */
export function cometSubscribe(query: string, id: number | string): string {
  return jsonRpcRequest('subscribe', { query }, id);
}

/** CometBFT's query of new block headers: the one new-block subscription (tracker, probes, the catalogue's subscribe). */
export const NEW_BLOCK_QUERY = "tm.event='NewBlockHeader'";
