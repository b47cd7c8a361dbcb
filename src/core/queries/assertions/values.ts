// The values assertions work on: what one request produced on one provider (a Record), how a found
// value is shown (one line, cut), and how two values compare. Integers compare as BigInt (decimal
// strings such as CometBFT's heights and 0x-hex quantities such as eth_blockNumber's included), other
// numbers as numbers, everything else as text or JSON.

import { clean } from '../../base/text';
import type { AssertionBase, CompareOp, PathSegment } from '../syntax';
import { getPath, pathText } from '../syntax';

/** Server text in a report: one line, no control characters, at most `max` characters (the documents' cleaning). */
export function oneLine(text: string, max = 2000): string {
  return clean(text, max);
}

/** What a path is evaluated against: one request on one provider. */
export interface ResultRecord {
  readonly provider: string;
  readonly result?: unknown;
  readonly status?: number;
  readonly latencyMs: number;
  /** The error sentence when the request failed. */
  readonly error?: string;
  readonly summary?: string;
}

/** One assertion's verdict (A: its typed form; the run's results are AssertionResult<Assertion>). */
export interface AssertionResult<A extends AssertionBase = AssertionBase> {
  readonly assertion: A;
  readonly passed: boolean;
  /** What was checked, and for a failure what was found. */
  readonly message: string;
  /** The value found (JSON text, shortened), when there was one. */
  readonly actual?: string;
  /** The assertion as evaluated: its text with references resolved (the reports' names), when it differs. */
  readonly shownText?: string;
}

/** The text a `matches` assertion is run on (a string as it is, anything else as JSON), or undefined when absent. */
export function matchedText(r: ResultRecord, path: readonly PathSegment[]): string | undefined {
  const got = getPath(r, path);
  if (!got.found) return undefined;
  return typeof got.value === 'string' ? got.value : shorten(got.value, Infinity);
}

export function asInteger(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : undefined;
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (/^-?\d{1,80}$/.test(t) || /^0x[0-9a-fA-F]{1,80}$/.test(t)) return BigInt(t);
  return undefined;
}

export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

/** The expected side as written: JSON when it parses (`"text"`, 5, true, null), else the text itself. */
function expectedValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * JSON text of `v`, cut at about `max` characters without serializing the rest (a preview of a
 * large answer costs what the preview shows).
 */
export function preview(v: unknown, max = 200): string {
  if (v === null || typeof v !== 'object') {
    // The common case (a height, a hash, a status): no walk.
    const s = scalarText(v);
    return s.length <= max ? s : `${s.slice(0, max)}…`;
  }
  const into: PreviewText = { text: '', max };
  const whole = previewInto(v, 0, into);
  return whole && into.text.length <= max ? into.text : `${into.text.slice(0, max)}…`;
}

/** The text a preview has built so far, and where it stops. */
interface PreviewText {
  text: string;
  readonly max: number;
}

function scalarText(x: unknown): string {
  return typeof x === 'bigint' ? x.toString() : (JSON.stringify(x) ?? 'null');
}

/** Appends `s`; false once the text is past its bound (nothing more is visited). */
function append(into: PreviewText, s: string): boolean {
  into.text += s;
  return into.text.length <= into.max;
}

/** Appends the JSON text of `x` (preview's walk: no closure, no list of pieces, per preview); false once past the bound. */
function previewInto(x: unknown, depth: number, into: PreviewText): boolean {
  if (x === null || typeof x !== 'object') return append(into, scalarText(x));
  if (depth > 20) return append(into, '…');
  if (Array.isArray(x)) {
    if (!append(into, '[')) return false;
    for (let i = 0; i < x.length; i++) if ((i > 0 && !append(into, ',')) || !previewInto(x[i], depth + 1, into)) return false;
    return append(into, ']');
  }
  if (!append(into, '{')) return false;
  let first = true;
  for (const k in x) {
    if (!Object.prototype.hasOwnProperty.call(x, k)) continue;
    if ((!first && !append(into, ',')) || !append(into, `${JSON.stringify(k)}:`) || !previewInto((x as Record<string, unknown>)[k], depth + 1, into))
      return false;
    first = false;
  }
  return append(into, '}');
}

