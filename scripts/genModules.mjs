// @ts-check
// Writes src/core/chain/catalogue/modules.json, the REST routes of every module, from the published
// definitions in Go's module cache (filled by the evmd build, `node scripts/real/ensureNodes.cjs`):
//   - the Cosmos SDK's client/docs/swagger-ui/swagger.yaml (v0.53.4),
//   - ibc-go's docs/client/swagger-ui/swagger.yaml (v10, the version evmd v0.3.2's go.mod requires),
//   - the google.api.http annotations of cosmos/evm's proto/cosmos/evm/*/v1/query.proto (v0.3.2).
// Each GET route becomes one entry: module, RPC name, id (`staking.Validators`), path template, its
// parameters (name, where, kind, enum, required), paging, the top-level fields of its answer and a
// one-line summary. A small hand list adds what the definitions leave out (values required in
// practice, enums the swagger types as plain strings).
//   node scripts/genModules.mjs           rewrite the file
//   node scripts/genModules.mjs --check   exit 1 when the file differs from what the sources give
//                                         (exit 2 when the sources are not in the module cache)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const OUTPUT = path.join(root, 'src/core/chain/catalogue/modules.json');

export const SOURCES = [
  { name: 'cosmos-sdk', module: 'github.com/cosmos/cosmos-sdk', version: 'v0.53.4', file: 'client/docs/swagger-ui/swagger.yaml' },
  { name: 'ibc-go', module: 'github.com/cosmos/ibc-go/v10', version: 'v10.3.0', file: 'docs/client/swagger-ui/swagger.yaml' },
  { name: 'cosmos-evm', module: 'github.com/cosmos/evm', version: 'v0.3.2', file: 'proto/cosmos/evm/{erc20,feemarket,precisebank,vm}/v1/query.proto' },
];

/** Values the definitions mark optional that the node refuses (or crashes) without: route path -> names. */
const REQUIRED_IN_PRACTICE = {
  '/cosmos/bank/v1beta1/supply/by_denom': ['denom'],
  '/cosmos/bank/v1beta1/denom_owners_by_query': ['denom'],
  '/cosmos/bank/v1beta1/denoms_metadata_by_query_string': ['denom'],
  '/cosmos/bank/v1beta1/balances/{address}/by_denom': ['denom'],
  '/cosmos/bank/v1beta1/spendable_balances/{address}/by_denom': ['denom'],
  '/cosmos/tx/v1beta1/txs': ['query'],
  '/cosmos/base/tendermint/v1beta1/abci_query': ['path'],
  '/cosmos/authz/v1beta1/grants': ['granter', 'grantee'],
  // evmd v0.3.2 exits on a nil pointer when trace_tx comes without its msg.
  '/cosmos/evm/vm/v1/trace_tx': ['msg.hash', 'msg.from', 'block_number'],
  '/cosmos/evm/vm/v1/trace_block': ['block_number'],
  '/cosmos/evm/vm/v1/eth_call': ['args'],
  '/cosmos/evm/vm/v1/estimate_gas': ['args'],
};

/** Enums the swagger types as plain strings. */
const ENUMS = {
  '/cosmos/staking/v1beta1/validators status': ['BOND_STATUS_BONDED', 'BOND_STATUS_UNBONDING', 'BOND_STATUS_UNBONDED', 'BOND_STATUS_UNSPECIFIED'],
  '/cosmos/gov/v1/params/{params_type} params_type': ['voting', 'tallying', 'deposit', 'params'],
  '/cosmos/gov/v1beta1/params/{params_type} params_type': ['voting', 'tallying', 'deposit'],
};

const ACCOUNT = new Set(['address', 'delegator_addr', 'delegator_address', 'depositor', 'voter', 'granter', 'grantee', 'owner', 'admin', 'address_string']);
const VALOPER = new Set(['validator_addr', 'validator_address', 'src_validator_addr', 'dst_validator_addr']);
const VALCONS = new Set(['cons_address']);

