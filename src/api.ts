// The API other extensions get from `vscode.extensions.getExtension('chain-endpoints.chain-endpoints').activate()`.
// Versioned: `apiVersion` changes only when something here changes incompatibly.
//
//   const api = await vscode.extensions.getExtension<ChainEndpointsApi>('chain-endpoints.chain-endpoints')!.activate();
//   const r = await api.run('consensus.block', { provider: 'Local node', params: { height: '5' } });
//   api.onDidChangeHeight((e) => console.log(e.provider, e.height));

import type * as vscode from 'vscode';

export const API_VERSION = 1 as const;

export type InterfaceName = 'evmRpc' | 'consensusHttp' | 'consensusRpc' | 'consensusWs' | 'rest' | 'evmWs';

export interface ApiProvider {
  readonly name: string;
  /** The addresses as configured (secret references such as `${secret:key}` are not resolved). */
  readonly endpoints: Readonly<Partial<Record<InterfaceName, string>>>;
  readonly chainId?: string;
  readonly evmChainId?: string;
  /** The network it belongs to, as the tree names it: its declared `network`, else the chain id (declared or probed). */
  readonly network?: string;
}

export interface RunOptions {
  /** The provider's name, as configured; or "best": the ranked best able to serve the request (of `network` when several are configured). */
  provider: string;
  /** With `provider: "best"`: the network, by name or chain id. */
  network?: string;
  /** The operation's parameters by name, e.g. `{ height: "5" }` (strings; see the README's command table). */
  params?: Readonly<Record<string, string>>;
  /** Required for broadcasts: the caller confirms the transaction should be sent (once, never retried). */
  confirmed?: boolean;
  /** Cancels the request. */
  token?: vscode.CancellationToken;
}

export interface RunResult {
  /** The JSON-RPC `result`, or the REST body, parsed (JSON numbers past 2^53 lose precision: use `body`). */
  readonly result?: unknown;
  /** The body exactly as received (undefined when it went to `file`). */
  readonly body?: string;
  /** Where a large body or a reassembled genesis was written. */
  readonly file?: string;
  readonly status?: number;
  readonly elapsedMs: number;
  readonly bytes: number;
  /** The request as sent (secret values masked). */
  readonly request: { readonly method: 'GET' | 'POST' | 'WS'; readonly url: string; readonly body?: string };
  /** Set on failure: `kind` (input, network, timeout, cancelled, http, rpc, rest, parse, protocol) and one sentence. */
  readonly error?: { readonly kind: string; readonly message: string; readonly status?: number; readonly code?: number | string; readonly data?: string };
}

export interface HeightEvent {
  /** The provider the height came from (a fallback while the configured one is unwell). */
  readonly provider: string;
  /** Decimal string: heights can exceed 2^53. */
  readonly height: string;
}

/**
 * What `watch()` follows: a CometBFT query, or an EVM subscription (needs the provider's `evmWs`).
 * `provider`: a name (any case), or "best": the healthy provider ranked first on the stream's
 * WebSocket, of `network` (its name or chain id) when several networks are configured.
 */
export type WatchSpec =
  | { readonly provider: string; readonly network?: string; readonly query: string }
  | {
      readonly provider: string;
      readonly network?: string;
      readonly evm: {
        readonly subscription: 'newHeads' | 'logs' | 'newPendingTransactions';
        /** logs only: one contract address or several. */
        readonly address?: string | readonly string[];
        /** logs only: by position; a topic, alternatives, or null for any. */
        readonly topics?: ReadonlyArray<string | readonly string[] | null>;
      };
    };

export interface WatchEvent {
  /** `event`; `gap` when the socket was down (events may be missing); `note` for what the watch wants said (a refusal, an oversize frame). */
  readonly kind: 'event' | 'gap' | 'note';
  /** ISO time of arrival. */
  readonly at: string;
  /** `Tx`, `NewBlock`, `newHeads`, `log`, `pendingTx`, … */
  readonly type?: string;
  /** Decimal string. */
  readonly height?: string;
  /** The transaction's hash (CometBFT or EVM): `lookUp(txHash)` gives its `result.receipt`. */
  readonly txHash?: string;
  /** The console's line: key attributes, or the gap/note sentence. */
  readonly summary: string;
  /** The event as received (CometBFT `{query, data, events}`, or the EVM notification's `result`). */
  readonly data?: unknown;
  /** An EVM log's event decoded with the ABIs known (as `decode()` gives it), when one is. */
  readonly decoded?: DecodedResult;
}

/** What a provider can serve, as probed (plain data; see the README's "Capabilities"). */
export interface ApiCapabilities {
  readonly provider: string;
  /** ISO time of the probe. */
  readonly probedAt: string;
  readonly evm?: {
    readonly namespaces?: readonly string[];
    readonly namespacesFrom?: 'rpc_modules' | 'calls';
    readonly chainId?: string;
    readonly clientVersion?: string;
    /** true: old state served (archive); false: pruned. */
    readonly archive?: boolean;
    readonly oldStateBlock?: string;
  };
  readonly consensus?: {
    readonly txIndex?: boolean;
    /** Decimal string. */
    readonly earliestHeight?: string;
    readonly nodeVersion?: string;
    readonly network?: string;
    readonly moniker?: string;
  };
  readonly rest?: {
    readonly modules: Readonly<Record<string, boolean>>;
    readonly appName?: string;
    readonly appVersion?: string;
    readonly cosmosSdkVersion?: string;
  };
  readonly websocket?: { readonly consensus?: boolean; readonly evm?: boolean };
  readonly notes: readonly string[];
}

