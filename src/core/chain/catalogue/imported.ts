// A chain's own modules: the GET routes of an OpenAPI document (v2 "swagger" or v3 "openapi"),
// read from untrusted input into the same route definitions as modules.json, for one network.
// Bounded (document size, routes, parameters, text lengths) and validated: a path must be a
// relative template of plain segments, names plain identifiers; anything else is left out and
// counted. Routes the generated table already has (same path) are skipped: only the chain's own.

import { LocalizedError } from '../../base/errors';
import * as l10n from '../../base/l10n';
import type { ParamKind, RouteDefinition, RouteParam } from './modules';
import { dotSegmentOf } from '../../config/providers';
import { stateChangingConsensusPath } from '../stateChanging';

export const MAX_IMPORTED_ROUTES = 400;
/** The most paths of a document read for routes (valid or not). */
export const MAX_PATHS_READ = 5 * MAX_IMPORTED_ROUTES;
const MAX_PARAMS = 24;
const MAX_ENUM = 64;

export interface ImportResult {
  routes: RouteDefinition[];
  /** Routes left out: invalid, already in the generated table, past the limit, or named like a request that changes state. */
  skipped: { invalid: number; known: number; overLimit: number; sends: number };
  title?: string;
}

const ACCOUNT = new Set(['address', 'delegator_addr', 'delegator_address', 'depositor', 'voter', 'granter', 'grantee', 'owner', 'admin', 'creator', 'sender']);
const VALOPER = new Set(['validator_addr', 'validator_address', 'src_validator_addr', 'dst_validator_addr']);

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const text = (x: unknown, max: number): string => (typeof x === 'string' ? x.replace(/\s+/g, ' ').trim().slice(0, max) : '');

function kindOf(name: string, type: string, format: string, hasEnum: boolean): ParamKind {
  if (hasEnum) return 'enum';
  if (type === 'array') return 'list';
  if (type === 'boolean') return 'bool';
  if (format === 'uint64' || format === 'uint32') return 'uint';
  if (format === 'int64' || format === 'int32' || type === 'integer') return 'int';
  if (format === 'byte') return 'bytes';
  if (VALOPER.has(name)) return 'valoper';
  if (name === 'cons_address') return 'valcons';
  if (ACCOUNT.has(name)) return 'account';
  return 'string';
}

function moduleOf(path: string): string {
  const parts = path.split('/').filter(Boolean);
  const v = parts.findIndex((x) => /^v\d+((alpha|beta)\d+)?$/.test(x));
  const head = (v > 0 ? parts.slice(0, v) : parts.slice(0, 2)).filter((x) => !x.includes('{'));
  return (head.length > 1 ? head.slice(1) : head).join('.').slice(0, 60) || 'root';
}

/** Reads an OpenAPI document (already parsed from JSON or YAML). `known`: paths the generated table has. */
export function readOpenApi(doc: unknown, known: ReadonlySet<string>): ImportResult {
  if (!isObject(doc) || !(typeof doc.swagger === 'string' || typeof doc.openapi === 'string') || !isObject(doc.paths)) {
    throw new LocalizedError(l10n.both('Not an OpenAPI document: it needs "swagger" (v2) or "openapi" (v3) and "paths".'));
  }
  const v3 = typeof doc.openapi === 'string';
  const routes: RouteDefinition[] = [];
  const skipped = { invalid: 0, known: 0, overLimit: 0, sends: 0 };
  const ids = new Set<string>();
  let read = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    const get = isObject(item) ? item.get : undefined;
    if (!isObject(get)) continue;
    if (known.has(path)) {
      skipped.known++;
      continue;
    }
    // A GET named like a broadcast (`/broadcast_tx_sync?tx=…` where REST and RPC share a host) would send unconfirmed.
    if (stateChangingConsensusPath(path)) {
      skipped.sends++;
      continue;
    }
    // Past the limit, or past MAX_PATHS_READ paths read (invalid ones included: a document of 100,000
    // copies of one route would otherwise be read whole), the rest is counted, not read.
    if (routes.length >= MAX_IMPORTED_ROUTES || ++read > MAX_PATHS_READ) {
      skipped.overLimit++;
      continue;
    }
    const route = readRoute(path, get, v3, isObject(item) ? item.parameters : undefined);
    if (!route || ids.has(route.id)) {
      skipped.invalid++;
      continue;
    }
    ids.add(route.id);
    routes.push(route);
  }
  return { routes, skipped, title: isObject(doc.info) ? text(doc.info.title, 120) || undefined : undefined };
}

/** A route path an import may keep: plain segments and `{param}`s, no `.` or `..` (joining would climb out of the gateway's base path), no encoded characters. */
function plainRoutePath(path: string): boolean {
  return path.length <= 300 && /^(\/([A-Za-z0-9_.~-]+|\{[A-Za-z_][A-Za-z0-9_.]*\}))+$/.test(path) && dotSegmentOf(path) === undefined;
}

