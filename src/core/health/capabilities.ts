// What each provider can serve, probed rarely (on first sight, then every CAPABILITY_TTL_MS):
// the EVM namespaces (`rpc_modules` where offered, else one call per namespace), the EVM
// chain id and client version, whether old EVM state is served (archive or pruned), CometBFT's
// transaction indexing (`node_info.other.tx_index`), the earliest available block
// (`sync_info.earliest_block_height`), whether WebSocket subscriptions are allowed, which REST
// modules answer (one cheap GET each: 501 or 404 = not served) and the node and app versions.
// Every request is a probe operation of core/chain/probes.ts run through execute() (timeouts,
// caps, cancellation, headers); the costly ones (a trace, the txpool, archive state) only when
// `costly` is set (chainEndpoints.capabilities.probe: someone asked). The provider given carries
// its secrets already substituted. Plain data out. Every request: docs/capabilities.md.

import { parseDecimalHeight } from '../base/limits';
import { LocalizedError, errorMessage } from '../base/errors';
import * as l10n from '../base/l10n';
import { isObject } from '../base/text';
import type { ExecuteOptions } from '../chain/execute';
import { CAPABILITY_PROBES, EVM_NAMESPACE_PROBES, type ProbeOperation, runProbe } from '../chain/probes';
import type { Provider } from '../config/providers';

export { EVM_NAMESPACE_PROBES, REST_MODULE_PROBES } from '../chain/probes';

/** Capabilities are probed again after this long (they change when an operator reconfigures a node). */
export const CAPABILITY_TTL_MS = 30 * 60_000;

export interface EvmCapabilities {
  /** Namespaces served (`eth`, `net`, `web3`, `debug`, `txpool`, …); undefined when the node did not answer. */
  namespaces?: string[];
  /** How `namespaces` was learnt. */
  namespacesFrom?: 'rpc_modules' | 'calls';
  chainId?: string;
  clientVersion?: string;
  /** Namespaces whose probe is costly and was not sent (unknown, not "not served"). */
  unprobedNamespaces?: string[];
  /** true: state at `oldStateBlock` is served (archive); false: refused (pruned); undefined: unknown (or not probed: costly). */
  archive?: boolean;
  oldStateBlock?: string;
  /** The simulation engines served (core/contracts/simulate.ts), learnt method by method. */
  engines?: EngineSupport;
}

/** What a provider serves of the three simulation engines: true served, false not, undefined not known (not probed). */
export interface EngineSupport {
  readonly simulateV1?: boolean;
  readonly traceCall?: boolean;
  /** eth_call takes state overrides (its third parameter) and block overrides (its fourth). */
  readonly callOverrides?: boolean;
}

export interface ConsensusCapabilities {
  /** CometBFT's `node_info.other.tx_index` is `on`. */
  txIndex?: boolean;
  /** `sync_info.earliest_block_height`, decimal. */
  earliestHeight?: string;
  nodeVersion?: string;
  network?: string;
  moniker?: string;
}

export interface RestCapabilities {
  /** Module name -> answered (true), not served (false: 501 or 404). A module whose probe failed otherwise is absent. */
  modules: Record<string, boolean>;
  appName?: string;
  appVersion?: string;
  cosmosSdkVersion?: string;
}

export interface Capabilities {
  provider: string;
  /** When these were probed (ms since the epoch). */
  probedAt: number;
  evm?: EvmCapabilities;
  consensus?: ConsensusCapabilities;
  rest?: RestCapabilities;
  /** WebSocket subscriptions allowed, per WebSocket interface configured; undefined: unknown. */
  websocket?: { consensus?: boolean; evm?: boolean };
  /** Why a part is missing (one short line per failed probe). */
  notes: string[];
  /** The costly probes were sent. */
  costly?: boolean;
}

export interface CapabilityOptions {
  /** Request options with the probe preset (core/chain/requestOptions.ts). */
  execute: ExecuteOptions;
  /** Send the costly probes too (someone asked what the provider serves, or runs something that needs it). */
  costly: boolean;
  now?: () => number;
}

