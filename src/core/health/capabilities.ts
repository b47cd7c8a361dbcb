// What each provider can serve, probed rarely (on first sight, then every CAPABILITY_TTL_MS):
// the EVM namespaces (`rpc_modules` where offered, else one cheap call per namespace), the EVM
// chain id and client version, whether old EVM state is served (archive or pruned), CometBFT's
// transaction indexing (`node_info.other.tx_index`), the earliest available block
// (`sync_info.earliest_block_height`), whether WebSocket subscriptions are allowed, which REST
// modules answer (one cheap GET each: 501 or 404 = not served) and the node and app versions.
// Every request goes through the same HttpClient and wsExchange as the rest (timeouts, caps,
// cancellation); the provider given carries its secrets already substituted. Plain data out.

import { LocalizedError, rewrapped } from '../base/errors';
import * as l10n from '../base/l10n';
import { parseDecimalHeight } from '../base/limits';
import { type HttpClient } from '../transport/http';
import { interpret } from '../documents/interpret';
import { isObject } from '../transport/jsonRpc';
import { wsExchange } from '../transport/wsCall';
import { type Provider, joinUrl } from '../config/providers';

/** Capabilities are probed again after this long (they change when an operator reconfigures a node). */
export const CAPABILITY_TTL_MS = 30 * 60_000;
const MAX_BYTES = 256 * 1024;

/** EVM namespaces a probe looks for when the node has no `rpc_modules`: one cheap call each. */
export const EVM_NAMESPACE_PROBES: Readonly<Record<string, { method: string; params: unknown[] }>> = {
  eth: { method: 'eth_chainId', params: [] },
  net: { method: 'net_version', params: [] },
  web3: { method: 'web3_clientVersion', params: [] },
  txpool: { method: 'txpool_status', params: [] },
  // No arguments: a node serving `debug` refuses the call (invalid params), one without says "method not found".
  debug: { method: 'debug_traceTransaction', params: [] },
};

/** REST modules and the cheap GET that shows whether a gateway serves each. */
export const REST_MODULE_PROBES: Readonly<Record<string, string>> = {
  tendermint: '/cosmos/base/tendermint/v1beta1/node_info',
  auth: '/cosmos/auth/v1beta1/params',
  bank: '/cosmos/bank/v1beta1/params',
  staking: '/cosmos/staking/v1beta1/params',
  distribution: '/cosmos/distribution/v1beta1/params',
  gov: '/cosmos/gov/v1/params/voting',
  slashing: '/cosmos/slashing/v1beta1/params',
  mint: '/cosmos/mint/v1beta1/params',
  tx: '/cosmos/tx/v1beta1/txs/0000000000000000000000000000000000000000000000000000000000000000',
  evm: '/cosmos/evm/vm/v1/params',
};

export interface EvmCapabilities {
  /** Namespaces served (`eth`, `net`, `web3`, `debug`, `txpool`, …); undefined when the node did not answer. */
  namespaces?: string[];
  /** How `namespaces` was learnt. */
  namespacesFrom?: 'rpc_modules' | 'calls';
  chainId?: string;
  clientVersion?: string;
  /** true: state at `oldStateBlock` is served (archive); false: refused (pruned); undefined: unknown. */
  archive?: boolean;
  oldStateBlock?: string;
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
}

export interface CapabilityOptions {
  http: HttpClient;
  timeoutMs: number;
  signal?: AbortSignal;
  now?: () => number;
}

/** Probes everything the provider publishes; never rejects (a failed part is a note). */
export async function probeCapabilities(p: Provider, o: CapabilityOptions): Promise<Capabilities> {
  const caps: Capabilities = { provider: p.name, probedAt: (o.now ?? Date.now)(), notes: [] };
  const consensusAddress = p.endpoints.consensusRpc ?? p.endpoints.consensusHttp;
  const jobs: Promise<void>[] = [];
  if (consensusAddress) jobs.push(probeConsensus(p, consensusAddress, o).then((c) => void (caps.consensus = c), note(caps, 'CometBFT')));
  if (p.endpoints.rest) jobs.push(probeRest(p, p.endpoints.rest, o).then((r) => void (caps.rest = r), note(caps, 'REST')));
  if (p.endpoints.consensusWs)
    jobs.push(probeCometSubscribe(p, p.endpoints.consensusWs, o).then((ok) => void ((caps.websocket ??= {}).consensus = ok), note(caps, 'WebSocket')));
  if (p.endpoints.evmWs)
    jobs.push(probeEvmSubscribe(p, p.endpoints.evmWs, o).then((ok) => void ((caps.websocket ??= {}).evm = ok), note(caps, 'EVM WebSocket')));
  if (p.endpoints.evmRpc) jobs.push(probeEvm(p, p.endpoints.evmRpc, o).then((e) => void (caps.evm = e), note(caps, 'EVM')));
  await Promise.all(jobs);
  return caps;
}

function note(caps: Capabilities, what: string): (err: unknown) => void {
  return (err) => void caps.notes.push(`${what}: ${err instanceof Error ? err.message : String(err)}`.slice(0, 200));
}

