// A CometBFT /websocket endpoint that produces blocks on its own clock and breaks its sockets in
// every way a public node (or the proxy in front of it) does: close frame, TCP reset, a half-open
// socket that goes silent, a cancelled subscription (-32000), `max_subscription_clients`
// refusals, a proxy that closes idle sockets, and a restart on the same port. The chain keeps
// producing blocks while a client is cut off, so a reconnecting client sees a jump in height.

import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

export type FaultKind = 'close' | 'reset' | 'halfOpen' | 'cancel' | 'refuse' | 'idleProxy' | 'restart';
export const FAULT_KINDS: readonly FaultKind[] = ['close', 'reset', 'halfOpen', 'cancel', 'refuse', 'idleProxy', 'restart'];

export interface ChaosConnection {
  readonly ws: WebSocket;
  readonly socket: Socket;
  readonly openedAt: number;
  /** Ids of accepted subscriptions on this socket. */
  readonly subscriptions: number[];
  /** Every subscribe request seen on this socket (accepted, refused or duplicate). */
  subscribeRequests: number;
  subscribedAt?: number;
  closed: boolean;
  /** Half-open: nothing in or out any more (no events, no pongs, no answers). */
  dead: boolean;
  /** The node stopped talking; the proxy in front closes the socket after its idle timeout. */
  idle: boolean;
  idleTimer?: NodeJS.Timeout;
  /** Send one stale (lower) height first, like a lagging backend behind a load balancer. */
  staleFirst: boolean;
}

export interface ChaosOptions {
  blockMs: number;
  /** Proxy idle timeout (the 60-100 s of real proxies, scaled down). */
  proxyIdleMs: number;
  startHeight?: bigint;
  /** Random source in [0, 1) (seeded by the test). */
  random: () => number;
}

export interface InjectedFault {
  kind: FaultKind;
  injectedAt: number;
  /** When the server could serve a new subscription again (for idleProxy: when the proxy closed). */
  backAt: number;
  /** Sockets broken by this fault. */
  broken: number;
}

export class ChaosCometWs {
  readonly connections: ChaosConnection[] = [];
  tip: bigint;
  /** Subscribe requests are refused with the clients limit until this time. */
  refuseUntil = 0;
  refusals = 0;
  staleSent = 0;
  /** The next accepted subscription first gets a height below the tip. */
  staleNext = false;
  private server?: http.Server;
  private wss?: WebSocketServer;
  private _port = 0;
  private producer?: NodeJS.Timeout;

  private constructor(private readonly options: ChaosOptions) {
    this.tip = options.startHeight ?? 1_000_000n;
  }

  static async start(options: ChaosOptions): Promise<ChaosCometWs> {
    const s = new ChaosCometWs(options);
    await s.listen(0);
    s.producer = setInterval(() => s.produce(), options.blockMs);
    return s;
  }

