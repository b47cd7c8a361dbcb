// The query file parser: a line-based, hand-written reader of the `.chainq` format (README, "Query
// files"). Never throws: whatever the input, it returns the requests it could read and one
// diagnostic, located by line and column, for each line it could not.
//
//   # a comment                        @name = value              (a file-level variable)
//   request latest = consensusRpc.status                          (an operation of the catalogue)
//   request logs = evmRpc eth_getLogs                             (a raw request on an interface)
//   provider: *                        height: {{latest.result.sync_info.latest_block_height - 10}}
//   assert result.block.header.height == {{latest.result.sync_info.latest_block_height - 10}}

import { checkParam } from '../chain/commandArgs';
import { OPERATIONS, findOperation } from '../chain/operations';
import { stateChangingReason } from '../chain/stateChanging';
import { INTERFACES, type InterfaceId } from '../config/providers';
import { WS_SUBSCRIBE, findQueryOperation } from './raw';
import { RECEIPT_OPERATION_ID, RECEIPT_ROOTS } from './receiptRequest';
import { ACCOUNT_OPERATION_ID, ACCOUNT_ROOTS } from './accountRequest';
import { didYouMean } from './suggest';
import { assertionReaders } from './assertions/index';
import type { AfterPath, ReadContext } from './assertions/kind';
import { readDuration } from './assertions/values';
import type { Assertion, QueryFile, QueryRequest } from './model';
import { type Diagnostic, type Located, hasTemplate, isName, parsePath, scanTemplate } from './syntax';

/** The roots a path may start from: what one request produced on one provider. */
export const PATH_ROOTS = ['result', 'status', 'latencyMs', 'provider', 'error', 'summary'] as const;
/** evm.simulate's own roots besides `result` (core/queries/simulateRequest.ts recordFields). */
export const SIMULATION_ROOTS = ['engine', 'revert', 'logs', 'steps', 'ok', 'gasUsed', 'balanceChanges', 'original', 'changed'] as const;

/** The roots an operation adds to PATH_ROOTS: evm.simulate's, explorer.receipt's (receiptRequest.ts) and explorer.account's (accountRequest.ts). */
export function extraRootsOf(op: string | undefined): readonly string[] {
  return op === 'evm.simulate' ? SIMULATION_ROOTS : op === RECEIPT_OPERATION_ID ? RECEIPT_ROOTS : op === ACCOUNT_OPERATION_ID ? ACCOUNT_ROOTS : [];
}
/** Keys every request takes besides its operation's parameters. */
export const RESERVED_KEYS = ['provider', 'confirm', 'timeout', 'page'] as const;
/** At most this many lines are read (a larger file gets one diagnostic). */
export const MAX_LINES = 20_000;

export function parseQueryFile(source: string): QueryFile {
  const file: QueryFile = { variables: new Map(), requests: [], diagnostics: [] };
  const lines = String(source).split(/\r\n|\r|\n/);
  if (lines.length > MAX_LINES) {
    file.diagnostics.push({ line: MAX_LINES + 1, col: 1, endCol: 2, severity: 'error', message: `The file has more than ${MAX_LINES} lines: split it.` });
    lines.length = MAX_LINES;
  }
  let current: QueryRequest | undefined;
  /** After a request line that could not be read: its lines belong to no request (the line's diagnostic says why). */
  let skipping = false;
  const names = new Set<string>();
  // The rest of a line is read with [^]* (any character), not .*: a U+2028 or U+2029 inside a line (lines
  // split on \r and \n only, as the editor does) made .*$ fail and the engine try every split of the
  // spaces before it, a time quadratic in the line (a 50,000-character line: 3 s).
  lines.forEach((raw, index) => {
    const line = index + 1;
    const indent = raw.length - raw.trimStart().length;
    const text = raw.trim();
    const col = indent + 1;
    const error = (c: number, len: number, message: string) =>
      file.diagnostics.push({ line, col: c, endCol: c + Math.max(1, len), severity: 'error', message });
    if (text === '' || text.startsWith('#')) return;

    let m: RegExpExecArray | null;
    if ((m = /^@([^\s=]*)\s*=\s?([^]*)$/.exec(text))) {
      if (!isName(m[1])) return error(col, m[1].length + 1, `"@${m[1]}" is not a variable name: use letters, digits, "_" and "-".`);
      const valueCol = col + text.length - m[2].length;
      const value = { text: m[2].trim(), line, col: valueCol };
      scanTemplate(value, file.diagnostics);
      file.variables.set(m[1], value);
      return;
    }
    if ((m = /^request(?:\s+|$)([^]*)$/.exec(text))) {
      current = readRequestHeader(m[1], line, col + text.length - m[1].length, names, error);
      skipping = !current;
      if (current) file.requests.push(current);
      return;
    }
    if (skipping) return;
    if (current) current.endLine = line;
    if (!current) return error(col, text.length, 'Expected "request <name> = <operation>", "@name = value" or a # comment.');
    if ((m = /^assert(?:\s+|$)([^]*)$/.exec(text))) {
      const at = col + text.length - m[1].length;
      const a = readAssertion({ text: m[1].trim(), line, col: at }, file.diagnostics, extraRootsOf(current.op?.id));
      if (a) current.assertions.push(a);
      return;
    }
    if ((m = /^([A-Za-z_][A-Za-z0-9_.]*)\s*:\s?([^]*)$/.exec(text))) {
      const value: Located = { text: m[2].trim(), line, col: col + text.length - m[2].length };
      readKey(current, m[1], col, value, file.diagnostics, error);
      return;
    }
    error(col, text.length, 'Expected "key: value", "assert …", a new "request …" or a # comment.');
  });
  for (const r of file.requests) checkComplete(r, file.diagnostics);
  return file;
}

