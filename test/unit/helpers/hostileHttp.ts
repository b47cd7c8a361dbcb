// Hostile HTTP answers for the hardening run: a generator of bad answers (each case a kind, a
// seeded variant and what a correct client must make of it) and the loopback servers that serve
// them. Every case has its own path prefix (`/case/N/`), used as the provider's base address, so
// one server answers thousands of cases concurrently and records what each case was asked.

import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

import type { Expect } from './clearDocument';
export type { Expect };

export interface CaseRecord {
  method: string;
  path: string;
}

export interface HostileCase {
  id: number;
  kind: string;
  variant: string;
  expect: Expect;
  /** Hang cases run with a short deadline. */
  hang: boolean;
  /** Served by the raw TCP server (no HTTP framing, or none at all). */
  raw?: 'silent' | 'garbage' | 'close' | 'reset';
  respond?: (req: http.IncomingMessage, res: http.ServerResponse, path: string) => void;
  requests: CaseRecord[];
}

export type Dialect = 'jsonrpc' | 'rest';

const HTML_PAGES = [
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
  '<html><body><h1>429 Too Many Requests</h1>You have sent too many requests in a given amount of time.</body></html>',
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Attention Required! | Cloudflare</title></head><body>' +
    'x'.repeat(4000) +
    '</body></html>',
  '   \n<HTML><HEAD><TITLE>Error</TITLE></HEAD><BODY>An error occurred while processing your request.<p>Reference&#32;&#35;97&#46;8c</BODY></HTML>',
];

function pick<T>(r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)];
}

function okBody(dialect: Dialect): string {
  return dialect === 'jsonrpc' ? '{"jsonrpc":"2.0","id":1,"result":{"ok":true,"height":"5"}}' : '{"ok":true,"height":"5"}';
}

function send(res: http.ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers);
  res.end(body);
}

function deep(depth: number): string {
  return '['.repeat(depth) + '1' + ']'.repeat(depth);
}

// Large texts built once (the makers run thousands of times).
const LONG_MESSAGE = JSON.stringify('m'.repeat(100_000));
const LONG_DATA = JSON.stringify('d'.repeat(200_000));
const LONG_REST = JSON.stringify('r'.repeat(100_000));
const compressedCache = new Map<string, Buffer>();
function cached(key: string, make: () => Buffer): Buffer {
  let b = compressedCache.get(key);
  if (!b) compressedCache.set(key, (b = make()));
  return b;
}

const BIG = [
  '18446744073709551616',
  '340282366920938463463374607431768211457',
  '9'.repeat(400),
  '1e400',
  '-18446744073709551617',
  '0.' + '0'.repeat(300) + '1',
];

/** The kinds, each a function of the PRNG that fills a case. */
type Maker = (r: () => number, d: Dialect, c: HostileCase, chunked: boolean) => void;

