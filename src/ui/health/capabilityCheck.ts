// Before and after a request: the prompts of the provider router (src/core/health/route.ts decides
// whether the chosen provider can serve it and, if not, which provider can, one click away ("Height 120 is below
// Provider A's earliest block 1,200,000. Provider B has it: run there?"). Also "the best provider
// for this request" for the provider pick, the explorer and the API. No vscode import: the
// question goes through `choose`, so the decisions are unit-tested.

import * as l10n from '../../core/base/l10n';
import type { Args, Operation } from '../../core/chain/operation';
import type { Provider } from '../../core/config/providers';
import type { Capabilities } from '../../core/health/capabilities';
import type { InterfaceHealth } from '../../core/health/model';
import { type RouteContext, routeAfterFailure, routeChosen } from '../../core/health/route';
import type { RouteInput } from '../../core/health/routeCommand';

/** What the checks read: capabilities and health rows (the HealthController). */
export interface CapabilitySource {
  capabilities(provider: string): Capabilities | undefined;
  rows(): readonly InterfaceHealth[];
}

/** Shows `message` with `actions` as buttons; resolves with the one chosen, or undefined when dismissed. */
export type Choose = (message: string, actions: readonly string[]) => Promise<string | undefined>;

export type Decision = { run: Provider } | { cancel: true };

/** What the router reads, from the health controller. */
export function routeContext(source: CapabilitySource, providers: readonly Provider[]): RouteContext {
  return { providers, capabilities: (n) => source.capabilities(n), rows: () => source.rows() };
}

/** The router's input for a command or the API: the providers, ranked when health runs (none: "best" is the first of its network). */
export function routeInput(source: CapabilitySource | undefined, providers: readonly Provider[]): RouteInput {
  return source ? routeContext(source, providers) : { providers };
}

/**
 * Before sending: when the provider is known unable to serve the request (core/health/route.ts
 * decides), says why and offers the best provider that can (or running anyway). Resolves with the
 * provider to run on.
 */
export async function checkBeforeRun(
  source: CapabilitySource,
  op: Operation,
  args: Args,
  provider: Provider,
  providers: readonly Provider[],
  choose: Choose,
): Promise<Decision> {
  const route = routeChosen(op, args, provider, routeContext(source, providers));
  if (route.kind === 'run') return { run: route.provider };
  if (route.kind === 'refuse') return { cancel: true };
  const alt = route.candidates[0];
  const anyway = l10n.t('Run on {0} anyway', provider.name);
  if (!alt) {
    const picked = await choose(l10n.t('{0}. No other provider is known to serve it.', route.reason ?? ''), [anyway]);
    return picked === anyway ? { run: provider } : { cancel: true };
  }
  const there = l10n.t('Run on {0}', alt.name);
  const picked = await choose(l10n.t('{0}. {1} has it: run there?', route.reason ?? '', alt.name), [there, anyway]);
  if (picked === there) return { run: alt };
  if (picked === anyway) return { run: provider };
  return { cancel: true };
}

/**
 * After a failure that reads "not served here" (method not found, 501, a pruned height), names
 * the best other provider for the request. Resolves with it when the user chose to run there.
 */
export async function suggestAfterFailure(
  source: CapabilitySource,
  op: Operation,
  args: Args,
  provider: Provider,
  providers: readonly Provider[],
  error: { kind: string; message: string; status?: number; code?: number | string },
  choose: Choose,
): Promise<Provider | undefined> {
  const route = routeAfterFailure(op, args, provider, error, routeContext(source, providers));
  if (route?.kind !== 'ask') return undefined;
  const alt = route.candidates[0];
  const there = l10n.t('Run on {0}', alt.name);
  const picked = await choose(l10n.t('{0} could not serve this request. {1} may have it: run there?', provider.name, alt.name), [there]);
  return picked === there ? alt : undefined;
}
