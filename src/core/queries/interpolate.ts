// A query file's values resolved when their request runs: variables, `${env:NAME}` (only the names
// the person running the file allowed; CHAIN_ENDPOINTS_SECRET_* never), `${secret:NAME}` (for the
// request's provider only), `{{request.path ± N}}` (never carrying another provider's secret). Every
// value is capped (MAX_VALUE_CHARS): variables that expand each other cannot build a bomb.

import type { Provider } from '../config/providers';
import { SecretMasker, masker } from '../secrets/mask';
import { type ResultRecord, asInteger } from './assertions/values';
import type { QueryFile } from './model';
import { type Located, type TemplatePart, getPath, pathText, scanTemplate } from './syntax';

/** The longest value a template may produce (characters): a raw transaction fits, a bomb does not. */
export const MAX_VALUE_CHARS = 1024 * 1024;
/** The most steps (template parts resolved) one value's expansion may take. */
export const MAX_EXPANSION_STEPS = 10_000;
/** Variables nest at most this deep. */
export const MAX_DEPTH = 8;
/** The environment variables of the CLI's secrets: never readable through `${env:}`. */
export const SECRET_ENV_PREFIX = 'CHAIN_ENDPOINTS_SECRET_';

export class ValueError extends Error {}

export interface ValueContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The environment variables `${env:NAME}` may read (the CLI's --allow-env, the editor's user setting); none when absent. */
  readonly allowEnv?: ReadonlySet<string>;
  /** How to allow a variable (names the flag or the setting). */
  envHint?(name: string): string;
  secretValue(p: Provider, name: string): string | undefined;
  secretHint?(p: Provider, name: string): string;
  readonly defaultProvider?: string;
  /** The secret values of every provider but `p`: a value containing one is never sent to `p`. */
  foreignSecrets?(p: Provider): readonly string[];
}

/** What an earlier request produced, as references read it. */
export interface EarlierRun {
  readonly runs: readonly { readonly provider: string; readonly record: ResultRecord }[];
  readonly error?: string;
}

export interface ValueScope {
  readonly file: QueryFile;
  readonly ctx: ValueContext;
  readonly done: ReadonlyMap<string, EarlierRun>;
}

/** Why `${env:NAME}` may not be read, or undefined when it may. */
export function envRefusal(name: string, allowed: ReadonlySet<string> | undefined, hint?: (name: string) => string): string | undefined {
  if (name.toUpperCase().startsWith(SECRET_ENV_PREFIX)) {
    return `${name} is never readable through \${env:}: secrets reach only their provider (use \${secret:NAME} in the provider)`;
  }
  if (!allowed?.has(name)) return `environment variable ${name} is not allowed: ${hint ? hint(name) : `allow it (--allow-env ${name})`}`;
  return undefined;
}

/** Resolves a value's variables, environment, secrets (only with a provider) and references. */
export function interpolate(v: Located, scope: ValueScope, provider: Provider | undefined, depth = 0): string {
  if (depth > MAX_DEPTH) throw new ValueError(`variables nest too deeply at line ${v.line} (a variable that uses itself?)`);
  if (!v.text.includes('${') && !v.text.includes('{{')) return v.text;
  let out = '';
  for (const p of scanTemplate(v, [])) {
    out += resolvePart(p, v, scope, provider, depth);
    if (out.length > MAX_VALUE_CHARS) {
      throw new ValueError(`line ${v.line}:${v.col}: the value is larger than ${MAX_VALUE_CHARS} characters once its variables are expanded`);
    }
  }
  return out;
}

