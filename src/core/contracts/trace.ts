// A transaction's call tree from debug_traceTransaction with callTracer, flattened depth-first and
// decoded frame by frame: type, from and to (contract names), the function and its output, value,
// gas used, the error and the revert decoded; precompile frames named. evmd wants `tracerConfig` as
// a JSON string, geth an object: the string is sent first, and an "unmarshal" refusal (-32602) is
// answered with the object. Bounded: depth and frame count; pages of frames are decoded on demand.

import type { AbiFunction } from 'viem';
import { type ContractRegistry, type ResolveContext, decodeCallAgainst } from './registry';
import type { Decoded, DecodedArg, KnownContract } from './types';
import { type Candidate, decodeOutputs, functionWithHex } from './decode';
import { hexQuantityDecimal, hexText, lowerEvmAddress } from '../base/text';

type Json = Record<string, any>;

export const MAX_TRACE_DEPTH = 256;
export const MAX_TRACE_FRAMES = 10_000;
export const TRACE_PAGE = 1_000;

export interface TraceFrame {
  /** Position in depth-first order (0: the transaction's own call). */
  readonly index: number;
  readonly depth: number;
  /** CALL, STATICCALL, DELEGATECALL, CREATE, CREATE2, SELFDESTRUCT… */
  readonly type: string;
  readonly from: string;
  readonly to?: string;
  readonly value?: string;
  readonly gas?: string;
  readonly gasUsed?: string;
  readonly input?: string;
  readonly output?: string;
  readonly error?: string;
  /** The node's own decoding of a revert string, when it gives one (geth). */
  readonly revertReason?: string;
  readonly fromName?: string;
  readonly toName?: string;
  /** Decoded on the page shown: the function, its outputs, the revert. */
  readonly call?: Decoded;
  readonly outputs?: readonly DecodedArg[];
  readonly revert?: Decoded;
}

export interface TraceView {
  /** Frames read (at most MAX_TRACE_FRAMES), in depth-first order. */
  readonly frames: readonly TraceFrame[];
  /** Frames the node sent (more than `frames.length` when cut). */
  readonly total: number;
  /** Frames below MAX_TRACE_DEPTH were left out. */
  readonly depthCut: boolean;
  /** The page decoded (from 1) and how many pages; frames outside it carry no decoding. */
  readonly page: number;
  readonly pages: number;
  /** How tracerConfig was sent: `string` (evmd) or `object` (geth). */
  readonly configAs: 'string' | 'object';
}

