// Where the explorer's answers come from: the provider's interfaces, each request through the
// catalogue's execute() (so every timeout, cancellation, size limit, redaction and secret rule of an
// operation applies), under a per-lookup cap on the number of requests. Tests hand lookups a fake.

import { EndpointError, LocalizedError, errorMessage, isEndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import { type ExecuteOptions, type Outcome, execute } from '../chain/execute';
import type { Args, Operation, WireRequest } from '../chain/operations';
import type { InterfaceId, Provider } from '../config/providers';
import { isStateCall } from '../chain/state';
import type { ContractRegistry } from '../contracts/registry';

/** How EVM transactions are explained: the ABIs known, and whether the provider can trace. */
export interface ContractsOption {
  readonly registry: ContractRegistry;
  /** The network the provider serves (the code-match cache's key, settings' `network`). */
  readonly network?: string;
  /** Whether the provider serves `debug` (its capabilities); undefined: not known, so tried. */
  readonly debug?: boolean;
  /** A provider of the same network that serves `debug`, named when this one does not. */
  readonly debugElsewhere?: string;
  /** Which page of a large call tree to decode (from 1). */
  readonly tracePage?: number;
  /** A provider of the same network that keeps old states (archive), named when this one has pruned a height a receipt needs. */
  readonly archiveElsewhere?: string;
}

/** A CometBFT call in both argument forms: the URI form (GET) and the JSON-RPC form (POST). */
export interface CometCall {
  readonly method: string;
  /** Query values as the URI form wants them (integers bare, strings JSON-quoted, bytes 0x hex). */
  readonly uri: Readonly<Record<string, string>>;
  /** Named params for JSON-RPC (int64 as strings, bytes base64). */
  readonly json: Readonly<Record<string, unknown>>;
}

export interface ExplorerSource {
  readonly provider: string;
  readonly chainId?: string;
  readonly has: { readonly rest: boolean; readonly comet: boolean; readonly evm: boolean };
  /** A REST GET (path with its query), at `height` when given (header `x-cosmos-block-height`). Rejects with a LocalizedError; a 404 has `notFound`. */
  rest(path: string, height?: string): Promise<unknown>;
  /** A CometBFT call's `result`. */
  comet(call: CometCall): Promise<unknown>;
  /** An EVM JSON-RPC call's `result`. */
  evm(method: string, params: readonly unknown[]): Promise<unknown>;
  /** The ABIs and trace ability for EVM transactions (built-in ABIs only when absent). */
  readonly contracts?: ContractsOption;
  /** Providers of the same network that keep older blocks or index transactions (the account page's coverage names them). */
  readonly elsewhere?: { readonly olderBlocks?: { readonly provider: string; readonly earliest: string }; readonly txIndex?: string };
}

/**
 * The most requests one lookup makes (a block's EVM side, a few metadata reads, a trace and the code of
 * the contracts it touches fit; so does an account page: its state, a page of history and 20 tokens
 * with their metadata read the first time).
 */
export const MAX_REQUESTS = 160;
/**
 * The most state reads at a height (REST with `x-cosmos-block-height`, eth_getBalance, the precompiles'
 * views with eth_call, abci_query) one lookup
 * makes, counted apart: a transaction's receipt reads up to 8 accounts at two heights (receipt/receipt.ts).
 */
export const MAX_STATE_REQUESTS = 128;

function op(iface: InterfaceId, build: (a: Args) => WireRequest): Operation {
  return { id: `explorer.${iface}`, iface, label: 'lookUp', title: 'Look Up', params: [], build };
}

const REST = op('rest', (a) => ({ kind: 'get', path: a.path, rawQuery: a.rawQuery || undefined }));
const COMET_GET = op('consensusHttp', (a) => ({ kind: 'get', path: `/${a.method}`, query: JSON.parse(a.query) as Record<string, string> }));
const COMET_POST = op('consensusRpc', (a) => ({ kind: 'jsonrpc', method: a.method, params: JSON.parse(a.params) }));
const EVM = op('evmRpc', (a) => ({ kind: 'jsonrpc', method: a.method, params: JSON.parse(a.params) }));

export class NotFound extends LocalizedError {}

export function isNotFound(err: unknown): boolean {
  return err instanceof NotFound || /not found/i.test(errorMessage(err));
}

/** Cancellation ends the whole lookup; any other failure is a note. */
export function rethrowCancel(err: unknown): void {
  if (isEndpointError(err) && err.kind === 'cancelled') throw err;
}

/**
 * One way of finding something: its result, or undefined with its failure as a note `what: why`
 * (a "not found" is no news when `quietNotFound`). Cancellation ends the whole lookup.
 */
export async function attempt<T>(notes: string[], what: string, run: () => Promise<T>, quietNotFound = false): Promise<T | undefined> {
  try {
    return await run();
  } catch (err) {
    rethrowCancel(err);
    if (!quietNotFound || !isNotFound(err)) notes.push(`${what}: ${errorMessage(err)}`);
    return undefined;
  }
}

/** The source behind the command and the API: `provider` with its secrets resolved, `options` as a request's. */
export function executeSource(provider: Provider, options: ExecuteOptions, onOutcome?: (o: Outcome) => void): ExplorerSource {
  let count = 0;
  let stateCount = 0;
  // The explorer reads answers, never shows their text: no formatting while receiving.
  const opts: ExecuteOptions = { ...options, formatWhileReceiving: false };
  const run = async (operation: Operation, args: Args, height?: string, state = height !== undefined): Promise<unknown> => {
    if (state ? ++stateCount > MAX_STATE_REQUESTS : ++count > MAX_REQUESTS)
      throw new LocalizedError(l10n.both('The lookup stopped after {0} requests.', String(state ? MAX_STATE_REQUESTS : MAX_REQUESTS)));
    // State at a height: the gateway's header, beside the provider's own headers.
    const o = height === undefined ? opts : { ...opts, headers: { ...opts.headers, 'x-cosmos-block-height': height } };
    const outcome = await execute(provider, operation, args, o);
    onOutcome?.(outcome);
    if (outcome.error) {
      if (outcome.error.kind === 'cancelled') throw outcome.error;
      if (outcome.status === 404 || /not found/i.test(outcome.error.message)) throw new NotFound(outcome.error.message);
      throw outcome.error;
    }
    if (outcome.file) throw new EndpointError('protocol', l10n.both('The answer is too large for the explorer (it was written to a file).'));
    return outcome.result;
  };
  const e = provider.endpoints;
  return {
    provider: provider.name,
    chainId: provider.chainId,
    has: { rest: Boolean(e.rest), comet: Boolean(e.consensusHttp || e.consensusRpc), evm: Boolean(e.evmRpc) },
    rest: (path, height) => {
      const q = path.indexOf('?');
      return run(REST, q < 0 ? { path, rawQuery: '' } : { path: path.slice(0, q), rawQuery: path.slice(q + 1) }, height);
    },
    comet: (call) =>
      e.consensusHttp
        ? run(COMET_GET, { method: call.method, query: JSON.stringify(call.uri) }, undefined, call.method === 'abci_query')
        : run(COMET_POST, { method: call.method, params: JSON.stringify(call.json) }, undefined, call.method === 'abci_query'),
    evm: (method, params) => run(EVM, { method, params: JSON.stringify(params) }, undefined, isStateCall(method, params)),
  };
}
