// The provider router: which provider runs a request. One answer in three shapes, decided here
// from the providers, their capabilities (serves.ts) and their health ranking, so the editor only
// prompts:
//   run     this provider, no question;
//   ask     the user chooses among `candidates`, best first (with `reason` when the provider
//           chosen is known unable to serve it: "Height 120 is below A's earliest block…");
//   refuse  no provider can be used, with why (nothing is sent).
// What a command's or the API's argument asks for (a tree node, a name, "best" of a network,
// nothing) is routed by routeCommand.ts; before every run the chosen provider is checked here
// (ui/health/capabilityCheck.ts), as is the explorer's "best" (core/explorer/bestProvider.ts)
// and the question after a "not served here" failure. Pure: no I/O.

import * as l10n from '../base/l10n';
import type { Args, Operation } from '../chain/operation';
import type { ProviderGroup } from '../config/networks';
import { INTERFACE_LABELS, type Provider, providerNamed, unknownProvider } from '../config/providers';
import type { Capabilities } from './capabilities';
import type { InterfaceHealth } from './model';
import { bestProvidersFor, canServe, looksUnserved } from './serves';

export type Route =
  /** `among`: "best" was asked for; `provider` is the best of `among` for the arguments known so far. */
  | { readonly kind: 'run'; readonly provider: Provider; readonly among?: readonly Provider[] }
  | {
      readonly kind: 'ask';
      readonly candidates: readonly Provider[];
      readonly reason?: string;
      readonly chosen?: Provider;
      /** The candidates by network, as the pick shows them (routeCommand.ts: no provider named). */
      readonly groups?: readonly ProviderGroup<Provider>[];
    }
  /** `reason`: the shown sentence; `message`: both forms, for a LocalizedError. */
  | { readonly kind: 'refuse'; readonly reason: string; readonly message: l10n.Message };

/** A route without a question: a name or a tree node is run there or refused. */
export type Decided = Extract<Route, { kind: 'run' | 'refuse' }>;

/** Refuses with `message` (nothing is sent). */
export function refuse(message: l10n.Message): Route & { kind: 'refuse' } {
  return { kind: 'refuse', reason: message.shown, message };
}

/** What the router reads: the providers configured, what each serves, their health rows. */
export interface RouteContext {
  readonly providers: readonly Provider[];
  capabilities(provider: string): Capabilities | undefined;
  rows(): readonly InterfaceHealth[];
}

/** The providers able to serve `op` (with `args` when known) among `among`, best first (`exclude`: one to leave out). */
export function rankFor(op: Operation, args: Args | undefined, among: readonly Provider[], ctx: RouteContext, exclude?: string): Provider[] {
  return bestProvidersFor(op, args, among, (n) => ctx.capabilities(n), ctx.rows(), exclude);
}

/**
 * The healthy provider ranked first on `iface` among `candidates` (for a stream, which has no
 * operation to judge: Watch Events' "best"); the first candidate when none is ranked healthy.
 */
export function bestOnInterface(candidates: readonly Provider[], rows: readonly InterfaceHealth[], iface: string): Provider | undefined {
  const rankOf = (p: Provider) => rows.find((r) => r.provider === p.name && r.iface === iface && r.state === 'healthy')?.rank ?? Infinity;
  return [...candidates].sort((a, b) => rankOf(a) - rankOf(b))[0];
}

/** "best": run on the best of `among` that can serve it; refuse when none publishes the interface. */
export function routeBest(op: Operation, args: Args | undefined, among: readonly Provider[], ctx: RouteContext): Route {
  const best = rankFor(op, args, among, ctx)[0];
  return best ? { kind: 'run', provider: best } : refuse(l10n.both('No provider of that network has a {0} address.', INTERFACE_LABELS[op.iface]));
}

/** A provider named by a command or the API: run there, or refuse (unknown name, no such interface). */
export function routeNamed(op: Operation, name: string, ctx: Pick<RouteContext, 'providers'>): Decided {
  const p = providerNamed(ctx.providers, name);
  if (!p) return refuse(unknownProvider(name, ctx.providers));
  return routeServing(op, p);
}

/** A provider given (a name found, a tree node): run there, or refuse when it has no address for the interface. */
export function routeServing(op: Operation, p: Provider): Decided {
  if (!p.endpoints[op.iface]) return refuse(l10n.both('Provider "{0}" has no {1} address.', p.name, INTERFACE_LABELS[op.iface]));
  return { kind: 'run', provider: p };
}

/**
 * Before sending on the provider chosen: run there when nothing says it cannot serve the request;
 * else ask, with why and the providers that can (best first; none: the user may still run anyway).
 */
export function routeChosen(op: Operation, args: Args, chosen: Provider, ctx: RouteContext): Route {
  const verdict = canServe(op, args, ctx.capabilities(chosen.name));
  if (verdict.served !== false) return { kind: 'run', provider: chosen };
  return { kind: 'ask', reason: verdict.reason, chosen, candidates: rankFor(op, args, ctx.providers, ctx, chosen.name) };
}

/**
 * After a failure on `failed`: when the failure reads "not served here" (method not found, 501, a
 * pruned height) and another provider may serve it, ask (best first); otherwise nothing to offer.
 */
export function routeAfterFailure(
  op: Operation,
  args: Args,
  failed: Provider,
  error: { kind: string; message: string; status?: number; code?: number | string },
  ctx: RouteContext,
): Route | undefined {
  if (op.broadcast || !looksUnserved(error)) return undefined; // a broadcast is never re-sent elsewhere
  const candidates = rankFor(op, args, ctx.providers, ctx, failed.name);
  return candidates.length ? { kind: 'ask', candidates, chosen: failed } : undefined;
}
