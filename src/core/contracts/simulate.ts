// What if: a call, a transaction or a bundle simulated on the best engine the provider serves, never
// sent as a transaction. Three engines, chosen by what the provider's capabilities say it serves
// (learnt method by method: core/health/capabilities.ts):
//   eth_simulateV1   several calls sharing state (a bundle), state and block overrides, logs and
//                    native transfers per call (anvil, geth; not cosmos/evm: #1289);
//   debug_traceCall  one call with callTracer (the call tree, its logs), state and block overrides
//                    (geth, anvil, cosmos/evm v0.5+);
//   eth_call         one call (+ eth_estimateGas): no call tree; overrides only where the node takes
//                    a third parameter (evmd v0.3.x refuses any, even `{}`).
// What the provider cannot do is refused before anything is sent, in one sentence that says why and
// names a provider of the same network that can. The answer is decoded through the contracts
// registry (return or revert, the call tree with precompiles named, the logs) into a plain result
// that documents, query files (`evm.simulate`) and the API read.

import { type AbiFunction, type Hex, getAddress, isAddress } from 'viem';
import { EndpointError, LocalizedError, errorMessage, isEndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import { blockParam, checksummed, encodeCall, isRevert, quantity, refuse, revertDataOf, splitArgs } from '../chain/abiCall';
import { type ExecuteOptions, type Outcome, execute } from '../chain/execute';
import type { Operation } from '../chain/operation';
import type { Provider } from '../config/providers';
import { resolveFunction } from './call';
import { decodeOutputs } from './decode';
import { type ContractRegistry, type ResolveContext, atBlock } from './registry';
import { type TraceView, decodeTrace } from './trace';
import type { Decoded, DecodedArg, KnownContract } from './types';
import { canonicalType, resultOf, signatureOf } from './values';

import { type Alternative, type EngineSupport, type Needs, type SimulationEngine, chooseEngine, engineFor, withoutEngine } from './engines';
import { hexQuantityDecimal, hexText, isEvmAddress, lowerEvmAddress } from '../base/text';
import { parseHexQuantity } from '../base/limits';

export {
  type Alternative,
  type EngineSupport,
  type Needs,
  type SimulationEngine,
  SIMULATION_ENGINES,
  chooseEngine,
  engineFor,
  engineSupportOf,
  withoutEngine,
} from './engines';

/** One call (or one step of a bundle). */
export interface SimulationCall {
  /** The contract (or account) called; `to` is the same. */
  readonly address?: string;
  readonly to?: string;
  /** A signature, or a name or selector when the ABI is known; or give `data`. */
  readonly function?: string;
  readonly args?: readonly unknown[] | string;
  /** The calldata as is (0x hex), instead of function + args. */
  readonly data?: string;
  readonly from?: string;
  /** Wei, decimal or 0x. */
  readonly value?: string;
  readonly gas?: string;
  /** The sender's nonce (a replay keeps the mined one); the node's when absent. */
  readonly nonce?: string;
}

/** What the simulation needs of an engine. */
export function needsOf(spec: SimulationSpec): Needs {
  if (spec.overrides === undefined && spec.blockOverrides === undefined && spec.steps === undefined) return NEEDS_NOTHING;
  return {
    overrides: spec.overrides !== undefined && spec.overrides !== null && Object.keys(spec.overrides).length > 0,
    blockOverrides: spec.blockOverrides !== undefined && spec.blockOverrides !== null && Object.keys(spec.blockOverrides).length > 0,
    bundle: (spec.steps?.length ?? 0) > 1,
  };
}

/** A single call without overrides (most simulations): any engine runs it. */
const NEEDS_NOTHING: Needs = Object.freeze({ overrides: false, blockOverrides: false, bundle: false });

export interface SimulationSpec extends SimulationCall {
  /** A block number (decimal or 0x) or tag; latest by default. */
  readonly block?: string;
  /** State overrides by address: `{ "0x…": { balance, nonce, code, state, stateDiff } }`. */
  readonly overrides?: Readonly<Record<string, unknown>>;
  /** Block overrides: `{ number, time, baseFee, gasLimit, feeRecipient, prevRandao }`. */
  readonly blockOverrides?: Readonly<Record<string, unknown>>;
  /** A bundle: calls that share state, in order (the top-level call keys are then not needed). */
  readonly steps?: readonly SimulationCall[];
  /** The mined transaction this simulation changes (a replay): the result is compared with it. */
  readonly replayOf?: string;
}

export interface SimulatedLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
  /** The event's name and its arguments by name, when decoded. */
  readonly name?: string;
  readonly signature?: string;
  readonly args?: Readonly<Record<string, unknown>>;
  readonly event: Decoded;
}

export interface Transfer {
  readonly from: string;
  readonly to: string;
  /** Wei, decimal. */
  readonly value: string;
}

export interface SimulatedRevert extends Decoded {
  readonly data?: string;
  /** Error(string): its message. */
  readonly message?: string;
  /** The arguments by name (or position). */
  readonly values?: Readonly<Record<string, unknown>>;
}

export interface StepResult {
  readonly index: number;
  readonly to: string;
  readonly from?: string;
  readonly data: string;
  readonly value?: string;
  readonly function?: string;
  readonly contract?: string;
  readonly ok: boolean;
  /** The decoded return: one output its value, several an object by name (as evm.callContract gives it). */
  readonly result?: unknown;
  readonly outputs?: readonly DecodedArg[];
  readonly raw?: string;
  readonly revert?: SimulatedRevert;
  /** A failure that is not a revert (the node's sentence, or why the answer did not decode). */
  readonly error?: string;
  readonly logs: readonly SimulatedLog[];
  readonly gasUsed?: string;
  readonly gasError?: string;
  /** Native value moved (from the call tree, or eth_simulateV1's traced transfers). */
  readonly transfers: readonly Transfer[];
  /** The call tree (debug_traceCall), frames decoded. */
  readonly trace?: TraceView;
}

export interface BalanceChange {
  readonly account: string;
  readonly accountName?: string;
  /** `native`, or the token contract's address. */
  readonly asset: string;
  readonly assetName?: string;
  /** Signed, decimal (wei or the token's smallest unit); gas fees not counted. */
  readonly delta: string;
}

