// Turns an operation command's argument into a provider and complete, valid arguments, asking
// through `Prompts` only for what is missing (core/chain/commandArgs.ts reads the argument).
// `{ "provider": "best" }` (with `"network"` when several are configured) takes the ranked best that
// can serve the request. No vscode import: unit-tested with scripted prompts.

import { LocalizedError } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import { checkParam, readCommandArgument } from '../../core/chain/commandArgs';
import type { Args, Operation } from '../../core/chain/operations';
import { type Network, networkNamed, providerPickItems } from '../../core/config/networks';
import { INTERFACE_LABELS, type Provider, providerNamed } from '../../core/config/providers';
import { redactUrl } from '../../core/secrets/redact';
import type { Prompts } from '../prompts';

export interface Resolved {
  provider: Provider;
  args: Args;
  confirmed: boolean;
}

/**
 * The provider and complete arguments for `op`; undefined when the user dismisses a prompt.
 * `best`, when given, is offered first in the provider pick (first in each network's group): the
 * best provider for the request among that network's providers (src/ui/onDemand/capabilityCheck.ts),
 * chosen once the arguments are known.
 */
export async function resolveArgs(
  op: Operation,
  providers: readonly Provider[],
  arg: unknown,
  prompts: Prompts,
  /** The networks (grouping the pick by network when more than one). */
  networks: readonly Network[] = [],
  best?: (args: Args, among: readonly Provider[]) => Provider | undefined,
): Promise<Resolved | undefined> {
  const wanted = bestRequested(arg, providers, networks, (p) => Boolean(p.endpoints[op.iface]));
  const read = readCommandArgument(op, providers, wanted ? { ...(arg as object), provider: undefined } : arg);
  let provider = read.provider;
  let bestAmong: Provider[] | undefined = wanted;
  if (wanted) {
    if (wanted.length === 0) throw new LocalizedError(l10n.both('No provider of that network has a {0} address.', INTERFACE_LABELS[op.iface]));
    provider = wanted[0];
  } else if (!provider) {
    const items = providerPickItems(
      read.candidates,
      networks,
      (p) => redactUrl(p.endpoints[op.iface]!),
      best && { label: l10n.t('$(star) Best provider for this request'), description: l10n.t('the ranked best among those that can serve it') },
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
  if (bestAmong && best) provider = best(args, bestAmong) ?? provider;
  return { provider, args, confirmed: read.confirmed };
}

/**
 * `{ "provider": "best" }` (any case; a provider actually named so wins): the providers to choose
 * the best among, those of `network` (its name or chain id) when the argument names one, else of the
 * only network. undefined when the argument does not ask for the best. Throws, saying what to pass,
 * when several networks could be meant or the network named is unknown.
 */
export function bestRequested(
  arg: unknown,
  providers: readonly Provider[],
  networks: readonly Network[],
  usable: (p: Provider) => boolean,
): Provider[] | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const given = arg as { provider?: unknown; network?: unknown };
  if (typeof given.provider !== 'string' || given.provider.trim().toLowerCase() !== 'best') return undefined;
  if (providerNamed(providers, 'best')) return undefined;
  const groups = networks.length > 0 ? networks : [{ key: 'all', label: '', providers: [...providers], unidentified: true }];
  let group: Pick<Network, 'label' | 'providers'> | undefined;
  if (typeof given.network === 'string') {
    group = networkNamed(groups, given.network);
    if (!group) throw new LocalizedError(l10n.both('No network named "{0}". Networks: {1}.', given.network, groups.map((n) => `"${n.label}"`).join(', ')));
  } else {
    const serving = groups.filter((n) => n.providers.some(usable));
    if (serving.length > 1)
      throw new LocalizedError(
        l10n.both(
          '"best" needs the network too, such as {0}: {1} networks are configured.',
          `{"provider": "best", "network": "${serving[0].label}"}`,
          String(serving.length),
        ),
      );
    group = serving[0] ?? groups[0];
  }
  return group.providers.filter(usable);
}
