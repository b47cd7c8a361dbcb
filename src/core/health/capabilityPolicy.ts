// When capabilities are probed, and which probes go (chainEndpoints.capabilities.probe):
//   auto      the cheap probes on first sight and every CAPABILITY_TTL_MS (the timer); the costly
//             ones (debug_traceTransaction, txpool_status, a balance at block 1) only when someone
//             asks what a provider serves (Refresh capabilities, Compare) or runs something that needs them;
//   onDemand  nothing until asked (or needed), then everything for the providers asked about;
//   off       never.
// The book keeps what was learnt per provider; a cheap re-probe keeps what the costly one learnt.

import type { Provider } from '../config/providers';
import { CAPABILITY_TTL_MS, type Capabilities } from './capabilities';
import type { ProbeMode } from '../config/probeMode';

export type { ProbeMode } from '../config/probeMode';

/** timer: the periodic refresh; asked: a person asked what a provider serves; needed: a request about to run needs it. */
export type CapabilityTrigger = 'timer' | 'asked' | 'needed';

/** Which of `providers` to probe now, and whether the costly probes go too. */
export function capabilityPlan(
  mode: ProbeMode,
  trigger: CapabilityTrigger,
  providers: readonly Provider[],
  known: (name: string) => Capabilities | undefined,
  now: number,
  ttlMs = CAPABILITY_TTL_MS,
): { due: Provider[]; costly: boolean } {
  if (mode === 'off') return { due: [], costly: false };
  if (trigger !== 'timer') return { due: [...providers], costly: true };
  if (mode === 'onDemand') return { due: [], costly: false };
  return { due: providers.filter((p) => (known(p.name)?.probedAt ?? 0) < now - ttlMs), costly: false };
}

/** A cheap re-probe keeps what an earlier costly one learnt (archive state, costly namespaces). */
export function mergeCapabilities(prev: Capabilities | undefined, next: Capabilities): Capabilities {
  if (next.costly || !prev?.costly || !prev.evm || !next.evm) return next;
  const evm = { ...next.evm };
  if (evm.archive === undefined && prev.evm.archive !== undefined) {
    evm.archive = prev.evm.archive;
    evm.oldStateBlock = prev.evm.oldStateBlock;
  }
  if (evm.engines && evm.engines.traceCall === undefined && prev.evm.engines?.traceCall !== undefined)
    evm.engines = { ...evm.engines, traceCall: prev.evm.engines.traceCall };
  if (evm.unprobedNamespaces && prev.evm.namespaces && prev.evm.namespacesFrom === 'calls') {
    const learnt = evm.unprobedNamespaces.filter((n) => prev.evm!.namespaces!.includes(n));
    evm.namespaces = [...(evm.namespaces ?? []), ...learnt].sort();
    evm.unprobedNamespaces = undefined;
  }
  return { ...next, evm, costly: evm.unprobedNamespaces === undefined && evm.archive !== undefined };
}

export interface CapabilityBookOptions {
  /** Probes one provider (secrets substituted); undefined when it could not. */
  probe: (provider: Provider, costly: boolean) => Promise<Capabilities | undefined>;
  mode: () => ProbeMode;
  now?: () => number;
  ttlMs?: number;
}

/** What each provider can serve, as learnt, and the probing policy. */
export class CapabilityBook {
  private readonly caps = new Map<string, Capabilities>();
  private readonly now: () => number;

  constructor(private readonly o: CapabilityBookOptions) {
    this.now = o.now ?? Date.now;
  }

  get(name: string): Capabilities | undefined {
    return this.caps.get(name);
  }

  /** Forgets providers no longer configured. */
  retain(names: ReadonlySet<string>): void {
    for (const name of [...this.caps.keys()]) if (!names.has(name)) this.caps.delete(name);
  }

  /** Probes what the mode and trigger call for; resolves with the providers probed. Never rejects. */
  async update(providers: readonly Provider[], trigger: CapabilityTrigger): Promise<Provider[]> {
    const { due, costly } = capabilityPlan(this.o.mode(), trigger, providers, (n) => this.caps.get(n), this.now(), this.o.ttlMs);
    await Promise.all(
      due.map(async (p) => {
        const c = await this.o.probe(p, costly).catch(() => undefined);
        if (c) this.caps.set(p.name, { ...mergeCapabilities(this.caps.get(p.name), c), probedAt: this.now() });
      }),
    );
    return due;
  }
}
