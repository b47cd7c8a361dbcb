// The REST routes of every module (Cosmos SDK, IBC, Cosmos EVM) as operations of the catalogue.
// The table is generated (scripts/genModules.mjs -> modules.json, checked by a unit test) and turned
// into operations on first use: nothing here runs at activation, and none of these operations has a
// package.json command (one palette command, chainEndpoints.rest.query, picks among them). Each
// parameter is typed from its definition (bech32 of the right kind, integers, booleans, enums,
// pagination keys); required values (from the definitions and a hand list of what nodes refuse or
// crash without) are enforced before anything is sent, like every operation's.

import * as l10n from '../../base/l10n';
import type { Args, Operation, ParamSpec, RouteInfo, WireRequest } from '../operation';
import * as v from '../validate';
import table from './modules.json';

/** One parameter as modules.json (and an imported definition) describes it. */
export interface RouteParam {
  name: string;
  in: 'path' | 'query';
  kind: ParamKind;
  enum?: string[];
  required?: boolean;
}

export type ParamKind = 'account' | 'valoper' | 'valcons' | 'evmAddress' | 'uint' | 'int' | 'bool' | 'bytes' | 'hex' | 'enum' | 'list' | 'string';

/** One route as modules.json describes it. */
export interface RouteDefinition {
  id: string;
  module: string;
  rpc: string;
  path: string;
  summary: string;
  params?: RouteParam[];
  paged?: boolean;
  fields: string[];
  src: string;
}

export interface RouteSource {
  name: string;
  module: string;
  version: string;
  file: string;
  licence: string;
}

export const ROUTE_SOURCES: readonly RouteSource[] = table.sources;

/** The pagination keys of a paged route. */
export const PAGINATION_KEYS = ['pagination.key', 'pagination.limit', 'pagination.offset', 'pagination.reverse', 'pagination.count_total'] as const;

const PAGINATION_KINDS: Record<(typeof PAGINATION_KEYS)[number], ParamKind> = {
  'pagination.key': 'bytes',
  'pagination.limit': 'uint',
  'pagination.offset': 'uint',
  'pagination.reverse': 'bool',
  'pagination.count_total': 'bool',
};

function validatorOf(p: RouteParam): v.Validator {
  switch (p.kind) {
    case 'account':
    case 'valoper':
    case 'valcons':
      return v.validateBech32Kind(p.kind);
    case 'evmAddress':
      return v.validateEvmAddress;
    case 'uint':
      return v.validateUint64;
    case 'int':
      return v.validateInt64;
    case 'bool':
      return v.validateBool;
    case 'bytes':
      return v.validateBase64;
    case 'hex':
      return v.validateHex;
    case 'enum':
      return v.validateEnum(p.enum ?? []);
    case 'list':
      return v.validateList;
    default:
      return v.validateText;
  }
}

const KIND_PROMPTS: Record<ParamKind, () => string> = {
  account: () => l10n.t('an account address (bech32, such as cosmos1…)'),
  valoper: () => l10n.t('a validator operator address (bech32, such as cosmosvaloper1…)'),
  valcons: () => l10n.t('a consensus address (bech32, such as cosmosvalcons1…)'),
  evmAddress: () => l10n.t('an EVM address (0x and 40 hex digits)'),
  uint: () => l10n.t('a whole number'),
  int: () => l10n.t('a whole number'),
  bool: () => l10n.t('true or false'),
  bytes: () => l10n.t('bytes as base64'),
  hex: () => l10n.t('hex digits (0x optional)'),
  enum: () => l10n.t('one of the listed values'),
  list: () => l10n.t('values separated by commas'),
  string: () => l10n.t('text'),
};

/** A path value of `.` or `..` would move the request to another path (URLs resolve dot segments, encoded or not). */
function inPathValidator(validate: v.Validator): v.Validator {
  return (value) => (/^\.{1,2}$/.test(value.trim()) ? l10n.t('"." and ".." cannot be a path segment: type the value itself.') : validate(value));
}

function paramSpec(p: RouteParam, hidden = false): ParamSpec {
  return {
    key: p.name,
    title: p.name,
    get prompt() {
      return p.required
        ? l10n.t('{0}: {1}', p.name, KIND_PROMPTS[p.kind]())
        : l10n.t('{0}: {1} (optional: empty to leave out)', p.name, KIND_PROMPTS[p.kind]());
    },
    placeholder: p.enum ? p.enum[0] : undefined,
    optional: !p.required,
    validate: p.in === 'path' ? inPathValidator(validatorOf(p)) : validatorOf(p),
    choices: p.enum,
    hidden,
  };
}

