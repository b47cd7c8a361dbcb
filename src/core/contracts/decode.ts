// Decoding against candidate ABI items: a call's input, a log, a revert, a call's output. The
// selector (or topic0) has already picked the candidates; each is tried in order and the first that
// decodes cleanly wins (an ERC-20 and an ERC-721 Transfer share topic0 and differ in what is
// indexed). viem's decodeAbiParameters reads the values; the selector is not hashed again per item.
// A list of static words (address, bool, intN/uintN, bytesN: most calls, returns and events) is read
// by decodeParams() straight from the hex, with viem's result and viem's refusals (a trace decodes
// thousands of frames: viem's cursor costs ~10 µs a call); anything else, and any data the fast path
// would refuse, goes to viem itself (so its error is the one thrown).

import { type AbiEvent, type AbiFunction, type AbiParameter, type Hex, decodeAbiParameters } from 'viem';
import { checksummed } from '../chain/abiCall';
import { type AbiEntry, ERROR_SELECTOR, ERROR_STRING, PANIC, PANIC_SELECTOR, panicMeaning } from './builtin';
import type { AbiSource, Decoded, DecodedArg } from './types';
import { argsOf, canonicalType, signatureOf } from './values';

export interface Candidate {
  readonly item: AbiEntry;
  /** The contract whose ABI has it. */
  readonly contract?: string;
  readonly source: AbiSource;
}

