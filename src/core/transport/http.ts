// HTTP transport: one undici Agent (a keep-alive pool per origin), a deadline on every request,
// cancellation through AbortSignal, redirects never followed, and bodies past a size spilled to a
// file instead of being held in memory. Each request is one Exchange (./exchange.ts) on the
// Agent's dispatcher API. Never imports vscode.

import { WriteStream, createWriteStream, promises as fs } from 'node:fs';
import { once } from 'node:events';
import path = require('node:path');
import { randomBytes } from 'node:crypto';
import { Readable, Transform, pipeline as pipeStreams } from 'node:stream';
import zlib = require('node:zlib');
import type { Agent, Dispatcher, ProxyAgent } from 'undici';
import { BodyReader, Exchange, ExchangeHead, streamReader } from './exchange';
import { loadUndici } from './lazy';
import { EndpointError, networkError } from '../base/errors';
import * as l10n from '../base/l10n';
import { formatBytes, formatSeconds } from '../base/numbers';
import { describeAddress, proxyFor, proxyGeneration, proxySettings } from './proxy';

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

/** Reads a body piece by piece as it arrives (e.g. a formatter building the document). */
export interface BodyDigest {
  /** Called once before the first piece when the body's length is known. */
  expect?(bytes: number): void;
  push(piece: Buffer): unknown;
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

export interface HttpClientOptions {
  connectionsPerOrigin?: number;
  userAgent?: string;
  onResponse?: (req: HttpRequest, res: HttpResponse) => void;
}

const DEFAULT_MAX_BUFFER = 20 * 1024 * 1024;

export class HttpClient {
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
  private dispatcherFor(url: URL): Dispatcher {
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
      if (req.signal?.aborted) throw new EndpointError('cancelled', l10n.t('Request to {0} was cancelled.', target()));
      if (stopped) {
        throw new EndpointError('timeout', l10n.t('No complete answer from {0} within {1}.', target(), formatSeconds(req.timeoutMs)));
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
        const url = new URL(req.url);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(l10n.t('the address must start with http:// or https://'));
        // Redirects are never followed: the Agent has no redirect interceptor (maxRedirections 0).
        exchange = Exchange.start(this.dispatcherFor(url), {
          origin: url.origin,
          path: url.pathname + url.search,
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
      if (decoder) {
        decoder.once('error', (e: NodeJS.ErrnoException) => {
          if (/^(Z_|ERR__ERROR|ERR_BROTLI)/.test(e.code ?? '')) decodeFailure = e;
        });
        decoded = pipeStreams(exchange.rest(), decoder, () => undefined);
        body = streamReader(decoded);
      }
      let collected: { body?: Buffer; file?: string; bytes: number };
      try {
        const cap = capOf(req.maxBytes, target);
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
            l10n.t('{0} answered HTTP {1} marked "content-encoding: {2}", but the body does not decompress ({3}).', target(), head.status, encoding, decodeFailure.message),
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

/** Above this, a digested body is no longer kept whole (only its first HEAD_BYTES). */
const KEEP_RAW_BYTES = 4 * 1024 * 1024;
/** What is kept of a body that is not kept whole: enough for previews and error messages. */
const HEAD_BYTES = 64 * 1024;

interface Collected {
  body?: Buffer;
  head?: Buffer;
  file?: string;
  bytes: number;
  digested?: boolean;
}

interface CollectLimits {
  /** Throws once more than the cap has come (chainEndpoints.maxDownloadMegabytes). */
  cap: Cap;
  maxBuffer: number;
  spillDir?: string;
  digest?: BodyDigest;
  /** The body's length when the server said it (content-length, not compressed). */
  length?: number;
}

/**
 * Reads a body. Up to `maxBuffer` bytes it is an answer for a document: held in memory, or, when
 * a digest reads it and it is larger than KEEP_RAW_BYTES, held only as its first HEAD_BYTES (the
 * digest keeps what it needs). Past `maxBuffer` the whole body goes to a new file in `spillDir`,
 * byte for byte; so a digested body of unknown length is also copied to disk as it arrives until
 * it ends (and the copy removed if it fits). Without a spillDir an oversize body is an error.
 * A partial file is removed when reading fails or is aborted.
 */
async function collect(body: BodyReader, limits: CollectLimits): Promise<Collected> {
  const { maxBuffer, spillDir, digest } = limits;
  // memory: every piece kept; digest: none kept; tee: none kept, each also written to disk;
  // file: each written to disk, the digest left (too large for a document).
  type Mode = 'memory' | 'digest' | 'tee' | 'file';
  let mode = 'memory' as Mode; // (changed by toFile and dropRaw below)
  let chunks: Buffer[] = [];
  let bytes = 0;
  let head: Buffer | undefined;
  let spill: Spill | undefined;
  const tooLarge = () =>
    new EndpointError('parse', l10n.t('The answer is larger than {0}; raise chainEndpoints.maxDocumentMegabytes to read it.', formatBytes(maxBuffer)));
  if (digest && limits.length !== undefined && limits.length <= maxBuffer) digest.expect?.(limits.length);
  // Past maxBuffer: everything so far, then the rest, to a file.
  const toFile = async () => {
    if (!spillDir || mode === 'digest') throw tooLarge();
    if (mode === 'memory') {
      spill = await Spill.open(spillDir);
      for (const c of chunks) await spill.write(c);
      chunks = [];
    }
    mode = 'file';
  };
  // Past KEEP_RAW_BYTES with a digest: keep the head only (and a disk copy while the length is unknown).
  const dropRaw = async () => {
    head = headOf(chunks);
    if (spillDir && (limits.length === undefined || limits.length > maxBuffer)) {
      spill = await Spill.open(spillDir);
      for (const c of chunks) await spill.write(c);
      mode = 'tee';
    } else mode = 'digest';
    chunks = [];
  };
  try {
    // Most answers are small: read with plain listeners while they fit, without a promise per piece.
    const limit = digest ? Math.min(maxBuffer, KEEP_RAW_BYTES) : maxBuffer;
    let over = false;
    const ended = await body.readWhile((piece) => {
      bytes += piece.length;
      if (bytes > limits.cap.max) {
        over = true;
        return false;
      }
      chunks.push(piece);
      digest?.push(piece);
      return bytes <= limit;
    });
    if (over) limits.cap(bytes);
    if (ended) return { body: Buffer.concat(chunks, bytes), bytes, digested: digest !== undefined };
    if (bytes > maxBuffer) await toFile();
    else await dropRaw();
    for await (const piece of body.rest()) {
      bytes += piece.length;
      limits.cap(bytes);
      if (bytes > maxBuffer && mode !== 'file') await toFile();
      if (mode === 'file') {
        await spill!.write(piece);
        continue;
      }
      digest?.push(piece);
      if (mode === 'tee') await spill!.write(piece);
      if (mode !== 'memory') continue;
      chunks.push(piece);
      if (digest && bytes > KEEP_RAW_BYTES) await dropRaw();
    }
    switch (mode) {
      case 'file':
        return { file: await spill!.keep(), bytes };
      case 'tee':
        await spill!.discard();
        return { head, bytes, digested: true };
      case 'digest':
        return { head, bytes, digested: true };
      case 'memory':
        return { body: Buffer.concat(chunks, bytes), bytes, digested: digest !== undefined };
    }
  } catch (err) {
    await spill?.discard();
    throw err;
  }
}

/** A copy of the first HEAD_BYTES of `chunks` (not a view: the rest must be free to go). */
function headOf(chunks: Buffer[]): Buffer {
  const first: Buffer[] = [];
  let n = 0;
  for (const c of chunks) {
    if (n >= HEAD_BYTES) break;
    first.push(c);
    n += c.length;
  }
  return Buffer.from(Buffer.concat(first, n).subarray(0, HEAD_BYTES));
}

/**
 * A body on its way to disk, under a .partial name renamed once complete: a file with the final
 * name is always a whole answer, even if the process dies mid-transfer.
 */
class Spill {
  private failure: Error | undefined;

  private constructor(
    private readonly out: WriteStream,
    private readonly partial: string,
  ) {
    out.on('error', (err) => (this.failure = err));
  }

  static async open(dir: string): Promise<Spill> {
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, `response-${Date.now()}-${randomBytes(4).toString('hex')}.json`);
    return new Spill(createWriteStream(`${file}.partial`), `${file}.partial`);
  }

  /** Writes a piece, waiting while the disk is behind. */
  async write(piece: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.out.write(piece)) await once(this.out, 'drain');
  }

  /** Completes the file; its final name. */
  async keep(): Promise<string> {
    await new Promise<void>((resolve, reject) => this.out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    if (this.failure) throw this.failure;
    const file = this.partial.slice(0, -'.partial'.length);
    await fs.rename(this.partial, file);
    return file;
  }

  async discard(): Promise<void> {
    this.out.destroy();
    await fs.rm(this.partial, { force: true });
  }
}

/** Hands every piece of the body to `sink`, keeping none. */
async function drain(stream: AsyncIterable<Buffer>, sink: (piece: Buffer) => Promise<void> | void, cap: Cap): Promise<{ bytes: number }> {
  let bytes = 0;
  for await (const piece of stream) {
    bytes += piece.length;
    cap(bytes);
    await sink(piece);
  }
  return { bytes };
}

/** Default of chainEndpoints.maxDownloadMegabytes. */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024;

type Cap = ((bytes: number) => void) & { max: number };

/** The check of an answer's size against its cap; the sentence says what stopped and which setting. */
function capOf(maxBytes: number | undefined, target: () => string): Cap {
  const max = maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  const check = (bytes: number) => {
    if (bytes > max) throw downloadCapError(target(), max);
  };
  return Object.assign(check, { max });
}

/** The error of an answer stopped at chainEndpoints.maxDownloadMegabytes. */
export function downloadCapError(target: string, max: number): EndpointError {
  return new EndpointError(
    'protocol',
    l10n.t(
      'The answer from {0} is larger than {1} (chainEndpoints.maxDownloadMegabytes, counted after decompression): the transfer was stopped and nothing was kept. Raise the setting in user settings to read it.',
      target,
      formatBytes(max),
    ),
  );
}