export const KINDS: Record<string, Maker> = {
  truncatedJson(r, d, c) {
    const full = pick(r, [
      okBody(d),
      `{"jsonrpc":"2.0","id":1,"result":{"block":{"header":{"height":"12","time":"2024-01-01T00:00:00Z"}},"txs":["AAAA","BBBB"]}}`,
    ]);
    const cut = 1 + Math.floor(r() * (full.length - 2));
    c.variant = `cut at ${cut}/${full.length}`;
    c.expect = 'error';
    c.respond = (_q, res) => send(res, 200, full.slice(0, cut), { 'content-type': 'application/json' });
  },
  invalidJson(r, _d, c) {
    const bodies = [
      '{"jsonrpc":"2.0",,}',
      "{'single':'quotes'}",
      '{"a":1}{"b":2}',
      'NaN',
      '{"a":undefined}',
      '\u0000\u0001\u0002garbage',
      'x' + Buffer.from(Array.from({ length: 64 }, () => Math.floor(r() * 256))).toString('latin1'),
      '\uFEFF{"bom":true',
      '{"unterminated":"',
    ];
    const b = pick(r, bodies);
    c.variant = JSON.stringify(b.slice(0, 20));
    c.expect = 'error';
    c.respond = (_q, res) => send(res, pick(r, [200, 200, 500]), Buffer.from(b, 'latin1'), { 'content-type': 'application/json' });
  },
  htmlErrorPage(r, _d, c) {
    const status = pick(r, [200, 403, 404, 500, 502, 503, 520, 521]);
    const typed = r() < 0.7;
    c.variant = `${status}${typed ? ' text/html' : ' untyped'}`;
    c.expect = 'error';
    const page = pick(r, HTML_PAGES);
    c.respond = (_q, res) => send(res, status, page, typed ? { 'content-type': 'text/html; charset=utf-8' } : {});
  },
  jsonRpcError(r, d, c) {
    const code = pick(r, [-32700, -32600, -32601, -32602, -32603, -32000, 3, '"-32603"', 'null', '{"x":1}']);
    const message = pick(r, ['"Internal error"', '"Invalid params"', '""', 'null', '42', '"line1\\nline2\\r\\n\\u001b[31mred\\u001b[0m\\u0000"', LONG_MESSAGE]);
    const data = pick(r, [
      undefined,
      '"height 99 must be less than or equal to the current blockchain height 5"',
      '{"reason":"x","nested":{"deep":[1,2,3]}}',
      '12',
      'null',
      '""',
      LONG_DATA,
      '"0x08c379a0"',
    ]);
    const status = d === 'jsonrpc' ? pick(r, [200, 200, 500]) : pick(r, [400, 500]);
    const body = `{"jsonrpc":"2.0","id":${pick(r, ['1', '-1', 'null', '"x"'])},"error":{"code":${code},"message":${message}${data === undefined ? '' : `,"data":${data}`}}}`;
    c.variant = `${status} code ${code} data ${data === undefined ? 'absent' : data.slice(0, 12)}`;
    c.expect = 'error';
    c.respond = (_q, res) => send(res, status, body, { 'content-type': 'application/json' });
  },
  restErrorBody(r, _d, c) {
    const [status, code] = pick(r, [
      [400, 3],
      [404, 5],
      [500, 2],
      [500, 13],
      [501, 12],
      [503, 14],
      [429, 8],
      [504, 4],
      [403, 7],
      [401, 16],
    ] as Array<[number, number]>);
    const message = pick(r, ['"requested block height is bigger then the chain length"', '"Not Implemented"', '""', '5', 'null', LONG_REST, '"a\\nb\\u0000c"']);
    const body = `{"code":${pick(r, [String(code), `"${code}"`, 'null'])},"message":${message},"details":${pick(r, ['[]', '[{"@type":"x"}]', 'null'])}}`;
    c.variant = `${status} gRPC ${code} message ${message.slice(0, 10)}`;
    c.expect = 'error';
    c.respond = (_q, res) => send(res, status, body, { 'content-type': 'application/json' });
  },
  wrongShape(r, d, c) {
    const big = pick(r, BIG);
    const shapes = [
      '{}',
      '[]',
      'null',
      '"a string"',
      '42',
      'true',
      '{"jsonrpc":"2.0","id":1}',
      '{"jsonrpc":"2.0","id":1,"result":null}',
      `{"jsonrpc":"2.0","id":1,"result":${big}}`,
      `{"jsonrpc":"2.0","id":1,"result":{"sync_info":{"latest_block_height":${big}},"node_info":{"network":7}}}`,
      '{"jsonrpc":"2.0","id":1,"result":{"sync_info":"not an object","code":"0","hash":5}}',
      `{"jsonrpc":"2.0","id":1,"result":{"code":${big},"log":{"x":[]}}}`,
      `{"tx_response":{"code":${big},"txhash":null,"raw_log":7}}`,
      '{"tx_response":"nope"}',
      `{"jsonrpc":"2.0","id":1,"result":"0x${'f'.repeat(80)}"}`,
      '{"jsonrpc":"2.0","id":1,"result":"0x"}',
      '{"jsonrpc":"2.0","id":1,"result":"not hex"}',
      `{"jsonrpc":"2.0","id":1,"result":${deep(50 + Math.floor(r() * 950))}}`,
      `{"deep":${deep(50 + Math.floor(r() * 950))}}`,
      '[{"jsonrpc":"2.0","id":1,"result":"0x1"},{"jsonrpc":"2.0","id":2,"result":"0x2"}]',
      `{"jsonrpc":"2.0","id":1,"result":{"${'k'.repeat(1000)}":[${Array.from({ length: 500 }, (_, i) => i).join(',')}]}}`,
      '{"jsonrpc":"1.0","id":99,"result":{"a":"\\u0000\\ud800"}}',
      '{"a":1,"a":2}',
    ];
    const body = pick(r, shapes);
    c.variant = body.slice(0, 40);
    // A JSON-RPC answer without "result" is an error; anything else is a normal document.
    c.expect = 'either';
    c.respond = (_q, res) => send(res, 200, body, { 'content-type': 'application/json' });
    void d;
  },
  emptyBody(r, _d, c) {
    const status = pick(r, [200, 201, 204, 500, 502, 503]);
    c.variant = String(status);
    c.expect = 'error';
    c.respond = (_q, res) => {
      res.writeHead(status, status === 204 ? {} : { 'content-type': 'application/json', 'content-length': '0' });
      res.end();
    };
  },
  rateLimited(r, _d, c) {
    const retry = pick(r, [
      undefined,
      '5',
      '0',
      '120',
      new Date(Date.now() + 30_000).toUTCString(),
      'Wed, 21 Oct 2015 07:28:00 GMT',
      'soon',
      '99999999999',
      '',
    ]);
    const body = pick(r, [
      '',
      HTML_PAGES[1],
      '{"code":8,"message":"rate limit exceeded","details":[]}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"limit exceeded"}}',
      'Too Many Requests',
    ]);
    c.variant = `Retry-After ${retry === undefined ? 'absent' : JSON.stringify(retry)} body ${body.slice(0, 10)}`;
    c.expect = 'error';
    c.respond = (_q, res) =>
      send(res, 429, body, {
        'content-type': body.startsWith('{') ? 'application/json' : 'text/html',
        ...(retry !== undefined ? { 'retry-after': retry } : {}),
      });
  },
  gatewayError(r, _d, c) {
    const status = pick(r, [502, 503, 504]);
    const retry = pick(r, [undefined, undefined, '10', new Date(Date.now() + 5_000).toUTCString()]);
    const body = pick(r, [
      HTML_PAGES[0],
      HTML_PAGES[2],
      '',
      'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
      '{"message":"Service Unavailable"}',
    ]);
    c.variant = `${status} Retry-After ${retry ?? 'absent'}`;
    c.expect = 'error';
    c.respond = (_q, res) =>
      send(res, status, body, {
        'content-type': body.startsWith('<') || body.startsWith('<!') ? 'text/html' : 'text/plain',
        ...(retry ? { 'retry-after': retry } : {}),
      });
  },
  wrongContentType(r, d, c) {
    const type = pick(r, [
      'text/html',
      'text/plain',
      'application/octet-stream',
      'image/png',
      undefined,
      'application/json; charset=utf-16',
      'application/xml',
    ]);
    const binary = type === 'image/png' || (type === 'application/octet-stream' && r() < 0.5);
    c.variant = `${type ?? 'none'}${binary ? ' binary' : ' json'}`;
    c.expect = binary ? 'error' : 'either';
    const body = binary ? Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]) : okBody(d);
    c.respond = (_q, res) => send(res, 200, body, type ? { 'content-type': type } : {});
  },
  compressed(r, d, c) {
    const enc = pick(r, ['gzip', 'deflate', 'br', 'x-gzip', 'GZIP']);
    const raw = Buffer.from(okBody(d));
    const body = cached(`${d} ${enc}`, () => (enc === 'br' ? brotliCompressSync(raw) : enc === 'deflate' ? deflateSync(raw) : gzipSync(raw)));
    c.variant = enc;
    c.expect = 'ok';
    c.respond = (_q, res) => send(res, 200, body, { 'content-type': 'application/json', 'content-encoding': enc });
  },
  lyingEncoding(r, d, c) {
    const raw = Buffer.from(okBody(d));
    const variants: Array<[string, string, () => Buffer, Expect]> = [
      ['says gzip, sends plain JSON', 'gzip', () => raw, 'error'],
      ['says br, sends gzip', 'br', () => gzipSync(raw), 'error'],
      ['says deflate, sends garbage', 'deflate', () => Buffer.from('not deflate at all'), 'error'],
      ['truncated gzip', 'gzip', () => gzipSync(raw).subarray(0, 12), 'error'],
      ['says gzip, br (stacked)', 'gzip, br', () => brotliCompressSync(gzipSync(raw)), 'either'],
      ['unknown zstd over plain JSON', 'zstd', () => raw, 'either'],
      ['identity', 'identity', () => raw, 'ok'],
      ['gzip of an HTML page', 'gzip', () => gzipSync(Buffer.from(HTML_PAGES[0])), 'error'],
    ];
    const [name, enc, make, expect] = pick(r, variants);
    const body = cached(`${d} ${name}`, make);
    c.variant = name;
    c.expect = expect;
    c.respond = (_q, res) => send(res, 200, body, { 'content-type': 'application/json', 'content-encoding': enc });
  },
  redirect(r, _d, c) {
    const status = pick(r, [301, 302, 303, 307, 308]);
    const absolute = r() < 0.5;
    c.variant = `${status} ${absolute ? 'absolute' : 'relative'}`;
    c.expect = 'error';
    c.respond = (q, res) => {
      const host = q.headers.host ?? '127.0.0.1';
      const location = absolute ? `http://${host}/case/${c.id}/elsewhere` : `/case/${c.id}/elsewhere`;
      send(res, status, '<a href="/elsewhere">Moved</a>', { location, 'content-type': 'text/html' });
    };
  },
  bodyNeverFinishes(r, _d, c) {
    const declared = r() < 0.5;
    c.variant = declared ? 'content-length 5000, 40 bytes sent' : 'chunked, one chunk sent';
    c.expect = 'error';
    c.hang = true;
    c.respond = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': '5000' } : {}) });
      res.write('{"jsonrpc":"2.0","id":1,"result":{"data":"');
      // ...and nothing more: the socket stays open until the client gives up.
    };
  },
  neverAnswers(r, _d, c) {
    c.variant = pick(r, ['accepts and stays silent']);
    c.expect = 'error';
    c.hang = true;
    c.raw = 'silent';
  },
  headersNeverFinish(_r, _d, c) {
    c.variant = 'status line then nothing';
    c.expect = 'error';
    c.hang = true;
    c.respond = (_q, res) => {
      res.socket?.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n');
    };
  },
  brokenConnection(r, _d, c) {
    const how = pick(r, ['reset mid-body', 'close mid-body (content-length lie)', 'close before answering', 'reset before answering', 'not HTTP']);
    c.variant = how;
    c.expect = 'error';
    if (how === 'close before answering') c.raw = 'close';
    else if (how === 'reset before answering') c.raw = 'reset';
    else if (how === 'not HTTP') c.raw = 'garbage';
    else {
      c.respond = (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"jsonrpc":"2.0","id":1,"res', () => {
          setTimeout(() => (how.startsWith('reset') ? res.socket?.resetAndDestroy() : res.socket?.end()), 5);
        });
      };
    }
  },
  gzipCutByReset(_r, d, c) {
    c.variant = 'gzip body, connection reset halfway';
    c.expect = 'error';
    const body = cached(`${d} padded`, () => gzipSync(Buffer.from(okBody(d).replace('"ok":true', `"pad":"${'p'.repeat(50_000)}","ok":true`))));
    c.respond = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => setTimeout(() => res.socket?.resetAndDestroy(), 5));
    };
  },
  slowDribble(_r, d, c) {
    c.variant = 'valid answer in 5 pieces over ~100 ms';
    c.expect = 'ok';
    const body = okBody(d);
    c.respond = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let i = 0;
      const step = Math.ceil(body.length / 5);
      const next = () => {
        if (i >= body.length) return res.end();
        res.write(body.slice(i, i + step));
        i += step;
        setTimeout(next, 20);
      };
      next();
    };
  },
  hostileChunkedGenesis(r, _d, c, chunked) {
    // Only meaningful for the genesis operation: /genesis says "use genesis_chunked", then the
    // chunk answers are wrong.
    const variants: Array<[string, (chunk: number) => string]> = [
      ['data not base64', () => '{"jsonrpc":"2.0","id":-1,"result":{"chunk":"0","total":"2","data":"!!!not base64!!!"}}'],
      ['total missing', () => '{"jsonrpc":"2.0","id":-1,"result":{"chunk":"0","data":"e30="}}'],
      ['total not a number', () => '{"jsonrpc":"2.0","id":-1,"result":{"chunk":"0","total":"many","data":"e30="}}'],
      ['total 0', () => '{"jsonrpc":"2.0","id":-1,"result":{"chunk":"0","total":"0","data":"e30="}}'],
      ['total past 2^64', () => '{"jsonrpc":"2.0","id":-1,"result":{"chunk":"0","total":"18446744073709551617","data":"e30="}}'],
      ['wrong chunk index', () => '{"jsonrpc":"2.0","id":-1,"result":{"chunk":"1","total":"2","data":"e30="}}'],
      ['total changes', (n) => `{"jsonrpc":"2.0","id":-1,"result":{"chunk":"${n}","total":"${n + 2}","data":"e30="}}`],
      [
        'second chunk is an error',
        (n) =>
          n === 0
            ? '{"jsonrpc":"2.0","id":-1,"result":{"chunk":"0","total":"2","data":"e30="}}'
            : '{"jsonrpc":"2.0","id":-1,"error":{"code":-32603,"message":"Internal error","data":"there are 2 chunks, 1 is invalid"}}',
      ],
      ['data is a number', () => '{"jsonrpc":"2.0","id":-1,"result":{"chunk":"0","total":"1","data":12345}}'],
      ['data string never ends', () => '{"jsonrpc":"2.0","id":-1,"result":{"chunk":"0","total":"1","data":"e30='],
      ['base64 length not a multiple of 4', () => '{"jsonrpc":"2.0","id":-1,"result":{"chunk":"0","total":"1","data":"e30"}}'],
      ['HTML instead of a chunk', () => HTML_PAGES[0]],
    ];
    const [name, chunkBody] = pick(r, variants);
    c.variant = name;
    c.expect = chunked ? 'error' : 'either';
    c.respond = (q, res, path) => {
      if (path.startsWith('genesis_chunked')) {
        const n = Number(new URL(q.url ?? '/', 'http://x').searchParams.get('chunk') ?? '0');
        return send(res, 200, chunkBody(n), { 'content-type': 'application/json' });
      }
      if (path.startsWith('genesis')) {
        return send(
          res,
          500,
          '{"jsonrpc":"2.0","id":-1,"error":{"code":-32603,"message":"Internal error","data":"genesis response is large, please use the genesis_chunked API instead"}}',
          { 'content-type': 'application/json' },
        );
      }
      send(res, 200, '{"jsonrpc":"2.0","id":1,"result":{}}', { 'content-type': 'application/json' });
    };
  },
};

