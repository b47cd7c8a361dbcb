// The consensus interface of one provider, imitating CometBFT v0.38's RPC server on 26657:
// URI GETs (`/<route>?args`, id -1, errors as HTTP 500), JSON-RPC POST at `/` (errors in 200s,
// notifications unanswered, batches up to 10), and the WebSocket at `/websocket` with
// subscriptions whose events reuse the subscribe request's id.
import type * as http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { type Block, type Chain, consensusParamsJson, floorOf, MempoolError, type PruneFloor, type TxRecord } from './chain';
import { abciJson, blockIdJson, blockJson, commitJson, headerJson, txResultEventJson, txEventsMap, txJson, txRecordsOf, validatorJson } from './cometJson';
import { goTime, hexUpper, sha256 } from './encoding';
import { equalityValue, matches, parseQuery, type Query } from './query';
import { CACHE_HEADERS, cacheable } from './cometJson';
import { type HttpCall, type RequestLog, sendJson, sendText } from './server';

export type JsonId = string | number;

/** A JSON-RPC error; handler failures are plain Errors and become -32603 with their message. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    readonly rpcMessage: string,
    readonly data?: string,
  ) {
    super(data ?? rpcMessage);
  }
}

/** A result already serialised (the genesis document is embedded as its exact bytes). */
class RawJson {
  constructor(readonly parts: Buffer[]) {}
}

type ParamType = 'int' | 'uint' | 'bool' | 'string' | 'bytes' | 'hexbytes' | 'evidence';
type Arg = bigint | boolean | string | Buffer | undefined;
type Args = Record<string, Arg>;

interface Ctx {
  view: bigint;
  client?: WsClient;
  id?: JsonId;
}

interface Route {
  params: Array<[string, ParamType]>;
  ws?: boolean;
  fn: (a: Args, ctx: Ctx) => unknown;
}

export interface ConsensusOptions {
  chain: Chain;
  providerName: string;
  lag: number;
  log: RequestLog;
  host: string;
  port: () => number;
  pingIntervalMs: number;
  readTimeoutMs: number;
  /** Blocks below this height are pruned on this provider (CometBFT's "lowest height"). */
  prunedBelow?: PruneFloor;
  /** false: the transaction indexer is off (tx_index "off"; tx and tx_search refuse). */
  txIndex?: boolean;
  /** true: WebSocket upgrades are refused (403), as behind a proxy that forbids them. */
  wsRefused?: boolean;
}

const MAX_BATCH = 10;
const MAX_QUERY_LENGTH = 512;
const MAX_SUBS_PER_CLIENT = 5;
const DEFAULT_MAX_CLIENTS = 100;
const BROADCAST_COMMIT_TIMEOUT_MS = 10_000;

class WsClient {
  readonly subs = new Map<string, { id: JsonId; query: Query }>();
  private pingTimer: NodeJS.Timeout | undefined;
  private readTimer: NodeJS.Timeout | undefined;
  constructor(
    readonly ws: WebSocket,
    readonly addr: string,
    private readonly svc: ConsensusService,
  ) {}

  startTimers(): void {
    this.pingTimer = setInterval(() => {
      if (!this.svc.stalled && this.ws.readyState === WebSocket.OPEN) this.ws.ping();
    }, this.svc.o.pingIntervalMs);
    this.pingTimer.unref();
    this.heard();
  }

  /** CometBFT's read deadline: no message or pong for this long and the server drops the socket. */
  heard(): void {
    if (this.readTimer) clearTimeout(this.readTimer);
    this.readTimer = setTimeout(() => {
      if (!this.svc.stalled) this.ws.terminate();
    }, this.svc.o.readTimeoutMs);
    this.readTimer.unref();
  }

  clearTimers(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.readTimer) clearTimeout(this.readTimer);
  }

  send(text: string | Buffer): void {
    if (this.svc.stalled || this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(text, { binary: false });
  }
}

export class ConsensusService {
  stalled = false;
  maxClients = DEFAULT_MAX_CLIENTS;
  private readonly wss: WebSocketServer;
  private readonly clients = new Set<WsClient>();
  private lastEmitted: bigint;
  private readonly routes: Record<string, Route>;

  constructor(readonly o: ConsensusOptions) {
    this.wss = new WebSocketServer({ noServer: true, autoPong: false, maxPayload: 1_000_000 });
    this.lastEmitted = o.chain.viewHeight(o.lag);
    this.routes = this.buildRoutes();
  }

  private get chain(): Chain {
    return this.o.chain;
  }

  view(): bigint {
    return this.chain.viewHeight(this.o.lag);
  }

  /** The lowest height this provider serves: the chain's, or higher when pruned. */
  get earliest(): bigint {
    const pruned = floorOf(this.o.prunedBelow) ?? 0n;
    return pruned > this.chain.earliest ? pruned : this.chain.earliest;
  }

  // ---------------------------------------------------------------- HTTP
  handleHttp(call: HttpCall): void {
    const { path, res } = call;
    if (path === '/') return this.handleJsonRpc(call);
    const route = Object.prototype.hasOwnProperty.call(this.routes, path.slice(1)) ? this.routes[path.slice(1)] : undefined;
    if (!route) return sendText(res, 404, '404 page not found\n');
    if (route.ws) return sendJson(res, 404, errorText(-1, new RpcError(-32601, 'Method not found')));
    let args: Args;
    try {
      args = {};
      for (const [name, type] of route.params) {
        const raw = call.query.get(name);
        args[name] = raw === null || raw === '' ? undefined : fromUri(type, raw);
      }
    } catch (e) {
      const err = new RpcError(-32602, 'Invalid params', `error converting http params to arguments: ${msg(e)}`);
      return sendJson(res, 500, errorText(-1, err));
    }
    void this.run(route, args, { view: this.view() }).then((out) => {
      if (out instanceof RpcError) sendJson(res, 500, errorText(-1, out));
      else sendJson(res, 200, okBody(-1, out), cacheable(path.slice(1), args) ? CACHE_HEADERS : {});
    });
  }

