// The exporter's core (`chain-endpoints serve`, docs/monitoring.md): on its interval it probes every
// configured interface with the editor's own health code (health.ts: one probe at a time per
// interface, at most `concurrency` in flight overall, each request with a timeout and the
// exporter's AbortSignal), each provider's capabilities (capabilities.ts) every capability TTL, and
// runs the query files through the query pipeline (pipeline.ts). What it learns goes into a metric
// registry (metrics.ts) whose text is rendered once per change: a scrape reads that text and never
// waits on the network. `probeNow` is the /probe endpoint's one-off probe (blackbox_exporter's
// shape). Labels are only configured names, interface ids and closed sets (no heights, hashes or
// free text), and every map is keyed by configured things, so memory stays flat. Never imports vscode.

import { readAccountForQuery } from '../explorer/account/accountFields';
import { receiptRunner } from '../explorer/receipt/queryRunner';
import { setMaxListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { REFUSED_CODES, TIMEOUT_CODES, DNS_CODES, isTlsCode } from '../base/errors';
import { clean } from '../base/text';
import { type ProbeOperation } from '../chain/probes';
import type { Outcome } from '../chain/execute';
import { requestOptions, probeOptions } from '../chain/requestOptions';
import { groupNetworks, networkIndex } from '../config/networks';
import { INTERFACES, type InterfaceId, type Provider } from '../config/providers';
import { type Capabilities, CAPABILITY_TTL_MS, probeCapabilities } from '../health/capabilities';
import { HealthMonitor, type InterfaceHealth, type ProbeResult } from '../health/health';
import { HealthSession } from '../health/session';
import type { Http } from '../transport/http';
import { type PreparedRun, runPrepared } from '../queries/pipeline';
import type { RunContext } from '../queries/run';
import { masker } from '../secrets/mask';
import { EXPOSITION_CONTENT_TYPE, type Family, Registry } from './metrics';

export { EXPOSITION_CONTENT_TYPE };

/** The closed set of `kind` values of chain_endpoints_errors_total. */
export const ERROR_KINDS = ['timeout', 'refused', 'dns', 'tls', 'http_status', 'rate_limited', 'wrong_chain', 'bad_answer', 'network', 'cancelled'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Seconds: buckets of the request and query histograms. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** chain_endpoints_query_passed holds at most this many series, over every query file (a request fanned out to every provider counts once per provider). */
export const MAX_QUERY_SERIES = 10_000;

/** A query file ready to run: its label (relative to the folder given) and the checked run. */
export interface MonitoredQueryFile {
  readonly name: string;
  readonly prepared: PreparedRun;
}

/** One configuration (replaced whole on a reload). */
export interface ExporterConfig {
  /** As configured: names, networks, expected chains. */
  readonly providers: readonly Provider[];
  /** The same providers with their secrets substituted (what the network sees), by name. */
  readonly resolved: ReadonlyMap<string, Provider>;
  readonly queries: readonly MonitoredQueryFile[];
  /** How query files read secrets (the CLI's rules: scoped to their provider). */
  readonly queryContext: Pick<RunContext, 'secretValue' | 'secretHint' | 'foreignSecrets' | 'masker'>;
}

export interface ExporterOptions {
  readonly http: Http;
  readonly intervalMs: number;
  /** Per request (a probe waits at most PROBE_TIMEOUT_MS whatever this says). */
  readonly timeoutMs: number;
  /** Health and capability probes in flight at once, overall; and, apart, query file runs at once. */
  readonly concurrency: number;
  /** Where a query file's large answer may be written. */
  readonly spillDir?: string;
  readonly capabilityTtlMs?: number;
  /** Send the costly capability probes too (debug, txpool, archive); default true. */
  readonly costlyCapabilities?: boolean;
  /** One line per event worth a log (an interface going up or down, a query file failing): names and hosts only. */
  readonly log?: (line: string) => void;
  readonly now?: () => number;
  /** Series of chain_endpoints_query_passed at most (default MAX_QUERY_SERIES). */
  readonly maxQuerySeries?: number;
  /** Told each probe request's duration as it is observed (the OTLP push, otlp.ts); must not block. */
  readonly onRequest?: (r: RequestObservation) => void;
}

/** One probe request, for the OTLP push: the histogram's labels plus the RPC system and the host (never the path). */
export interface RequestObservation {
  readonly network: string;
  readonly provider: string;
  readonly interface: InterfaceId;
  readonly method: string;
  /** `jsonrpc` (EVM JSON-RPC, CometBFT RPC, WebSockets) or `http` (REST and CometBFT's plain GETs). */
  readonly system: 'jsonrpc' | 'http';
  /** The configured address' host name (no port, path, query or credentials), when it parses. */
  readonly host?: string;
  readonly port?: number;
  readonly seconds: number;
}

/** A configured name (a provider, a query file: a repository's file name may hold anything) in a log line: one line, no control characters, at most 100 characters. */
export function shownName(name: string): string {
  return clean(name, 100);
}

/** The host of an address (never its path, query or credentials), for logs. */
export function hostOf(address: string | undefined): string {
  if (!address) return '';
  try {
    return new URL(address).host;
  } catch {
    return '?';
  }
}

/** A failed probe's kind, from the closed set (never from the error's words). */
export function errorKind(r: ProbeResult): ErrorKind {
  const f = r.failure;
  const code = typeof f?.code === 'string' ? f.code : undefined;
  if (f?.status === 429 || r.rateLimitedUntil !== undefined) return 'rate_limited';
  if (f?.kind === 'timeout' || (code && TIMEOUT_CODES.has(code))) return 'timeout';
  if (code && REFUSED_CODES.has(code)) return 'refused';
  if (code && DNS_CODES.has(code)) return 'dns';
  if (code && isTlsCode(code)) return 'tls';
  if (f?.kind === 'cancelled') return 'cancelled';
  if (f?.kind === 'http' || (f?.status !== undefined && (f.status < 200 || f.status >= 300))) return 'http_status';
  if (f?.kind === 'network') return 'network';
  return 'bad_answer';
}

/** The method label of a probe request: the JSON-RPC method or the REST path (a closed set: the probe operations). */
const methodCache = new Map<string, string>();
export function methodOf(op: ProbeOperation): string {
  let m = methodCache.get(op.id);
  if (m === undefined) {
    try {
      const w = op.build({});
      m =
        w.kind === 'jsonrpc' || w.kind === 'ws-call'
          ? w.method
          : w.kind === 'get' || w.kind === 'post'
            ? w.path
            : w.kind === 'ws-subscribe'
              ? 'subscribe'
              : w.kind;
    } catch {
      m = op.id;
    }
    methodCache.set(op.id, m);
  }
  return m;
}

/** The RPC system of a probe request (OpenTelemetry's rpc.system): JSON-RPC calls, else plain HTTP. */
export function rpcSystemOf(op: ProbeOperation): 'jsonrpc' | 'http' {
  try {
    const kind = op.build({}).kind;
    return kind === 'get' || kind === 'post' ? 'http' : 'jsonrpc';
  } catch {
    return 'http';
  }
}

/** Host name and port of a configured address (a placeholder in the host: nothing). */
function serverOf(address: string | undefined): { host?: string; port?: number } {
  if (!address) return {};
  try {
    const u = new URL(address);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' || u.protocol === 'wss:' ? 443 : 80;
    return /^[\w.-]+$|^\[[0-9a-fA-F:.]+\]$/.test(u.hostname) ? { host: u.hostname.replace(/^\[|\]$/g, ''), port } : {};
  } catch {
    return {};
  }
}

/** A limit on work in flight: run() waits for a slot. */
class Slots {
  private busy = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.busy >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy++;
    try {
      return await job();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    }
  }
  get inFlight(): number {
    return this.busy;
  }
}

const key = (provider: string, iface: string) => `${provider}\u0000${iface}`;

export class Exporter {
  readonly registry = new Registry();
  private readonly up: Family;
  private readonly height: Family;
  private readonly lag: Family;
  private readonly blockAge: Family;
  private readonly chainMatch: Family;
  private readonly duration: Family;
  private readonly errors: Family;
  private readonly capability: Family;
  private readonly queryPassed: Family;
  private readonly queryDuration: Family;
  private readonly probesTotal: Family;
  private readonly lastRound: Family;

  private config: ExporterConfig;
  private networks = new Map<string, string>();
  private health: HealthMonitor;
  private session = new HealthSession(8);
  private readonly caps = new Map<string, Capabilities>();
  private readonly inFlight = new Set<string>();
  /** Health and capability probes. */
  private readonly slots: Slots;
  /** Query file runs: a pool of their own, so that a slow file (a hanging provider, many requests) never delays a health probe. */
  private readonly querySlots: Slots;
  private readonly probeSlots = new Slots(4);
  /** /probe requests in flight by target, module and timeout: a scrape asking for one already running shares it. */
  private readonly probing = new Map<string, { result: Promise<string | 'busy' | 'unknown'>; waiting: number; abort: AbortController }>();
  /** How long the last update() took: the next one waits at least 4 times that (updates stay under a fifth of the CPU). */
  private updateMs = 0;
  private body?: Buffer;
  private readonly abort = new AbortController();
  private timer?: NodeJS.Timeout;
  private updateTimer?: NodeJS.Timeout;
  private text = '';
  /** Per interface: the probe (its time) last counted in errors_total as a wrong chain, and whether it was up. */
  private readonly seen = new Map<string, { wrongChainAt?: number; countedAt?: number; up?: boolean; dropped?: boolean }>();
  private readonly rpcSystems = new Map<string, 'jsonrpc' | 'http'>();
  private readonly now: () => number;
  private readonly log: (line: string) => void;

  constructor(
    config: ExporterConfig,
    private readonly options: ExporterOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => undefined);
    this.slots = new Slots(Math.max(1, options.concurrency));
    this.querySlots = new Slots(Math.max(1, options.concurrency));
    // Every request in flight listens to the stop signal (a probe sends up to a dozen at once).
    setMaxListeners(Math.max(100, options.concurrency * 64), this.abort.signal);
    const r = this.registry;
    const base = ['network', 'provider', 'interface'];
    this.up = r.family('chain_endpoints_up', 'Whether the last probe of the interface succeeded (1) or failed (0).', 'gauge', base);
    this.height = r.family('chain_endpoints_height', 'The latest block height the interface reported.', 'gauge', base);
    this.lag = r.family('chain_endpoints_lag_blocks', 'Blocks behind the best interface of the same family (consensus or EVM) in its network.', 'gauge', base);
    this.blockAge = r.family(
      'chain_endpoints_block_age_seconds',
      "Seconds since the interface's latest block was made (the node's own block time when it reports one).",
      'gauge',
      base,
    );
    this.chainMatch = r.family(
      'chain_endpoints_chain_id_match',
      'Whether the chain id the interface reports is the one expected (declared, else the majority of its network).',
      'gauge',
      base,
    );
    this.duration = r.family(
      'chain_endpoints_request_duration_seconds',
      'Duration of the requests the health probes send.',
      'histogram',
      [...base, 'method'],
      DURATION_BUCKETS,
    );
    this.errors = r.family(
      'chain_endpoints_errors_total',
      'Failed probes by kind (timeout, refused, dns, tls, http_status, rate_limited, wrong_chain, bad_answer, network).',
      'counter',
      [...base, 'kind'],
    );
    this.probesTotal = r.family('chain_endpoints_probes_total', 'Health probes finished.', 'counter', base);
    this.capability = r.family(
      'chain_endpoints_capability',
      'Whether the provider serves a capability on the interface (debug, txpool, archive, tx_index, subscribe, each REST module).',
      'gauge',
      [...base, 'capability'],
    );
    this.queryPassed = r.family(
      'chain_endpoints_query_passed',
      "Whether a query file's request passed its assertions on the provider at the last run.",
      'gauge',
      ['file', 'request', 'provider'],
    );
    this.queryDuration = r.family('chain_endpoints_query_duration_seconds', "Duration of the query file's last run.", 'gauge', ['file']);
    this.lastRound = r.family('chain_endpoints_last_update_timestamp_seconds', 'When the exporter last updated these metrics.', 'gauge', []);
    this.config = config;
    this.health = this.newHealth();
    this.apply(config);
    this.render();
  }

  private newHealth(): HealthMonitor {
    return new HealthMonitor({
      http: this.options.http,
      timeoutMs: this.options.timeoutMs,
      window: 5,
      now: this.now,
      onOutcome: (provider, iface, op, outcome) => this.observe(provider, iface, op, outcome),
    });
  }

  /** The last rendered text: what a scrape answers (no network). */
  metrics(): string {
    return this.text;
  }

  /** The same text as UTF-8, encoded once per rendering: every scrape sends this one buffer (a slow reader holds no copy). */
  metricsBody(): Buffer {
    return (this.body ??= Buffer.from(this.text, 'utf8'));
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Starts the loop: a round now, then one per interval. */
  start(): void {
    if (this.timer) return;
    void this.round();
    this.timer = setInterval(() => void this.round(), this.options.intervalMs);
  }

  /** Stops the loop and aborts every request in flight. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.updateTimer) clearTimeout(this.updateTimer);
    this.timer = this.updateTimer = undefined;
    this.abort.abort();
  }

  /** Replaces the configuration (a reload): what is no longer configured is forgotten. */
  reload(config: ExporterConfig): void {
    this.config = config;
    this.apply(config);
    this.update();
  }

  private apply(config: ExporterConfig): void {
    const names = new Set(config.providers.map((p) => p.name));
    const networks = networkIndex(groupNetworks(config.providers));
    this.networks = new Map(config.providers.map((p) => [p.name, networks.get(p.name)?.label ?? '']));
    const keys = new Set(config.providers.flatMap((p) => INTERFACES.filter((i) => p.endpoints[i]).map((i) => key(p.name, i))));
    this.health.retain(config.providers);
    this.session.retain(keys);
    for (const k of [...this.caps.keys()]) if (!names.has(k)) this.caps.delete(k);
    for (const k of [...this.seen.keys()]) if (!keys.has(k)) this.seen.delete(k);
    const configured = (l: Readonly<Record<string, string>>) => keys.has(key(l.provider, l.interface)) && this.networks.get(l.provider) === l.network;
    for (const f of [this.up, this.height, this.lag, this.blockAge, this.chainMatch, this.duration, this.errors, this.probesTotal, this.capability])
      f.retain(configured);
    const files = new Set(config.queries.map((q) => q.name));
    this.queryPassed.retain((l) => files.has(l.file) && (l.provider === '' || names.has(l.provider)));
    this.queryDuration.retain((l) => files.has(l.file));
  }

  /** One round: every interface not still probing, capabilities when due, every query file not still running. */
  async round(): Promise<void> {
    const signal = this.abort.signal;
    if (signal.aborted) return;
    const { providers, resolved, queries } = this.config;
    const jobs: Promise<void>[] = [];
    const ttl = this.options.capabilityTtlMs ?? CAPABILITY_TTL_MS;
    for (const p of providers) {
      const real = resolved.get(p.name);
      if (!real) continue;
      for (const iface of INTERFACES) {
        const address = real.endpoints[iface];
        if (!address) continue;
        const k = key(p.name, iface);
        if (this.inFlight.has(k)) continue; // one probe at a time per interface
        this.inFlight.add(k);
        const one: Provider = { ...real, endpoints: { [iface]: address } };
        jobs.push(
          this.slots
            .run(() => this.health.refresh([one], signal))
            .then(() => this.afterProbe(p, iface))
            .finally(() => this.inFlight.delete(k)),
        );
      }
      const capKey = key(p.name, 'capabilities');
      if ((this.caps.get(p.name)?.probedAt ?? 0) < this.now() - ttl && !this.inFlight.has(capKey)) {
        this.inFlight.add(capKey);
        jobs.push(
          this.slots
            .run(() =>
              probeCapabilities(real, {
                execute: probeOptions(this.options.http, this.options.timeoutMs, signal),
                costly: this.options.costlyCapabilities ?? true,
                now: this.now,
              }),
            )
            .then((c) => this.setCapabilities(p.name, c))
            .finally(() => this.inFlight.delete(capKey)),
        );
      }
    }
    for (const q of queries) {
      const k = key(q.name, '\u0001query');
      if (this.inFlight.has(k)) continue;
      this.inFlight.add(k);
      jobs.push(this.querySlots.run(() => this.runQuery(q, signal)).finally(() => this.inFlight.delete(k)));
    }
    await Promise.all(jobs.map((j) => j.catch((err: unknown) => this.log(`internal error: ${masker.mask(err instanceof Error ? err.message : String(err))}`))));
  }

  private observe(provider: string, iface: InterfaceId, op: ProbeOperation, outcome: Outcome): void {
    if (outcome.error?.kind === 'cancelled' || !this.networks.has(provider)) return;
    const labels = { network: this.networks.get(provider)!, provider, interface: iface, method: methodOf(op) };
    this.duration.observe(labels, outcome.elapsedMs / 1000);
    if (this.options.onRequest) {
      const configured = this.config.providers.find((p) => p.name === provider)?.endpoints[iface];
      const rpc = this.rpcSystems.get(op.id) ?? rpcSystemOf(op);
      this.rpcSystems.set(op.id, rpc);
      this.options.onRequest({ ...labels, system: rpc, ...serverOf(configured), seconds: outcome.elapsedMs / 1000 });
    }
  }

  private afterProbe(p: Provider, iface: InterfaceId): void {
    if (this.abort.signal.aborted || this.config.resolved.get(p.name) === undefined) return;
    const last = this.health.history(p.name, iface).at(-1);
    const k = key(p.name, iface);
    const seen = this.seen.get(k) ?? {};
    this.seen.set(k, seen);
    if (!last || last.at === seen.countedAt) return; // skipped (Retry-After): nothing new
    seen.countedAt = last.at;
    const labels = { network: this.networks.get(p.name) ?? '', provider: p.name, interface: iface };
    this.probesTotal.inc(labels);
    if (!last.ok) {
      const kind = errorKind(last);
      if (kind !== 'cancelled') this.errors.inc({ ...labels, kind });
      if (seen.up !== false) this.log(`${shownName(p.name)} ${iface} (${hostOf(p.endpoints[iface])}) down: ${kind.replace('_', ' ')}`);
    } else if (seen.up === false) this.log(`${shownName(p.name)} ${iface} (${hostOf(p.endpoints[iface])}) up again`);
    seen.up = last.ok;
    this.scheduleUpdate();
  }

  private setCapabilities(name: string, c: Capabilities): void {
    if (this.abort.signal.aborted || !this.networks.has(name)) return;
    // A part that could not be probed this time (a node down) keeps what was learnt before.
    const prev = this.caps.get(name);
    this.caps.set(name, {
      ...c,
      evm: c.evm ?? prev?.evm,
      consensus: c.consensus ?? prev?.consensus,
      rest: c.rest ?? prev?.rest,
      websocket: { ...prev?.websocket, ...c.websocket },
    });
    this.scheduleUpdate();
  }

  /**
   * One run of a query file, as the CLI runs it (pipeline.ts) with the exporter's bounds: no request
   * waits longer than --timeout (a file's `timeout:` may shorten it, never lengthen it), nothing that
   * changes state is sent (loadConfig refuses `confirm: broadcast`; this is the backstop), and an
   * answer too large for memory goes to a folder of this run's own, removed when it ends.
   */
  private async runQuery(q: MonitoredQueryFile, signal: AbortSignal): Promise<void> {
    const { resolved, queryContext } = this.config;
    const networks = this.networks;
    if (signal.aborted) return;
    // (A folder that cannot be made, the exporter stopping meanwhile: the run goes on without one; an answer past 4 MB is then an error.)
    const spillDir = this.options.spillDir ? await mkdtemp(path.join(this.options.spillDir, 'run-')).catch(() => undefined) : undefined;
    let result;
    try {
      result = await runPrepared(q.prepared, {
        execute: requestOptions(
          { requestTimeoutMs: this.options.timeoutMs, maxDocumentBytes: 4 * 1024 * 1024, maxDownloadBytes: 16 * 1024 * 1024 },
          { http: this.options.http, spillDir },
          'silent',
        ),
        maxTimeoutMs: this.options.timeoutMs,
        confirmBroadcast: async () => false,
        networkOf: (p) => networks.get(p.name) || undefined,
        concurrency: 4,
        signal,
        resolveProvider: (p) => resolved.get(p.name) ?? p,
        receipt: receiptRunner,
        account: readAccountForQuery,
        ...queryContext,
      });
    } finally {
      if (spillDir) await rm(spillDir, { recursive: true, force: true }).catch(() => undefined);
    }
    if (signal.aborted || !this.config.queries.includes(q)) return;
    const file = q.name;
    const shown = shownName(file);
    this.queryPassed.retain((l) => l.file !== file);
    // What the other files hold stays; this one gets what is left of MAX_QUERY_SERIES.
    const max = this.options.maxQuerySeries ?? MAX_QUERY_SERIES;
    let room = max - this.queryPassed.size;
    let dropped = 0;
    const put = (request: string, provider: string, ok: boolean) => {
      if (room-- > 0) this.queryPassed.set({ file, request, provider }, ok ? 1 : 0);
      else dropped++;
    };
    let failed = 0;
    for (const r of result.reports[0]?.run.requests ?? []) {
      if (r.skipped) continue;
      const acrossOk = r.across.every((a) => a.passed);
      if (r.error !== undefined || r.runs.length === 0) {
        put(r.request.name, '', false);
        failed++;
        continue;
      }
      for (const run of r.runs) {
        const ok = acrossOk && run.assertions.every((a) => a.passed) && run.record.error === undefined;
        if (!ok) failed++;
        put(r.request.name, run.provider, ok);
      }
    }
    this.queryDuration.set({ file }, (result.reports[0]?.run.elapsedMs ?? 0) / 1000);
    const k = key(file, '\u0001query');
    const was = this.seen.get(k);
    if (failed > 0 && was?.up !== false) this.log(`query file ${shown}: ${failed} request(s) failing`);
    else if (failed === 0 && was?.up === false) this.log(`query file ${shown}: passing again`);
    if (dropped > 0 && !was?.dropped)
      this.log(`query file ${shown}: ${dropped} result(s) not exported (chain_endpoints_query_passed holds at most ${max} series)`);
    this.seen.set(k, { up: failed === 0, dropped: dropped > 0 });
    this.scheduleUpdate();
  }

  /**
   * Coalesces the updates of many probes finishing together into one rendering, at least 50 ms
   * apart and at least 4 times as long apart as the last took: thousands of providers (an update of
   * 20,000 series takes a few hundred ms) cost at most a fifth of the CPU, not all of it.
   */
  private scheduleUpdate(): void {
    if (this.updateTimer || this.abort.signal.aborted) return;
    this.updateTimer = setTimeout(
      () => {
        this.updateTimer = undefined;
        this.update();
      },
      Math.max(50, Math.min(10_000, 4 * this.updateMs)),
    );
  }

  /** Reads the classified rows into the gauges, then renders the text a scrape serves. */
  update(): void {
    const started = performance.now();
    const { providers } = this.config;
    const now = this.now();
    const rows: InterfaceHealth[] = this.health.assess(providers, (p) => ({ chainId: p.chainId, evmChainId: p.evmChainId }));
    this.session.apply(rows, now);
    for (const r of rows) {
      const labels = { network: this.networks.get(r.provider) ?? '', provider: r.provider, interface: r.iface };
      const last = r.last;
      if (!last) {
        for (const f of [this.up, this.height, this.lag, this.blockAge, this.chainMatch]) f.remove(labels);
        continue;
      }
      this.up.set(labels, last.ok ? 1 : 0);
      const ok = last.ok;
      if (ok && last.height !== undefined) this.height.set(labels, Number(last.height));
      else this.height.remove(labels);
      if (ok && r.behind !== undefined) this.lag.set(labels, Number(r.behind));
      else this.lag.remove(labels);
      const madeAt = ok ? (last.blockTime ?? r.heightSince) : undefined;
      if (madeAt !== undefined) this.blockAge.set(labels, Math.max(0, Math.round((now - madeAt) / 100) / 10));
      else this.blockAge.remove(labels);
      if (ok && last.chainId !== undefined) {
        const wrong = r.state === 'wrongChain';
        this.chainMatch.set(labels, wrong ? 0 : 1);
        const seen = this.seen.get(key(r.provider, r.iface));
        if (wrong && seen && seen.wrongChainAt !== last.at) {
          seen.wrongChainAt = last.at;
          this.errors.inc({ ...labels, kind: 'wrong_chain' });
        }
      } else this.chainMatch.remove(labels);
    }
    this.capabilityGauges();
    this.lastRound.set({}, Math.floor(now / 1000));
    this.render();
    this.updateMs = performance.now() - started;
  }

  private capabilityGauges(): void {
    this.capability.retain(() => false);
    for (const p of this.config.providers) {
      const c = this.caps.get(p.name);
      if (!c) continue;
      const network = this.networks.get(p.name) ?? '';
      const put = (iface: InterfaceId, capability: string, v: boolean | undefined) => {
        if (v !== undefined && p.endpoints[iface]) this.capability.set({ network, provider: p.name, interface: iface, capability }, v ? 1 : 0);
      };
      const ns = c.evm?.namespaces;
      if (ns) {
        for (const name of ['debug', 'txpool']) if (!c.evm?.unprobedNamespaces?.includes(name)) put('evmRpc', name, ns.includes(name));
      }
      put('evmRpc', 'archive', c.evm?.archive);
      put(p.endpoints.consensusRpc ? 'consensusRpc' : 'consensusHttp', 'tx_index', c.consensus?.txIndex);
      for (const [module, served] of Object.entries(c.rest?.modules ?? {})) put('rest', module, served);
      put('consensusWs', 'subscribe', c.websocket?.consensus);
      put('evmWs', 'subscribe', c.websocket?.evm);
    }
  }

  private render(): void {
    this.text = this.registry.render();
    this.body = undefined;
  }

  /**
   * The /probe endpoint: one probe of `module` (an interface id) of provider `target`, now, within
   * `timeoutMs`; at most 4 at once ('busy' past them). A request for a probe already running (the
   * same target, module and timeout: two Prometheus servers of a pair) waits for that one instead
   * of starting another; the probe is aborted when every request waiting for it has gone
   * (`client`: the scrape's connection closed). The text has blackbox_exporter's probe_success and
   * probe_duration_seconds and this exporter's height and chain id gauges.
   */
  async probeNow(target: string, module: InterfaceId, timeoutMs: number, client?: AbortSignal): Promise<string | 'busy' | 'unknown'> {
    const p = this.config.providers.find((x) => x.name === target);
    const real = this.config.resolved.get(target);
    const address = real?.endpoints[module];
    if (!p || !real || !address) return 'unknown';
    const k = `${key(target, module)}\u0000${timeoutMs}`;
    let entry = this.probing.get(k);
    if (!entry) {
      if (this.probeSlots.inFlight >= 4) return 'busy';
      const abort = new AbortController();
      const started = this.probeSlots.run(() => this.probeOnce(p, { ...real, endpoints: { [module]: address } }, module, timeoutMs, abort.signal));
      const created = { result: started, waiting: 0, abort };
      entry = created;
      this.probing.set(k, created);
      void started.finally(() => {
        if (this.probing.get(k) === created) this.probing.delete(k);
      });
    }
    const shared = entry;
    shared.waiting++;
    const leave = () => {
      if (--shared.waiting > 0) return;
      shared.abort.abort();
      if (this.probing.get(k) === shared) this.probing.delete(k);
    };
    if (client?.aborted) leave();
    else client?.addEventListener('abort', leave, { once: true });
    try {
      return await shared.result;
    } finally {
      client?.removeEventListener('abort', leave);
    }
  }

  private async probeOnce(p: Provider, one: Provider, module: InterfaceId, timeoutMs: number, gone: AbortSignal): Promise<string> {
    // The probe's own deadline (timeoutMs) fires first and says "timeout"; this one is the backstop.
    const timeout = AbortSignal.timeout(timeoutMs + 250);
    const signal = AbortSignal.any([timeout, this.abort.signal, gone]);
    const monitor = new HealthMonitor({ http: this.options.http, timeoutMs, window: 1, now: this.now });
    const started = performance.now();
    await monitor.refresh([one], signal);
    const seconds = (performance.now() - started) / 1000;
    const last = monitor.history(p.name, module).at(-1);
    const r = new Registry();
    r.family('probe_success', 'Whether the probe succeeded.', 'gauge', []).set({}, last?.ok ? 1 : 0);
    r.family('probe_duration_seconds', 'How long the probe took.', 'gauge', []).set({}, Math.round(seconds * 1e6) / 1e6);
    if (last?.ok && last.height !== undefined)
      r.family('chain_endpoints_height', 'The latest block height the interface reported.', 'gauge', []).set({}, Number(last.height));
    const expected = module === 'evmRpc' || module === 'evmWs' ? p.evmChainId?.toLowerCase() : p.chainId;
    if (last?.ok && last.chainId !== undefined && expected !== undefined)
      r.family('chain_endpoints_chain_id_match', 'Whether the chain id reported is the one declared for the provider.', 'gauge', []).set(
        {},
        last.chainId === expected ? 1 : 0,
      );
    if (last && !last.ok) {
      const kind = timeout.aborted && errorKind(last) === 'cancelled' ? 'timeout' : errorKind(last);
      r.family('chain_endpoints_probe_error', 'The failed probe, by kind.', 'gauge', ['kind']).set({ kind }, 1);
    }
    return r.render();
  }
}
