// Turns an operation command's argument into a provider and complete, valid arguments, asking
// through `Prompts` only for what is missing (core/chain/commandArgs.ts reads the argument). No
// vscode import: unit-tested with scripted prompts.

import * as l10n from '../../core/base/l10n';
import { checkParam, readCommandArgument } from '../../core/chain/commandArgs';
import type { Args, Operation } from '../../core/chain/operations';
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
 * `best`, when given, is offered first in the provider pick: the best provider for the request
 * with its arguments (src/ui/onDemand/capabilityCheck.ts), chosen once they are known.
 */
export async function resolveArgs(
  op: Operation,
  providers: readonly Provider[],
  arg: unknown,
  prompts: Prompts,
  best?: (args: Args) => Provider | undefined,
): Promise<Resolved | undefined> {
  const read = readCommandArgument(op, providers, arg);
  let provider = read.provider;
  let pickBest = false;
  if (!provider) {
    const items: { label: string; description?: string; provider: Provider; best?: boolean }[] = read.candidates.map((p) => ({
      label: p.name,
      description: redactUrl(p.endpoints[op.iface]!),
      provider: p,
    }));
    if (best && read.candidates.length > 1) {
      items.unshift({
        label: l10n.t('$(star) Best provider for this request'),
        description: l10n.t('the ranked best among those that can serve it'),
        provider: read.candidates[0],
        best: true,
      });
    }
    const picked = await prompts.pick(items, { title: op.title, placeHolder: l10n.t('Provider for {0}', op.label) });
    if (!picked) return undefined;
    provider = picked.provider;
    pickBest = picked.best === true;
  }
  const args = { ...read.args };
  for (const p of read.missing) {
    const typed = await prompts.input({
      title: pickBest ? op.title : `${op.title} · ${provider.name}`,
      prompt: p.prompt,
      placeHolder: p.placeholder,
      validate: (text) => checkParam(p, text),
    });
    if (typed === undefined) return undefined;
    args[p.key] = typed.trim();
  }
  if (pickBest && best) provider = best(args) ?? provider;
  return { provider, args, confirmed: read.confirmed };
}
