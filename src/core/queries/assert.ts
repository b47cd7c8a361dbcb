// Assertions of query files, evaluated on what one request produced on one provider (a Record), or
// across the providers of a fan-out (`same`, `within N`). Integers compare as BigInt (decimal strings
// such as CometBFT's heights and 0x-hex quantities such as eth_blockNumber's included), other numbers
// as numbers, everything else as text or JSON.

import { clean } from '../base/text';
import type { MatchOutcome } from './regex';
import type { Assertion, CompareOp, PathSegment } from './syntax';
import { getPath, pathText } from './syntax';

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

export interface AssertionResult {
  readonly assertion: Assertion;
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

function asNumber(v: unknown): number | undefined {
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
    const s = typeof v === 'bigint' ? v.toString() : (JSON.stringify(v) ?? 'null');
    return s.length <= max ? s : `${s.slice(0, max)}…`;
  }
  const out: string[] = [];
  let length = 0;
  const push = (s: string): boolean => {
    out.push(s);
    length += s.length;
    return length <= max;
  };
  const walk = (x: unknown, depth: number): boolean => {
    if (x === null || typeof x !== 'object') return push(typeof x === 'bigint' ? x.toString() : (JSON.stringify(x) ?? 'null'));
    if (depth > 20) return push('…');
    if (Array.isArray(x)) {
      if (!push('[')) return false;
      for (let i = 0; i < x.length; i++) if ((i > 0 && !push(',')) || !walk(x[i], depth + 1)) return false;
      return push(']');
    }
    if (!push('{')) return false;
    let first = true;
    for (const k in x) {
      if (!Object.prototype.hasOwnProperty.call(x, k)) continue;
      if ((!first && !push(',')) || !push(`${JSON.stringify(k)}:`) || !walk((x as Record<string, unknown>)[k], depth + 1)) return false;
      first = false;
    }
    return push('}');
  };
  const whole = walk(v, 0);
  const text = out.join('');
  return whole && text.length <= max ? text : `${text.slice(0, max)}…`;
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

/**
 * One assertion on one record. `expected` is the value side with its references resolved (compare
 * and status); `within` and `same` are evaluated across providers by evaluateAcross().
 */
export function evaluate(a: Assertion, r: ResultRecord, expected?: string, matched?: MatchOutcome): AssertionResult {
  const done = (passed: boolean, message: string, actual?: unknown): AssertionResult =>
    actual !== undefined || passed === false
      ? { assertion: a, passed, message, actual: actual === undefined ? undefined : shorten(actual) }
      : { assertion: a, passed, message };
  switch (a.kind) {
    case 'success':
      return r.error ? done(false, `failed: ${r.error}`) : done(true, 'succeeded');
    case 'failure':
      return r.error ? done(true, `failed as expected: ${r.error}`) : done(false, 'succeeded, a failure was expected');
    case 'status': {
      if (r.status === undefined) return done(false, `no HTTP status${r.error ? ` (${r.error})` : ''}`);
      const c = compare(r.status, a.op, expected ?? a.value.text);
      return done(c.passed, `status ${r.status}${c.passed ? '' : `, expected ${a.op} ${expected ?? a.value.text}`}`, r.status);
    }
    case 'latency': {
      const ok = a.op === '<' ? r.latencyMs < a.ms : r.latencyMs <= a.ms;
      return done(ok, `${Math.round(r.latencyMs)} ms${ok ? '' : `, expected ${a.op} ${a.ms} ms`}`, Math.round(r.latencyMs));
    }
    case 'exists':
    case 'compare':
    case 'matches': {
      const got = getPath(r, a.path);
      const where = () => pathText(a.path); // only a failure's message names it
      if (a.kind === 'exists') {
        const ok = a.negate ? !got.found : got.found && got.value !== undefined;
        return done(ok, got.found ? `found ${shorten(got.value, 80)}` : `${where()} is absent`, got.found ? got.value : undefined);
      }
      if (!got.found) return done(false, `${where()} is absent${r.error ? ` (the request failed: ${r.error})` : ''}`);
      if (a.kind === 'matches') {
        // Run by the caller, bounded (core/queries/regex.ts): never here, on the calling thread.
        if (!matched) return done(false, 'the regular expression was not run');
        if ('error' in matched) return done(false, matched.error, got.value);
        const ok = matched.matched;
        return done(ok, `found ${shorten(got.value, 80)}${ok ? '' : `, which does not match ${String(a.regex)}`}`, got.value);
      }
      const c = compare(got.value, a.op, expected ?? a.value.text);
      const want = expected ?? a.value.text;
      return done(c.passed, `found ${shorten(got.value, 80)}${c.passed ? '' : `, expected ${a.op} ${want}`}${c.reason ? ` (${c.reason})` : ''}`, got.value);
    }
    case 'within':
    case 'same':
      return evaluateAcross(a, [r]);
  }
}

/** `same` and `within N` across the records of a fan-out (one record: trivially true when present). */
export function evaluateAcross(a: Extract<Assertion, { kind: 'within' | 'same' }>, records: readonly ResultRecord[]): AssertionResult {
  const label = a.path ? pathText(a.path) : 'heights';
  const values = records.map((r) => {
    if (a.path) {
      const got = getPath(r, a.path);
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
  if (a.kind === 'same') {
    const first = shorten(values[0].value, Infinity);
    const passed = values.every((v) => shorten(v.value, Infinity) === first);
    return {
      assertion: a,
      passed,
      message: passed ? `${shorten(values[0].value, 80)} on ${values.length} provider(s)` : 'the providers differ',
      actual: shown,
    };
  }
  const ints = values.map((v) => asInteger(v.value));
  if (ints.some((i) => i === undefined)) return { assertion: a, passed: false, message: `${label}: not all integers`, actual: shown };
  const nums = ints as bigint[];
  const max = nums.reduce((x, y) => (y > x ? y : x));
  const min = nums.reduce((x, y) => (y < x ? y : x));
  const spread = max - min;
  return { assertion: a, passed: spread <= a.n, message: `spread ${spread} block(s) across ${values.length} provider(s) (${min} to ${max})`, actual: shown };
}