interface Answer {
  status: number;
  result?: unknown;
  /** JSON-RPC error code, when the answer was a JSON-RPC error. */
  code?: number | string;
  error?: string;
}

async function send(
  p: Provider,
  o: CapabilityOptions,
  req: { method: 'GET' | 'POST'; url: string; body?: string },
  dialect: 'jsonrpc' | 'rest',
): Promise<Answer> {
  const res = await o.http.send({
    ...req,
    headers: p.headers && { ...p.headers },
    timeoutMs: o.timeoutMs,
    signal: o.signal,
    maxBufferBytes: MAX_BYTES,
    maxBytes: MAX_BYTES,
  });
  const read = interpret(res, dialect, req.url);
  return { status: res.status, result: read.result, code: read.error?.detail.code, error: read.error?.shown };
}

function rpc(p: Provider, o: CapabilityOptions, url: string, method: string, params: unknown): Promise<Answer> {
  return send(p, o, { method: 'POST', url, body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) }, 'jsonrpc');
}

async function probeConsensus(p: Provider, address: string, o: CapabilityOptions): Promise<ConsensusCapabilities> {
  const a = p.endpoints.consensusRpc
    ? await rpc(p, o, address, 'status', {})
    : await send(p, o, { method: 'GET', url: joinUrl(address, '/status') }, 'jsonrpc');
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

async function probeRest(p: Provider, address: string, o: CapabilityOptions): Promise<RestCapabilities> {
  const out: RestCapabilities = { modules: {} };
  const entries = Object.entries(REST_MODULE_PROBES);
  const answers = await Promise.all(entries.map(([, path]) => send(p, o, { method: 'GET', url: joinUrl(address, path) }, 'rest').catch(() => undefined)));
  entries.forEach(([name], i) => {
    const a = answers[i];
    if (!a) return;
    // gRPC NotFound (code 5, HTTP 404) is the module answering (the tx probe asks for a hash no chain has).
    if (a.status === 404 && Number(a.code) === 5) out.modules[name] = true;
    else if (a.status === 501 || a.status === 404) out.modules[name] = false;
    else if (a.status < 500) out.modules[name] = true;
  });
  if (!answers.some(Boolean)) throw new LocalizedError(l10n.both('no REST module answered'));
  const info = answers[0]?.result;
  const app = isObject(info) && isObject(info.application_version) ? info.application_version : undefined;
  out.appName = short(app?.app_name ?? app?.name);
  out.appVersion = short(app?.version);
  out.cosmosSdkVersion = short(app?.cosmos_sdk_version);
  return out;
}

async function probeEvm(p: Provider, url: string, o: CapabilityOptions): Promise<EvmCapabilities> {
  const [modules, chain, client] = await Promise.all([
    rpc(p, o, url, 'rpc_modules', []),
    rpc(p, o, url, 'eth_chainId', []),
    rpc(p, o, url, 'web3_clientVersion', []),
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
    const names = Object.keys(EVM_NAMESPACE_PROBES);
    const answers = await Promise.all(names.map((n) => rpc(p, o, url, EVM_NAMESPACE_PROBES[n].method, EVM_NAMESPACE_PROBES[n].params).catch(() => undefined)));
    out.namespaces = names.filter((_, i) => answers[i] && answers[i].status < 400 && answers[i].code !== -32601 && !notFound(answers[i].error)).sort();
    out.namespacesFrom = 'calls';
  }
  // Old state: a balance at block 1. Served = archive; refused = pruned (then state from the earliest block on, at best).
  out.oldStateBlock = '1';
  const old = await rpc(p, o, url, 'eth_getBalance', ['0x0000000000000000000000000000000000000000', '0x1']).catch(() => undefined);
  if (old) out.archive = old.error === undefined && typeof old.result === 'string';
  return out;
}

function notFound(error: string | undefined): boolean {
  return error !== undefined && /does not exist|not available|method not found|not supported/i.test(error) && !/argument/i.test(error);
}

/** A CometBFT `subscribe` over its own socket: answered without error = allowed. */
async function probeCometSubscribe(p: Provider, url: string, o: CapabilityOptions): Promise<boolean | undefined> {
  const message = JSON.stringify({ jsonrpc: '2.0', method: 'subscribe', id: 1, params: { query: "tm.event='NewBlockHeader'" } });
  return subscribeAnswer(p, url, o, message);
}

async function probeEvmSubscribe(p: Provider, url: string, o: CapabilityOptions): Promise<boolean | undefined> {
  const message = JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscribe', id: 1, params: ['newHeads'] });
  return subscribeAnswer(p, url, o, message);
}

async function subscribeAnswer(p: Provider, url: string, o: CapabilityOptions, message: string): Promise<boolean | undefined> {
  const r = await wsExchange(url, { message, id: 1, collect: 0, timeoutMs: o.timeoutMs, signal: o.signal, headers: p.headers && { ...p.headers } });
  if (!r.error) return true;
  // Refused (an HTTP answer to the upgrade, an RPC refusal): not allowed. A timeout or a network failure says nothing (a note).
  if (r.error.kind === 'http' || r.error.kind === 'rpc') return false;
  throw rewrapped(r.error);
}

function short(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v.slice(0, 80) : undefined;
}
