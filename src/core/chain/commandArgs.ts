// What an operation command was given, read without the editor: a tree node or an object such as
// `{ provider: "Local node", height: "5", confirmed: true }` becomes the provider (when named), the
// valid arguments, and the parameters still to ask for. The editor side (ui/onDemand/resolveArgs.ts)
// asks for the rest.

import { LocalizedError } from '../base/errors';
import * as l10n from '../base/l10n';
import { INTERFACE_LABELS, type Provider, providerNamed } from '../config/providers';
import type { Operation, ParamSpec } from './operations';

export interface CommandArgument {
  /** The provider named by the argument (undefined: the user picks one of `candidates`). */
  provider?: Provider;
  /** Providers that publish the operation's interface. */
  candidates: Provider[];
  /** Valid arguments given (trimmed). */
  args: Record<string, string>;
  /** Parameters to ask for, in order (a programmatic call is never asked for optional ones). */
  missing: ParamSpec[];
  /** `confirmed: true` in the argument: a broadcast sent without the dialog. */
  confirmed: boolean;
}

/** A tree node of an operation (told apart by its `kind`, as the tree's nodes are). */
function operationNodeProvider(arg: unknown): string | undefined {
  if (typeof arg !== 'object' || arg === null || (arg as { kind?: unknown }).kind !== 'operation') return undefined;
  const name = (arg as { provider?: { name?: unknown } }).provider?.name;
  return typeof name === 'string' ? name : undefined;
}

/**
 * Reads a command's argument for `op` against the configured `providers`. Throws a LocalizedError
 * saying what to pass for an argument of the wrong type, an unknown provider, a provider without
 * the interface, no provider at all, or an argument its validator refuses.
 */
export function readCommandArgument(op: Operation, providers: readonly Provider[], arg: unknown): CommandArgument {
  const candidates = providers.filter((p) => p.endpoints[op.iface]);
  const given: Record<string, string> = {};
  let provider: Provider | undefined;
  let programmatic = false;
  let confirmed = false;

  const nodeProvider = operationNodeProvider(arg);
  if (nodeProvider !== undefined) {
    provider = providers.find((p) => p.name === nodeProvider) ?? (arg as { provider: Provider }).provider; // a node: its exact name
  } else if (arg !== undefined && arg !== null) {
    if (typeof arg !== 'object')
      throw new LocalizedError(l10n.both('The argument must be a tree item or an object such as {0}.', '{"provider": "Local node"}'));
    programmatic = true;
    for (const [k, v] of Object.entries(arg as Record<string, unknown>)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') given[k] = String(v);
    }
    confirmed = (arg as { confirmed?: unknown }).confirmed === true;
    if (given.provider !== undefined) {
      provider = providerNamed(providers, given.provider);
      if (!provider) {
        const known = providers.map((p) => `"${p.name}"`).join(', ');
        throw new LocalizedError(
          known
            ? l10n.both('No provider named "{0}". Configured providers: {1}.', given.provider, known)
            : l10n.both('No provider named "{0}". Configured providers: none.', given.provider),
        );
      }
    }
  }
  if (provider && !provider.endpoints[op.iface]) {
    throw new LocalizedError(l10n.both('Provider "{0}" has no {1} address.', provider.name, INTERFACE_LABELS[op.iface]));
  }
  if (!provider && candidates.length === 0) {
    throw new LocalizedError(l10n.both('No configured provider has a {0} address: add one with "Chain Endpoints: Add Provider".', INTERFACE_LABELS[op.iface]));
  }

  const args: Record<string, string> = {};
  const missing: ParamSpec[] = [];
  for (const p of op.params) {
    const value = given[p.key];
    if (value !== undefined) {
      const error = checkParam(p, value);
      if (error) throw new LocalizedError(error);
      args[p.key] = value.trim();
    } else if (!p.hidden && !(programmatic && p.optional)) {
      missing.push(p);
    }
  }
  return { provider, candidates, args, missing, confirmed };
}

/** The validator's sentence for `value`, or undefined when valid (blank is valid for an optional parameter). */
export function checkParam(p: ParamSpec, value: string): string | undefined {
  return value.trim() === '' && p.optional ? undefined : p.validate(value);
}
