// The EVM JSON-RPC WebSocket of one provider (Cosmos EVM serves it on 8546; the devnet on the EVM
// listener's port): every HTTP method works over the socket, plus `eth_subscribe` to `newHeads`
// (one notification per devnet block), `logs` (with go-ethereum's address/topics filter: one
// notification per matching log of each new block, e.g. the real txs' ERC-20 Transfer logs)
// and `newPendingTransactions` (accepted; only transactions sent over this socket
// are announced), and `eth_unsubscribe`. Subscription ids are 0x-hex, as go-ethereum's.
// Notifications: {"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":id,"result":…}}.
import { randomBytes } from 'node:crypto';
import type * as http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Block, Chain } from './chain';
import type { EvmService } from './evm';
import { type LogFilter, blockLogs, parseLogFilter } from './evmReal';

type Kind = 'newHeads' | 'logs' | 'newPendingTransactions';
const KINDS: readonly Kind[] = ['newHeads', 'logs', 'newPendingTransactions'];

interface Client {
  ws: WebSocket;
  subs: Map<string, Kind>;
  filters: Map<string, LogFilter>;
}

export class EvmWsService {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 5 * 1024 * 1024 });
  private readonly clients = new Set<Client>();
  private lastEmitted: bigint;

  constructor(private readonly o: { chain: Chain; lag: number; evm: EvmService }) {
    this.lastEmitted = o.chain.viewHeight(o.lag);
  }

  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const client: Client = { ws, subs: new Map(), filters: new Map() };
      this.clients.add(client);
      ws.on('message', (data) => this.onMessage(client, Buffer.isBuffer(data) ? data.toString('utf8') : String(data)));
      ws.on('error', () => undefined);
      ws.on('close', () => this.clients.delete(client));
    });
  }

  private send(client: Client, body: unknown): void {
    if (client.ws.readyState === WebSocket.OPEN) client.ws.send(typeof body === 'string' ? body : JSON.stringify(body));
  }

  private onMessage(client: Client, text: string): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return this.send(client, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    }
    const id = msg?.id;
    const params = Array.isArray(msg?.params) ? (msg.params as unknown[]) : [];
    if (msg?.method === 'eth_subscribe') {
      const kind = params[0] as Kind;
      if (!KINDS.includes(kind))
        return this.send(client, { jsonrpc: '2.0', id, error: { code: -32602, message: `no "${String(kind)}" subscription in eth namespace` } });
      const subId = '0x' + randomBytes(16).toString('hex');
      client.subs.set(subId, kind);
      if (kind === 'logs') client.filters.set(subId, parseLogFilter(params[1]));
      return this.send(client, { jsonrpc: '2.0', id, result: subId });
    }
    if (msg?.method === 'eth_unsubscribe') {
      client.filters.delete(String(params[0]));
      return this.send(client, { jsonrpc: '2.0', id, result: client.subs.delete(String(params[0])) });
    }
    const answer = this.o.evm.handleMessage(msg, this.o.chain.viewHeight(this.o.lag));
    if (answer !== undefined) this.send(client, answer);
    if (msg?.method === 'eth_sendRawTransaction' && answer && !answer.includes('"error"')) {
      const hash = (JSON.parse(answer) as { result: string }).result;
      this.notify('newPendingTransactions', () => hash);
    }
  }

  private notify(kind: Kind, result: () => unknown): void {
    let value: unknown;
    for (const client of this.clients) {
      for (const [subscription, k] of client.subs) {
        if (k !== kind) continue;
        value ??= result();
        this.send(client, { jsonrpc: '2.0', method: 'eth_subscription', params: { subscription, result: value } });
      }
    }
  }

  /** Called for every new chain block: a newHeads notification per block this provider's view reached. */
  onChainBlock(): void {
    const view = this.o.chain.viewHeight(this.o.lag);
    while (this.lastEmitted < view) {
      this.lastEmitted++;
      const b = this.o.chain.block(this.lastEmitted);
      if (b) {
        this.notify('newHeads', () => this.header(b));
        this.notifyLogs(b);
      }
    }
  }

  private notifyLogs(b: Block): void {
    if (b.evmTxs.length === 0) return;
    for (const client of this.clients) {
      for (const [subscription, filter] of client.filters) {
        for (const log of blockLogs(this.o.chain, b, filter)) {
          this.send(client, { jsonrpc: '2.0', method: 'eth_subscription', params: { subscription, result: log } });
        }
      }
    }
  }

  private header(b: Block): Record<string, unknown> {
    const { transactions: _t, uncles: _u, size: _s, ...header } = this.o.evm.blockJson(b, false);
    return header;
  }

  terminateAll(): void {
    for (const c of this.clients) c.ws.terminate();
    this.clients.clear();
  }
}
