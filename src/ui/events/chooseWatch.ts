// What "Watch Events…" asks for, kept apart from the editor (prompts behind ui/base/prompts.ts) so the
// questions are unit-tested with scripted answers: the provider, CometBFT or EVM, a query from
// the templates validated as typed, or the EVM subscription and its filters.

import { LocalizedError } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import { type Network, groupForPick, networkIndex, sameNetwork } from '../../core/config/networks';
import { INTERFACE_LABELS, type Provider } from '../../core/config/providers';
import { queryTemplates, validateQuery } from '../../core/events/query';
import { type RouteTarget, routeTarget } from '../../core/health/routeCommand';
import {
  EVM_SUBSCRIPTIONS,
  type EvmWatchSpec,
  parseEvmTopics,
  readWatchArgument,
  validateEvmAddresses,
  validateEvmTopics,
} from '../../core/events/watchArgument';
import type { Prompts } from '../base/prompts';

export interface Chosen {
  provider: Provider;
  query?: string;
  evm?: EvmWatchSpec;
}

/**
 * Why no EVM stream can be watched among `among` (none has an `evmWs` address), naming the network
 * when they are all of one: the sentence the pick, the family pick and the errors show.
 */
export function noEvmStream(among: readonly Provider[], networks: readonly Network[]): l10n.Message {
  const names = among.map((p) => p.name);
  const label = networkLabelOf(among, networks);
  const list = names.length > 4 ? `${names.slice(0, 4).join(', ')}, …` : names.join(', ');
  return label !== undefined
    ? l10n.both(
        'No provider of {0} publishes an EVM WebSocket address: add "evmWs" (such as ws://host:8546) to one of them ({1}) to watch EVM events.',
        label,
        list,
      )
    : l10n.both('No provider publishes an EVM WebSocket address: add "evmWs" (such as ws://host:8546) to one ({0}) to watch EVM events.', list);
}

/** The network all of `among` belong to (its name), when there is one. */
function networkLabelOf(among: readonly Provider[], networks: readonly Network[]): string | undefined {
  const n = networks.find((x) => among.length > 0 && among.every((p) => x.providers.some((q) => q.name === p.name)));
  return n?.label || undefined;
}

/** The providers of the network of `p` (itself included; only itself when no network is known). */
function networkOfProvider(p: Provider, providers: readonly Provider[], networks: readonly Network[]): Provider[] {
  return networkIndex(networks).has(p.name) ? sameNetwork(providers, networks, p.name) : [p];
}

/**
 * Watch Events as a route of the router: the providers with the stream's WebSocket address (either
 * when the family is not chosen yet), "best" the healthy one ranked first on it. A provider named is
 * taken as is: the family pick says what it lacks.
 */
export function watchTarget(
  wantsEvm: boolean,
  wantsComet: boolean,
  networks: readonly Network[],
  best?: (candidates: readonly Provider[], iface: 'consensusWs' | 'evmWs') => Provider | undefined,
): RouteTarget {
  const iface = wantsEvm ? 'evmWs' : 'consensusWs';
  return {
    needs: wantsEvm ? INTERFACE_LABELS.evmWs : wantsComet ? INTERFACE_LABELS.consensusWs : l10n.t('WebSocket'),
    serves: (p) =>
      wantsEvm ? Boolean(p.endpoints.evmWs) : wantsComet ? Boolean(p.endpoints.consensusWs) : Boolean(p.endpoints.consensusWs || p.endpoints.evmWs),
    accepts: () => true,
    best: best && ((among) => best(among, iface)),
    // EVM asked of a network (or of all providers) none of whose providers has an EVM WebSocket.
    none: (pool) =>
      wantsEvm && pool.length > 0
        ? noEvmStream(pool, networks)
        : l10n.both('No provider has a WebSocket address to watch: add "consensusWs" (CometBFT) or "evmWs" (EVM) to one.'),
    narrowToNetwork: true,
  };
}

/**
 * What to watch: the argument completed by the prompts; undefined when the user dismissed one.
 * `"network"` in the argument narrows the providers to one network (its name or chain id);
 * `"provider": "best"` takes `best` of the candidates (the ranked best; the first without it).
 */
