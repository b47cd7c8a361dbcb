// The query file's syntax tree and its small sub-languages: templates (`${var}`, `${env:NAME}`,
// `${secret:NAME}`, `{{request.path - 10}}`) and JSON paths (`result.txs[0].hash`). Every position is
// 1-based (line, column), as editors and compilers show them. No I/O, no vscode. The file as read
// (requests and their assertions) is model.ts: it sits above the assertion kinds, which use these.

export interface Diagnostic {
  readonly line: number;
  readonly col: number;
  /** Column after the last character marked (exclusive), >= col + 1. */
  readonly endCol: number;
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

/** A piece of text from the file with where it starts. */
export interface Located {
  readonly text: string;
  readonly line: number;
  readonly col: number;
}

export type PathSegment = string | number;

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/**
 * What every assertion is: its text, where it is, and its kind. Each kind declares its typed form in
 * its own file (assertions/*.ts, extending this); the union of them, Assertion, is computed from
 * the list in assertions/index.ts.
 */
export interface AssertionBase extends Located {
  readonly kind: string;
}

export interface ArgLine {
  readonly key: string;
  readonly keyCol: number;
  readonly value: Located;
}

// --- templates ---------------------------------------------------------------------------------

export type TemplatePart =
  | { kind: 'text'; text: string }
  | { kind: 'var'; name: string; col: number; length: number }
  /** `${env:NAME}`, or `${env:NAME:-fallback}` (the fallback when NAME is not set). */
  | { kind: 'env'; name: string; col: number; length: number; fallback?: string }
  | { kind: 'secret'; name: string; col: number; length: number }
  | { kind: 'ref'; request: string; path: PathSegment[]; offset: bigint; col: number; length: number };

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SECRET_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export function isName(s: string): boolean {
  return NAME.test(s);
}

/** Values scanned without an error, by value: the parser, the checks and every run read the same parts. */
const scanned = new WeakMap<Located, readonly TemplatePart[]>();

/**
 * The parts of a value, scanned once: a parsed file's values are read by the checks, by the run's
 * references and by every interpolation, without scanning them again. Diagnostics are the parser's
 * (scanTemplate); a value that has one is scanned again at each use.
 */
export function templateParts(v: Located): readonly TemplatePart[] {
  if (!hasTemplate(v.text)) return v.text === '' ? [] : [{ kind: 'text', text: v.text }];
  return scanned.get(v) ?? scanTemplate(v, []);
}

/** Whether a value has anything to resolve (`${…}` or `{{…}}`; most values are plain text: nothing scanned or kept for them). */
export function hasTemplate(text: string): boolean {
  return text.includes('${') || text.includes('{{');
}

/** Splits a value into text and references; `col` is the column of the value's first character. */
export function scanTemplate(v: Located, diagnostics: Diagnostic[]): TemplatePart[] {
  const before = diagnostics.length;
  const parts = scanParts(v, diagnostics);
  if (diagnostics.length === before && hasTemplate(v.text)) scanned.set(v, parts);
  return parts;
}

function scanParts(v: Located, diagnostics: Diagnostic[]): TemplatePart[] {
  const parts: TemplatePart[] = [];
  const s = v.text;
  let i = 0;
  let text = '';
  const error = (at: number, len: number, message: string) =>
    diagnostics.push({ line: v.line, col: v.col + at, endCol: v.col + at + Math.max(1, len), severity: 'error', message });
  while (i < s.length) {
    const open = s.startsWith('${', i) ? '${' : s.startsWith('{{', i) ? '{{' : undefined;
    if (!open) {
      text += s[i++];
      continue;
    }
    const close = open === '${' ? '}' : '}}';
    const end = s.indexOf(close, i + 2);
    if (end < 0) {
      error(i, 2, `"${open}" is not closed: add "${close}".`);
      text += s.slice(i);
      break;
    }
    if (text) parts.push({ kind: 'text', text });
    text = '';
    const inner = s.slice(i + 2, end).trim();
    const col = v.col + i;
    const length = end + close.length - i;
    if (open === '${') {
      const m = /^(env|secret):([^:]*)(?::-(.*))?$/s.exec(inner);
      if (m && (m[3] === undefined || m[1] === 'env')) {
        const name = m[2].trim();
        const ok = m[1] === 'env' ? ENV_NAME.test(name) : SECRET_NAME.test(name);
        if (!ok) error(i, length, `"${name}" is not a valid ${m[1]} name.`);
        else if (m[1] === 'env') parts.push({ kind: 'env', name, col, length, ...(m[3] !== undefined ? { fallback: m[3] } : {}) });
        else parts.push({ kind: 'secret', name, col, length });
      } else if (!NAME.test(inner)) {
        error(i, length, `"\${${inner}}" is not a variable: use \${name}, \${env:NAME} or \${secret:NAME}.`);
      } else {
        parts.push({ kind: 'var', name: inner, col, length });
      }
    } else {
      const m = /^([^\s+-]+)\s*(?:([+-])\s*(\d{1,30}))?$/.exec(inner);
      const path = m ? parsePath(m[1]) : undefined;
      if (!m || path === undefined || typeof path === 'string' || path.length === 0 || typeof path[0] !== 'string' || !NAME.test(path[0])) {
        error(i, length, `"{{${inner}}}" is not a reference: use {{request.result.path}}, optionally followed by + N or - N.`);
      } else {
        const offset = m[2] ? (m[2] === '-' ? -BigInt(m[3]) : BigInt(m[3])) : 0n;
        parts.push({ kind: 'ref', request: path[0] as string, path: path.slice(1), offset, col, length });
      }
    }
    i = end + close.length;
  }
  if (text) parts.push({ kind: 'text', text });
  return parts;
}

// --- paths -------------------------------------------------------------------------------------

/** `a.b[0].c` (or `a.b.0.c`) into segments; an error sentence when malformed. */
export function parsePath(text: string): PathSegment[] | string {
  const out: PathSegment[] = [];
  // `[0x…]` and `[cosmos1…]`: an address as a key (explorer.receipt's `changes[0x…].atest`), 0x lowercased.
  const re = /([A-Za-z0-9_@$:-]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|\[(0x[0-9a-fA-F]{40}|[a-z]{1,20}1[02-9ac-hj-np-z]{6,90})\]/y;
  let i = 0;
  let expectName = true;
  while (i < text.length) {
    if (text[i] === '.' && !expectName) {
      i++;
      expectName = true;
      continue;
    }
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m || (m[1] !== undefined && !expectName)) return `unexpected "${text.slice(i, i + 10)}" in the path "${text}"`;
    if (m[1] !== undefined) out.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else if (m[4] !== undefined) out.push(m[4].startsWith('0x') ? m[4].toLowerCase() : m[4]);
    else out.push(JSON.parse(`"${m[3]}"`) as string);
    i = re.lastIndex;
    expectName = false;
  }
  if (expectName && out.length > 0) return `the path "${text}" ends with "."`;
  return out;
}

export function pathText(path: readonly PathSegment[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** The value at `path` in `root`; `found` false when a segment is missing. */
export function getPath(root: unknown, path: readonly PathSegment[]): { found: boolean; value?: unknown } {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return { found: false };
    if (Array.isArray(cur) && typeof seg === 'number') {
      if (seg >= cur.length) return { found: false };
      cur = cur[seg];
    } else if (!Array.isArray(cur) && Object.prototype.hasOwnProperty.call(cur, String(seg))) {
      cur = (cur as Record<string, unknown>)[String(seg)];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: cur };
}
