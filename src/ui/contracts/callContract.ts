// Call Contract…: `{ provider, address, function, args?, block?, from?, value?, overrides? }`, asking
// for what is missing (the provider; the address; the function from the known ABI's list, or a
// signature; each argument checked against its ABI type as typed), then eth_call and
// eth_estimateGas under a cancellable progress, and a read-only document with the decoded outputs or
// revert. Returns the document's Uri. The API's callContract() and decode() share the registry.

import { createHash } from 'node:crypto';
import vscode = require('vscode');
import type { AbiFunction } from 'viem';
import { LocalizedError, errorMessage, shownMessage } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import { findOperation } from '../../core/chain/operations';
import { groupPickItems } from '../../core/config/networks';
import type { Provider } from '../../core/config/providers';
import type { Route } from '../../core/health/route';
import { routeCommand } from '../../core/health/routeCommand';
import { redactUrl } from '../../core/secrets/redact';
import { type CallOutcome, type CallSpec, callContract, coerceArg } from '../../core/contracts/call';
import type { ContractRegistry, ResolveContext } from '../../core/contracts/registry';
import type { Decoded } from '../../core/contracts/types';
import { signatureOf } from '../../core/contracts/values';
import { renderCall } from '../../core/explorer/renderCall';
import { masker } from '../../core/secrets/mask';
import type { CommandDeps } from '../base/deps';
import { type Prompts, windowPrompts } from '../base/prompts';
import { RESULT_SCHEME } from '../base/resultDocuments';
import { currentNetworks } from '../providers/networkDirectory';
import { readSettings } from '../base/settings';
import { routeInput } from '../health/capabilityCheck';
import { contractRegistry, networkOf } from './contracts';
import { providerPrompts } from '../providers/providerPicks';
import { documentName } from '../../core/documents/resultName';
import { type ProviderRun, type RunHost, apiHost, runOnProvider } from '../requests/run';
import { editorHost, hostBase } from '../requests/host';
import { callOverridesChecked, functionNameOf } from './simulate';
import { isEvmAddress } from '../../core/base/text';

export interface CallContractArgument extends Partial<CallSpec> {
  /** A provider's name, or "best" (of `network`). */
  readonly provider?: string;
  readonly network?: string;
}

/**
 * Where a call goes, decided by the provider router as every operation's provider is
 * (core/health/routeCommand.ts, with evm.callContract's interface): a name (any case), "best" (of
 * `network`), or nothing (ask; the only EVM provider when there is one). Refusals are the router's
 * sentences: an unknown name lists the providers, a provider without an EVM RPC address says so.
 */
function routeCall(deps: CommandDeps, provider: unknown, network: unknown): Exclude<Route, { kind: 'refuse' }> {
  const op = findOperation('evm.callContract')!;
  const providers = readSettings().providers.providers;
  const route = routeCommand(op, { provider, network }, currentNetworks(providers), routeInput(deps.health, providers));
  if (route.kind === 'refuse') throw new LocalizedError(route.message);
  return route.kind === 'ask' && route.candidates.length === 1 ? { kind: 'run', provider: route.candidates[0] } : route;
}

/** What a call reads through: the runner's source (its options, one log line per request), the ABIs known, the chain's code. */
function session(deps: CommandDeps, run: ProviderRun) {
  const src = run.source();
  const registry = contractRegistry(deps);
  const notes: string[] = [];
  const ctx: ResolveContext = {
    network: networkOf(run.provider),
    notes,
    getCode: async (a, b) => {
      try {
        const c = await src.evm('eth_getCode', [a, b]);
        return typeof c === 'string' ? c : undefined;
      } catch {
        return undefined;
      }
    },
  };
  return { evm: (m: string, p: readonly unknown[]) => src.evm(m, p), registry, ctx, notes };
}

/** A call's requests on `provider` through the runner (`host`: the editor's progress or the API's token). */
function onProvider<T>(host: RunHost, provider: Provider, title: string, work: (s: ReturnType<typeof session>) => Promise<T>, deps: CommandDeps): Promise<T> {
  return runOnProvider(host, { provider, title, preset: 'silent', tag: 'callContract' }, (run) => work(session(deps, run)));
}

