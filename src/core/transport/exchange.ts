// One HTTP exchange on undici's dispatcher API, the layer under `undici.request`: the status and
// headers as a promise, then the body handed over piece by piece. While the reader takes pieces as
// they come (answers held in memory, formatted as they arrive) there is no stream at all: most
// answers arrive in one socket read, whole by the time the headers are awaited. A reader that has
// to wait (a file, a decompressor, a sink) gets the rest as a Readable, with undici's flow control.
// `undici.request` builds a stream, an async resource and a headers object for every request: a
// fifth of a loopback request (BENCHMARKS.md, "Request overhead").

import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';

export interface ExchangeHead {
  status: number;
  /** Names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
}

/** How a body is read: pieces while `take` wants them, then (if it stopped) the rest as a stream. */
export interface BodyReader {
  /** Hands each piece to `take` until it returns false (then false) or the body ends (then true). */
  readWhile(take: (piece: Buffer) => boolean): Promise<boolean>;
  /** What `readWhile` left: the rest of the body. */
  rest(): AsyncIterable<Buffer> & Readable;
}

/** What is held, before a reader comes, before undici is asked to wait. */
const QUEUE_LIMIT = 64 * 1024;

export class Exchange implements Dispatcher.DispatchHandlers, BodyReader {
  /** The status and headers; rejects when the exchange fails before them. */
  readonly head: Promise<ExchangeHead>;
  private resolveHead!: (head: ExchangeHead) => void;
  private rejectHead!: (err: Error) => void;
  private headed = false;
  private abortRequest?: (err: Error) => void;
  /** An abort asked for before undici gave the means (the request still queued). */
  private abortedEarly?: Error;
  private resume?: () => void;
  private paused = false;

  // The body: pieces that came before a reader, then the reader (`take`, or a stream).
  private queue: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private failure?: Error;
  private take?: (piece: Buffer) => boolean;
  private settle?: (ended: boolean, err?: Error) => void;
  private stream?: Readable;

  constructor() {
    this.head = new Promise((resolve, reject) => {
      this.resolveHead = resolve;
      this.rejectHead = reject;
    });
  }

  /** Sends `options` through `dispatcher`; `head` settles with the answer. */
  static start(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions): Exchange {
    const exchange = new Exchange();
    try {
      dispatcher.dispatch(options, exchange);
    } catch (err) {
      exchange.onError(err as Error);
    }
    return exchange;
  }

  /**
   * Ends the exchange with `err`: before the answer `head` rejects; after it, the reader gets `err`
   * (also when undici is already done and the reader is not: a slow disk, a decompressor).
   */
  abort(err: Error): void {
    if (this.abortRequest) this.abortRequest(err);
    else this.abortedEarly ??= err;
    this.onError(err);
    // undici was done, the reader is not.
    if (this.ended && this.stream && !this.stream.destroyed) this.stream.destroy(err);
  }

  // --- undici's side (Dispatcher.DispatchHandlers) ---

  onConnect(abort: (err?: Error) => void): void {
    if (this.abortedEarly) abort(this.abortedEarly);
    else this.abortRequest = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (status < 200) return true; // 1xx: informational, the answer follows
    this.headed = true;
    this.resume = resume;
    this.resolveHead({ status, headers: headersOf(rawHeaders) });
    return true;
  }

  onData(piece: Buffer): boolean {
    if (this.stream) return this.stream.push(piece);
    if (this.take) {
      if (this.take(piece)) return true;
      this.paused = true;
      this.settleWith(false);
      return false;
    }
    this.queue.push(piece);
    this.queued += piece.length;
    if (this.queued < QUEUE_LIMIT) return true;
    this.paused = true;
    return false;
  }

  onComplete(): void {
    this.ended = true;
    if (this.stream) this.stream.push(null);
    else this.settleWith(true);
  }

  onError(err: Error): void {
    if (!this.headed) {
      this.headed = true;
      this.rejectHead(err);
    }
    if (this.ended || this.failure) return;
    this.failure = err;
    if (this.stream) this.stream.destroy(err);
    else this.settleWith(false, err);
  }

  // --- the reader's side (BodyReader) ---

  readWhile(take: (piece: Buffer) => boolean): Promise<boolean> {
    const queue = this.queue;
    for (let i = 0; i < queue.length; i++) {
      if (!take(queue[i])) {
        this.queue = queue.slice(i + 1);
        this.queued = 0;
        for (const piece of this.queue) this.queued += piece.length;
        return Promise.resolve(false);
      }
    }
    this.queue = [];
    this.queued = 0;
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve(true);
    return new Promise((resolve, reject) => {
      this.take = take;
      this.settle = (ended, err) => (err ? reject(err) : resolve(ended));
      this.wake();
    });
  }

  rest(): AsyncIterable<Buffer> & Readable {
    if (this.stream) return this.stream;
    // As undici's own body stream: 64 KB buffered, each read asks undici to go on (a no-op
    // unless it waits).
    const stream = new Readable({
      highWaterMark: 64 * 1024,
      read: () => {
        this.paused = false;
        this.resume?.();
      },
    });
    for (const piece of this.queue) stream.push(piece);
    this.queue = [];
    this.queued = 0;
    if (this.failure) stream.destroy(this.failure);
    else if (this.ended) stream.push(null);
    this.stream = stream;
    return stream;
  }

  private settleWith(ended: boolean, err?: Error): void {
    const settle = this.settle;
    this.take = undefined;
    this.settle = undefined;
    settle?.(ended, err);
  }

  private wake(): void {
    if (!this.paused) return;
    this.paused = false;
    this.resume?.();
  }
}

/** A BodyReader over a stream (a decompressed body). */
export function streamReader(stream: Readable): BodyReader {
  return {
    readWhile: (take) => readStreamWhile(stream, take),
    rest: () => stream as AsyncIterable<Buffer> & Readable,
  };
}

function readStreamWhile(stream: Readable, take: (piece: Buffer) => boolean): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const settle = (ended: boolean, err?: Error) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      if (err) reject(err);
      else resolve(ended);
    };
    const onData = (piece: Buffer) => {
      if (!take(piece)) {
        stream.pause();
        settle(false);
      }
    };
    const onEnd = () => settle(true);
    const onError = (err: Error) => settle(false, err);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

/** undici's raw header list as one object (names in lower case, repeats joined). */
function headersOf(raw: Buffer[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toString('latin1').toLowerCase();
    const value = raw[i + 1].toString('utf8');
    const before = out[name];
    out[name] = before === undefined ? value : `${before}, ${value}`;
  }
  return out;
}
