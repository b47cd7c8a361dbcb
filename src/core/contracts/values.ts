// Decoded ABI values as plain JSON: integers as decimal strings (they pass 2^53), bytes and
// addresses as 0x hex, tuples as objects by component name (arrays when unnamed), arrays as arrays.
// Bounded: nesting and array lengths are capped so a hostile blob cannot build a huge structure.

import type { AbiParameter } from 'viem';
import type { DecodedArg } from './types';

const MAX_ITEMS = 1000;
const MAX_DEPTH = 16;

/** The canonical type of a parameter: tuples spelled out (`(address,uint256)[]`). */
export function canonicalType(p: AbiParameter): string {
  if (!p.type.startsWith('tuple')) return p.type;
  const components = (p as { components?: readonly AbiParameter[] }).components ?? [];
  return `(${components.map(canonicalType).join(',')})${p.type.slice(5)}`;
}

/** `name(type,type)`. */
export function signatureOf(item: { name?: string; inputs?: readonly AbiParameter[] }): string {
  // The last item asked for, compared in place (a trace signs the same function for frame after frame; a WeakMap hashes each time).
  if (item === lastItem) return lastSignature;
  let s = signatures.get(item);
  if (s === undefined) {
    s = `${item.name ?? ''}(${(item.inputs ?? []).map(canonicalType).join(',')})`;
    // An ABI item is never changed once read: remembered per item (a trace signs the same few functions thousands of times).
    signatures.set(item, s);
  }
  lastItem = item;
  lastSignature = s;
  return s;
}
const signatures = new WeakMap<object, string>();
let lastItem: object | undefined;
let lastSignature = '';

/** One value as JSON: bigint → decimal string, the rest as is (viem gives hex strings, booleans, arrays, objects). */
export function jsonValue(v: unknown, depth = 0): unknown {
  switch (typeof v) {
    case 'bigint':
      return v.toString();
    case 'string':
    case 'boolean':
    case 'number':
      return v;
    case 'object': {
      if (v === null || depth > MAX_DEPTH) return null;
      if (Array.isArray(v)) {
        const out = v.slice(0, MAX_ITEMS).map((x) => jsonValue(x, depth + 1));
        if (v.length > MAX_ITEMS) out.push(`… ${v.length - MAX_ITEMS} more`);
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = jsonValue(x, depth + 1);
      return out;
    }
    default:
      return undefined;
  }
}

/** Decoded values (an array by position, or an object by name as viem gives events) against their parameters. */
export function argsOf(params: readonly AbiParameter[], values: unknown, indexedMarks = false): DecodedArg[] {
  const out: DecodedArg[] = [];
  const list = Array.isArray(values) ? values : undefined;
  const byName = !list && values && typeof values === 'object' ? (values as Record<string, unknown>) : undefined;
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    const raw = list ? list[i] : byName ? (p.name ? byName[p.name] : byName[String(i)]) : undefined;
    const arg: DecodedArg = { name: p.name ?? '', type: canonicalType(p), value: jsonValue(raw) };
    out.push(indexedMarks && (p as { indexed?: boolean }).indexed ? { ...arg, indexed: true } : arg);
  }
  return out;
}

/** What a call's outputs are for a person or a query file: one output is its value; several an object by name (or position). */
export function resultOf(args: readonly DecodedArg[]): unknown {
  if (args.length === 0) return null;
  if (args.length === 1) return args[0].value;
  const out: Record<string, unknown> = {};
  args.forEach((a, i) => (out[a.name || String(i)] = a.value));
  return out;
}

/** A value in one short line (documents, the event console): strings quoted only when they are not hex or numbers. */
export function shortValue(v: unknown, max = 120): string {
  const s = typeof v === 'string' ? (/^(0x[0-9a-fA-F]*|-?\d+)$/.test(v) ? v : JSON.stringify(v)) : (JSON.stringify(v) ?? String(v));
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
