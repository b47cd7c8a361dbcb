// HTTP transport: one undici Agent (a keep-alive pool per origin), a deadline on every request,
// cancellation through AbortSignal, redirects never followed, and bodies past a size spilled to a
// file instead of being held in memory. Never imports vscode.

import { createWriteStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform, Writable, pipeline as pipeStreams } from 'node:stream';
import * as zlib from 'node:zlib';
import type { Agent, Dispatcher } from 'undici';
import { loadUndici } from './lazy';
import { EndpointError, networkError } from './errors';
import * as l10n from './l10n';
import { redactUrl } from './providers';

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
  /** When set, every piece of the body goes here as it arrives (awaited: backpressure) and none is kept. */
  sink?: (piece: Buffer) => Promise<void> | void;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** The body when it fits in memory. */
  body?: Buffer;
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
  private readonly userAgent: string;

  constructor(private readonly options: HttpClientOptions = {}) {
    this.userAgent = options.userAgent ?? 'chain-endpoints';
  }

  /** The pool behind every request, created (and undici loaded) on first use. */
  private get agent(): Agent {
    this.pool ??= new (loadUndici().Agent)({
      connections: this.options.connectionsPerOrigin ?? 6,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      // The per-request deadline below is the real bound; these only stop undici's own
      // defaults (300 s) from outliving it.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    return this.pool;
  }

  /** The pool behind every request (benchmarks count its connections). */
  get dispatcher(): Dispatcher {
    return this.agent;
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const target = redactUrl(req.url);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), req.timeoutMs);
    const onCancel = () => deadline.abort();
    req.signal?.addEventListener('abort', onCancel, { once: true });
    const started = performance.now();
    const fail = (err: unknown): never => {
      if (req.signal?.aborted) throw new EndpointError('cancelled', l10n.t('Request to {0} was cancelled.', target));
      if (deadline.signal.aborted) {
        throw new EndpointError('timeout', l10n.t('No complete answer from {0} within {1}.', target, formatSeconds(req.timeoutMs)));
      }
      throw networkError(err, target);
    };
    try {
      if (req.signal?.aborted) fail(undefined);
      const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json, */*;q=0.5', ...req.headers };
      if (req.body !== undefined && !hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json';
      let res: Dispatcher.ResponseData;
      try {
        res = await loadUndici().request(req.url, {
          method: req.method,
          headers,
          body: req.body,
          dispatcher: this.agent,
          signal: deadline.signal,
          maxRedirections: 0,
        });
      } catch (err) {
        return fail(err);
      }
      const responseHeaders = flattenHeaders(res.headers);
      let stream: Readable = res.body;
      const encoding = (responseHeaders['content-encoding'] ?? '').trim().toLowerCase();
      const decoder = decoderFor(encoding);
      // pipeline, not pipe: an error of the body (a reset mid-answer) must reach the decoder,
      // or it is an uncaught 'error' event and the read waits for the deadline.
      let decodeFailure: Error | undefined;
      if (decoder) {
        decoder.once('error', (e: NodeJS.ErrnoException) => {
          if (/^(Z_|ERR__ERROR|ERR_BROTLI)/.test(e.code ?? '')) decodeFailure = e;
        });
        stream = pipeStreams(res.body, decoder, () => undefined);
      }
      let collected: { body?: Buffer; file?: string; bytes: number };
      try {
        collected = req.sink
          ? await drain(stream, req.sink, deadline.signal)
          : await collect(stream, req.maxBufferBytes ?? DEFAULT_MAX_BUFFER, req.spillDir, deadline.signal);
      } catch (err) {
        res.body.destroy();
        if (decodeFailure && !req.signal?.aborted && !deadline.signal.aborted) {
          throw new EndpointError(
            'parse',
            l10n.t('{0} answered HTTP {1} marked "content-encoding: {2}", but the body does not decompress ({3}).', target, res.statusCode, encoding, decodeFailure.message),
            { status: res.statusCode, contentType: responseHeaders['content-type'] },
          );
        }
        return fail(err);
      }
      const out: HttpResponse = {
        status: res.statusCode,
        headers: responseHeaders,
        ...collected,
        elapsedMs: performance.now() - started,
      };
      this.options.onResponse?.(req, out);
      return out;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onCancel);
    }
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
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

/**
 * Reads a body into memory up to `maxBuffer` bytes; past that, everything (what was read and the
 * rest) goes to a new file in `spillDir`. Without a spillDir an oversize body is an error.
 * A partial file is removed when reading fails or is aborted.
 */
async function collect(
  stream: Readable,
  maxBuffer: number,
  spillDir: string | undefined,
  signal: AbortSignal,
): Promise<{ body?: Buffer; file?: string; bytes: number }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const iterator = stream[Symbol.asyncIterator]();
  const onAbort = () => stream.destroy(new Error('aborted'));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return { body: Buffer.concat(chunks, bytes), bytes };
      const chunk = next.value as Buffer;
      bytes += chunk.length;
      chunks.push(chunk);
      if (bytes > maxBuffer) break;
    }
    if (!spillDir) {
      throw new EndpointError(
        'parse',
        l10n.t('The answer is larger than {0}; raise chainEndpoints.maxDocumentMegabytes to read it.', formatBytes(maxBuffer)),
      );
    }
    await fs.mkdir(spillDir, { recursive: true });
    // Written under a .partial name and renamed once complete: a file with the final name is
    // always a whole answer, even if the process dies mid-transfer.
    const file = path.join(spillDir, `response-${Date.now()}-${randomBytes(4).toString('hex')}.json`);
    const partial = `${file}.partial`;
    const rest = Readable.from(
      (async function* () {
        for (const c of chunks) yield c;
        chunks.length = 0;
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          bytes += (next.value as Buffer).length;
          yield next.value as Buffer;
        }
      })(),
    );
    try {
      await pipeline(rest, createWriteStream(partial) as Writable);
      await fs.rename(partial, file);
    } catch (err) {
      await fs.rm(partial, { force: true });
      throw err;
    }
    return { file, bytes };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Hands every piece of the body to `sink`, keeping none. */
async function drain(stream: Readable, sink: (piece: Buffer) => Promise<void> | void, signal: AbortSignal): Promise<{ bytes: number }> {
  let bytes = 0;
  const onAbort = () => stream.destroy(new Error('aborted'));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const piece of stream) {
      bytes += (piece as Buffer).length;
      await sink(piece as Buffer);
    }
    return { bytes };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