/** Probes everything the provider publishes; never rejects (a failed part is a note). */
export async function probeCapabilities(p: Provider, o: CapabilityOptions): Promise<Capabilities> {
  const caps: Capabilities = { provider: p.name, probedAt: (o.now ?? Date.now)(), notes: [], costly: o.costly };
  const jobs: Promise<void>[] = [];
  if (p.endpoints.consensusRpc || p.endpoints.consensusHttp) jobs.push(probeConsensus(p, o).then((c) => void (caps.consensus = c), note(caps, 'CometBFT')));
  if (p.endpoints.rest) jobs.push(probeRest(p, o).then((r) => void (caps.rest = r), note(caps, 'REST')));
  if (p.endpoints.consensusWs)
    jobs.push(
      subscribeAnswer(p, o, CAPABILITY_PROBES.consensusWsSubscribe).then((ok) => void ((caps.websocket ??= {}).consensus = ok), note(caps, 'WebSocket')),
    );
  if (p.endpoints.evmWs)
    jobs.push(subscribeAnswer(p, o, CAPABILITY_PROBES.evmWsSubscribe).then((ok) => void ((caps.websocket ??= {}).evm = ok), note(caps, 'EVM WebSocket')));
  if (p.endpoints.evmRpc) jobs.push(probeEvm(p, o).then((e) => void (caps.evm = e), note(caps, 'EVM')));
  await Promise.all(jobs);
  return caps;
}

function note(caps: Capabilities, what: string): (err: unknown) => void {
  return (err) => void caps.notes.push(`${what}: ${errorMessage(err)}`.slice(0, 200));
}

interface Answer {
  /** HTTP status; undefined when no answer arrived (network, timeout) or over a WebSocket. */
  status?: number;
  result?: unknown;
  /** JSON-RPC (or gRPC) error code, when the answer was an error. */
  code?: number | string;
  error?: string;
  /** The kind of failure (EndpointError kinds). */
  kind?: string;
}

async function ask(p: Provider, o: CapabilityOptions, op: ProbeOperation): Promise<Answer> {
  const outcome = await runProbe(p, op, o.execute);
  const e = outcome.error;
  return { status: outcome.status, result: e ? undefined : outcome.result, code: e?.detail.code, error: e?.shown, kind: e?.kind };
}

/** An answer came (any HTTP status, or a JSON-RPC error): the server spoke. */
function answered(a: Answer): boolean {
  return a.status !== undefined || a.kind === 'rpc' || a.kind === 'http';
}

async function probeConsensus(p: Provider, o: CapabilityOptions): Promise<ConsensusCapabilities> {
  const a = await ask(p, o, p.endpoints.consensusRpc ? CAPABILITY_PROBES.consensusRpcStatus : CAPABILITY_PROBES.consensusHttpStatus);
  if (a.error !== undefined) throw new LocalizedError(a.error);
  const r = a.result;
  const node = isObject(r) && isObject(r.node_info) ? r.node_info : undefined;
  const sync = isObject(r) && isObject(r.sync_info) ? r.sync_info : undefined;
  const other = node && isObject(node.other) ? node.other : undefined;
  const earliest = parseDecimalHeight(sync?.earliest_block_height);
  return {
    txIndex: typeof other?.tx_index === 'string' ? other.tx_index === 'on' : undefined,
    earliestHeight: earliest?.toString(),
    nodeVersion: short(node?.version),
    network: short(node?.network),
    moniker: short(node?.moniker),
  };
}

async function probeRest(p: Provider, o: CapabilityOptions): Promise<RestCapabilities> {
  const out: RestCapabilities = { modules: {} };
  const entries = Object.entries(CAPABILITY_PROBES.restModules);
  const asked = await Promise.all(entries.map(([, op]) => ask(p, o, op)));
  const answers = asked.map((a) => (a.status !== undefined ? a : undefined));
  entries.forEach(([name], i) => {
    const a = answers[i];
    if (!a) return;
    // gRPC NotFound (code 5, HTTP 404) is the module answering (the tx probe asks for a hash no chain has).
    if (a.status === 404 && Number(a.code) === 5) out.modules[name] = true;
    else if (a.status === 501 || a.status === 404) out.modules[name] = false;
    else if (a.status! < 500) out.modules[name] = true;
  });
  if (!answers.some(Boolean)) throw new LocalizedError(l10n.both('no REST module answered'));
  const info = answers[0]?.result;
  const app = isObject(info) && isObject(info.application_version) ? info.application_version : undefined;
  out.appName = short(app?.app_name ?? app?.name);
  out.appVersion = short(app?.version);
  out.cosmosSdkVersion = short(app?.cosmos_sdk_version);
  return out;
}