export interface SimulationResult {
  readonly engine: SimulationEngine;
  readonly provider: string;
  readonly block: string;
  /** One per call (one for a single call). */
  readonly steps: readonly StepResult[];
  /** The last step's, for assertions on a single call (`result`, `revert`, `logs`). */
  readonly result?: unknown;
  readonly revert?: SimulatedRevert;
  readonly logs: readonly SimulatedLog[];
  readonly ok: boolean;
  readonly balanceChanges: readonly BalanceChange[];
  /** Whether the engine gives a call tree (eth_call does not). */
  readonly callTree: boolean;
  readonly overrides?: Readonly<Record<string, unknown>>;
  readonly blockOverrides?: Readonly<Record<string, unknown>>;
  readonly notes: readonly string[];
}

export type EvmCall = (method: string, params: readonly unknown[]) => Promise<unknown>;

export const MAX_STEPS = 50;
const ADDRESS_KEYS = new Set(['balance', 'nonce', 'code', 'state', 'stateDiff']);
/** Block override keys as written -> as eth_simulateV1 and debug_traceCall read them (geth's names; anvil takes them too). */
const BLOCK_KEYS: Readonly<Record<string, string>> = {
  number: 'number',
  time: 'time',
  baseFee: 'baseFeePerGas',
  baseFeePerGas: 'baseFeePerGas',
  gasLimit: 'gasLimit',
  feeRecipient: 'feeRecipient',
  prevRandao: 'prevRandao',
};
/** eth_simulateV1's address of traced native transfers (ERC-7528), logged as an ERC-20 Transfer. */
const NATIVE_TRANSFER_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const MAX_LOGS = 1000;

// ---- the spec, checked before anything is sent ----

/** The most addresses a simulation's state overrides name, and storage slots in all (checksumming 100,000 addresses blocked the host 5 s). */
export const MAX_OVERRIDE_ADDRESSES = 1000;
export const MAX_OVERRIDE_SLOTS = 10_000;

/** 0x and whole bytes of hex. No repeated group: `(..)*` overflowed the matcher's stack past ~8 MB ("Maximum call stack size exceeded"). */
function isHexBytes(v: unknown): v is string {
  return hexText(v) !== undefined && (v as string).length % 2 === 0;
}

/** The state overrides checked and normalised (addresses checksummed, quantities 0x). */
export function checkOverrides(o: unknown): Record<string, Record<string, unknown>> | undefined {
  if (o === undefined) return undefined;
  const shape = l10n.both('overrides: an object by address, e.g. {"0x…": {"balance": "0x1"}}.');
  if (o === null || typeof o !== 'object' || Array.isArray(o)) refuse(shape);
  if (Object.keys(o).length > MAX_OVERRIDE_ADDRESSES) refuse(l10n.both('overrides: at most {0} addresses.', String(MAX_OVERRIDE_ADDRESSES)));
  const out: Record<string, Record<string, unknown>> = {};
  let slots = 0;
  for (const [addr, v] of Object.entries(o)) {
    if (!isAddress(addr, { strict: false })) refuse(l10n.both('overrides: {0} is not an address (0x and 40 hex digits).', addr.slice(0, 60)));
    if (v === null || typeof v !== 'object' || Array.isArray(v)) refuse(shape);
    const entry: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (!ADDRESS_KEYS.has(k)) refuse(l10n.both('overrides: {0} is not one of balance, nonce, code, state, stateDiff.', k.slice(0, 40)));
      if (k === 'balance' || k === 'nonce') entry[k] = quantity(String(x), `overrides.${k}`) ?? '0x0';
      else if (k === 'code') {
        if (!isHexBytes(x)) refuse(l10n.both('overrides: code is 0x and hex bytes.'));
        entry[k] = x;
      } else {
        if (x === null || typeof x !== 'object' || Array.isArray(x)) refuse(l10n.both('overrides: {0} is an object of 32-byte slots to 32-byte values.', k));
        slots += Object.keys(x).length;
        if (slots > MAX_OVERRIDE_SLOTS) refuse(l10n.both('overrides: at most {0} storage slots in all.', String(MAX_OVERRIDE_SLOTS)));
        for (const [slot, val] of Object.entries(x as Record<string, unknown>))
          if (!/^0x[0-9a-fA-F]{64}$/.test(slot) || typeof val !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(val))
            refuse(l10n.both('overrides: {0} is an object of 32-byte slots to 32-byte values.', k));
        entry[k] = x;
      }
    }
    if ('state' in entry && 'stateDiff' in entry) refuse(l10n.both('overrides: give state or stateDiff for an address, not both.'));
    out[getAddress(addr)] = entry;
  }
  return out;
}

/** The block overrides checked, with the names the engines read. */
export function checkBlockOverrides(o: unknown): Record<string, string> | undefined {
  if (o === undefined) return undefined;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) refuse(l10n.both('blockOverrides: an object, e.g. {"number": "0x10", "time": "0x6500000"}.'));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) {
    const wire = BLOCK_KEYS[k];
    if (!wire) refuse(l10n.both('blockOverrides: {0} is not one of number, time, baseFee, gasLimit, feeRecipient, prevRandao.', k.slice(0, 40)));
    if (k === 'feeRecipient') {
      if (typeof v !== 'string' || !isAddress(v, { strict: false })) refuse(l10n.both('blockOverrides: feeRecipient is an address.'));
      out[wire] = getAddress(v);
    } else if (k === 'prevRandao') {
      if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(v)) refuse(l10n.both('blockOverrides: prevRandao is 32 bytes of hex.'));
      out[wire] = v;
    } else out[wire] = quantity(String(v), `blockOverrides.${k}`) ?? '0x0';
  }
  return out;
}

export interface PreparedStep {
  readonly tx: Record<string, string>;
  readonly fn?: AbiFunction;
  readonly contract?: string;
  readonly source?: string;
}

export interface PreparedSimulation {
  readonly block: string;
  /** The resolve context at `block`. */
  readonly at: ResolveContext;
  readonly steps: readonly PreparedStep[];
  readonly overrides?: Record<string, Record<string, unknown>>;
  readonly blockOverrides?: Record<string, string>;
  readonly needs: Needs;
}

/** The call's target (`to`, or `address`), checked. */
function targetOf(c: SimulationCall, at: string): string {
  const to = c.to ?? c.address;
  if (typeof to !== 'string' || !isEvmAddress(to)) refuse(l10n.both('{0}address: 0x and 40 hex digits.', at));
  return to;
}

