// A fake of CometBFT's /websocket endpoint, for the height tracker tests and the flaky-WebSocket
// battery. It answers `subscribe` like the node (result {} then events with the SAME id) and
// breaks its sockets in every way a public node (or the proxy in front of it) does: close frame,
// TCP reset, a half-open socket that goes silent, a cancelled subscription (-32000),
// `max_subscription_clients` refusals, a proxy that closes idle sockets, and a restart on the same
// port. Two ways to drive it:
// - by hand (`pushBlock`, `closeAll`, `silent`, `refuseSubscriptions`, ...): the test decides each event;
// - on its own clock (`blockMs`): it produces a block every blockMs, and `inject(kind)` breaks it at
//   a moment the test picks. The chain keeps producing while a client is cut off, so a
//   reconnecting client sees a jump in height.
// (The devnet's socket, test/devnet/consensus.ts, is the faithful simulation of every route; this
// one is small and breakable.)

import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';

export type FaultKind = 'close' | 'reset' | 'halfOpen' | 'cancel' | 'refuse' | 'idleProxy' | 'restart';
export const FAULT_KINDS: readonly FaultKind[] = ['close', 'reset', 'halfOpen', 'cancel', 'refuse', 'idleProxy', 'restart'];

export interface FakeConnection {
  readonly ws: WebSocket;
  readonly socket: Socket;
  readonly openedAt: number;
  /** Ids of accepted subscribe requests on this socket. */
  readonly subscriptions: number[];
  /** Every subscribe request seen on this socket (accepted, refused or duplicate). */
  subscribeRequests: number;
  subscribedAt?: number;
  closed: boolean;
  closeCode?: number;
  /** Half-open: nothing in or out any more (no events, no pongs, no answers). */
  dead: boolean;
  /** The node stopped talking; the proxy in front closes the socket after its idle timeout. */
  idle: boolean;
  idleTimer?: NodeJS.Timeout;
}

export interface FakeCometWsOptions {
  port?: number;
  /** Produce a block every blockMs (unset: only pushBlock() sends events). */
  blockMs?: number;
  /** Proxy idle timeout for inject('idleProxy') (the 60-100 s of real proxies, scaled down). */
  proxyIdleMs?: number;
  startHeight?: bigint;
  /** The chain-id in the event headers. */
  chainId?: string;
  /** Random source in [0, 1) for inject() (seeded by the test). */
  random?: () => number;
}

export interface InjectedFault {
  kind: FaultKind;
  injectedAt: number;
  /** When the server could serve a new subscription again (for idleProxy: when the proxy closed). */
  backAt: number;
  /** Sockets broken by this fault. */
  broken: number;
}

export class FakeCometWs {
  readonly connections: FakeConnection[] = [];
  /** Stop answering pings and pushing events (sockets stay open). */
  silent = false;
  /** Refuse new subscriptions with this error data, like a node at its limit. */
  refuseSubscriptions: string | undefined;
  /** The chain's height when it produces blocks on its own clock. */
  tip: bigint;
  /** Subscribe requests are refused with the clients limit until this time. */
  refuseUntil = 0;
  refusals = 0;
  staleSent = 0;
  /** The next accepted subscription first gets a height below the tip (a lagging backend). */
  staleNext = false;
  private server?: http.Server;
  private wss?: WebSocketServer;
  private _port = 0;
  private producer?: NodeJS.Timeout;
  private readonly random: () => number;
  private readonly chainId: string;

  private constructor(private readonly options: FakeCometWsOptions) {
    this.tip = options.startHeight ?? 1_000_000n;
    this.random = options.random ?? Math.random;
    this.chainId = options.chainId ?? (options.blockMs ? 'chaos-1' : 'fake-1');
  }

  static async start(options: FakeCometWsOptions = {}): Promise<FakeCometWs> {
    const fake = new FakeCometWs(options);
    await fake.listen(options.port ?? 0);
    if (options.blockMs) fake.producer = setInterval(() => fake.produce(), options.blockMs);
    return fake;
  }

  get port(): number {
    return this._port;
  }

