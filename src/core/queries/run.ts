// Running a query file (step 3 of pipeline.ts): its requests in order, each through execute()
// (core/chain/execute.ts) with the extension's limits (timeout, size caps, cancellation), on the
// provider it names, a variable, or every provider (`*`, a bounded number at a time; which ones:
// providerChoice.ts). Values are resolved when their request runs
// (variables, `${env:NAME}`, `${secret:NAME}` for that provider only, `{{request.path ± N}}`), then
// the assertions are evaluated. Never throws for what a file says: every problem is a result.

import { errorMessage } from '../base/errors';
import { type ExecuteOptions, type Outcome, type RequestDescription, describeRequest, execute } from '../chain/execute';
import { fetchAllPages } from '../chain/pages';
import type { Operation } from '../chain/operation';
import type { Provider } from '../config/providers';
import { secretNames } from '../config/secrets';
import { type SecretMasker, masker } from '../secrets/mask';
import { stateChangingReason } from '../chain/stateChanging';
import { type AssertionResult, type ResultRecord, evaluateAcross, evaluateOwn, implicitSuccess, oneLine, shorten } from './assert';
import { isAcross } from './assertions/index';
import { Expansions, type ValueContext, foreignSecretIn, interpolate } from './interpolate';
import { type ChoiceContext, chooseProviders } from './providerChoice';
import { SIMULATE_OPERATION, type SimulationContext, runSimulationRequest } from './simulateRequest';
import { RECEIPT_OPERATION_ID, type ReceiptRunner, runReceiptRequest } from './receiptRequest';
import { ACCOUNT_OPERATION_ID, type AccountReader, runAccountRequest } from './accountRequest';
import type { QueryFile, QueryRequest } from './model';
import { type Located, templateParts } from './syntax';

export { interpolate } from './interpolate';

export interface RunContext extends ValueContext, ChoiceContext, Partial<Omit<SimulationContext, 'providers' | 'resolveProvider'>> {
  /** What every request runs with (its own `timeout:` replaces timeoutMs, within maxTimeoutMs). */
  readonly execute: Omit<ExecuteOptions, 'signal' | 'headers'>;
  /** The longest a request may take, whatever its `timeout:` says (the CLI's --timeout); none when absent. */
  readonly maxTimeoutMs?: number;
  /** The provider as the network sees it: its secrets substituted (throws a clear error when one is missing). */
  resolveProvider(p: Provider): Provider;
  /** Requests of one fan-out in flight at once (default 4). */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  /** Run only these requests (and the earlier ones they reference). */
  readonly only?: readonly string[];
  /** Builds `explorer.receipt`'s receipt (core/explorer/receipt/queryRunner.ts); without it that request fails with one sentence. */
  readonly receipt?: ReceiptRunner;
  /** Asked before each broadcast (the editor's modal); without it the file's `confirm: broadcast` suffices. */
  confirmBroadcast?(request: QueryRequest, provider: Provider, description: RequestDescription): Promise<boolean>;
  /** Called as each provider's request finishes (with its whole outcome). */
  onResult?(run: ProviderRun): void;
  /** Keep every outcome on its ProviderRun after onResult (default: dropped, only a summary stays). */
  readonly keepOutcomes?: boolean;
  /** `explorer.account`'s reader (the explorer's, passed in by the editor and the CLI); absent: the request fails saying so. */
  readonly account?: AccountReader;
}

export interface ProviderRun {
  readonly request: QueryRequest;
  readonly provider: string;
  /** The whole outcome: given to onResult, then dropped unless the context keeps outcomes (memory). */
  outcome?: Outcome;
  /** What was sent and how it went, kept for the reports. */
  readonly sent?: { method: string; url: string; status?: number; elapsedMs: number; summary?: string };
  /** The result, shortened, for the reports. */
  readonly shown?: string;
  /** The arguments as sent, for the reports' names (masked and shortened there: argsText()). */
  readonly args?: Readonly<Record<string, string>>;
  /** Its `result` is dropped once no later request references this one (memory). */
  record: ResultRecord;
  readonly assertions: AssertionResult[];
}

export interface RequestRun {
  readonly request: QueryRequest;
  readonly runs: ProviderRun[];
  /** `same` and `within N`, evaluated across the providers. */
  readonly across: AssertionResult[];
  /** Why the request did not run (or not on any provider). */
  readonly error?: string;
  readonly skipped?: boolean;
}

