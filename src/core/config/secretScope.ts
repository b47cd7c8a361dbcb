// Secret scope: a secret belongs to one provider of the user's settings and is substituted only
// into that provider's own addresses and headers. A provider defined in workspace settings (a
// cloned repository's .vscode/settings.json) never receives a secret value: its request is refused
// before anything is sent. Never imports vscode: the settings levels come in as plain JSON.

import * as l10n from '../base/l10n';
import { type InspectedSetting, type Provider } from './providers';
import { SECRET_REF, type SecretSource, resolveWith, secretNames } from './secrets';

/** Where a provider's definition comes from. */
export type ProviderOrigin = 'user' | 'workspace';

/** Shorter values cannot be masked safely (they would shred ordinary text, or stay visible). */
export const MIN_SECRET_LENGTH = 8;

/**
 * The origin of the providers `effectiveProvidersSetting` returns: a workspace or folder level,
 * when it is used (trusted workspace), replaces the user's list, so every provider of it is a
 * workspace provider, even one with the same name as a user provider.
 */
export function providersOrigin(inspected: InspectedSetting | undefined, trusted: boolean): ProviderOrigin {
  const i = inspected ?? {};
  return trusted && (i.workspaceFolderValue !== undefined || i.workspaceValue !== undefined) ? 'workspace' : 'user';
}

/** The key a secret is kept under: one provider (by name, case-insensitive) and one name. */
export function bindingKey(provider: string, name: string): string {
  return `${encodeURIComponent(provider.trim().toLowerCase())}/${name}`;
}

/** Why a value cannot be a secret, or undefined when it can. */
export function secretValueProblem(value: string): string | undefined {
  if (value.length < MIN_SECRET_LENGTH) {
    return l10n.t('A secret must have at least {0} characters: a shorter value cannot be masked safely in documents and logs.', MIN_SECRET_LENGTH);
  }
  return undefined;
}

/** Why a provider of `origin` never receives a secret (it references `name`), or undefined when it may. */
function workspaceRefusal(p: Provider, origin: ProviderOrigin | undefined, name: string): l10n.Message | undefined {
  if (origin === 'user') return undefined;
  return l10n.both(
    'Provider "{0}" is defined in workspace settings, so it never receives a secret: the request was refused before sending because it references {1}. Secrets are set for a provider of your user settings and sent only to its own addresses; define "{0}" in user settings to use one.',
    p.name,
    `\${secret:${name}}`,
  );
}

/** A secret of a user-settings provider that is not set. */
function notSetForProvider(p: Provider, name: string): l10n.Message {
  return l10n.both('Secret "{0}" is not set for provider "{1}": run "Chain Endpoints: Set Secret", pick "{1}" and give it a value.', name, p.name);
}

/** One stored secret: the provider it is bound to, its name and value. */
export interface StoredSecret {
  readonly provider: string;
  readonly name: string;
  readonly value: string;
}

/**
 * The editor's secret source (secrets.ts's SecretSource) over the stored secrets (ui/providers/secretStore.ts
 * holds them, `get` by bindingKey): a secret belongs to the user-settings provider it is bound to; a workspace provider
 * receives none. `hint` says how to set one (the editor's command, translated).
 */
export function storedSecrets(
  stored: { get(key: string): string | undefined; all(): Iterable<StoredSecret> },
  hint: (p: Provider, name: string) => string,
): SecretSource {
  return {
    refusal: (p, name) => workspaceRefusal(p, p.origin, name),
    lookup: (p, name) => stored.get(bindingKey(p.name, name)),
    notSet: notSetForProvider,
    hint,
    entries: () =>
      [...stored.all()].map((s) => ({
        value: s.value,
        ownedBy: (p: Provider) => p.origin === 'user' && bindingKey(p.name, '') === bindingKey(s.provider, ''),
      })),
  };
}

/**
 * The provider as the network sees it, with only its own secrets (`lookup(name)` gives the value
 * set for this provider). A workspace provider that references a secret is refused with a sentence
 * naming the secret and why; so is a missing secret.
 */
export function resolveScoped(p: Provider, origin: ProviderOrigin | undefined, lookup: (name: string) => string | undefined): Provider {
  return resolveWith(
    {
      refusal: (q, name) => workspaceRefusal(q, origin, name),
      lookup: (_, name) => lookup(name),
      notSet: notSetForProvider,
      hint: () => '',
      entries: () => [],
    },
    p,
  );
}

/**
 * Secrets set before they were bound to a provider: each old name goes to every user-settings
 * provider that references it. Names no such provider references are `unbound`.
 */
export function migrationPlan(
  oldNames: readonly string[],
  userProviders: readonly Provider[],
): { bind: { provider: string; name: string }[]; unbound: string[] } {
  const bind: { provider: string; name: string }[] = [];
  const unbound: string[] = [];
  for (const name of oldNames) {
    const users = userProviders.filter((p) => secretNames(p).includes(name));
    if (users.length === 0) unbound.push(name);
    for (const p of users) bind.push({ provider: p.name, name });
  }
  return { bind, unbound };
}

const REFERENCE = /\$(\{|%7B)secret:/i;

/**
 * The path of the first string in `value` that holds a secret reference (`${secret:`, also
 * URL-encoded), or undefined. An imported file must never refer to the user's secrets.
 */
export function findSecretReference(value: unknown, path = '$', depth = 0): string | undefined {
  if (typeof value === 'string') return REFERENCE.test(value) ? path : undefined;
  if (depth > 64 || typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findSecretReference(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [k, v] of Object.entries(value)) {
    if (REFERENCE.test(k)) return `${path}.${k}`;
    const found = findSecretReference(v, path === '$' ? k : `${path}.${k}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The secret names a text references (for messages). */
export function referencedNames(text: string): string[] {
  return [...text.matchAll(SECRET_REF)].map((m) => m[1]);
}
