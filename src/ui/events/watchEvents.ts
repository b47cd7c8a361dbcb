// "Watch Events…": reads `{ provider, query }` or `{ provider, evm: { subscription, address?,
// topics? } }`, asks for what is missing (the provider, CometBFT or EVM, a query from the
// templates validated as typed, or the EVM subscription and its filters), then opens one console
// per watch. Also the API's watch(): the same argument, events to a listener as plain data.

import type * as vscode from 'vscode';
import type { WatchEvent } from '../../api';
import { LocalizedError, rewrapped } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import type { Provider } from '../../core/config/providers';
import type { WatchEntry } from '../../core/events/entry';
import { Watch } from '../../core/events/watch';
import { readWatchArgument, watchTargetOf, watchTitle } from '../../core/events/watchArgument';
import type { Log } from '../base/log';
import { type Prompts, windowPrompts } from '../base/prompts';
import { readSettings } from '../base/settings';
import { currentNetworks } from '../providers/networkDirectory';
import { EventConsole } from './eventConsole';
import { shortValue } from '../../core/contracts/values';
import type { DecodedResult } from '../../api';
import { networkOf, registryForHovers } from '../contracts/contracts';
import { type Chosen, chooseWatch, watchTarget } from './chooseWatch';
import { routeTarget } from '../../core/health/routeCommand';
import { providerPrompts } from '../providers/providerPicks';
import type { InterfaceHealth } from '../../core/health/model';
import { bestOnInterface } from '../../core/health/route';
import type { ProviderSecrets } from '../requests/run';

export interface WatchDeps {
  readonly extensionUri: vscode.Uri;
  readonly log: Log;
  /** Resolving waits for the stored secrets to be loaded (ui/requests/run.ts's ProviderSecrets). */
  readonly secrets: ProviderSecrets;
  /** Keeps a console until it closes or the extension deactivates. */
  readonly keep: (d: vscode.Disposable) => void;
  readonly prompts?: Prompts;
  /** Health rows: the provider pick shows each provider's state and height (providerPicks.ts). */
  readonly health?: { rows(): readonly InterfaceHealth[] };
}

async function newWatch(deps: Pick<WatchDeps, 'log' | 'secrets'>, chosen: Chosen): Promise<Watch> {
  let wire: Provider;
  try {
    wire = await deps.secrets.resolved(chosen.provider); // secrets substituted; the log and views redact addresses
  } catch (err) {
    throw rewrapped(err);
  }
  return new Watch(watchTargetOf(wire, chosen), {
    headers: wire.headers && { ...wire.headers },
    bufferSize: readSettings().eventsBufferSize,
    log: (level, message) => deps.log[level](`[events] ${message}`),
    decodeLog: (l) => {
      const d = registryForHovers().decodeLogKnown(l, networkOf(chosen.provider));
      if (!d || d.kind === 'unknown') return undefined;
      const args = (d.args ?? []).slice(0, 4).map((a: { name: string; value: unknown }) => `${a.name || '?'}=${shortValue(a.value, 44)}`);
      return { line: `${d.name}(${args.join(', ')}${(d.args?.length ?? 0) > 4 ? ', …' : ''})${d.guessed ? ' (guessed)' : ''}`, decoded: d };
    },
  });
}

/** Opens a console; resolves with it (the command's result, for the in-editor tests) or undefined when cancelled. */
export async function watchEvents(deps: WatchDeps, arg?: unknown): Promise<EventConsole | undefined> {
  const prompts = deps.prompts ?? providerPrompts(windowPrompts, () => deps.health?.rows() ?? []);
  const providers = readSettings().providers.providers;
  // `"provider": "best"`: the healthy candidate ranked first on the stream's interface (the first candidate when none is ranked).
  const best = (candidates: readonly Provider[], iface: 'consensusWs' | 'evmWs') => bestOnInterface(candidates, deps.health?.rows() ?? [], iface);
  const chosen = await chooseWatch(arg, providers, prompts, currentNetworks(providers), best);
  if (!chosen) return undefined;
  const watch = await newWatch(deps, chosen);
  const view = new EventConsole(deps.extensionUri, watch, chosen.provider.name, watchTitle(chosen.provider.name, chosen), deps.log);
  deps.keep(view);
  view.start();
  return view;
}

function toApiEvent(e: WatchEntry): WatchEvent {
  return {
    kind: e.kind,
    at: new Date(e.at).toISOString(),
    ...(e.type ? { type: e.type } : {}),
    ...(e.height ? { height: e.height } : {}),
    ...(e.txHash ? { txHash: e.txHash } : {}),
    summary: e.summary,
    ...(e.data !== undefined ? { data: e.data } : {}),
    ...(e.decoded ? { decoded: e.decoded as DecodedResult } : {}),
  };
}

/** The API's watch(): no prompts; the argument must name the provider and what to watch. */
export async function watchForApi(
  deps: Pick<WatchDeps, 'log' | 'secrets' | 'health'>,
  spec: unknown,
  listener: (event: WatchEvent) => void,
): Promise<vscode.Disposable> {
  const providers = readSettings().providers.providers;
  const raw = spec && typeof spec === 'object' ? (spec as Record<string, unknown>) : undefined;
  // What to watch is read first (a bad query is said before anything else), the provider by the router: a name, or "best" (of `network`).
  const chosen = readWatchArgument(raw ? { ...raw, provider: undefined } : spec, providers);
  if (raw?.provider === undefined) throw new LocalizedError(l10n.both('watch() needs "provider": the name of a configured provider, or "best".'));
  if (chosen.query === undefined && chosen.evm === undefined)
    throw new LocalizedError(l10n.both('watch() needs "query" (CometBFT) or "evm" (an EVM subscription).'));
  const best = (candidates: readonly Provider[], iface: 'consensusWs' | 'evmWs') => bestOnInterface(candidates, deps.health?.rows() ?? [], iface);
  const networks = currentNetworks(providers);
  const route = routeTarget(watchTarget(chosen.evm !== undefined, chosen.query !== undefined, networks, best), raw, networks, providers);
  if (route.kind === 'refuse') throw new LocalizedError(route.message);
  if (route.kind !== 'run') throw new LocalizedError(l10n.both('watch() needs "provider": the name of a configured provider, or "best".'));
  const watch = await newWatch(deps, { provider: route.provider, query: chosen.query, evm: chosen.evm });
  watch.onBatch((entries) => {
    for (const e of entries) {
      try {
        listener(toApiEvent(e));
      } catch (err) {
        deps.log.warn(`[events] a watch() listener threw: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  });
  watch.start();
  return { dispose: () => watch.dispose() };
}
