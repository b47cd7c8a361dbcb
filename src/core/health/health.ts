// Provider health: a light probe per interface (height, chain identity, latency, errors,
// rate limits) and a sliding window of results per interface, classified by classify.ts (the rows'
// shape: model.ts). Every probe is an operation of core/chain/probes.ts (mostly the catalogue's
// own: status, eth_blockNumber, blocks/latest) sent through execute() with the probe preset; this
// file keeps only which probes each interface gets and how to read them. Never imports vscode.

import { EndpointError } from '../base/errors';
import { readCometStatus } from '../documents/interpret';
import { isObject } from '../base/text';
import * as l10n from '../base/l10n';
import { type ExpectedChain, classify, summarize } from './classify';
import type { InterfaceHealth, ProbeFailure, ProbeResult } from './model';
import { parseDecimalHeight, parseHexHeight } from '../base/limits';
import { INTERFACES, type InterfaceId, type Provider } from '../config/providers';
import { type Http } from '../transport/http';
import type { Outcome } from '../chain/execute';
import { HEALTH_PROBES, type ProbeOperation, runProbe } from '../chain/probes';
import { MAX_PROBE_BYTES, probeOptions } from '../chain/requestOptions';

export type { ExpectedChain } from './classify';
export { LAG_BLOCKS, SLOW_MS, classify } from './classify';
export type { Family, HealthState, InterfaceHealth, ProbeFailure, ProbeResult } from './model';
export { FAMILY } from './model';

