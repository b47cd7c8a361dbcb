// Which provider runs an operation a command or the API was given: the provider router's front
// door. The argument asks for a provider in one of four ways, and the answer is a Route (route.ts):
//   a tree node of the operation        run on its provider (refuse: it has no such address);
//   { provider: "X", … }                run on X (refuse: unknown name, no such address);
//   { provider: "best", network: "…" }  run on the best of that network (or the only one) able to
//                                       serve it, `among` kept so the best is chosen again once the
//                                       arguments are complete (refuse: unknown network, several
//                                       networks and none named, none of it has the address);
//   nothing                             ask, the candidates grouped by network as the pick shows
//                                       them (refuse: no provider has the address).
// The editor only prompts (ui/requests/resolveArgs.ts); the API runs or throws (runForApi).
// Pure: no I/O.

import * as l10n from '../base/l10n';
import { operationNodeProvider } from '../chain/commandArgs';
import type { Args, Operation } from '../chain/operation';
import { type Network, networkNamed, providerGroups } from '../config/networks';
import { INTERFACE_LABELS, type Provider, providerNamed, unknownProvider } from '../config/providers';
import { type Route, type RouteContext, rankFor, refuse, routeServing } from './route';

/** The providers, and when health runs, what ranks them (without: "best" is the first of its network). */
export type RouteInput = Pick<RouteContext, 'providers'> & Partial<Omit<RouteContext, 'providers'>>;

/**
 * The route for `op` given `argument` (a tree node, `{ provider: "X" }`, `{ provider: "best",
 * network: "…" }`, or nothing): run, ask (no provider named: the candidates by network) or refuse
 * (with why; nothing is sent). `networks`: as grouped for the tree (none: one network of them all).
 * `args`: the arguments known so far, to rank "best" with.
 */
export function routeCommand(op: Operation, argument: unknown, networks: readonly Network[], ctx: RouteInput, args?: Args): Route {
  const { providers } = ctx;
  if (argument !== undefined && argument !== null && typeof argument !== 'object') return refuse(notAnObject());
  const node = operationNodeProvider(argument);
  if (node !== undefined) return routeServing(op, providers.find((p) => p.name === node) ?? (argument as { provider: Provider }).provider); // a node: its exact name
  return routeTarget(
    { needs: INTERFACE_LABELS[op.iface], serves: (p) => Boolean(p.endpoints[op.iface]), best: (among) => bestOf(op, args, among, ctx) },
    argument,
    networks,
    providers,
  );
}

/**
 * What a feature runs on when it is not one operation of the catalogue (Look Up, Watch Events): the
 * providers that can serve it (an interface predicate), and which of them is best (a ranking).
 */
export interface RouteTarget {
  /** What a provider must have, as a refusal names it: `Provider "X" has no <needs> address.` */
  readonly needs: string;
  serves(p: Provider): boolean;
  /** A provider named is taken when this says so (default: `serves`); the feature then says what it lacks. */
  accepts?(p: Provider): boolean;
  /** The best of `among` (a ranking); default the first. */
  best?(among: readonly Provider[]): Provider | undefined;
  /** The refusal when no provider (of `among`: the network asked for, or all) can serve it. */
  none?(among: readonly Provider[]): l10n.Message;
  /** `{ network }` without a provider narrows the pick to that network (default: the pick shows every network). */
  readonly narrowToNetwork?: boolean;
}

/**
 * The route for a feature given `argument` (`{ provider: "X" }`, `{ provider: "best", network }`,
 * or nothing): run, ask (the candidates by network) or refuse with why. Every command and API
 * function reads "a name, best or nothing" here, with the same sentences.
 */
