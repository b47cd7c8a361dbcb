// The command-line runner of query files (`chain-endpoints run <file>…`, src/cli.ts), for CI:
// providers from a JSON file in the settings' shape, secrets from environment variables (only for
// providers of a --providers file), the environment only as --allow-env says, one report. Exit 0
// when every assertion passes, 1 when one fails, 2 for a usage or parse error before any request
// (naming file, line and column). Plain Node: the editor is not involved. Options: cliArgs.ts.

import type { ReceiptRunner } from './receiptRequest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { errorMessage } from '../base/errors';
import { requestOptions } from '../chain/requestOptions';
import { groupNetworks, networkIndex } from '../config/networks';
import { type Provider, parseProviders, providerNamed } from '../config/providers';
import { envSecrets } from '../config/envSecrets';
import { secretContext } from '../config/secrets';
import { HttpClient } from '../transport/http';
import { type CliOptions, USAGE, UsageError, parseArgs } from './cliArgs';
import { type PipelineResult, type QuerySource, prepareRun, runPrepared } from './pipeline';
import { report } from './report';
import { didYouMean } from './suggest';

export { USAGE, secretEnvName } from './cliArgs';

export interface CliIo {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  out(text: string): void;
  err(text: string): void;
  readonly signal?: AbortSignal;
  /** `explorer.receipt`'s builder (src/cli.ts passes the explorer's: this layer cannot import it). */
  readonly receipt?: ReceiptRunner;
}

/** The providers of a JSON file: an array, or an object with a "chainEndpoints.providers" key. */
export function readProvidersFile(file: string, shown = file): Provider[] {
  const text = readText(file, shown);
  const errors: ParseError[] = [];
  const raw: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const e = errors[0];
    const before = text.slice(0, e.offset).split(/\r\n|\r|\n/);
    throw new UsageError(`${file}:${before.length}:${before[before.length - 1].length + 1}: ${printParseErrorCode(e.error)}`);
  }
  let value = raw;
  if (!Array.isArray(raw) && typeof raw === 'object' && raw !== null) {
    const r = raw as Record<string, unknown>;
    value = r['chainEndpoints.providers'] ?? (r.chainEndpoints as Record<string, unknown> | undefined)?.providers;
    if (value === undefined) throw new UsageError(`${file}: no "chainEndpoints.providers" key`);
  }
  const parsed = parseProviders(value);
  if (parsed.problems.length > 0) throw new UsageError(`${file}: ${parsed.problems.map((p) => p.message).join(' ')}`);
  return parsed.providers;
}

/** A file's text, or a UsageError saying plainly why not (no raw ENOENT). */
export function readText(file: string, shown: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${shown}: no such file (looked at ${file})`);
    if (code === 'EISDIR') throw new UsageError(`${shown}: is a folder, not a file`);
    if (code === 'EACCES') throw new UsageError(`${shown}: not readable (permission denied)`);
    throw new UsageError(`${shown}: ${errorMessage(err)}`);
  }
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let options: CliOptions;
  let providers: Provider[];
  /** Providers from the repository's own settings (no --providers): they never get a secret. */
  let fromRepository = false;
  try {
    options = parseArgs(argv);
    if (options.help) {
      io.out(USAGE + '\n');
      return 0;
    }
    const settings = path.resolve(io.cwd, '.vscode', 'settings.json');
    if (options.providersFile) providers = readProvidersFile(path.resolve(io.cwd, options.providersFile), options.providersFile);
    else if (existsSync(settings)) {
      providers = readProvidersFile(settings, settings);
      fromRepository = true;
    } else throw new UsageError(`no providers file found at ${settings}; pass --providers FILE`);
    const wanted = options.provider?.trim().toLowerCase();
    if (wanted !== undefined && wanted !== '*' && !providerNamed(providers, wanted)) {
      const known = providers.map((p) => `"${p.name}"`).join(', ') || 'none';
      throw new UsageError(
        `--provider: no provider named "${options.provider}" (providers: ${known}).${didYouMean(
          options.provider ?? '',
          providers.map((p) => p.name),
        )}`,
      );
    }
  } catch (err) {
    io.err(`chain-endpoints: ${errorMessage(err)}\n${err instanceof UsageError ? 'Run "chain-endpoints --help" for the options.\n' : ''}`);
    return 2;
  }

  // Secrets from the environment (core/config/envSecrets.ts), each reaching only its provider; the
  // resolution, lookup, hints and foreign-secret checks built from it once (secretContext), the
  // masker fed with every value.
  const secrets = secretContext(
    envSecrets(io.env, {
      refusal: (p) =>
        fromRepository
          ? `provider "${p.name}" comes from ${path.join('.vscode', 'settings.json')}, the repository's own file: the CLI gives secrets only to providers from a file named with --providers`
          : undefined,
    }),
  );
  const envHint = (name: string) => `pass --allow-env ${name} to let the file read it`;

  // The pipeline (pipeline.ts): every file parsed and checked first, a broken one stops the run
  // before any request; the checks and the run read one policy.
  const sources: QuerySource[] = [];
  /** Per file named, in order: why it could not be read (printed where it was named). */
  const unreadable: (string | undefined)[] = [];
  for (const f of options.files) {
    try {
      sources.push({ name: f, source: readText(path.resolve(io.cwd, f), f) });
      unreadable.push(undefined);
    } catch (err) {
      unreadable.push(`chain-endpoints: ${errorMessage(err)}\n`);
    }
  }
  const prepared = prepareRun(sources, { providers, env: io.env, allowEnv: options.allowEnv, envHint, defaultProvider: options.provider });
  let next = 0;
  for (const why of unreadable) {
    if (why !== undefined) {
      io.err(why);
      continue;
    }
    const { name, file, diagnostics } = prepared.files[next++];
    for (const d of diagnostics) io.err(`${name}:${d.line}:${d.col}: ${d.severity}: ${d.message}\n`);
    if (file.requests.length === 0 && file.diagnostics.length === 0) io.err(`${name}: no requests\n`);
  }
  if (unreadable.some((why) => why !== undefined) || prepared.stop) return 2;

  const declaredNetworks = networkIndex(groupNetworks(providers));
  const http = new HttpClient({ userAgent: 'chain-endpoints-cli' });
  const spillDir = mkdtempSync(path.join(tmpdir(), 'chain-endpoints-cli-'));
  let result: PipelineResult;
  try {
    result = await runPrepared(prepared, {
      // No document is shown: answers are parsed, not formatted as they arrive.
      execute: requestOptions(
        { requestTimeoutMs: options.timeoutMs, maxDocumentBytes: 20 * 1024 * 1024, maxDownloadBytes: options.maxDownloadBytes },
        { http, spillDir },
        'silent',
      ),
      // --timeout bounds every request: a file's own `timeout:` may shorten it, never lengthen it.
      maxTimeoutMs: options.timeoutMs,
      // Networks as the providers declare them (chainId, evmChainId, network): no probe here.
      networkOf: (p) => declaredNetworks.get(p.name)?.label,
      concurrency: options.concurrency,
      signal: io.signal,
      receipt: io.receipt,
      ...secrets,
    });
  } finally {
    await http.close();
    rmSync(spillDir, { recursive: true, force: true });
  }
  const { reports } = result;
  const text = report(options.reporter, reports);
  if (options.output) {
    writeFileSync(path.resolve(io.cwd, options.output), text);
    io.out(report('text', reports));
  } else {
    io.out(text);
  }
  return result.passed ? 0 : 1;
}
