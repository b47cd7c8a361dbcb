// Provider health: a light probe per interface (height, chain identity, latency, errors,
// rate limits) and a sliding window of results per interface, classified by classify.ts (the rows'
// shape: model.ts). Never imports vscode.

import type WebSocket from 'ws';
import { WS_OPEN, openWebSocket } from '../transport/lazy';
import { EndpointError, networkError } from '../base/errors';
import { type HttpClient } from '../transport/http';
import { interpret, readCometStatus } from '../documents/interpret';
import { isObject } from '../transport/jsonRpc';
import * as l10n from '../base/l10n';
import { type ExpectedChain, classify, summarize } from './classify';
import type { InterfaceHealth, ProbeFailure, ProbeResult } from './model';
import { parseDecimalHeight, parseHexHeight } from '../base/limits';
import { INTERFACES, type InterfaceId, type Provider, joinUrl } from '../config/providers';
import { describeAddress } from '../transport/proxy';
import { wsExchange } from '../transport/wsCall';

export type { ExpectedChain } from './classify';
export { LAG_BLOCKS, SLOW_MS, classify } from './classify';
export type { Family, HealthState, InterfaceHealth, ProbeFailure, ProbeResult } from './model';
export { FAMILY } from './model';

export interface HealthOptions {
  http: HttpClient;
  timeoutMs: number;
  /** Results kept per interface for success rate and percentiles. */
  window?: number;
  /** A connection unused for longer than this is assumed closed (set-up measured again). */
  keepAliveMs?: number;
  now?: () => number;
  /** False skips this interface's probe (a cooldown after failures: session.ts). */
  shouldProbe?: (provider: string, iface: InterfaceId) => boolean;
}
const DEFAULT_RETRY_AFTER_MS = 60_000;
/** A probe's answer is small (a status, a block header): anything past this is refused, not read. */
export const MAX_PROBE_BYTES = 256 * 1024;

export class HealthMonitor {
  private readonly results = new Map<string, ProbeResult[]>();
  private readonly lastUse = new Map<string, number>();
  private readonly window: number;
  private readonly keepAliveMs: number;
  private readonly now: () => number;

  constructor(private readonly options: HealthOptions) {
    this.window = options.window ?? 20;
    this.keepAliveMs = options.keepAliveMs ?? 25_000;
    this.now = options.now ?? Date.now;
  }

  /** Probes every interface of every provider at once; resolves when all have answered or failed. */
  async refresh(providers: readonly Provider[], signal?: AbortSignal): Promise<void> {
    const jobs: Promise<void>[] = [];
    for (const p of providers) {
      for (const iface of INTERFACES) {
        const address = p.endpoints[iface];
        if (!address) continue;
        const key = keyOf(p.name, iface);
        const prev = this.results.get(key)?.at(-1);
        if (prev?.rateLimitedUntil && prev.rateLimitedUntil > this.now()) continue; // honour Retry-After
        if (this.options.shouldProbe && !this.options.shouldProbe(p.name, iface)) continue; // cooling down
        jobs.push(
          this.probe(iface, address, p.headers, signal).then((r) => {
            const list = this.results.get(key) ?? [];
            list.push(r);
            if (list.length > this.window) list.splice(0, list.length - this.window);
            this.results.set(key, list);
          }),
        );
      }
    }
    await Promise.all(jobs);
  }

  /** Forgets providers no longer configured. */
  retain(providers: readonly Provider[]): void {
    const keep = new Set(providers.flatMap((p) => INTERFACES.map((i) => keyOf(p.name, i))));
    for (const key of [...this.results.keys()]) if (!keep.has(key)) this.results.delete(key);
  }

  history(provider: string, iface: InterfaceId): readonly ProbeResult[] {
    return this.results.get(keyOf(provider, iface)) ?? [];
  }

  /** Classifies every configured interface (see the module comment). */
  assess(providers: readonly Provider[], expected: (p: Provider) => ExpectedChain = () => ({})): InterfaceHealth[] {
    const rows: InterfaceHealth[] = [];
    for (const p of providers) {
      for (const iface of INTERFACES) {
        if (!p.endpoints[iface]) continue;
        rows.push(summarize(p.name, iface, this.history(p.name, iface), this.now()));
      }
    }
    classify(rows, providers, expected, this.now());
    return rows;
  }

  private async probe(iface: InterfaceId, address: string, headers: Readonly<Record<string, string>> | undefined, signal?: AbortSignal): Promise<ProbeResult> {
    const origin = originOf(address);
    const cold = (this.lastUse.get(origin) ?? 0) < this.now() - this.keepAliveMs;
    try {
      let result: ProbeResult;
      if (iface === 'consensusWs') {
        result = await probeWebSocket(address, headers, this.options.timeoutMs, signal, this.now);
      } else if (iface === 'evmWs') {
        result = await probeEvmWebSocket(address, headers, this.options.timeoutMs, signal, this.now);
      } else {
        // A cold origin is probed twice: the first pays for DNS/TCP/TLS, the second is the latency.
        const first = await this.probeHttp(iface, address, headers, signal);
        result = first;
        if (cold && first.ok) {
          result = await this.probeHttp(iface, address, headers, signal);
          if (result.ok && first.latencyMs !== undefined && result.latencyMs !== undefined) {
            result.setupMs = Math.max(0, first.latencyMs - result.latencyMs);
          }
        }
      }
      return result;
    } finally {
      this.lastUse.set(origin, this.now());
    }
  }