/** The function named by `c.function` (a signature, or a name in the known ABI) and its calldata. */
function encodeStep(c: SimulationCall, known: KnownContract | undefined, at: string): { fn: AbiFunction; data: Hex } {
  if (typeof c.function !== 'string' || c.function.trim() === '')
    refuse(l10n.both('{0}function: a signature such as balanceOf(address), or a name when the ABI is known (or give data).', at));
  const args = splitArgs(c.args);
  const fn = resolveFunction(c.function, known, args.length);
  return { fn, data: encodeCall(fn, args) };
}

/** The step's transaction: the target and calldata, then the sender, value, gas and nonce given. */
function finishStep(
  c: SimulationCall,
  to: string,
  data: Hex,
  fn: AbiFunction | undefined,
  contract: { readonly name: string; readonly source: { readonly label: string } } | undefined,
  at: string,
): PreparedStep {
  const tx: Record<string, string> = { to: checksummed(to), data };
  if (c.from !== undefined) {
    if (typeof c.from !== 'string' || !isEvmAddress(c.from)) refuse(l10n.both('{0}from: 0x and 40 hex digits.', at));
    tx.from = checksummed(c.from);
  }
  const value = c.value === undefined ? undefined : quantity(String(c.value), `${at}value`);
  if (value) tx.value = value;
  const gas = c.gas === undefined ? undefined : quantity(String(c.gas), `${at}gas`);
  if (gas) tx.gas = gas;
  const nonce = c.nonce === undefined ? undefined : quantity(String(c.nonce), `${at}nonce`);
  if (nonce) tx.nonce = nonce;
  return { tx, fn, contract: contract?.name, source: contract?.source.label };
}

/**
 * A step prepared without waiting a turn (most simulations: a function of a contract whose ABI is in
 * the settings or matched already, its outputs declared); undefined when the registry must read a
 * file, the index or the node. `ctx` is the context at the simulation's block.
 */
function prepareStepNow(c: SimulationCall, registry: ContractRegistry, ctx: ResolveContext, at: string): PreparedStep | undefined {
  const to = targetOf(c, at);
  if (c.data !== undefined) return undefined;
  const now = registry.contractAtNow(to, ctx);
  if (!now) return undefined;
  const { fn, data } = encodeStep(c, now.contract, at);
  // A bare signature's outputs are looked up by selector (prepareStep).
  return fn.outputs.length === 0 ? undefined : finishStep(c, to, data, fn, now.contract, at);
}

/** A step whose ABI or outputs must be read first (a file, the index, the node). `ctx` is the context at the simulation's block. */
async function prepareStep(c: SimulationCall, registry: ContractRegistry, ctx: ResolveContext, at: string): Promise<PreparedStep> {
  const to = targetOf(c, at);
  if (c.data !== undefined) {
    if (c.function !== undefined) refuse(l10n.both('{0}give function (with args) or data, not both.', at));
    if (!isHexBytes(c.data)) refuse(l10n.both('{0}data: 0x and hex bytes.', at));
    const found = await registry.functionFor(c.data, to, ctx);
    const contract = found?.decoded.contract ? { name: found.decoded.contract, source: { label: found.decoded.source ?? '' } } : undefined;
    return finishStep(c, to, c.data as Hex, found?.fn, contract, at);
  }
  const known = await registry.contractAt(to, ctx);
  const encoded = encodeStep(c, known, at);
  const data = encoded.data;
  let fn = encoded.fn;
  // A bare signature (no outputs) on an address without a known ABI: the outputs of the ABIs known for its selector (a standard ERC-20…).
  if (fn.outputs.length === 0) {
    const found = await registry.functionFor(data, to, ctx);
    if (found && found.fn.outputs.length > 0 && signatureOf(found.fn) === signatureOf(fn)) fn = found.fn;
  }
  return finishStep(c, to, data, fn, known, at);
}

/** The spec checked, its steps still to prepare (`calls`: a bundle's steps with their defaults). */
function specParts(
  spec: SimulationSpec,
  ctx: ResolveContext,
): PreparedSimulation & { readonly calls: readonly SimulationCall[]; readonly steps: PreparedStep[] } {
  if (spec === null || typeof spec !== 'object') refuse(l10n.both('A simulation is an object: { address, function, args } or { steps: [...] }.'));
  // Most simulations give no block and no overrides: nothing to check for them.
  const block = spec.block === undefined ? 'latest' : blockParam(spec.block);
  const overrides = spec.overrides === undefined ? undefined : checkOverrides(spec.overrides);
  const blockOverrides = spec.blockOverrides === undefined ? undefined : checkBlockOverrides(spec.blockOverrides);
  let calls: readonly SimulationCall[];
  if (spec.steps !== undefined) {
    if (!Array.isArray(spec.steps) || spec.steps.length === 0)
      refuse(l10n.both('steps: a list of calls, each { address, function, args } or { address, data }.'));
    if (spec.steps.length > MAX_STEPS) refuse(l10n.both('steps: at most {0} calls.', String(MAX_STEPS)));
    // Keys given beside steps are each step's defaults (from, value, gas).
    calls = spec.steps.map((s) => ({ from: spec.from, gas: spec.gas, ...(s && typeof s === 'object' ? s : {}) }));
  } else calls = [spec];
  return { block, at: atBlock(ctx, block), steps: [], overrides, blockOverrides, needs: needsOf({ steps: spec.steps, overrides, blockOverrides }), calls };
}

const stepPrefix = (i: number, n: number) => (n > 1 ? `steps[${i}].` : '');

/**
 * Everything checked before anything is sent: each call's calldata, the block, the overrides.
 * Prepared at once while no step needs anything read (prepareStepNow: most simulations), so their
 * requests go out without waiting a turn; a promise from the first step that does.
 */
export function prepareSimulation(spec: SimulationSpec, registry: ContractRegistry, ctx: ResolveContext): PreparedSimulation | Promise<PreparedSimulation> {
  const parts = specParts(spec, ctx);
  const calls = parts.calls;
  for (let i = 0; i < calls.length; i++) {
    const step = prepareStepNow(calls[i], registry, parts.at, stepPrefix(i, calls.length));
    if (!step) return prepareRest(parts, i, registry);
    parts.steps.push(step);
  }
  return parts;
}

