// An answer's body as it arrives: held in memory up to a size, past it spilled to a file; a
// preview head kept; decompressed bytes counted against chainEndpoints.maxDownloadMegabytes, where
// the transfer stops with a sentence naming the setting and nothing is kept. Used by http.ts.

import { type WriteStream, createWriteStream, promises as fs } from 'node:fs';
import { once } from 'node:events';
import path = require('node:path');
import { randomBytes } from 'node:crypto';
import { EndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import { formatBytes } from '../base/numbers';
import type { BodyReader } from './exchange';

/** Above this, a digested body is no longer kept whole (only its first HEAD_BYTES). */
export const KEEP_RAW_BYTES = 4 * 1024 * 1024;

/** What is kept of a body that is not kept whole: enough for previews and error messages. */
export const HEAD_BYTES = 64 * 1024;

export interface Collected {
  body?: Buffer;
  head?: Buffer;
  file?: string;
  bytes: number;
  digested?: boolean;
}

export interface CollectLimits {
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
export async function collect(body: BodyReader, limits: CollectLimits): Promise<Collected> {
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
    new EndpointError('parse', l10n.both('The answer is larger than {0}; raise chainEndpoints.maxDocumentMegabytes to read it.', formatBytes(maxBuffer)));
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
      if (limits.cap.exceeds(bytes)) {
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
export function headOf(chunks: Buffer[]): Buffer {
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
export class Spill {
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

  /** Removes the partial file, once the stream is closed: a file still being opened is removed too. */
  async discard(): Promise<void> {
    if (!this.out.closed) {
      const closed = once(this.out, 'close').then(
        () => undefined,
        () => undefined,
      );
      this.out.destroy();
      await closed;
    }
    await fs.rm(this.partial, { force: true });
  }
}

/** Hands every piece of the body to `sink`, keeping none. */
export async function drain(stream: AsyncIterable<Buffer>, sink: (piece: Buffer) => Promise<void> | void, cap: Cap): Promise<{ bytes: number }> {
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

export type Cap = ((bytes: number) => void) & { max: number; exceeds(bytes: number): boolean };

/** A compressed answer may decode to at most this many times the bytes received… */
export const MAX_DECOMPRESSION_RATIO = 100;
/** …once more than this has been decoded (small answers of repeated text compress well). */
export const RATIO_FREE_BYTES = 10 * 1024 * 1024;

/**
 * The check of an answer's size against its cap; the sentence says what stopped and which setting.
 * With `compressedBytes` (the bytes received of a compressed body), also its decompression ratio:
 * past MAX_DECOMPRESSION_RATIO once RATIO_FREE_BYTES are decoded, the transfer stops (a 1 MB gzip
 * answer that would inflate to 1 GiB stops after 10 MB, whatever the download cap).
 */
export function capOf(maxBytes: number | undefined, target: () => string, compressedBytes?: () => number): Cap {
  const max = maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  const bomb = (bytes: number) => compressedBytes !== undefined && bytes > RATIO_FREE_BYTES && bytes > MAX_DECOMPRESSION_RATIO * compressedBytes();
  const check = (bytes: number) => {
    if (bytes > max) throw downloadCapError(target(), max);
    if (bomb(bytes)) throw decompressionBombError(target(), bytes, compressedBytes!());
  };
  return Object.assign(check, { max, exceeds: (bytes: number) => bytes > max || bomb(bytes) });
}

/** The error of an answer that decompresses past MAX_DECOMPRESSION_RATIO. */
export function decompressionBombError(target: string, decoded: number, received: number): EndpointError {
  return new EndpointError(
    'protocol',
    l10n.both(
      'The answer from {0} decompresses to more than {1} times its size ({2} from {3}): the transfer was stopped and nothing was kept.',
      target,
      MAX_DECOMPRESSION_RATIO,
      formatBytes(decoded),
      formatBytes(received),
    ),
  );
}

/** The error of an answer stopped at chainEndpoints.maxDownloadMegabytes. */
export function downloadCapError(target: string, max: number): EndpointError {
  return new EndpointError(
    'protocol',
    l10n.both(
      'The answer from {0} is larger than {1} (chainEndpoints.maxDownloadMegabytes, counted after decompression): the transfer was stopped and nothing was kept. Raise the setting in user settings to read it.',
      target,
      formatBytes(max),
    ),
  );
}

/** Reads a body piece by piece as it arrives (e.g. a formatter building the document). */
export interface BodyDigest {
  /** Called once before the first piece when the body's length is known. */
  expect?(bytes: number): void;
  push(piece: Buffer): unknown;
}
