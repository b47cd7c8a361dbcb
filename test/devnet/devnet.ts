// The local devnet: one simulated chain served by one or more providers, each with the three
// listeners of a Cosmos SDK + CometBFT + EVM node (EVM JSON-RPC, CometBFT RPC/WebSocket, REST).
// Providers share the chain and differ only in lag, ports and published addresses. Tests start
// it in-process; `npm run devnet` starts it from cli.ts. Wire facts: docs/protocols.md.
import { Chain, type PruneFloor } from './chain';
import { ConsensusService } from './consensus';
import { COSMOS_EVM_V05_ENGINES, EvmService, type SimulationEngines } from './evm';
import { EvmWsService } from './evmWs';
import { RestService } from './rest';
import { type Fault, Listener, type RequestEntry, RequestLog } from './server';

export type { Fault } from './server';

export interface DevnetProviderOptions {
  name: string;
  /** 0 or omitted: a free port chosen by the OS (kept across stopProvider/startProvider). */
  ports?: { evmRpc?: number; consensus?: number; rest?: number };
  /** This provider's view is N blocks behind the chain tip. */
  lagBlocks?: number;
  /** Publish the REST base with a trailing slash (the server still serves at its root). */
  restTrailingSlash?: boolean;
  /** What this provider serves (default: everything the devnet has). */
  capabilities?: DevnetCapabilities;
}

/** A provider configured like a public node that serves less (each option alone, or together). */
export interface DevnetCapabilities {
  /** Pruned below this height: blocks, EVM state and REST blocks under it are refused; earliest_block_height says so. */
  prunedBelow?: bigint;
  /**
   * Keeps only the last N heights (as `pruning = "custom"` with `pruning-keep-recent = N` and
   * `min-retain-blocks = N`): the floor moves up with the tip. Below it: REST 404 with gRPC code 5
   * "version does not exist", the EVM's -32000 "failed to load state", CometBFT's "lowest height is",
   * `earliest_block_height` = the floor, and no transaction of those heights in `tx_search`.
   */
  keepRecent?: bigint;
  /** false: CometBFT's transaction indexer is off. */
  txIndex?: boolean;
  /** EVM namespaces served (default eth, net, web3, txpool, debug); e.g. ['eth', 'net', 'web3'] = debug and txpool off. */
  evmNamespaces?: readonly string[];
  /** false: no rpc_modules (clients probe each namespace). */
  rpcModules?: boolean;
  /** REST modules answering 501 (e.g. ['bank']). */
  restModulesOff?: readonly string[];
  /** true: WebSocket upgrades refused (403) on the consensus and the EVM ports. */
  wsRefused?: boolean;
  /** Simulation engines served (default none, as evmd v0.3.2; ALL_ENGINES of evm.ts: anvil). */
  engines?: SimulationEngines;
}

/**
 * The providers `npm run devnet` (and so `npm start`) serves, on fixed ports unless `portsFree`; the
 * sample workspace (examples/workspace/.vscode/settings.json) names them. "Local node" imitates evmd
 * v0.3.2 (no simulation engine but plain eth_call, which refuses overrides); "Local node v0.5" is a
 * node of the same chain serving cosmos/evm v0.5's engines (debug_traceCall and eth_call with
 * overrides), so that a simulation with overrides has somewhere to run and a refusal a provider to name.
 */
export function localProviders(portsFree = false, pruned = true): DevnetProviderOptions[] {
  return [
    { name: 'Local node', ports: portsFree ? undefined : { evmRpc: 8545, consensus: 26657, rest: 1317 } },
    {
      name: 'Local node v0.5',
      ports: portsFree ? undefined : { evmRpc: 8555, consensus: 26667, rest: 1327 },
      capabilities: { engines: COSMOS_EVM_V05_ENGINES },
    },
    // A provider that prunes: the account page on it names Local node for the older blocks.
    ...(pruned ? [{ ...PRUNED_NODE, ports: portsFree ? undefined : PRUNED_NODE.ports }] : []),
  ];
}

