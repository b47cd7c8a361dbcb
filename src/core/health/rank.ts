// Ranked rows of one interface (within a network), best first (rank is set by the health monitor). Pure and tiny:
// the status bar's failover (heightFollower.ts) uses it at activation without the probes.

import type { InterfaceId } from '../config/providers';
import type { InterfaceHealth } from './model';

/**
 * The ranked providers for an interface, best first (for failover). Ranks are per network (rank 1 in
 * each): give `network` (a row's `network` key) to rank one network's providers only.
 */
export function ranked(rows: readonly InterfaceHealth[], iface: InterfaceId, network?: string): InterfaceHealth[] {
  return rows.filter((r) => r.iface === iface && r.rank !== undefined && (network === undefined || r.network === network)).sort((a, b) => a.rank! - b.rank!);
}