export type EvmCall = (method: string, params: readonly unknown[]) => Promise<unknown>;

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** debug_traceTransaction with callTracer: tracerConfig as a string first (evmd), then as an object (geth). */
export async function fetchCallTrace(evm: EvmCall, hash: string): Promise<{ root: Json; configAs: 'string' | 'object' }> {
  try {
    return { root: (await evm('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: '{"withLog":false}' }])) as Json, configAs: 'string' };
  } catch (err) {
    if (!/unmarshal/i.test(errText(err))) throw err;
  }
  return { root: (await evm('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: false } }])) as Json, configAs: 'object' };
}

/** A frame's hex field, at most 1 MiB of it. */
function hexStr(v: unknown): string | undefined {
  return hexText(v, 1 << 20);
}

const NO_CALLS: readonly Json[] = [];

/** The call tree's frame objects depth-first with their depths, bounded in depth and count (iterative: a deep tree never overflows the stack). */
function walkTrace(root: Json): { nodes: Json[]; depths: number[]; total: number; depthCut: boolean } {
  const nodes: Json[] = [];
  const depths: number[] = [];
  let total = 0;
  let depthCut = false;
  // Two parallel stacks (frame, depth): no object per frame.
  const stack: Json[] = [root];
  const stackDepth: number[] = [0];
  while (stack.length > 0) {
    const f = stack.pop()!;
    const depth = stackDepth.pop()!;
    if (!f || typeof f !== 'object') continue;
    total++;
    if (nodes.length < MAX_TRACE_FRAMES) {
      nodes.push(f);
      depths.push(depth);
    }
    // A leaf's `calls` is absent: one shared empty list, not a new one per leaf.
    const calls = Array.isArray(f.calls) ? (f.calls as Json[]) : NO_CALLS;
    if (calls.length > 0 && depth + 1 > MAX_TRACE_DEPTH) {
      depthCut = true;
      continue;
    }
    if (total > MAX_TRACE_FRAMES * 4) continue; // counted well past the cut: stop walking
    for (let i = calls.length - 1; i >= 0; i--) {
      stack.push(calls[i]);
      stackDepth.push(depth + 1);
    }
  }
  return { nodes, depths, total, depthCut };
}

/** Reads a frame's fields: each distinct quantity, address and short output checked once per trace (they repeat across frames). */
class FrameReader {
  private readonly quantities = new Map<unknown, string | undefined>();
  private readonly checked = new Map<unknown, string | undefined>();
  // The last two addresses read and their answers: a frame's `from` and `to` mostly repeat its neighbour's,
  // and a string compared with === costs less than hashing it again (every string of a parsed answer is new).
  private lastA: unknown = undefined;
  private lastAOut: string | undefined = undefined;
  private lastB: unknown = undefined;
  private lastBOut: string | undefined = undefined;

  // The last quantity of each field (value, gas, gasUsed) and the last output read: === compares in
  // place, where a Map hashes the new string (a parsed answer's strings are all new).
  private readonly lastQ: unknown[] = [undefined, undefined, undefined];
  private readonly lastQOut: Array<string | undefined> = [undefined, undefined, undefined];
  private lastS: unknown = undefined;
  private lastSOut: string | undefined = undefined;

  /** A quantity as a decimal string; `field` 0 value, 1 gas, 2 gasUsed. */
  dec(v: unknown, field: 0 | 1 | 2): string | undefined {
    if (v === undefined) return undefined;
    if (v === this.lastQ[field] && typeof v === 'string') return this.lastQOut[field];
    let d = this.quantities.get(v);
    if (d === undefined && !this.quantities.has(v)) this.quantities.set(v, (d = hexQuantityDecimal(v)));
    this.lastQ[field] = v;
    this.lastQOut[field] = d;
    return d;
  }
  once(v: unknown, read: (v: unknown) => string | undefined): string | undefined {
    if (typeof v !== 'string' || v.length > 200) return read(v);
    let d = this.checked.get(v);
    if (d === undefined && !this.checked.has(v)) this.checked.set(v, (d = read(v)));
    return d;
  }
  /** A frame's output: short ones read once (they repeat), the last one compared in place. */
  output(v: unknown): string | undefined {
    if (v === this.lastS && typeof v === 'string') return this.lastSOut;
    const d = this.once(v, hexStr);
    this.lastS = v;
    this.lastSOut = d;
    return d;
  }
  addr(v: unknown): string | undefined {
    if (typeof v === 'string') {
      if (v === this.lastA) return this.lastAOut;
      if (v === this.lastB) return this.lastBOut;
    }
    const d = this.once(v, lowerEvmAddress);
    this.lastB = this.lastA;
    this.lastBOut = this.lastAOut;
    this.lastA = v;
    this.lastAOut = d;
    return d;
  }
  /** The 12 fields every frame has, in this order (decoded frames add 5). */
  frame(f: Json, index: number, depth: number): TraceFrame {
    return {
      index,
      depth,
      type: typeof f.type === 'string' ? f.type.slice(0, 20) : '?',
      from: this.addr(f.from) ?? '?',
      to: this.addr(f.to),
      value: this.dec(f.value, 0),
      gas: this.dec(f.gas, 1),
      gasUsed: this.dec(f.gasUsed, 2),
      input: hexStr(f.input),
      output: this.output(f.output),
      error: typeof f.error === 'string' ? f.error.slice(0, 500) : undefined,
      revertReason: typeof f.revertReason === 'string' ? f.revertReason.slice(0, 500) : undefined,
    };
  }
}

/** The call tree as frames, depth-first, bounded in depth and count (iterative: a deep tree never overflows the stack). */
export function flattenTrace(root: Json): { frames: TraceFrame[]; total: number; depthCut: boolean } {
  const { nodes, depths, total, depthCut } = walkTrace(root);
  const read = new FrameReader();
  const frames = nodes.map((f, i) => read.frame(f, i, depths[i]));
  return { frames, total, depthCut };
}

/**
 * Decodes the frames of `page` (from 1): names of both ends, the call, its outputs or its revert.
 * What needs the registry (the contract at an address, the candidates for a selector, a name) is
 * asked once per distinct address or (to, selector) and remembered for the trace; each frame is then
 * decoded without an await (a 1,000-frame tree is mostly a few functions called many times), and
 * built once (the tree is walked, then each frame of the page is read and decoded into its final
 * object; an output that repeats for the same function is decoded once). The same result as asking
 * the registry frame by frame (a unit test compares the two).
 */
export async function decodeTrace(root: Json, configAs: 'string' | 'object', registry: ContractRegistry, ctx: ResolveContext, page = 1): Promise<TraceView> {
  const { nodes, depths, total, depthCut } = walkTrace(root);
  const read = new FrameReader();
  const pages = Math.max(1, Math.ceil(nodes.length / TRACE_PAGE));
  const p = Math.min(Math.max(1, page), pages);
  const first = (p - 1) * TRACE_PAGE;
  const last = Math.min(nodes.length, first + TRACE_PAGE);
  const out: TraceFrame[] = new Array(nodes.length);
  for (let i = 0; i < first; i++) out[i] = read.frame(nodes[i], i, depths[i]);
  for (let i = last; i < nodes.length; i++) out[i] = read.frame(nodes[i], i, depths[i]);
  const names = new Map<string, string | undefined>();
  const nameOf = async (a: string | undefined): Promise<string | undefined> => {
    if (!a || a === '?') return undefined;
    if (!names.has(a)) names.set(a, (await registry.contractAt(a, ctx))?.name ?? registry.nameOf(a, ctx.network)?.name);
    return names.get(a);
  };
  // By callee, then by selector.
  const calls = new Map<string, { last: Known | undefined; bySelector: Map<string, Known> }>();
  let lastKnown: Known | undefined;
  let lastTo: string | undefined;
  let lastInput = '';
  let lastMemo: Known['outputs'] | undefined;
  let lastFn: AbiFunction | undefined;
  let lastOutput = '';
  let lastOutputs: DecodedArg[] | undefined;
  // The names of the last two addresses asked for (a frame's ends mostly repeat its neighbour's).
  let nameA: string | undefined;
  let nameAOut: string | undefined;
  let nameB: string | undefined;
  let nameBOut: string | undefined;
  const cachedName = async (a: string | undefined): Promise<string | undefined> => {
    const out = a !== undefined && names.has(a) ? names.get(a) : await nameOf(a);
    nameB = nameA;
    nameBOut = nameAOut;
    nameA = a;
    nameAOut = out;
    return out;
  };
  const reverts = new Map<string, Decoded>();
  for (let i = first; i < last; i++) {
    // The frame's fields read into locals (FrameReader.frame's reading), then the frame built once.
    const n = nodes[i];
    const type = typeof n.type === 'string' ? n.type.slice(0, 20) : '?';
    const from = read.addr(n.from) ?? '?';
    const to = read.addr(n.to);
    const input = hexStr(n.input);
    const output = read.output(n.output);
    const error = typeof n.error === 'string' ? n.error.slice(0, 500) : undefined;
    const creation = type.startsWith('CREATE');
    let found: { fn: AbiFunction; decoded: Decoded } | undefined;
    let call: Decoded | undefined;
    let known: Known | undefined;
    if (!creation && input && input.length >= 10) {
      // The same callee and selector as the frame before (a loop of calls): its entry, without a slice or a lookup.
      if (lastKnown !== undefined && to === lastTo && sameSelector(input, lastInput)) known = lastKnown;
      else {
        let callee = calls.get(to ?? '');
        if (!callee) calls.set(to ?? '', (callee = { last: undefined, bySelector: new Map() }));
        // The callee's last selector (calls that alternate between two contracts): no slice, no lookup.
        if (callee.last !== undefined && sameSelector(input, callee.last.selector)) known = callee.last;
        else {
          const selector = input.slice(0, 10).toLowerCase();
          known = callee.bySelector.get(selector);
          if (!known) {
            const c = await registry.callCandidates(selector, to, ctx);
            callee.bySelector.set(selector, (known = { selector, candidates: c.candidates, contract: c.contract, outputs: new Map() }));
          }
          callee.last = known;
        }
        lastKnown = known;
        lastTo = to;
      }
      lastInput = input;
      // The input is hex already (hexStr): the decoder skips its own check; one selector string for all its frames.
      found = functionWithHex(input, known.candidates, known.selector);
      call = found?.decoded ?? decodeCallAgainst(input, known.candidates, known.contract);
    }
    let outputs: DecodedArg[] | undefined;
    let revert: Decoded | undefined;
    if (error) {
      if (output && output !== '0x') {
        // A revert bubbles up through its callers unchanged: decoded once per (to, data).
        const key = `${to ?? ''}|${output}`;
        revert = reverts.get(key);
        if (!revert) reverts.set(key, (revert = await registry.decodeRevert(output, to, ctx)));
      }
    } else if (found && output) {
      // Outputs repeat (true, 0, the same balance): decoded once per (to, selector, function, output).
      // A short output is the same string for every frame (FrameReader.once), so its hash is computed once;
      // the frame before's, compared in place, needs no lookup at all.
      const memo = output.length <= 200 ? known!.outputs : undefined;
      if (memo !== undefined && memo === lastMemo && found.fn === lastFn && output === lastOutput) outputs = lastOutputs;
      else {
        const byFn = memo?.get(found.fn);
        if (byFn?.has(output)) outputs = byFn.get(output);
        else {
          try {
            outputs = decodeOutputs(found.fn, output);
          } catch {
            outputs = undefined;
          }
          if (memo) {
            if (byFn) byFn.set(output, outputs);
            else memo.set(found.fn, new Map([[output, outputs]]));
          }
        }
        lastMemo = memo;
        lastFn = found.fn;
        lastOutput = output;
        lastOutputs = outputs;
      }
    }
    const fromName = from === nameA ? nameAOut : from === nameB ? nameBOut : await cachedName(from);
    const toName = to === undefined ? await nameOf(to) : to === nameA ? nameAOut : to === nameB ? nameBOut : await cachedName(to);
    // Spelled out, in FrameReader.frame's order (a spread of a frame is V8's slow clone).
    out[i] = {
      index: i,
      depth: depths[i],
      type,
      from,
      to,
      value: read.dec(n.value, 0),
      gas: read.dec(n.gas, 1),
      gasUsed: read.dec(n.gasUsed, 2),
      input,
      output,
      error,
      revertReason: typeof n.revertReason === 'string' ? n.revertReason.slice(0, 500) : undefined,
      fromName,
      toName,
      call,
      outputs,
      revert,
    };
  }
  return { frames: out, total, depthCut, page: p, pages, configAs };
}

/** Whether two inputs (hex, 10 characters or more) start with the same selector, in any case. */
function sameSelector(a: string, b: string): boolean {
  if (b.length < 10) return false;
  for (let k = 2; k < 10; k++) {
    const x = a.charCodeAt(k);
    const y = b.charCodeAt(k);
    // Hex digits only (checked): a letter's two cases differ by 0x20.
    if (x !== y && (x | 0x20) !== (y | 0x20)) return false;
  }
  return true;
}

/** What the registry gave for a (callee, selector), and the outputs decoded for it. */
interface Known {
  /** The selector in lower case (every decoded frame of this entry shares the string). */
  readonly selector: string;
  readonly candidates: Candidate[];
  readonly contract?: KnownContract;
  readonly outputs: Map<AbiFunction, Map<string, DecodedArg[] | undefined>>;
}

/** The revert data of a failed transaction: its trace's top frame `output` (evmd's eth_call gives none). */
export function topRevertData(root: Json): string | undefined {
  return root && typeof root === 'object' && typeof root.error === 'string' ? hexStr(root.output) : undefined;
}