async function probeEvm(p: Provider, o: CapabilityOptions): Promise<EvmCapabilities> {
  const [modules, chain, client] = await Promise.all([
    ask(p, o, CAPABILITY_PROBES.evmRpcModules),
    ask(p, o, CAPABILITY_PROBES.evmChainId),
    ask(p, o, CAPABILITY_PROBES.evmClientVersion),
  ]);
  if (chain.error !== undefined && modules.error !== undefined && client.error !== undefined) throw new LocalizedError(chain.error);
  const out: EvmCapabilities = {
    chainId: typeof chain.result === 'string' ? chain.result.toLowerCase().slice(0, 40) : undefined,
    clientVersion: short(client.result),
  };
  if (modules.error === undefined && isObject(modules.result)) {
    // `rpc` is the server's own (rpc_modules itself), not a namespace a request would use.
    out.namespaces = Object.keys(modules.result)
      .filter((k) => k !== 'rpc' && /^[a-z][a-z0-9_]{0,31}$/i.test(k))
      .slice(0, 32)
      .sort();
    out.namespacesFrom = 'rpc_modules';
  } else {
    const names = Object.keys(EVM_NAMESPACE_PROBES).filter((n) => o.costly || EVM_NAMESPACE_PROBES[n].cost === 'cheap');
    const skipped = Object.keys(EVM_NAMESPACE_PROBES).filter((n) => !names.includes(n));
    const answers = await Promise.all(names.map((n) => ask(p, o, EVM_NAMESPACE_PROBES[n])));
    out.namespaces = names
      .filter((_, i) => answered(answers[i]) && (answers[i].status ?? 200) < 400 && answers[i].code !== -32601 && !notFound(answers[i].error))
      .sort();
    out.namespacesFrom = 'calls';
    if (skipped.length) out.unprobedNamespaces = skipped;
  }
  out.engines = await probeEngines(p, o, out.namespaces);
  // Old state: a balance at block 1. Served = archive; refused = pruned (then state from the earliest block on, at best).
  if (o.costly) {
    out.oldStateBlock = '1';
    const old = await ask(p, o, CAPABILITY_PROBES.evmArchive);
    if (answered(old)) out.archive = old.error === undefined && typeof old.result === 'string';
  }
  return out;
}

/** The simulation engines, one cheap call each (debug_traceCall only when costly probes go, or when `debug` is known absent). */
async function probeEngines(p: Provider, o: CapabilityOptions, namespaces: string[] | undefined): Promise<EngineSupport> {
  const noDebug = namespaces !== undefined && !namespaces.includes('debug');
  const [sim, trace, call] = await Promise.all([
    ask(p, o, CAPABILITY_PROBES.evmSimulateV1),
    o.costly && !noDebug ? ask(p, o, CAPABILITY_PROBES.evmTraceCall) : undefined,
    ask(p, o, CAPABILITY_PROBES.evmCallOverrides),
  ]);
  const served = (a: Answer): boolean | undefined => (!answered(a) ? undefined : a.code !== -32601 && !notFound(a.error));
  return {
    simulateV1: served(sim),
    traceCall: noDebug ? false : trace && served(trace),
    // Answered without error: the third parameter was taken. A refusal (evmd: "overrides are unsupported") or not served: false.
    callOverrides: answered(call) ? call.error === undefined : undefined,
  };
}

/** The engines alone (a simulation about to run on a provider whose capabilities are not known: the CLI). */
export function probeEngineSupport(p: Provider, execute: ExecuteOptions, costly: boolean): Promise<EngineSupport> {
  return probeEngines(p, { execute, costly }, undefined);
}

function notFound(error: string | undefined): boolean {
  return error !== undefined && /does not exist|not available|method not found|not supported/i.test(error) && !/argument/i.test(error);
}

/** A subscribe over its own socket (CometBFT `subscribe`, EVM `eth_subscribe` newHeads): answered without error = allowed. */
async function subscribeAnswer(p: Provider, o: CapabilityOptions, op: ProbeOperation): Promise<boolean | undefined> {
  const a = await ask(p, o, op);
  if (a.error === undefined) return true;
  // Refused (an HTTP answer to the upgrade, an RPC refusal): not allowed. A timeout or a network failure says nothing (a note).
  if (a.kind === 'http' || a.kind === 'rpc') return false;
  throw new LocalizedError(a.error);
}

function short(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v.slice(0, 80) : undefined;
}
