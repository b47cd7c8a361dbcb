// Simulate (what if)…: `{ provider, network, address, function, args, data, from, value, gas, block,
// overrides, blockOverrides, steps }` simulated on the best engine the provider serves
// (core/contracts/simulate.ts), the receipt shown as a read-only document. Without a spec the command
// opens a query-file block (`evm.simulate`) to edit, save in the repository and re-run with its
// CodeLens. The API's simulate() and Call Contract's overrides check read the same capabilities.
// Replay: a mined EVM transaction re-run at its parent block, changed, beside the original.

import { createHash } from 'node:crypto';
import vscode = require('vscode');
import { LocalizedError } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import { findOperation } from '../../core/chain/operations';
import { groupPickItems, sameNetwork } from '../../core/config/networks';
import type { Provider } from '../../core/config/providers';
import { type Alternative, type EngineSupport, engineSupportOf, withoutEngine } from '../../core/contracts/engines';
import type { ResolveContext } from '../../core/contracts/registry';
import { type ReplayOriginal, type SimulationResult, type SimulationSpec, codeReader, evmCaller, replaySpec, simulate } from '../../core/contracts/simulate';
import { simulationBlockText } from '../../core/queries/simulateBlock';
import { renderSimulation } from '../../core/explorer/renderSimulation';
import type { Route } from '../../core/health/route';
import { routeCommand } from '../../core/health/routeCommand';
import { masker } from '../../core/secrets/mask';
import { redactUrl } from '../../core/secrets/redact';
import type { CommandDeps } from '../base/deps';
import { currentNetworks } from '../providers/networkDirectory';
import { windowPrompts } from '../base/prompts';
import { RESULT_SCHEME } from '../base/resultDocuments';
import { readSettings } from '../base/settings';
import { documentName } from '../../core/documents/resultName';
import { type RunHost, apiHost, logOutcome, runOnProvider } from '../requests/run';
import { editorHost, hostBase } from '../requests/host';
import { routeInput } from '../health/capabilityCheck';
import { contractRegistry, networkOf } from './contracts';
import { providerPrompts } from '../providers/providerPicks';

export interface SimulateArgument extends SimulationSpec {
  /** A provider's name, or "best" (of `network`). */
  readonly provider?: string;
  readonly network?: string;
}

const SPEC_KEYS = ['address', 'to', 'function', 'data', 'steps'] as const;

function routeSimulation(deps: CommandDeps, provider: unknown, network: unknown): Exclude<Route, { kind: 'refuse' }> {
  const providers = readSettings().providers.providers;
  const route = routeCommand(findOperation('evm.simulate')!, { provider, network }, currentNetworks(providers), routeInput(deps.health, providers));
  if (route.kind === 'refuse') throw new LocalizedError(route.message);
  return route.kind === 'ask' && route.candidates.length === 1 ? { kind: 'run', provider: route.candidates[0] } : route;
}

/** What `name` serves of the engines, probing it first when unknown (as chainEndpoints.capabilities.probe allows). */
async function supportOf(deps: CommandDeps, name: string): Promise<EngineSupport> {
  const known = () => engineSupportOf(deps.health?.capabilities(name));
  const s = known();
  if (s.simulateV1 === undefined || s.traceCall === undefined || s.callOverrides === undefined) {
    await deps.health?.needCapabilities?.(name).catch(() => undefined);
    return known();
  }
  return s;
}

/** Providers of the same network with an EVM RPC address, and what each serves (as known). */
function alternativesOf(deps: CommandDeps, provider: Provider): Alternative[] {
  const providers = readSettings().providers.providers;
  return sameNetwork(providers, currentNetworks(providers), provider.name)
    .filter((p) => p.name !== provider.name && p.endpoints.evmRpc)
    .map((p) => ({ name: p.name, support: engineSupportOf(deps.health?.capabilities(p.name)) }));
}

/** Call Contract's overrides check: what the provider's eth_call takes, and who else on its network can (callContract.ts passes it on). */
export function callOverridesCheck(deps: CommandDeps, provider: Provider): { provider: string; support?: EngineSupport; alternatives: Alternative[] } {
  const caps = deps.health?.capabilities(provider.name);
  return { provider: provider.name, support: caps ? engineSupportOf(caps) : undefined, alternatives: alternativesOf(deps, provider) };
}

/** The same, the provider's engines probed first when overrides are asked and its eth_call is not known yet (as chainEndpoints.capabilities.probe allows). */
export async function callOverridesChecked(
  deps: CommandDeps,
  provider: Provider,
  overrides: unknown,
): Promise<{ provider: string; support?: EngineSupport; alternatives: Alternative[] }> {
  const asked = overrides !== null && typeof overrides === 'object' && Object.keys(overrides).length > 0;
  if (asked && deps.health?.capabilities(provider.name)?.evm?.engines?.callOverrides === undefined) await supportOf(deps, provider.name);
  return callOverridesCheck(deps, provider);
}

/** Runs one simulation on `provider` through the runner (never a transaction). Rejects with the refusal's sentence, bad input, or a node failure. */
export function runSimulation(deps: CommandDeps, host: RunHost, provider: Provider, spec: SimulationSpec, title: string): Promise<SimulationResult> {
  return runOnProvider(host, { provider, title, preset: 'silent', tag: 'simulate' }, async (run) => {
    const evm = evmCaller(run.wire, run.options, (_m, _ms, o) => logOutcome(host, 'simulate', o));
    const registry = contractRegistry(deps);
    const ctx: ResolveContext = { network: networkOf(provider), getCode: codeReader(evm) };
    const support = await supportOf(deps, provider.name);
    return simulate(evm, spec, registry, ctx, {
      provider: provider.name,
      support,
      alternatives: alternativesOf(deps, provider),
      onRefused: (engine) => deps.health?.noteEngines?.(provider.name, withoutEngine({}, engine)),
    });
  });
}

