// Typed failures: every error the core produces is an EndpointError whose message is one clear
// sentence a person can act on. The UI shows `message` as-is; `detail` carries the raw facts.

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

export class EndpointError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly detail: FailureDetail = {},
  ) {
    super(message);
    this.name = 'EndpointError';
  }
}

export function isEndpointError(e: unknown): e is EndpointError {
  return e instanceof EndpointError;
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing listens at that address)',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed by the server while sending',
  ENOTFOUND: 'DNS lookup failed (unknown host)',
  EAI_AGAIN: 'DNS lookup failed (temporary failure)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the server before it answered',
  UND_ERR_CLOSED: 'connection closed',
  CERT_HAS_EXPIRED: 'TLS error: the server certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS error: self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS error: self-signed certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS error: unable to verify the certificate',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS error: the certificate does not match the host name',
  EPROTO: 'TLS or protocol error',
  HPE_INVALID_CONSTANT: 'the server did not answer with valid HTTP',
  HPE_INVALID_STATUS: 'the server did not answer with valid HTTP',
  HPE_INVALID_HEADER_TOKEN: 'the server sent an invalid HTTP header',
};

/** Maps a low-level error (undici, net, tls, ws) to one sentence about `target`. */
export function networkError(err: unknown, target: string): EndpointError {
  if (isEndpointError(err)) return err;
  let cur: unknown = err;
  for (let depth = 0; depth < 4 && cur; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES[code]) {
      return new EndpointError('network', `Could not reach ${target}: ${NETWORK_CODES[code]}.`, { code });
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  const message = err instanceof Error ? err.message : String(err);
  return new EndpointError('network', `Could not reach ${target}: ${message || 'unknown network error'}.`);
}

/** The first `max` characters of a body as printable text (for non-JSON answers). */
export function bodyPreview(body: Buffer | string | undefined, max = 1024): string {
  if (body === undefined) return '';
  const text = typeof body === 'string' ? body.slice(0, max) : body.subarray(0, max).toString('utf8');
  // Drop a trailing partial UTF-8 sequence and control characters other than newline/tab.
  return text.replace(/\uFFFD+$/, '').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, '');
}
