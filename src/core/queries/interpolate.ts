// A query file's values resolved when their request runs: variables, `${env:NAME}` (only the names
// the person running the file allowed; CHAIN_ENDPOINTS_SECRET_* never), `${secret:NAME}` (for the
// request's provider only), `{{request.path ± N}}` (never carrying another provider's secret). Every
// value is capped (MAX_VALUE_CHARS) and so is the work of building it: each variable is expanded once
// per file run and provider (Expansions), and one value takes at most MAX_EXPANSION_STEPS steps, so
// variables that expand each other build neither a bomb nor a loop of empty strings.

import { SECRET_ENV_PREFIX } from '../config/envSecrets';
import type { Provider } from '../config/providers';
import { SecretMasker, masker } from '../secrets/mask';
import { type ResultRecord, asInteger } from './assertions/values';
import type { QueryFile } from './model';
import { type Located, type TemplatePart, getPath, hasTemplate, pathText, templateParts } from './syntax';

/** The environment variables of the CLI's secrets (core/config/envSecrets.ts): never readable through `${env:}`. */
export { SECRET_ENV_PREFIX } from '../config/envSecrets';

/** The longest value a template may produce (characters): a raw transaction fits, a bomb does not. */
export const MAX_VALUE_CHARS = 1024 * 1024;
/** The most steps (template parts resolved) one value's expansion may take. */
export const MAX_EXPANSION_STEPS = 10_000;
/** Variables nest at most this deep. */
export const MAX_DEPTH = 8;

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
  /**
   * The masker of the run (core/config/secrets.ts's secretContext hands one in, fed from the secret
   * source): errors, arguments and values read from the environment are masked with it. Default: the process's one.
   */
  readonly masker?: SecretMasker;
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
  /** The variables expanded so far in this file run (each once); without it, once per value. */
  readonly expanded?: Expansions;
}

/** Why `${env:NAME}` may not be read, or undefined when it may. */
export function envRefusal(name: string, allowed: ReadonlySet<string> | undefined, hint?: (name: string) => string): string | undefined {
  if (name.toUpperCase().startsWith(SECRET_ENV_PREFIX)) {
    return `${name} is never readable through \${env:}: secrets reach only their provider (use \${secret:NAME} in the provider)`;
  }
  if (!allowed?.has(name)) return `environment variable ${name} is not allowed: ${hint ? hint(name) : `allow it (--allow-env ${name})`}`;
  return undefined;
}

/** The characters a file run keeps of its expanded variables (Expansions). */
export const MAX_MEMO_CHARS = 16 * 1024 * 1024;

/**
 * Variables already expanded in one file run, by provider and name: each is expanded once, however
 * often it is used. At most MAX_MEMO_CHARS characters are kept; past them a variable is expanded
 * again at each use, still within MAX_EXPANSION_STEPS per value.
 */
export class Expansions {
  private readonly byKey = new Map<string, Expanded>();
  private chars = 0;

  get(key: string): Expanded | undefined {
    return this.byKey.get(key);
  }

  set(key: string, e: Expanded): void {
    if (this.chars + e.text.length > MAX_MEMO_CHARS) return;
    this.chars += e.text.length;
    this.byKey.set(key, e);
  }
}

/** A variable's value expanded, and how many variables deep it goes below itself. */
interface Expanded {
  readonly text: string;
  readonly height: number;
}

/** One value's expansion: its steps so far (the bound), the variables known, the value it started from (errors name it). */
interface Expansion {
  steps: number;
  readonly memo: Expansions;
  readonly top: Located;
}

/**
 * Resolves a value's variables, environment, secrets (only with a provider) and references. Each
 * variable is expanded once per scope (its `expanded`, or this call) and provider; one value's
 * expansion takes at most MAX_EXPANSION_STEPS steps (a template part resolved, a variable used):
 * past it, a ValueError located at the value.
 */
export function interpolate(v: Located, scope: ValueScope, provider: Provider | undefined): string {
  return expand(v, scope, provider, 0, { steps: 0, memo: scope.expanded ?? new Expansions(), top: v }).text;
}