export interface FileRun {
  readonly requests: RequestRun[];
  readonly passed: boolean;
  readonly elapsedMs: number;
}

export function requestPassed(r: RequestRun): boolean {
  if (r.skipped) return true;
  return !r.error && r.runs.length > 0 && r.runs.every((p) => p.assertions.every((a) => a.passed)) && r.across.every((a) => a.passed);
}

/** Every assertion result of a request, as the reports and the Testing view list them: each provider's, then those across providers. */
export function assertionsOf(r: RequestRun): { provider?: ProviderRun; a: AssertionResult }[] {
  return [...r.runs.flatMap((provider) => provider.assertions.map((a) => ({ provider, a }))), ...r.across.map((a) => ({ a }))];
}

/** The names of the requests a request references. */
export function referencesOf(r: QueryRequest): Set<string> {
  const out = new Set<string>();
  const values: Located[] = [...r.args.map((a) => a.value), ...(r.provider ? [r.provider] : [])];
  for (const a of r.assertions) if (a.kind === 'compare' || a.kind === 'status') values.push(a.value);
  for (const v of values) {
    if (!v.text.includes('{{')) continue;
    for (const p of templateParts(v)) if (p.kind === 'ref') out.add(p.request);
  }
  return out;
}

function selected(file: QueryFile, only: readonly string[] | undefined): Set<string> {
  const all = new Set(file.requests.map((r) => r.name));
  if (!only) return all;
  const want = new Set<string>();
  const byName = new Map(file.requests.map((r) => [r.name, r]));
  const add = (name: string) => {
    if (want.has(name) || !byName.has(name)) return;
    want.add(name);
    for (const dep of referencesOf(byName.get(name)!)) add(dep);
  };
  only.forEach(add);
  return want;
}

export async function runQueryFile(file: QueryFile, ctx: RunContext): Promise<FileRun> {
  const started = Date.now();
  const done = new Map<string, RequestRun>();
  const requests: RequestRun[] = [];
  const want = selected(file, ctx.only);
  const referenced = new Set<string>();
  // One scope for the whole run (not one object per request).
  const scope: Scope = { file, ctx, done, wires: new Map(), options: new Map(), chosen: new Map(), expanded: new Expansions() };
  for (const r of file.requests) for (const name of referencesOf(r)) referenced.add(name);
  for (const request of file.requests) {
    if (!want.has(request.name)) continue;
    let run: RequestRun;
    if (ctx.signal?.aborted) run = { request, runs: [], across: [], error: 'cancelled' };
    else {
      try {
        run = await runRequest(request, scope);
      } catch (err) {
        run = { request, runs: [], across: [], error: (ctx.masker ?? masker).mask(errorMessage(err)) };
      }
    }
    // A result no later request reads is not kept (a file of thousands of requests stays small).
    if (!referenced.has(request.name)) for (const p of run.runs) (p.record as { result?: unknown }).result = undefined;
    done.set(request.name, run);
    requests.push(run);
  }
  return { requests, passed: requests.every(requestPassed), elapsedMs: Date.now() - started };
}

async function runRequest(request: QueryRequest, scope: Scope): Promise<RequestRun> {
  const { file, ctx } = scope;
  // A request the parser could not read is errored with its located diagnostic; the others run.
  const problem = file.diagnostics.find((d) => d.severity === 'error' && d.line >= request.line && d.line <= request.endLine);
  if (problem) return { request, runs: [], across: [], error: `line ${problem.line}:${problem.col}: ${problem.message}` };
  const op = request.op;
  if (!op) return { request, runs: [], across: [], error: `line ${request.line}:${request.target.col}: unknown operation "${request.target.text}"` };
  const providers = chooseProviders(request, scope);
  const runs: ProviderRun[] = new Array(providers.length);
  if (providers.length === 1) {
    runs[0] = await runOne(request, providers[0], scope);
  } else {
    // A fan-out: at most `concurrency` requests in flight, results in provider order.
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < providers.length; i = next++) runs[i] = await runOne(request, providers[i], scope);
    };
    const width = Math.max(1, Math.min(ctx.concurrency ?? 4, providers.length));
    await Promise.all(Array.from({ length: width }, worker));
  }
  return { request, runs, across: acrossOf(request, runs) };
}