export interface HealthOptions {
  http: Http;
  timeoutMs: number;
  /** Results kept per interface for success rate and percentiles. */
  window?: number;
  /** A connection unused for longer than this is assumed closed (set-up measured again). */
  keepAliveMs?: number;
  now?: () => number;
  /** False skips this interface's probe (a cooldown after failures: session.ts). */
  shouldProbe?: (provider: string, iface: InterfaceId) => boolean;
  /** Told of every request a probe sent, as it finishes (the exporter's request histogram). */
  onOutcome?: (provider: string, iface: InterfaceId, op: ProbeOperation, outcome: Outcome) => void;
}
const DEFAULT_RETRY_AFTER_MS = 60_000;
export { MAX_PROBE_BYTES };

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
          this.probe(p, iface, signal).then((r) => {
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

  private async probe(p: Provider, iface: InterfaceId, signal?: AbortSignal): Promise<ProbeResult> {
    const origin = originOf(p.endpoints[iface] ?? '');
    const cold = (this.lastUse.get(origin) ?? 0) < this.now() - this.keepAliveMs;
    const onOutcome = this.options.onOutcome;
    const ask = async (op: ProbeOperation) => {
      const outcome = await runProbe(p, op, probeOptions(this.options.http, this.options.timeoutMs, signal));
      onOutcome?.(p.name, iface, op, outcome);
      return outcome;
    };
    try {
      if (iface === 'consensusWs' || iface === 'evmWs') return await this.probeOnce(ask, iface);
      // A cold origin is probed twice: the first pays for DNS/TCP/TLS, the second is the latency.
      const first = await this.probeOnce(ask, iface);
      if (!cold || !first.ok) return first;
      const result = await this.probeOnce(ask, iface);
      if (result.ok && first.latencyMs !== undefined && result.latencyMs !== undefined) result.setupMs = Math.max(0, first.latencyMs - result.latencyMs);
      return result;
    } finally {
      this.lastUse.set(origin, this.now());
    }
  }

  /** The probes of one interface and their reading. */
  private async probeOnce(ask: (op: ProbeOperation) => Promise<Outcome>, iface: InterfaceId): Promise<ProbeResult> {
    const at = this.now();
    switch (iface) {
      case 'evmRpc':
      case 'evmWs': {
        const ws = iface === 'evmWs';
        // The latest block (number and timestamp in one call: staleness from the node's own block
        // time at the first probe, as for CometBFT and REST) and the chain id.
        const [latest, cid] = await Promise.all([
          ask(ws ? HEALTH_PROBES.evmWsLatestBlock : HEALTH_PROBES.evmLatestBlock),
          ask(ws ? HEALTH_PROBES.evmWsChainId : HEALTH_PROBES.evmChainId),
        ]);
        let blk = latest;
        // A gateway that refuses eth_getBlockByNumber (method not found) is still judged by its
        // height: eth_blockNumber, without a block time (staleness then from what is watched).
        let numberOnly = false;
        if (blk.error && !cid.error && blk.error.kind === 'rpc' && blk.error.detail.code === -32601) {
          blk = await ask(ws ? HEALTH_PROBES.evmWsBlockNumber : HEALTH_PROBES.evmBlockNumber);
          numberOnly = true;
        }
        const failed = failure(blk, at) ?? failure(cid, at);
        if (failed) return failed;
        const block = numberOnly ? { number: blk.result } : isObject(blk.result) ? blk.result : undefined;
        const h = parseHexHeight(block?.number); // bounded before any BigInt work
        if (h === undefined)
          return down(
            at,
            numberOnly
              ? l10n.t('eth_blockNumber did not answer a hex quantity within int64')
              : l10n.t('eth_getBlockByNumber("latest") did not answer a block with a number (a hex quantity within int64)'),
            undefined,
            { kind: 'protocol' },
          );
        const chain = cid.result;
        return {
          at,
          ok: true,
          latencyMs: blk.elapsedMs,
          height: h,
          chainId: typeof chain === 'string' ? chain.toLowerCase() : undefined,
          ...evmBlockTimeOf(block?.timestamp),
        };
      }
      case 'consensusHttp':
      case 'consensusRpc': {
        const r = await ask(iface === 'consensusHttp' ? HEALTH_PROBES.consensusHttpStatus : HEALTH_PROBES.consensusRpcStatus);
        return failure(r, at) ?? fromCometStatus(r.result, at, r.elapsedMs);
      }
      case 'consensusWs': {
        // The subscribe answer (latency: after the socket opened) and the status (height, chain), each on its own socket.
        const [sub, status] = await Promise.all([ask(HEALTH_PROBES.consensusWsSubscribe), ask(HEALTH_PROBES.consensusWsStatus)]);
        const failed = failure(sub, at) ?? failure(status, at);
        if (failed) return failed;
        const read = fromCometStatus(status.result, at, 0);
        if (!read.ok) return read;
        const setupMs = sub.connectMs ?? 0;
        return { ...read, latencyMs: Math.max(0, sub.elapsedMs - setupMs), setupMs };
      }
      case 'rest': {
        const r = await ask(HEALTH_PROBES.restLatestBlock);
        if (r.status === 501 || r.status === 404) {
          // The route is missing on this gateway: fall back to `syncing` (alive, no height).
          const s = await ask(HEALTH_PROBES.restSyncing);
          return failure(s, at) ?? { at, ok: true, latencyMs: s.elapsedMs };
        }
        const failed = failure(r, at);
        if (failed) return failed;
        const block = isObject(r.result) && isObject(r.result.block) ? r.result.block : undefined;
        const header = block && isObject(block.header) ? block.header : undefined;
        const h = parseDecimalHeight(header?.height);
        if (h === undefined) return down(at, l10n.t('blocks/latest has no block.header.height within int64'), undefined, { kind: 'protocol' });
        return {
          at,
          ok: true,
          latencyMs: r.elapsedMs,
          height: h,
          chainId: typeof header?.chain_id === 'string' ? header.chain_id : undefined,
          ...blockTimeOf(header?.time),
        };
      }
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

/** A failed probe as a result: rate-limited (HTTP 429, over HTTP or on the WebSocket upgrade) or down. */
function failure(o: Outcome, at: number): ProbeResult | undefined {
  if (!o.error) return undefined;
  if (o.error.detail.status === 429 || o.status === 429) return rateLimited(at, o.error.detail.retryAfter);
  return down(at, o.error);
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

/** An EVM block's `timestamp` (hex seconds) as the node's own block time, bounded (at most 12 hex digits). */
function evmBlockTimeOf(timestamp: unknown): { blockTime?: number } {
  if (typeof timestamp !== 'string' || !/^0x[0-9a-fA-F]{1,12}$/.test(timestamp)) return {};
  const t = Number.parseInt(timestamp.slice(2), 16) * 1000;
  return t > 0 ? { blockTime: t } : {};
}

/** The node's own time of its latest block (RFC 3339), which judges staleness from the first probe. */
function blockTimeOf(time: unknown): { blockTime?: number } {
  const t = typeof time === 'string' ? Date.parse(time) : NaN;
  return Number.isFinite(t) && t > 0 ? { blockTime: t } : {};
}
