// Which provider a request without "provider:" runs on, known before it runs: with no @provider and
// no provider given from outside, it is the one provider that has the request's interface; with two
// or more the request is ambiguous. The editor marks those requests and offers the quick fixes
// written here (set @provider, or name the provider on the request).

import type { InterfaceId, Provider } from '../config/providers';
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
