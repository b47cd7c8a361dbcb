// The query files' `evm.simulate`: the request's keys read into a simulation spec
// (core/contracts/simulate.ts), the engine chosen from what the provider serves (the editor's
// capabilities, or, in the CLI, the three engine probes sent once per provider and run), a refusal
// failing the request with its sentence and nothing sent, and the result laid out so that
// assertions reach `engine`, `result`, `revert`, `logs` and `steps[i].…`.

import { EndpointError, LocalizedError } from '../base/errors';
import * as l10n from '../base/l10n';
import type { ExecuteOptions, Outcome } from '../chain/execute';
import type { Args, Operation } from '../chain/operation';
import { recordedRun } from '../chain/outcome';
import { groupNetworks, sameNetwork } from '../config/networks';
import type { Provider } from '../config/providers';
import { ContractRegistry } from '../contracts/registry';
import {
  type Alternative,
  type ReplayChange,
  type ReplayOriginal,
  type SimulationResult,
  type SimulationSpec,
  chooseEngine,
  codeReader,
  compareReplay,
  evmCaller,
  needsOf,
  readOriginal,
  simulate,
  withoutEngine,
} from '../contracts/simulate';
import { type EngineSupport, probeEngineSupport } from '../health/capabilities';

export const SIMULATE_OPERATION = 'evm.simulate';

/** What the run reads for `evm.simulate` (the editor passes its registry and capabilities; the CLI neither). */
export interface SimulationContext {
  /** The ABIs known (the workspace's artifacts and settings); the built-in ones when absent. */
  readonly contracts?: ContractRegistry;
  /** What a provider serves of the engines (the capability book, probing as chainEndpoints.capabilities.probe allows); absent: probed here. */
  engineSupport?(provider: Provider): Promise<EngineSupport | undefined>;
  readonly providers: readonly Provider[];
  resolveProvider(p: Provider): Provider;
}

let builtin: ContractRegistry | undefined;
const probed = new WeakMap<Provider, Promise<EngineSupport>>();

function json(args: Args, key: string): unknown {
  const text = args[key]?.trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new LocalizedError(l10n.both('{0}: not valid JSON.', key));
  }
}

/** The request's keys as a simulation spec (`args`, `overrides`, `blockOverrides`, `steps` as JSON). */
export function specFromArgs(args: Args): SimulationSpec {
  const text = (k: string) => (args[k]?.trim() ? args[k].trim() : undefined);
  const steps = json(args, 'steps');
  if (steps !== undefined && !Array.isArray(steps)) throw new LocalizedError(l10n.both('steps: a JSON list of calls.'));
  return {
    address: text('address'),
    function: text('function'),
    args: text('args'),
    data: text('data'),
    block: text('block'),
    from: text('from'),
    value: text('value'),
    gas: text('gas'),
    nonce: text('nonce'),
    replayOf: text('replayOf'),
    overrides: json(args, 'overrides') as SimulationSpec['overrides'],
    blockOverrides: json(args, 'blockOverrides') as SimulationSpec['blockOverrides'],
    steps: steps as SimulationSpec['steps'],
  };
}

async function supportOf(p: Provider, ctx: SimulationContext, options: ExecuteOptions): Promise<EngineSupport> {
  if (ctx.engineSupport) return (await ctx.engineSupport(p)) ?? {};
  let known = probed.get(p);
  if (!known) probed.set(p, (known = probeEngineSupport(ctx.resolveProvider(p), options, true).catch(() => ({}))));
  return known;
}

/** A replay's comparison with the mined transaction: the original, each line, and the names of what changed. */
export interface ReplayComparison {
  readonly original: ReplayOriginal;
  readonly changes: readonly ReplayChange[];
}

/**
 * What assertions read: the result's fields at the top of the record (the call tree left out); for a
 * replay also `original` and `changed` (the names of what changed: status, return, revert, logs, gas used).
 */
export function recordFields(r: SimulationResult, replay?: ReplayComparison): Record<string, unknown> {
  return {
    engine: r.engine,
    result: r.result,
    revert: r.revert,
    logs: r.logs,
    ok: r.ok,
    balanceChanges: r.balanceChanges,
    gasUsed: r.steps[r.steps.length - 1]?.gasUsed,
    steps: r.steps.map(({ trace: _t, ...s }) => s),
    ...(replay ? { original: replay.original, changed: replay.changes.filter((c) => c.changed).map((c) => c.what) } : {}),
  };
}

