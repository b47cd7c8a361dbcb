// The command-line runner of query files (`chain-endpoints run <file>…`, src/cli.ts), for CI:
// providers from a JSON file in the settings' shape, secrets from environment variables, one
// report. Exit 0 when every assertion passes, 1 when one fails, 2 for a usage or parse error
// (naming file, line and column). Plain Node: the editor is not involved.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { LocalizedError, errorMessage } from '../base/errors';
import { groupNetworks, networkIndex } from '../config/networks';
import { type Provider, parseProviders } from '../config/providers';
import { resolveProvider, secretNames } from '../config/secrets';
import { masker } from '../secrets/mask';
import { HttpClient } from '../transport/http';
import { checkQueryFile } from './check';
import { parseQueryFile } from './parse';
import { type FileReport, REPORTERS, type ReporterName, countAssertions, report } from './report';
import { runQueryFile } from './run';

export const USAGE = `usage: chain-endpoints run <file.chainq>… [--provider NAME] [--providers FILE] [--reporter text|tap|junit|json]
                     [--timeout SECONDS] [--concurrency N] [--output FILE]
  --providers FILE  a JSON array like the chainEndpoints.providers setting, or a settings file with a
                    "chainEndpoints.providers" key (e.g. .vscode/settings.json; comments allowed).
                    Default: .vscode/settings.json when it exists.
  --provider NAME   the provider of requests that name none (replaces the file's @provider)
  secrets           \${secret:NAME} of provider P is read from CHAIN_ENDPOINTS_SECRET_<P>_<NAME>
                    (upper case, every other character than A-Z and 0-9 as _)
exit status: 0 every assertion passed, 1 one failed, 2 usage or parse error`;

export interface CliIo {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  out(text: string): void;
  err(text: string): void;
  readonly signal?: AbortSignal;
}

interface CliOptions {
  files: string[];
  provider?: string;
  providersFile?: string;
  reporter: ReporterName;
  timeoutMs: number;
  concurrency: number;
  output?: string;
}

class UsageError extends Error {}

