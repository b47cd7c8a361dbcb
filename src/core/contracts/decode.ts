// Decoding against candidate ABI items: a call's input, a log, a revert, a call's output. The
// selector (or topic0) has already picked the candidates; each is tried in order and the first that
// decodes cleanly wins (an ERC-20 and an ERC-721 Transfer share topic0 and differ in what is
// indexed). viem's decodeAbiParameters reads the values; the selector is not hashed again per item.

import { type AbiEvent, type AbiFunction, type AbiParameter, type Hex, checksumAddress, decodeAbiParameters } from 'viem';
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

function decoded(kind: Decoded['kind'], c: Candidate, args: DecodedArg[], selector: string): Decoded {
  return {
    kind,
    name: c.item.name,
    signature: signatureOf(c.item),
    args,
    contract: c.contract,
    source: c.source.label,
    selector,
    ...(c.source.kind === 'signatures' || c.source.kind === 'artifact' ? { guessed: true } : {}),
  };
}

/** A static indexed value from its topic: the common types read directly, the rest through viem. */
function topicValue(p: AbiParameter, topic: Hex): unknown {
  if (topic.length !== 66) return decodeAbiParameters([p], topic)[0];
  switch (p.type) {
    case 'address':
      if (!/^0x0{24}/.test(topic)) break;
      return checksumAddress(`0x${topic.slice(26)}`);
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
  const selector = input.slice(0, 10).toLowerCase();
  const body = `0x${input.slice(10)}` as Hex;
  for (const c of candidates) {
    if (c.item.type !== 'function') continue;
    try {
      const values = decodeAbiParameters(c.item.inputs, body);
      return decoded('function', c, argsOf(c.item.inputs, values), selector);
    } catch {
      // not this one
    }
  }
  return undefined;
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
        const rest = decodeAbiParameters(plain, (data === '' ? '0x' : data) as Hex);
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
      const values = decodeAbiParameters(c.item.inputs, body);
      return decoded('error', c, argsOf(c.item.inputs, values), selector);
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** A function's return data by its outputs. Throws (viem's error) when the data does not fit. */
export function decodeOutputs(fn: AbiFunction, data: string): DecodedArg[] {
  if (fn.outputs.length === 0) return [];
  const values = decodeAbiParameters(fn.outputs, (data === '' ? '0x' : data) as Hex);
  return argsOf(fn.outputs, values);
}

/** `name(type name, …)` for a person, with `indexed` marked for events. */
export function describeItem(item: AbiEntry): string {
  const param = (p: AbiParameter & { indexed?: boolean }) => `${canonicalType(p)}${p.indexed ? ' indexed' : ''}${p.name ? ` ${p.name}` : ''}`;
  const outs = item.type === 'function' && item.outputs.length > 0 ? ` returns (${item.outputs.map(param).join(', ')})` : '';
  return `${item.type} ${item.name}(${item.inputs.map(param).join(', ')})${outs}`;
}
