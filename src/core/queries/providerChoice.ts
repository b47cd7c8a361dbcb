// Which provider a request without "provider:" runs on, known before it runs: with no @provider and
// no provider given from outside, it is the one provider that has the request's interface; with two
// or more the request is ambiguous. The editor marks those requests and offers the quick fixes
// written here (set @provider, or name the provider on the request). When it runs (step 3 of
// pipeline.ts), chooseProviders() resolves the name (a variable, `*` within one network).

import { LocalizedError } from '../base/errors';
import { type InterfaceId, type Provider, providerNamed } from '../config/providers';
import { routeNamed } from '../health/route';
import { type ValueContext, ValueError, type ValueScope, interpolate } from './interpolate';
import type { QueryFile, QueryRequest } from './model';

export interface AmbiguousRequest {
  readonly request: QueryRequest;
  readonly iface: InterfaceId;
  /** The providers that have the interface, in settings order. */
  readonly candidates: readonly string[];
}

/** The requests that would stop with "name a provider" (two or more candidates, no choice made). */
export function ambiguousRequests(file: QueryFile, providers: readonly Provider[], defaultProvider?: string): AmbiguousRequest[] {
  if (defaultProvider || file.variables.has('provider')) return [];
  const out: AmbiguousRequest[] = [];
  for (const request of file.requests) {
    if (request.provider || !request.op) continue;
    const iface = request.op.iface;
    const candidates = providers.filter((p) => p.endpoints[iface]).map((p) => p.name);
    if (candidates.length > 1) out.push({ request, iface, candidates });
  }
  return out;
}

/** The sentence of the diagnostic on an ambiguous request. */
export function ambiguityMessage(a: AmbiguousRequest): string {
  return `Name a provider: ${a.candidates.length} providers have a ${a.iface} address (${a.candidates.map((c) => `"${c}"`).join(', ')}). Add "provider: …" to the request or "@provider = …" at the top (quick fix).`;
}

/** A line edit: replace line `line` (0-based) when `replace`, else insert `text` before it. */
export interface LineEdit {
  readonly line: number;
  readonly replace: boolean;
  readonly text: string;
}

/**
 * Where `@provider = NAME` goes: over a commented-out `# @provider = …` line when the file has one
 * (the shipped examples do), else after the file's opening comment block (the file's description
 * stays first).
 */
export function providerVariableEdit(lines: readonly string[], name: string): LineEdit {
  const text = `@provider = ${name}`;
  const commented = lines.findIndex((l) => /^\s*#\s*@provider\s*=/.test(l));
  if (commented >= 0) return { line: commented, replace: true, text };
  let i = 0;
  while (i < lines.length && /^\s*#/.test(lines[i])) i++;
  return { line: i, replace: false, text };
}

/** `provider: NAME` as the line after the request's header, indented like its other lines. */
export function requestProviderEdit(lines: readonly string[], request: QueryRequest, name: string): LineEdit {
  const next = lines[request.line] ?? '';
  const indent = request.endLine > request.line ? (/^\s*/.exec(next)?.[0] ?? '') : '';
  return { line: request.line, replace: false, text: `${indent}provider: ${name}` };
}

// --- when it runs ------------------------------------------------------------------------------

/** What the choice reads of the run's context (RunContext extends it). */
export interface ChoiceContext extends ValueContext {
  readonly providers: readonly Provider[];
  /**
   * The network of a provider (its name: config/networks.ts). A fan-out (`provider: *`) runs on the
   * providers of one network: that of the file's `@provider` (or defaultProvider) when set, else it
   * must be the only network among the candidates. Without it, `*` runs on every candidate.
   */
  networkOf?(p: Provider): string | undefined;
}

export interface ChoiceScope extends ValueScope {
  readonly ctx: ChoiceContext;
  /** Per interface and provider name: the providers it resolves to (once per file run). */
  readonly chosen: Map<string, Provider[]>;
}

/** The providers a request runs on (one, or those of one network for `*`); a ValueError says why none. */
export function chooseProviders(request: QueryRequest, scope: ChoiceScope): Provider[] {
  const { ctx } = scope;
  const op = request.op!;
  let wanted: string | undefined;
  if (request.provider) wanted = interpolate(request.provider, scope, undefined);
  else if (ctx.defaultProvider) wanted = ctx.defaultProvider;
  else if (scope.file.variables.has('provider')) wanted = interpolate(scope.file.variables.get('provider')!, scope, undefined);
  const key = `${op.iface}\u0000${wanted}`;
  const known = scope.chosen.get(key);
  if (known) return known;
  const candidates = ctx.providers.filter((p) => p.endpoints[op.iface]);
  if (wanted?.trim() === '*') {
    if (candidates.length === 0) throw new ValueError(`no provider has a ${op.iface} address`);
    return withinOneNetwork(candidates, scope, op.iface);
  }
  if (wanted === undefined) {
    if (candidates.length === 1) {
      scope.chosen.set(key, candidates);
      return candidates;
    }
    throw new ValueError(
      candidates.length === 0
        ? `no provider has a ${op.iface} address`
        : `name a provider ("provider: …" or @provider): ${candidates.length} providers have a ${op.iface} address`,
    );
  }
  // The extension's own resolution, the router's: case-insensitive name, the interface present (once per name and interface).
  const route = routeNamed(op, wanted, ctx);
  if (route.kind === 'refuse') throw new LocalizedError(route.message);
  const chosen = [route.provider];
  scope.chosen.set(key, chosen);
  return chosen;
}

/** The candidates of one network (see ChoiceContext.networkOf): `*` never compares two chains. */
function withinOneNetwork(candidates: Provider[], scope: ChoiceScope, iface: string): Provider[] {
  const { ctx, file } = scope;
  const of = ctx.networkOf;
  if (!of) return candidates;
  const networks = [...new Set(candidates.map((p) => of(p) ?? ''))];
  if (networks.length <= 1) return candidates;
  const anchorName = ctx.defaultProvider ?? (file.variables.has('provider') ? interpolate(file.variables.get('provider')!, scope, undefined) : undefined);
  const anchor = providerNamed(ctx.providers, anchorName);
  if (anchor) {
    const network = of(anchor) ?? '';
    const mine = candidates.filter((p) => (of(p) ?? '') === network);
    if (mine.length > 0) return mine;
    throw new ValueError(`no provider of the network ${network} (that of ${anchor.name}) has a ${iface} address`);
  }
  throw new ValueError(
    `"provider: *" would compare ${networks.length} networks (${networks.join(', ')}): set @provider to a provider of the network to query, and * runs on the providers of that network`,
  );
}