export interface DevnetOptions {
  host?: string;
  providers?: DevnetProviderOptions[];
  /** Default 1000; 0 = no automatic blocks (call produceBlock()). */
  blockIntervalMs?: number;
  chainId?: string;
  evmChainId?: bigint;
  /** Pad app_state so the genesis JSON is at least this many bytes. */
  genesisAppStateBytes?: number;
  /** Default 16 MiB, as CometBFT. */
  genesisChunkBytes?: number;
  initialHeight?: bigint;
  /** WebSocket server ping period (CometBFT: 27 s). */
  wsPingIntervalMs?: number;
  /**
   * Every block carries real signed transactions (a bank MsgSend, an EVM transfer and a contract
   * call logging an ERC-20 Transfer; the first block deploys the contract). Default false.
   */
  realTxs?: boolean;
  /** Event shapes of EVM txs: 'v0.3' (default, evmd v0.3.2: EVM logs copied into `tx_log` events) or 'v0.5' (no `tx_log`, cosmos/evm #576). */
  cosmosEvm?: 'v0.3' | 'v0.5';
  /** WebSocket read deadline: the server drops a socket it has not heard from for this long (CometBFT: 30 s). */
  wsReadTimeoutMs?: number;
}

export interface DevnetProviderUrls {
  name: string;
  evmRpc: string;
  consensusHttp: string;
  consensusRpc: string;
  consensusWs: string;
  rest: string;
  /** The EVM JSON-RPC WebSocket (eth_subscribe), on the EVM RPC port. */
  evmWs: string;
}

export type DevnetIface = 'evmRpc' | 'consensus' | 'rest';

export interface Devnet {
  readonly chainId: string;
  readonly evmChainId: bigint;
  readonly providers: DevnetProviderUrls[];
  height(): bigint;
  produceBlock(): void;
  setFault(provider: string, iface: DevnetIface, fault: Fault | undefined): Promise<void>;
  stopProvider(name: string): Promise<void>;
  startProvider(name: string): Promise<void>;
  stop(): Promise<void>;
  genesisBytes(): Buffer;
  lastRequests(provider: string): RequestEntry[];
  /** Sends `subscription was canceled (reason: ...)` (-32000) to every subscription and ends their events. */
  wsCancelSubscriptions(provider: string, reason?: string): void;
  /** New subscribes fail with `max_subscription_clients N reached` once N clients hold subscriptions; undefined restores 100. */
  wsMaxClients(provider: string, n: number | undefined): void;
  /** A stalled socket goes silent: no events, answers, pings or pongs, and it is never closed (a "dead" proxy socket). */
  wsStall(provider: string, stalled: boolean): void;
  /** The chain itself (blocks, txs, ledger of dev accounts): for tests and the CLI's examples. */
  readonly chain: Chain;
}

interface Provider {
  opts: DevnetProviderOptions;
  log: RequestLog;
  consensus: ConsensusService;
  evmWs: EvmWsService;
  listeners: Record<DevnetIface, Listener>;
  urls: DevnetProviderUrls;
}