export function shorten(v: unknown, max = 200): string {
  if (max !== Infinity) return preview(v, max);
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? x.toString() : x)) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** `actual <op> expectedText`; a reason when the two cannot be ordered. */
export function compare(actual: unknown, op: CompareOp, expectedText: string): { passed: boolean; reason?: string } {
  const expected = expectedValue(expectedText);
  const ai = asInteger(actual);
  // An integer as written (JSON.parse would round one above 2^53).
  const ei = asInteger(expectedText) ?? asInteger(expected);
  let order: number | undefined;
  if (ai !== undefined && ei !== undefined) order = ai < ei ? -1 : ai > ei ? 1 : 0;
  else {
    const an = asNumber(actual);
    const en = asNumber(expected);
    if (an !== undefined && en !== undefined) order = an < en ? -1 : an > en ? 1 : 0;
  }
  if (op === '==' || op === '!=') {
    let equal: boolean;
    if (order !== undefined) equal = order === 0;
    else if (typeof actual === 'string' && typeof expected === 'string') equal = actual === expected;
    else equal = shorten(actual, Infinity) === shorten(expected, Infinity);
    return { passed: op === '==' ? equal : !equal };
  }
  if (order === undefined) return { passed: false, reason: 'not two numbers' };
  const passed = op === '<' ? order < 0 : op === '<=' ? order <= 0 : op === '>' ? order > 0 : order >= 0;
  return { passed };
}

/** Common places of a block height in the answers of the catalogue's operations. */
const HEIGHT_PATHS = [['sync_info', 'latest_block_height'], ['block', 'header', 'height'], ['sdk_block', 'header', 'height'], ['number'], ['height']];

/** The block height an answer shows (status, a block, eth_blockNumber), if any. */
export function heightOf(result: unknown): bigint | undefined {
  if (typeof result === 'string') return asInteger(result);
  for (const p of HEIGHT_PATHS) {
    const got = getPath(result, p);
    const h = got.found ? asInteger(got.value) : undefined;
    if (h !== undefined) return h;
  }
  return undefined;
}

/** A duration as written (`500ms`, `2s`, `1.5`: seconds) in milliseconds; undefined when malformed. */
export function readDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s)?$/.exec(text.trim());
  if (!m) return undefined;
  return Math.round(Number(m[1]) * (m[2] === 'ms' ? 1 : 1000));
}

/** An assertion's result on one record: the value found shown (shortened) when there is one. */
export function resultOf<A extends AssertionBase>(a: A, passed: boolean, message: string, actual?: unknown): AssertionResult<A> {
  return actual !== undefined || passed === false
    ? { assertion: a, passed, message, actual: actual === undefined ? undefined : shorten(actual) }
    : { assertion: a, passed, message };
}

/**
 * The values of a fan-out's records at `path` (or each provider's height), shown as one line; a
 * failed result when a provider has none.
 */
export function valuesAcross<A extends AssertionBase>(
  a: A,
  path: readonly PathSegment[] | undefined,
  records: readonly ResultRecord[],
): { values: { provider: string; value: unknown }[]; label: string; shown: string } | AssertionResult<A> {
  const label = path ? pathText(path) : 'heights';
  const values = records.map((r) => {
    if (path) {
      const got = getPath(r, path);
      return { provider: r.provider, found: got.found, value: got.value };
    }
    const h = r.error ? undefined : heightOf(r.result);
    return { provider: r.provider, found: h !== undefined, value: h };
  });
  const missing = values.filter((v) => !v.found);
  const shown = values.map((v) => `${v.provider}=${v.found ? shorten(v.value, 80) : 'absent'}`).join(', ');
  if (missing.length > 0 || values.length === 0) {
    return { assertion: a, passed: false, message: `${label}: no value from ${missing.map((v) => v.provider).join(', ') || 'any provider'}`, actual: shown };
  }
  return { values, label, shown };
}