  get url(): string {
    return `ws://127.0.0.1:${this._port}/websocket`;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  open(): ChaosConnection[] {
    return this.connections.filter((c) => !c.closed);
  }

  /** Open, subscribed and still served (not half-open or idle). */
  healthy(): ChaosConnection[] {
    return this.open().filter((c) => c.subscriptions.length > 0 && !c.dead && !c.idle);
  }

  duplicateSubscriptions(): number {
    return this.connections.reduce((n, c) => n + Math.max(0, c.subscribeRequests - 1), 0);
  }

  /** Breaks the live sockets (or the server) one way; resolves once the server is back. */
  async inject(kind: FaultKind): Promise<InjectedFault> {
    const r = this.options.random;
    const injectedAt = Date.now();
    const targets = this.open();
    switch (kind) {
      case 'close': {
        const codes: Array<[number, string]> = [[1001, 'going away'], [1011, 'internal error'], [1012, 'service restart'], [1013, 'try again later'], [1000, '']];
        const [code, reason] = codes[Math.floor(r() * codes.length)];
        for (const c of targets) c.ws.close(code, reason);
        return { kind, injectedAt, backAt: Date.now(), broken: targets.length };
      }
      case 'reset':
        for (const c of targets) c.socket.resetAndDestroy();
        return { kind, injectedAt, backAt: Date.now(), broken: targets.length };
      case 'halfOpen':
        // The path died: the server sends nothing and never hears anything again. No FIN, no RST.
        for (const c of targets) c.dead = true;
        return { kind, injectedAt, backAt: Date.now(), broken: targets.length };
      case 'cancel': {
        const reason = r() < 0.7 ? 'internal subscription event buffer is out of capacity' : 'CometBFT exited';
        for (const c of targets) {
          for (const id of c.subscriptions.splice(0)) {
            c.ws.send(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'Server error', data: `subscription was canceled (reason: ${reason})` } }));
          }
        }
        return { kind, injectedAt, backAt: Date.now(), broken: targets.length };
      }
      case 'refuse': {
        // The node drops its clients and, while they all come back, refuses past the limit.
        const ms = 100 + Math.floor(r() * 300);
        this.refuseUntil = Date.now() + ms;
        for (const c of targets) c.ws.close(1012, 'service restart');
        await delay(ms);
        return { kind, injectedAt, backAt: this.refuseUntil, broken: targets.length };
      }
      case 'idleProxy': {
        // The node goes quiet (no events, no pongs); the proxy closes the TCP connection after
        // its idle timeout, without a WebSocket close frame.
        const closed = targets.map(
          (c) =>
            new Promise<void>((resolve) => {
              c.idle = true;
              c.idleTimer = setTimeout(() => {
                c.socket.end();
                c.socket.destroySoon?.();
                resolve();
              }, this.options.proxyIdleMs);
            }),
        );
        await Promise.all(closed);
        return { kind, injectedAt, backAt: Date.now(), broken: targets.length };
      }
      case 'restart': {
        const down = 100 + Math.floor(r() * 400);
        await this.stopListening();
        await delay(down);
        await this.listen(this._port);
        if (r() < 0.5) this.staleNext = true;
        return { kind, injectedAt, backAt: Date.now(), broken: targets.length };
      }
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.producer);
    this.producer = undefined;
    await this.stopListening();
  }

  private produce(): void {
    this.tip++;
    for (const c of this.healthy()) this.sendEvent(c, this.tip);
  }

  private sendEvent(c: ChaosConnection, height: bigint): void {
    for (const id of c.subscriptions) {
      c.ws.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          result: {
            query: "tm.event='NewBlockHeader'",
            data: { type: 'tendermint/event/NewBlockHeader', value: { header: { chain_id: 'chaos-1', height: String(height), time: new Date().toISOString() } } },
            events: { 'tm.event': ['NewBlockHeader'] },
          },
        }),
      );
    }
  }

  private async stopListening(): Promise<void> {
    const server = this.server;
    const wss = this.wss;
    this.server = undefined;
    this.wss = undefined;
    if (!server || !wss) return;
    for (const c of this.connections) if (!c.closed) c.socket.destroy();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async listen(port: number): Promise<void> {
    const server = http.createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found'));
    const wss = new WebSocketServer({ server, path: '/websocket', autoPong: false });
    wss.on('connection', (ws, req) => this.onConnection(ws, req.socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this._port = (server.address() as AddressInfo).port;
    this.server = server;
    this.wss = wss;
  }

  private onConnection(ws: WebSocket, socket: Socket): void {
    const c: ChaosConnection = { ws, socket, openedAt: Date.now(), subscriptions: [], subscribeRequests: 0, closed: false, dead: false, idle: false, staleFirst: false };
    this.connections.push(c);
    const onGone = () => {
      c.closed = true;
      clearTimeout(c.idleTimer);
    };
    ws.on('close', onGone);
    socket.on('close', onGone);
    ws.on('error', () => undefined);
    socket.on('error', () => undefined);
    ws.on('ping', (data) => {
      if (!c.dead && !c.idle) ws.pong(data);
    });
    ws.on('message', (raw) => {
      if (c.dead || c.idle) return;
      let msg: { id?: unknown; method?: unknown };
      try {
        msg = JSON.parse(raw.toString()) as { id?: unknown; method?: unknown };
      } catch {
        return;
      }
      if (msg.method !== 'subscribe' || typeof msg.id !== 'number') return;
      c.subscribeRequests++;
      const error = (data: string) => ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: 'Internal error', data } }));
      if (Date.now() < this.refuseUntil) {
        this.refusals++;
        return error('max_subscription_clients 100 reached');
      }
      if (c.subscriptions.length > 0) return error('already subscribed');
      c.subscriptions.push(msg.id);
      c.subscribedAt = Date.now();
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: {} }));
      if (this.staleNext) {
        this.staleNext = false;
        this.staleSent++;
        this.sendEvent(c, this.tip - 1n - BigInt(Math.floor(this.options.random() * 5)));
      }
    });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
