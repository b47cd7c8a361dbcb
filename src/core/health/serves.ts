// Whether a provider can serve an operation, from its probed capabilities (capabilities.ts):
// statically (the tree marks what a provider cannot serve) and for given arguments (a height
// below the earliest block), and the best provider for a request: the ranked best among those
// that can serve it. Also the reading of a failure that says "not served here" (method not found,
// 501, a pruned height), so the editor can name a provider that can answer. Pure: no I/O.

import * as l10n from '../base/l10n';
import { formatHeight } from '../base/numbers';
import type { Args, Operation } from '../chain/operation';
import type { Provider } from '../config/providers';
import type { Capabilities } from './capabilities';
import type { InterfaceHealth } from './model';

export type Verdict = { served: true } | { served: false; reason: string } | { served: undefined };

const UNKNOWN: Verdict = { served: undefined };
const YES: Verdict = { served: true };

/** The REST module a path belongs to (`/cosmos/bank/v1beta1/...` -> `bank`, `/ibc/core/client/v1/...` -> `ibc.client`), or undefined. */
export function restModuleOf(path: string): string | undefined {
  const parts = path.split('?')[0].split('/').filter(Boolean);
  if (parts[0] === 'ibc') {
    const v = parts.findIndex((x) => /^v\d+/.test(x));
    const head = parts.slice(1, v < 0 ? 3 : v).filter((x) => x !== 'core' && x !== 'apps' && x !== 'lightclients');
    return head.length ? ['ibc', ...head].join('.') : undefined;
  }
  if (parts[0] !== 'cosmos' || parts.length < 2) return undefined;
  if (parts[1] === 'base' && parts[2] === 'tendermint') return 'tendermint';
  return parts[1];
}

const TX_INDEX_METHODS = new Set(['tx', 'tx_search', 'block_search']);
const TX_INDEX_PATHS = new Set(['/tx', '/tx_search', '/block_search']);

/** What the operation needs, read from the request it builds (undefined args: the static needs only). */
function needs(op: Operation, args: Args | undefined): { namespace?: string; txIndex?: boolean; module?: string; websocket?: boolean; height?: bigint } {
  if (op.iface === 'consensusWs') return { websocket: true };
  let wire;
  try {
    // Without arguments (the tree asks before any is typed): placeholders, read for the route only.
    wire = op.build(args ?? placeholders(op));
  } catch {
    return op.id === 'consensusHttp.tx' ? { txIndex: true } : {};
  }
  const h = args ? heightArg(args) : undefined;
  switch (wire.kind) {
    case 'jsonrpc':
      if (op.iface === 'evmRpc') {
        const ns = wire.method.includes('_') ? wire.method.slice(0, wire.method.indexOf('_')) : undefined;
        return { namespace: ns, height: args && (h ?? evmBlockParam(wire.method, wire.params)) };
      }
      return { txIndex: TX_INDEX_METHODS.has(wire.method) || undefined, height: h };
    case 'get':
      if (op.iface === 'rest') return { module: restModuleOf(wire.path), height: args && (h ?? restHeight(wire.path)) };
      return { txIndex: TX_INDEX_PATHS.has(wire.path) || undefined, height: h };
    default:
      return { height: h };
  }
}

/** A value for each parameter that builds a request (custom requests have no fixed route: left out). */
function placeholders(op: Operation): Args {
  const out: Record<string, string> = {};
  for (const p of op.params) if (p.key !== 'method' && p.key !== 'path' && !p.optional) out[p.key] = p.key === 'hash' ? '00'.repeat(32) : '1';
  return out;
}

function heightArg(args: Args): bigint | undefined {
  const v = args.height?.trim();
  return v && /^\d{1,19}$/.test(v) ? BigInt(v) : undefined;
}

function restHeight(path: string): bigint | undefined {
  const m = /\/blocks\/(\d{1,19})$/.exec(path);
  return m ? BigInt(m[1]) : undefined;
}

function evmBlockParam(method: string, params: unknown): bigint | undefined {
  if (!Array.isArray(params) || !/^eth_(getBlockByNumber|getBalance|getCode|getStorageAt|getTransactionCount|call)$/.test(method)) return undefined;
  const tag = method === 'eth_getBlockByNumber' ? params[0] : params.at(-1);
  return typeof tag === 'string' && /^0x[0-9a-f]{1,16}$/i.test(tag) ? BigInt(tag) : undefined;
}