/** `same` and `within N` of a request, evaluated across its providers' records (none: no list built). */
function acrossOf(request: QueryRequest, runs: readonly ProviderRun[]): AssertionResult[] {
  const across: AssertionResult[] = [];
  let records: ResultRecord[] | undefined;
  for (const a of request.assertions) if (isAcross(a)) across.push(evaluateAcross(a, (records ??= runs.map((r) => r.record))));
  return across;
}

interface Scope {
  file: QueryFile;
  ctx: RunContext;
  done: Map<string, RequestRun>;
  /** Per provider: the provider as the network sees it (or why not), resolved once per file run. */
  wires: Map<Provider, { wire: Provider } | { error: unknown }>;
  /** Per provider and timeout: the options of execute() (one object, not one per request). */
  options: Map<Provider, Map<number, ExecuteOptions>>;
  /** Per interface and provider name: the provider it resolves to. */
  chosen: Map<string, Provider[]>;
  /** The variables expanded so far (each once per provider and file run: interpolate.ts). */
  expanded: Expansions;
}

/** What assertions and later references read of an outcome (a paged request's: every page's result, its summary). */
function recordOf(provider: string, o: Outcome, mask: SecretMasker, paged?: { result?: unknown; summary?: string }): ResultRecord {
  let result: unknown;
  try {
    result = paged ? paged.result : o.error ? undefined : o.result;
  } catch {
    result = undefined;
  }
  return {
    provider,
    result,
    status: o.status,
    latencyMs: o.elapsedMs,
    error: o.error ? mask.mask(o.error.message) : undefined,
    summary: paged ? paged.summary : o.summary,
  };
}

/** A request that failed on a provider before or instead of sending: its implicit assertion fails with why. */
function failedRun(request: QueryRequest, provider: Provider, ctx: RunContext, message: string): ProviderRun {
  const record: ResultRecord = { provider: provider.name, latencyMs: 0, error: (ctx.masker ?? masker).mask(message) };
  const run = { request, provider: provider.name, record, assertions: [{ assertion: implicitSuccess(request), passed: false, message: record.error! }] };
  ctx.onResult?.(run);
  return run;
}