const DYNAMIC = /^(string|bytes|tuple)$|\[/;

// ---- the fast path for static words ----

/** How one static word is read: 0 address, 1 bool, 2 unsigned, 3 signed, 4 bytesN; `big` and `n` as viem reads them. */
type WordPlan = { readonly kind: 0 | 1 | 2 | 3 | 4; readonly big: boolean; readonly n: number };
const plans = new WeakMap<readonly AbiParameter[], readonly WordPlan[] | null>();
const WORD_TYPE = /^(address|bool|u?int(\d{0,3})|bytes([1-9]|[12]\d|3[012]))$/;
const EVEN_HEX = /^0x(?:[0-9a-fA-F]{2})*$/;
const ZERO_31 = '0'.repeat(62);
const ZERO_51 = '0'.repeat(51);
const TWO_255 = 1n << 255n;
const TWO_256 = 1n << 256n;

/** The plan for a list of parameters that are all static words, else null (viem reads them). */
function planOf(params: readonly AbiParameter[]): readonly WordPlan[] | null {
  // The last list asked for, compared in place (a trace asks for the same few lists thousands of times; a WeakMap hashes each time).
  if (params === lastParams) return lastPlan;
  const known = plans.get(params);
  if (known !== undefined) {
    lastParams = params;
    lastPlan = known;
    return known;
  }
  return (lastPlan = newPlan((lastParams = params)));
}
let lastParams: readonly AbiParameter[] | undefined;
let lastPlan: readonly WordPlan[] | null = null;

function newPlan(params: readonly AbiParameter[]): readonly WordPlan[] | null {
  let plan: WordPlan[] | null = [];
  for (const p of params) {
    const m = WORD_TYPE.exec(p.type);
    if (!m) {
      plan = null;
      break;
    }
    if (p.type === 'address') plan.push({ kind: 0, big: false, n: 20 });
    else if (p.type === 'bool') plan.push({ kind: 1, big: false, n: 32 });
    else if (m[2] !== undefined) {
      // viem: the size after "int" (256 when none); above 48 bits a bigint, else a number.
      const size = Number.parseInt(p.type.split('int')[1] || '256', 10);
      plan.push({ kind: p.type.startsWith('int') ? 3 : 2, big: size > 48, n: size });
    } else plan.push({ kind: 4, big: false, n: Number.parseInt(m[3], 10) });
  }
  if (plan !== null && plan.length === 0) plan = null;
  plans.set(params, plan);
  return plan;
}

// The last addresses read as words (as written, 40 digits) and their checksums: a trace passes the
// same few addresses thousands of times, and comparing costs less than lower-casing and hashing.
const RECENT = 4;
const recentRaw: string[] = [];
const recentSum: Hex[] = [];
let recentNext = 0;

/** The checksummed address of the 40 hex digits at `at` in `data` (already checked as hex). */
function addressAt(data: string, at: number): Hex {
  // A slice compared with === (V8 compares in place) costs less than startsWith() at an offset.
  const raw = data.slice(at, at + 40);
  for (let k = 0; k < recentRaw.length; k++) if (raw === recentRaw[k]) return recentSum[k];
  const sum = checksummed(`0x${raw}`);
  // Kept from the checksum (42 characters), never a slice of `data`: a slice would keep a large input alive.
  recentRaw[recentNext] = sum.toLowerCase().slice(2);
  recentSum[recentNext] = sum;
  recentNext = (recentNext + 1) % RECENT;
  return sum;
}

/**
 * Static words read from `data` (from the character `from`: 2 after 0x, 10 after a selector) as
 * viem's decodeAbiParameters reads them; undefined where viem must (other types, or data it refuses).
 * `hexChecked`: the caller has already checked that `data` is 0x and hex digits only. `json`: big
 * integers as decimal strings (jsonValue()'s form; viem gives bigints).
 */
function decodeWords(plan: readonly WordPlan[], data: string, from = 2, hexChecked = false, json = false): unknown[] | undefined {
  if (data.length < from + 64 * plan.length) return undefined;
  if (hexChecked ? (data.length - from) % 2 !== 0 : !EVEN_HEX.test(data)) return undefined;
  const out: unknown[] = new Array(plan.length);
  for (let i = 0; i < plan.length; i++) {
    const w = plan[i];
    const at = from + 64 * i;
    switch (w.kind) {
      case 0:
        out[i] = addressAt(data, at + 24);
        break;
      case 1: {
        if (!data.startsWith(ZERO_31, at)) return undefined;
        const last = data.slice(at + 62, at + 64);
        if (last === '00') out[i] = false;
        else if (last === '01') out[i] = true;
        else return undefined;
        break;
      }
      case 2:
      case 3: {
        let v: bigint;
        // Most words are small: 13 hex digits (52 bits) read as a number, the rest as a bigint.
        if (data.startsWith(ZERO_51, at)) {
          const low = Number.parseInt(data.slice(at + 51, at + 64), 16);
          if (w.kind === 2 && (!w.big || json)) {
            // json: a big integer as its decimal string already (what argsOf() makes of the bigint).
            out[i] = w.big ? String(low) : low;
            break;
          }
          v = BigInt(low);
        } else v = BigInt(`0x${data.slice(at, at + 64)}`);
        if (w.kind === 3 && v >= TWO_255) v -= TWO_256;
        if (w.big) out[i] = json ? v.toString() : v;
        else {
          const n = Number(v);
          if (!Number.isSafeInteger(n)) return undefined;
          out[i] = n;
        }
        break;
      }
      default:
        out[i] = `0x${data.slice(at, at + 2 * w.n).toLowerCase()}`;
    }
  }
  return out;
}

/** viem's decodeAbiParameters, with static words read directly (the same values; the same refusals, thrown by viem). */
export function decodeParams(params: readonly AbiParameter[], data: Hex): unknown[] {
  const plan = planOf(params);
  const fast = plan ? decodeWords(plan, data) : undefined;
  return fast ?? (decodeAbiParameters(params, data) as unknown[]);
}

/** The same, always through viem (tests compare the two). */
export function decodeParamsSlow(params: readonly AbiParameter[], data: Hex): unknown[] {
  return decodeAbiParameters(params, data) as unknown[];
}

function decoded(kind: Decoded['kind'], c: Candidate, args: DecodedArg[], selector: string): Decoded {
  // Two literals rather than a conditional spread (a trace builds one per frame).
  const name = c.item.name;
  const signature = signatureOf(c.item);
  return c.source.kind === 'signatures' || c.source.kind === 'artifact'
    ? { kind, name, signature, args, contract: c.contract, source: c.source.label, selector, guessed: true }
    : { kind, name, signature, args, contract: c.contract, source: c.source.label, selector };
}

/** A static indexed value from its topic: the common types read directly, the rest through viem. */
function topicValue(p: AbiParameter, topic: Hex): unknown {
  if (topic.length !== 66) return decodeAbiParameters([p], topic)[0];
  switch (p.type) {
    case 'address':
      if (!/^0x0{24}/.test(topic)) break;
      return checksummed(`0x${topic.slice(26)}`);
    case 'uint256':
      return BigInt(topic);
    case 'bytes32':
      return topic;
    case 'bool':
      if (topic === `0x${'0'.repeat(64)}` || topic === `0x${'0'.repeat(63)}1`) return topic.endsWith('1');
  }
  return decodeAbiParameters([p], topic)[0];
}

/** A call's input (0x + selector + arguments) against the candidates for its selector. */
export function decodeInputWith(input: string, candidates: readonly Candidate[]): Decoded | undefined {
  return functionWith(input, candidates)?.decoded;
}

/** The function a call's input selects among the candidates (the first whose inputs decode) and its decoding. */
export function functionWith(input: string, candidates: readonly Candidate[]): { fn: AbiFunction; decoded: Decoded } | undefined {
  return functionAmong(input, candidates, false);
}

/**
 * The same for an input already checked to be 0x and hex digits (a trace's frames): the arguments are
 * read in place. `selector`: the input's first 10 characters in lower case, when the caller has them
 * (a trace shares one string among the frames that call the same function).
 */
export function functionWithHex(input: string, candidates: readonly Candidate[], selector?: string): { fn: AbiFunction; decoded: Decoded } | undefined {
  return functionAmong(input, candidates, true, selector);
}

function functionAmong(
  input: string,
  candidates: readonly Candidate[],
  hexChecked: boolean,
  selector?: string,
): { fn: AbiFunction; decoded: Decoded } | undefined {
  let body: Hex | undefined;
  for (const c of candidates) {
    if (c.item.type !== 'function') continue;
    selector ??= input.slice(0, 10).toLowerCase();
    try {
      // Static words straight from the input (after its selector), made into the arguments in place; anything else through viem, from the body.
      const plan = planOf(c.item.inputs);
      const words = plan ? decodeWords(plan, input, 10, hexChecked, true) : undefined;
      const args = words ? argsOfWords(c.item.inputs, words) : argsOf(c.item.inputs, decodeParamsSlow(c.item.inputs, (body ??= `0x${input.slice(10)}` as Hex)));
      return { fn: c.item, decoded: decoded('function', c, args, selector) };
    } catch {
      // not this one
    }
  }
  return undefined;
}

/**
 * argsOf() of static words read by decodeWords(…, json = true), built in their array (no second
 * array): their types are not tuples (canonicalType() is the type) and their values are JSON already
 * (jsonValue() gives each back as is).
 */
function argsOfWords(params: readonly AbiParameter[], words: unknown[]): DecodedArg[] {
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    words[i] = { name: p.name ?? '', type: p.type, value: words[i] };
  }
  return words as DecodedArg[];
}