function simulationUri(provider: string, spec: unknown, title: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: RESULT_SCHEME,
    path: documentName(provider, title, 'md'),
    query: `simulate&${createHash('sha1').update(JSON.stringify(spec)).digest('hex').slice(0, 10)}&${Date.now()}`,
  });
}

async function pickProvider(deps: CommandDeps, route: Exclude<Route, { kind: 'refuse' }>): Promise<Provider | undefined> {
  if (route.kind === 'run') return route.provider;
  const items = groupPickItems<Provider>(route.groups ?? [{ providers: [...route.candidates] }], (p) => redactUrl(p.endpoints.evmRpc!));
  const picked = await providerPrompts(windowPrompts, () => deps.health?.rows() ?? [], 'evmRpc').pick(items, {
    title: l10n.t('Simulate'),
    placeHolder: l10n.t('Provider to simulate on'),
  });
  return picked?.provider;
}

/** A query-file block for `spec` on `provider`: what the developer edits, saves and re-runs (CodeLens Run). */
export function simulationBlock(provider: string, spec: SimulationSpec, name = 'whatIf'): string {
  return simulationBlockText(provider, spec, name);
}

export async function simulateCommand(deps: CommandDeps, arg?: unknown): Promise<vscode.Uri | undefined> {
  const a = (arg && typeof arg === 'object' ? arg : {}) as SimulateArgument;
  const provider = await pickProvider(deps, routeSimulation(deps, a.provider, a.network));
  if (!provider) return undefined;
  const { provider: _p, network: _n, ...spec } = a;
  if (!SPEC_KEYS.some((k) => spec[k] !== undefined)) {
    // No spec: a query-file block to edit and keep (the query files' CodeLens runs it).
    const doc = await vscode.workspace.openTextDocument({ language: 'chainq', content: simulationBlock(provider.name, spec) });
    await vscode.window.showTextDocument(doc);
    return doc.uri;
  }
  return showSimulation(deps, provider, spec);
}

async function showSimulation(deps: CommandDeps, provider: Provider, spec: SimulationSpec, original?: ReplayOriginal): Promise<vscode.Uri> {
  const result = await runSimulation(deps, editorHost(deps), provider, spec, l10n.t('Simulating on {0}', provider.name));
  const text = masker.mask(renderSimulation(result, original));
  const title = original
    ? `Replay ${original.hash.slice(0, 10)}`
    : `Simulate ${functionNameOf(result.steps[0].function ?? 'call')} ${result.steps[0].to.slice(0, 8)}`;
  return deps.documents.showData(simulationUri(provider.name, spec, title), Buffer.from(text, 'utf8'), { language: 'markdown' });
}

/** The API's simulate(): the result (rejects with the refusal's sentence, bad input or a node failure). */
export async function simulateForApi(deps: CommandDeps, spec: SimulateArgument & { token?: vscode.CancellationToken }): Promise<SimulationResult> {
  const route = routeSimulation(deps, spec.provider, spec.network);
  if (route.kind === 'ask')
    throw new LocalizedError(
      l10n.both(
        'simulate needs { provider } when several EVM providers are configured: a provider\'s name, or "best" (with "network" when several networks are configured).',
      ),
    );
  const { token, provider: _p, network: _n, ...rest } = spec;
  return runSimulation(deps, apiHost(hostBase(deps), token), route.provider, rest, l10n.t('Simulate'));
}

/**
 * Look Up's "Simulate with changes…": the transaction at its parent block, the developer changing
 * the input (an argument), the value, the sender or an override, then the result beside the original.
 */
export async function replayCommand(deps: CommandDeps, arg?: unknown): Promise<vscode.Uri | undefined> {
  const a = (arg && typeof arg === 'object' ? arg : {}) as { provider?: string; network?: string; hash?: string };
  const provider = await pickProvider(deps, routeSimulation(deps, a.provider, a.network));
  if (!provider) return undefined;
  const hash =
    a.hash ??
    (
      await windowPrompts.input({
        title: l10n.t('Simulate with changes · {0}', provider.name),
        prompt: l10n.t('The hash of a mined EVM transaction (0x…)'),
        validate: (t) => (/^0x[0-9a-fA-F]{64}$/.test(t.trim()) ? undefined : l10n.t('0x and 64 hex digits.')),
      })
    )?.trim();
  if (!hash) return undefined;
  const { spec } = await runOnProvider(
    editorHost(deps),
    { provider, title: l10n.t('Reading {0} · {1}', hash.slice(0, 10), provider.name), preset: 'silent', tag: 'simulate' },
    (run) => {
      const evm = evmCaller(run.wire, run.options, (_m, _ms, o) => logOutcome(editorHost(deps), 'simulate', o));
      return replaySpec(evm, hash, contractRegistry(deps), { network: networkOf(provider), getCode: codeReader(evm) });
    },
  );
  // The replay as a query-file block (function and arguments decoded when the ABI is known): edit an
  // argument, the value, the sender or add overrides, then Run (CodeLens); the result says what changed.
  const doc = await vscode.workspace.openTextDocument({ language: 'chainq', content: simulationBlockText(provider.name, spec, 'replay') });
  await vscode.window.showTextDocument(doc);
  return doc.uri;
}

/** A function's name before its parameters, for a document's title (a slice: /\(.*$/ retried from every "(" of a hostile ABI's name). */
export function functionNameOf(signature: string): string {
  const paren = signature.indexOf('(');
  return paren < 0 ? signature : signature.slice(0, paren);
}