/** The steps from `from` on, each after what it needs is read. */
async function prepareRest(parts: ReturnType<typeof specParts>, from: number, registry: ContractRegistry): Promise<PreparedSimulation> {
  const calls = parts.calls;
  for (let i = from; i < calls.length; i++) parts.steps.push(await prepareStep(calls[i], registry, parts.at, stepPrefix(i, calls.length)));
  return parts;
}

// ---- running ----

/** Hex data of an answer, at most 4 MiB of it. */
function hex(v: unknown): string | undefined {
  return hexText(v, 1 << 22);
}
/** A quantity as a decimal string: 0x hex, or a JSON number (some engines write gas that way). */
function dec(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : hexQuantityDecimal(v);
}

type Json = Record<string, any>;

interface RawStep {
  ok: boolean;
  returnData?: string;
  /** Revert data (a revert), when there is some. */
  revertData?: string;
  reverted?: boolean;
  error?: string;
  logs: Array<{ address: string; topics: string[]; data: string }>;
  gasUsed?: string;
  gasError?: string;
  transfers: Transfer[];
  trace?: Json;
}

function readLogs(v: unknown): RawStep['logs'] {
  if (!Array.isArray(v)) return [];
  const out: RawStep['logs'] = [];
  for (const l of v.slice(0, MAX_LOGS)) {
    if (!l || typeof l !== 'object') continue;
    const address = lowerEvmAddress(l.address);
    const topics = Array.isArray(l.topics) ? l.topics.filter((t: unknown) => typeof t === 'string' && /^0x[0-9a-fA-F]{64}$/.test(t)).slice(0, 4) : [];
    if (!address) continue;
    out.push({ address, topics, data: hex(l.data) ?? '0x' });
  }
  return out;
}

/** The revert data and the node's sentence of a JSON-RPC error (eth_call: code 3 with data). */
function revertOf(err: unknown): { reverted: boolean; data?: string; message: string } {
  const data = revertDataOf(err);
  return { reverted: isRevert(err), data: data && data !== '0x' ? data : undefined, message: errorMessage(err) };
}

function rethrowCancel(err: unknown): void {
  if (isEndpointError(err) && err.kind === 'cancelled') throw err;
}

/** What a node answers for a block whose state it no longer keeps (Cosmos SDK, cosmos/evm; geth's path scheme). */
const PRUNED_STATE =
  /version does not exist|failed to load state at height|is not available, lowest height is|missing trie node|historical state (?:is )?not available/i;

/**
 * eth_call's failure that is no outcome of the call (a timeout, an HTTP error, the method refused, the
 * block's state pruned) thrown as the request's failure: shown as "reverted or failed" it made a
 * replay at a pruned parent block report its status changed to reverted.
 */
function rethrowRequestFailure(err: unknown, provider: string, block: string): void {
  rethrowCancel(err);
  if (!isEndpointError(err)) throw err;
  if (PRUNED_STATE.test(errorMessage(err))) throw prunedBlock(provider, block);
  if (err.kind !== 'rpc' || err.detail.code === -32601 || err.detail.code === -32602) throw err;
}

function prunedBlock(provider: string, block: string): LocalizedError {
  return new LocalizedError(
    l10n.both(
      'Block {0} is pruned on {1}: its state is no longer kept there, so nothing can be simulated at it (a provider that keeps old states, an archive node, can).',
      /^0x[0-9a-fA-F]+$/.test(block) ? BigInt(block).toString() : block,
      provider,
    ),
  );
}

/** The node refused the method itself (JSON-RPC -32601: not served, or not enabled). */
function methodRefused(err: unknown): boolean {
  return isEndpointError(err) && err.kind === 'rpc' && err.detail.code === -32601;
}

/** A provider refused the engine its capabilities said it serves, and no other engine of its can do what the simulation needs. */
function engineRefused(provider: string, engine: SimulationEngine, needs: Needs, alternatives: readonly Alternative[] = []): LocalizedError {
  const other = alternatives.find((a) => a.name !== provider && 'engine' in engineFor(needs, a.support));
  const why = l10n.both(
    '{0} refused {1} (method not found), though its capabilities said it serves it, and nothing else it serves can run this simulation',
    provider,
    engine,
  );
  return new LocalizedError(
    other
      ? l10n.both('{0}; {1}, on the same network, can. Probe its capabilities again.', why, other.name)
      : l10n.both('{0}; no other provider of the same network is known to. Probe its capabilities again.', why),
  );
}

async function runSimulateV1(evm: EvmCall, p: PreparedSimulation): Promise<RawStep[]> {
  const blockStateCall: Json = { calls: p.steps.map((s) => s.tx) };
  if (p.overrides) blockStateCall.stateOverrides = p.overrides;
  if (p.blockOverrides) blockStateCall.blockOverrides = p.blockOverrides;
  const answer = await evm('eth_simulateV1', [{ blockStateCalls: [blockStateCall], traceTransfers: true, validation: false }, p.block]);
  const blocks = Array.isArray(answer) ? answer : [];
  const calls: unknown[] = blocks[0] && typeof blocks[0] === 'object' && Array.isArray(blocks[0].calls) ? blocks[0].calls : [];
  if (calls.length !== p.steps.length)
    throw new EndpointError('protocol', l10n.both('eth_simulateV1 answered {0} calls for {1} sent.', String(calls.length), String(p.steps.length)));
  return calls.map((c) => {
    const call = (c && typeof c === 'object' ? c : {}) as Json;
    const ok = call.status === '0x1' || call.status === 1;
    const all = readLogs(call.logs);
    // traceTransfers: native value moved appears as a Transfer log from 0xeeee…eeee.
    const transfers: Transfer[] = [];
    const logs = all.filter((l) => {
      if (l.address !== NATIVE_TRANSFER_ADDRESS) return true;
      // Its data is the 32-byte value: anything longer is no transfer (and never given to BigInt).
      const value = l.data === '0x' ? '0' : hexQuantityDecimal(l.data);
      if (l.topics[0] === TRANSFER_TOPIC && l.topics.length === 3 && value !== undefined)
        transfers.push({ from: `0x${l.topics[1].slice(26)}`, to: `0x${l.topics[2].slice(26)}`, value });
      return false;
    });
    const err = call.error && typeof call.error === 'object' ? (call.error as Json) : undefined;
    const returnData = hex(call.returnData) ?? '0x';
    return {
      ok,
      returnData: ok ? returnData : undefined,
      revertData: !ok ? (hex(err?.data) ?? (returnData !== '0x' ? returnData : undefined)) : undefined,
      reverted: !ok && (err?.code === 3 || /revert|execution failed/i.test(String(err?.message ?? '')) || returnData !== '0x'),
      error: !ok ? String(err?.message ?? 'failed').slice(0, 300) : undefined,
      logs: ok ? logs : [],
      gasUsed: dec(call.gasUsed),
      transfers: ok ? transfers : [],
    };
  });
}

