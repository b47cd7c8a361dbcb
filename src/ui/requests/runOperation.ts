// Running an operation: turns the command argument into a provider and complete arguments (asking
// only for what is missing), runs the request under a cancellable progress notification, opens the
// result and returns its Uri (undefined when the user cancels or the input is refused). Also the
// API's run() and copy as curl. Loaded on the first request (src/ui/requests/index.ts); the commands
// are registered by src/ui/requests/register.ts.

import vscode = require('vscode');
import type { RunOptions, RunResult } from '../../api';
import { LocalizedError, errorMessage, isEndpointError, rewrapped } from '../../core/base/errors';
import { type Outcome, describeRequest } from '../../core/chain/execute';
import { type Args, type Operation, findOperation } from '../../core/chain/operations';
import * as l10n from '../../core/base/l10n';
import type { Provider } from '../../core/config/providers';
import { routeCommand } from '../../core/health/routeCommand';
import { toShellCommand } from '../../core/documents/curl';
import { maskDeep, masker } from '../../core/secrets/mask';
import { redactUrl } from '../../core/secrets/redact';
import type { CommandDeps } from '../base/deps';
import { windowPrompts } from '../base/prompts';
import { providerPrompts } from '../providers/providerPicks';
import { readSettings } from '../base/settings';
import { isOperationNode } from '../providers/treeKinds';
import { resolveArgs } from './resolveArgs';
import { type Choose, checkBeforeRun, routeInput, suggestAfterFailure } from '../health/capabilityCheck';
import { awaitsCostlyProbe } from '../../core/health/serves';
import { DECLINED, Unconfirmed, apiHost, runOnProvider, unconfirmedRefusal } from './run';
import { editorHost, hostBase } from './host';

const choose: Choose = (message, actions) => Promise.resolve(vscode.window.showWarningMessage(message, ...actions));
import { currentNetworks } from '../providers/networkDirectory';
import { showOutcome } from './showOutcome';
import { restQuery } from './restQuery';
import { restModuleOf } from '../../core/health/serves';

/** REST: Query a Module Route… (src/ui/requests/restQuery.ts). */
export function restQueryCommand(deps: CommandDeps, arg: unknown): Promise<unknown> {
  return restQuery(deps, arg, windowPrompts, readSettings().providers.providers, runOperation);
}

export async function runOperation(deps: CommandDeps, op: Operation, arg?: unknown): Promise<vscode.Uri | undefined> {
  const providers = readSettings().providers.providers;
  const health = deps.health;
  const resolved = await resolveArgs(
    op,
    routeInput(health, providers),
    arg,
    providerPrompts(windowPrompts, () => health?.rows() ?? [], op.iface),
    currentNetworks(providers),
  );
  if (!resolved) return undefined;
  const { args } = resolved;
  let provider = resolved.provider;
  if (health) {
    // Only a costly probe would tell whether it is served (a txpool_* or debug_* call): this request needs it, so ask now.
    if (health.needCapabilities && awaitsCostlyProbe(op, args, health.capabilities(provider.name))) await health.needCapabilities(provider.name);
    // Known unable to serve it: say why before sending, and offer a provider that can.
    const decision = await checkBeforeRun(health, op, args, provider, providers, choose);
    if ('cancel' in decision) return undefined;
    provider = decision.run;
  }
  // The runner: secrets, the state-changing confirmation (the one list), options, progress and cancel, the log line.
  const outcome = await runOnProvider(
    editorHost(deps),
    { provider, title: `${op.label} · ${provider.name}`, request: { op, args, confirmed: resolved.confirmed } },
    (run) => run.execute(op, args),
  );
  if (outcome === DECLINED || outcome.error?.kind === 'cancelled') return undefined;
  noteModuleServed(deps, op, outcome);
  const uri = await showOutcome(deps.documents, outcome);
  void deps.history?.record(outcome, deps.documents.dataOf(uri));
  if (outcome.error && health) {
    // Refused as "not served here": name the best other provider, one click away.
    const e = { kind: outcome.error.kind, message: outcome.error.message, status: outcome.error.detail.status, code: outcome.error.detail.code };
    void suggestAfterFailure(health, op, args, provider, providers, e, choose)
      .then((alt) => alt && runOperation(deps, op, { ...args, provider: alt.name }))
      .catch((err: unknown) => deps.log.error(`[request] ${op.id} elsewhere: ${errorMessage(err)}`));
  }
  return uri;
}