export const HANG_KINDS = new Set(['bodyNeverFinishes', 'neverAnswers', 'headersNeverFinish']);

export function makeCase(id: number, kind: string, r: () => number, dialect: Dialect, isGenesisOp: boolean): HostileCase {
  const c: HostileCase = { id, kind, variant: '', expect: 'error', hang: false, requests: [] };
  KINDS[kind](r, dialect, c, isGenesisOp);
  return c;
}

/** One HTTP server for the framed cases and one raw TCP server for the rest. */
export class HostileServers {
  readonly cases = new Map<number, HostileCase>();
  /** Requests that followed a redirect (to .../elsewhere). */
  followed = 0;
  private readonly sockets = new Set<net.Socket>();
  private constructor(
    private readonly httpServer: http.Server,
    private readonly rawServer: net.Server,
  ) {}

  static async start(): Promise<HostileServers> {
    // eslint-disable-next-line prefer-const -- assigned once the server that refers to it exists
    let self: HostileServers | undefined;
    const httpServer = http.createServer((req, res) => self!.onRequest(req, res));
    httpServer.keepAliveTimeout = 30_000;
    const rawServer = net.createServer((s) => self!.onRaw(s));
    self = new HostileServers(httpServer, rawServer);
    for (const srv of [httpServer, rawServer]) {
      srv.on('connection', (s: net.Socket) => {
        self!.sockets.add(s);
        s.on('close', () => self!.sockets.delete(s));
        s.on('error', () => undefined);
      });
      await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    }
    return self;
  }