/** debug_traceCall with callTracer (logs on): the config as an object (geth, anvil), else as a string (cosmos/evm). */
async function runTraceCall(evm: EvmCall, p: PreparedSimulation): Promise<RawStep[]> {
  const config = (tracerConfig: unknown): Json => ({
    tracer: 'callTracer',
    tracerConfig,
    ...(p.overrides ? { stateOverrides: p.overrides } : {}),
    ...(p.blockOverrides ? { blockOverrides: p.blockOverrides } : {}),
  });
  const tx = p.steps[0].tx;
  let root: Json;
  try {
    root = (await evm('debug_traceCall', [tx, p.block, config({ withLog: true })])) as Json;
  } catch (err) {
    if (!/unmarshal/i.test(errorMessage(err))) throw err;
    root = (await evm('debug_traceCall', [tx, p.block, config('{"withLog":true}')])) as Json;
  }
  if (!root || typeof root !== 'object' || Array.isArray(root))
    throw new EndpointError('protocol', l10n.both('debug_traceCall answered something other than a call frame.'));
  const ok = typeof root.error !== 'string';
  const logs: RawStep['logs'] = [];
  const transfers: Transfer[] = [];
  // Logs and value of the frames that did not fail (a failed frame's logs are dropped by the EVM).
  const stack: Json[] = [root];
  let seen = 0;
  while (stack.length > 0 && seen++ < 50_000) {
    const f = stack.pop()!;
    if (!f || typeof f !== 'object' || typeof f.error === 'string') continue;
    if (logs.length < MAX_LOGS && Array.isArray(f.logs) && f.logs.length > 0) logs.push(...readLogs(f.logs).slice(0, MAX_LOGS - logs.length));
    // Most frames move no value: their addresses are read only when one does.
    const v = f.value === '0x0' || f.value === undefined ? undefined : dec(f.value);
    if (v && v !== '0' && f.type !== 'DELEGATECALL') {
      const from = lowerEvmAddress(f.from);
      const to = lowerEvmAddress(f.to);
      if (from && to) transfers.push({ from, to, value: v });
    }
    if (Array.isArray(f.calls)) for (let i = f.calls.length - 1; i >= 0; i--) stack.push(f.calls[i] as Json);
  }
  return [
    {
      ok,
      returnData: ok ? (hex(root.output) ?? '0x') : undefined,
      revertData: ok ? undefined : hex(root.output),
      reverted: !ok && /revert/i.test(String(root.error)),
      error: ok ? undefined : String(root.error).slice(0, 300),
      logs: ok ? logs : [],
      gasUsed: dec(root.gasUsed),
      transfers: ok ? transfers : [],
      trace: root,
    },
  ];
}

/**
 * The eth_call engine: its two requests sent together (one round trip of latency, not two), in that
 * order, as a client sends them bare; each answer read as it settled. Two awaits, not
 * Promise.allSettled (its result objects and element closures were most of this engine's own allocation).
 */
async function runEthCall(evm: EvmCall, p: PreparedSimulation, provider: string): Promise<RawStep[]> {
  const tx = p.steps[0].tx;
  // The parameters written out (a spread of an empty list is an iteration all the same).
  const callParams: unknown[] = [tx, p.block];
  if (p.overrides || p.blockOverrides) callParams.push(p.overrides ?? {});
  if (p.blockOverrides) callParams.push(p.blockOverrides);
  const gasParams: unknown[] = [tx, p.block];
  if (p.overrides) gasParams.push(p.overrides);
  const call = evm('eth_call', callParams);
  const gas = evm('eth_estimateGas', gasParams);
  // Handled at once: the estimate may fail while eth_call is still awaited (its failure is read below).
  gas.catch(ignore);
  let c: PromiseSettledResult<unknown>;
  try {
    c = { status: 'fulfilled', value: await call };
  } catch (reason) {
    c = { status: 'rejected', reason };
  }
  let e: PromiseSettledResult<unknown>;
  try {
    e = { status: 'fulfilled', value: await gas };
  } catch (reason) {
    e = { status: 'rejected', reason };
  }
  return ethCallSteps(p, c, e, provider);
}
function ignore(): void {
  // read where it is awaited
}

/** The eth_call engine's step from its two answers. */
function ethCallSteps(p: PreparedSimulation, c: PromiseSettledResult<unknown>, e: PromiseSettledResult<unknown>, provider: string): RawStep[] {
  const tx = p.steps[0].tx;
  let step: RawStep;
  if (c.status === 'fulfilled') {
    const h = hex(c.value);
    step =
      h === undefined
        ? { ok: false, error: 'the node answered something other than hex data', logs: [], transfers: [] }
        : {
            ok: true,
            returnData: h,
            logs: [],
            transfers:
              tx.value && tx.from && BigInt(tx.value) > 0n
                ? [{ from: tx.from.toLowerCase(), to: tx.to.toLowerCase(), value: BigInt(tx.value).toString() }]
                : [],
          };
  } else {
    rethrowRequestFailure(c.reason, provider, p.block);
    const r = revertOf(c.reason);
    step = { ok: false, reverted: r.reverted, revertData: r.data, error: r.message.slice(0, 300), logs: [], transfers: [] };
  }
  if (e.status === 'rejected') {
    rethrowCancel(e.reason);
    step.gasError = errorMessage(e.reason).slice(0, 300);
  } else {
    const g = dec(e.value);
    if (g) step.gasUsed = g;
    else step.gasError = 'the node answered something other than a quantity';
  }
  return [step];
}

