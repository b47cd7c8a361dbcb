// Secrets from environment variables: the source (secrets.ts's SecretSource) of the command line
// (`chain-endpoints run`, core/queries/cli.ts) and of the exporter (`serve`, core/monitor/serve.ts).
// Secret NAME of provider P is CHAIN_ENDPOINTS_SECRET_<P>__<NAME> (secretEnvName: an encoding in
// which two (provider, name) pairs never share a variable); every such variable is a secret.

import type { Provider } from './providers';
import type { SecretEntry, SecretSource } from './secrets';

/** The environment variables of secrets: never readable through a query file's `${env:}`. */
export const SECRET_ENV_PREFIX = 'CHAIN_ENDPOINTS_SECRET_';

/** One part of a secret's variable: letters upper-cased, digits kept, anything else `_XX` (or `_UXXXX`). */
function encodePart(s: string): string {
  let out = '';
  for (const ch of s) {
    if (/[A-Za-z0-9]/.test(ch)) out += ch.toUpperCase();
    else {
      const code = ch.codePointAt(0)!;
      if (code <= 0xff) out += `_${code.toString(16).toUpperCase().padStart(2, '0')}`;
      else for (const unit of ch.split('')) out += `_U${unit.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    }
  }
  return out;
}

/**
 * The environment variable holding secret `name` of provider `provider`. Injective up to letter
 * case (provider names are unique regardless of case): within a part every "_" is followed by a hex
 * digit or U, so the first "__" is the separator.
 */
export function secretEnvName(provider: string, name: string): string {
  return `${SECRET_ENV_PREFIX}${encodePart(provider)}__${encodePart(name)}`;
}

export interface EnvSecretsOptions {
  /** Why a provider never receives a secret (the CLI: one from the repository's own settings file); undefined when it may. */
  refusal?(p: Provider): string | undefined;
}

/** The secrets of `env`: each variable under SECRET_ENV_PREFIX, owned by the provider its name encodes. */
export function envSecrets(env: Readonly<Record<string, string | undefined>>, options: EnvSecretsOptions = {}): SecretSource {
  const entries: SecretEntry[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    const key = k.toUpperCase();
    if (!key.startsWith(SECRET_ENV_PREFIX)) continue;
    // Its own variables (CHAIN_ENDPOINTS_SECRET_<P>__…, a prefix no other provider's has).
    entries.push({ value: v, ownedBy: (p) => key.startsWith(secretEnvName(p.name, '')) });
  }
  return {
    refusal: (p) => options.refusal?.(p),
    lookup: (p, name) => env[secretEnvName(p.name, name)],
    notSet: (p, name) => `secret "${name}" of provider "${p.name}" is not set: set ${secretEnvName(p.name, name)}`,
    hint: (p, name) => `set ${secretEnvName(p.name, name)}`,
    entries: () => entries,
  };
}