  baseFor(c: HostileCase): string {
    const port = ((c.raw ? this.rawServer : this.httpServer).address() as AddressInfo).port;
    return `http://127.0.0.1:${port}/case/${c.id}/`;
  }

  openSockets(): number {
    return this.sockets.size;
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.on('data', () => undefined);
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    req.on('end', () => {
      const m = /^\/case\/(\d+)\/?(.*)$/.exec(req.url ?? '');
      const c = m ? this.cases.get(Number(m[1])) : undefined;
      if (!c || !c.respond) return send(res, 404, '404 page not found', { 'content-type': 'text/plain' });
      const path = m![2];
      c.requests.push({ method: req.method ?? '', path });
      if (path.startsWith('elsewhere')) {
        this.followed++;
        return send(res, 200, '{"jsonrpc":"2.0","id":1,"result":{"followed":true}}', { 'content-type': 'application/json' });
      }
      c.respond(req, res, path);
    });
  }

  private onRaw(s: net.Socket): void {
    let head = '';
    s.on('data', (d) => {
      if (head.includes('\r\n')) return;
      head += d.toString('latin1');
      if (!head.includes('\r\n')) return;
      const m = /\/case\/(\d+)\//.exec(head);
      const c = m ? this.cases.get(Number(m[1])) : undefined;
      c?.requests.push({ method: head.split(' ')[0], path: 'raw' });
      switch (c?.raw) {
        case 'silent':
          return; // read everything, answer nothing, never close
        case 'close':
          return void s.end();
        case 'reset':
          return void s.resetAndDestroy();
        case 'garbage':
          s.write('HELLO THERE\r\n\u0000\u0001 this is not HTTP\r\n\r\n');
          return void setTimeout(() => s.end(), 5);
        default:
          s.end();
      }
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.httpServer.closeAllConnections();
    await Promise.all([new Promise<void>((r) => this.httpServer.close(() => r())), new Promise<void>((r) => this.rawServer.close(() => r()))]);
  }
}