function revertDetail(d: Decoded, data: string | undefined): SimulatedRevert {
  const values: Record<string, unknown> = {};
  (d.args ?? []).forEach((a, i) => (values[a.name || String(i)] = a.value));
  const message = d.signature === 'Error(string)' ? String(d.args?.[0]?.value ?? '') : undefined;
  return { ...d, data, values, ...(message !== undefined ? { message } : {}) };
}

/** A step's keys every answer has, built key by key in this order (a spread of a 10-key object is V8's slow clone: most of a simulation's own time). */
function stepOf(i: number, s: PreparedStep, raw: RawStep): Mutable<StepResult> {
  return {
    index: i,
    to: s.tx.to,
    from: s.tx.from,
    data: s.tx.data,
    value: s.tx.value ? BigInt(s.tx.value).toString() : undefined,
    function: s.fn ? signatureOf(s.fn) : undefined,
    contract: s.contract,
    gasUsed: raw.gasUsed,
    gasError: raw.gasError,
    transfers: raw.transfers,
  } as unknown as Mutable<StepResult>;
}

/** A step that did not fail: its return decoded (nothing to ask the registry: no await). */
function okStep(step: Mutable<StepResult>, s: PreparedStep, raw: RawStep, logs: SimulatedLog[]): Mutable<StepResult> {
  const data = raw.returnData ?? '0x';
  step.ok = true;
  step.raw = data;
  if (!s.fn) {
    step.logs = logs;
    return step;
  }
  try {
    // Every engine's return data is checked as 0x and hex (hex()) when read.
    const outputs = decodeOutputs(s.fn, data, true);
    step.outputs = outputs;
    step.result = s.fn.outputs.length > 0 ? resultOf(outputs) : undefined;
    step.logs = logs;
  } catch (err) {
    step.logs = logs;
    step.error = `the answer does not decode as ${s.fn.outputs.map(canonicalType).join(',') || 'nothing'}: ${errorMessage(err).split('\n')[0]}`;
  }
  return step;
}

