// The networks as the editor knows them now: the configured providers grouped by their declared
// chain identity and, for the rest, what the health probes discovered (config/networks.ts). The
// health controller feeds it; picks, the tree, Compare and query files read it.

import { type Network, discoveredChains, groupNetworks } from '../../core/config/networks';
import type { Provider } from '../../core/config/providers';

type Rows = readonly { provider: string; iface: string; chainId?: string }[];
let source: () => Rows = () => [];

/** Set once by the HealthController: where the discovered chain ids come from. */
export function setNetworkSource(rows: () => Rows): void {
  source = rows;
}

export function currentNetworks(providers: readonly Provider[]): Network[] {
  return groupNetworks(providers, discoveredChains(source()));
}

/** The other providers of `provider`'s network among `all`, in the network's order; none when its network is not identified. */
export function networkPeers(all: readonly Provider[], provider: Provider): Provider[] {
  const network = currentNetworks(all).find((n) => !n.unidentified && n.providers.some((p) => p.name === provider.name));
  return (network?.providers ?? []).filter((p) => p.name !== provider.name);
}
