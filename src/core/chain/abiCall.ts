// Calling a contract, the part that needs no ABI source: a function signature read (`balanceOf(address)`,
// cast's `balanceOf(address)(uint256)`, a full `function … returns (…)`), each argument checked against
// its ABI type (the sentence says what to type), the calldata encoded with viem, the block and
// quantities read. The catalogue's evm.callContract (query files) and src/core/contracts/call.ts use it.

import { type AbiFunction, type AbiParameter, type Hex, decodeAbiParameters, encodeAbiParameters, getAddress, parseAbiItem, toFunctionSelector } from 'viem';
import { LocalizedError, errorMessage, isEndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import { UINT256_MAX, parseDecimalQuantity, parseHexQuantity } from '../base/limits';
import { clean, isEvmAddress, withoutLeadingZeros } from '../base/text';

export function refuse(m: l10n.Message): never {
  throw new LocalizedError(m);
}

const INT = /^(u?)int(\d*)$/;
const BYTES_N = /^bytes(\d+)$/;

/** A value typed as text (or given as JSON) made into what viem encodes for `p`; throws a LocalizedError that says what to type. */
export function coerceArg(p: AbiParameter, v: unknown): unknown {
  const type = p.type;
  // Only a refusal names the parameter: its text is not built for a value that is fine.
  const name = () => (p.name ? `${p.name} (${typeOf(p)})` : typeOf(p));
  // The common static types first (they match none of the forms below; the regular expressions are not run for them).
  if (type === 'address' || type === 'bool') return coerceWord(type, v, name);
  const arr = type.endsWith(']') ? /^(.*)\[(\d*)\]$/.exec(type) : null;
  if (arr) {
    const list = typeof v === 'string' ? parseJsonList(v, name) : v;
    if (!Array.isArray(list)) refuse(l10n.both('{0}: a JSON array, e.g. ["1","2"].', name()));
    if (arr[2] !== '' && list.length !== Number(arr[2])) refuse(l10n.both('{0}: exactly {1} items.', name(), arr[2]));
    return list.map((x) => coerceArg({ ...p, type: arr[1] } as AbiParameter, x));
  }
  if (type === 'tuple') {
    const comps = (p as { components?: readonly AbiParameter[] }).components ?? [];
    const t = typeof v === 'string' ? parseJsonList(v, name, true) : v;
    if (Array.isArray(t)) {
      if (t.length !== comps.length) refuse(l10n.both('{0}: {1} components.', name(), String(comps.length)));
      return comps.map((c, i) => coerceArg(c, t[i]));
    }
    if (t && typeof t === 'object')
      return Object.fromEntries(comps.map((c, i) => [c.name ?? String(i), coerceArg(c, (t as Record<string, unknown>)[c.name ?? String(i)])]));
    refuse(l10n.both('{0}: a JSON array or object of its components.', name()));
  }
  const text = textOf(v, name);
  const int = INT.exec(type);
  if (int) {
    if (!/^-?\d+$|^0x[0-9a-fA-F]+$/.test(text)) refuse(l10n.both('{0}: an integer (decimal or 0x hex).', name()));
    const bits = BigInt(int[2] || '256');
    const [min, max] = int[1] === 'u' ? [0n, (1n << bits) - 1n] : [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n];
    const n = integerOf(text);
    if (n === undefined || n < min || n > max) refuse(l10n.both('{0}: out of range ({1} to {2}).', name(), min.toString(), max.toString()));
    return n;
  }
  const bn = BYTES_N.exec(type);
  if (bn) {
    if (!new RegExp(`^0x[0-9a-fA-F]{${Number(bn[1]) * 2}}$`).test(text))
      refuse(l10n.both('{0}: 0x and exactly {1} hex digits.', name(), String(Number(bn[1]) * 2)));
    return text;
  }
  if (type === 'bytes') {
    // No repeated group: `(..)*` overflowed the matcher's stack past ~8 MB ("Maximum call stack size exceeded").
    if (!/^0x[0-9a-fA-F]*$/.test(text) || text.length % 2 !== 0) refuse(l10n.both('{0}: 0x and an even number of hex digits.', name()));
    return text;
  }
  if (type === 'string') return typeof v === 'string' ? v : text;
  refuse(l10n.both('{0}: this type is not supported here.', name()));
}

/**
 * An integer's text (decimal with an optional -, or 0x hex; checked) as a bigint; undefined past 78
 * significant decimal digits or 64 hex digits, which is past any 256-bit range. Leading zeros are
 * dropped first: BigInt never reads more than 80 characters (a 1 MB argument would cost it a second).
 */
function integerOf(text: string): bigint | undefined {
  const hex = text.startsWith('0x');
  const negative = text.startsWith('-');
  const digits = withoutLeadingZeros(text.slice(hex ? 2 : negative ? 1 : 0), hex);
  if (digits.length > (hex ? 64 : 78)) return undefined;
  const n = BigInt(hex ? `0x${digits}` : digits);
  return negative ? -n : n;
}

/** A scalar argument as text (a string trimmed, a number, bigint or boolean written out). */
function textOf(v: unknown, name: () => string): string {
  const text = typeof v === 'string' ? v.trim() : typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? String(v) : undefined;
  if (text === undefined) refuse(l10n.both('{0}: a value is needed.', name()));
  return text;
}

/** An address or a bool argument. */
function coerceWord(type: 'address' | 'bool', v: unknown, name: () => string): unknown {
  const text = textOf(v, name);
  if (type === 'address') {
    if (!isEvmAddress(text)) refuse(l10n.both('{0}: an address, 0x and 40 hex digits.', name()));
    return checkedChecksum(text, name);
  }
  if (!/^(true|false)$/i.test(text)) refuse(l10n.both('{0}: true or false.', name()));
  return text.toLowerCase() === 'true';
}

function parseJsonList(text: string, name: () => string, objectToo = false): unknown {
  try {
    const v = JSON.parse(text) as unknown;
    if (Array.isArray(v) || (objectToo && v && typeof v === 'object')) return v;
  } catch {
    // said below
  }
  refuse(l10n.both('{0}: a JSON array, e.g. ["1","2"].', name()));
}

/** Splits typed arguments: a JSON array, or values separated by commas (brackets and quotes kept together). */
export function splitArgs(args: readonly unknown[] | string | undefined): unknown[] {
  if (args === undefined) return [];
  if (Array.isArray(args)) return args.slice();
  const text = String(args).trim();
  if (text === '') return [];
  if (text.startsWith('[') && text.endsWith(']')) {
    try {
      const v = JSON.parse(text) as unknown;
      if (Array.isArray(v)) return v;
    } catch {
      // not JSON: split by commas
    }
  }
  const out: string[] = [];
  let depth = 0;
  let quote = false;
  let cur = '';
  for (const ch of text) {
    if (ch === '"') quote = !quote;
    if (!quote && (ch === '[' || ch === '(' || ch === '{')) depth++;
    if (!quote && (ch === ']' || ch === ')' || ch === '}')) depth--;
    if (ch === ',' && depth === 0 && !quote) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out.map((s) => (/^".*"$/.test(s) ? (JSON.parse(s) as string) : s));
}

/** A signature as a function (outputs when written cast's way or with `returns`). Throws a LocalizedError. */
export function parseSignature(text: string): AbiFunction {
  if (typeof text !== 'string' || text.trim() === '') refuse(l10n.both('function: a signature such as balanceOf(address).'));
  // The text read last, compared in place (a query file or a simulation asks for the same function again and again).
  if (text === lastText && lastParsed !== undefined) return lastParsed;
  const t = text.trim();
  // cast's form: name(inputs)(outputs)
  const cast = /^([A-Za-z_$][\w$]*\s*\((?:[^()]|\([^()]*\))*\))\s*(\((?:[^()]|\([^()]*\))*\))$/.exec(t);
  const human = cast ? `function ${cast[1]} view returns ${cast[2]}` : /^function\s/.test(t) ? t : `function ${t}`;
  let fn = parsed.get(human);
  if (fn) {
    lastText = text;
    lastParsed = fn;
    return fn;
  }
  try {
    fn = parseAbiItem(human) as AbiFunction;
  } catch (err) {
    // The text repeated cut (a 160 KB signature was echoed whole into the notification and the log).
    refuse(l10n.both('{0} is not a function signature (e.g. balanceOf(address)): {1}', clean(t, 120), clean(errorMessage(err).split('\n')[0], 200)));
  }
  if (fn?.type !== 'function') refuse(l10n.both('{0} is not a function signature (e.g. balanceOf(address)).', clean(t, 120)));
  // Read once per text (a query file or a simulation calls the same few functions again and again); never changed after.
  if (parsed.size >= MAX_PARSED) parsed.clear();
  parsed.set(human, fn);
  lastText = text;
  lastParsed = fn;
  return fn;
}
const parsed = new Map<string, AbiFunction>();
let lastText = '';
let lastParsed: AbiFunction | undefined;
const MAX_PARSED = 512;

/** The canonical type of a parameter: tuples spelled out. */
function typeOf(p: AbiParameter): string {
  if (!p.type.startsWith('tuple')) return p.type;
  return `(${((p as { components?: readonly AbiParameter[] }).components ?? []).map(typeOf).join(',')})${p.type.slice(5)}`;
}

/** `name(type,type)`. */
export function signatureText(fn: AbiFunction): string {
  return `${fn.name}(${fn.inputs.map(typeOf).join(',')})`;
}

/** The calldata of `fn` with `args` (checked); throws a LocalizedError saying which argument is wrong. */
export function encodeCall(fn: AbiFunction, args: readonly unknown[]): Hex {
  // The last calldata, when the same function is called with the same scalar arguments (a query file,
  // the exporter or a replay sends the same call again and again; the encoding depends on nothing else).
  const last = lastEncoded;
  if (last !== undefined && last.fn === fn && sameScalars(last.args, args)) return last.data;
  if (args.length !== fn.inputs.length)
    refuse(l10n.both('{0} takes {1} argument(s); {2} given.', signatureText(fn), String(fn.inputs.length), String(args.length)));
  const values: unknown[] = [];
  for (let i = 0; i < args.length; i++) values.push(coerceArg(fn.inputs[i], args[i]));
  // encodeFunctionData's bytes (selector, then the arguments), the selector hashed once per function.
  let selector = selectors.get(fn);
  if (selector === undefined) selectors.set(fn, (selector = toFunctionSelector(fn)));
  const data = `${selector}${encodeWords(fn.inputs, values) ?? encodeAbiParameters(fn.inputs, values).slice(2)}` as Hex;
  lastEncoded = allScalars(args) ? { fn, args: args.slice(), data } : undefined;
  return data;
}
let lastEncoded: { readonly fn: AbiFunction; readonly args: readonly unknown[]; readonly data: Hex } | undefined;

/** Whether every argument is a string, number, bigint or boolean (a list or an object may be changed in place: never remembered). */
function allScalars(args: readonly unknown[]): boolean {
  for (const a of args) if (typeof a !== 'string' && typeof a !== 'number' && typeof a !== 'bigint' && typeof a !== 'boolean') return false;
  return true;
}

/** The same scalar arguments (a remembered list holds scalars only: any other value differs by identity or type). */
function sameScalars(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const ZERO_24 = '0'.repeat(24);
const FALSE_WORD = '0'.repeat(64);
const TRUE_WORD = `${'0'.repeat(63)}1`;
const TWO_256 = 1n << 256n;

/**
 * Arguments that are all static words (address, bool, intN/uintN: most calls), as coerceArg() gives
 * them, written directly (viem's bytes, without 0x); undefined for anything else (viem encodes it).
 * coerceArg() has already checked each value against its type and range.
 */
function encodeWords(params: readonly AbiParameter[], values: readonly unknown[]): string | undefined {
  let out = '';
  for (let i = 0; i < params.length; i++) {
    const type = params[i].type;
    const v = values[i];
    if (type === 'address') {
      if (typeof v !== 'string' || v.length !== 42) return undefined;
      out += ZERO_24 + v.slice(2).toLowerCase();
    } else if (type === 'bool') {
      if (typeof v !== 'boolean') return undefined;
      out += v ? TRUE_WORD : FALSE_WORD;
    } else if (typeof v === 'bigint' && INT.test(type)) {
      // Two's complement on 256 bits for a negative intN, as viem writes it.
      const word = (v < 0n ? TWO_256 + v : v).toString(16);
      if (word.length > 64 || v < -(TWO_256 >> 1n)) return undefined;
      out += word.padStart(64, '0');
    } else return undefined;
  }
  return out;
}
const selectors = new WeakMap<AbiFunction, Hex>();

const MAX_CHECKSUMS = 4096;
const checksums = new Map<string, Hex>();

/** viem's getAddress (EIP-55) of an address already checked, remembered (a trace or a bundle names the same few addresses again and again). */
export function checksummed(address: string): Hex {
  // Kept by the text as given (any case): a hit costs no lower-casing.
  let c = checksums.get(address);
  if (c === undefined) {
    c = getAddress(address.toLowerCase());
    if (checksums.size >= MAX_CHECKSUMS) checksums.clear();
    checksums.set(address, c);
  }
  return c;
}

/**
 * The checksummed form of an address already checked as 0x and 40 hex digits (remembered: a query file
 * or a trace names the same few again and again); a mixed-case one must be its own EIP-55 checksum.
 */
function checkedChecksum(address: string, name: () => string): Hex {
  if (wrongChecksum(address)) refuse(l10n.both('{0}: the checksum (mixed case) is wrong.', name()));
  return checksummed(address);
}

/**
 * Whether an address (0x and 40 hex digits, checked) is in mixed case and not its own EIP-55
 * checksum: mixed case is a checksum, which must match; one case is unchecked. The one rule for
 * prompts, Look Up, calls and simulations.
 */
export function wrongChecksum(address: string): boolean {
  return checksummed(address) !== address && isMixedCase(address);
}

/**
 * Whether hex text has both lower- and upper-case letters (EIP-55: then it must be its checksum).
 * Two regular expressions (native from the first call), not a loop run interpreted: every address
 * argument in lower case comes here.
 */
function isMixedCase(hex: string): boolean {
  return LOWER_HEX_LETTER.test(hex) && UPPER_HEX_LETTER.test(hex);
}
const LOWER_HEX_LETTER = /[a-f]/;
const UPPER_HEX_LETTER = /[A-F]/;

export function blockParam(b: string | undefined): string {
  if (!b || b === '') return 'latest';
  if (/^(latest|earliest|pending|safe|finalized)$/.test(b)) return b;
  if (/^\d{1,19}$/.test(b)) return `0x${BigInt(b).toString(16)}`;
  if (/^0x[0-9a-fA-F]{1,16}$/.test(b)) return `0x${BigInt(b).toString(16)}`;
  refuse(l10n.both('block: a number, 0x quantity, or latest / pending / earliest / safe / finalized.'));
}

/** Whether a failed eth_call (or estimate) reverted: JSON-RPC code 3, or the node's sentence says so. */
export function isRevert(err: unknown): boolean {
  return (isEndpointError(err) && err.detail.code === 3) || /revert/i.test(errorMessage(err));
}

/** The revert data of a failed eth_call (its JSON-RPC error's `data`, `0x` and hex, quoted or not); undefined when it has none. */
export function revertDataOf(err: unknown): string | undefined {
  const data = isEndpointError(err) ? err.detail.data : undefined;
  return typeof data === 'string' ? (/^"?(0x[0-9a-fA-F]*)"?$/.exec(data)?.[1] ?? undefined) : undefined;
}

/** A value, gas, nonce or override quantity (decimal or 0x hex) as 0x hex; a LocalizedError past a uint256 (78 decimal digits can be). */
export function quantity(v: string | undefined, what: string): string | undefined {
  if (v === undefined || v === '') return undefined;
  const n = parseDecimalQuantity(v) ?? parseHexQuantity(v);
  if (n === undefined) refuse(l10n.both('{0}: an integer (decimal or 0x hex).', what));
  if (n > UINT256_MAX) refuse(l10n.both('{0}: out of range (at most 2^256 - 1).', what));
  return `0x${n.toString(16)}`;
}

/** JSON-safe: bigint as decimal strings, tuples by name. */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/** Return data by `fn`'s outputs: one output its value, several an object by name (or position); undefined when none are declared. */
export function decodeResult(fn: AbiFunction, data: string): unknown {
  if (fn.outputs.length === 0) return undefined;
  const values = decodeAbiParameters(fn.outputs, (data === '' ? '0x' : data) as Hex);
  if (fn.outputs.length === 1) return plain(values[0]);
  return Object.fromEntries(fn.outputs.map((o, i) => [o.name || String(i), plain(values[i])]));
}

/** Outputs of the standard ERC-20/721/1155 views, for a signature written without them (query files: `balanceOf(address)`). */
const STANDARD_OUTPUTS: Readonly<Record<string, string>> = {
  'name()': 'string',
  'symbol()': 'string',
  'decimals()': 'uint8',
  'totalSupply()': 'uint256',
  'balanceOf(address)': 'uint256',
  'allowance(address,address)': 'uint256',
  'ownerOf(uint256)': 'address',
  'tokenURI(uint256)': 'string',
  'getApproved(uint256)': 'address',
  'isApprovedForAll(address,address)': 'bool',
  'balanceOf(address,uint256)': 'uint256',
  'uri(uint256)': 'string',
  'owner()': 'address',
};

/** The signature's function, with the standard outputs when it declares none and is a standard view. */
export function functionForCall(text: string): AbiFunction {
  const fn = parseSignature(text);
  const std = fn.outputs.length === 0 ? STANDARD_OUTPUTS[signatureText(fn)] : undefined;
  return std ? { ...fn, outputs: [{ name: '', type: std }] } : fn;
}

/** eth_call's params for a signature and its arguments (typed text: a JSON array or comma-separated). */
export function callParams(a: { address: string; function: string; args?: string; block?: string }): unknown[] {
  const fn = functionForCall(a.function);
  const data = encodeCall(fn, splitArgs(a.args));
  const address = typeof a.address === 'string' ? a.address.trim() : '';
  if (!isEvmAddress(address)) refuse(l10n.both('address: 0x and 40 hex digits.'));
  return [{ to: checkedChecksum(address, () => 'address'), data }, blockParam(a.block?.trim())];
}
