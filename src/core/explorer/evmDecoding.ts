// An EVM transaction explained with the ABIs known (src/core/contracts): the call decoded against the
// contract called (matched by its code, attached in settings, a precompile…), each log's event,
// and, when the provider serves `debug`, the call tree (debug_traceTransaction, callTracer) whose top
// frame gives the return value, or for a failed transaction the revert data evmd's eth_call never
// returns. Each address's code is read at most once per lookup, and at most MAX_CODE_READS of them.

import { errorMessage } from '../base/errors';
import { ContractRegistry, type ResolveContext } from '../contracts/registry';
import { decodeOutputs } from '../contracts/decode';
import { decodeTrace, fetchCallTrace, topRevertData } from '../contracts/trace';
import { type ExplorerSource, rethrowCancel } from './source';
import type { EvmDecoding, EvmView } from './views';

const MAX_CODE_READS = 24;
const MAX_LOGS_DECODED = 1000;

let builtinOnly: ContractRegistry | undefined;

/** The registry a source carries, or one with the built-in ABIs only. */
export function registryOf(src: ExplorerSource): ContractRegistry {
  return src.contracts?.registry ?? (builtinOnly ??= new ContractRegistry());
}

/** What decoding needs from the provider: eth_getCode (bounded, once per address and block). */
export function resolveContext(src: ExplorerSource, notes: string[], block?: string): ResolveContext {
  const seen = new Map<string, Promise<string | undefined>>();
  return {
    network: src.contracts?.network ?? src.chainId ?? src.provider,
    block,
    notes,
    getCode: src.has.evm
      ? (address, at) => {
          const key = `${address.toLowerCase()}@${at}`;
          let p = seen.get(key);
          if (!p) {
            if (seen.size >= MAX_CODE_READS) return Promise.resolve(undefined);
            p = (async () => {
              try {
                const code = await src.evm('eth_getCode', [address, at]);
                return typeof code === 'string' ? code : undefined;
              } catch (err) {
                rethrowCancel(err);
                notes.push(`eth_getCode ${address}: ${errorMessage(err)}`);
                return undefined;
              }
            })();
            seen.set(key, p);
          }
          return p;
        }
      : undefined,
  };
}

function isMethodMissing(err: unknown): boolean {
  const e = err as { detail?: { code?: unknown } };
  return e?.detail?.code === -32601 || /method .*(not found|does not exist|not available)|not supported/i.test(errorMessage(err));
}

/** The EVM view with its call, logs, return value, revert and trace decoded. */
export async function withDecoding(src: ExplorerSource, view: EvmView, notes: string[]): Promise<EvmView> {
  const registry = registryOf(src);
  const block = view.blockNumber ? `0x${BigInt(view.blockNumber).toString(16)}` : 'latest';
  const ctx = resolveContext(src, notes, block);
  // The contract called, or the one a creation made (named by its runtime code like any other).
  const target = view.to ?? view.contractAddress;
  const contract = target ? await registry.contractAt(target, ctx) : undefined;
  const decoding: { -readonly [K in keyof EvmDecoding]: EvmDecoding[K] } = {};
  if (contract) decoding.contract = { name: contract.name, source: contract.source.label };
  if (view.to && view.input && view.input !== '0x') decoding.call = await registry.decodeCall(view.input, view.to, ctx);
  const logs = view.logs
    ? await Promise.all(view.logs.map(async (l, i) => (i < MAX_LOGS_DECODED ? { ...l, decoded: await registry.decodeLog(l, ctx) } : l)))
    : undefined;
  // The trace: when the provider serves debug (or is not known not to).
  const c = src.contracts;
  if (src.has.evm && view.source === 'evmRpc' && c?.debug !== false) {
    try {
      const { root, configAs } = await fetchCallTrace((m, p) => src.evm(m, p), view.hash);
      if (root && typeof root === 'object') {
        decoding.trace = await decodeTrace(root as Record<string, unknown>, configAs, registry, ctx, c?.tracePage ?? 1);
        const top = root as { output?: unknown; error?: unknown };
        const revertData = topRevertData(root as Record<string, unknown>);
        if (revertData && revertData !== '0x') decoding.revert = { ...(await registry.decodeRevert(revertData, view.to, ctx)), data: revertData };
        else if (typeof top.error === 'string') decoding.revert = { kind: 'unknown', note: `${top.error} (no revert data)` };
        else if (typeof top.output === 'string' && view.to) {
          const found = await registry.functionFor(view.input, view.to, ctx);
          if (found && found.fn.outputs.length > 0) {
            try {
              decoding.returns = decodeOutputs(found.fn, top.output);
            } catch {
              // the output does not fit the ABI's outputs: left undecoded
            }
          }
        }
      }
    } catch (err) {
      rethrowCancel(err);
      decoding.traceNote = isMethodMissing(err) ? noDebug(src) : `debug_traceTransaction: ${errorMessage(err)}`;
    }
  } else if (src.has.evm && view.source === 'evmRpc') decoding.traceNote = noDebug(src);
  return { ...view, logs, decoded: decoding };
}

function noDebug(src: ExplorerSource): string {
  const other = src.contracts?.debugElsewhere;
  return `${src.provider} does not serve debug_traceTransaction (no debug namespace): no call trace or revert data${other ? `; ${other} on the same network does` : ''}.`;
}
