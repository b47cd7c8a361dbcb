// Turns an operation command's argument into a provider and complete, valid arguments, asking
// through `Prompts` only for what is missing. Which provider runs it (a tree node, a name, "best"
// of a network, or the pick's candidates), or why none can, is the router's
// (core/health/routeCommand.ts); the arguments are read by core/chain/commandArgs.ts. Here: the
// pick, the missing parameters, a refusal turned into a LocalizedError. No vscode import:
// unit-tested with scripted prompts.

import { LocalizedError } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import { checkParam, readCommandArgument } from '../../core/chain/commandArgs';
import type { Args, Operation } from '../../core/chain/operations';
import { type Network, groupPickItems } from '../../core/config/networks';
import type { Provider } from '../../core/config/providers';
import { type RouteContext, rankFor } from '../../core/health/route';
import { type RouteInput, routeCommand } from '../../core/health/routeCommand';
import { redactUrl } from '../../core/secrets/redact';
import type { Prompts } from '../base/prompts';

export interface Resolved {
  provider: Provider;
  args: Args;
  confirmed: boolean;
}

/**
 * The provider and complete arguments for `op`; undefined when the user dismisses a prompt.
 * `ctx`: the providers and, when health runs, what ranks them (the router's input). With a ranking,
 * the pick offers "best" first in each network's group, and "best" (picked or asked for) is the
 * router's ranked best among that network's providers once the arguments are known.
 */
export async function resolveArgs(
  op: Operation,
  ctx: RouteInput,
  arg: unknown,
  prompts: Prompts,
  /** The networks (grouping the pick by network when more than one). */
  networks: readonly Network[] = [],
): Promise<Resolved | undefined> {
  const ranking = ctx.capabilities && ctx.rows ? (ctx as RouteContext) : undefined;
  const route = routeCommand(op, arg, networks, ctx);
  if (route.kind === 'refuse') throw new LocalizedError(route.message);
  const read = readCommandArgument(op, arg);
  let provider: Provider;
  let bestAmong: readonly Provider[] | undefined;
  if (route.kind === 'run') {
    provider = route.provider;
    bestAmong = route.among;
  } else {
    const items = groupPickItems(
      route.groups ?? [{ providers: [...route.candidates] }],
      (p) => redactUrl(p.endpoints[op.iface]!),
      ranking && { label: l10n.t('$(star) Best provider for this request'), description: l10n.t('the ranked best among those that can serve it') },
    );
    const picked = await prompts.pick(items, { title: op.title, placeHolder: l10n.t('Provider for {0}', op.label) });
    if (!picked) return undefined;
    provider = picked.provider;
    bestAmong = picked.among;
  }
  const args = { ...read.args };
  for (const p of read.missing) {
    if (p.choices) {
      // An enum: picked, not typed (an optional one can be left out).
      const items = [...p.choices.map((c) => ({ label: c, value: c })), ...(p.optional ? [{ label: l10n.t('(leave out)'), value: '' }] : [])];
      const chosen = await prompts.pick(items, { title: bestAmong ? op.title : `${op.title} · ${provider.name}`, placeHolder: p.prompt });
      if (!chosen) return undefined;
      if (chosen.value !== '') args[p.key] = chosen.value;
      continue;
    }
    const typed = await prompts.input({
      title: bestAmong ? op.title : `${op.title} · ${provider.name}`,
      prompt: p.prompt,
      placeHolder: p.placeholder,
      validate: (text) => checkParam(p, text),
    });
    if (typed === undefined) return undefined;
    if (typed.trim() !== '' || !p.optional) args[p.key] = typed.trim();
  }
  // "best": ranked again now that the arguments are known (a height only some providers still keep).
  if (bestAmong && ranking) provider = rankFor(op, args, bestAmong, ranking)[0] ?? provider;
  return { provider, args, confirmed: read.confirmed };
}