type ErrorAt = (col: number, len: number, message: string) => void;

function readRequestHeader(rest: string, line: number, col: number, names: Set<string>, error: ErrorAt): QueryRequest | undefined {
  const m = /^([^\s=]*)\s*=\s*([^]*)$/.exec(rest);
  if (!m || !m[1]) {
    error(col, Math.max(1, rest.length), 'Expected "request <name> = <operation or raw request>", e.g. "request latest = consensusRpc.status".');
    return undefined;
  }
  if (!isName(m[1])) error(col, m[1].length, `"${m[1]}" is not a request name: use letters, digits, "_" and "-", starting with a letter.`);
  else if (names.has(m[1])) error(col, m[1].length, `A request named "${m[1]}" is already in this file.`);
  names.add(m[1]);
  const targetCol = col + rest.length - m[2].length;
  const target: Located = { text: m[2].trim(), line, col: targetCol };
  const request: QueryRequest = { name: m[1], line, endLine: line, target, fixedArgs: {}, args: [], confirmed: false, assertions: [] };
  const resolved = resolveTarget(target.text);
  if (typeof resolved === 'string') {
    error(targetCol, Math.max(1, target.text.length), resolved);
    return request;
  }
  return { name: m[1], line, endLine: line, target, fixedArgs: resolved.fixed, args: [], confirmed: false, assertions: [], op: resolved.op };
}

/** `evm.blockNumber`, or `<interface> <method|GET path|subscribe query>`. */
export function resolveTarget(text: string): { op: NonNullable<QueryRequest['op']>; fixed: Record<string, string> } | string {
  if (text === '') return 'Name an operation (e.g. consensusRpc.status) or a raw request (e.g. evmRpc eth_blockNumber).';
  const [first, ...restWords] = text.split(/\s+/);
  if (restWords.length === 0) {
    const op = findQueryOperation(first);
    if (op) return { op, fixed: {} };
    const hint = didYouMean(first, [...OPERATIONS.map((o) => o.id), WS_SUBSCRIBE.id, RECEIPT_OPERATION_ID, ACCOUNT_OPERATION_ID]);
    return `Unknown operation "${first}":${hint || ' use an operation id such as consensusRpc.status, or "<interface> <method>".'}`;
  }
  if (!(INTERFACES as readonly string[]).includes(first))
    return `Unknown interface "${first}":${didYouMean(first, INTERFACES) || ` use one of ${INTERFACES.join(', ')}.`}`;
  const iface = first as InterfaceId;
  const rest = text.slice(first.length).trim();
  switch (iface) {
    case 'evmRpc':
    case 'consensusRpc':
      return { op: findOperation(iface === 'evmRpc' ? 'evm.custom' : 'consensusRpc.custom')!, fixed: { method: rest } };
    case 'consensusHttp':
    case 'rest': {
      if (/^(POST|PUT|PATCH|DELETE)\s/i.test(rest)) {
        return `A raw ${iface} request is a GET: a transaction is sent with rest.broadcast or consensusRpc.broadcastTxSync and "confirm: broadcast".`;
      }
      const path = rest.replace(/^GET\s+/, '');
      return { op: findOperation(`${iface}.custom`)!, fixed: { path } };
    }
    case 'consensusWs': {
      const sub = /^subscribe\s+(.+)$/.exec(rest);
      if (sub) return { op: WS_SUBSCRIBE, fixed: { query: sub[1].trim() } };
      return { op: findOperation('consensusWs.custom')!, fixed: { method: rest } };
    }
    case 'evmWs':
      return 'evmWs has no requests to run: its subscriptions are watched with "Chain Endpoints: Watch Events…".';
  }
}

