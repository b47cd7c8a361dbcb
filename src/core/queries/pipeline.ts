// The one run pipeline of query files. The CLI (cli.ts) and the editor (src/ui/queries/queryRun.ts,
// its Testing view queryTests.ts) drive it and only render what it produces:
//   1. prepare: every file parsed and checked (session.ts) under the policy the run reads too (the
//      providers, the environment rule, a provider given from outside): one object, so what the
//      checks accept and what the run does cannot disagree;
//   2. stop: when a file has an error, nothing is sent (the CLI exits 2, the editor names line:col);
//   3. run: each file's requests in order (run.ts): values interpolated (interpolate.ts), the
//      provider chosen (providerChoice.ts), fanned out, the assertions evaluated (assert.ts);
//   4. the result: per file, request and provider (FileRun), the counts and the verdict that the
//      reporters (report.ts) and the Testing view read.

import type { QueryFile } from './model';
import { parseQueryFile } from './parse';
import { type FileReport, countAssertions } from './report';
import { type RunContext, runQueryFile } from './run';
import { type PreparedQueryFile, prepareParsed } from './session';
import type { Diagnostic } from './syntax';

/** What the checks and the run both read (the rest of RunContext is the run's alone). */
export type QueryPolicy = Pick<RunContext, 'providers' | 'env' | 'allowEnv' | 'envHint' | 'defaultProvider'>;

/** A file to run: its name as the reports show it, and its text (or the file already parsed). */
export interface QuerySource {
  readonly name: string;
  readonly source: string | QueryFile;
}

export interface PreparedFile extends PreparedQueryFile {
  readonly name: string;
}

/** The first error of the first file that has one: the run stops before any request. */
export interface StopReason {
  readonly file: string;
  readonly diagnostic: Diagnostic;
}

export interface PreparedRun {
  readonly policy: QueryPolicy;
  readonly files: readonly PreparedFile[];
  readonly stop?: StopReason;
}

export interface PipelineResult {
  readonly reports: FileReport[];
  /** Assertions passed and failed (a request that could not run counts as one failure). */
  readonly counts: { passed: number; failed: number };
  /** No failure: the CLI exits 0, the editor says every assertion passed. */
  readonly passed: boolean;
}

/** Steps 1 and 2: every file parsed and checked under the policy; `stop` when one has an error. */
export function prepareRun(sources: readonly QuerySource[], policy: QueryPolicy): PreparedRun {
  const files = sources.map((s) => ({ name: s.name, ...prepareParsed(typeof s.source === 'string' ? parseQueryFile(s.source) : s.source, policy) }));
  const broken = files.find((f) => f.hasErrors);
  const diagnostic = broken?.diagnostics.find((d) => d.severity === 'error');
  return { policy, files, ...(broken && diagnostic ? { stop: { file: broken.name, diagnostic } } : {}) };
}

/**
 * Steps 3 and 4: the files' requests, in order, under the prepared policy. A prepared run that
 * stopped sends nothing (its result has no report and has not passed): drivers report `stop`.
 */
export async function runPrepared(prepared: PreparedRun, ctx: Omit<RunContext, keyof QueryPolicy>): Promise<PipelineResult> {
  if (prepared.stop) return { reports: [], counts: { passed: 0, failed: 1 }, passed: false };
  const reports: FileReport[] = [];
  // Object.assign, not a spread literal: V8 gives the spread's copies a new hidden class from run to
  // run, and each new one throws away the runner's optimised code (measured: 90 ms of CPU per
  // 1,000 requests in BENCHMARKS.md's query-file case).
  const runCtx: RunContext = Object.assign({}, ctx, prepared.policy);
  for (const f of prepared.files) reports.push({ file: f.name, run: await runQueryFile(f.file, runCtx) });
  const counts = countAssertions(reports);
  return { reports, counts, passed: counts.failed === 0 };
}

/** A stop as the CLI and the editor's notification show it: `file:line:col: message`. */
export function stopText(stop: StopReason): string {
  return `${stop.file}:${stop.diagnostic.line}:${stop.diagnostic.col}: ${stop.diagnostic.message}`;
}