export function modCacheDir() {
  if (process.env.GOMODCACHE) return process.env.GOMODCACHE;
  try {
    return execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch {
    return path.join(process.env.HOME ?? '', 'go', 'pkg', 'mod');
  }
}

/** Go's module cache escapes capitals as !lower. */
function sourceDir(cache, s) {
  return path.join(cache, `${s.module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`)}@${s.version}`);
}

/** The files missing from the module cache (empty when all are there). */
export function missingSources(cache = modCacheDir()) {
  const out = [];
  for (const s of SOURCES) {
    const dir = sourceDir(cache, s);
    if (!existsSync(path.join(dir, s.name === 'cosmos-evm' ? 'proto/cosmos/evm/vm/v1/query.proto' : s.file))) out.push(`${s.module}@${s.version}`);
  }
  return out;
}

/** The module of a path: `/cosmos/staking/v1beta1/…` -> staking; `/ibc/core/client/v1/…` -> ibc.client; with its version. */
function moduleOf(p) {
  const parts = p.split('/').filter(Boolean);
  const v = parts.findIndex((x) => /^v\d+((alpha|beta)\d+)?$/.test(x));
  const head = parts.slice(0, v);
  let name;
  if (head[0] === 'cosmos' && head[1] === 'base') name = head.slice(2).join('.');
  else if (head[0] === 'cosmos' && head[1] === 'evm') name = head.slice(2).join('.');
  else if (head[0] === 'cosmos') name = head.slice(1).join('.');
  else if (head[0] === 'ibc') name = ['ibc', ...head.slice(1).filter((x) => x !== 'core' && x !== 'apps' && x !== 'lightclients')].join('.');
  else name = head.join('.');
  return { name, version: parts[v] };
}

function kindOf(route, name, type, format, description, hasEnum) {
  if (hasEnum) return 'enum';
  if (type === 'array') return 'list';
  if (type === 'boolean' || type === 'bool') return 'bool';
  if (format === 'uint64' || format === 'uint32' || type === 'uint64' || type === 'uint32') return 'uint';
  if (format === 'int64' || format === 'int32' || type === 'int64' || type === 'int32') return 'int';
  if (format === 'byte' || type === 'bytes') return 'bytes';
  if (/ethereum (signer )?(hex )?address|hex address/i.test(description ?? '')) return 'evmAddress';
  if (route.startsWith('/cosmos/evm/vm/') && ['key', 'msg.hash', 'block_hash'].includes(name)) return 'hex';
  if (VALOPER.has(name)) return 'valoper';
  if (VALCONS.has(name)) return 'valcons';
  if (ACCOUNT.has(name)) return 'account';
  return 'string';
}

const oneLine = (s) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();

function firstSentence(s) {
  const t = oneLine(s);
  const m = /^(.{20,}?[.!?])(\s|$)/.exec(t);
  const out = m ? m[1] : t;
  return out.length > 160 ? `${out.slice(0, 157)}…` : out;
}

/** A route from its pieces: params sorted path first (in path order), then query; pagination folded into `paged`. */
function route(src, p, rpc, summary, params, fields) {
  const { name: module, version } = moduleOf(p);
  const required = new Set(REQUIRED_IN_PRACTICE[p] ?? []);
  const order = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const paged = params.some((x) => x.name.startsWith('pagination.'));
  const out = [];
  for (const x of params) {
    if (x.name.startsWith('pagination.')) continue;
    const enumValues = ENUMS[`${p} ${x.name}`] ?? x.enum;
    const e = { name: x.name, in: x.in, kind: kindOf(p, x.name, x.type, x.format, x.description, Boolean(enumValues)) };
    if (enumValues) e.enum = enumValues;
    if (x.in === 'path' || x.required || required.has(x.name)) e.required = true;
    out.push(e);
  }
  for (const r of required) if (!out.some((x) => x.name === r)) throw new Error(`${p}: hand-listed required ${r} is not a parameter`);
  out.sort((a, b) => (a.in === b.in ? (a.in === 'path' ? order.indexOf(a.name) - order.indexOf(b.name) : 0) : a.in === 'path' ? -1 : 1));
  return { id: '', src, module, version, rpc, path: p, summary: firstSentence(summary), params: out, paged, fields };
}

/**
 * The RPC's name: the swagger's operationId is made unique across modules (`BankParams`,
 * `GovV1Proposal` for both Proposal and Proposals); its summary starts with the RPC's own name.
 */
function rpcName(g) {
  const first = /^([A-Z][A-Za-z0-9]+)\s/.exec(oneLine(g.summary ?? g.description))?.[1];
  if (first === 'Parameters') return 'Params';
  return first && !['Returns', 'Get', 'Query', 'Queries'].includes(first) ? first : g.operationId;
}

function fromSwagger(src, text) {
  const doc = yaml.load(text);
  const out = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    const g = item.get;
    if (!g) continue;
    const schema = g.responses?.['200']?.schema;
    const fields = Object.keys(schema?.properties ?? {});
    out.push({ ...route(src, p, rpcName(g), g.summary ?? g.description, g.parameters ?? [], fields), opId: g.operationId });
  }
  return out;
}

/** The messages of a proto file: name -> fields ({ name, type, repeated, comment }). */
function protoMessages(text) {
  const messages = new Map();
  for (const m of text.matchAll(/^message (\w+) \{(\}|[\s\S]*?^\})/gm)) {
    const fields = [];
    let comment = [];
    for (const line of m[2].split('\n')) {
      const t = line.trim();
      if (t.startsWith('//')) comment.push(t.replace(/^\/\/\s?/, ''));
      else {
        const f = /^(repeated\s+)?([\w.]+)\s+(\w+)\s*=\s*\d+/.exec(t);
        if (f) fields.push({ repeated: Boolean(f[1]), type: f[2], name: f[3], comment: comment.join(' ') });
        if (t !== '' && !t.startsWith('(') && !t.startsWith('[') && !t.startsWith('"')) comment = [];
      }
    }
    messages.set(m[1], fields);
  }
  return messages;
}

const SCALARS = new Set(['string', 'bool', 'bytes', 'uint64', 'uint32', 'int64', 'int32']);

function fromProto(src, text, shared) {
  const messages = new Map([...shared, ...protoMessages(text)]);
  const out = [];
  const service = /service Query \{([\s\S]*?)^\}/m.exec(text);
  if (!service) return out;
  for (const m of service[1].matchAll(/((?:^\s*\/\/[^\n]*\n)*)\s*rpc (\w+)\s*\(\s*(\w+)\s*\)\s*returns\s*\(\s*(\w+)\s*\)\s*\{([\s\S]*?;)\s*\}/gm)) {
    const [, comments, rpc, req, res, body] = m;
    const get = /\(google\.api\.http\)\.get\s*=\s*"([^"]+)"/.exec(body);
    if (!get) continue;
    const p = get[1];
    const inPath = new Set([...p.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]));
    const params = [];
    const required = REQUIRED_IN_PRACTICE[p] ?? [];
    for (const f of messages.get(req) ?? []) {
      if (f.type.endsWith('PageRequest')) {
        params.push({ name: 'pagination.limit' });
        continue;
      }
      if (SCALARS.has(f.type)) {
        params.push({ name: f.name, in: inPath.has(f.name) ? 'path' : 'query', type: f.repeated ? 'array' : f.type, description: f.comment });
        continue;
      }
      // A message field: its scalar sub-fields a value is required for (hand list), as dotted query parameters.
      for (const sub of messages.get(f.type) ?? []) {
        const name = `${f.name}.${sub.name}`;
        if (required.includes(name) && SCALARS.has(sub.type)) params.push({ name, in: 'query', type: sub.type, description: sub.comment });
      }
    }
    const summary = comments
      .split('\n')
      .map((l) => l.trim().replace(/^\/\/\s?/, ''))
      .join(' ');
    const fields = (messages.get(res) ?? []).map((f) => f.name);
    out.push(route(src, p, rpc, summary, params, fields));
  }
  return out;
}

/** Ids: `<module>.<Rpc>`; a module served under several versions keeps its plain name for the version with most routes. */
function assignIds(routes) {
  const versions = new Map();
  for (const r of routes) {
    const v = versions.get(r.module) ?? new Map();
    v.set(r.version, (v.get(r.version) ?? 0) + 1);
    versions.set(r.module, v);
  }
  for (const r of routes) {
    const v = versions.get(r.module);
    const main = [...v.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1))[0][0];
    if (r.version !== main) r.module = `${r.module}.${r.version}`;
  }
  // A summary naming another RPC (copied from a sibling): the operationId for both.
  const count = new Map();
  for (const r of routes) count.set(`${r.module}.${r.rpc}`, (count.get(`${r.module}.${r.rpc}`) ?? 0) + 1);
  for (const r of routes) if (count.get(`${r.module}.${r.rpc}`) > 1 && r.opId) r.rpc = r.opId;
  const ids = new Set();
  for (const r of routes) {
    r.id = `${r.module}.${r.rpc}`;
    if (ids.has(r.id)) throw new Error(`duplicate route id ${r.id} (${r.path})`);
    ids.add(r.id);
  }
}

/** The file's text from the sources in `cache`. */
export function generate(cache = modCacheDir()) {
  const missing = missingSources(cache);
  if (missing.length) throw new Error(`not in Go's module cache (${cache}): ${missing.join(', ')}`);
  const [sdk, ibc, evm] = SOURCES;
  const routes = [
    ...fromSwagger('cosmos-sdk', readFileSync(path.join(sourceDir(cache, sdk), sdk.file), 'utf8')),
    ...fromSwagger('ibc-go', readFileSync(path.join(sourceDir(cache, ibc), ibc.file), 'utf8')),
  ];
  const evmDir = sourceDir(cache, evm);
  const tx = protoMessages(readFileSync(path.join(evmDir, 'proto/cosmos/evm/vm/v1/tx.proto'), 'utf8'));
  for (const m of ['erc20', 'feemarket', 'precisebank', 'vm']) {
    routes.push(...fromProto('cosmos-evm', readFileSync(path.join(evmDir, `proto/cosmos/evm/${m}/v1/query.proto`), 'utf8'), tx));
  }
  assignIds(routes);
  const sources = SOURCES.map((s) => ({ ...s, licence: licenceOf(path.join(sourceDir(cache, s), 'LICENSE')) }));
  const lines = routes.map((r) =>
    JSON.stringify({
      id: r.id,
      module: r.module,
      rpc: r.rpc,
      path: r.path,
      summary: r.summary,
      ...(r.params.length ? { params: r.params } : {}),
      ...(r.paged ? { paged: true } : {}),
      fields: r.fields,
      src: r.src,
    }),
  );
  return `{\n"generatedBy": "scripts/genModules.mjs",\n"sources": ${JSON.stringify(sources)},\n"routes": [\n${lines.join(',\n')}\n]\n}\n`;
}

function licenceOf(file) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (/Apache License\s+Version 2\.0/.test(text)) return 'Apache-2.0';
  if (/^MIT License/.test(text)) return 'MIT';
  throw new Error(`${file}: neither Apache-2.0 nor MIT; check its terms before using its definitions`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const check = process.argv.includes('--check');
  const cache = modCacheDir();
  const missing = missingSources(cache);
  if (missing.length) {
    console.error(
      `genModules: the definitions are not in Go's module cache (${cache}): ${missing.join(', ')}.\n` +
        `Run the evmd build (node scripts/real/ensureNodes.cjs evmd), or: cd /tmp && go mod download -json <module>@<version>.`,
    );
    process.exit(2);
  }
  const text = generate(cache);
  if (check) {
    const current = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '';
    if (current !== text) {
      console.error(`genModules: ${path.relative(root, OUTPUT)} differs from its sources: run node scripts/genModules.mjs`);
      process.exit(1);
    }
    console.log(`genModules: ${path.relative(root, OUTPUT)} agrees with its sources`);
  } else {
    writeFileSync(OUTPUT, text);
    console.log(`genModules: ${path.relative(root, OUTPUT)}: ${JSON.parse(text).routes.length} routes, ${text.length} bytes`);
  }
}
