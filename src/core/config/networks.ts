// Networks: every provider belongs to one network, named by its chain identity. The identity is
// what the provider declares in settings (`chainId`, `evmChainId`, `network` for the display name)
// and, for what it does not declare, what its node reported on a probe (CometBFT `chain_id`, EVM
// `eth_chainId`). Health, lag, ranking, failover and Compare are computed within one network. A
// provider whose node serves another chain than it declares stays in the network it declares
// (health calls it "wrong chain" there). Pure: no I/O, no vscode.

import type { Provider } from './providers';

/** What a provider's node reported (the last probe that carried a chain id), per family. */
export interface DiscoveredChain {
  chainId?: string;
  evmChainId?: string;
}

export interface Network {
  /** Stable key: `cosmos:<chain-id>`, else `evm:<0x-id>`, else `name:<display name>`, else `unknown:<provider>` (`unknown` when nothing is identified). */
  readonly key: string;
  /** The display name: a declared `network`, else the chain-id, else the EVM chain id. */
  readonly label: string;
  readonly chainId?: string;
  readonly evmChainId?: string;
  /** Providers in settings order. */
  readonly providers: Provider[];
  /** True when no provider of it has a known chain identity yet (not probed, not declared). */
  readonly unidentified: boolean;
}

/** A provider's chain identity: declared first, discovered for what is not declared. */
export function identityOf(p: Provider, discovered?: DiscoveredChain): DiscoveredChain {
  return {
    chainId: p.chainId ?? discovered?.chainId,
    evmChainId: (p.evmChainId ?? discovered?.evmChainId)?.toLowerCase(),
  };
}

/**
 * Groups providers into networks, in the order their first provider appears. Two providers share a
 * network when their Cosmos chain-ids are equal; a provider with only an EVM chain id joins the
 * network with that EVM chain id; one with only a `network` name joins the network of that name.
 */
export function groupNetworks(providers: readonly Provider[], discovered: (name: string) => DiscoveredChain | undefined = () => undefined): Network[] {
  const ids = providers.map((p) => ({ p, id: identityOf(p, discovered(p.name)) }));
  // The EVM id of each Cosmos chain, so that an EVM-only provider finds its Cosmos network.
  const cosmosOfEvm = new Map<string, string>();
  for (const { id } of ids) if (id.chainId && id.evmChainId && !cosmosOfEvm.has(id.evmChainId)) cosmosOfEvm.set(id.evmChainId, id.chainId);
  const named = new Map<string, string>(); // display name -> key, for providers known only by a name
  for (const { p, id } of ids) if (p.network && (id.chainId || id.evmChainId) && !named.has(p.network)) named.set(p.network, keyFor(id, cosmosOfEvm));
  const groups = new Map<string, { label?: string; chainId?: string; evmChainId?: string; providers: Provider[] }>();
  for (const { p, id } of ids) {
    const key = id.chainId || id.evmChainId ? keyFor(id, cosmosOfEvm) : p.network ? (named.get(p.network) ?? `name:${p.network}`) : `unknown:${p.name}`;
    const g = groups.get(key) ?? { providers: [] };
    g.providers.push(p);
    g.label ??= p.network;
    g.chainId ??= id.chainId ?? (key.startsWith('cosmos:') ? key.slice(7) : undefined);
    g.evmChainId ??= id.evmChainId;
    groups.set(key, g);
  }
  // Providers not identified yet (never answered, nothing declared) belong to the only network
  // there is; with several, nothing says which: each stays apart until it answers.
  const identified = [...groups.keys()].filter((k) => !k.startsWith('unknown:'));
  if (identified.length <= 1) {
    const target = identified[0] ?? 'unknown';
    const merged = groups.get(target) ?? { providers: [] };
    for (const [key, g] of groups) if (key.startsWith('unknown:')) merged.providers.push(...g.providers);
    for (const key of [...groups.keys()]) if (key.startsWith('unknown:')) groups.delete(key);
    if (merged.providers.length > 0) groups.set(target, merged);
    const order = new Map(providers.map((p, i) => [p.name, i]));
    merged.providers.sort((a, b) => order.get(a.name)! - order.get(b.name)!);
  }
  return [...groups].map(([key, g]) => ({
    key,
    label: g.label ?? g.chainId ?? (g.evmChainId ? `EVM ${BigInt(g.evmChainId).toString()}` : g.providers[0].name),
    ...(g.chainId ? { chainId: g.chainId } : {}),
    ...(g.evmChainId ? { evmChainId: g.evmChainId } : {}),
    providers: g.providers,
    unidentified: !g.chainId && !g.evmChainId,
  }));
}

function keyFor(id: DiscoveredChain, cosmosOfEvm: ReadonlyMap<string, string>): string {
  if (id.chainId) return `cosmos:${id.chainId}`;
  const cosmos = id.evmChainId ? cosmosOfEvm.get(id.evmChainId) : undefined;
  return cosmos ? `cosmos:${cosmos}` : `evm:${id.evmChainId}`;
}