/** The path's last part after its version (`/cosmos/staking/v1beta1/validators/{validator_addr}` -> `validators/{validator_addr}`). */
function shortPath(path: string): string {
  const parts = path.split('/').filter(Boolean);
  const v = parts.findIndex((x) => /^v\d+((alpha|beta)\d+)?$/.test(x));
  return v >= 0 && v < parts.length - 1 ? parts.slice(v + 1).join('/') : path;
}

function wireValue(p: RouteParam, value: string): string {
  const text = value.trim();
  return p.kind === 'bool' ? text.toLowerCase() : text;
}

/** The operation of one route. `source`: where its definition comes from. */
export function routeOperation(def: RouteDefinition, source = def.src): Operation {
  const params = def.params ?? [];
  const pageParams: RouteParam[] = def.paged ? PAGINATION_KEYS.map((name) => ({ name, in: 'query', kind: PAGINATION_KINDS[name] })) : [];
  const all = [...params, ...pageParams];
  // Of the pagination keys only the page size is asked (empty: the node's default); the others come from an argument, a query file or a next-page link.
  const specs = [...params.map((p) => paramSpec(p)), ...pageParams.map((p) => paramSpec(p, p.name !== 'pagination.limit'))];
  const route: RouteInfo = { module: def.module, rpc: def.rpc, path: def.path, summary: def.summary, paged: Boolean(def.paged), fields: def.fields, source };
  return {
    id: def.id,
    iface: 'rest',
    label: shortPath(def.path),
    title: `REST ${def.module}: ${def.rpc}`,
    params: specs,
    route,
    build: (args: Args): WireRequest => {
      const path = def.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const p = params.find((x) => x.name === name);
        const value = wireValue(p ?? { name, in: 'path', kind: 'string' }, args[name] ?? '');
        return p?.kind === 'list'
          ? value
              .split(',')
              .map((s) => encodeURIComponent(s.trim()))
              .join(',')
          : encodeURIComponent(value);
      });
      const query: string[] = [];
      for (const p of all) {
        if (p.in !== 'query') continue;
        const value = (args[p.name] ?? '').trim();
        if (value === '') continue;
        const values = p.kind === 'list' ? value.split(',').map((s) => s.trim()) : [wireValue(p, value)];
        for (const x of values) query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(x)}`);
      }
      return { kind: 'get', path, rawQuery: query.length ? query.join('&') : undefined };
    },
    summarize: def.paged ? (r) => pageSummary(r) : undefined,
    nextPage: def.paged ? (args, r) => nextPageArgs(args, r) : undefined,
  };
}

/** A paged answer's line: how many items, the total when counted, and whether a next page exists. */
export function pageSummary(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const r = result as Record<string, unknown>;
  const list = Object.entries(r).find(([, x]) => Array.isArray(x));
  const page = r.pagination as { next_key?: unknown; total?: unknown } | null | undefined;
  const parts: string[] = [];
  if (list) parts.push(l10n.t('{0} {1}', (list[1] as unknown[]).length, list[0]));
  if (page && typeof page.total === 'string' && page.total !== '0') parts.push(l10n.t('total {0}', page.total));
  parts.push(nextKeyOf(result) ? l10n.t('more: next page at the end') : l10n.t('last page'));
  return parts.join(' · ');
}

/** `pagination.next_key` of an answer, when there is a next page. */
export function nextKeyOf(result: unknown): string | undefined {
  const page = typeof result === 'object' && result !== null ? (result as { pagination?: { next_key?: unknown } | null }).pagination : undefined;
  const key = page?.next_key;
  return typeof key === 'string' && key !== '' && key.length <= 1024 && !v.validateBase64(key) ? key : undefined;
}

/** The arguments of the next page: the same request with `pagination.key` set (and no offset). undefined: no next page. */
export function nextPageArgs(args: Args, result: unknown): Args | undefined {
  const key = nextKeyOf(result);
  if (!key) return undefined;
  const next: Record<string, string> = { ...args, 'pagination.key': key };
  delete next['pagination.offset'];
  return next;
}

let built: { list: Operation[]; byId: Map<string, Operation> } | undefined;

function moduleTable(): { list: Operation[]; byId: Map<string, Operation> } {
  if (!built) {
    const list = (table.routes as RouteDefinition[]).map((d) => routeOperation(d));
    built = { list, byId: new Map(list.map((op) => [op.id, op])) };
  }
  return built;
}

/** Every generated module route, as operations (built on the first call). */
export function moduleOperations(): readonly Operation[] {
  return moduleTable().list;
}

export function findModuleOperation(id: string): Operation | undefined {
  return moduleTable().byId.get(id);
}
