// A transaction's call tree from debug_traceTransaction with callTracer, flattened depth-first and
// decoded frame by frame: type, from and to (contract names), the function and its output, value,
// gas used, the error and the revert decoded; precompile frames named. evmd wants `tracerConfig` as
// a JSON string, geth an object: the string is sent first, and an "unmarshal" refusal (-32602) is
// answered with the object. Bounded: depth and frame count; pages of frames are decoded on demand.

import type { AbiFunction } from 'viem';
import { type ContractRegistry, type ResolveContext, decodeCallAgainst } from './registry';
import type { Decoded, DecodedArg, KnownContract } from './types';
import { type Candidate, decodeOutputs, functionWith } from './decode';

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

const HEX = /^0x[0-9a-fA-F]*$/;
function hexStr(v: unknown, max = 1 << 20): string | undefined {
  return typeof v === 'string' && v.length <= max && HEX.test(v) ? v : undefined;
}
function decQuantity(v: unknown): string | undefined {
  return typeof v === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(v) ? BigInt(v).toString() : undefined;
}
function addr(v: unknown): string | undefined {
  return typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v) ? v.toLowerCase() : undefined;
}

/** The call tree as frames, depth-first, bounded in depth and count (iterative: a deep tree never overflows the stack). */
export function flattenTrace(root: Json): { frames: TraceFrame[]; total: number; depthCut: boolean } {
  const frames: TraceFrame[] = [];
  // gas, gasUsed and value repeat across frames: each distinct quantity read once (bounded by the frame count).
  const quantities = new Map<unknown, string | undefined>();
  const dec = (v: unknown): string | undefined => {
    if (v === undefined) return undefined;
    let d = quantities.get(v);
    if (d === undefined && !quantities.has(v)) quantities.set(v, (d = decQuantity(v)));
    return d;
  };
  // So do addresses and outputs (a short string checked once; a long one each time: inputs rarely repeat).
  const checked = new Map<unknown, string | undefined>();
  const once = (v: unknown, read: (v: unknown) => string | undefined): string | undefined => {
    if (typeof v !== 'string' || v.length > 200) return read(v);
    let d = checked.get(v);
    if (d === undefined && !checked.has(v)) checked.set(v, (d = read(v)));
    return d;
  };
  let total = 0;
  let depthCut = false;
  const stack: Array<{ f: Json; depth: number }> = [{ f: root, depth: 0 }];
  while (stack.length > 0) {
    const { f, depth } = stack.pop()!;
    if (!f || typeof f !== 'object') continue;
    total++;
    if (frames.length < MAX_TRACE_FRAMES) {
      frames.push({
        index: frames.length,
        depth,
        type: typeof f.type === 'string' ? f.type.slice(0, 20) : '?',
        from: once(f.from, addr) ?? '?',
        to: once(f.to, addr),
        value: dec(f.value),
        gas: dec(f.gas),
        gasUsed: dec(f.gasUsed),
        input: hexStr(f.input),
        output: once(f.output, hexStr),
        error: typeof f.error === 'string' ? f.error.slice(0, 500) : undefined,
        revertReason: typeof f.revertReason === 'string' ? f.revertReason.slice(0, 500) : undefined,
      });
    }
    const calls = Array.isArray(f.calls) ? (f.calls as Json[]) : [];
    if (calls.length > 0 && depth + 1 > MAX_TRACE_DEPTH) {
      depthCut = true;
      continue;
    }
    if (total > MAX_TRACE_FRAMES * 4) continue; // counted well past the cut: stop walking
    for (let i = calls.length - 1; i >= 0; i--) stack.push({ f: calls[i], depth: depth + 1 });
  }
  return { frames, total, depthCut };
}

/**
 * Decodes the frames of `page` (from 1): names of both ends, the call, its outputs or its revert.
 * What needs the registry (the contract at an address, the candidates for a selector, a name) is
 * asked once per distinct address or (to, selector) and remembered for the trace; each frame is then
 * decoded without an await (a 1,000-frame tree is mostly a few functions called many times). The
 * same result as asking the registry frame by frame (a unit test compares the two).
 */
export async function decodeTrace(root: Json, configAs: 'string' | 'object', registry: ContractRegistry, ctx: ResolveContext, page = 1): Promise<TraceView> {
  const { frames, total, depthCut } = flattenTrace(root);
  const pages = Math.max(1, Math.ceil(frames.length / TRACE_PAGE));
  const p = Math.min(Math.max(1, page), pages);
  const first = (p - 1) * TRACE_PAGE;
  const out: TraceFrame[] = frames.slice();
  const names = new Map<string, string | undefined>();
  const nameOf = async (a: string | undefined): Promise<string | undefined> => {
    if (!a || a === '?') return undefined;
    if (!names.has(a)) names.set(a, (await registry.contractAt(a, ctx))?.name ?? registry.nameOf(a, ctx.network)?.name);
    return names.get(a);
  };
  // By callee, then by selector.
  const calls = new Map<string, Map<string, { candidates: Candidate[]; contract?: KnownContract }>>();
  const reverts = new Map<string, Decoded>();
  for (let i = first; i < Math.min(frames.length, first + TRACE_PAGE); i++) {
    const f = frames[i];
    const creation = f.type.startsWith('CREATE');
    let found: { fn: AbiFunction; decoded: Decoded } | undefined;
    let call: Decoded | undefined;
    if (!creation && f.input && f.input.length >= 10) {
      const selector = f.input.slice(0, 10).toLowerCase();
      let byCallee = calls.get(f.to ?? '');
      if (!byCallee) calls.set(f.to ?? '', (byCallee = new Map()));
      let known = byCallee.get(selector);
      if (!known) byCallee.set(selector, (known = await registry.callCandidates(selector, f.to, ctx)));
      found = functionWith(f.input, known.candidates);
      call = found?.decoded ?? decodeCallAgainst(f.input, known.candidates, known.contract);
    }
    let outputs: DecodedArg[] | undefined;
    let revert: Decoded | undefined;
    if (f.error) {
      if (f.output && f.output !== '0x') {
        // A revert bubbles up through its callers unchanged: decoded once per (to, data).
        const key = `${f.to ?? ''}|${f.output}`;
        revert = reverts.get(key);
        if (!revert) reverts.set(key, (revert = await registry.decodeRevert(f.output, f.to, ctx)));
      }
    } else if (found && f.output) {
      try {
        outputs = decodeOutputs(found.fn, f.output);
      } catch {
        outputs = undefined;
      }
    }
    const fromName = names.has(f.from) ? names.get(f.from) : await nameOf(f.from);
    const toName = f.to !== undefined && names.has(f.to) ? names.get(f.to) : await nameOf(f.to);
    // Spelled out, in flattenTrace's order: a spread of a 12-key frame is V8's slow clone (most of the time of a large trace).
    out[i] = {
      index: f.index,
      depth: f.depth,
      type: f.type,
      from: f.from,
      to: f.to,
      value: f.value,
      gas: f.gas,
      gasUsed: f.gasUsed,
      input: f.input,
      output: f.output,
      error: f.error,
      revertReason: f.revertReason,
      fromName,
      toName,
      call,
      outputs,
      revert,
    };
  }
  return { frames: out, total, depthCut, page: p, pages, configAs };
}

/** The revert data of a failed transaction: its trace's top frame `output` (evmd's eth_call gives none). */
export function topRevertData(root: Json): string | undefined {
  return root && typeof root === 'object' && typeof root.error === 'string' ? hexStr(root.output) : undefined;
}