  private async probeHttp(
    iface: InterfaceId,
    address: string,
    headers: Readonly<Record<string, string>> | undefined,
    signal?: AbortSignal,
  ): Promise<ProbeResult> {
    const at = this.now();
    const http = this.options.http;
    const send = async (req: { method: 'GET' | 'POST'; url: string; body?: string }, dialect: 'jsonrpc' | 'rest') => {
      const res = await http.send({
        ...req,
        headers: headers && { ...headers },
        timeoutMs: this.options.timeoutMs,
        signal,
        maxBufferBytes: MAX_PROBE_BYTES,
        maxBytes: MAX_PROBE_BYTES,
      });
      return { res, read: interpret(res, dialect, req.url) };
    };
    try {
      switch (iface) {
        case 'evmRpc': {
          const body = (method: string, id: number) => JSON.stringify({ jsonrpc: '2.0', method, params: [], id });
          const [bn, cid] = await Promise.all([
            send({ method: 'POST', url: address, body: body('eth_blockNumber', 1) }, 'jsonrpc'),
            send({ method: 'POST', url: address, body: body('eth_chainId', 2) }, 'jsonrpc'),
          ]);
          const failed = failure(bn, at) ?? failure(cid, at);
          if (failed) return failed;
          const h = parseHexHeight(bn.read.result); // bounded before any BigInt work
          if (h === undefined)
            return down(at, l10n.t('eth_blockNumber did not answer a block height (a hex quantity within int64)'), undefined, { kind: 'protocol' });
          const chain = cid.read.result;
          return { at, ok: true, latencyMs: bn.res.elapsedMs, height: h, chainId: typeof chain === 'string' ? chain.toLowerCase() : undefined };
        }
        case 'consensusHttp':
        case 'consensusRpc': {
          const r =
            iface === 'consensusHttp'
              ? await send({ method: 'GET', url: joinUrl(address, '/status') }, 'jsonrpc')
              : await send({ method: 'POST', url: address, body: JSON.stringify({ jsonrpc: '2.0', method: 'status', params: {}, id: 1 }) }, 'jsonrpc');
          const failed = failure(r, at);
          if (failed) return failed;
          return fromCometStatus(r.read.result, at, r.res.elapsedMs);
        }
        case 'rest': {
          const r = await send({ method: 'GET', url: joinUrl(address, '/cosmos/base/tendermint/v1beta1/blocks/latest') }, 'rest');
          if (r.res.status === 501 || r.res.status === 404) {
            // The route is missing on this gateway: fall back to `syncing` (alive, no height).
            const s = await send({ method: 'GET', url: joinUrl(address, '/cosmos/base/tendermint/v1beta1/syncing') }, 'rest');
            return failure(s, at) ?? { at, ok: true, latencyMs: s.res.elapsedMs };
          }
          const failed = failure(r, at);
          if (failed) return failed;
          const header =
            isObject(r.read.result) && isObject(r.read.result.block) && isObject(r.read.result.block.header) ? r.read.result.block.header : undefined;
          const h = parseDecimalHeight(header?.height);
          if (h === undefined) return down(at, l10n.t('blocks/latest has no block.header.height within int64'), undefined, { kind: 'protocol' });
          return {
            at,
            ok: true,
            latencyMs: r.res.elapsedMs,
            height: h,
            chainId: typeof header?.chain_id === 'string' ? header.chain_id : undefined,
            ...blockTimeOf(header?.time),
          };
        }
        default:
          return down(at, l10n.t('no probe for {0}', iface));
      }
    } catch (err) {
      return down(at, err instanceof EndpointError ? err : networkError(err, describeAddress(address)));
    }
  }
}

function keyOf(provider: string, iface: InterfaceId): string {
  return `${provider}\u0000${iface}`;
}

function originOf(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return address;
  }
}

function down(at: number, error: string | EndpointError, rateLimitedUntil?: number, failure?: ProbeFailure): ProbeResult {
  if (error instanceof EndpointError) {
    const { code, status } = error.detail;
    return { at, ok: false, error: error.shown, rateLimitedUntil, failure: { kind: error.kind, code, status } };
  }
  return { at, ok: false, error, rateLimitedUntil, ...(failure ? { failure } : {}) };
}

function rateLimited(at: number, retryAfter: string | undefined): ProbeResult {
  return down(at, l10n.t('429 rate-limited'), at + retryAfterMs(retryAfter), { kind: 'http', status: 429 });
}

function failure(r: { res: { status: number; headers: Record<string, string> }; read: { error?: EndpointError } }, at: number): ProbeResult | undefined {
  if (!r.read.error) return undefined;
  if (r.res.status === 429) return rateLimited(at, r.res.headers['retry-after']);
  return down(at, r.read.error);
}

