// Typed failures: every error the core produces is an EndpointError whose message is one clear
// sentence a person can act on. The UI shows `message` as-is; `detail` carries the raw facts.

import * as l10n from './l10n';
import type { Message } from './l10n';

export type FailureKind =
  | 'input' // the user's input was refused before anything was sent
  | 'network' // refused, reset, DNS, TLS
  | 'timeout'
  | 'cancelled'
  | 'http' // a non-2xx status without a recognised error body
  | 'rpc' // a JSON-RPC error member (CometBFT or EVM)
  | 'rest' // a Cosmos SDK gateway error body
  | 'parse' // the body is not the JSON we expected
  | 'protocol'; // JSON, but not the shape the protocol promises

export interface FailureDetail {
  status?: number;
  code?: number | string;
  data?: string;
  retryAfter?: string;
  bodyPreview?: string;
  contentType?: string;
}

/**
 * The one error policy: an error carries its sentence in English as `message` (the log) and as
 * `shown` (what a person reads, translated). A plain string is both (text already translated, or
 * the server's own words).
 */
export class LocalizedError extends Error {
  readonly shown: string;
  constructor(text: string | Message) {
    const m = typeof text === 'string' ? { english: text, shown: text } : text;
    super(m.english);
    this.shown = m.shown;
  }
}

/** The English text of any caught value, for the log. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The text to show a person for any caught value: the translated sentence when it has one. */
export function shownMessage(err: unknown): string {
  return err instanceof LocalizedError ? err.shown : errorMessage(err);
}

/**
 * A caught error re-thrown across a boundary (the API, a command) as a plain LocalizedError: its
 * English message and its shown text both kept, its kind and detail left behind.
 */
export function rewrapped(err: unknown): LocalizedError {
  return new LocalizedError({ english: errorMessage(err), shown: shownMessage(err) });
}

export class EndpointError extends LocalizedError {
  readonly kind: FailureKind;
  readonly detail: FailureDetail;
  constructor(kind: FailureKind, text: string | Message, detail: FailureDetail = {}) {
    // No stack trace: the message is the whole story (where it was built is never shown), and
    // capturing one was a third of the cost of reading a JSON-RPC error answer (~9 µs).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(text);
    Error.stackTraceLimit = limit;
    this.kind = kind;
    this.detail = detail;
    this.name = 'EndpointError';
  }
}

export function isEndpointError(e: unknown): e is EndpointError {
  return e instanceof EndpointError;
}

/** What a proxy's refusal means (the proxy's own status text, when it sent one, is not needed). */
export function proxyRefusalPhrase(status: number): Message {
  return status === 407
    ? l10n.both('the proxy asks for credentials (HTTP 407): give them in the proxy address, http://user:password@host:port')
    : l10n.both('the proxy refused the connection (HTTP {0})', status);
}

/** The phrase for a low-level error code (translated at use: the bundle loads after this module). */
function networkPhrase(code: string): Message | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return l10n.both('connection refused (nothing listens at that address)');
    case 'ECONNRESET':
      return l10n.both('connection reset by the server');
    case 'EPIPE':
      return l10n.both('connection closed by the server while sending');
    case 'ENOTFOUND':
      return l10n.both('DNS lookup failed (unknown host)');
    case 'EAI_AGAIN':
      return l10n.both('DNS lookup failed (temporary failure)');
    case 'EHOSTUNREACH':
      return l10n.both('host unreachable');
    case 'ENETUNREACH':
      return l10n.both('network unreachable');
    case 'ETIMEDOUT':
      return l10n.both('connection timed out');
    case 'UND_ERR_CONNECT_TIMEOUT':
      return l10n.both('connection timed out');
    case 'UND_ERR_SOCKET':
      return l10n.both('connection closed by the server before it answered');
    case 'UND_ERR_CLOSED':
      return l10n.both('connection closed');
    case 'CERT_HAS_EXPIRED':
      return l10n.both('TLS error: the server certificate has expired');
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return l10n.both('TLS error: self-signed certificate');
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return l10n.both('TLS error: self-signed certificate in the chain');
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return l10n.both('TLS error: unable to verify the certificate');
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return l10n.both('TLS error: the certificate does not match the host name');
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      // What https:// to a plain HTTP port gives.
      return l10n.both('TLS error: the server does not speak TLS on this port (is the address http://?)');
    case 'EPROTO':
      return l10n.both('TLS or protocol error');
    case 'HPE_INVALID_CONSTANT':
      return l10n.both('the server did not answer with valid HTTP');
    case 'HPE_INVALID_STATUS':
      return l10n.both('the server did not answer with valid HTTP');
    case 'HPE_INVALID_HEADER_TOKEN':
      return l10n.both('the server sent an invalid HTTP header');
    default:
      return undefined;
  }
}

/** Codes by what they mean, for matching that must not depend on the (translated) message. */
export const REFUSED_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED']);
export const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);
export const DNS_CODES: ReadonlySet<string> = new Set(['ENOTFOUND', 'EAI_AGAIN']);
const TLS_CODES: ReadonlySet<string> = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
]);

/** A TLS failure: a certificate problem, or any of OpenSSL's own (`ERR_SSL_*`) codes. */
export function isTlsCode(code: string): boolean {
  return TLS_CODES.has(code) || code.startsWith('ERR_SSL_');
}

/** Maps a low-level error (undici, net, tls, ws) to one sentence about `target`. */
export function networkError(err: unknown, target: string): EndpointError {
  if (isEndpointError(err)) return err;
  let cur: unknown = err;
  for (let depth = 0; depth < 4 && cur; depth++) {
    const code = (cur as { code?: unknown }).code;
    const phrase = typeof code === 'string' ? networkPhrase(code) : undefined;
    if (typeof code === 'string' && phrase) {
      return new EndpointError('network', l10n.both('Could not reach {0}: {1}.', target, phrase), { code });
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  // undici's ProxyAgent when the proxy refuses: the tunnel (CONNECT) or, for http://, the request.
  const refused = err instanceof Error ? /^Proxy response \((\d+)\) !== 200|^Proxy Authentication Required \((407)\)$/.exec(err.message) : null;
  if (refused) {
    const status = Number(refused[1] ?? refused[2]);
    return new EndpointError('network', l10n.both('Could not reach {0}: {1}.', target, proxyRefusalPhrase(status)), { status });
  }
  // OpenSSL's own message is a multi-line internal trace: its `reason` says it in a few words.
  const reason = (err as { reason?: unknown; library?: unknown }).reason;
  if (typeof reason === 'string' && /SSL/i.test(String((err as { library?: unknown }).library))) {
    return new EndpointError('network', l10n.both('Could not reach {0}: TLS error: {1}.', target, reason), { code: (err as { code?: string }).code });
  }
  const message: Message = { english: errorMessage(err), shown: shownMessage(err) };
  return new EndpointError('network', l10n.both('Could not reach {0}: {1}.', target, message.english ? message : l10n.both('unknown network error')));
}

/** The first `max` characters of a body as printable text (for non-JSON answers). */
export function bodyPreview(body: Buffer | string | undefined, max = 1024): string {
  if (body === undefined) return '';
  const text = typeof body === 'string' ? body.slice(0, max) : body.subarray(0, max).toString('utf8');
  // Drop a trailing partial UTF-8 sequence and control characters other than newline/tab.
  return text.replace(/\uFFFD+$/, '').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, '');
}
