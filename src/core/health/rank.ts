// Ranked rows of one interface, best first (rank is set by the health monitor). Pure and tiny:
// the status bar's failover (heightFollower.ts) uses it at activation without the probes.

import type { InterfaceId } from '../config/providers';
import type { InterfaceHealth } from './model';

/** The ranked providers for an interface, best first (for failover). */
export function ranked(rows: readonly InterfaceHealth[], iface: InterfaceId): InterfaceHealth[] {
  return rows.filter((r) => r.iface === iface && r.rank !== undefined).sort((a, b) => a.rank! - b.rank!);
}
