// Secrets: a provider's `headers` values and addresses may reference `${secret:NAME}`; the value
// lives in VS Code's SecretStorage, never in settings. Requests are made with the values
// substituted; everything shown (documents, logs, errors, copied commands) is masked by the one
// masker (mask.ts), which redactUrl() and renderDocument() pass through.

import { EndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import { type SecretMasker, masker } from '../secrets/mask';
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

/**
 * Where a run's secrets come from: the environment for the CLI and the exporter (envSecrets.ts),
 * SecretStorage in the editor (secretScope.ts's storedSecrets(), fed by ui/providers/secretStore.ts). Each
 * source only answers questions; what is built on them (the provider as the network sees it, the
 * value of `${secret:NAME}`, its hint, the values that must never reach another provider, what is
 * masked) is built once, by resolveWith() and secretContext() below.
 */
export interface SecretSource {
  /** Why `p` never receives a secret (it comes from a file nobody chose to trust with one), naming `name`; undefined when it may. */
  refusal(p: Provider, name: string): string | l10n.Message | undefined;
  /** The value set for secret `name` of `p` (refusal() aside), or undefined. */
  lookup(p: Provider, name: string): string | undefined;
  /** The sentence for secret `name` of `p` that is not set. */
  notSet(p: Provider, name: string): string | l10n.Message;
  /** How to give `name` a value for `p` (said after a query file's `${secret:NAME}` that has none). */
  hint(p: Provider, name: string): string;
  /** Every secret value set, each with the providers it belongs to. */
  entries(): readonly SecretEntry[];
}

export interface SecretEntry {
  readonly value: string;
  /** Whether the value is a secret of `p` (set for it). */
  ownedBy(p: Provider): boolean;
}

/**
 * The provider as the network sees it, with only its own secrets from `source`: refused before
 * anything is sent when `p` may receive none (source.refusal) or one is not set (source.notSet).
 */
export function resolveWith(source: SecretSource, p: Provider): Provider {
  const names = secretNames(p);
  if (names.length === 0) return p;
  const refused = source.refusal(p, names[0]);
  if (refused !== undefined) throw new EndpointError('input', refused);
  const values = new Map<string, string>();
  for (const name of names) {
    const value = source.lookup(p, name);
    if (value === undefined) throw new EndpointError('input', source.notSet(p, name));
    values.set(name, value);
  }
  return resolveProvider(p, values);
}

/** What the query pipeline (core/queries: RunContext, ValueContext) reads about secrets, built from one source. */
export interface SecretContext {
  /** The provider as the network sees it (resolveWith). */
  resolveProvider(p: Provider): Provider;
  /** The value of `${secret:NAME}` for `p`, or undefined when not set or `p` may receive none. */
  secretValue(p: Provider, name: string): string | undefined;
  /** How to set it: the source's refusal when `p` may receive none, else its hint. */
  secretHint(p: Provider, name: string): string;
  /** The secret values that are not `p`'s: a value containing one is never sent to `p`. */
  foreignSecrets(p: Provider): readonly string[];
  /** The masker every shown text of the run goes through (fed with the source's values). */
  readonly masker: SecretMasker;
}

/**
 * The one way secrets reach the query pipeline: resolution, lookup, hints and the foreign-secret
 * list from `source`, and `masker` (the process's one by default) fed with every value it holds.
 * The editor and the command line both call it, so they refuse the same things.
 */
export function secretContext(source: SecretSource, mask: SecretMasker = masker): SecretContext {
  const entries = source.entries();
  const values = entries.map((e) => e.value);
  // Set only when they differ (in any order): a change makes every cache of masked text start again.
  const known = new Set(mask.group(''));
  if (known.size !== new Set(values).size || values.some((v) => !known.has(v))) mask.set(values);
  const shown = (m: string | l10n.Message) => (typeof m === 'string' ? m : m.shown);
  const secretValue = (p: Provider, name: string) => (source.refusal(p, name) === undefined ? source.lookup(p, name) : undefined);
  const foreign = new Map<Provider, readonly string[]>();
  return {
    masker: mask,
    resolveProvider: (p) => resolveWith(source, p),
    secretValue,
    secretHint: (p, name) => {
      const refused = source.refusal(p, name);
      return refused === undefined ? source.hint(p, name) : shown(refused);
    },
    foreignSecrets: (p) => {
      let list = foreign.get(p);
      if (!list) {
        // A value set for `p` too is not foreign to it (two providers may share one): `p` has it already.
        const own = new Set(source.refusal(p, '') === undefined ? entries.filter((e) => e.ownedBy(p)).map((e) => e.value) : []);
        list = entries.filter((e) => !own.has(e.value)).map((e) => e.value);
        foreign.set(p, list);
      }
      return list;
    },
  };
}
