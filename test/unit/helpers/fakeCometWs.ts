// A fault-injecting fake of CometBFT's /websocket endpoint, for the height tracker tests.
// Answers `subscribe` like the node (result {} then events with the SAME id), and can close,
// reset, go silent (no pongs, no events), cancel the subscription, refuse with the
// subscription-clients limit, and restart on the same port.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

export interface FakeConnection {
  readonly ws: WebSocket;
  /** Ids of accepted subscribe requests on this socket. */
  readonly subscriptions: number[];
  /** Every subscribe request seen on this socket (accepted or not). */
  subscribeRequests: number;
  closed: boolean;
  closeCode?: number;
}

export interface FakeCometWsOptions {
  port?: number;
}

export class FakeCometWs {
  readonly connections: FakeConnection[] = [];
  /** Stop answering pings and pushing events (sockets stay open). */
  silent = false;
  /** Refuse new subscriptions like a node at its limit. */
  refuseSubscriptions: string | undefined;
  private server?: http.Server;
  private wss?: WebSocketServer;
  private _port = 0;

  static async start(options: FakeCometWsOptions = {}): Promise<FakeCometWs> {
    const fake = new FakeCometWs();
    await fake.listen(options.port ?? 0);
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

  totalSubscribeRequests(): number {
    return this.connections.reduce((n, c) => n + c.subscribeRequests, 0);
  }

  /** Pushes a NewBlockHeader event to every subscribed socket (unless silent). */
  pushBlock(height: bigint | number | string, time = new Date().toISOString()): void {
    if (this.silent) return;
    for (const c of this.subscribed()) {
      for (const id of c.subscriptions) {
        c.ws.send(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            result: {
              query: "tm.event='NewBlockHeader'",
              data: {
                type: 'tendermint/event/NewBlockHeader',
                value: { header: { chain_id: 'fake-1', height: String(height), time } },
              },
              events: { 'tm.event': ['NewBlockHeader'] },
            },
          }),
        );
      }
    }
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
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            error: { code: -32000, message: 'Server error', data: `subscription was canceled (reason: ${reason})` },
          }),
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

  /** Stops listening and drops every socket abruptly. */
  async stop(): Promise<void> {
    const server = this.server;
    const wss = this.wss;
    this.server = undefined;
    this.wss = undefined;
    if (!server || !wss) return;
    for (const c of this.connections) if (!c.closed) c.ws.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Stops, then listens again on the same port (like a node restart). */
  async restart(): Promise<void> {
    const port = this._port;
    await this.stop();
    await this.listen(port);
  }

  async listen(port: number): Promise<void> {
    const server = http.createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
    });
    const wss = new WebSocketServer({ server, path: '/websocket', autoPong: false });
    wss.on('connection', (ws) => this.onConnection(ws));
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

  private onConnection(ws: WebSocket): void {
    const conn: FakeConnection = { ws, subscriptions: [], subscribeRequests: 0, closed: false };
    this.connections.push(conn);
    ws.on('ping', (data) => {
      if (!this.silent) ws.pong(data);
    });
    ws.on('close', (code) => {
      conn.closed = true;
      conn.closeCode = code;
    });
    ws.on('error', () => undefined);
    ws.on('message', (raw) => {
      if (this.silent) return;
      let msg: { id?: unknown; method?: unknown };
      try {
        msg = JSON.parse(raw.toString()) as { id?: unknown; method?: unknown };
      } catch {
        return;
      }
      if (msg.method !== 'subscribe' || typeof msg.id !== 'number') return;
      conn.subscribeRequests++;
      const error = (data: string) =>
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: 'Internal error', data } }));
      if (this.refuseSubscriptions) return error(this.refuseSubscriptions);
      if (conn.subscriptions.length > 0) return error('already subscribed');
      conn.subscriptions.push(msg.id);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: {} }));
    });
  }
}

/** Polls `pred` until true; rejects after timeoutMs. */
export async function waitFor(pred: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