  private handleJsonRpc(call: HttpCall): void {
    const { res } = call;
    if (call.tooLarge) {
      const err = new RpcError(-32600, 'Invalid Request', 'error reading request body: http: request body too large');
      return sendJson(res, 400, errorText(undefined, err));
    }
    if (call.body.length === 0) return sendText(res, 200, this.routeListHtml(call.req), 'text/html');
    let parsed: unknown;
    try {
      parsed = JSON.parse(call.body.toString('utf8'));
    } catch (e) {
      const err = new RpcError(-32700, 'Parse error. Invalid JSON', `error unmarshaling request: ${goJsonError(e)}`);
      return sendJson(res, 500, errorText(undefined, err));
    }
    const list = Array.isArray(parsed) ? parsed : [parsed];
    const shapeError = list.map(requestShapeError).find((x) => x !== undefined);
    if (shapeError) {
      const err = new RpcError(-32700, 'Parse error. Invalid JSON', `error unmarshaling request: ${shapeError}`);
      return sendJson(res, 500, errorText(undefined, err));
    }
    if (list.length > MAX_BATCH) {
      const err = new RpcError(-32600, 'Invalid Request', `batch request exceeds maximum (${MAX_BATCH}) allowed number of requests`);
      return sendJson(res, 200, errorText(undefined, err));
    }
    // CometBFT v0.38 calls a handler without its arguments when `params` is absent, and the
    // reflect panic becomes one HTTP 500 error for the whole request (batch included).
    const panics = (list as Array<Record<string, unknown>>).some((req) => {
      if (req.id === undefined || req.id === null || req.params !== undefined) return false;
      const route = typeof req.method === 'string' && Object.prototype.hasOwnProperty.call(this.routes, req.method) ? this.routes[req.method] : undefined;
      return route !== undefined && !route.ws && route.params.length > 0;
    });
    if (panics) return sendJson(res, 500, errorText(-1, new RpcError(-32603, 'Internal error', 'reflect: Call with too few input arguments')));
    const view = this.view();
    let cache = true;
    void Promise.all(
      (list as Array<Record<string, unknown>>).map(async (req): Promise<Buffer | string | undefined> => {
        const id = req.id as JsonId | null | undefined;
        if (id === undefined || id === null) return undefined; // notification: no reply at all
        const method = typeof req.method === 'string' ? req.method : '';
        const route = Object.prototype.hasOwnProperty.call(this.routes, method) ? this.routes[method] : undefined;
        if (!route || route.ws) {
          cache = false;
          return errorText(id, new RpcError(-32601, 'Method not found'));
        }
        let args: Args;
        try {
          args = jsonParamsToArgs(route, req.params);
        } catch (e) {
          cache = false;
          return errorText(id, new RpcError(-32602, 'Invalid params', `error converting json params to arguments: ${msg(e)}`));
        }
        if (!cacheable(method, args)) cache = false;
        const out = await this.run(route, args, { view, id });
        return out instanceof RpcError ? errorText(id, out) : okBody(id, out);
      }),
    ).then((answers) => {
      const replies = answers.filter((a): a is Buffer | string => a !== undefined);
      if (replies.length === 0) {
        res.statusCode = 200;
        res.end();
        return;
      }
      const headers = cache ? CACHE_HEADERS : {};
      if (replies.length === 1) sendJson(res, 200, replies[0], headers);
      else sendJson(res, 200, Buffer.concat([Buffer.from('['), ...joinParts(replies), Buffer.from(']')]), headers);
    });
  }

  private async run(route: Route, args: Args, ctx: Ctx): Promise<unknown> {
    try {
      return await route.fn(args, ctx);
    } catch (e) {
      if (e instanceof RpcError) return e;
      return new RpcError(-32603, 'Internal error', msg(e));
    }
  }

  private routeListHtml(req: http.IncomingMessage): string {
    const host = req.headers.host ?? `${this.o.host}:${this.o.port()}`;
    const names = Object.keys(this.routes).sort();
    const noArgs = names.filter((n) => this.routes[n].params.length === 0);
    const withArgs = names.filter((n) => this.routes[n].params.length > 0);
    let html = '<html><body><br>Available endpoints:<br>';
    for (const n of noArgs) html += `<a href="//${host}/${n}">//${host}/${n}</a></br>`;
    html += '<br>Endpoints that require arguments:<br>';
    for (const n of withArgs) {
      const link = `//${host}/${n}?` + this.routes[n].params.map(([p]) => `${p}=_`).join('&');
      html += `<a href="${link}">${link}</a></br>`;
    }
    return html + '</body></html>';
  }

