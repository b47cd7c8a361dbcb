// One run of "something on a provider" started by a person (a command, the API, a History re-run):
// the provider chosen by the router → its secrets (resolved asynchronously: waiting for the
// SecretStore is part of resolving, so it cannot be forgotten) → the request options
// (requestOptions() only) → the state-changing check (the one list, core/chain/stateChanging.ts,
// one confirmation with the body masked) → progress and cancellation (an AbortController) → the work
// (execute() or an explorer source over it) → one log line per request → the masker. What each
// feature adds is its `work` and what it shows; the document's name is documentName() (one cleaning
// rule, core/documents/resultName.ts).
//
//   const uri = await runOnProvider(host, { provider, title: l10n.t('Receipt of {0}', hash), preset: 'silent' },
//     async (run) => renderReceipt(await readReceipt(run.source(), hash)));
//
// No vscode import: the editor's and the API's sides are hosts (ui/requests/host.ts), and the unit
// tests hand it a scripted one (test/unit/ui/requests/).

import * as l10n from '../../core/base/l10n';
import { LocalizedError, rewrapped } from '../../core/base/errors';
import { formatBytes } from '../../core/base/numbers';
import { type ExecuteOptions, type Outcome, type RequestDescription, describeRequest, execute } from '../../core/chain/execute';
import type { Args, Operation } from '../../core/chain/operations';
import { type RequestPreset, type RequestSettings, requestOptions } from '../../core/chain/requestOptions';
import { stateChangingReason } from '../../core/chain/stateChanging';
import type { Provider } from '../../core/config/providers';
import { type ExplorerSource, executeSource } from '../../core/explorer/source';
import { redactUrl } from '../../core/secrets/redact';
import type { Http } from '../../core/transport/http';

/** Where secrets come from: resolving waits for them to be loaded (the SecretStore's `resolved`). */
export interface ProviderSecrets {
  /** The provider with its own secrets substituted; rejects naming a missing secret (nothing is sent). */
  resolved(p: Provider): Promise<Provider>;
}

/** What a run needs from where it was started: the editor (notifications, modals) or the API (none). */
export interface RunHost {
  readonly log: { info(m: string): void; warn(m: string): void };
  readonly http: Http;
  readonly storageDir: string;
  readonly secrets: ProviderSecrets;
  /** The request settings, read when the run starts. */
  settings(): RequestSettings;
  /** What is shown (the log, documents, API results) with every secret value replaced. */
  mask(text: string): string;
  /** A state-changing request: true to send it. The editor asks with a modal; the API refuses unless the caller confirmed. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  /** Runs `work` under a cancellable progress (the editor's notification, or nothing) with the signal that cancels it. */
  progress<T>(title: string, work: (report: (message: string) => void, signal: AbortSignal) => Promise<T>): Promise<T>;
}

/** What every host has: the part of a host that is not how it asks or shows progress. */
export type HostBase = Omit<RunHost, 'confirm' | 'progress'>;

/** A cancellation token as the API is given one (vscode.CancellationToken's shape). */
export interface CancelToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/**
 * The API's host: no UI; `token` cancels; a state-changing request is sent only when the caller
 * passed `confirmed: true` (the run's `request.confirmed`), else `refuse` throws (without one: DECLINED)
 * and nothing is sent.
 */
export function apiHost(base: HostBase, token: CancelToken | undefined, refuse?: () => never): RunHost {
  return {
    ...base,
    confirm: async () => (refuse ? refuse() : false),
    progress: async (_title, work) => {
      const abort = new AbortController();
      const sub = token?.onCancellationRequested(() => abort.abort());
      if (token?.isCancellationRequested) abort.abort();
      try {
        return await work(() => undefined, abort.signal);
      } finally {
        sub?.dispose();
      }
    },
  };
}

export interface RunSpec {
  /** As routed (core/health/routeCommand.ts): secrets not substituted. */
  readonly provider: Provider;
  /** The progress notification's title. */
  readonly title: string;
  /** document: an answer shown as a document; silent: read by code (Look Up, Call Contract). */
  readonly preset?: RequestPreset;
  /** The one request about to be sent, checked against the state-changing list before anything is sent. */
  readonly request?: { readonly op: Operation; readonly args: Args; readonly confirmed?: boolean };
  /** The log line's tag (`[request]` unless a feature names itself). */
  readonly tag?: string;
}

export interface ProviderRun {
  /** The provider as routed (for names shown); `wire` has the secrets substituted. */
  readonly provider: Provider;
  readonly wire: Provider;
  readonly signal: AbortSignal;
  readonly options: ExecuteOptions;
  /** One request through execute(), logged. */
  execute(op: Operation, args: Args): Promise<Outcome>;
  /** The explorer's source over execute() (each request logged): Look Up, Call Contract. */
  source(): ExplorerSource;
}

