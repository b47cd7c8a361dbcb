// One HTTP listener of a devnet provider: a fixed port that survives stop/start, tracking of
// every socket (so stopping really cuts clients off), injected faults, Go-style path cleaning
// and a log of the requests received.
import * as http from 'node:http';
import type { Duplex } from 'node:stream';

export type Fault =
  | { kind: 'status'; status: number; body?: string; contentType?: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'garbage' }
  | { kind: 'refuse' };

export interface RequestEntry {
  iface: string;
  method: string;
  path: string;
  body: string;
}

export class RequestLog {
  private readonly items: RequestEntry[] = [];
  constructor(private readonly max = 200) {}
  push(e: RequestEntry): void {
    if (e.body.length > 65536) e = { ...e, body: e.body.slice(0, 65536) };
    this.items.push(e);
    if (this.items.length > this.max) this.items.splice(0, this.items.length - this.max);
  }
  list(): RequestEntry[] {
    return this.items.map((e) => ({ ...e }));
  }
}

export interface HttpCall {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  body: Buffer;
  /** The body was longer than the listener's limit (body then holds only the first part). */
  tooLarge: boolean;
  path: string;
  query: URLSearchParams;
}

export interface ListenerOptions {
  host: string;
  port: number;
  iface: string;
  log: RequestLog;
  maxBody: number;
  handle: (call: HttpCall) => void | Promise<void>;
  upgrade?: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;
  /**
   * How an unclean path (`//status`) is redirected: Go's ServeMux (CometBFT, Go 1.22+) answers 307
   * with a small HTML page for GET; gorilla/mux (the REST gateway, the EVM JSON-RPC) answers 301
   * without a body. Default 'gorilla'.
   */
  redirect?: 'servemux' | 'gorilla';
}

const STATUS_TEXT = http.STATUS_CODES;

export class Listener {
  fault: Fault | undefined;
  port: number;
  private server: http.Server | undefined;
  private readonly sockets = new Set<Duplex>();
  private wanted = false;

  constructor(private readonly o: ListenerOptions) {
    this.port = o.port;
  }

  get listening(): boolean {
    return this.server !== undefined;
  }

  async start(): Promise<void> {
    this.wanted = true;
    if (this.fault?.kind !== 'refuse') await this.open();
  }

  async stop(): Promise<void> {
    this.wanted = false;
    await this.close();
  }

  async setFault(fault: Fault | undefined): Promise<void> {
    this.fault = fault;
    if (fault?.kind === 'refuse') await this.close();
    else if (this.wanted && !this.server) await this.open();
  }

  private async open(): Promise<void> {
    if (this.server) return;
    const server = http.createServer({ keepAliveTimeout: 5000 });
    server.on('connection', (s) => this.track(s));
    server.on('request', (req, res) => this.onRequest(req, res));
    server.on('upgrade', (req, socket: Duplex, head: Buffer) => this.onUpgrade(req, socket, head));
    server.on('clientError', (_err, socket: Duplex) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: this.o.host, port: this.port }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address();
    if (addr && typeof addr === 'object') this.port = addr.port;
    this.server = server;
  }

  private async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private track(s: Duplex): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= this.o.maxBody) chunks.push(c);
      else tooLarge = true;
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = req.url ?? '/';
      this.o.log.push({ iface: this.o.iface, method: req.method ?? 'GET', path: url, body: body.toString('utf8') });
      if (this.fault && this.applyFault(res)) return;
      const q = url.indexOf('?');
      const rawPath = q >= 0 ? url.slice(0, q) : url;
      const search = q >= 0 ? url.slice(q) : '';
      const clean = cleanPath(rawPath);
      if (clean !== rawPath) {
        // Go's ServeMux and gorilla/mux redirect unclean paths; a POST body is lost on the way.
        const servemux = this.o.redirect === 'servemux';
        res.statusCode = servemux ? 307 : 301;
        res.setHeader('Location', clean + search);
        if (servemux && (req.method === 'GET' || req.method === 'HEAD')) {
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.end(`<a href="${clean + search}">Temporary Redirect</a>.\n\n`);
        } else res.end();
        return;
      }
      let path = rawPath;
      try {
        path = decodeURIComponent(rawPath);
      } catch {
        // keep the raw form
      }
      const call: HttpCall = { req, res, body, tooLarge, path, query: new URLSearchParams(search) };
      Promise.resolve()
        .then(() => this.o.handle(call))
        .catch((err: unknown) => {
          if (!res.headersSent) {
            res.statusCode = 500;
            res.setHeader('Content-Type', 'text/plain; charset=utf-8');
          }
          res.end(`devnet internal error: ${String(err)}`);
        });
    });
  }

  /** Returns true when the fault took over the answer. */
  private applyFault(res: http.ServerResponse): boolean {
    const f = this.fault;
    if (!f) return false;
    switch (f.kind) {
      case 'hang':
        return true;
      case 'garbage':
        res.statusCode = 200;
        res.setHeader('Content-Type', 'application/json');
        res.end('<<< devnet garbage: this is not JSON >>>');
        return true;
      case 'status': {
        res.statusCode = f.status;
        res.setHeader('Content-Type', f.contentType ?? 'text/html');
        for (const [k, v] of Object.entries(f.headers ?? {})) res.setHeader(k, v);
        res.end(f.body ?? nginxPage(f.status));
        return true;
      }
      case 'refuse':
        res.socket?.destroy();
        return true;
    }
  }

  private onUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    this.o.log.push({ iface: this.o.iface, method: 'UPGRADE', path: req.url ?? '/', body: '' });
    const f = this.fault;
    if (f) {
      if (f.kind === 'hang') return;
      if (f.kind === 'refuse') {
        socket.destroy();
        return;
      }
      const status = f.kind === 'status' ? f.status : 200;
      const body = f.kind === 'status' ? (f.body ?? nginxPage(f.status)) : '<<< devnet garbage: this is not JSON >>>';
      const ctype = f.kind === 'status' ? (f.contentType ?? 'text/html') : 'application/json';
      const extra =
        f.kind === 'status'
          ? Object.entries(f.headers ?? {})
              .map(([k, v]) => `${k}: ${v}\r\n`)
              .join('')
          : '';
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ''}\r\nContent-Type: ${ctype}\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    if (this.o.upgrade) this.o.upgrade(req, socket, head);
    else {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 19\r\nConnection: close\r\n\r\n404 page not found\n');
    }
  }
}

function nginxPage(status: number): string {
  const t = `${status} ${STATUS_TEXT[status] ?? ''}`.trim();
  return `<html>\r\n<head><title>${t}</title></head>\r\n<body>\r\n<center><h1>${t}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/** Go's path.Clean as ServeMux applies it (a trailing slash is kept). */
export function cleanPath(p: string): string {
  if (p === '') return '/';
  if (!p.startsWith('/')) p = '/' + p;
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  let clean = '/' + out.join('/');
  if (p.endsWith('/') && clean !== '/') clean += '/';
  return clean;
}

export function sendJson(res: http.ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.end(body);
}

export function sendText(res: http.ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8'): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.end(body);
}
