// HTTP transport: one undici Agent (a keep-alive pool per origin), a deadline on every request,
// cancellation through AbortSignal, redirects never followed, and bodies past a size spilled to a
// file instead of being held in memory. Each request is one Exchange (./exchange.ts) on the
// Agent's dispatcher API. Never imports vscode.

import { type Readable, type Transform, pipeline as pipeStreams } from 'node:stream';
import zlib = require('node:zlib');
import type { Agent, Dispatcher, ProxyAgent } from 'undici';
import { type BodyReader, Exchange, type ExchangeHead, streamReader } from './exchange';
import { loadUndici } from './lazy';
import { EndpointError, LocalizedError, networkError } from '../base/errors';
import * as l10n from '../base/l10n';
import { formatSeconds } from '../base/numbers';
import { BoundedMemo } from '../base/memo';
import { describeAddress, proxyFor, proxyGeneration, proxySettings } from './proxy';
import { type BodyDigest, capOf, collect, drain } from './body';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bodies larger than this are written to a file in `spillDir` (when set) instead of memory. */
  maxBufferBytes?: number;
  spillDir?: string;
  /**
   * The most bytes one answer may cost, counted after decompression, whether held, written to a
   * file or handed to a sink (chainEndpoints.maxDownloadMegabytes). Past it the transfer stops,
   * nothing is kept, and the error names the setting.
   */
  maxBytes?: number;
  /** When set, every piece of the body goes here as it arrives (awaited: backpressure) and none is kept. */
  sink?: (piece: Buffer) => Promise<void> | void;
  /** When set, reads the body as it arrives; then a large body is not also kept whole (see `collect`). */
  digest?: BodyDigest;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** The body when it is held whole in memory. */
  body?: Buffer;
  /** The first bytes of a body the digest read and that is not held whole (over 4 MiB). */
  head?: Buffer;
  /** Every byte went to the request's digest (false or absent when the body went to a file). */
  digested?: boolean;
  /** The body's file when it was larger than maxBufferBytes. */
  file?: string;
  bytes: number;
  elapsedMs: number;
}

/**
 * What the code that sends requests needs of a client: `HttpClient` itself, or the one built on the
 * first request (./lazyHttp.ts, what the extension hands its features so that activation loads none
 * of the transport).
 */