export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const host = options.host ?? '127.0.0.1';
  const chain = new Chain({
    chainId: options.chainId ?? 'chain-endpoints-devnet-1',
    evmChainId: options.evmChainId ?? 262144n,
    initialHeight: options.initialHeight ?? 1n,
    genesisAppStateBytes: options.genesisAppStateBytes ?? 0,
    genesisChunkBytes: options.genesisChunkBytes ?? 16 * 1024 * 1024,
    realTxs: options.realTxs ?? false,
    cosmosEvm: options.cosmosEvm,
  });
  const specs = options.providers ?? [{ name: 'Local node' }];
  const names = new Set<string>();
  for (const s of specs) {
    if (names.has(s.name)) throw new Error(`duplicate devnet provider name: ${s.name}`);
    names.add(s.name);
  }
  const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const hostPart = urlHost.includes(':') ? `[${urlHost}]` : urlHost;

  const providers: Provider[] = specs.map((opts) => {
    const log = new RequestLog(200);
    const lag = Math.max(0, opts.lagBlocks ?? 0);
    const caps = opts.capabilities ?? {};
    const keep = caps.keepRecent;
    if (keep !== undefined && keep < 1n) throw new Error(`devnet provider ${opts.name}: keepRecent must be at least 1`);
    const prunedBelow: PruneFloor | undefined =
      keep === undefined
        ? caps.prunedBelow
        : () => {
            const moving = chain.viewHeight(lag) - keep + 1n;
            const fixed = caps.prunedBelow ?? 0n;
            return moving > fixed ? moving : fixed;
          };
    const listeners = {} as Record<DevnetIface, Listener>;
    const consensus = new ConsensusService({
      chain,
      providerName: opts.name,
      lag,
      log,
      host: urlHost,
      port: () => listeners.consensus.port,
      pingIntervalMs: options.wsPingIntervalMs ?? 27_000,
      readTimeoutMs: options.wsReadTimeoutMs ?? 30_000,
      prunedBelow,
      txIndex: caps.txIndex,
      wsRefused: caps.wsRefused,
    });
    const rest = new RestService({
      chain,
      providerName: opts.name,
      lag,
      host: urlHost,
      consensusPort: () => listeners.consensus.port,
      modulesOff: caps.restModulesOff,
      prunedBelow,
      txIndex: caps.txIndex,
    });
    const evm = new EvmService({
      chain,
      lag,
      namespaces: caps.evmNamespaces,
      rpcModules: caps.rpcModules,
      prunedBelow,
      engines: caps.engines,
    });
    const evmWs = new EvmWsService({ chain, lag, evm, refused: caps.wsRefused });
    listeners.evmRpc = new Listener({
      host,
      port: opts.ports?.evmRpc ?? 0,
      iface: 'evmRpc',
      log,
      maxBody: 5 * 1024 * 1024,
      handle: (c) => evm.handle(c),
      upgrade: (req, socket, head) => evmWs.handleUpgrade(req, socket, head),
    });
    listeners.consensus = new Listener({
      host,
      port: opts.ports?.consensus ?? 0,
      iface: 'consensus',
      log,
      maxBody: 1_000_000,
      redirect: 'servemux',
      handle: (c) => consensus.handleHttp(c),
      upgrade: (req, socket, head) => consensus.handleUpgrade(req, socket, head),
    });
    listeners.rest = new Listener({ host, port: opts.ports?.rest ?? 0, iface: 'rest', log, maxBody: 1_000_000, handle: (c) => rest.handle(c) });
    const urls: DevnetProviderUrls = { name: opts.name, evmRpc: '', consensusHttp: '', consensusRpc: '', consensusWs: '', rest: '', evmWs: '' };
    return { opts, log, consensus, evmWs, listeners, urls };
  });

  const all = (): Listener[] => providers.flatMap((p) => Object.values(p.listeners));
  try {
    for (const l of all()) await l.start();
  } catch (e) {
    for (const l of all()) await l.stop();
    throw e;
  }
  for (const p of providers) {
    const base = (port: number): string => `http://${hostPart}:${port}`;
    p.urls.evmRpc = base(p.listeners.evmRpc.port);
    p.urls.consensusHttp = base(p.listeners.consensus.port);
    p.urls.consensusRpc = base(p.listeners.consensus.port);
    p.urls.consensusWs = `ws://${hostPart}:${p.listeners.consensus.port}/websocket`;
    p.urls.rest = base(p.listeners.rest.port) + (p.opts.restTrailingSlash ? '/' : '');
    p.urls.evmWs = `ws://${hostPart}:${p.listeners.evmRpc.port}`;
  }

  const offBlock = chain.onBlock(() => {
    for (const p of providers) {
      p.consensus.onChainBlock();
      p.evmWs.onChainBlock();
    }
  });
  const interval = options.blockIntervalMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  if (interval > 0) {
    timer = setInterval(() => chain.produceBlock(), interval);
    timer.unref();
  }

  const find = (name: string): Provider => {
    const p = providers.find((x) => x.opts.name === name);
    if (!p) throw new Error(`unknown devnet provider: ${name}`);
    return p;
  };
  let stopped = false;

  const devnet: Devnet = {
    chainId: chain.opts.chainId,
    evmChainId: chain.opts.evmChainId,
    providers: providers.map((p) => p.urls),
    height: () => chain.tip,
    produceBlock: () => void chain.produceBlock(),
    async setFault(name, iface, fault) {
      const p = find(name);
      if (iface === 'consensus' && fault?.kind === 'refuse') p.consensus.terminateAll();
      await p.listeners[iface].setFault(fault);
    },
    async stopProvider(name) {
      const p = find(name);
      p.consensus.terminateAll();
      p.evmWs.terminateAll();
      for (const l of Object.values(p.listeners)) await l.stop();
    },
    async startProvider(name) {
      const p = find(name);
      if (stopped) throw new Error('the devnet is stopped');
      for (const l of Object.values(p.listeners)) await l.start();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearInterval(timer);
      offBlock();
      chain.abortWaiters();
      for (const p of providers) {
        p.consensus.terminateAll();
        p.evmWs.terminateAll();
      }
      for (const l of all()) await l.stop();
    },
    genesisBytes: () => chain.genesis,
    chain,
    lastRequests: (name) => find(name).log.list(),
    wsCancelSubscriptions(name, reason = 'internal subscription event buffer is out of capacity') {
      find(name).consensus.cancelSubscriptions(reason);
    },
    wsMaxClients(name, n) {
      find(name).consensus.maxClients = n ?? 100;
    },
    wsStall(name, stalled) {
      find(name).consensus.stalled = stalled;
    },
  };
  return devnet;
}