/** What the command asks for, each answer checked as typed. */
export async function readCallArgument(arg: unknown, deps: CommandDeps, prompts: Prompts): Promise<{ provider: Provider; spec: CallSpec } | undefined> {
  const a = (arg && typeof arg === 'object' ? arg : {}) as CallContractArgument;
  const route = routeCall(deps, a.provider, a.network);
  let provider: Provider;
  if (route.kind === 'run') provider = route.provider;
  else {
    // The shared provider pick: grouped by network, each with its state and height, the last used first.
    const items = groupPickItems<Provider>(route.groups ?? [{ providers: [...route.candidates] }], (p) => redactUrl(p.endpoints.evmRpc!));
    const picked = await providerPrompts(prompts, () => deps.health?.rows() ?? [], 'evmRpc').pick(items, {
      title: l10n.t('Call Contract'),
      placeHolder: l10n.t('Provider to call on'),
    });
    if (!picked) return undefined;
    provider = picked.provider;
  }
  const address =
    a.address ??
    (
      await prompts.input({
        title: l10n.t('Call Contract · {0}', provider.name),
        prompt: l10n.t('The contract address (0x…)'),
        validate: (t) => (isEvmAddress(t.trim()) ? undefined : l10n.t('0x and 40 hex digits.')),
      })
    )?.trim();
  if (!address) return undefined;
  let fnText = a.function;
  let fn: AbiFunction | undefined;
  if (fnText === undefined) {
    const known = await onProvider(apiHost(hostBase(deps), undefined), provider, l10n.t('Call Contract'), (s) => s.registry.contractAt(address, s.ctx), deps);
    const fns = (known?.abi ?? []).filter((x): x is AbiFunction => x.type === 'function');
    if (fns.length > 0) {
      const picked = await prompts.pick(
        fns.map((f) => ({
          label: signatureOf(f),
          description: `${f.stateMutability}${f.outputs.length ? ` → ${f.outputs.map((o) => o.type).join(', ')}` : ''}`,
          fn: f,
        })),
        { title: l10n.t('Call Contract · {0} ({1})', known!.name, known!.source.label), placeHolder: l10n.t('Function to call') },
      );
      if (!picked) return undefined;
      fn = picked.fn;
      fnText = signatureOf(fn);
    } else {
      fnText = await prompts.input({
        title: l10n.t('Call Contract · {0}', address),
        prompt: l10n.t('No ABI is known for this address: the function signature, e.g. balanceOf(address)(uint256)'),
        validate: (t) => (/^\s*[A-Za-z_$][\w$]*\s*\(/.test(t) ? undefined : l10n.t('A signature such as balanceOf(address).')),
      });
      if (!fnText) return undefined;
    }
  }
  let args = a.args;
  if (args === undefined && fn && fn.inputs.length > 0) {
    const values: string[] = [];
    for (const p of fn.inputs) {
      const v = await prompts.input({
        title: l10n.t('Call Contract · {0}', signatureOf(fn)),
        prompt: `${p.name || `argument ${values.length}`} (${p.type})`,
        validate: (t) => {
          try {
            coerceArg(p, t);
            return undefined;
          } catch (err) {
            return shownMessage(err);
          }
        },
      });
      if (v === undefined) return undefined;
      values.push(v);
    }
    args = values;
  }
  return { provider, spec: { address, function: fnText, args, block: a.block, from: a.from, value: a.value, overrides: a.overrides } };
}

export function callUri(provider: string, spec: CallSpec): vscode.Uri {
  const name = functionNameOf(spec.function);
  return vscode.Uri.from({
    scheme: RESULT_SCHEME,
    path: documentName(provider, `Call ${name} ${spec.address.slice(0, 8)}`, 'md'),
    query: `call&${createHash('sha1').update(JSON.stringify(spec)).digest('hex').slice(0, 10)}&${Date.now()}`,
  });
}

export async function callContractCommand(deps: CommandDeps, arg?: unknown): Promise<vscode.Uri | undefined> {
  const read = await readCallArgument(arg, deps, windowPrompts);
  if (!read) return undefined;
  const { provider, spec } = read;
  const outcome = await onProvider(
    editorHost(deps),
    provider,
    l10n.t('Calling {0} · {1}', spec.function, provider.name),
    async (s) => callContract(s.evm, spec, s.registry, s.ctx, await callOverridesChecked(deps, provider, spec.overrides)),
    deps,
  );
  const text = masker.mask(renderCall(provider.name, spec, outcome));
  return deps.documents.showData(callUri(provider.name, spec), Buffer.from(text, 'utf8'), { language: 'markdown' });
}

/** The API's callContract(): never rejects for a chain's answer (see `error`); rejects for an unknown provider. */
export async function callContractForApi(
  deps: CommandDeps,
  spec: CallSpec & { provider?: string; network?: string; token?: vscode.CancellationToken },
): Promise<Pick<CallOutcome, 'result' | 'raw' | 'revert' | 'error' | 'outputs' | 'gasEstimate' | 'function' | 'contract' | 'source'>> {
  const route = routeCall(deps, spec.provider, spec.network);
  if (route.kind === 'ask')
    throw new LocalizedError(
      l10n.both(
        'callContract needs { provider } when several EVM providers are configured: a provider\'s name, or "best" (with "network" when several networks are configured).',
      ),
    );
  const provider = route.provider;
  const { token, provider: _p, network: _n, ...call } = spec;
  try {
    return await onProvider(
      apiHost(hostBase(deps), token),
      provider,
      l10n.t('Call Contract'),
      async (s) => callContract(s.evm, call, s.registry, s.ctx, await callOverridesChecked(deps, provider, call.overrides)),
      deps,
    );
  } catch (err) {
    return { function: String(spec.function), error: errorMessage(err) };
  }
}

/** The API's decode(): a call's input, a log (topics + data) or revert data, with the ABIs known. */
export async function decodeForApi(
  deps: CommandDeps,
  q: { data?: string; topics?: readonly string[]; address?: string; provider?: string; network?: string },
): Promise<Decoded> {
  // With a provider (or "best"): its chain's code is read to recognise proxies and precompiles; without: the ABIs known.
  const route = q.provider !== undefined ? routeCall(deps, q.provider, q.network) : undefined;
  const provider = route?.kind === 'run' ? route.provider : undefined;
  const decode = async ({ registry, ctx }: { registry: ContractRegistry; ctx: ResolveContext }): Promise<Decoded> => {
    if (q.topics && q.topics.length > 0) return registry.decodeLog({ address: q.address, topics: q.topics, data: q.data ?? '0x' }, ctx);
    const data = q.data ?? '';
    const call = await registry.decodeCall(data, q.address, ctx);
    if (call.kind !== 'unknown') return call;
    const err = await registry.decodeRevert(data, q.address, ctx);
    return err.kind !== 'unknown' ? err : call;
  };
  return provider
    ? onProvider(apiHost(hostBase(deps), undefined), provider, l10n.t('Call Contract'), decode, deps)
    : decode({ registry: contractRegistry(deps), ctx: {} });
}