export interface Http {
  send(req: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

export interface HttpClientOptions {
  connectionsPerOrigin?: number;
  userAgent?: string;
  onResponse?: (req: HttpRequest, res: HttpResponse) => void;
}

const DEFAULT_MAX_BUFFER = 20 * 1024 * 1024;

/** What a request needs of its address, parsed once per address (a query file asks a few addresses thousands of times). */
interface Target {
  readonly url: Readonly<URL>;
  readonly protocol: string;
  readonly origin: string;
  readonly path: string;
}

function parseTarget(address: string): Target {
  const url = new URL(address);
  return { url, protocol: url.protocol, origin: url.origin, path: url.pathname + url.search };
}

const parsedUrls = new BoundedMemo<Target>(512);

export class HttpClient implements Http {
  private pool?: Agent;
  /** Pools behind a proxy, by proxy address, for the proxy settings of `proxiedGeneration`. */
  private proxied = new Map<string, ProxyAgent>();
  private proxiedGeneration = -1;
  private readonly userAgent: string;

  constructor(private readonly options: HttpClientOptions = {}) {
    this.userAgent = options.userAgent ?? 'chain-endpoints';
  }

  /** The pool behind every direct request, created (and undici loaded) on first use. */
  private get agent(): Agent {
    this.pool ??= new (loadUndici().Agent)(this.poolOptions());
    return this.pool;
  }

  private poolOptions() {
    return {
      connections: this.options.connectionsPerOrigin ?? 6,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      // The per-request deadline below is the real bound; these only stop undici's own
      // defaults (300 s) from outliving it.
      headersTimeout: 0,
      bodyTimeout: 0,
    };
  }

  /**
   * Where a request to `url` goes: the direct pool, or a pool behind the configured proxy (http://
   * targets as absolute-URI requests to it, https:// through a CONNECT tunnel).
   */
  private dispatcherFor(url: Readonly<URL>): Dispatcher {
    const proxy = proxyFor(url);
    if (!proxy) return this.agent;
    if (this.proxiedGeneration !== proxyGeneration()) {
      for (const old of this.proxied.values()) void old.close().catch(() => undefined);
      this.proxied.clear();
      this.proxiedGeneration = proxyGeneration();
    }
    let dispatcher = this.proxied.get(proxy);
    if (!dispatcher) {
      dispatcher = new (loadUndici().ProxyAgent)({
        ...this.poolOptions(),
        uri: proxy,
        proxyTunnel: false,
        requestTls: { rejectUnauthorized: proxySettings().strictSSL },
      });
      this.proxied.set(proxy, dispatcher);
    }
    return dispatcher;
  }

  /** The pool behind every request (benchmarks count its connections). */
  get dispatcher(): Dispatcher {
    return this.agent;
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    // Only failures name the address: redacting it is work a successful request does not need.
    const target = () => describeAddress(req.url);
    let exchange: Exchange | undefined;
    let decoded: Readable | undefined;
    // The deadline or a cancel stops the transfer, and the reading of what already came.
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      const err = new Error('aborted');
      exchange?.abort(err);
      decoded?.destroy(err);
    };
    const timer = setTimeout(stop, req.timeoutMs);
    req.signal?.addEventListener('abort', stop, { once: true });
    const started = performance.now();
    const fail = (err: unknown): never => {
      if (req.signal?.aborted) throw new EndpointError('cancelled', l10n.both('Request to {0} was cancelled.', target()));
      if (stopped) {
        throw new EndpointError('timeout', l10n.both('No complete answer from {0} within {1}.', target(), formatSeconds(req.timeoutMs)));
      }
      throw networkError(err, target());
    };
    try {
      if (req.signal?.aborted) fail(undefined);
      const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json, */*;q=0.5' };
      if (req.headers) Object.assign(headers, req.headers);
      if (req.body !== undefined && !(req.headers && hasHeader(req.headers, 'content-type'))) headers['content-type'] = 'application/json';
      let head: ExchangeHead;
      try {
        const url = parsedUrls.get(req.url, () => parseTarget(req.url));
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new LocalizedError(l10n.both('the address must start with http:// or https://'));
        // Redirects are never followed: the Agent has no redirect interceptor (maxRedirections 0).
        exchange = Exchange.start(this.dispatcherFor(url.url), {
          origin: url.origin,
          path: url.path,
          method: req.method,
          headers,
          body: req.body,
        });
        head = await exchange.head;
      } catch (err) {
        return fail(err);
      }
      let body: BodyReader = exchange;
      const encoding = (head.headers['content-encoding'] ?? '').trim().toLowerCase();
      const decoder = decoderFor(encoding);
      // pipeline, not pipe: an error of the body (a reset mid-answer) must reach the decoder,
      // or it is an uncaught 'error' event and the read waits for the deadline.
      let decodeFailure: Error | undefined;
      /** Bytes received of a compressed body (the decompression ratio is checked against them). */
      let received = 0;
      if (decoder) {
        decoder.once('error', (e: NodeJS.ErrnoException) => {
          if (/^(Z_|ERR__ERROR|ERR_BROTLI)/.test(e.code ?? '')) decodeFailure = e;
        });
        const raw = exchange.rest();
        raw.on('data', (piece: Buffer) => (received += piece.length));
        decoded = pipeStreams(raw, decoder, () => undefined);
        body = streamReader(decoded);
      }
      let collected: { body?: Buffer; file?: string; bytes: number };
      try {
        const cap = capOf(req.maxBytes, target, decoder ? () => received : undefined);
        collected = req.sink
          ? await drain(body.rest(), req.sink, cap)
          : await collect(body, {
              cap,
              maxBuffer: req.maxBufferBytes ?? DEFAULT_MAX_BUFFER,
              spillDir: req.spillDir,
              digest: req.digest,
              length: decoder ? undefined : declaredLength(head.headers['content-length']),
            });
      } catch (err) {
        exchange.abort(err instanceof Error ? err : new Error(String(err)));
        if (decodeFailure && !req.signal?.aborted && !stopped) {
          throw new EndpointError(
            'parse',
            l10n.both(
              '{0} answered HTTP {1} marked "content-encoding: {2}", but the body does not decompress ({3}).',
              target(),
              head.status,
              encoding,
              decodeFailure.message,
            ),
            { status: head.status, contentType: head.headers['content-type'] },
          );
        }
        return fail(err);
      }
      const out: HttpResponse = {
        status: head.status,
        headers: head.headers,
        ...collected,
        elapsedMs: performance.now() - started,
      };
      this.options.onResponse?.(req, out);
      return out;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', stop);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.pool?.close(), ...[...this.proxied.values()].map((p) => p.close())]);
    this.proxied.clear();
  }
}

function declaredLength(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

function decoderFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}
