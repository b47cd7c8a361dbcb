// Secrets: a provider's `headers` values and addresses may reference `${secret:NAME}`; the value
// lives in VS Code's SecretStorage, never in settings. Requests are made with the values
// substituted; everything shown (documents, logs, errors, copied commands) is masked by the one
// masker (mask.ts), which redactUrl() and renderDocument() pass through.

import { EndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import { INTERFACES, type Provider } from './providers';

export const SECRET_REF = /\$\{secret:([A-Za-z0-9_.-]+)\}/g;
export const SECRET_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** The secret names a provider's addresses and headers reference. */
export function secretNames(p: Provider): string[] {
  const texts = [...INTERFACES.map((i) => p.endpoints[i] ?? ''), ...Object.values(p.headers ?? {})];
  const names = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(SECRET_REF)) names.add(m[1]);
  return [...names];
}

/** Replaces every `${secret:NAME}` with its value; a missing one is an input error naming it. */
export function substitute(text: string, values: ReadonlyMap<string, string>, encode = false): string {
  return text.replace(SECRET_REF, (_, name: string) => {
    const value = values.get(name);
    if (value === undefined) {
      throw new EndpointError('input', l10n.both('Secret "{0}" is not set: run "Chain Endpoints: Set Secret" and give it a value.', name));
    }
    return encode ? encodeURIComponent(value) : value;
  });
}

/** The provider as the network sees it: secrets substituted in addresses and headers. */
export function resolveProvider(p: Provider, values: ReadonlyMap<string, string>): Provider {
  const endpoints: Provider['endpoints'] = {};
  for (const i of INTERFACES) {
    const a = p.endpoints[i];
    if (a) endpoints[i] = substitute(a, values, true);
  }
  const headers = p.headers ? Object.fromEntries(Object.entries(p.headers).map(([k, v]) => [k, substitute(v, values)])) : undefined;
  return { ...p, endpoints, ...(headers ? { headers } : {}) };
}