export function routeTarget(target: RouteTarget, argument: unknown, networks: readonly Network[], providers: readonly Provider[]): Route {
  if (argument !== undefined && argument !== null && typeof argument !== 'object') return refuse(notAnObject());
  const best = bestRequested(argument, providers, networks, target.serves);
  if (best && 'refuse' in best) return best.refuse;
  const named = namedIn(argument);
  const network = networkIn(argument);
  if (named !== undefined && !best) {
    const p = providerNamed(providers, named);
    if (!p) return refuse(unknownProvider(named, providers));
    if (!(target.accepts ?? target.serves)(p)) return refuse(l10n.both('Provider "{0}" has no {1} address.', p.name, target.needs));
    if (network === undefined) return { kind: 'run', provider: p };
    // A provider named with a network must be one of its providers (never another chain than the one asked for).
    const n = networkNamed(networks, network);
    if (!n) return refuse(unknownNetwork(network, networks));
    return n.providers.some((q) => q.name === p.name) ? { kind: 'run', provider: p } : refuse(notInNetwork(p.name, n.label));
  }
  let pool = providers;
  if (!best && network !== undefined && target.narrowToNetwork) {
    const n = networkNamed(networks, network);
    if (!n) return refuse(unknownNetwork(network, networks));
    pool = providers.filter((p) => n.providers.some((q) => q.name === p.name));
  }
  const none = (among: readonly Provider[]) => refuse(target.none?.(among) ?? l10n.both('No provider of that network has a {0} address.', target.needs));
  const candidates = pool.filter(target.serves);
  if (candidates.length === 0)
    return target.none || pool !== providers
      ? none(pool)
      : refuse(l10n.both('No configured provider has a {0} address: add one with "Chain Endpoints: Add Provider".', target.needs));
  if (best) {
    if (best.among.length === 0) return none(best.of);
    return { kind: 'run', provider: target.best?.(best.among) ?? best.among[0], among: best.among };
  }
  const groups = providerGroups(candidates, networks);
  return { kind: 'ask', candidates: groups.flatMap((g) => g.providers), groups };
}

function notAnObject(): l10n.Message {
  return l10n.both('The argument must be a tree item or an object such as {0}.', '{"provider": "Local node"}');
}

/** The best of `among` for `op` with `args`: the ranked best able to serve it when health is known, else the first. */
export function bestOf(op: Operation, args: Args | undefined, among: readonly Provider[], ctx: RouteInput): Provider {
  const ranked = ctx.capabilities && ctx.rows ? rankFor(op, args, among, ctx as RouteContext)[0] : undefined;
  return ranked ?? among[0];
}

/**
 * `{ "provider": "best" }` (any case; a provider actually named so wins): the providers to choose
 * the best among, those of `network` (its name or chain id) when the argument names one, else of
 * the only network serving (`usable`). undefined when the argument does not ask for the best;
 * `refuse`, saying what to pass, when several networks could be meant or the one named is unknown.
 */
export function bestRequested(
  argument: unknown,
  providers: readonly Provider[],
  networks: readonly Network[],
  usable: (p: Provider) => boolean,
): { among: Provider[]; of: readonly Provider[] } | { refuse: Route & { kind: 'refuse' } } | undefined {
  if (!asksForBest(argument, providers)) return undefined;
  const given = argument as { network?: unknown };
  const groups = networks.length > 0 ? networks : [{ key: 'all', label: '', providers: [...providers], unidentified: true }];
  let group: Pick<Network, 'label' | 'providers'> | undefined;
  if (typeof given.network === 'string') {
    group = networkNamed(groups, given.network);
    if (!group) return { refuse: refuse(unknownNetwork(given.network, networks)) };
  } else {
    const serving = groups.filter((n) => n.providers.some(usable));
    if (serving.length > 1)
      return {
        refuse: refuse(
          l10n.both(
            '"best" needs the network too, such as {0}: {1} networks are configured.',
            `{"provider": "best", "network": "${serving[0].label}"}`,
            String(serving.length),
          ),
        ),
      };
    group = serving[0] ?? groups[0];
  }
  return { among: group.providers.filter(usable), of: group.providers };
}

/** Whether `argument` is `{ "provider": "best" }` (any case) and no provider is actually named "best" (that one would win). */
export function asksForBest(argument: unknown, providers: readonly Provider[]): boolean {
  if (!argument || typeof argument !== 'object') return false;
  const p = (argument as { provider?: unknown }).provider;
  return typeof p === 'string' && p.trim().toLowerCase() === 'best' && !providerNamed(providers, 'best');
}

/** A network name that matches none of `networks`: what to pass instead. */
export function unknownNetwork(name: string, networks: readonly Pick<Network, 'label'>[]): l10n.Message {
  return networks.length > 0
    ? l10n.both('No network named "{0}". Networks: {1}.', name, networks.map((n) => `"${n.label}"`).join(', '))
    : l10n.both('No network named "{0}". Networks: none.', name);
}

/** A provider named together with a network it is not a provider of. */
export function notInNetwork(provider: string, network: string): l10n.Message {
  return l10n.both('Provider "{0}" is not a provider of the network "{1}".', provider, network);
}

/** The network named by an object argument (its name or chain id), else undefined. */
function networkIn(argument: unknown): string | undefined {
  const v = argument && typeof argument === 'object' ? (argument as { network?: unknown }).network : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** The provider named by an object argument (a number is a name too), else undefined. */
function namedIn(argument: unknown): string | undefined {
  if (!argument || typeof argument !== 'object') return undefined;
  const v = (argument as { provider?: unknown }).provider;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? String(v) : undefined;
}