/** Decodes one step's answer: its return or revert, its logs. */
async function decodeStep(i: number, s: PreparedStep, raw: RawStep, registry: ContractRegistry, ctx: ResolveContext): Promise<Mutable<StepResult>> {
  const step = stepOf(i, s, raw);
  const logs: SimulatedLog[] = [];
  for (const l of raw.logs) {
    const event = await registry.decodeLog(l, ctx);
    const args: Record<string, unknown> = {};
    (event.args ?? []).forEach((a, k) => (args[a.name || String(k)] = a.value));
    logs.push({ ...l, event, ...(event.kind === 'event' ? { name: event.name, signature: event.signature, args } : {}) });
  }
  if (raw.ok) return okStep(step, s, raw, logs);
  step.ok = false;
  if (raw.reverted || raw.revertData) {
    const decoded: Decoded = raw.revertData
      ? await registry.decodeRevert(raw.revertData, s.tx.to, ctx)
      : { kind: 'unknown', note: 'the node gave no revert data (evmd never returns it from eth_call)' };
    step.revert = revertDetail(decoded, raw.revertData);
    step.error = raw.error;
  } else step.error = raw.error ?? 'failed';
  step.logs = [];
  return step;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Native and token balance changes of the accounts involved (from the transfers and the ERC-20 Transfer logs). */
export function balanceChanges(steps: readonly StepResult[], nameOf: (a: string) => string | undefined = () => undefined): BalanceChange[] {
  // Most simulations move nothing (eth_call has no logs): no maps built for them.
  let moves = false;
  for (const s of steps) if (s.ok && (s.transfers.length > 0 || s.logs.length > 0)) moves = true;
  if (!moves) return [];
  const deltas = new Map<string, bigint>();
  const names = new Map<string, string | undefined>();
  const add = (account: string, asset: string, d: bigint, assetName?: string) => {
    const key = `${account.toLowerCase()}|${asset}`;
    deltas.set(key, (deltas.get(key) ?? 0n) + d);
    if (assetName) names.set(asset, assetName);
  };
  for (const s of steps) {
    if (!s.ok) continue;
    for (const t of s.transfers) {
      const v = BigInt(t.value);
      add(t.from, 'native', -v);
      add(t.to, 'native', v);
    }
    for (const l of s.logs) {
      if (l.topics[0] !== TRANSFER_TOPIC || l.topics.length !== 3 || !/^0x[0-9a-fA-F]{1,64}$/.test(l.data)) continue;
      const v = BigInt(l.data);
      add(`0x${l.topics[1].slice(26)}`, l.address, -v, l.event.contract);
      add(`0x${l.topics[2].slice(26)}`, l.address, v, l.event.contract);
    }
  }
  const out: BalanceChange[] = [];
  for (const [key, d] of deltas) {
    if (d === 0n) continue;
    const [account, asset] = key.split('|');
    out.push({
      account,
      accountName: nameOf(account),
      asset,
      assetName: asset === 'native' ? undefined : (names.get(asset) ?? nameOf(asset)),
      delta: d.toString(),
    });
  }
  return out;
}

export interface SimulateOptions {
  readonly provider: string;
  readonly support: EngineSupport;
  /** Providers of the same network (their engines), to name one that can when this one cannot. */
  readonly alternatives?: readonly Alternative[];
  /** Decode the call tree's frames (debug_traceCall): default true. */
  readonly decodeTree?: boolean;
  /**
   * The provider refused an engine its capabilities said it serves (method not found): the caller
   * records it, so the next simulation there does not send it again until its capabilities are probed.
   */
  readonly onRefused?: (engine: 'eth_simulateV1' | 'debug_traceCall') => void;
}

/**
 * One simulation: checked, the engine chosen (or refused: a LocalizedError, nothing sent), run with
 * read methods only, decoded. Rejects for bad input, a refusal, cancellation, or a node failure that
 * is not a revert (the engine's request failed: its sentence).
 */
export async function simulate(
  evm: EvmCall,
  spec: SimulationSpec,
  registry: ContractRegistry,
  ctx: ResolveContext,
  o: SimulateOptions,
): Promise<SimulationResult> {
  // Sent without waiting a turn when nothing must be read first.
  const prepared = prepareSimulation(spec, registry, ctx);
  const p = prepared instanceof Promise ? await prepared : prepared;
  let engine = chooseEngine(o.provider, p.needs, o.support, o.alternatives);
  const notes: string[] = [];
  let raw: RawStep[] | undefined;
  let support = o.support;
  while (raw === undefined) {
    try {
      raw =
        engine === 'eth_simulateV1'
          ? await runSimulateV1(evm, p)
          : engine === 'debug_traceCall'
            ? await runTraceCall(evm, p)
            : await runEthCall(evm, p, o.provider);
    } catch (err) {
      // The node's words for a pruned block ("version does not exist…") said as what they mean.
      if (isEndpointError(err) && err.kind !== 'cancelled' && PRUNED_STATE.test(errorMessage(err))) throw prunedBlock(o.provider, p.block);
      if (engine === 'eth_call' || !methodRefused(err)) throw err;
      // Probed as served, refused now (the node's configuration changed, or a proxy in front of it):
      // the next engine that can, said in the result; else one sentence naming a provider that can.
      const refused = engine;
      support = withoutEngine(support, refused);
      o.onRefused?.(refused);
      const next = engineFor(p.needs, support);
      if (!('engine' in next)) throw engineRefused(o.provider, refused, p.needs, o.alternatives);
      notes.push(
        l10n.t(
          '{0} refused {1} (method not found), though its capabilities said it serves it: simulated through {2} instead. Probe its capabilities again.',
          o.provider,
          refused,
          next.engine,
        ),
      );
      engine = next.engine;
    }
  }
  const dctx = p.at;
  const steps: StepResult[] = [];
  let ok = true;
  let moves = false;
  for (let i = 0; i < raw.length; i++) {
    // A return without logs (eth_call) needs nothing of the registry: decoded without an await.
    const step =
      raw[i].ok && raw[i].logs.length === 0
        ? okStep(stepOf(i, p.steps[i], raw[i]), p.steps[i], raw[i], [])
        : await decodeStep(i, p.steps[i], raw[i], registry, dctx);
    if (raw[i].trace && o.decodeTree !== false) step.trace = await decodeTrace(raw[i].trace!, 'object', registry, dctx);
    if (!step.ok) ok = false;
    else if (step.transfers.length > 0 || step.logs.length > 0) moves = true;
    steps.push(step);
  }
  const last = steps[steps.length - 1];
  if (engine === 'eth_call') notes.push(ethCallNote(o.provider));
  if (engine === 'eth_simulateV1') notes.push(l10n.t('eth_simulateV1 gives no call tree: the logs and native transfers of each call.'));
  return {
    engine,
    provider: o.provider,
    block: p.block,
    steps,
    result: last.result,
    revert: last.revert,
    logs: last.logs,
    ok,
    // Most simulations move nothing (eth_call has no logs): nothing more is built for them.
    balanceChanges: moves ? namedBalanceChanges(steps, registry, ctx.network) : [],
    callTree: engine === 'debug_traceCall',
    overrides: p.overrides,
    blockOverrides: p.blockOverrides,
    notes,
  };
}

/** balanceChanges() with the accounts' and tokens' names the registry knows on `network`. */
function namedBalanceChanges(steps: readonly StepResult[], registry: ContractRegistry, network: string | undefined): BalanceChange[] {
  return balanceChanges(steps, (a) => registry.nameOf(a, network)?.name);
}

/** The eth_call engine's note for `provider`, made once per provider and language (every simulation there says it). */
function ethCallNote(provider: string): string {
  const generation = l10n.generation();
  if (provider !== lastNote.provider || generation !== lastNote.generation)
    lastNote = { provider, generation, text: l10n.t('{0} simulates through eth_call: no call tree and no logs are available there.', provider) };
  return lastNote.text;
}
let lastNote = { provider: '', generation: -1, text: '' };

// ---- the EVM source for core callers (query files, the bench): every request through execute() ----

const EVM_READ: Operation = {
  id: 'simulate.evmRpc',
  iface: 'evmRpc',
  label: 'simulate',
  title: 'Simulate',
  params: [],
  build: (a) => ({ kind: 'jsonrpc', method: a.method, params: JSON.parse(a.params) }),
};

/** Only these methods are ever sent by a simulation (read methods: nothing signed, nothing broadcast). */
export const SIMULATION_METHODS: ReadonlySet<string> = new Set([
  'eth_simulateV1',
  'debug_traceCall',
  'eth_call',
  'eth_estimateGas',
  'eth_getCode',
  'eth_chainId',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
]);

/** An EvmCall on `provider` (secrets resolved) through execute(): the node's error as an EndpointError, read methods only. */
export function evmCaller(provider: Provider, options: ExecuteOptions, onRequest?: (method: string, elapsedMs: number, outcome: Outcome) => void): EvmCall {
  const opts: ExecuteOptions = { ...options, formatWhileReceiving: false };
  return async (method, params) => {
    if (!SIMULATION_METHODS.has(method)) throw new LocalizedError(l10n.both('A simulation sends only read methods ({0} refused).', method));
    const outcome = await execute(provider, EVM_READ, { method, params: JSON.stringify(params) }, opts);
    onRequest?.(method, outcome.elapsedMs, outcome);
    if (outcome.error) throw outcome.error;
    if (outcome.file) throw new EndpointError('protocol', l10n.both('The answer is too large for a simulation (it was written to a file).'));
    return outcome.result;
  };
}

/** The registry's eth_getCode through `evm` (undefined when it cannot be read). */
export function codeReader(evm: EvmCall): NonNullable<ResolveContext['getCode']> {
  return async (a, b) => {
    try {
      const c = await evm('eth_getCode', [a, b]);
      return typeof c === 'string' ? c : undefined;
    } catch (err) {
      rethrowCancel(err);
      return undefined;
    }
  };
}

// ---- replay: a mined transaction re-run at its parent block ----

/** The mined transaction a replay started from, as the result compares it. */
export interface ReplayOriginal {
  readonly hash: string;
  readonly status: 'success' | 'reverted';
  readonly gasUsed?: string;
  /** How many logs its receipt has, and each one's event name (or its topic0 when not decoded). */
  readonly logs: number;
  readonly logEvents?: readonly string[];
  /** A receipt carries no return value and no revert data: absent unless read elsewhere. */
  readonly result?: unknown;
  readonly revert?: string;
}

/** One line of "beside the original": what it was, what the simulation gives, whether that changed. */
export interface ReplayChange {
  readonly what: 'status' | 'return' | 'revert' | 'logs' | 'gas used';
  readonly original: string;
  readonly simulated: string;
  readonly changed: boolean;
}

/** The mined transaction `hash` and what it did (its receipt: status, gas, logs decoded by name). */
export async function readOriginal(
  evm: EvmCall,
  hash: string,
  registry?: ContractRegistry,
  ctx: ResolveContext = {},
): Promise<{ tx: Json; original: ReplayOriginal }> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new LocalizedError(l10n.both('A transaction hash: 0x and 64 hex digits.'));
  const [tx, receipt] = (await Promise.all([evm('eth_getTransactionByHash', [hash]), evm('eth_getTransactionReceipt', [hash])])) as [Json | null, Json | null];
  if (!tx || typeof tx !== 'object' || !receipt || typeof receipt !== 'object')
    throw new LocalizedError(l10n.both('No mined transaction {0} on this provider.', hash));
  // 0x1 or 0x0 (any spelling of either): a receipt without a status is not taken for a revert.
  const status = parseHexQuantity(receipt.status);
  if (status !== 0n && status !== 1n) throw new LocalizedError(l10n.both('The receipt of {0} has no status (0x1 or 0x0): it cannot be compared.', hash));
  const logs = Array.isArray(receipt.logs) ? readLogs(receipt.logs) : [];
  const logEvents: string[] = [];
  for (const l of logs.slice(0, MAX_LOGS)) {
    const d = registry ? await registry.decodeLog(l, ctx) : undefined;
    logEvents.push(d?.kind === 'event' && d.name ? d.name : (l.topics[0] ?? 'anonymous'));
  }
  return {
    tx,
    original: {
      hash,
      status: status === 1n ? 'success' : 'reverted',
      gasUsed: hexQuantityDecimal(receipt.gasUsed),
      logs: Array.isArray(receipt.logs) ? receipt.logs.length : 0,
      logEvents,
    },
  };
}