function parseArgs(argv: readonly string[]): CliOptions {
  const [command, ...rest] = argv;
  if (command !== 'run') throw new UsageError(command === undefined ? 'no command' : `unknown command "${command}"`);
  const o: CliOptions = { files: [], reporter: 'text', timeoutMs: 30_000, concurrency: 4 };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const value = (): string => {
      const v = eq > 0 ? a.slice(eq + 1) : rest[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const count = (v: string, max: number) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0 || n > max) throw new UsageError(`${flag} needs a number from 1 to ${max}`);
      return n;
    };
    if (flag === '--provider') o.provider = value();
    else if (flag === '--providers') o.providersFile = value();
    else if (flag === '--reporter') {
      const r = value();
      if (!(REPORTERS as readonly string[]).includes(r)) throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}`);
      o.reporter = r as ReporterName;
    } else if (flag === '--timeout') o.timeoutMs = count(value(), 3600) * 1000;
    else if (flag === '--concurrency') o.concurrency = Math.floor(count(value(), 64));
    else if (flag === '--output') o.output = value();
    else if (flag.startsWith('-')) throw new UsageError(`unknown option ${flag}`);
    else o.files.push(a);
  }
  if (o.files.length === 0) throw new UsageError('name at least one query file');
  return o;
}

/** The providers of a JSON file: an array, or an object with a "chainEndpoints.providers" key. */
export function readProvidersFile(file: string): Provider[] {
  const text = readFileSync(file, 'utf8');
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

/** The environment variable holding secret `name` of provider `provider`. */
export function secretEnvName(provider: string, name: string): string {
  const up = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '_');
  return `CHAIN_ENDPOINTS_SECRET_${up(provider)}_${up(name)}`;
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let options: CliOptions;
  let providers: Provider[];
  try {
    options = parseArgs(argv);
    const settings = path.resolve(io.cwd, '.vscode', 'settings.json');
    const providersFile = options.providersFile ? path.resolve(io.cwd, options.providersFile) : settings;
    try {
      providers = readProvidersFile(providersFile);
    } catch (err) {
      if (!options.providersFile && (err as NodeJS.ErrnoException).code === 'ENOENT') providers = [];
      else throw err;
    }
    const wanted = options.provider?.trim().toLowerCase();
    if (wanted !== undefined && wanted !== '*' && !providers.some((p) => p.name.toLowerCase() === wanted)) {
      const known = providers.map((p) => `"${p.name}"`).join(', ') || 'none';
      throw new UsageError(`--provider: no provider named "${options.provider}" (providers: ${known})`);
    }
  } catch (err) {
    io.err(`chain-endpoints: ${errorMessage(err)}\n${err instanceof UsageError ? USAGE + '\n' : ''}`);
    return 2;
  }

  // Secrets of every provider, from the environment, scoped to their provider; all masked in output.
  const secretsOf = (p: Provider) => {
    const values = new Map<string, string>();
    for (const name of secretNames(p)) {
      const v = io.env[secretEnvName(p.name, name)];
      if (v !== undefined) values.set(name, v);
    }
    return values;
  };
  const secretValues = Object.entries(io.env)
    .filter(([k]) => k.startsWith('CHAIN_ENDPOINTS_SECRET_'))
    .map(([, v]) => v ?? '');
  masker.set(secretValues);

  // Parse and check every file first: a broken one stops the run before any request.
  const parsed = [];
  let broken = false;
  for (const f of options.files) {
    let source: string;
    try {
      source = readFileSync(path.resolve(io.cwd, f), 'utf8');
    } catch (err) {
      io.err(`${f}: ${errorMessage(err)}\n`);
      broken = true;
      continue;
    }
    const file = parseQueryFile(source);
    const diagnostics = [...file.diagnostics, ...checkQueryFile(file, { providers, defaultProvider: options.provider })];
    for (const d of diagnostics.sort((a, b) => a.line - b.line || a.col - b.col)) {
      io.err(`${f}:${d.line}:${d.col}: ${d.severity}: ${d.message}\n`);
      if (d.severity === 'error') broken = true;
    }
    if (file.requests.length === 0 && file.diagnostics.length === 0) io.err(`${f}: no requests\n`);
    parsed.push({ name: f, file });
  }
  if (broken) return 2;

  const declaredNetworks = networkIndex(groupNetworks(providers));
  const http = new HttpClient({ userAgent: 'chain-endpoints-cli' });
  const spillDir = mkdtempSync(path.join(tmpdir(), 'chain-endpoints-cli-'));
  const reports: FileReport[] = [];
  try {
    for (const { name, file } of parsed) {
      const run = await runQueryFile(file, {
        providers,
        // No document is shown: answers are parsed, not formatted as they arrive.
        execute: { http, timeoutMs: options.timeoutMs, maxBufferBytes: 20 * 1024 * 1024, spillDir, formatWhileReceiving: false },
        env: io.env,
        defaultProvider: options.provider,
        // Networks as the providers declare them (chainId, evmChainId, network): no probe here.
        networkOf: (p) => declaredNetworks.get(p.name)?.label,
        concurrency: options.concurrency,
        signal: io.signal,
        resolveProvider: (p) => {
          const values = secretsOf(p);
          const unset = secretNames(p).find((n) => !values.has(n));
          if (unset !== undefined) throw new LocalizedError(`secret "${unset}" of provider "${p.name}" is not set: set ${secretEnvName(p.name, unset)}`);
          return resolveProvider(p, values);
        },
        secretValue: (p, n) => io.env[secretEnvName(p.name, n)],
        secretHint: (p, n) => `set ${secretEnvName(p.name, n)}`,
      });
      reports.push({ file: name, run });
    }
  } finally {
    await http.close();
    rmSync(spillDir, { recursive: true, force: true });
  }
  const text = report(options.reporter, reports);
  if (options.output) {
    writeFileSync(path.resolve(io.cwd, options.output), text);
    io.out(report('text', reports));
  } else {
    io.out(text);
  }
  return countAssertions(reports).failed === 0 ? 0 : 1;
}
