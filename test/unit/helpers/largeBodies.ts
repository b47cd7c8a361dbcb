// Large answers without holding them: a deterministic genesis of any size served through
// `genesis_chunked` (each chunk's base64 streamed in small pieces, with backpressure) and a single
// large JSON answer, both generated on the fly. Every write is timed, so a test can tell how many
// bytes left the server after a client cancelled.

import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const PATTERN_LEN = 65_521; // prime: the filler does not line up with chunk or piece sizes
const PATTERN = Buffer.alloc(PATTERN_LEN * 2);
{
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let x = 2463534242;
  for (let i = 0; i < PATTERN_LEN; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    PATTERN[i] = chars.charCodeAt((x >>> 0) % chars.length);
  }
  PATTERN.copy(PATTERN, PATTERN_LEN, 0, PATTERN_LEN);
}

/** A JSON document of exactly `total` bytes: `prefix` + filler string + `suffix`. */
export class SyntheticJson {
  constructor(
    readonly total: number,
    private readonly prefix: Buffer,
    private readonly suffix: Buffer,
  ) {
    if (total < prefix.length + suffix.length) throw new Error('too small');
  }

  static genesis(total: number): SyntheticJson {
    return new SyntheticJson(
      total,
      Buffer.from(
        '{"genesis_time":"2024-01-01T00:00:00Z","chain_id":"big-1","initial_height":"1","consensus_params":{},"validators":[],"app_hash":"","app_state":{"filler":"',
      ),
      Buffer.from('"}}'),
    );
  }

  static answer(total: number): SyntheticJson {
    return new SyntheticJson(total, Buffer.from('{"jsonrpc":"2.0","id":-1,"result":{"blob":"'), Buffer.from('"}}'));
  }

  /** Bytes [offset, offset + length) of the document. */
  slice(offset: number, length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    let o = 0;
    const fillerEnd = this.total - this.suffix.length;
    while (o < length) {
      const at = offset + o;
      if (at < this.prefix.length) {
        o += this.prefix.copy(out, o, at, Math.min(this.prefix.length, at + length - o));
      } else if (at < fillerEnd) {
        const i = (at - this.prefix.length) % PATTERN_LEN;
        const n = Math.min(length - o, fillerEnd - at, PATTERN_LEN);
        o += PATTERN.copy(out, o, i, i + n);
      } else {
        const i = at - fillerEnd;
        o += this.suffix.copy(out, o, i, Math.min(this.suffix.length, i + length - o));
      }
    }
    return out;
  }

  sha256(): string {
    const h = createHash('sha256');
    const step = 4 * 1024 * 1024;
    for (let at = 0; at < this.total; at += step) h.update(this.slice(at, Math.min(step, this.total - at)));
    return h.digest('hex');
  }
}

export interface WriteLog {
  /** [time (Date.now()), cumulative bytes written] after each write. */
  points: Array<[number, number]>;
  closedAt?: number;
}

export interface LargeServerOptions {
  genesis: SyntheticJson;
  chunkBytes: number;
  answer: SyntheticJson;
}

/** Serves /genesis (refused: too large), /genesis_chunked?chunk=N and /big.json. */
export class LargeBodyServer {
  readonly log: WriteLog = { points: [] };
  private written = 0;
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: http.Server,
    private readonly options: LargeServerOptions,
  ) {}

  static async start(options: LargeServerOptions): Promise<LargeBodyServer> {
    // eslint-disable-next-line prefer-const -- assigned once the server that refers to it exists
    let self: LargeBodyServer | undefined;
    const server = http.createServer((req, res) => void self!.handle(req, res));
    self = new LargeBodyServer(server, options);
    server.on('connection', (s: Socket) => {
      self!.sockets.add(s);
      s.on('close', () => {
        self!.sockets.delete(s);
        self!.log.closedAt = Date.now();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return self;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get chunks(): number {
    return Math.ceil(this.options.genesis.total / this.options.chunkBytes);
  }

  /** Bytes the server wrote after `at` (until the client's socket closed). */
  bytesAfter(at: number): number {
    const before = [...this.log.points].reverse().find(([t]) => t <= at)?.[1] ?? 0;
    return this.written - before;
  }

  resetLog(): void {
    this.log.points.length = 0;
    this.log.closedAt = undefined;
    this.written = 0;
  }

  private async write(res: http.ServerResponse, data: Buffer | string): Promise<boolean> {
    if (res.destroyed) return false;
    const ok = res.write(data);
    this.written += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    this.log.points.push([Date.now(), this.written]);
    if (this.log.points.length > 200_000) this.log.points.splice(0, 100_000);
    if (!ok) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
    return !res.destroyed;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://x');
    const { genesis, chunkBytes, answer } = this.options;
    if (url.pathname === '/genesis') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        '{"jsonrpc":"2.0","id":-1,"error":{"code":-32603,"message":"Internal error","data":"genesis response is large, please use the genesis_chunked API instead"}}',
      );
      return;
    }
    if (url.pathname === '/genesis_chunked') {
      const n = Number(url.searchParams.get('chunk'));
      const start = n * chunkBytes;
      const end = Math.min(genesis.total, start + chunkBytes);
      res.writeHead(200, { 'content-type': 'application/json' });
      if (!(await this.write(res, `{"jsonrpc":"2.0","id":-1,"result":{"chunk":"${n}","total":"${this.chunks}","data":"`))) return;
      const piece = 3 * 65_536; // a multiple of 3: the base64 of the pieces concatenates
      for (let at = start; at < end; at += piece) {
        if (!(await this.write(res, genesis.slice(at, Math.min(piece, end - at)).toString('base64')))) return;
      }
      if (await this.write(res, '"}}')) res.end();
      return;
    }
    if (url.pathname === '/big.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(answer.total) });
      const piece = 256 * 1024;
      for (let at = 0; at < answer.total; at += piece) {
        if (!(await this.write(res, answer.slice(at, Math.min(piece, answer.total - at))))) return;
      }
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