function expand(v: Located, scope: ValueScope, provider: Provider | undefined, depth: number, x: Expansion): Expanded {
  if (depth > MAX_DEPTH) throw new ValueError(`variables nest too deeply at line ${v.line} (a variable that uses itself?)`);
  if (!hasTemplate(v.text)) return { text: v.text, height: 0 };
  let out = '';
  let height = 0;
  for (const p of templateParts(v)) {
    if (++x.steps > MAX_EXPANSION_STEPS) {
      throw new ValueError(
        `line ${x.top.line}:${x.top.col}: expanding the value takes more than ${MAX_EXPANSION_STEPS} steps (its variables use others too often): simplify them`,
      );
    }
    if (p.kind === 'var' && !(p.name === 'provider' && scope.ctx.defaultProvider)) {
      const e = variable(p, v, scope, provider, depth, x);
      out += e.text;
      height = Math.max(height, e.height + 1);
    } else out += resolvePart(p, v, scope, provider);
    if (out.length > MAX_VALUE_CHARS) {
      throw new ValueError(`line ${v.line}:${v.col}: the value is larger than ${MAX_VALUE_CHARS} characters once its variables are expanded`);
    }
  }
  return { text: out, height };
}

/** A variable used at `depth`: expanded once (x.memo), its nesting checked at every use. */
function variable(
  p: Extract<TemplatePart, { kind: 'var' }>,
  v: Located,
  scope: ValueScope,
  provider: Provider | undefined,
  depth: number,
  x: Expansion,
): Expanded {
  const key = `${provider?.name ?? ''}\u0000${p.name}`;
  let e = x.memo.get(key);
  if (!e) {
    const value = scope.file.variables.get(p.name);
    if (!value) throw new ValueError(`line ${v.line}:${p.col}: variable "${p.name}" is not defined (add "@${p.name} = …")`);
    e = expand(value, scope, provider, depth + 1, x);
    x.memo.set(key, e);
  }
  if (depth + 1 + e.height > MAX_DEPTH) throw new ValueError(`variables nest too deeply at line ${v.line} (a variable that uses itself?)`);
  return e;
}

/** A part other than a variable (text, environment, secret, reference). */
function resolvePart(p: TemplatePart, v: Located, scope: ValueScope, provider: Provider | undefined): string {
  const { ctx } = scope;
  switch (p.kind) {
    case 'text':
      return p.text;
    case 'var':
      // Only `${provider}` given from outside comes here (expand() resolves the others).
      return ctx.defaultProvider ?? '';
    case 'env': {
      const refused = envRefusal(p.name, ctx.allowEnv, ctx.envHint);
      if (refused) throw new ValueError(`line ${v.line}:${p.col}: ${refused}`);
      const set = ctx.env[p.name];
      if (set !== undefined) rememberEnvValue(set, ctx.masker ?? masker);
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

/** A masker of other providers' secrets, in every form the masker knows (raw, URL-encoded, JSON-escaped, base64, hex). */
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

/**
 * Why the request as assembled (its address, headers and body as they will be sent) may not go to
 * `p`: it holds a secret of another provider, in any form the masker knows (raw, URL-encoded,
 * JSON-escaped, base64, hex), whichever references built it (an echo split across two `{{ref}}`s
 * is whole here). The provider's `own` secret values are taken out first (two providers may share
 * one). undefined when it may go.
 */
export function foreignSecretIn(ctx: ValueContext, p: Provider, own: readonly string[], parts: readonly { where: string; text: string }[]): string | undefined {
  const values = ctx.foreignSecrets?.(p);
  if (!values?.length) return undefined;
  const foreign = foreignMasker(values);
  const mine = own.length > 0 ? foreignMasker(own) : undefined;
  for (const part of parts) {
    if (foreign.finds(mine ? mine.mask(part.text) : part.text)) {
      return `the request as assembled contains a secret of another provider (in its ${part.where}): not sent to "${p.name}"`;
    }
  }
  return undefined;
}

/** Values read from the environment are masked wherever text is shown, like secrets. */
function rememberEnvValue(value: string, mask: SecretMasker): void {
  const known = mask.group('env');
  if (value.length >= 3 && !known.includes(value)) mask.setGroup('env', [...known, value]);
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
  for (const p of templateParts(v)) {
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