async function runOne(request: QueryRequest, provider: Provider, scope: Scope): Promise<ProviderRun> {
  const { ctx } = scope;
  const op = request.op!;
  // Cancelled between two requests of a fan-out: nothing more is resolved or sent.
  if (ctx.signal?.aborted) return failedRun(request, provider, ctx, 'cancelled');
  let args: Record<string, string>;
  let wire: Provider;
  try {
    args = { ...request.fixedArgs };
    for (const a of request.args) args[a.key] = interpolate(a.value, scope, provider);
    // Secrets are substituted once per provider and file run (the same answer, or the same error).
    let resolved = scope.wires.get(provider);
    if (!resolved) {
      try {
        resolved = { wire: ctx.resolveProvider(provider) };
      } catch (err) {
        resolved = { error: err };
      }
      scope.wires.set(provider, resolved);
    }
    if ('error' in resolved) throw resolved.error;
    wire = resolved.wire;
  } catch (err) {
    return failedRun(request, provider, ctx, errorMessage(err));
  }
  // Another provider's secret is looked for in the request as it will be sent, not only in each reference.
  if (ctx.foreignSecrets) {
    const leak = foreignSecretIn(ctx, provider, ownSecrets(request, provider, ctx), assembled(wire, op, args));
    if (leak) return failedRun(request, provider, ctx, leak);
  }
  // The catalogue's broadcasts and every raw request that changes state (core/chain/stateChanging.ts).
  const changes = stateChangingReason(op, args);
  if (changes) {
    if (!request.confirmed) return failedRun(request, provider, ctx, `${changes}: add the line "confirm: broadcast" to the request (not sent)`);
    if (ctx.confirmBroadcast) {
      let ok = false;
      try {
        ok = await ctx.confirmBroadcast(request, provider, describeRequest(provider, op, args));
      } catch (err) {
        return failedRun(request, provider, ctx, errorMessage(err));
      }
      if (!ok) return failedRun(request, provider, ctx, 'not sent: the broadcast was not confirmed');
    }
  }
  // A file's `timeout:` replaces the default, never past the bound of whoever runs it (the CLI's --timeout).
  const timeoutMs = Math.min(request.timeoutMs ?? ctx.execute.timeoutMs, ctx.maxTimeoutMs ?? Infinity);
  let byTimeout = scope.options.get(provider);
  if (!byTimeout) scope.options.set(provider, (byTimeout = new Map()));
  let options = byTimeout.get(timeoutMs);
  if (!options) byTimeout.set(timeoutMs, (options = { ...ctx.execute, headers: wire.headers, signal: ctx.signal, timeoutMs }));
  const paged = request.pageAll ? await fetchAllPages(wire, op, args, options, request.pageAll) : undefined;
  // evm.simulate: several read requests and the decoding (simulateRequest.ts); its fields at the top of the record.
  // explorer.receipt and explorer.account: the explorer's, passed in by whoever runs the file (receiptRequest.ts, accountRequest.ts).
  const simulated =
    op.id === SIMULATE_OPERATION
      ? await runSimulationRequest(op, provider, wire, args, options, ctx)
      : op.id === RECEIPT_OPERATION_ID
        ? await runReceiptRequest(op, provider, wire, args, options, ctx.receipt)
        : op.id === ACCOUNT_OPERATION_ID
          ? await runAccountRequest(op, provider, wire, args, options, ctx.account)
          : undefined;
  const outcome = simulated ? simulated.outcome : paged ? paged.outcome : await execute(wire, op, args, options);
  const record: ResultRecord =
    paged && !outcome.error
      ? recordOf(provider.name, outcome, ctx.masker ?? masker, paged)
      : simulated?.fields
        ? { ...recordOf(provider.name, outcome, ctx.masker ?? masker), ...simulated.fields }
        : recordOf(provider.name, outcome, ctx.masker ?? masker);
  // The request's own assertions (step 3's last stage, assert.ts), values resolved for this provider,
  // a regular expression within what is left of the request's timeout (core/queries/regex.ts); awaited
  // only when one waits (a file of thousands of requests spends no extra turn per request).
  const own = evaluateOwn(request, record, (v) => interpolate(v, scope, provider), timeoutMs - outcome.elapsedMs);
  const assertions = Array.isArray(own) ? own : await own;
  const sent = { method: outcome.request.method, url: outcome.request.url, status: outcome.status, elapsedMs: outcome.elapsedMs, summary: record.summary };
  const shown = record.error ?? record.summary ?? (record.result === undefined ? undefined : shorten(record.result, 100));
  const run: ProviderRun = { request, provider: provider.name, outcome, sent, shown, args, record, assertions };
  ctx.onResult?.(run);
  if (!ctx.keepOutcomes) run.outcome = undefined;
  return run;
}

/** The request as it will be sent, in parts: its address, its body, its headers (or its arguments when they are invalid: nothing is sent then). */
function assembled(wire: Provider, op: Operation, args: Record<string, string>): { where: string; text: string }[] {
  const parts: { where: string; text: string }[] = [];
  try {
    const d = describeRequest(wire, op, args);
    parts.push({ where: 'address', text: d.url });
    if (d.body !== undefined) parts.push({ where: 'body', text: d.body });
  } catch {
    for (const v of Object.values(args)) parts.push({ where: 'arguments', text: v });
  }
  for (const [k, v] of Object.entries(wire.headers ?? {})) parts.push({ where: 'headers', text: `${k}: ${v}` });
  return parts;
}

/** The values of the provider's own secrets: those of its addresses and headers, and those the request's arguments name. */
function ownSecrets(request: QueryRequest, provider: Provider, ctx: RunContext): string[] {
  const names = new Set(secretNames(provider));
  for (const a of request.args) if (a.value.text.includes('${secret:')) for (const p of templateParts(a.value)) if (p.kind === 'secret') names.add(p.name);
  const values: string[] = [];
  for (const n of names) {
    const v = ctx.secretValue(provider, n);
    if (v !== undefined && v !== '') values.push(v);
  }
  return values;
}

/** A run's arguments as one masked line (`height=12 path=/x`), at most `max` characters: the reports' names. */
export function argsText(args: Readonly<Record<string, string>> | undefined, max = 120, mask: SecretMasker = masker): string {
  if (!args) return '';
  const text = Object.entries(args)
    .filter(([, v]) => v.trim() !== '')
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return text === '' ? '' : oneLine(mask.mask(text), max);
}