function retryAfterMs(value: string | undefined): number {
  if (!value) return DEFAULT_RETRY_AFTER_MS;
  if (/^\d+$/.test(value.trim())) return Math.min(3600, Number(value.trim())) * 1000;
  const when = Date.parse(value);
  return Number.isNaN(when) ? DEFAULT_RETRY_AFTER_MS : Math.max(0, Math.min(3_600_000, when - Date.now()));
}

function fromCometStatus(result: unknown, at: number, latencyMs: number): ProbeResult {
  const status = readCometStatus(result);
  if (!status) return down(at, l10n.t('status has no sync_info.latest_block_height'));
  const syncInfo = isObject(result) && isObject(result.sync_info) ? result.sync_info : undefined;
  return { at, ok: true, latencyMs, height: status.height, chainId: status.chainId, ...blockTimeOf(syncInfo?.latest_block_time) };
}

/** The node's own time of its latest block (RFC 3339), which judges staleness from the first probe. */
function blockTimeOf(time: unknown): { blockTime?: number } {
  const t = typeof time === 'string' ? Date.parse(time) : NaN;
  return Number.isFinite(t) && t > 0 ? { blockTime: t } : {};
}

/** eth_blockNumber and eth_chainId over the EVM WebSocket (one socket each, at once): alive, the latency (handshake included), the height and the chain. */
async function probeEvmWebSocket(
  address: string,
  headers: Readonly<Record<string, string>> | undefined,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  now: () => number,
): Promise<ProbeResult> {
  const at = now();
  const call = (method: string) =>
    wsExchange(address, {
      message: JSON.stringify({ jsonrpc: '2.0', method, params: [], id: 1 }),
      id: 1,
      collect: 0,
      timeoutMs,
      signal,
      headers: headers && { ...headers },
    });
  const [r, cid] = await Promise.all([call('eth_blockNumber'), call('eth_chainId')]);
  if (r.error) return down(at, r.error);
  const height = parseHexHeight(r.result); // bounded before any BigInt work, as over HTTP
  if (height === undefined) return down(at, l10n.t('eth_blockNumber did not answer a hex quantity'));
  const chain = cid.result;
  return { at, ok: true, latencyMs: r.elapsedMs, height, chainId: typeof chain === 'string' ? chain.toLowerCase() : undefined };
}

/** Connect, then `subscribe` and `status` at once: latency is the time to the subscribe answer. */
function probeWebSocket(
  address: string,
  headers: Readonly<Record<string, string>> | undefined,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  now: () => number,
): Promise<ProbeResult> {
  const at = now();
  const target = describeAddress(address);
  return new Promise((resolve) => {
    const started = performance.now();
    let opened = 0;
    let subscribedMs: number | undefined;
    let status: ProbeResult | undefined;
    let done = false;
    const socket = openWebSocket(address, { handshakeTimeout: timeoutMs, maxPayload: MAX_PROBE_BYTES, headers: headers && { ...headers } });
    const finish = (r: ProbeResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      if (socket.readyState === WS_OPEN) socket.close(1000);
      else socket.terminate();
      resolve(r);
    };
    const onAbort = () => finish(down(at, l10n.t('cancelled'), undefined, { kind: 'cancelled' }));
    const timer = setTimeout(
      () => finish(down(at, l10n.t('no answer from {0} within {1} s', target, timeoutMs / 1000), undefined, { kind: 'timeout' })),
      timeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    const check = () => {
      if (subscribedMs !== undefined && status) {
        finish({ ...status, latencyMs: subscribedMs, setupMs: opened - started });
      }
    };
    socket.on('open', () => {
      opened = performance.now();
      socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'subscribe', id: 1, params: { query: "tm.event='NewBlockHeader'" } }));
      socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'status', id: 2, params: {} }));
    });
    socket.on('message', (data: WebSocket.RawData) => {
      let msg: unknown;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return finish(down(at, l10n.t('{0} sent a message that is not JSON', target), undefined, { kind: 'parse' }));
      }
      if (!isObject(msg)) return;
      if (isObject(msg.error)) {
        const data = typeof msg.error.data === 'string' ? `: ${msg.error.data}` : '';
        return finish(down(at, `${String(msg.error.message)}${data}`, undefined, { kind: 'rpc' }));
      }
      if (msg.id === 1 && subscribedMs === undefined) subscribedMs = performance.now() - opened;
      if (msg.id === 2) status = fromCometStatus(msg.result, at, 0);
      check();
    });
    socket.on('unexpected-response', (_req, res) => {
      finish(
        res.statusCode === 429
          ? rateLimited(at, res.headers['retry-after'] as string | undefined)
          : down(at, l10n.t('HTTP {0} on the WebSocket upgrade', String(res.statusCode)), undefined, { kind: 'http', status: res.statusCode }),
      );
    });
    socket.on('error', (err) => finish(down(at, networkError(err, target))));
    socket.on('close', () => finish(down(at, l10n.t('{0} closed the socket', target), undefined, { kind: 'network' })));
  });
}