  // ---------------------------------------------------------------- WebSocket
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/websocket' || this.o.wsRefused) {
      if (this.o.wsRefused)
        return void socket.end('HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: 10\r\nConnection: close\r\n\r\nForbidden\n');
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 19\r\nConnection: close\r\n\r\n404 page not found\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const addr = `${req.socket.remoteAddress}:${req.socket.remotePort}`;
      const client = new WsClient(ws, addr, this);
      this.clients.add(client);
      client.startTimers();
      ws.on('ping', (data) => {
        client.heard();
        if (!this.stalled) ws.pong(data);
      });
      ws.on('pong', () => client.heard());
      ws.on('message', (data, isBinary) => {
        client.heard();
        if (this.stalled) return;
        const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
        this.o.log.push({ iface: 'consensus', method: 'WS', path: '/websocket', body: text });
        if (isBinary && text.length === 0) return;
        void this.onWsMessage(client, text);
      });
      ws.on('error', () => undefined);
      ws.on('close', () => {
        client.clearTimers();
        this.clients.delete(client);
      });
    });
  }

  private async onWsMessage(client: WsClient, text: string): Promise<void> {
    let req: unknown;
    try {
      req = JSON.parse(text);
    } catch (e) {
      return client.send(errorText(undefined, new RpcError(-32700, 'Parse error. Invalid JSON', `error unmarshaling request: ${goJsonError(e)}`)));
    }
    const shape = requestShapeError(req);
    if (shape) return client.send(errorText(undefined, new RpcError(-32700, 'Parse error. Invalid JSON', `error unmarshaling request: ${shape}`)));
    const r = req as Record<string, unknown>;
    const id = r.id as JsonId | null | undefined;
    if (id === undefined || id === null) return; // ignored, as CometBFT does
    const method = typeof r.method === 'string' ? r.method : '';
    const route = Object.prototype.hasOwnProperty.call(this.routes, method) ? this.routes[method] : undefined;
    if (!route) return client.send(errorText(id, new RpcError(-32601, 'Method not found')));
    let args: Args;
    try {
      args = jsonParamsToArgs(route, r.params);
    } catch (e) {
      return client.send(errorText(id, new RpcError(-32603, 'Internal error', `error converting json params to arguments: ${msg(e)}`)));
    }
    const out = await this.run(route, args, { view: this.view(), client, id });
    client.send(out instanceof RpcError ? errorText(id, out) : okBody(id, out));
  }

  /** Called for every new chain block: publishes the events this provider's view has reached. */
  onChainBlock(): void {
    const view = this.view();
    while (this.lastEmitted < view) {
      this.lastEmitted++;
      const b = this.chain.block(this.lastEmitted);
      if (b) this.publish(b);
    }
  }

  private publish(b: Block): void {
    if (this.clients.size === 0) return;
    const chainId = this.chain.opts.chainId;
    const events: Array<{ map: Record<string, string[]>; data: () => unknown }> = [
      {
        map: { 'tm.event': ['NewBlock'] },
        data: () => ({
          type: 'tendermint/event/NewBlock',
          value: { block: blockJson(b, chainId), block_id: blockIdJson(b.id), result_finalize_block: finalizeJson(b) },
        }),
      },
      { map: { 'tm.event': ['NewBlockHeader'] }, data: () => ({ type: 'tendermint/event/NewBlockHeader', value: { header: headerJson(b, chainId) } }) },
      {
        map: { 'tm.event': ['NewBlockEvents'] },
        data: () => ({ type: 'tendermint/event/NewBlockEvents', value: { height: b.height.toString(), events: [], num_txs: String(b.txs.length) } }),
      },
    ];
    for (const t of txRecordsOf(this.chain, b)) {
      events.push({
        map: txEventsMap(t),
        data: () => ({
          type: 'tendermint/event/Tx',
          value: { TxResult: txResultEventJson(t) },
        }),
      });
    }
    for (const ev of events) {
      let data: unknown;
      for (const client of this.clients) {
        for (const [text, sub] of client.subs) {
          if (!matches(sub.query, ev.map)) continue;
          data ??= ev.data();
          client.send(okBody(sub.id, { query: text, data, events: ev.map }));
        }
      }
    }
  }

  /** Test hook: the node drops every subscription with a -32000 error; sockets stay open. */
  cancelSubscriptions(reason: string): void {
    for (const client of this.clients) {
      for (const [, sub] of client.subs) {
        client.send(errorText(sub.id, new RpcError(-32000, 'Server error', `subscription was canceled (reason: ${reason})`)));
      }
      client.subs.clear();
    }
  }

  /** Abruptly drops every WebSocket (no close frame). */
  terminateAll(): void {
    for (const c of this.clients) {
      c.clearTimers();
      c.ws.terminate();
    }
    this.clients.clear();
  }

  private subscribedClients(): number {
    let n = 0;
    for (const c of this.clients) if (c.subs.size > 0) n++;
    return n;
  }

  // ---------------------------------------------------------------- routes
  private height(ctx: Ctx, h: Arg): bigint {
    if (h === undefined) return ctx.view;
    const n = h as bigint;
    if (n <= 0n) throw new Error(`height must be greater than 0, but got ${n}`);
    if (n > ctx.view) throw new Error(`height ${n} must be less than or equal to the current blockchain height ${ctx.view}`);
    if (n < this.earliest) throw new Error(`height ${n} is not available, lowest height is ${this.earliest}`);
    return n;
  }

  private blockAt(ctx: Ctx, h: Arg): Block {
    const b = this.chain.block(this.height(ctx, h));
    if (!b) throw new Error(`height ${String(h)} is not available, lowest height is ${this.earliest}`);
    return b;
  }

  private visibleTx(ctx: Ctx, hash: string): TxRecord | undefined {
    const t = this.chain.tx(hash);
    return t && t.height <= ctx.view ? t : undefined;
  }

  private buildRoutes(): Record<string, Route> {
    const chain = this.chain;
    const chainId = chain.opts.chainId;
    const o = this.o;
    const nodeId = sha256(`node/${o.providerName}`).subarray(0, 20).toString('hex');
    const self = chain.validators[0];
    const submit = (tx: Arg, evm = false): ReturnType<Chain['submitTx']> => {
      try {
        return chain.submitTx((tx as Buffer | undefined) ?? Buffer.alloc(0), evm);
      } catch (e) {
        if (e instanceof MempoolError) throw new Error(e.message);
        throw e;
      }
    };
    const r: Record<string, Route> = {
      subscribe: {
        params: [['query', 'string']],
        ws: true,
        fn: (a, ctx) => {
          const client = ctx.client as WsClient;
          const q = (a.query as string | undefined) ?? '';
          if (this.subscribedClients() >= this.maxClients) throw new Error(`max_subscription_clients ${this.maxClients} reached`);
          if (client.subs.size >= MAX_SUBS_PER_CLIENT) throw new Error(`max_subscriptions_per_client ${MAX_SUBS_PER_CLIENT} reached`);
          if (q.length > MAX_QUERY_LENGTH) throw new Error('maximum query length exceeded');
          let parsed: Query;
          try {
            parsed = parseQuery(q);
          } catch (e) {
            throw new Error(`failed to parse query: ${msg(e)}`);
          }
          if (client.subs.has(q)) throw new Error('already subscribed');
          client.subs.set(q, { id: ctx.id as JsonId, query: parsed });
          return {};
        },
      },
      unsubscribe: {
        params: [['query', 'string']],
        ws: true,
        fn: (a, ctx) => {
          const client = ctx.client as WsClient;
          const q = (a.query as string | undefined) ?? '';
          try {
            parseQuery(q);
          } catch (e) {
            throw new Error(`failed to parse query: ${msg(e)}`);
          }
          if (!client.subs.delete(q)) throw new Error('subscription not found');
          return {};
        },
      },
      unsubscribe_all: {
        params: [],
        ws: true,
        fn: (_a, ctx) => {
          const client = ctx.client as WsClient;
          if (client.subs.size === 0) throw new Error('subscription not found');
          client.subs.clear();
          return {};
        },
      },
      health: { params: [], fn: () => ({}) },
      consensus_state: {
        params: [],
        fn: (_a, ctx) => {
          const rs = roundState(chain, ctx.view);
          return {
            round_state: {
              'height/round/step': `${rs.height}/0/1`,
              start_time: rs.startTime,
              proposal_block_hash: '',
              locked_block_hash: '',
              valid_block_hash: '',
              height_vote_set: rs.votes,
              proposer: { address: hexUpper(rs.proposer.address), index: rs.proposerIndex },
            },
          };
        },
      },
      dump_consensus_state: {
        params: [],
        fn: (_a, ctx) => {
          const rs = roundState(chain, ctx.view);
          const set = { validators: chain.validators.map(validatorJson), proposer: validatorJson(rs.proposer) };
          const tip = chain.block(ctx.view) as Block;
          const commit = chain.commitFor(tip);
          return {
            round_state: {
              height: rs.height,
              round: 0,
              step: 1,
              start_time: rs.startTime,
              commit_time: goTime(tip.timeNs + 700_000_000n),
              validators: set,
              proposal: null,
              proposal_block: null,
              proposal_block_parts: null,
              locked_round: -1,
              locked_block: null,
              locked_block_parts: null,
              valid_round: -1,
              valid_block: null,
              valid_block_parts: null,
              votes: rs.votes,
              commit_round: -1,
              last_commit: {
                votes: commit.signatures.map(
                  (s, i) =>
                    `Vote{${i}:${hexUpper(s.validatorAddress).slice(0, 12)} ${tip.height}/00/SIGNED_MSG_TYPE_PRECOMMIT(Precommit) ${hexUpper(tip.id.hash).slice(0, 12)} ${s.signature.toString('hex').toUpperCase().slice(0, 12)} 000000000000 @ ${goTime(s.timeNs)}}`,
                ),
                votes_bit_array: `BA{${chain.validators.length}:${'x'.repeat(chain.validators.length)}} ${totalPower(chain)}/${totalPower(chain)} = 1.00`,
                peer_maj_23s: {},
              },
              last_validators: set,
              triggered_timeout_precommit: false,
            },
            peers: [],
          };
        },
      },
      broadcast_evidence: {
        params: [['evidence', 'evidence']],
        fn: (a) => {
          if (a.evidence === undefined) throw new Error('no evidence was provided');
          throw new Error('evidence.ValidateBasic failed: the devnet accepts no evidence');
        },
      },
      status: {
        params: [],
        fn: (_a, ctx) => {
          const latest = chain.block(ctx.view) as Block;
          const earliest = chain.block(this.earliest <= ctx.view ? this.earliest : chain.earliest) as Block;
          return {
            node_info: this.nodeInfo(nodeId),
            sync_info: {
              latest_block_hash: hexUpper(latest.id.hash),
              latest_app_hash: hexUpper(latest.appHash),
              latest_block_height: latest.height.toString(),
              latest_block_time: goTime(latest.timeNs),
              earliest_block_hash: hexUpper(earliest.id.hash),
              earliest_app_hash: hexUpper(earliest.appHash),
              earliest_block_height: earliest.height.toString(),
              earliest_block_time: goTime(earliest.timeNs),
              catching_up: false,
            },
            validator_info: {
              address: hexUpper(self.address),
              pub_key: { type: 'tendermint/PubKeyEd25519', value: self.pubKey.toString('base64') },
              voting_power: self.power.toString(),
            },
          };
        },
      },
      net_info: { params: [], fn: () => ({ listening: true, listeners: ['Listener(@)'], n_peers: '0', peers: [] }) },
      blockchain: {
        params: [
          ['minHeight', 'int'],
          ['maxHeight', 'int'],
        ],
        fn: (a, ctx) => {
          let min = (a.minHeight as bigint | undefined) ?? 0n;
          let max = (a.maxHeight as bigint | undefined) ?? 0n;
          if (min < 0n || max < 0n) throw new Error('heights must be non-negative');
          if (min === 0n) min = 1n;
          if (max === 0n) max = ctx.view;
          if (max > ctx.view) max = ctx.view;
          if (min < this.earliest) min = this.earliest;
          if (min < max - 19n) min = max - 19n;
          if (min > max) throw new Error(`min height ${min} can't be greater than max height ${max}`);
          const metas: unknown[] = [];
          for (let h = max; h >= min; h--) {
            const b = chain.block(h);
            if (b) metas.push({ block_id: blockIdJson(b.id), block_size: String(blockSize(b)), header: headerJson(b, chainId), num_txs: String(b.txs.length) });
          }
          return { last_height: ctx.view.toString(), block_metas: metas };
        },
      },
      genesis: {
        params: [],
        fn: () => {
          if (chain.genesisChunks.length > 1) throw new Error('genesis response is large, please use the genesis_chunked API instead');
          return new RawJson([Buffer.from('{"genesis":'), chain.genesis, Buffer.from('}')]);
        },
      },
      genesis_chunked: {
        params: [['chunk', 'uint']],
        fn: (a) => {
          const n = chain.genesisChunks.length;
          const id = (a.chunk as bigint | undefined) ?? 0n;
          // CometBFT prints len-1 here ("there are 1 chunks, 5 is invalid" for two chunks).
          if (id > BigInt(n - 1)) throw new Error(`there are ${n - 1} chunks, ${id} is invalid`);
          return { chunk: id.toString(), total: String(n), data: chain.genesisChunks[Number(id)].toString('base64') };
        },
      },
      block: {
        params: [['height', 'int']],
        fn: (a, ctx) => {
          const b = this.blockAt(ctx, a.height);
          return { block_id: blockIdJson(b.id), block: blockJson(b, chainId) };
        },
      },
      block_by_hash: {
        params: [['hash', 'bytes']],
        fn: (a, ctx) => {
          const b = chain.blockByHash((a.hash as Buffer | undefined) ?? Buffer.alloc(0));
          if (!b || b.height > ctx.view) return { block_id: { hash: '', parts: { total: 0, hash: '' } }, block: null };
          return { block_id: blockIdJson(b.id), block: blockJson(b, chainId) };
        },
      },
      block_results: {
        params: [['height', 'int']],
        fn: (a, ctx) => {
          const b = this.blockAt(ctx, a.height);
          const f = finalizeJson(b);
          return {
            height: b.height.toString(),
            txs_results: f.tx_results ?? null,
            finalize_block_events: null, // Go nil slices: null, not []
            validator_updates: null,
            consensus_param_updates: null,
            app_hash: f.app_hash,
          };
        },
      },
      commit: {
        params: [['height', 'int']],
        fn: (a, ctx) => {
          const b = this.blockAt(ctx, a.height);
          return { signed_header: { header: headerJson(b, chainId), commit: commitJson(chain.commitFor(b)) }, canonical: b.height < ctx.view };
        },
      },
      header: {
        params: [['height', 'int']],
        fn: (a, ctx) => ({ header: headerJson(this.blockAt(ctx, a.height), chainId) }),
      },
      header_by_hash: {
        params: [['hash', 'hexbytes']],
        fn: (a, ctx) => {
          const b = chain.blockByHash((a.hash as Buffer | undefined) ?? Buffer.alloc(0));
          return { header: b && b.height <= ctx.view ? headerJson(b, chainId) : null };
        },
      },
      validators: {
        params: [
          ['height', 'int'],
          ['page', 'int'],
          ['per_page', 'int'],
        ],
        fn: (a, ctx) => {
          const h = this.height(ctx, a.height);
          const all = chain.validators;
          const { start, end } = paginate(all.length, a.page as bigint | undefined, a.per_page as bigint | undefined);
          return { block_height: h.toString(), validators: all.slice(start, end).map(validatorJson), count: String(end - start), total: String(all.length) };
        },
      },
      consensus_params: {
        params: [['height', 'int']],
        fn: (a, ctx) => ({ block_height: this.height(ctx, a.height).toString(), consensus_params: consensusParamsJson() }),
      },
      unconfirmed_txs: {
        params: [['limit', 'int']],
        fn: (a) => {
          const txs = chain.unconfirmed();
          const limit = perPage(a.limit as bigint | undefined);
          return {
            n_txs: String(Math.min(limit, txs.length)),
            total: String(txs.length),
            total_bytes: String(txs.reduce((s, t) => s + t.bytes.length, 0)),
            txs: txs.slice(0, limit).map((t) => t.bytes.toString('base64')),
          };
        },
      },
      num_unconfirmed_txs: {
        params: [],
        fn: () => {
          const txs = chain.unconfirmed();
          return { n_txs: String(txs.length), total: String(txs.length), total_bytes: String(txs.reduce((s, t) => s + t.bytes.length, 0)), txs: null };
        },
      },
      tx: {
        params: [
          ['hash', 'bytes'],
          ['prove', 'bool'],
        ],
        fn: (a, ctx) => {
          if (this.o.txIndex === false) throw new Error('transaction indexing is disabled');
          const hash = hexUpper((a.hash as Buffer | undefined) ?? Buffer.alloc(0));
          const t = this.visibleTx(ctx, hash);
          if (!t) throw new Error(`tx (${hash}) not found`);
          return txJson(t, a.prove === true);
        },
      },
      tx_search: {
        params: [
          ['query', 'string'],
          ['prove', 'bool'],
          ['page', 'int'],
          ['per_page', 'int'],
          ['order_by', 'string'],
        ],
        fn: (a, ctx) => {
          if (this.o.txIndex === false) throw new Error('transaction indexing is disabled');
          const q = searchQuery(a.query);
          const order = orderBy(a.order_by);
          const byHash = equalityValue(q, 'tx.hash');
          let found: TxRecord[];
          if (byHash !== undefined) {
            const t = this.visibleTx(ctx, byHash);
            found = t && matches(q, txEventsMap(t)) ? [t] : [];
          } else {
            // A pruned node's index has nothing below its floor (a node started from a snapshot, or pruning its index).
            const low = this.o.prunedBelow === undefined ? 0n : this.earliest;
            found = [...chain.allTxs()].filter((t) => t.height <= ctx.view && t.height >= low && matches(q, txEventsMap(t)));
          }
          found.sort((x, y) => (x.height === y.height ? x.index - y.index : x.height < y.height ? -1 : 1));
          if (order === 'desc') found.reverse();
          const { start, end } = paginate(found.length, a.page as bigint | undefined, a.per_page as bigint | undefined);
          return { txs: found.slice(start, end).map((t) => txJson(t, a.prove === true)), total_count: String(found.length) };
        },
      },
      block_search: {
        params: [
          ['query', 'string'],
          ['page', 'int'],
          ['per_page', 'int'],
          ['order_by', 'string'],
        ],
        fn: (a, ctx) => {
          const q = searchQuery(a.query);
          const order = orderBy(a.order_by);
          const found: Block[] = [];
          if (this.o.txIndex === false) throw new Error('block indexing is disabled');
          const low = ctx.view - 9999n > this.earliest ? ctx.view - 9999n : this.earliest;
          for (let h = low; h <= ctx.view; h++) {
            const b = chain.block(h);
            if (b && matches(q, { 'block.height': [h.toString()], 'tm.event': ['NewBlock'] })) found.push(b);
          }
          if (order === 'desc') found.reverse();
          const { start, end } = paginate(found.length, a.page as bigint | undefined, a.per_page as bigint | undefined);
          return {
            blocks: found.slice(start, end).map((b) => ({ block_id: blockIdJson(b.id), block: blockJson(b, chainId) })),
            total_count: String(found.length),
          };
        },
      },
      check_tx: {
        params: [['tx', 'bytes']],
        fn: (a) => abciJson(chain.checkTx((a.tx as Buffer | undefined) ?? Buffer.alloc(0))),
      },
      broadcast_tx_async: {
        params: [['tx', 'bytes']],
        fn: (a) => {
          const { hash } = submit(a.tx);
          return { code: 0, data: '', log: '', codespace: '', hash };
        },
      },
      broadcast_tx_sync: {
        params: [['tx', 'bytes']],
        fn: (a) => {
          const { hash, check } = submit(a.tx);
          return { code: check.code, data: hexUpper(check.data), log: check.log, codespace: check.codespace, hash };
        },
      },
      broadcast_tx_commit: {
        params: [['tx', 'bytes']],
        fn: async (a) => {
          const { hash, check } = submit(a.tx);
          if (check.code !== 0) {
            return { check_tx: abciJson(check), tx_result: emptyExec(), hash, height: '0' };
          }
          const t = await chain.waitForTx(hash, BROADCAST_COMMIT_TIMEOUT_MS);
          if (!t) throw new Error('timed out waiting for tx to be included in a block');
          return { check_tx: abciJson(check), tx_result: abciJson(t.result), hash, height: t.height.toString() };
        },
      },
      abci_query: {
        params: [
          ['path', 'string'],
          ['data', 'hexbytes'],
          ['height', 'int'],
          ['prove', 'bool'],
        ],
        fn: (a, ctx) => {
          const key = (a.data as Buffer | undefined) ?? Buffer.alloc(0);
          const value = chain.kvGet(key);
          const h = (a.height as bigint | undefined) ?? 0n;
          return {
            response: {
              code: 0,
              log: value ? 'exists' : 'does not exist',
              info: '',
              index: '0',
              key: key.length ? key.toString('base64') : null,
              value: value ? value.toString('base64') : null,
              proofOps: null, // sic: camelCase in v0.38's answer
              height: (h > 0n ? h : ctx.view).toString(),
              codespace: '',
            },
          };
        },
      },
      abci_info: {
        params: [],
        fn: (_a, ctx) => {
          const b = chain.block(ctx.view) as Block;
          return {
            response: {
              data: `{"size":${chain.kvSize()}}`,
              version: '2.0.0',
              app_version: '1',
              last_block_height: ctx.view.toString(),
              last_block_app_hash: b.resultAppHash.toString('base64'),
            },
          };
        },
      },
    };
    return r;
  }

  private nodeInfo(nodeId: string): Record<string, unknown> {
    return {
      protocol_version: { p2p: '8', block: '11', app: '1' },
      id: nodeId,
      listen_addr: 'tcp://0.0.0.0:26656',
      network: this.chain.opts.chainId,
      version: '0.38.12',
      channels: '40202122233038606100',
      moniker: this.o.providerName.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      other: { tx_index: this.o.txIndex === false ? 'off' : 'on', rpc_address: `tcp://${this.o.host}:${this.o.port()}` },
    };
  }
}