/** A log against the candidates for its topic0: the indexed arguments from the topics, the rest from data. */
export function decodeLogWith(topics: readonly string[], data: string, candidates: readonly Candidate[]): Decoded | undefined {
  for (const c of candidates) {
    if (c.item.type !== 'event') continue;
    const ev = c.item as AbiEvent;
    const indexed = ev.inputs.filter((p) => p.indexed);
    if (indexed.length !== topics.length - 1) continue;
    try {
      const values: unknown[] = new Array(ev.inputs.length);
      let t = 1;
      ev.inputs.forEach((p, i) => {
        if (!p.indexed) return;
        const topic = topics[t++] as Hex;
        // A dynamic value is indexed by its hash: the topic is all there is.
        values[i] = DYNAMIC.test(p.type) ? topic : topicValue(p, topic);
      });
      const plain = ev.inputs.filter((p) => !p.indexed);
      if (plain.length > 0) {
        const rest = decodeParams(plain, (data === '' ? '0x' : data) as Hex);
        let k = 0;
        ev.inputs.forEach((p, i) => {
          if (!p.indexed) values[i] = rest[k++];
        });
      }
      const args = argsOf(ev.inputs, values, true);
      // A dynamic indexed value is its keccak hash: say so in its type.
      const shown = args.map((a, i) => (a.indexed && DYNAMIC.test(ev.inputs[i].type) ? { ...a, type: `${a.type} (hash)` } : a));
      return decoded('event', c, shown, topics[0].toLowerCase());
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Revert data: Error(string), Panic(uint256) with its meaning, or a custom error among the candidates. */
export function decodeErrorWith(data: string, candidates: readonly Candidate[]): Decoded | undefined {
  const selector = data.slice(0, 10).toLowerCase();
  const body = `0x${data.slice(10)}` as Hex;
  const builtin: AbiSource = { kind: 'standard', label: 'Solidity built-in error' };
  if (selector === ERROR_SELECTOR) {
    try {
      const [message] = decodeAbiParameters(ERROR_STRING.inputs, body);
      return decoded('error', { item: ERROR_STRING, source: builtin }, [{ name: 'message', type: 'string', value: message }], selector);
    } catch {
      // malformed: fall through to unknown
    }
  }
  if (selector === PANIC_SELECTOR) {
    try {
      const code = decodeAbiParameters(PANIC.inputs, body)[0] as bigint;
      const hex = `0x${code.toString(16).padStart(2, '0')}`;
      return { ...decoded('error', { item: PANIC, source: builtin }, [{ name: 'code', type: 'uint256', value: hex }], selector), meaning: panicMeaning(code) };
    } catch {
      // malformed
    }
  }
  for (const c of candidates) {
    if (c.item.type !== 'error') continue;
    try {
      const values = decodeParams(c.item.inputs, body);
      return decoded('error', c, argsOf(c.item.inputs, values), selector);
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** A function's return data by its outputs. Throws (viem's error) when the data does not fit. `hexChecked`: `data` is known to be 0x and hex digits. */
export function decodeOutputs(fn: AbiFunction, data: string, hexChecked = false): DecodedArg[] {
  if (fn.outputs.length === 0) return [];
  // Static words read straight to their JSON form and made into the arguments in place (no bigint made and printed back).
  const plan = planOf(fn.outputs);
  const words = plan ? decodeWords(plan, data === '' ? '0x' : data, 2, hexChecked, true) : undefined;
  if (words) return argsOfWords(fn.outputs, words);
  const values = decodeParams(fn.outputs, (data === '' ? '0x' : data) as Hex);
  return argsOf(fn.outputs, values);
}

/** `name(type name, …)` for a person, with `indexed` marked for events. */
export function describeItem(item: AbiEntry): string {
  const param = (p: AbiParameter & { indexed?: boolean }) => `${canonicalType(p)}${p.indexed ? ' indexed' : ''}${p.name ? ` ${p.name}` : ''}`;
  const outs = item.type === 'function' && item.outputs.length > 0 ? ` returns (${item.outputs.map(param).join(', ')})` : '';
  return `${item.type} ${item.name}(${item.inputs.map(param).join(', ')})${outs}`;
}
