// Turns an operation command's argument into a provider and complete, valid arguments, asking
// through `Prompts` only for what is missing (core/chain/commandArgs.ts reads the argument). No
// vscode import: unit-tested with scripted prompts.

import * as l10n from '../../core/base/l10n';
import { checkParam, readCommandArgument } from '../../core/chain/commandArgs';
import type { Args, Operation } from '../../core/chain/operations';
import { type Network, groupForPick } from '../../core/config/networks';
import type { Provider } from '../../core/config/providers';
import { redactUrl } from '../../core/secrets/redact';
import type { Prompts } from '../prompts';

export interface Resolved {
  provider: Provider;
  args: Args;
  confirmed: boolean;
}

/** The provider and complete arguments for `op`; undefined when the user dismisses a prompt. */
export async function resolveArgs(
  op: Operation,
  providers: readonly Provider[],
  arg: unknown,
  prompts: Prompts,
  /** The networks (grouping the pick by network when more than one). */
  networks: readonly Network[] = [],
): Promise<Resolved | undefined> {
  const read = readCommandArgument(op, providers, arg);
  let provider = read.provider;
  if (!provider) {
    const picked = await prompts.pick(
      groupForPick(read.candidates, networks).map(({ provider: p, group }) => ({
        label: p.name,
        description: redactUrl(p.endpoints[op.iface]!),
        provider: p,
        ...(group !== undefined ? { group } : {}),
      })),
      { title: op.title, placeHolder: l10n.t('Provider for {0}', op.label) },
    );
    if (!picked) return undefined;
    provider = picked.provider;
  }
  const args = { ...read.args };
  for (const p of read.missing) {
    const typed = await prompts.input({
      title: `${op.title} · ${provider.name}`,
      prompt: p.prompt,
      placeHolder: p.placeholder,
      validate: (text) => checkParam(p, text),
    });
    if (typed === undefined) return undefined;
    args[p.key] = typed.trim();
  }
  return { provider, args, confirmed: read.confirmed };
}