export interface LookUpOptions {
  /**
   * The provider's name (any case), or "best": the best of `network` (or of the only network) for
   * this query. May be left out when only one provider is configured.
   */
  provider?: string;
  /** With `provider: "best"`, or to check that the provider named is one of this network's (its name or chain id). */
  network?: string;
  /** Cancels the lookup's requests. */
  token?: vscode.CancellationToken;
  /**
   * An address's state at this block height (decimal), as `<address>@<height>` in Look Up; two heights
   * `"1200..1300"` compare them (`address.comparison`). Page N of an address's history: the query
   * `"<address> history page N"`.
   */
  height?: string;
}

/**
 * What lookUp() resolves to: `kind` (tx, block, address or notFound), `found` (what the query was
 * taken for), the decoded parts (`tx`, `block` or `address`), and `notes` for parts that could not be
 * read. Plain data: numbers are decimal strings. The shapes are src/core/explorer/views.ts.
 */
export type LookUpResult = import('./core/explorer/views').LookupResult;

/** What callContract() calls: `function` a signature (`balanceOf(address)`) or, with a known ABI, a name. */
export interface CallContractSpec {
  /**
   * The provider's name (any case), or "best": the best of `network` (or of the only network) with
   * an EVM RPC address. May be left out when only one provider has an EVM RPC address.
   */
  provider?: string;
  /** With `provider: "best"`, or to check that the provider named is one of this network's (its name or chain id). */
  network?: string;
  address: string;
  function: string;
  /** Values by position (strings for integers past 2^53), or one text: a JSON array or comma-separated. */
  args?: readonly unknown[] | string;
  /** A block number or tag; latest by default. */
  block?: string;
  from?: string;
  /** Wei, decimal or 0x. */
  value?: string;
  /** eth_call's state overrides by address: `{ balance, nonce, code, state, stateDiff }`. */
  overrides?: Readonly<Record<string, unknown>>;
  token?: vscode.CancellationToken;
}

/** A decoded call, log or error (plain data; values JSON-safe, integers as decimal strings). */
export interface DecodedResult {
  readonly kind: 'function' | 'event' | 'error' | 'unknown';
  readonly name?: string;
  readonly signature?: string;
  readonly args?: ReadonlyArray<{ readonly name: string; readonly type: string; readonly value: unknown; readonly indexed?: boolean }>;
  readonly contract?: string;
  /** Where the ABI came from (an artifact, chainEndpoints.contracts, a precompile, a standard, or guessed from its selector). */
  readonly source?: string;
  readonly guessed?: boolean;
  readonly meaning?: string;
}

export interface CallContractResult {
  /** The decoded output: one output its value, several an object by name. */
  readonly result?: unknown;
  /** The return data as received. */
  readonly raw?: string;
  readonly revert?: DecodedResult & { readonly data?: string };
  /** A failure (the node's sentence, or what was wrong with the spec). */
  readonly error?: string;
  readonly gasEstimate?: string;
}

export interface ChainEndpointsApi {
  readonly apiVersion: typeof API_VERSION;
  /** The valid providers as configured. */
  providers(): readonly ApiProvider[];
  /** The operation ids `run` accepts (e.g. `evm.blockNumber`, `consensus.block`, `rest.latestBlock`). */
  operations(): readonly string[];
  /** What the provider can serve, probed on first call (then kept, re-probed every 30 minutes); rejects for an unknown provider. */
  capabilities(provider: string): Promise<ApiCapabilities>;
  /** Runs one operation without opening a document. Never rejects for request failures: see `error`. */
  run(operation: string, options: RunOptions): Promise<RunResult>;
  /** The status bar's height, or undefined while unknown. */
  currentHeight(): { provider: string; configured: string; height?: string; state: string; reason?: string } | undefined;
  /** Fires on every new height shown in the status bar. */
  readonly onDidChangeHeight: vscode.Event<HeightEvent>;
  /**
   * Watches events (reconnecting and resubscribing on its own; a `gap` event marks a lost socket)
   * and calls `listener` with each, in batches at most ten times a second, until disposed. Returns
   * the `Disposable` at once (disposing it before the watch started means it never starts). A spec
   * it cannot follow (unknown provider, no WebSocket address, an invalid query) reaches `listener`
   * as one `note` event, and nothing follows.
   */
  watch(spec: WatchSpec, listener: (event: WatchEvent) => void): vscode.Disposable;
  /**
   * Looks up a block height, a block or transaction hash (Cosmos or EVM) or an address, as the Look
   * Up… command does, without a document. Rejects for a query it cannot read (nothing is sent), an
   * unknown provider, or cancellation.
   */
  lookUp(query: string, options?: LookUpOptions): Promise<LookUpResult>;
  /** eth_call of a contract function (and eth_estimateGas), outputs or revert decoded. Never rejects for a chain's answer: see `error`. */
  callContract(spec: CallContractSpec): Promise<CallContractResult>;
  /** Decodes a call's input or revert data (`data`), or a log (`topics` + `data`), with the ABIs known (`address` and `provider` let the contract be matched by its code). */
  decode(input: { data?: string; topics?: readonly string[]; address?: string; provider?: string; network?: string }): Promise<DecodedResult>;
  /** What if: a call, a transaction or a bundle simulated on the provider's best engine (docs/simulate.md). Rejects with one sentence for what the provider cannot do (nothing sent), bad input, or a node failure. */
  simulate(spec: SimulateSpec): Promise<SimulateResult>;
}

/** What simulate() takes: Call Contract's keys (or `data`), `gas`, `blockOverrides` and `steps` (a bundle); see docs/simulate.md. */
export type SimulateSpec = import('./core/contracts/simulate').SimulationSpec & { provider?: string; network?: string; token?: vscode.CancellationToken };
/** The engine used, each step's decoded return or revert and logs (and call tree on debug_traceCall), the balance changes. */
export type SimulateResult = import('./core/contracts/simulate').SimulationResult;