function resolvePart(p: TemplatePart, v: Located, scope: ValueScope, provider: Provider | undefined, depth: number): string {
  const { ctx, file } = scope;
  switch (p.kind) {
    case 'text':
      return p.text;
    case 'var': {
      if (p.name === 'provider' && ctx.defaultProvider) return ctx.defaultProvider;
      const value = file.variables.get(p.name);
      if (!value) throw new ValueError(`line ${v.line}:${p.col}: variable "${p.name}" is not defined (add "@${p.name} = …")`);
      return interpolate(value, scope, provider, depth + 1);
    }
    case 'env': {
      const refused = envRefusal(p.name, ctx.allowEnv, ctx.envHint);
      if (refused) throw new ValueError(`line ${v.line}:${p.col}: ${refused}`);
      const set = ctx.env[p.name];
      if (set !== undefined) rememberEnvValue(set);
      const value = set ?? p.fallback;
      if (value === undefined) throw new ValueError(`line ${v.line}:${p.col}: environment variable ${p.name} is not set`);
      return value;
    }
    case 'secret': {
      if (!provider) throw new ValueError(`line ${v.line}:${p.col}: a secret can be used only in a request's arguments`);
      const value = ctx.secretValue(provider, p.name);
      if (value === undefined) {
        const hint = ctx.secretHint ? ` (${ctx.secretHint(provider, p.name)})` : '';
        throw new ValueError(`secret "${p.name}" is not set for provider "${provider.name}"${hint}`);
      }
      return value;
    }
    case 'ref': {
      const value = resolveRef(p, v, scope, provider);
      if (provider && ctx.foreignSecrets) {
        if (foreignMasker(ctx.foreignSecrets(provider)).finds(value)) {
          throw new ValueError(
            `line ${v.line}:${p.col}: {{${p.request}${p.path.length ? '.' + pathText(p.path) : ''}}} contains a secret of another provider: not sent to "${provider.name}"`,
          );
        }
      }
      return value;
    }
  }
}

/** A masker of other providers' secrets, in every form the masker knows (raw, URL-encoded, JSON-escaped, base64). */
const foreignMaskers = new Map<string, SecretMasker>();
function foreignMasker(values: readonly string[]): SecretMasker {
  const key = values.join('\u0000');
  let m = foreignMaskers.get(key);
  if (!m) {
    m = new SecretMasker();
    m.set(values);
    if (foreignMaskers.size >= 16) foreignMaskers.clear();
    foreignMaskers.set(key, m);
  }
  return m;
}

/** Values read from the environment are masked wherever text is shown, like secrets. */
function rememberEnvValue(value: string): void {
  const known = masker.group('env');
  if (value.length >= 3 && !known.includes(value)) masker.setGroup('env', [...known, value]);
}

function resolveRef(p: Extract<TemplatePart, { kind: 'ref' }>, v: Located, scope: ValueScope, provider: Provider | undefined): string {
  const where = `line ${v.line}:${p.col}: {{${p.request}${p.path.length ? '.' + pathText(p.path) : ''}}}`;
  const earlier = scope.done.get(p.request);
  if (!earlier) throw new ValueError(`${where}: no earlier request "${p.request}" has run`);
  // A fan-out's result on the same provider when there is one, else its first successful one.
  const run = earlier.runs.find((r) => r.provider === provider?.name && !r.record.error) ?? earlier.runs.find((r) => !r.record.error);
  if (!run) throw new ValueError(`${where}: request "${p.request}" has no result${earlier.error ? ` (${earlier.error})` : ''}`);
  const got = getPath(run.record, p.path);
  if (!got.found || got.value === undefined) throw new ValueError(`${where}: not in the result of "${p.request}"`);
  if (p.offset !== 0n) {
    const n = asInteger(got.value);
    if (n === undefined) throw new ValueError(`${where}: not an integer, so ${p.offset > 0n ? '+' : '-'} cannot apply`);
    return (n + p.offset).toString();
  }
  const text = typeof got.value === 'string' ? got.value : JSON.stringify(got.value);
  if (text.length > MAX_VALUE_CHARS) throw new ValueError(`${where}: the value is larger than ${MAX_VALUE_CHARS} characters`);
  return text;
}

/**
 * The length a variable's value reaches once expanded, counted without building it (environment,
 * secrets and references count as their own text): how the checks refuse a bomb before any request.
 * Stops counting past `cap`.
 */
export function expandedLength(v: Located, file: QueryFile, cap = MAX_VALUE_CHARS, memo = new Map<string, number>(), depth = 0): number {
  if (depth > MAX_DEPTH || !v.text.includes('${')) return v.text.length;
  let n = 0;
  for (const p of scanTemplate(v, [])) {
    if (p.kind === 'text') n += p.text.length;
    else if (p.kind === 'var') {
      let known = memo.get(p.name);
      if (known === undefined) {
        const value = file.variables.get(p.name);
        memo.set(p.name, 0); // a cycle counts as nothing here (the runner reports it)
        known = value ? expandedLength(value, file, cap, memo, depth + 1) : 0;
        memo.set(p.name, known);
      }
      n += known;
    } else n += p.length;
    if (n > cap) return n;
  }
  return n;
}