function readKey(r: QueryRequest, key: string, col: number, value: Located, diagnostics: Diagnostic[], error: ErrorAt): void {
  if (key === 'provider') {
    r.provider = value;
    if (value.text === '') error(value.col, 1, 'Name a provider, a ${variable}, or * for every provider.');
    scanTemplate(value, diagnostics);
    return;
  }
  if (key === 'confirm') {
    if (value.text === 'broadcast') r.confirmed = true;
    else error(value.col, Math.max(1, value.text.length), 'The only confirmation is "confirm: broadcast".');
    return;
  }
  if (key === 'timeout') {
    const ms = readDuration(value.text);
    if (ms === undefined || ms < 1 || ms > 3_600_000) error(value.col, Math.max(1, value.text.length), 'Type a timeout such as 10s or 500ms (at most 3600s).');
    else r.timeoutMs = ms;
    return;
  }
  if (key === 'page') {
    // `page: all` (a paged module route): follow pagination.next_key, at most 20 pages or `page: all <n>` (n <= 100).
    const pm = /^all(?:\s+(\d{1,3}))?$/.exec(value.text);
    if (!pm || (pm[1] !== undefined && (Number(pm[1]) < 1 || Number(pm[1]) > 100)))
      error(value.col, Math.max(1, value.text.length), 'Type "page: all" or "page: all <pages>" (1 to 100 pages).');
    else if (r.op && !r.op.nextPage) error(value.col, Math.max(1, value.text.length), `${r.op.id} is not paged.`);
    else r.pageAll = pm[1] === undefined ? 20 : Number(pm[1]);
    return;
  }
  if (!r.op) return; // unknown operation: already reported
  const param = r.op.params.find((p) => p.key === key);
  if (!param) {
    const keys = [...r.op.params.map((p) => p.key), ...RESERVED_KEYS];
    return error(col, key.length, `"${key}" is not a parameter of ${r.op.id}:${didYouMean(key, [...keys, 'assert'])} Use ${keys.join(', ')}.`);
  }
  if (r.fixedArgs[key] !== undefined) return error(col, key.length, `"${key}" is already given on the request line.`);
  if (r.args.some((a) => a.key === key)) return error(col, key.length, `"${key}" is given twice.`);
  r.args.push({ key, keyCol: col, value });
  const parts = scanTemplate(value, diagnostics);
  // A value with no reference is checked now, by the parameter's own validator.
  if (parts.every((p) => p.kind === 'text')) {
    const problem = checkParam(param, value.text);
    if (problem) error(value.col, Math.max(1, value.text.length), problem);
  }
}

function checkComplete(r: QueryRequest, diagnostics: Diagnostic[]): void {
  if (!r.op) return;
  const at = { line: r.line, col: r.target.col, endCol: r.target.col + Math.max(1, r.target.text.length), severity: 'error' as const };
  for (const [key, text] of Object.entries(r.fixedArgs)) {
    const param = r.op.params.find((p) => p.key === key);
    const problem = param && (text.trim() === '' ? `${param.title} is required on the request line.` : checkParam(param, text));
    if (problem) diagnostics.push({ ...at, message: problem });
  }
  for (const p of r.op.params) {
    if (p.optional || r.fixedArgs[p.key] !== undefined || r.args.some((a) => a.key === p.key)) continue;
    diagnostics.push({ ...at, message: `${r.op.id} needs "${p.key}: …" (${p.title}).` });
  }
  if (!r.confirmed) {
    // Known now: the request line's own arguments and those written without a reference (a
    // templated method is checked again, resolved, before it is sent).
    const known: Record<string, string> = { ...r.fixedArgs };
    for (const a of r.args) if (!hasTemplate(a.value.text)) known[a.key] = a.value.text;
    const why = stateChangingReason(r.op, known);
    if (why) diagnostics.push({ ...at, message: `${why}: add the line "confirm: broadcast" to the request.` });
  }
}

export { readDuration } from './assertions/values';

/** An `assert …` line's text: read by the first kind of the list (assertions/index.ts) that knows it. */
function readAssertion(a: Located, diagnostics: Diagnostic[], extraRoots: readonly string[] = []): Assertion | undefined {
  const ctx: ReadContext = {
    diagnostics,
    error: (message: string, col = a.col, len = a.text.length) => {
      diagnostics.push({ line: a.line, col, endCol: col + Math.max(1, len), severity: 'error', message });
      return null;
    },
  };
  const kinds = assertionReaders();
  for (const k of kinds) {
    const read = k.readWhole?.(a, ctx);
    if (read !== undefined) return read ?? undefined;
  }
  if (a.text === '') {
    ctx.error('Expected an assertion: success, status == 200, latency < 2s, <path> == value, <path> matches /re/, <path> exists, heights within N.');
    return undefined;
  }
  const head = a.text.split(/\s+/)[0] ?? '';
  const path = parsePath(head);
  if (typeof path === 'string') return ctx.error(`Bad path: ${path}.`, a.col, head.length) ?? undefined;
  const roots: readonly string[] = [...PATH_ROOTS, ...extraRoots];
  if (!roots.includes(String(path[0]))) {
    return ctx.error(`A path starts with one of ${roots.join(', ')} (got "${String(path[0])}").`, a.col, head.length) ?? undefined;
  }
  const rest = a.text.slice(head.length).trim();
  const after: AfterPath = { path, rest, restCol: a.col + a.text.length - rest.length };
  for (const k of kinds) {
    const read = k.readAfterPath?.(a, after, ctx);
    if (read !== undefined) return read ?? undefined;
  }
  ctx.error('After the path: ==, !=, <, <=, >, >= a value, "matches /re/", "exists", "not exists", "same" or "within N".', after.restCol, rest.length || 1);
  return undefined;
}