/** The API's run(): the same request as the command, without a document or any prompt. */
export async function runForApi(deps: CommandDeps, operation: string, options: RunOptions): Promise<RunResult> {
  const op = findOperation(operation);
  if (!op) throw new LocalizedError(l10n.both('Unknown operation "{0}": see operations().', operation));
  const args = Object.fromEntries(Object.entries(options.params ?? {}).map(([k, v]) => [k, String(v)]));
  // The same router as the command: a name, or "best" (of `network`), ranked with the arguments given.
  const providers = readSettings().providers.providers;
  const route = routeCommand(
    op,
    { provider: options.provider, network: options.network },
    currentNetworks(providers),
    routeInput(deps.health, providers),
    args,
  );
  if (route.kind === 'refuse') throw new LocalizedError(route.message);
  if (route.kind === 'ask')
    throw new LocalizedError(l10n.both('run() needs { provider }: a provider\'s name, or "best" (with "network" when several networks are configured).'));
  // A state-changing request (the one list: broadcasts and raw ones) is sent only with `confirmed: true`.
  const host = apiHost(hostBase(deps), options.token, () => {
    throw unconfirmedRefusal(op, args);
  });
  let o: Outcome | typeof DECLINED;
  try {
    o = await runOnProvider(host, { provider: route.provider, title: op.label, request: { op, args, confirmed: options.confirmed === true } }, (run) =>
      run.execute(op, args),
    );
  } catch (err) {
    if (err instanceof Unconfirmed) throw err; // a state change not confirmed: nothing was sent
    return { elapsedMs: 0, bytes: 0, request: { method: 'GET', url: '' }, error: { kind: 'input', message: errorMessage(err) } };
  }
  if (o === DECLINED) throw unconfirmedRefusal(op, args);
  noteModuleServed(deps, op, o);
  const mask = (t: string) => masker.mask(t);
  return {
    result: maskDeep(o.result),
    body: o.body ? mask(o.body.toString('utf8')) : undefined,
    file: o.file,
    status: o.status,
    elapsedMs: o.elapsedMs,
    bytes: o.bytes,
    request: { method: o.request.method, url: redactUrl(o.request.url), body: o.request.body && mask(o.request.body) },
    error: o.error && {
      kind: o.error.kind,
      message: mask(o.error.message),
      status: o.error.detail.status,
      code: o.error.detail.code,
      data: o.error.detail.data === undefined ? undefined : mask(o.error.detail.data),
    },
  };
}

/** A module route's answer says whether the provider serves its module: 2xx yes, 501 (Not Implemented) no. Recorded, never probed. */
function noteModuleServed(deps: CommandDeps, op: Operation, o: Outcome): void {
  if (!op.route || op.route.source.startsWith('import:') || o.status === undefined) return;
  const module = restModuleOf(op.route.path);
  if (!module) return;
  if (o.status >= 200 && o.status < 300) deps.health?.noteModule?.(o.providerName, module, true);
  else if (o.status === 501) deps.health?.noteModule?.(o.providerName, module, false);
}

function resolveSecrets(deps: CommandDeps, provider: Provider): Provider {
  try {
    return deps.secrets.resolve(provider);
  } catch (err) {
    throw rewrapped(err);
  }
}

/** Copies the request as a shell line: secrets as their `${secret:NAME}` references unless `reveal`. */
export async function copyAsCurl(deps: CommandDeps, node: unknown, reveal: boolean): Promise<string | undefined> {
  if (!isOperationNode(node)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Copy as curl works on an operation in the Chain Endpoints view.'));
    return undefined;
  }
  const resolved = await resolveArgs(
    node.operation,
    { providers: readSettings().providers.providers },
    node,
    providerPrompts(windowPrompts, () => deps.health?.rows() ?? [], node.operation.iface),
    currentNetworks(readSettings().providers.providers),
  );
  if (!resolved) return undefined;
  try {
    await deps.secrets.ready;
    const p = reveal ? resolveSecrets(deps, resolved.provider) : resolved.provider;
    const line = curlLine(p, node.operation, resolved.args, reveal);
    await vscode.env.clipboard.writeText(line);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied: {0}', truncate(line, 80)), 4000);
    return line;
  } catch (err) {
    if (isEndpointError(err)) throw rewrapped(err);
    throw err;
  }
}

/** The request as a shell line: secrets as their `${secret:NAME}` references unless `reveal`. */
export function curlLine(provider: Provider, op: Operation, args: Args, reveal: boolean): string {
  return toShellCommand(describeRequest(provider, op, args), provider.headers, { reveal });
}

function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