// ------------------------------------------------------------------ helpers

/** `result_finalize_block` of a NewBlock event: events, tx_results (when empty) and consensus_param_updates are omitted. */
function finalizeJson(b: Block): { tx_results?: unknown[]; validator_updates: unknown[]; app_hash: string } {
  const app_hash = b.resultAppHash.toString('base64');
  return b.results.length ? { tx_results: b.results.map(abciJson), validator_updates: [], app_hash } : { validator_updates: [], app_hash };
}

function totalPower(chain: Chain): string {
  return chain.validators.reduce((s, v) => s + v.power, 0n).toString();
}

/** The consensus round in progress (height tip+1, round 0, propose step, no votes yet). */
function roundState(
  chain: Chain,
  view: bigint,
): { height: string; startTime: string; votes: unknown[]; proposer: Chain['validators'][number]; proposerIndex: number } {
  const tip = chain.block(view) as Block;
  const n = chain.validators.length;
  const proposerIndex = Number((view + 1n) % BigInt(n));
  const empty = `BA{${n}:${'_'.repeat(n)}} 0/${totalPower(chain)} = 0.00`;
  return {
    height: (view + 1n).toString(),
    startTime: goTime(tip.timeNs + 1_000_000_000n),
    votes: [
      {
        round: 0,
        prevotes: chain.validators.map(() => 'nil-Vote'),
        prevotes_bit_array: empty,
        precommits: chain.validators.map(() => 'nil-Vote'),
        precommits_bit_array: empty,
      },
    ],
    proposer: chain.validators[proposerIndex],
    proposerIndex,
  };
}

