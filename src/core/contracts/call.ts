// Calling a contract: the function named by a signature (`balanceOf(address)`, cast's
// `balanceOf(address)(uint256)`, a full `function … returns (…)`), or by a name or selector when the
// ABI is known; arguments checked against their ABI types (as typed, each with the sentence that
// says what to type); eth_call at a block with optional state overrides (its third parameter), the
// outputs or the revert decoded, and eth_estimateGas beside it.

import { type AbiFunction, type Hex, getAddress, isAddress } from 'viem';
import { blockParam, encodeCall, isRevert, parseSignature, quantity, refuse, revertDataOf, splitArgs } from '../chain/abiCall';
import { errorMessage, isEndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import { selectorOf } from './builtin';
import { type Alternative, type EngineSupport, checkCallOverrides } from './engines';
import { decodeOutputs } from './decode';
import { type ContractRegistry, type ResolveContext, atBlock } from './registry';
import type { Decoded, DecodedArg, KnownContract } from './types';
import { canonicalType, resultOf, signatureOf } from './values';
import { clean, hexText } from '../base/text';

export { coerceArg, encodeCall, splitArgs } from '../chain/abiCall';

export interface CallSpec {
  readonly address: string;
  /** A signature, a full human-readable function, or (with a known ABI) a name or a selector. */
  readonly function: string;
  /** The arguments: values (strings, numbers, arrays) or one text (a JSON array, or comma-separated). */
  readonly args?: readonly unknown[] | string;
  /** A block number (decimal or 0x) or tag; latest by default. */
  readonly block?: string;
  readonly from?: string;
  /** Wei, decimal or 0x. */
  readonly value?: string;
  /** eth_call's state overrides: `{ "0xaddr": { balance, nonce, code, state, stateDiff } }`. */
  readonly overrides?: Readonly<Record<string, unknown>>;
}

export interface CallOutcome {
  readonly function: string;
  readonly contract?: string;
  readonly source?: string;
  readonly block: string;
  readonly data: string;
  /** The decoded output: one output its value, several an object by name. */
  readonly result?: unknown;
  readonly outputs?: readonly DecodedArg[];
  /** The return data as received. */
  readonly raw?: string;
  readonly revert?: Decoded & { readonly data?: string };
  /** A failure that is not a revert (the node's sentence). */
  readonly error?: string;
  readonly gasEstimate?: string;
  readonly gasError?: string;
}

/** The function `text` names: a signature (with cast's `(outputs)` or `returns (…)`), or a name/selector of `abi`. */
export function resolveFunction(text: string, contract: KnownContract | undefined, argCount?: number): AbiFunction {
  // The last resolution, compared in place (a query file or a simulation resolves the same function on the same ABI again and again; an ABI is never changed once read).
  const last = lastResolved;
  if (last !== undefined && text === last.text && contract?.abi === last.abi && argCount === last.argCount) return last.fn;
  const fn = resolveUncached(text, contract, argCount);
  lastResolved = { text, abi: contract?.abi, argCount, fn };
  return fn;
}
let lastResolved: { text: string; abi: KnownContract['abi'] | undefined; argCount: number | undefined; fn: AbiFunction } | undefined;

function resolveUncached(text: string, contract: KnownContract | undefined, argCount?: number): AbiFunction {
  const t = text.trim();
  const abi = contract?.abi ?? [];
  const functions = () => abi.filter((x): x is AbiFunction => x.type === 'function');
  if (/^0x[0-9a-fA-F]{8}$/.test(t)) {
    const fns = functions();
    const f = fns.find((x) => selectorOf(x) === t.toLowerCase());
    if (!f) refuse(l10n.both('No function of the known ABI has selector {0}.', t));
    return f;
  }
  if (/^[A-Za-z_$][\w$]*$/.test(t)) {
    const named = functions().filter((x) => x.name === t);
    const fit = argCount === undefined ? named : named.filter((x) => x.inputs.length === argCount);
    if (named.length === 0)
      refuse(
        contract
          ? l10n.both('{0} has no function named {1}.', contract.name, clean(t, 120))
          : l10n.both('No ABI is known for this address: give the signature, e.g. {0}(address).', clean(t, 120)),
      );
    if (fit.length === 1) return fit[0];
    if (named.length === 1) return named[0];
    refuse(l10n.both('{0} is overloaded: give the signature ({1}).', clean(t, 120), clean(named.map(signatureOf).join(', '), 600)));
  }
  const fn = parseSignature(t);
  // The known ABI's function of the same signature has names and outputs.
  const sig = signatureOf(fn);
  for (const x of abi) if (x.type === 'function' && x.outputs.length > 0 && signatureOf(x) === sig) return x;
  return fn;
}

/** Everything checked before anything is sent: the function, the calldata, the block, the call object. */
export async function prepareCall(
  spec: CallSpec,
  registry: ContractRegistry,
  ctx: ResolveContext,
): Promise<{ fn: AbiFunction; contract?: KnownContract; data: Hex; block: string; tx: Record<string, string> }> {
  if (typeof spec.address !== 'string' || !isAddress(spec.address, { strict: false })) refuse(l10n.both('address: 0x and 40 hex digits.'));
  if (typeof spec.function !== 'string' || spec.function.trim() === '')
    refuse(l10n.both('function: a signature such as balanceOf(address), or a name when the ABI is known.'));
  const block = blockParam(spec.block);
  const contract = await registry.contractAt(spec.address, atBlock(ctx, block));
  const args = splitArgs(spec.args);
  const fn = resolveFunction(spec.function, contract, args.length);
  const data = encodeCall(fn, args);
  const tx: Record<string, string> = { to: getAddress(spec.address), data };
  if (spec.from) {
    if (!isAddress(spec.from, { strict: false })) refuse(l10n.both('from: 0x and 40 hex digits.'));
    tx.from = getAddress(spec.from);
  }
  const value = quantity(spec.value, 'value');
  if (value) tx.value = value;
  if (spec.overrides !== undefined && (spec.overrides === null || typeof spec.overrides !== 'object' || Array.isArray(spec.overrides)))
    refuse(l10n.both('overrides: an object by address, e.g. {"0x…": {"balance": "0x1"}}.'));
  return { fn, contract, data, block, tx };
}

/** eth_call (and eth_estimateGas beside it): never throws for a chain's answer, only for bad input or cancellation. */
export async function callContract(
  evm: (method: string, params: readonly unknown[]) => Promise<unknown>,
  spec: CallSpec,
  registry: ContractRegistry,
  ctx: ResolveContext,
  /** What the provider's eth_call takes (its capabilities): overrides it refuses are refused here, before sending. */
  check?: { provider: string; support?: EngineSupport; alternatives?: readonly Alternative[] },
): Promise<CallOutcome> {
  const { fn, contract, data, block, tx } = await prepareCall(spec, registry, ctx);
  if (check && spec.overrides && Object.keys(spec.overrides).length > 0) checkCallOverrides(check.provider, check.support, check.alternatives);
  const base = { function: signatureOf(fn), contract: contract?.name, source: contract?.source.label, block, data };
  const params: unknown[] = [tx, block];
  if (spec.overrides) params.push(spec.overrides);
  let outcome: CallOutcome;
  try {
    const raw = (await evm('eth_call', params)) as unknown;
    const hex = hexText(raw);
    if (hex === undefined) outcome = { ...base, error: 'the node answered something other than hex data' };
    else {
      try {
        const outputs = decodeOutputs(fn, hex);
        outcome = { ...base, raw: hex, outputs, result: fn.outputs.length > 0 ? resultOf(outputs) : undefined };
      } catch (err) {
        outcome = {
          ...base,
          raw: hex,
          error: `the answer does not decode as ${fn.outputs.map(canonicalType).join(',') || 'nothing'}: ${errorMessage(err).split('\n')[0]}`,
        };
      }
    }
  } catch (err) {
    if (isEndpointError(err) && err.kind === 'cancelled') throw err;
    const revertData = revertDataOf(err);
    if (isRevert(err)) {
      const decoded: Decoded =
        revertData && revertData !== '0x'
          ? await registry.decodeRevert(revertData, spec.address, ctx)
          : { kind: 'unknown', note: "the node gave no revert data (evmd never returns it from eth_call; a mined transaction's trace has it)" };
      outcome = { ...base, revert: { ...decoded, data: revertData }, error: errorMessage(err) };
    } else outcome = { ...base, error: errorMessage(err) };
  }
  try {
    const gas = (await evm('eth_estimateGas', spec.overrides ? [tx, block, spec.overrides] : [tx, block])) as unknown;
    if (typeof gas === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(gas)) return { ...outcome, gasEstimate: BigInt(gas).toString() };
    return { ...outcome, gasError: 'the node answered something other than a quantity' };
  } catch (err) {
    if (isEndpointError(err) && err.kind === 'cancelled') throw err;
    return { ...outcome, gasError: errorMessage(err) };
  }
}