export async function chooseWatch(
  arg: unknown,
  providers: readonly Provider[],
  prompts: Prompts,
  networks: readonly Network[] = [],
  best?: (candidates: readonly Provider[], iface: 'consensusWs' | 'evmWs') => Provider | undefined,
): Promise<Chosen | undefined> {
  const raw = arg && typeof arg === 'object' && !Array.isArray(arg) ? (arg as Record<string, unknown>) : undefined;
  // The provider by the router, as every command: a name, "best" (of `network`), or ask among those with the stream's address.
  const given = readWatchArgument(raw ? { ...raw, provider: undefined } : arg, providers);
  const wantsEvm = given.evm !== undefined;
  const route = routeTarget(watchTarget(wantsEvm, given.query !== undefined, networks, best), raw, networks, providers);
  if (route.kind === 'refuse') throw new LocalizedError(route.message);
  let provider = route.kind === 'run' ? route.provider : undefined;
  if (!provider) {
    const candidates = route.kind === 'ask' ? route.candidates : [];
    if (candidates.length === 1) provider = candidates[0];
    else {
      // `provider` on each item: a provider pick (ui/providers/providerPicks.ts adds state, height and the last used first).
      // A network none of whose providers publishes an EVM WebSocket says so in its separator.
      const index = networkIndex(networks);
      const withEvm = new Set(candidates.filter((q) => q.endpoints.evmWs).map((q) => index.get(q.name)?.label));
      const items = groupForPick(candidates, networks).map(({ provider: p, group }) => ({
        label: p.name,
        description: [p.endpoints.consensusWs && 'CometBFT', p.endpoints.evmWs && 'EVM'].filter(Boolean).join(' · '),
        provider: p,
        ...(group !== undefined ? { group: withEvm.has(group) ? group : l10n.t('{0} · no EVM WebSocket ("evmWs")', group) } : {}),
      }));
      const placeHolder = candidates.some((p) => p.endpoints.evmWs)
        ? l10n.t('The provider to watch')
        : l10n.t('The provider to watch (CometBFT only). {0}', noEvmStream(candidates, networks).shown);
      provider = (await prompts.pick(items, { title: l10n.t('Watch Events'), placeHolder }))?.provider;
      if (!provider) return undefined;
    }
  }
  if (given.query !== undefined || given.evm !== undefined) return { provider, query: given.query, evm: given.evm };
  // Both families are offered even when the provider lacks one, so the pick says why it is missing
  // (a provider without "evmWs" used to go straight to CometBFT queries without a word).
  const hasComet = !!provider.endpoints.consensusWs;
  const hasEvm = !!provider.endpoints.evmWs;
  const items = [
    {
      label: l10n.t('CometBFT events'),
      description: hasComet ? l10n.t('a query over the Consensus WebSocket') : l10n.t('unavailable: {0} has no "consensusWs" address', provider.name),
      family: 'comet' as const,
    },
    {
      label: l10n.t('EVM subscription'),
      description: hasEvm ? l10n.t('eth_subscribe over the EVM WebSocket') : evmUnavailable(provider, providers, networks),
      family: 'evm' as const,
    },
  ];
  const picked = await prompts.pick(items, { title: l10n.t('Watch Events: {0}', provider.name) });
  if (!picked) return undefined;
  const family = picked.family;
  if (family === 'evm' && !hasEvm) {
    const mates = networkOfProvider(provider, providers, networks);
    if (mates.length > 1 && !mates.some((p) => p.endpoints.evmWs)) throw new LocalizedError(noEvmStream(mates, networks));
    throw new LocalizedError(l10n.both('{0} has no EVM WebSocket address: add "evmWs" (such as ws://host:8546) to it to watch EVM events.', provider.name));
  }
  if (family === 'comet' && !hasComet) {
    throw new LocalizedError(
      l10n.both('{0} has no Consensus WebSocket address: add "consensusWs" (such as ws://host:26657/websocket) to it to watch CometBFT events.', provider.name),
    );
  }
  if (family === 'comet') {
    const templates = queryTemplates().map((t) => ({ label: t.label, description: t.query, query: t.query }));
    const template = await prompts.pick(templates, { title: l10n.t('Watch Events: {0}', provider.name), placeHolder: l10n.t('Start from a query') });
    if (!template) return undefined;
    const hole = template.query.indexOf('…');
    const query = await prompts.input({
      title: l10n.t('CometBFT query'),
      prompt: l10n.t("Conditions key op value joined by AND; ops = != < <= > >= CONTAINS EXISTS; strings in 'quotes'."),
      value: template.query,
      ...(hole >= 0 ? { valueSelection: [hole, hole + 1] as [number, number] } : {}),
      validate: validateQuery,
    });
    return query === undefined ? undefined : { provider, query: query.trim() };
  }
  const sub = await prompts.pick(
    EVM_SUBSCRIPTIONS.map((s) => ({ label: s, subscription: s })),
    { title: l10n.t('Watch Events: {0}', provider.name), placeHolder: l10n.t('eth_subscribe to') },
  );
  if (!sub) return undefined;
  if (sub.subscription !== 'logs') return { provider, evm: { subscription: sub.subscription } };
  const address = await prompts.input({
    title: l10n.t('Contract address (optional)'),
    prompt: l10n.t('One address or several separated by commas; empty: every contract.'),
    validate: (t) => (t.trim() === '' ? undefined : validateEvmAddresses(t)),
  });
  if (address === undefined) return undefined;
  const topics = await prompts.input({
    title: l10n.t('Topics (optional)'),
    prompt: l10n.t('By position, separated by commas; alternatives with |; * for any. Empty: every log.'),
    validate: (t) => (t.trim() === '' ? undefined : validateEvmTopics(t)),
  });
  if (topics === undefined) return undefined;
  const addresses = address
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const parsedTopics = topics.trim() ? parseEvmTopics(topics) : [];
  return {
    provider,
    evm: {
      subscription: 'logs',
      ...(addresses.length ? { address: addresses.length === 1 ? addresses[0] : addresses } : {}),
      ...(parsedTopics.length ? { topics: parsedTopics } : {}),
    },
  };
}

/** The family pick's EVM item when `p` has no `evmWs`: why, and whether another provider of its network has one. */
function evmUnavailable(p: Provider, providers: readonly Provider[], networks: readonly Network[]): string {
  const mates = networkOfProvider(p, providers, networks);
  const other = mates.find((q) => q.endpoints.evmWs);
  if (other) return l10n.t('unavailable: {0} has no "evmWs" address ({1} of the same network has one)', p.name, other.name);
  const label = mates.length > 1 ? networkLabelOf(mates, networks) : undefined;
  return label !== undefined
    ? l10n.t('unavailable: no provider of {0} publishes an EVM WebSocket address (add "evmWs" to one)', label)
    : l10n.t('unavailable: {0} has no "evmWs" address', p.name);
}
