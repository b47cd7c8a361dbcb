// What Chain Endpoints knows without a workspace: the Cosmos EVM static precompiles at their fixed
// addresses (ABIs as cosmos/evm v0.3.2 publishes them), the standard ERC-20/721/1155/4626 ABIs,
// Error(string) and Panic(uint256) with what each panic code means, and the offline table of common
// signatures (abis/*.json, written by scripts/contracts/genAbis.mjs). The data files are read on
// first use (a lazy require), never at activation; nothing is fetched from the network.

import { type Abi, type AbiEvent, type AbiFunction, toEventSelector, toFunctionSelector } from 'viem';
import type { KnownContract } from './types';

interface PrecompileData {
  readonly address: string;
  readonly name: string;
  readonly note?: string;
  readonly abi: Abi;
}

export type AbiError = Extract<Abi[number], { type: 'error' }>;
export type AbiEntry = AbiFunction | AbiEvent | AbiError;

/** Where one item of the table came from: a standard, a precompile, or the curated list. */
export interface TableItem {
  readonly item: AbiEntry;
  readonly origin: string;
}

interface Loaded {
  readonly precompiles: ReadonlyMap<string, KnownContract>;
  readonly standards: ReadonlyArray<{ readonly name: string; readonly abi: Abi }>;
  /** Selector (4 bytes for functions and errors, 32 for events) → items, most standard first. */
  readonly table: ReadonlyMap<string, readonly TableItem[]>;
  readonly tableSize: number;
}

let loaded: Loaded | undefined;

/** The selector of a function or error (0x + 8 hex) or an event's topic0. */
export function selectorOf(item: AbiEntry): string {
  if (item.type === 'event') return toEventSelector(item);
  return toFunctionSelector(item.type === 'error' ? ({ ...item, type: 'function', outputs: [], stateMutability: 'view' } as AbiFunction) : item);
}

function load(): Loaded {
  if (loaded) return loaded;
  // Read on first decode (a lazy require), not when the bundle loads.
  const p = require('./abis/precompiles.json') as { precompiles: PrecompileData[] };
  const s = require('./abis/standard.json') as { standards: Array<{ name: string; abi: Abi }> };
  const c = require('./abis/signatures.json') as { items: AbiEntry[] };
  const precompiles = new Map<string, KnownContract>();
  for (const x of p.precompiles) {
    precompiles.set(x.address.toLowerCase(), {
      name: x.name,
      abi: x.abi,
      note: x.note,
      source: { kind: 'precompile', label: `Cosmos EVM ${x.name} precompile (cosmos/evm v0.3.2 ABI)` },
    });
  }
  const table = new Map<string, TableItem[]>();
  const seen = new Set<string>();
  let size = 0;
  const add = (item: AbiEntry, origin: string) => {
    if (item.type !== 'function' && item.type !== 'event' && item.type !== 'error') return;
    const sel = selectorOf(item);
    const key = `${sel}:${JSON.stringify(item.inputs)}`;
    if (seen.has(key)) return;
    seen.add(key);
    size++;
    const list = table.get(sel) ?? [];
    list.push({ item, origin });
    table.set(sel, list);
  };
  for (const std of s.standards) for (const it of std.abi) add(it as AbiEntry, std.name);
  for (const x of p.precompiles) for (const it of x.abi) add(it as AbiEntry, `Cosmos EVM ${x.name} precompile`);
  for (const it of c.items) add(it, 'common signatures');
  loaded = { precompiles, standards: s.standards, table, tableSize: size };
  return loaded;
}

/** The precompile at `address` (0x, any case), if it is one of the static precompiles. */
export function precompileAt(address: string): KnownContract | undefined {
  if (!/^0x0{36}0[148]0[0-9a-f]$/i.test(address)) return undefined; // cheap test before loading anything
  return load().precompiles.get(address.toLowerCase());
}

export function precompiles(): ReadonlyMap<string, KnownContract> {
  return load().precompiles;
}

export function standardAbis(): ReadonlyArray<{ readonly name: string; readonly abi: Abi }> {
  return load().standards;
}

/** The table's items for a selector or topic0 (lowercase 0x…). */
export function tableItems(selector: string): readonly TableItem[] {
  return load().table.get(selector.toLowerCase()) ?? [];
}

export function tableSize(): number {
  return load().tableSize;
}

export const ERROR_STRING: AbiError = { type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] };
export const PANIC: AbiError = { type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] };
export const ERROR_SELECTOR = '0x08c379a0';
export const PANIC_SELECTOR = '0x4e487b71';

const PANICS: Readonly<Record<number, string>> = {
  0x00: 'generic compiler panic',
  0x01: 'assert(false): an assertion failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division or modulo by zero',
  0x21: 'conversion to an enum out of its range',
  0x22: 'a storage byte array incorrectly encoded',
  0x31: 'pop() on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'too much memory allocated (or an array too large)',
  0x51: 'call to a zero-initialized internal function variable',
};

/** What a Panic(uint256) code means (Solidity's list). */
export function panicMeaning(code: bigint | string): string {
  const n = typeof code === 'bigint' ? code : BigInt(code);
  return n <= 0xffn && PANICS[Number(n)] !== undefined ? PANICS[Number(n)] : 'a panic code Solidity does not define';
}