/**
 * The spec of a mined transaction re-run at its parent block (same sender, nonce, input, value,
 * gas), and what it did. With the registry, the input is written as its function and arguments when
 * the ABI is known and they encode back to the same bytes (else it stays `data`).
 */
export async function replaySpec(
  evm: EvmCall,
  hash: string,
  registry?: ContractRegistry,
  ctx: ResolveContext = {},
): Promise<{ spec: SimulationSpec; original: ReplayOriginal }> {
  const { tx, original } = await readOriginal(evm, hash, registry, ctx);
  if (typeof tx.to !== 'string') throw new LocalizedError(l10n.both('{0} creates a contract: only calls can be replayed.', hash));
  const height = typeof tx.blockNumber === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(tx.blockNumber) ? BigInt(tx.blockNumber) : undefined;
  if (height === undefined || height === 0n) throw new LocalizedError(l10n.both('{0} is not mined yet.', hash));
  const block = (height - 1n).toString();
  const data = isHexBytes(tx.input) ? tx.input : '0x';
  const call = registry ? await readableCall(data, tx.to, registry, atBlock(ctx, `0x${(height - 1n).toString(16)}`)) : undefined;
  const value = hexQuantityDecimal(tx.value);
  const spec: SimulationSpec = {
    address: tx.to,
    ...(call ?? { data }),
    from: tx.from,
    value: value === '0' ? undefined : value,
    gas: typeof tx.gas === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(tx.gas) ? BigInt(tx.gas).toString() : undefined,
    nonce: typeof tx.nonce === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(tx.nonce) ? BigInt(tx.nonce).toString() : undefined,
    block,
    replayOf: hash,
  };
  return { spec, original };
}

/** Calldata as `function` (its signature) and `args` (JSON values), when the ABI is known and they encode back to exactly `data`. */
export async function readableCall(
  data: string,
  to: string,
  registry: ContractRegistry,
  ctx: ResolveContext,
): Promise<{ function: string; args: unknown[] } | undefined> {
  if (data.length < 10) return undefined;
  const found = await registry.functionFor(data, to, ctx);
  if (!found || found.decoded.guessed) return undefined;
  const args = (found.decoded.args ?? []).map((a) => a.value);
  try {
    if (encodeCall(found.fn, args).toLowerCase() !== data.toLowerCase()) return undefined;
  } catch {
    return undefined;
  }
  return { function: signatureOf(found.fn), args };
}

/** What changed between the mined transaction and its simulation (the last step): status, return, revert, logs, gas. */
export function compareReplay(original: ReplayOriginal, r: SimulationResult): ReplayChange[] {
  const sim = r.steps[r.steps.length - 1];
  const row = (what: ReplayChange['what'], was: string, now: string, comparable = true): ReplayChange => ({
    what,
    original: was,
    simulated: now,
    changed: comparable && was !== now,
  });
  // The eth_call engine gives no logs, and its gas is an estimate.
  const ethCall = r.engine === 'eth_call';
  const simLogs = ethCall ? undefined : sim.logs.map((l) => l.name ?? l.topics[0] ?? 'anonymous');
  const origLogs = original.logEvents ? `${original.logs}${original.logEvents.length > 0 ? `: ${original.logEvents.join(', ')}` : ''}` : String(original.logs);
  return [
    row('status', original.status, sim.ok ? 'success' : 'reverted'),
    row(
      'return',
      original.result === undefined ? '— (not in a receipt)' : shortText(original.result),
      sim.result === undefined ? '—' : shortText(sim.result),
      original.result !== undefined,
    ),
    row(
      'revert',
      original.revert ?? (original.status === 'reverted' ? '— (not in a receipt)' : '—'),
      sim.revert ? (sim.revert.name ?? 'not decoded') : '—',
      original.status !== 'reverted',
    ),
    row(
      'logs',
      origLogs,
      simLogs === undefined ? 'not available (eth_call)' : `${simLogs.length}${simLogs.length > 0 ? `: ${simLogs.join(', ')}` : ''}`,
      simLogs !== undefined,
    ),
    // The eth_call engine's gas is eth_estimateGas's answer: what a transaction would need to be sent
    // with (a search above what it uses), never what it used: shown, not compared.
    row('gas used', original.gasUsed ?? '—', sim.gasUsed && ethCall ? `${sim.gasUsed} (an estimate: eth_estimateGas)` : (sim.gasUsed ?? '—'), !ethCall),
  ];
}

function shortText(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}