/** Can `caps`' provider serve `op` (with `args` when known)? `served: undefined` when nothing says. */
export function canServe(op: Operation, args: Args | undefined, caps: Capabilities | undefined): Verdict {
  if (!caps) return UNKNOWN;
  const n = needs(op, args);
  const who = caps.provider;
  if (n.websocket && caps.websocket?.consensus === false) return { served: false, reason: l10n.t('{0} refuses WebSocket subscriptions', who) };
  if (n.txIndex && caps.consensus?.txIndex === false) return { served: false, reason: l10n.t('{0} does not index transactions (tx_index is off)', who) };
  const unprobed = n.namespace !== undefined && caps.evm?.unprobedNamespaces?.includes(n.namespace) === true;
  if (n.namespace && caps.evm?.namespaces && !caps.evm.namespaces.includes(n.namespace) && !unprobed) {
    return { served: false, reason: l10n.t('{0} does not serve the {1} namespace', who, `${n.namespace}_*`) };
  }
  if (n.module && caps.rest?.modules[n.module] === false) return { served: false, reason: l10n.t('{0} does not serve the REST module {1}', who, n.module) };
  const earliest = caps.consensus?.earliestHeight;
  if (n.height !== undefined && n.height > 0n && earliest !== undefined && n.height < BigInt(earliest)) {
    return {
      served: false,
      reason: l10n.t("Height {0} is below {1}'s earliest block {2}", formatHeight(n.height), who, formatHeight(earliest)),
    };
  }
  const knows = n.websocket
    ? caps.websocket?.consensus
    : n.txIndex
      ? caps.consensus?.txIndex
      : n.namespace
        ? unprobed
          ? undefined
          : caps.evm?.namespaces
        : n.module
          ? caps.rest?.modules[n.module]
          : true;
  return knows === undefined ? UNKNOWN : YES;
}

/** True when only a costly probe not sent yet would tell whether `caps`' provider serves `op` (an unprobed namespace). */
export function awaitsCostlyProbe(op: Operation, args: Args | undefined, caps: Capabilities | undefined): boolean {
  const ns = caps?.evm?.unprobedNamespaces;
  if (!ns?.length) return false;
  const n = needs(op, args);
  return n.namespace !== undefined && ns.includes(n.namespace);
}

/**
 * The best provider for this request: among the providers publishing the operation's interface,
 * those not known unable to serve it, best rank first (then healthy before the rest, then the
 * order of the settings). `exclude`: a provider to leave out (the one that just failed).
 */
export function bestProvidersFor(
  op: Operation,
  args: Args | undefined,
  providers: readonly Provider[],
  capsOf: (name: string) => Capabilities | undefined,
  rows: readonly InterfaceHealth[],
  exclude?: string,
): Provider[] {
  // The interface's row of each provider, in one pass over the rows (the first one wins, as a search would).
  const rowOf = new Map<string, InterfaceHealth>();
  for (const r of rows) if (r.iface === op.iface && !rowOf.has(r.provider)) rowOf.set(r.provider, r);
  const scored = providers
    .map((p, order) => ({ p, order, row: rowOf.get(p.name), verdict: canServe(op, args, capsOf(p.name)) }))
    .filter((c) => c.p.endpoints[op.iface] && c.p.name !== exclude && c.verdict.served !== false && c.row?.state !== 'down' && c.row?.state !== 'stale');
  const weight = (c: (typeof scored)[number]) => (c.verdict.served ? 0 : 1) * 1000 + (c.row?.rank ?? 100) + (c.row?.state === 'healthy' ? 0 : 200);
  return scored.sort((a, b) => weight(a) - weight(b) || a.order - b.order).map((c) => c.p);
}

/** A failure that says the request is not served there (rather than wrong or broken). */
export function looksUnserved(error: { kind: string; message: string; status?: number; code?: number | string }): boolean {
  if (error.status === 501) return true;
  if (error.kind === 'rpc' && error.code === -32601) return true;
  return /lowest height is|is not available|indexing is disabled|version does not exist|missing trie node|pruned|does not exist\/is not available/i.test(
    error.message,
  );
}
