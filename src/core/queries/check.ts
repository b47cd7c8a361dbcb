// What a query file means beyond its syntax, checked before it runs (the CLI) and as it is typed
// (the editor): providers that exist and publish the interface, variables that are defined,
// references to requests above. Returns diagnostics located by line and column; never throws.

import { type Provider, providerNamed, unknownProvider } from '../config/providers';
import { isAcross, valueOf } from './assertions/index';
import { MAX_VALUE_CHARS, envRefusal, expandedLength } from './interpolate';
import type { QueryFile, QueryRequest } from './model';
import { type Diagnostic, type Located, templateParts } from './syntax';

export interface CheckContext {
  /** The providers configured; undefined: not known, provider names are not checked. */
  readonly providers?: readonly Provider[];
  /** The environment; undefined: `${env:NAME}` is not checked. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** A provider given from outside (the CLI's --provider): `${provider}` is defined. */
  readonly defaultProvider?: string;
  /** The environment variables `${env:}` may read; undefined: not checked. */
  readonly allowEnv?: ReadonlySet<string>;
  /** How to allow one (names the flag or the setting). */
  envHint?(name: string): string;
}

export function checkQueryFile(file: QueryFile, ctx: CheckContext): Diagnostic[] {
  // Every request's name, once (a search of the requests for each reference was references × requests).
  const allNames = new Set(file.requests.map((r) => r.name));
  const out: Diagnostic[] = [];
  const at = (v: Located, col: number, length: number, message: string, severity: 'error' | 'warning' = 'error') =>
    out.push({ line: v.line, col, endCol: col + Math.max(1, length), severity, message });

  const memo = new Map<string, number>();
  const checkValue = (v: Located, before: ReadonlySet<string>, allowRefs: boolean) => {
    if (v.text.includes('${') && expandedLength(v, file, MAX_VALUE_CHARS, memo) > MAX_VALUE_CHARS) {
      at(v, v.col, v.text.length, `The value is larger than ${MAX_VALUE_CHARS} characters once its variables are expanded.`);
    }
    for (const p of templateParts(v)) {
      const refused = p.kind === 'env' && ctx.allowEnv ? envRefusal(p.name, ctx.allowEnv, ctx.envHint) : undefined;
      if (refused && p.kind === 'env') {
        at(v, p.col, p.length, refused.charAt(0).toUpperCase() + refused.slice(1) + '.');
        continue;
      }
      if (p.kind === 'var' && !file.variables.has(p.name) && !(p.name === 'provider' && ctx.defaultProvider)) {
        at(v, p.col, p.length, `Variable "${p.name}" is not defined: add "@${p.name} = …" at the top of the file.`);
      } else if (p.kind === 'env' && p.fallback === undefined && ctx.env && ctx.env[p.name] === undefined && ctx.allowEnv?.has(p.name) !== false) {
        at(v, p.col, p.length, `Environment variable ${p.name} is not set.`, 'warning');
      } else if (p.kind === 'ref') {
        if (!allowRefs) at(v, p.col, p.length, 'A variable cannot reference a request: use the reference in the request itself.');
        else if (!before.has(p.request)) {
          const later = allNames.has(p.request);
          at(
            v,
            p.col,
            p.length,
            later ? `Request "${p.request}" comes later in the file: a reference reads an earlier request.` : `No request named "${p.request}" above.`,
          );
        }
      }
    }
  };

  for (const v of file.variables.values()) checkValue(v, new Set(), false);
  const before = new Set<string>();
  for (const r of file.requests) {
    for (const a of r.args) checkValue(a.value, before, true);
    for (const a of r.assertions) {
      const value = valueOf(a);
      if (value) checkValue(value, before, true);
    }
    const fanOut = r.provider?.text.trim() === '*';
    if (r.provider && !fanOut) checkValue(r.provider, before, true);
    const across = fanOut ? undefined : r.assertions.find(isAcross);
    if (across) {
      const a = across;
      at(a, a.col, a.text.length, '"same" and "within" compare providers: they need "provider: *".', 'warning');
    }
    if (ctx.providers && r.op && !r.provider && !ctx.defaultProvider && !file.variables.has('provider')) {
      // Which provider runs it is known now: two candidates and no choice is an error before any request.
      const iface = r.op.iface;
      const candidates = ctx.providers.filter((p) => p.endpoints[iface]).map((p) => `"${p.name}"`);
      if (candidates.length !== 1) {
        at(
          r.target,
          r.target.col,
          r.target.text.length,
          candidates.length === 0
            ? `No provider has a ${iface} address.`
            : `Name a provider: ${candidates.length} providers have a ${iface} address (${candidates.join(', ')}). Add "provider: …", "@provider = …" at the top, or --provider.`,
        );
      }
    }
    if (ctx.providers && r.op && r.provider && !fanOut && templateParts(r.provider).every((p) => p.kind === 'text')) {
      const p = providerNamed(ctx.providers, r.provider.text);
      if (!p) {
        at(r.provider, r.provider.col, r.provider.text.length, unknownProvider(r.provider.text, ctx.providers).shown);
      } else if (!p.endpoints[r.op.iface]) {
        at(r.provider, r.provider.col, r.provider.text.length, `Provider "${p.name}" has no ${r.op.iface} address.`);
      }
    }
    before.add(r.name);
  }
  return out.sort((a, b) => a.line - b.line || a.col - b.col);
}

/**
 * The first error in `errors` (list order) within each request's lines, for a run the checks stopped.
 * Each error is placed once among the requests (sorted by line, not overlapping) by a binary search:
 * searching every error for each request was requests × errors (minutes for a hostile file).
 */
export function firstErrorOfEachRequest(requests: readonly QueryRequest[], errors: readonly Diagnostic[]): Map<QueryRequest, Diagnostic> {
  const first = new Map<QueryRequest, Diagnostic>();
  for (const d of errors) {
    let lo = 0;
    let hi = requests.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (requests[mid].line <= d.line) lo = mid + 1;
      else hi = mid;
    }
    const r = requests[lo - 1];
    if (r && d.line <= r.endLine && !first.has(r)) first.set(r, d);
  }
  return first;
}
