// The probes as operations: every request a health or capability probe sends is an Operation run
// through execute() (one request path: headers, secrets, caps, proxies, deadlines, the reading of
// errors), with the probe preset of requestOptions.ts. Health and capabilities keep only which
// probes to run and how to read what they answer. Where the catalogue already has the request
// (status, eth_blockNumber, blocks/latest…) the catalogue's own entry is used; the others are
// probe-only entries here, not commands. Each carries its cost: a costly probe (a trace, the
// txpool, archive state) is sent only when someone asks (chainEndpoints.capabilities.probe).
// docs/capabilities.md lists them all.

import { EndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import type { InterfaceId, Provider } from '../config/providers';
import { readCometStatus } from '../documents/interpret';
import { NEW_BLOCK_QUERY } from '../transport/jsonRpc';
import { type ExecuteOptions, type Outcome, execute } from './execute';
import type { Operation, WireRequest } from './operation';
import { findOperation } from './operations';

/** cheap: a status, a chain id, a module's params. costly: work a paid provider bills (a trace, the txpool, archive state). */
export type ProbeCost = 'cheap' | 'costly';

export interface ProbeOperation extends Operation {
  readonly cost: ProbeCost;
}

function probe(id: string, iface: InterfaceId, wire: WireRequest, cost: ProbeCost = 'cheap'): ProbeOperation {
  return { id: `probe.${id}`, iface, label: id, title: id, params: [], build: () => wire, cost };
}

/** A catalogue entry used as a probe (cheap: the catalogue's reads of the chain's head). */
function catalogued(id: string): ProbeOperation {
  const op = findOperation(id);
  if (!op) throw new RangeError(`no catalogue operation ${id}`); // a programming error, caught by the unit tests at load
  return { ...op, cost: 'cheap' };
}

const rpc = (id: string, iface: InterfaceId, method: string, params: unknown, cost?: ProbeCost) =>
  probe(id, iface, iface === 'evmRpc' || iface === 'consensusRpc' ? { kind: 'jsonrpc', method, params } : { kind: 'ws-call', method, params }, cost);

/** The health probe of each interface (height, chain identity, latency). */
export const HEALTH_PROBES = {
  /** The latest block's header (its hashes only, not its transactions): its number and the node's own block time in one call. */
  evmLatestBlock: rpc('evm.latestBlock', 'evmRpc', 'eth_getBlockByNumber', ['latest', false]),
  /** When a gateway refuses eth_getBlockByNumber (method not found): the height alone, no block time. */
  evmBlockNumber: catalogued('evm.blockNumber'),
  evmChainId: catalogued('evm.chainId'),
  consensusRpcStatus: catalogued('consensusRpc.status'),
  consensusHttpStatus: catalogued('consensusHttp.status'),
  restLatestBlock: catalogued('rest.latestBlock'),
  restSyncing: catalogued('rest.syncing'),
  /** The subscribe answer (no event waited for) and the status, each on its own socket. */
  consensusWsSubscribe: probe('consensusWs.subscribe', 'consensusWs', { kind: 'ws-subscribe', query: NEW_BLOCK_QUERY, count: 0 }),
  consensusWsStatus: rpc('consensusWs.status', 'consensusWs', 'status', {}),
  evmWsLatestBlock: rpc('evmWs.latestBlock', 'evmWs', 'eth_getBlockByNumber', ['latest', false]),
  evmWsBlockNumber: rpc('evmWs.blockNumber', 'evmWs', 'eth_blockNumber', []),
  evmWsChainId: rpc('evmWs.chainId', 'evmWs', 'eth_chainId', []),
} as const;

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

/** EVM namespaces a probe looks for when the node has no `rpc_modules`: one call each. */
export const EVM_NAMESPACE_PROBES: Readonly<Record<string, ProbeOperation>> = {
  eth: rpc('evm.namespace.eth', 'evmRpc', 'eth_chainId', []),
  net: rpc('evm.namespace.net', 'evmRpc', 'net_version', []),
  web3: rpc('evm.namespace.web3', 'evmRpc', 'web3_clientVersion', []),
  txpool: rpc('evm.namespace.txpool', 'evmRpc', 'txpool_status', [], 'costly'),
  // No arguments: a node serving `debug` refuses the call (invalid params), one without says "method not found".
  debug: rpc('evm.namespace.debug', 'evmRpc', 'debug_traceTransaction', [], 'costly'),
};

/** What each provider can serve (capabilities.ts). */
export const CAPABILITY_PROBES = {
  consensusRpcStatus: catalogued('consensusRpc.status'),
  consensusHttpStatus: catalogued('consensusHttp.status'),
  restModules: Object.fromEntries(
    Object.entries(REST_MODULE_PROBES).map(([name, path]) => [name, probe(`rest.module.${name}`, 'rest', { kind: 'get', path })]),
  ) as Readonly<Record<string, ProbeOperation>>,
  evmRpcModules: rpc('evm.rpcModules', 'evmRpc', 'rpc_modules', []),
  /** When a gateway refuses eth_getBlockByNumber (method not found): the height alone, no block time. */
  evmBlockNumber: catalogued('evm.blockNumber'),
  evmChainId: catalogued('evm.chainId'),
  evmClientVersion: rpc('evm.clientVersion', 'evmRpc', 'web3_clientVersion', []),
  /** Old state: a balance at block 1. Served = archive; refused = pruned. */
  evmArchive: rpc('evm.archive', 'evmRpc', 'eth_getBalance', ['0x0000000000000000000000000000000000000000', '0x1'], 'costly'),
  consensusWsSubscribe: HEALTH_PROBES.consensusWsSubscribe,
  /** The simulation engines (core/contracts/simulate.ts), one call each, nothing executed: eth_simulateV1 of no calls (-32601: not served). */
  evmSimulateV1: rpc('evm.engine.simulateV1', 'evmRpc', 'eth_simulateV1', [{ blockStateCalls: [] }, 'latest']),
  /** debug_traceCall without arguments: a node serving it refuses the params, one without says "method not found" (a debug method: costly, as above). */
  evmTraceCall: rpc('evm.engine.traceCall', 'evmRpc', 'debug_traceCall', [], 'costly'),
  /** eth_call of nothing with an empty third parameter: answered = overrides taken (evmd v0.3.x refuses any third parameter). */
  evmCallOverrides: rpc('evm.engine.callOverrides', 'evmRpc', 'eth_call', [{ to: '0x0000000000000000000000000000000000000000', data: '0x' }, 'latest', {}]),
  evmWsSubscribe: rpc('evmWs.subscribe', 'evmWs', 'eth_subscribe', ['newHeads']),
} as const;

/** Every probe operation (docs/capabilities.md lists them; a unit test checks the list against it). */
export function allProbes(): ProbeOperation[] {
  const seen = new Map<string, ProbeOperation>();
  const add = (op: ProbeOperation) => seen.set(op.id, op);
  Object.values(HEALTH_PROBES).forEach(add);
  Object.values(EVM_NAMESPACE_PROBES).forEach(add);
  for (const [key, value] of Object.entries(CAPABILITY_PROBES)) {
    if (key === 'restModules') Object.values(value as Record<string, ProbeOperation>).forEach(add);
    else add(value as ProbeOperation);
  }
  return [...seen.values()];
}

/** Runs one probe through execute() with the provider's headers (never throws: a failure is in `outcome.error`). */
export function runProbe(provider: Provider, op: ProbeOperation, options: ExecuteOptions): Promise<Outcome> {
  const headers = options.headers ?? (provider.headers && { ...provider.headers });
  return execute(provider, op, {}, headers ? { ...options, headers } : options);
}

/**
 * The status bar's poll while its socket is unusable: CometBFT `/status` (consensusHttp, else the
 * `status` call on consensusRpc) through execute() with the probe preset. Throws when there is no
 * height in the answer.
 */
export async function fetchCometStatus(provider: Provider, options: ExecuteOptions): Promise<{ height: bigint; time?: string }> {
  const op = provider.endpoints.consensusHttp ? HEALTH_PROBES.consensusHttpStatus : HEALTH_PROBES.consensusRpcStatus;
  const outcome = await runProbe(provider, op, options);
  if (outcome.error) throw outcome.error;
  const status = readCometStatus(outcome.result);
  if (!status) throw new EndpointError('protocol', l10n.both('No sync_info.latest_block_height in the status of {0}.', provider.name));
  return { height: status.height, time: status.time };
}