function readRoute(path: string, get: Json, v3: boolean, shared: unknown): RouteDefinition | undefined {
  if (!plainRoutePath(path)) return undefined;
  const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const params: RouteParam[] = [];
  let paged = false;
  const raw = [...(Array.isArray(shared) ? shared : []), ...(Array.isArray(get.parameters) ? get.parameters : [])].slice(0, 64);
  for (const p of raw) {
    if (!isObject(p) || typeof p.name !== 'string' || (p.in !== 'path' && p.in !== 'query')) continue;
    const name = p.name;
    if (!/^[A-Za-z_][A-Za-z0-9_.]{0,63}$/.test(name)) return undefined;
    if (name.startsWith('pagination.')) {
      paged = true;
      continue;
    }
    if (params.length >= MAX_PARAMS) return undefined;
    const schema = v3 && isObject(p.schema) ? p.schema : p;
    // Read from the enum's first items only: YAML aliases let one huge list stand in every parameter of every path.
    const values = Array.isArray(schema.enum)
      ? schema.enum
          .slice(0, 4 * MAX_ENUM)
          .filter((x): x is string => typeof x === 'string' && x.length <= 80)
          .slice(0, MAX_ENUM)
      : undefined;
    const param: RouteParam = { name, in: p.in, kind: kindOf(name, text(schema.type, 20), text(schema.format, 20), Boolean(values?.length)) };
    if (values?.length) param.enum = values;
    if (p.in === 'path' || p.required === true) param.required = true;
    params.push(param);
  }
  for (const name of inPath) if (!params.some((p) => p.name === name && p.in === 'path')) params.unshift({ name, in: 'path', kind: 'string', required: true });
  const module = moduleOf(path);
  const opId = text(get.operationId, 80).replace(/[^A-Za-z0-9_]/g, '');
  const rpc =
    opId ||
    path
      .split('/')
      .filter((s) => !s.includes('{'))
      .pop() ||
    'Get';
  const ok200 = isObject(get.responses) ? get.responses['200'] : undefined;
  const schema = isObject(ok200) ? (v3 ? jsonSchemaV3(ok200) : ok200.schema) : undefined;
  const fields = isObject(schema) && isObject(schema.properties) ? Object.keys(schema.properties).slice(0, 50) : [];
  return {
    id: `chain.${module}.${rpc}`,
    module,
    rpc,
    path,
    summary: text(get.summary ?? get.description, 160),
    params,
    paged: paged || undefined,
    fields,
    src: 'import',
  };
}

function jsonSchemaV3(response: Json): unknown {
  const content = isObject(response.content) ? response.content : undefined;
  const json = content && isObject(content['application/json']) ? content['application/json'] : undefined;
  return json?.schema;
}

/** A stored import, as it is kept (globalState) and validated again when read back. */
export interface StoredImport {
  network: string;
  from: string;
  importedAt: number;
  routes: RouteDefinition[];
}

/**
 * Reads back stored imports, dropping anything that is not a valid route (the store is ours, but may
 * be from an older version): paths are checked again as an import checks them, and an id belongs to
 * the first network that imported it (a later one's route of that id is dropped, never swapped in).
 */
export function readStoredImports(value: unknown): StoredImport[] {
  if (!Array.isArray(value)) return [];
  const out: StoredImport[] = [];
  const ids = new Set<string>();
  for (const s of value.slice(0, 20)) {
    if (!isObject(s) || typeof s.network !== 'string' || !Array.isArray(s.routes)) continue;
    const routes = s.routes
      .slice(0, MAX_IMPORTED_ROUTES)
      .filter(
        (r): r is RouteDefinition =>
          isObject(r) &&
          typeof r.id === 'string' &&
          r.id.startsWith('chain.') &&
          typeof r.path === 'string' &&
          plainRoutePath(r.path) &&
          !stateChangingConsensusPath(r.path) &&
          typeof r.module === 'string' &&
          Array.isArray(r.fields) &&
          !ids.has(r.id),
      );
    for (const r of routes) ids.add(r.id);
    out.push({ network: s.network, from: text(s.from, 300), importedAt: Number(s.importedAt) || 0, routes });
  }
  return out;
}

/**
 * The stored imports with `entry` in place of its network's earlier import. A route id names one
 * route for every network (query files and api.run() find it by id alone): an id another network
 * already imported is refused here (`taken`), so the last import never silently takes it over.
 */
export function mergeImport(stored: readonly StoredImport[], entry: StoredImport): { all: StoredImport[]; taken: string[] } {
  const others = stored.filter((s) => s.network !== entry.network);
  const elsewhere = new Set(others.flatMap((s) => s.routes.map((r) => r.id)));
  const taken = entry.routes.filter((r) => elsewhere.has(r.id)).map((r) => r.id);
  return { all: [...others, { ...entry, routes: entry.routes.filter((r) => !elsewhere.has(r.id)) }], taken };
}