  get url(): string {
    return `ws://127.0.0.1:${this._port}/websocket`;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  /** Connections whose socket is still open. */
  open(): FakeConnection[] {
    return this.connections.filter((c) => !c.closed);
  }

  subscribed(): FakeConnection[] {
    return this.open().filter((c) => c.subscriptions.length > 0);
  }

  /** Open, subscribed and still served (not half-open or idle). */
  healthy(): FakeConnection[] {
    return this.subscribed().filter((c) => !c.dead && !c.idle);
  }

  totalSubscribeRequests(): number {
    return this.connections.reduce((n, c) => n + c.subscribeRequests, 0);
  }

  duplicateSubscriptions(): number {
    return this.connections.reduce((n, c) => n + Math.max(0, c.subscribeRequests - 1), 0);
  }

  /** Pushes a NewBlockHeader event to every subscribed socket (unless silent). */
  pushBlock(height: bigint | number | string, time = new Date().toISOString()): void {
    if (this.silent) return;
    for (const c of this.healthy()) this.sendEvent(c, height, time);
  }

  /** Sends raw text to every open socket. */
  sendRaw(text: string): void {
    for (const c of this.open()) c.ws.send(text);
  }

  /** Cancels every subscription like a slow-client drop; the sockets stay open. */
  cancelSubscriptions(reason = 'internal subscription event buffer is out of capacity'): void {
    for (const c of this.subscribed()) {
      for (const id of c.subscriptions.splice(0)) {
        c.ws.send(
          JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'Server error', data: `subscription was canceled (reason: ${reason})` } }),
        );
      }
    }
  }

  /** Closes every socket with a close frame. */
  closeAll(code = 1001, reason = 'going away'): void {
    for (const c of this.open()) c.ws.close(code, reason);
  }

  /** Resets every socket abruptly (no close frame). */
  resetAll(): void {
    for (const c of this.open()) c.ws.terminate();
  }

  async waitFor(pred: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
    return waitFor(pred, timeoutMs, what);
  }

  /** Breaks the live sockets (or the server) one way; resolves once the server is back. */
  async inject(kind: FaultKind): Promise<InjectedFault> {
    const r = this.random;
    const injectedAt = Date.now();
    const targets = this.open();
    const done = (backAt = Date.now()): InjectedFault => ({ kind, injectedAt, backAt, broken: targets.length });
    switch (kind) {
      case 'close': {
        const codes: Array<[number, string]> = [
          [1001, 'going away'],
          [1011, 'internal error'],
          [1012, 'service restart'],
          [1013, 'try again later'],
          [1000, ''],
        ];
        const [code, reason] = codes[Math.floor(r() * codes.length)];
        for (const c of targets) c.ws.close(code, reason);
        return done();
      }
      case 'reset':
        for (const c of targets) c.socket.resetAndDestroy();
        return done();
      case 'halfOpen':
        // The path died: the server sends nothing and never hears anything again. No FIN, no RST.
        for (const c of targets) c.dead = true;
        return done();
      case 'cancel':
        this.cancelSubscriptions(r() < 0.7 ? 'internal subscription event buffer is out of capacity' : 'CometBFT exited');
        return done();
      case 'refuse': {
        // The node drops its clients and, while they all come back, refuses past the limit.
        const ms = 100 + Math.floor(r() * 300);
        this.refuseUntil = Date.now() + ms;
        for (const c of targets) c.ws.close(1012, 'service restart');
        await delay(ms);
        return done(this.refuseUntil);
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
              }, this.options.proxyIdleMs ?? 90);
            }),
        );
        await Promise.all(closed);
        return done();
      }
      case 'restart': {
        const down = 100 + Math.floor(r() * 400);
        await this.stopListening();
        await delay(down);
        await this.listen(this._port);
        if (r() < 0.5) this.staleNext = true;
        return done();
      }
    }
  }

  /** Stops producing and listening, and drops every socket abruptly. */
  async stop(): Promise<void> {
    clearInterval(this.producer);
    this.producer = undefined;
    await this.stopListening();
  }

  /** Stops listening, then listens again on the same port (like a node restart). */
  async restart(): Promise<void> {
    const port = this._port;
    await this.stopListening();
    await this.listen(port);
  }

  async listen(port: number): Promise<void> {
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

  private produce(): void {
    this.tip++;
    for (const c of this.healthy()) this.sendEvent(c, this.tip);
  }

  private sendEvent(c: FakeConnection, height: bigint | number | string, time = new Date().toISOString()): void {
    for (const id of c.subscriptions) {
      c.ws.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          result: {
            query: "tm.event='NewBlockHeader'",
            data: { type: 'tendermint/event/NewBlockHeader', value: { header: { chain_id: this.chainId, height: String(height), time } } },
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

  private onConnection(ws: WebSocket, socket: Socket): void {
    const c: FakeConnection = { ws, socket, openedAt: Date.now(), subscriptions: [], subscribeRequests: 0, closed: false, dead: false, idle: false };
    this.connections.push(c);
    const onGone = () => {
      c.closed = true;
      clearTimeout(c.idleTimer);
    };
    ws.on('close', (code) => {
      c.closeCode = code;
      onGone();
    });
    socket.on('close', onGone);
    ws.on('error', () => undefined);
    socket.on('error', () => undefined);
    const served = () => !this.silent && !c.dead && !c.idle;
    ws.on('ping', (data) => {
      if (served()) ws.pong(data);
    });
    ws.on('message', (raw) => {
      if (!served()) return;
      let msg: { id?: unknown; method?: unknown };
      try {
        msg = JSON.parse(raw.toString()) as { id?: unknown; method?: unknown };
      } catch {
        return;
      }
      if (msg.method !== 'subscribe' || typeof msg.id !== 'number') return;
      c.subscribeRequests++;
      const error = (data: string) => ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: 'Internal error', data } }));
      if (this.refuseSubscriptions) return error(this.refuseSubscriptions);
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
        this.sendEvent(c, this.tip - 1n - BigInt(Math.floor(this.random() * 5)));
      }
    });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `pred` until true; rejects after timeoutMs. */
export async function waitFor(pred: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