/** The result document of a query-file run: the receipt's fields, each step's call tree as lines, and a replay beside its original. */
export function documentOf(r: SimulationResult, replay?: ReplayComparison): Record<string, unknown> {
  return {
    engine: r.engine,
    provider: r.provider,
    block: r.block,
    ok: r.ok,
    ...(replay ? { besideTheOriginal: replay.changes, original: replay.original } : {}),
    result: r.result,
    revert: r.revert,
    notes: r.notes,
    overrides: r.overrides,
    blockOverrides: r.blockOverrides,
    balanceChanges: r.balanceChanges,
    steps: r.steps.map(({ trace, ...s }) => ({
      ...s,
      ...(trace
        ? {
            callTree: trace.frames.map(
              (f) =>
                `${'  '.repeat(Math.min(f.depth, 64))}${f.type} ${f.toName ?? f.to ?? ''}${f.call?.name ? `.${f.call.name}` : ''}${f.error ? ` ✗ ${f.revert?.name ?? f.error}` : ''}`,
            ),
          }
        : {}),
    })),
  };
}

/** Runs `evm.simulate` on `provider` (`wire`: its secrets substituted). Never throws: a failure is the outcome's error. */
export async function runSimulationRequest(
  op: Operation,
  provider: Provider,
  wire: Provider,
  args: Args,
  options: ExecuteOptions,
  ctx: SimulationContext,
): Promise<{ outcome: Outcome; fields?: Record<string, unknown> }> {
  const request = { method: 'POST' as const, url: wire.endpoints.evmRpc ?? '', body: JSON.stringify({ simulate: args }) };
  return recordedRun(op, provider.name, args, request, async (outcome) => {
    if (!wire.endpoints.evmRpc) throw new EndpointError('input', l10n.both('Provider "{0}" has no EVM RPC address.', provider.name));
    const spec = specFromArgs(args);
    const registry = ctx.contracts ?? (builtin ??= new ContractRegistry());
    const evm = evmCaller(wire, options);
    const network = provider.network ?? provider.chainId;
    const support = await supportOf(provider, ctx, options);
    const needs = needsOf(spec);
    try {
      chooseEngine(provider.name, needs, support);
    } catch {
      // Refused: which provider of the same network could (its engines, as known or probed), for the sentence.
      const others = sameNetwork(ctx.providers, groupNetworks(ctx.providers), provider.name).filter((p) => p.name !== provider.name && p.endpoints.evmRpc);
      const alternatives: Alternative[] = [];
      for (const p of others.slice(0, 8)) alternatives.push({ name: p.name, support: await supportOf(p, ctx, options) });
      chooseEngine(provider.name, needs, support, alternatives); // throws the sentence
    }
    const rctx = { network, getCode: codeReader(evm) };
    // A replay: the mined transaction read first (its receipt: status, gas, logs), then compared.
    const original = spec.replayOf ? (await readOriginal(evm, spec.replayOf, registry, rctx)).original : undefined;
    // An engine refused though probed as served: this run's cache says so (not when the caller keeps the capabilities).
    const onRefused = ctx.engineSupport
      ? undefined
      : (engine: 'eth_simulateV1' | 'debug_traceCall') => {
          const was = probed.get(provider);
          if (was)
            probed.set(
              provider,
              was.then((s) => withoutEngine(s, engine)),
            );
        };
    const result = await simulate(evm, spec, registry, rctx, { provider: provider.name, support, onRefused });
    const replay = original ? { original, changes: compareReplay(original, result) } : undefined;
    outcome.result = result;
    outcome.status = 200;
    outcome.body = Buffer.from(JSON.stringify(documentOf(result, replay)), 'utf8');
    const changed = replay?.changes.filter((c) => c.changed).map((c) => c.what);
    outcome.summary =
      (result.ok ? l10n.t('{0}: succeeded', result.engine) : l10n.t('{0}: reverted{1}', result.engine, result.revert?.name ? ` (${result.revert.name})` : '')) +
      (changed ? ` · ${changed.length > 0 ? l10n.t('changed from the original: {0}', changed.join(', ')) : l10n.t('as the original')}` : '');
    return recordFields(result, replay);
  });
}
