// Turns an operation command's argument into a provider and complete, valid arguments, asking
// through `Prompts` only for what is missing (core/chain/commandArgs.ts reads the argument). No
// vscode import: unit-tested with scripted prompts.

import * as l10n from '../../core/base/l10n';
import { checkParam, readCommandArgument } from '../../core/chain/commandArgs';
import type { Args, Operation } from '../../core/chain/operations';
import { type Network, providerPickItems } from '../../core/config/networks';
import type { Provider } from '../../core/config/providers';
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
  const read = readCommandArgument(op, providers, arg);
  let provider = read.provider;
  let bestAmong: Provider[] | undefined;
  if (!provider) {
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
    const typed = await prompts.input({
      title: bestAmong ? op.title : `${op.title} · ${provider.name}`,
      prompt: p.prompt,
      placeHolder: p.placeholder,
      validate: (text) => checkParam(p, text),
    });
    if (typed === undefined) return undefined;
    args[p.key] = typed.trim();
  }
  if (bestAmong && best) provider = best(args, bestAmong) ?? provider;
  return { provider, args, confirmed: read.confirmed };
}
