// The networks as the Compare view groups them: each network's name, chain ids, best height and
// its providers, from the configured providers and the classified rows. Pure.

import { discoveredChains, groupNetworks } from '../config/networks';
import type { Provider } from '../config/providers';
import type { InterfaceHealth } from './model';

export interface NetworkSummary {
  key: string;
  label: string;
  chainId: string | null;
  evmChainId: string | null;
  /** The best height of the network's usable rows (decimal), null when none. */
  height: string | null;
  providers: string[];
}

export function summarizeNetworks(providers: readonly Provider[], rows: readonly InterfaceHealth[]): NetworkSummary[] {
  return groupNetworks(providers, discoveredChains(rows)).map((n) => {
    const names = new Set(n.providers.map((p) => p.name));
    let best: bigint | undefined;
    for (const r of rows) {
      const h = r.last?.ok ? r.last.height : undefined;
      if (!names.has(r.provider) || h === undefined || (r.state !== 'healthy' && r.state !== 'lagging')) continue;
      if (best === undefined || h > best) best = h;
    }
    return {
      key: n.key,
      label: n.label,
      chainId: n.chainId ?? null,
      evmChainId: n.evmChainId ? BigInt(n.evmChainId).toString() : null,
      height: best === undefined ? null : best.toString(),
      providers: n.providers.map((p) => p.name),
    };
  });
}
