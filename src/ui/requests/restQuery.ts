// REST: Query a Module Route… (chainEndpoints.rest.query): one palette command over every module
// route (generated and imported), searchable by module, RPC, path and summary, each saying which
// providers serve its module when that is known. With an argument it runs a route directly:
// `{ operation: "staking.Validators", provider, <param>: value }` (what next-page and denom links in
// result documents pass), or a tree node of a route. The route then runs like every operation
// (src/ui/requests/runOperation.ts): provider pick, typed prompts, capabilities, history.
// The items are built without vscode (unit-tested and benchmarked).

import { LocalizedError } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import { type Operation, findOperation, routeOperations } from '../../core/chain/operations';
import type { Provider } from '../../core/config/providers';
import type { Capabilities } from '../../core/health/capabilities';
import { restModuleOf } from '../../core/health/serves';
import type { CommandDeps } from '../base/deps';
import { type PickItem, type Prompts } from '../base/prompts';

export interface RoutePickItem extends PickItem {
  detail: string;
  operation: Operation;
}

/** The capability key of a route's module (`staking`, `ibc.client`, `evm`; an imported route: `chain:<network>`). */
export function moduleKeyOf(op: Operation): string | undefined {
  const route = op.route;
  if (!route) return undefined;
  return route.source.startsWith('import:') ? undefined : restModuleOf(route.path);
}

/**
 * Which providers serve a module, when known: `not served by A · served by B`. Providers whose
 * capabilities say nothing are left out; undefined when nothing is known.
 */
export function servedNote(key: string | undefined, providers: readonly Provider[], capsOf: (name: string) => Capabilities | undefined): string | undefined {
  if (!key) return undefined;
  const yes: string[] = [];
  const no: string[] = [];
  for (const p of providers) {
    if (!p.endpoints.rest) continue;
    const served = capsOf(p.name)?.rest?.modules[key];
    if (served === true) yes.push(p.name);
    else if (served === false) no.push(p.name);
  }
  if (no.length === 0) return undefined;
  return yes.length
    ? l10n.t('not served by {0} · served by {1}', no.join(', '), yes.join(', '))
    : l10n.t('not served by {0} (no provider known to serve it)', no.join(', '));
}

/** The pick's items: one per route, grouped by module, searchable by module, path and summary. */
export function routePickItems(ops: readonly Operation[], providers: readonly Provider[], capsOf: (name: string) => Capabilities | undefined): RoutePickItem[] {
  const notes = new Map<string, string | undefined>();
  return ops.map((op) => {
    const r = op.route!;
    const key = moduleKeyOf(op);
    const k = key ?? '';
    if (!notes.has(k)) notes.set(k, servedNote(key, providers, capsOf));
    const note = notes.get(k);
    return {
      label: `${r.module}: ${r.rpc}`,
      description: r.path,
      detail: note ? `$(circle-slash) ${note} — ${r.summary}` : r.summary,
      group: r.module.split('.')[0] === 'ibc' ? 'ibc' : r.source.startsWith('import:') ? r.source.slice('import:'.length) : r.source,
      operation: op,
    };
  });
}

/** The route to run for the command's argument; undefined: ask with the pick. */
export function routeOfArgument(arg: unknown): { op: Operation; arg: unknown } | undefined {
  // A tree node of a route (told apart by its kind: treeNodes.ts imports vscode).
  if (typeof arg === 'object' && arg !== null && (arg as { kind?: unknown }).kind === 'operation')
    return { op: (arg as { operation: Operation }).operation, arg };
  if (typeof arg !== 'object' || arg === null) return undefined;
  const name = (arg as { operation?: unknown }).operation;
  if (typeof name !== 'string') return undefined;
  const op = findOperation(name);
  if (!op?.route) throw new LocalizedError(l10n.both('No module route "{0}": run "REST: Query a Module Route…" to see them.', name.slice(0, 80)));
  const rest = { ...(arg as Record<string, unknown>) };
  delete rest.operation;
  return { op, arg: rest };
}

export async function pickRoute(
  prompts: Prompts,
  providers: readonly Provider[],
  capsOf: (name: string) => Capabilities | undefined,
): Promise<Operation | undefined> {
  const items = routePickItems(routeOperations(), providers, capsOf);
  const picked = await prompts.pick(items, {
    title: l10n.t('REST: query a module route ({0} routes)', items.length),
    placeHolder: l10n.t('Type a module, an RPC, a path or words of its summary (staking validators, supply, token_pairs…)'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.operation;
}

export type RunRoute = (deps: CommandDeps, op: Operation, arg?: unknown) => Promise<unknown>;

/** The command: run the route the argument names, else pick one, then run it like any operation. */
export async function restQuery(deps: CommandDeps, arg: unknown, prompts: Prompts, providers: readonly Provider[], run: RunRoute): Promise<unknown> {
  const given = routeOfArgument(arg);
  if (given) return run(deps, given.op, given.arg);
  const op = await pickRoute(prompts, providers, (n) => deps.health?.capabilities(n));
  return op ? run(deps, op) : undefined;
}