/** What each provider's node reported, from health rows (`chainId`: the last one a probe carried). */
export function discoveredChains(rows: readonly { provider: string; iface: string; chainId?: string }[]): (name: string) => DiscoveredChain | undefined {
  const out = new Map<string, DiscoveredChain>();
  for (const r of rows) {
    if (r.chainId === undefined) continue;
    const d = out.get(r.provider) ?? {};
    if (r.iface === 'evmRpc' || r.iface === 'evmWs') d.evmChainId ??= r.chainId;
    else d.chainId ??= r.chainId;
    out.set(r.provider, d);
  }
  return (name) => out.get(name);
}

/** The network of each provider, by provider name. */
export function networkIndex(networks: readonly Network[]): Map<string, Network> {
  const out = new Map<string, Network>();
  for (const n of networks) for (const p of n.providers) out.set(p.name, n);
  return out;
}

/** The providers of the network `provider` belongs to (itself included); all when unknown. */
export function sameNetwork(providers: readonly Provider[], networks: readonly Network[], provider: string): Provider[] {
  const n = networkIndex(networks).get(provider);
  if (!n) return [...providers];
  const names = new Set(n.providers.map((p) => p.name));
  return providers.filter((p) => names.has(p.name));
}

/**
 * Providers in the order a pick shows them: network by network, each with its network's name as
 * `group` (the pick's separator) when there is more than one network; as given otherwise.
 */
export function groupForPick<T extends { name: string }>(providers: readonly T[], networks: readonly Network[]): { provider: T; group?: string }[] {
  if (networks.length < 2) return providers.map((provider) => ({ provider }));
  const index = networkIndex(networks);
  const order = new Map(networks.map((n, i) => [n.key, i]));
  return providers
    .map((provider, i) => ({ provider, i, n: index.get(provider.name) }))
    .sort((a, b) => (order.get(a.n?.key ?? '') ?? networks.length) - (order.get(b.n?.key ?? '') ?? networks.length) || a.i - b.i)
    .map(({ provider, n }) => ({ provider, ...(n ? { group: n.label } : {}) }));
}

/** One item of a provider pick: a provider, or (with `among`) "the best of these" for its group. */
export interface ProviderPickItem<T> {
  label: string;
  description?: string;
  provider: T;
  group?: string;
  /** Set on the "best provider" item: the providers of its group to choose the best among. */
  among?: T[];
}

/** One network's providers in a provider question: `label` (the pick's separator) when there are several networks. */
export interface ProviderGroup<T> {
  readonly label?: string;
  readonly providers: T[];
}

/** Providers grouped as a pick shows them (groupForPick): network by network, one unlabelled group with one network. */
export function providerGroups<T extends { name: string }>(providers: readonly T[], networks: readonly Network[]): ProviderGroup<T>[] {
  const groups = new Map<string | undefined, ProviderGroup<T>>();
  for (const { provider, group } of groupForPick(providers, networks)) {
    const g = groups.get(group) ?? { ...(group !== undefined ? { label: group } : {}), providers: [] };
    g.providers.push(provider);
    groups.set(group, g);
  }
  return [...groups.values()];
}

/**
 * A provider pick's items: grouped by network (groupForPick), and when `best` is given, its item
 * first in each group of more than one provider (its `among` are that group's providers).
 */
export function providerPickItems<T extends { name: string }>(
  providers: readonly T[],
  networks: readonly Network[],
  describe: (p: T) => string,
  best?: { label: string; description: string },
): ProviderPickItem<T>[] {
  return groupPickItems(providerGroups(providers, networks), describe, best);
}

/** The items of a pick of `groups` (each group's name as the separator; `best`: offered first in a group of several). */
export function groupPickItems<T extends { name: string }>(
  groups: readonly ProviderGroup<T>[],
  describe: (p: T) => string,
  best?: { label: string; description: string },
): ProviderPickItem<T>[] {
  const items: ProviderPickItem<T>[] = [];
  for (const g of groups) {
    const inGroup = g.label !== undefined ? { group: g.label } : {};
    if (best && g.providers.length > 1) items.push({ ...best, provider: g.providers[0], among: [...g.providers], ...inGroup });
    for (const provider of g.providers) items.push({ label: provider.name, description: describe(provider), provider, ...inGroup });
  }
  return items;
}

/** The network named `name`: its display name, its chain id, its EVM chain id or its key (trimmed, any case). */
export function networkNamed<T extends Pick<Network, 'key' | 'label' | 'chainId' | 'evmChainId'>>(networks: readonly T[], name: unknown): T | undefined {
  if (typeof name !== 'string') return undefined;
  const wanted = name.trim().toLowerCase();
  if (!wanted) return undefined;
  return networks.find((n) => [n.label, n.chainId, n.evmChainId, n.key].some((x) => x !== undefined && x.toLowerCase() === wanted));
}