function emptyExec(): Record<string, unknown> {
  return { code: 0, data: null, log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' };
}

function blockSize(b: Block): number {
  return 600 + b.txs.reduce((s, t) => s + t.length + 4, 0) + b.lastCommit.signatures.length * 110;
}

function searchQuery(q: Arg): Query {
  const text = (q as string | undefined) ?? '';
  if (text.length > MAX_QUERY_LENGTH) throw new Error('maximum query length exceeded');
  // tx_search and block_search return the parser's error as is (subscribe prefixes it).
  return parseQuery(text);
}

function orderBy(v: Arg): 'asc' | 'desc' {
  const s = (v as string | undefined) ?? '';
  if (s === '' || s === 'asc') return 'asc';
  if (s === 'desc') return 'desc';
  throw new Error('expected order_by to be either `asc` or `desc` or empty');
}

function perPage(v: bigint | undefined): number {
  if (v === undefined || v < 1n) return 30;
  return v > 100n ? 100 : Number(v);
}

function paginate(total: number, page: bigint | undefined, per: bigint | undefined): { start: number; end: number } {
  const size = perPage(per);
  const pages = Math.max(1, Math.floor((total - 1) / size) + 1);
  const p = page === undefined ? 1n : page;
  if (p <= 0n || p > BigInt(pages)) throw new Error(`page should be within [1, ${pages}] range, given ${p}`);
  const start = (Number(p) - 1) * size;
  return { start, end: Math.min(total, start + size) };
}

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Go's wording for the common JSON syntax errors (approximate). */
function goJsonError(e: unknown): string {
  const m = msg(e);
  if (/Unexpected end/i.test(m)) return 'unexpected end of JSON input';
  const ch = /Unexpected token '?(.)'?/.exec(m);
  return ch ? `invalid character '${ch[1]}' looking for beginning of value` : m;
}

/** fmt's %v of a value decoded by encoding/json into interface{}. */
function goValue(v: unknown): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o)
      .sort()
      .map((k) => `${k}:${goValue(o[k])}`)
      .join(' ')}]`;
  }
  return String(v);
}

/** fmt's %T of such a value. */
function goDynamicType(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object' && v !== null) return 'map[string]interface {}';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'float64';
  return 'string';
}

function goType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/** What Go's json.Unmarshal into RPCRequest would reject (method not a string, odd id types, not an object). */
function requestShapeError(r: unknown): string | undefined {
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return `json: cannot unmarshal ${goType(r)} into Go value of type types.RPCRequest`;
  const o = r as Record<string, unknown>;
  if (o.method !== undefined && o.method !== null && typeof o.method !== 'string')
    return `json: cannot unmarshal ${goType(o.method)} into Go struct field .method of type string`;
  if (o.id !== undefined && o.id !== null && typeof o.id !== 'string' && typeof o.id !== 'number')
    return `json-rpc ID (${goValue(o.id)}) is of unknown type (${goDynamicType(o.id)})`;
  return undefined;
}

function jsonParamsToArgs(route: Route, params: unknown): Args {
  const args: Args = {};
  if (params === undefined || params === null) return args;
  if (Array.isArray(params)) {
    if (params.length !== route.params.length) {
      const names = `[${route.params.map(([n]) => n).join(' ')}]`;
      const rawMessages = `[${params.map((p) => `[${[...Buffer.from(JSON.stringify(p))].join(' ')}]`).join(' ')}]`;
      throw new Error(`expected ${route.params.length} parameters (${names}), got ${params.length} (${rawMessages})`);
    }
    route.params.forEach(([name, type], i) => (args[name] = fromJson(type, params[i])));
    return args;
  }
  if (typeof params === 'object') {
    const m = params as Record<string, unknown>;
    for (const [name, type] of route.params) if (m[name] !== undefined) args[name] = fromJson(type, m[name]);
    return args;
  }
  throw new Error(`unknown type for JSON params: json: cannot unmarshal ${goType(params)} into Go value of type []json.RawMessage. Expected map or array`);
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** cmtjson decoding of one JSON param value. */
function fromJson(type: ParamType, v: unknown): Arg {
  if (v === null) return undefined;
  switch (type) {
    case 'int':
    case 'uint': {
      if (typeof v !== 'string') throw new Error(`invalid 64-bit integer encoding ${goQuote(JSON.stringify(v))}, expected string`);
      const fn = type === 'int' ? 'ParseInt' : 'ParseUint';
      if (!(type === 'int' ? /^[+-]?\d+$/ : /^\+?\d+$/).test(v)) throw new Error(`strconv.${fn}: parsing ${goQuote(v)}: invalid syntax`);
      const n = BigInt(v);
      if (n < INT64_MIN || n > (type === 'int' ? INT64_MAX : (1n << 64n) - 1n)) throw new Error(`strconv.${fn}: parsing ${goQuote(v)}: value out of range`);
      return n;
    }
    case 'bool':
      if (typeof v !== 'boolean') throw new Error(`json: cannot unmarshal ${goType(v)} into Go value of type bool`);
      return v;
    case 'string':
      if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${goType(v)} into Go value of type string`);
      return v;
    case 'bytes': {
      if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${goType(v)} into Go value of type []uint8`);
      const bad = /[^A-Za-z0-9+/=]/.exec(v);
      if (bad || v.length % 4 !== 0 || /=[^=]/.test(v)) {
        const at = bad ? bad.index : Math.floor(v.length / 4) * 4;
        throw new Error(`illegal base64 data at input byte ${at}`);
      }
      return Buffer.from(v, 'base64');
    }
    case 'evidence':
      return JSON.stringify(v);
    case 'hexbytes':
      if (typeof v !== 'string') throw new Error(`invalid hex string: ${JSON.stringify(v)}`);
      return decodeHex(v);
  }
}

function decodeHex(s: string): Buffer {
  const bad = /[^0-9a-fA-F]/.exec(s);
  if (bad) {
    const cp = bad[0].codePointAt(0) ?? 0;
    throw new Error(`encoding/hex: invalid byte: U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${goQuote(bad[0]).replace(/^"|"$/g, "'")}`);
  }
  if (s.length % 2 !== 0) throw new Error('encoding/hex: odd length hex string');
  return Buffer.from(s, 'hex');
}

/** CometBFT's URI argument rules: bare ints, 0x hex for bytes/strings, quoted strings, JSON otherwise. */
function fromUri(type: ParamType, arg: string): Arg {
  const isInt = /^-?[0-9]+$/.test(arg);
  const isQuoted = arg.length >= 2 && arg.startsWith('"') && arg.endsWith('"');
  const isHex = arg.toLowerCase().startsWith('0x');
  const wantsBytes = type === 'bytes' || type === 'hexbytes';
  if (isInt && (type === 'int' || type === 'uint')) return fromJson(type, arg);
  if (type === 'evidence') {
    if (isHex) throw new Error("got a hex string arg, but expected 'interface'");
    try {
      return JSON.stringify(JSON.parse(arg));
    } catch (e) {
      throw new Error(goJsonError(e));
    }
  }
  if (isHex) {
    if (type !== 'string' && !wantsBytes) {
      const kind = type === 'int' ? 'int64' : type === 'uint' ? 'uint' : 'bool';
      throw new Error(`got a hex string arg, but expected '${kind}'`);
    }
    const b = decodeHex(arg.slice(2));
    return type === 'string' ? b.toString('utf8') : b;
  }
  if (isQuoted && wantsBytes) return Buffer.from(JSON.parse(arg) as string, 'utf8');
  if ((type === 'int' || type === 'uint') && !arg.startsWith('"')) {
    throw new Error(`invalid 64-bit integer encoding ${goQuote(arg)}, expected string`);
  }
  let v: unknown;
  try {
    v = JSON.parse(arg);
  } catch (e) {
    throw new Error(goJsonError(e));
  }
  if (wantsBytes && typeof v === 'string') return Buffer.from(v, 'utf8');
  return fromJson(type, v);
}

function okBody(id: JsonId, result: unknown): Buffer | string {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
  if (result instanceof RawJson) return Buffer.concat([Buffer.from(head), ...result.parts, Buffer.from('}')]);
  return head + JSON.stringify(result) + '}';
}

function errorText(id: JsonId | undefined, e: RpcError): string {
  const error: Record<string, unknown> = { code: e.code, message: e.rpcMessage };
  if (e.data) error.data = e.data;
  const idPart = id === undefined ? '' : `"id":${JSON.stringify(id)},`;
  return `{"jsonrpc":"2.0",${idPart}"error":${JSON.stringify(error)}}`;
}

function joinParts(parts: Array<Buffer | string>): Buffer[] {
  const out: Buffer[] = [];
  parts.forEach((p, i) => {
    if (i > 0) out.push(Buffer.from(','));
    out.push(typeof p === 'string' ? Buffer.from(p) : p);
  });
  return out;
}