/** Several devnets side by side: one chain each (its own chain ids, heights and providers). */
export interface DevnetNetworks {
  readonly devnets: Devnet[];
  /** Every provider of every chain, in order. */
  readonly providers: DevnetProviderUrls[];
  /** The devnet serving `provider`. */
  of(provider: string): Devnet;
  stop(): Promise<void>;
}

/**
 * Starts one devnet per options (give each its own chainId, evmChainId and provider names; an
 * initialHeight sets its heights apart). Stops the started ones when one fails to start.
 */
export async function startNetworks(networks: DevnetOptions[]): Promise<DevnetNetworks> {
  const devnets: Devnet[] = [];
  try {
    for (const options of networks) devnets.push(await startDevnet(options));
  } catch (e) {
    for (const d of devnets) await d.stop();
    throw e;
  }
  const names = devnets.flatMap((d) => d.providers.map((p) => p.name));
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) {
    for (const d of devnets) await d.stop();
    throw new Error(`duplicate devnet provider name across networks: ${dup}`);
  }
  return {
    devnets,
    providers: devnets.flatMap((d) => d.providers),
    of: (provider) => {
      const d = devnets.find((x) => x.providers.some((p) => p.name === provider));
      if (!d) throw new Error(`unknown devnet provider: ${provider}`);
      return d;
    },
    stop: async () => {
      for (const d of devnets) await d.stop();
    },
  };
}

/** The second chain `npm run devnet -- --second-network` serves: another chain id, heights from 5000. */
export const SECOND_NETWORK: Pick<DevnetOptions, 'chainId' | 'evmChainId' | 'initialHeight'> = {
  chainId: 'chain-endpoints-devnet-2',
  evmChainId: 262145n,
  initialHeight: 5000n,
};

/**
 * The pruning provider `npm run devnet` serves beside Local node (and `npm start`'s sample workspace
 * lists): the same chain, keeping only the last 10 heights (ten seconds of blocks), so that the account page on it says which
 * blocks it keeps and names Local node, which keeps them all.
 */
export const PRUNED_NODE = {
  name: 'Pruned node',
  ports: { evmRpc: 8565, consensus: 26677, rest: 1337 },
  capabilities: { keepRecent: 10n },
} as const satisfies DevnetProviderOptions;
