// Which simulation engine a provider serves, decided before anything is sent (core/contracts/simulate.ts
// runs it; Call Contract's overrides are checked here too). What is missing is refused in one
// sentence that says why and names a provider of the same network that can.

import { LocalizedError } from '../base/errors';
import * as l10n from '../base/l10n';
import type { EngineSupport } from '../health/capabilities';

export type { EngineSupport } from '../health/capabilities';

export type SimulationEngine = 'eth_simulateV1' | 'debug_traceCall' | 'eth_call';
export const SIMULATION_ENGINES: readonly SimulationEngine[] = ['eth_simulateV1', 'debug_traceCall', 'eth_call'];

/** What a simulation needs of an engine. */
export interface Needs {
  readonly overrides: boolean;
  readonly blockOverrides: boolean;
  readonly bundle: boolean;
}

/** The engine for what the simulation needs, or what is missing. */
export function engineFor(needs: Needs, s: EngineSupport): { readonly engine: SimulationEngine } | { readonly missing: 'bundle' | 'overrides' } {
  if (s.simulateV1) return PICK.simulateV1;
  if (needs.bundle) return PICK.noBundle;
  if (s.traceCall) return PICK.traceCall;
  if ((needs.overrides || needs.blockOverrides) && !s.callOverrides) return PICK.noOverrides;
  return PICK.ethCall;
}
/** engineFor()'s answers, made once. */
const PICK = {
  simulateV1: { engine: 'eth_simulateV1' },
  traceCall: { engine: 'debug_traceCall' },
  ethCall: { engine: 'eth_call' },
  noBundle: { missing: 'bundle' },
  noOverrides: { missing: 'overrides' },
} as const;

/** `s` with `engine` marked not served (the provider refused it: method not found). */
export function withoutEngine(s: EngineSupport, engine: 'eth_simulateV1' | 'debug_traceCall'): EngineSupport {
  return { ...s, ...(engine === 'eth_simulateV1' ? { simulateV1: false } : { traceCall: false }) };
}

export interface Alternative {
  readonly name: string;
  readonly support: EngineSupport;
}

/**
 * The engine for `provider`, or a LocalizedError (one sentence: why, and a provider of the same
 * network that can, when one is known). Nothing is sent.
 */
export function chooseEngine(provider: string, needs: Needs, support: EngineSupport, alternatives: readonly Alternative[] = []): SimulationEngine {
  const pick = engineFor(needs, support);
  if ('engine' in pick) return pick.engine;
  const other = alternatives.find((a) => a.name !== provider && 'engine' in engineFor(needs, a.support));
  const unknown = pick.missing === 'bundle' ? support.simulateV1 === undefined : support.traceCall === undefined || support.callOverrides === undefined;
  const why =
    pick.missing === 'bundle'
      ? unknown
        ? l10n.both('{0} cannot simulate a bundle of calls: it is not known to serve eth_simulateV1 (its capabilities were not probed)', provider)
        : l10n.both('{0} cannot simulate a bundle of calls: it does not serve eth_simulateV1', provider)
      : unknown
        ? l10n.both(
            '{0} cannot simulate with overrides: it is not known to serve eth_simulateV1, debug_traceCall or eth_call with overrides (its capabilities were not probed)',
            provider,
          )
        : l10n.both('{0} cannot simulate with overrides: it serves neither eth_simulateV1 nor debug_traceCall, and its eth_call refuses overrides', provider);
  throw new LocalizedError(
    other
      ? l10n.both('{0}; {1}, on the same network, can (nothing was sent).', why, other.name)
      : l10n.both('{0}; no other provider of the same network is known to (nothing was sent).', why),
  );
}

/** What the capabilities say of the three engines (core/health/capabilities.ts `evm.engines`). */
export function engineSupportOf(caps: { evm?: { engines?: EngineSupport; namespaces?: string[] } } | undefined): EngineSupport {
  const e = caps?.evm?.engines ?? {};
  // A node whose namespaces are known without debug cannot serve debug_traceCall.
  const ns = caps?.evm?.namespaces;
  return ns && !ns.includes('debug') && e.traceCall === undefined ? { ...e, traceCall: false } : e;
}

/**
 * Call Contract's `overrides` (eth_call's third parameter): refused before sending when the provider's
 * eth_call is known to take none (evmd v0.3.x), naming a provider of the same network whose eth_call does.
 * Not known (not probed): sent, and the node answers.
 */
export function checkCallOverrides(provider: string, support: EngineSupport | undefined, alternatives: readonly Alternative[] = []): void {
  if (support?.callOverrides !== false) return;
  const other = alternatives.find((a) => a.name !== provider && a.support.callOverrides);
  const why = l10n.both('{0} cannot call with state overrides: its eth_call refuses them', provider);
  throw new LocalizedError(
    other
      ? l10n.both('{0}; {1}, on the same network, can (nothing was sent).', why, other.name)
      : l10n.both('{0}; no other provider of the same network is known to (nothing was sent).', why),
  );
}