/** Answered when a state-changing request was not confirmed: nothing was sent. */
export const DECLINED = Symbol('declined');

/**
 * Runs `work` on `spec.provider`. Resolves with its value, or DECLINED when the state-changing
 * confirmation was declined (nothing sent). Rejects for a missing secret (nothing sent) and for
 * what `work` throws.
 */
export function runOnProvider<T>(host: RunHost, spec: RunSpec & { readonly request?: undefined }, work: (run: ProviderRun) => Promise<T>): Promise<T>;
export function runOnProvider<T>(host: RunHost, spec: RunSpec, work: (run: ProviderRun) => Promise<T>): Promise<T | typeof DECLINED>;
export async function runOnProvider<T>(host: RunHost, spec: RunSpec, work: (run: ProviderRun) => Promise<T>): Promise<T | typeof DECLINED> {
  let wire: Provider;
  try {
    wire = await host.secrets.resolved(spec.provider);
  } catch (err) {
    throw rewrapped(err);
  }
  if (spec.request && !spec.request.confirmed && !(await confirmStateChange(host, spec.provider, spec.request.op, spec.request.args))) return DECLINED;
  const settings = host.settings();
  const tag = spec.tag ?? 'request';
  return host.progress(spec.title, (report, signal) => {
    const options = requestOptions(
      settings,
      { http: host.http, spillDir: host.storageDir, signal, provider: wire, onProgress: report },
      spec.preset ?? 'document',
    );
    const logged = (o: Outcome) => logOutcome(host, tag, o);
    return work({
      provider: spec.provider,
      wire,
      signal,
      options,
      execute: async (op, args) => {
        const o = await execute(wire, op, args, options);
        logged(o);
        return o;
      },
      source: () => executeSource(wire, options, logged),
    });
  });
}

/**
 * The one confirmation of a request that changes state (core/chain/stateChanging.ts: the
 * catalogue's broadcasts and the raw requests that do the same): the request as it will be sent,
 * secrets as their references and the body masked. True: send it.
 */
export async function confirmStateChange(host: Pick<RunHost, 'confirm' | 'mask'>, provider: Provider, op: Operation, args: Args): Promise<boolean> {
  const why = stateChangingReason(op, args);
  if (!why) return true;
  return confirmRequest(host, { provider: provider.name, request: describeRequest(provider, op, args), why, broadcast: Boolean(op.broadcast) });
}

/** The modal itself (also a query file's, whose pipeline decides what changes state): the request as sent, masked. */
export function confirmRequest(
  host: Pick<RunHost, 'confirm' | 'mask'>,
  c: { provider: string; request: RequestDescription; why?: string; broadcast: boolean; where?: string },
): Promise<boolean> {
  const body = host.mask(truncate(c.request.body ?? '', 1500));
  const parts = [
    ...(c.where ? [c.where] : []),
    `${c.request.method} ${host.mask(redactUrl(c.request.url))}`,
    ...(body ? ['', body] : []),
    ...(c.why ? ['', host.mask(c.why)] : []),
    '',
    l10n.t('A broadcast is sent once and never retried.'),
  ];
  const message = c.broadcast ? l10n.t('Send this transaction to {0}?', c.provider) : l10n.t('Send this state-changing request to {0}?', c.provider);
  return host.confirm(message, parts.join('\n'), l10n.t('Send'));
}

/** The API's refusal of a state-changing request it was not told to send (nothing was sent). */
export class Unconfirmed extends LocalizedError {}

/** The API's answer to a state-changing request not confirmed: what to pass. */
export function unconfirmedRefusal(op: Operation, args: Args): Unconfirmed {
  const why = stateChangingReason(op, args) ?? op.id;
  return new Unconfirmed(l10n.both('{0}: pass {1} to send it.', why, '{ confirmed: true }'));
}

/** The one log line of a request: `[tag] <operation> <METHOD> <url> -> <status> <ms> ms <size>[ · error]`, masked. */
export function requestLogLine(tag: string, o: Outcome): string {
  return `[${tag}] ${o.operation.id} ${o.request.method} ${redactUrl(o.request.url)} -> ${o.status ?? '-'} ${Math.round(o.elapsedMs)} ms ${formatBytes(o.bytes)}`;
}

export function logOutcome(host: Pick<RunHost, 'log' | 'mask'>, tag: string, o: Outcome): void {
  const line = requestLogLine(tag, o);
  if (o.error) host.log.warn(host.mask(`${line} · ${o.error.message}`));
  else host.log.info(host.mask(line));
}

function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
