// The one place where a request's options are built from the settings: timeouts, the document and
// download caps (chainEndpoints.requestTimeoutSeconds, maxDocumentMegabytes, maxDownloadMegabytes),
// and the provider's headers. Every caller of execute() builds its options here, with a preset for
// what the answer is for. (Proxies live in the HttpClient and the socket opener, built once from
// the settings by the editor or the CLI; they need nothing per request.)

import type { Provider } from '../config/providers';
import type { Http } from '../transport/http';
import type { ExecuteOptions } from './outcome';

/** The settings a request reads (the editor's Settings has them; the CLI builds them from its flags). */
export interface RequestSettings {
  readonly requestTimeoutMs: number;
  /** Past this an answer is written to a file instead of memory (chainEndpoints.maxDocumentMegabytes). */
  readonly maxDocumentBytes: number;
  /** The most one answer may cost (chainEndpoints.maxDownloadMegabytes). */
  readonly maxDownloadBytes: number;
}

/**
 * document: an answer shown as a document (formatted while it arrives).
 * silent: an answer read by code (Look Up, query files): same limits, not formatted on the way.
 * probe: a health or capability probe: small answers only (MAX_PROBE_BYTES, never spilled), a
 * deadline of at most PROBE_TIMEOUT_MS.
 */
export type RequestPreset = 'document' | 'silent' | 'probe';

/** A probe's answer is small (a status, a block header, a module's params): past this it is refused, not read. */
export const MAX_PROBE_BYTES = 256 * 1024;
/** A probe waits at most this long, whatever the request timeout. */
export const PROBE_TIMEOUT_MS = 10_000;

export interface RequestContext {
  http: Http;
  /** Where large bodies and genesis files are written (not used by probes). */
  spillDir?: string;
  signal?: AbortSignal;
  /** The provider whose headers go with the request (secrets substituted). */
  provider?: Pick<Provider, 'headers'>;
  onProgress?: (message: string) => void;
}

/** The options of one request (or a run of them) from the settings, for `preset`. */
export function requestOptions(settings: RequestSettings, context: RequestContext, preset: RequestPreset = 'document'): ExecuteOptions {
  const probe = preset === 'probe';
  const headers = context.provider?.headers;
  return {
    http: context.http,
    timeoutMs: probe ? Math.min(settings.requestTimeoutMs, PROBE_TIMEOUT_MS) : settings.requestTimeoutMs,
    maxBufferBytes: probe ? MAX_PROBE_BYTES : settings.maxDocumentBytes,
    maxDownloadBytes: probe ? MAX_PROBE_BYTES : settings.maxDownloadBytes,
    spillDir: probe ? undefined : context.spillDir,
    ...(context.signal ? { signal: context.signal } : {}),
    ...(headers ? { headers: { ...headers } } : {}),
    ...(context.onProgress ? { onProgress: context.onProgress } : {}),
    formatWhileReceiving: preset === 'document',
  };
}

/** The probe preset for a timeout alone (health and capability probes; their tests). */
export function probeOptions(http: Http, timeoutMs: number, signal?: AbortSignal): ExecuteOptions {
  return requestOptions({ requestTimeoutMs: timeoutMs, maxDocumentBytes: MAX_PROBE_BYTES, maxDownloadBytes: MAX_PROBE_BYTES }, { http, signal }, 'probe');
}
