// `chain-endpoints serve` (src/cli.ts): reads the providers file and the query files (a file that
// cannot be read or parsed is an error at start, exit 2; on SIGHUP it keeps the running
// configuration and logs why), starts the exporter (exporter.ts) and its HTTP server (server.ts) on
// loopback unless told otherwise, and stops within 2 s of SIGTERM or SIGINT with exit 0. Logs name
// providers and hosts only: never an address's path or query, a header or a secret.
//
// Query files may come from a repository (docs/query-files.md, "What a file may do"): besides the
// query-file runner's own rules, a file that would change state (`confirm: broadcast`: once per
// interval, for as long as the exporter runs) is refused at start, and what the files may cost is
// bounded before anything runs (their bytes, their requests, the length of the labels they name).

import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { errorMessage } from '../base/errors';
import { clean } from '../base/text';
import { type Provider } from '../config/providers';
import { envSecrets } from '../config/envSecrets';
import { secretContext } from '../config/secrets';
import { HttpClient } from '../transport/http';
import { type CliIo, readProvidersFile, readText } from '../queries/cli';
import { UsageError } from '../queries/cliArgs';
import { prepareRun, stopText } from '../queries/pipeline';
import { Exporter, type ExporterConfig, type MonitoredQueryFile, hostOf, shownName } from './exporter';
import { wellFormed } from './metrics';
import { type OtlpPush, startOtlpPush } from './otlp';
import { type ServeOptions, SERVE_USAGE, isLoopback, parseServeArgs } from './serveArgs';
import { createExporterServer } from './server';

export interface ServeIo extends CliIo {
  /** Calls `listener` on each reload request (SIGHUP); returns the way to stop listening. */
  onReload?(listener: () => void): () => void;
  /** Told the address once the server listens (tests with port 0). */
  onListening?(url: string): void;
}

/** Query files found under a folder: at most this many (a folder of thousands is a mistake). */
const MAX_QUERY_FILES = 500;
const MAX_DEPTH = 8;
/** The query files' text, all together: at most this many bytes. */
export const MAX_QUERY_BYTES = 16 * 1024 * 1024;
/** Requests over every query file: at most this many (each runs once per interval). */
export const MAX_QUERY_REQUESTS = 5_000;
/** A `file` or `request` label: at most this many characters. */
export const MAX_QUERY_LABEL_CHARS = 256;

function findQueryFiles(dir: string, shown: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (err) {
      throw new UsageError(`${shown}: cannot read the folder ${path.relative(dir, d) || '.'} (${errorMessage(err)})`);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const full = path.join(d, e.name);
      if (e.isDirectory() && depth < MAX_DEPTH) walk(full, depth + 1);
      else if (e.isFile() && e.name.endsWith('.chainq')) {
        out.push(full);
        if (out.length > MAX_QUERY_FILES) throw new UsageError(`${shown}: more than ${MAX_QUERY_FILES} query files`);
      }
    }
  };
  walk(dir, 0);
  if (out.length === 0) throw new UsageError(`${shown}: no *.chainq file in this folder`);
  return out;
}

/** Reads and checks everything: the configuration, or a UsageError saying what is wrong (naming file, line and column). */
export function loadConfig(o: ServeOptions, cwd: string, env: Readonly<Record<string, string | undefined>>): ExporterConfig {
  const providers = readProvidersFile(path.resolve(cwd, o.providersFile), o.providersFile);
  if (providers.length === 0) throw new UsageError(`${o.providersFile}: no providers`);
  // Names are unique regardless of case; two that differ only in an unpaired surrogate would still be one label.
  const labels = new Set<string>();
  for (const p of providers) {
    const label = wellFormed(p.name);
    if (labels.has(label)) throw new UsageError(`${o.providersFile}: two providers would both be labelled provider="${label}": rename one`);
    labels.add(label);
  }
  // The CLI's source (core/config/envSecrets.ts), built once as the query pipeline reads it
  // (secretContext): a secret not set is an error at start; the masker fed with every value.
  const secrets = secretContext(envSecrets(env));
  const resolved = new Map<string, Provider>();
  for (const p of providers) {
    try {
      resolved.set(p.name, secrets.resolveProvider(p));
    } catch (err) {
      throw new UsageError(errorMessage(err));
    }
  }

  const sources: { name: string; file: string; shown: string }[] = [];
  for (const q of o.queries) {
    const abs = path.resolve(cwd, q);
    let isDir = false;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      // readText below says why (no such file, permission).
    }
    if (isDir)
      for (const f of findQueryFiles(abs, q))
        sources.push({ name: path.relative(abs, f).split(path.sep).join('/'), file: f, shown: path.join(q, path.relative(abs, f)) });
    else sources.push({ name: q.split(path.sep).join('/'), file: abs, shown: q });
  }
  const names = new Set<string>();
  const queries: MonitoredQueryFile[] = [];
  let bytes = 0;
  let requests = 0;
  for (const s of sources) {
    const label = wellFormed(s.name);
    if (names.has(label)) throw new UsageError(`two query files would both be labelled file="${label}": give their folders apart`);
    names.add(label);
    if (label.length > MAX_QUERY_LABEL_CHARS) throw new UsageError(`${s.shown}: its label file="…" would be longer than ${MAX_QUERY_LABEL_CHARS} characters`);
    try {
      bytes += statSync(s.file).size;
    } catch {
      // readText below says why.
    }
    if (bytes > MAX_QUERY_BYTES) throw new UsageError(`${s.shown}: the query files hold more than ${MAX_QUERY_BYTES / 1024 / 1024} MiB in all`);
    const prepared = prepareRun([{ name: s.shown, source: readText(s.file, s.shown) }], {
      providers,
      env,
      allowEnv: new Set(),
      envHint: (n) => `the exporter reads no environment variable through \${env:${n}}`,
    });
    if (prepared.stop) throw new UsageError(stopText(prepared.stop));
    const file = prepared.files[0].file;
    if (file.requests.length === 0) throw new UsageError(`${s.shown}: no requests`);
    for (const r of file.requests) {
      if (r.confirmed)
        throw new UsageError(
          `${s.shown}:${r.line}:1: request ${r.name} says "confirm: broadcast": the exporter never sends a request that changes state (it would send it once per interval); run it with chain-endpoints run`,
        );
      if (r.name.length > MAX_QUERY_LABEL_CHARS)
        throw new UsageError(`${s.shown}:${r.line}:1: a request name longer than ${MAX_QUERY_LABEL_CHARS} characters (its label request="…")`);
    }
    requests += file.requests.length;
    if (requests > MAX_QUERY_REQUESTS)
      throw new UsageError(
        `${s.shown}: the query files hold more than ${MAX_QUERY_REQUESTS} requests in all (each runs once per interval): split them across exporters`,
      );
    queries.push({ name: s.name, prepared });
  }

  const { secretValue, secretHint, foreignSecrets, masker } = secrets;
  return { providers, resolved, queries, queryContext: { secretValue, secretHint, foreignSecrets, masker } };
}

function describe(config: ExporterConfig): string {
  const hosts = config.providers.map((p) => `${shownName(p.name)} (${[...new Set(Object.values(p.endpoints).map((a) => hostOf(a)))].join(', ')})`);
  return `${config.providers.length} provider(s): ${hosts.join('; ')}; ${config.queries.length} query file(s)`;
}

export async function runServe(argv: readonly string[], io: ServeIo): Promise<number> {
  // One line per event whatever a name or a file's diagnostic holds (a line feed would forge the next line, an ESC reach the terminal).
  const log = (line: string) => io.err(`${new Date().toISOString()} chain-endpoints serve: ${clean(line, 100_000)}\n`);
  let options: ServeOptions;
  let config: ExporterConfig;
  try {
    options = parseServeArgs(argv);
    if (options.help) {
      io.out(SERVE_USAGE + '\n');
      return 0;
    }
    config = loadConfig(options, io.cwd, io.env);
  } catch (err) {
    io.err(
      `chain-endpoints serve: ${clean(errorMessage(err), 100_000)}\n${err instanceof UsageError ? 'Run "chain-endpoints serve --help" for the options.\n' : ''}`,
    );
    return 2;
  }
  if (io.signal?.aborted) return 0;

  const http = new HttpClient({ userAgent: 'chain-endpoints-exporter' });
  const spillDir = mkdtempSync(path.join(tmpdir(), 'chain-endpoints-serve-'));
  let push: OtlpPush | undefined;
  const timeoutMs = Math.min(options.timeoutMs, Math.max(options.intervalMs, 1000));
  const exporter = new Exporter(config, {
    http,
    intervalMs: options.intervalMs,
    timeoutMs,
    concurrency: options.concurrency,
    spillDir,
    log,
    onRequest: options.otlp ? (r) => push?.record(r) : undefined,
  });
  const server = createExporterServer(exporter);
  const cleanup = async () => {
    exporter.stop();
    server.close();
    server.closeAllConnections();
    // Connections close in the background and the last OTLP push gets a second: the exit does not wait longer.
    await Promise.race([Promise.all([http.close().catch(() => undefined), push?.stop(1000)]), new Promise((r) => setTimeout(r, 1000).unref())]);
    rmSync(spillDir, { recursive: true, force: true });
  };
  if (options.otlp) {
    try {
      push = await startOtlpPush(exporter, { url: options.otlp, headers: options.otlpHeaders, intervalMs: options.intervalMs, timeoutMs, log });
    } catch (err) {
      await cleanup();
      io.err(`chain-endpoints serve: cannot start the OTLP push: ${err instanceof Error ? err.name : 'error'}\n`);
      return 2;
    }
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await cleanup();
    io.err(`chain-endpoints serve: cannot listen on ${options.host}:${options.port}: ${errorMessage(err)}\n`);
    return 2;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  if (!isLoopback(options.host)) log(`listening beyond this machine (${options.host}): anyone who reaches it can read the metrics and start probes`);
  log(`${describe(config)}; probing every ${options.intervalMs} ms; serving ${url}/metrics${options.otlp ? `; pushing OTLP to ${hostOf(options.otlp)}` : ''}`);
  io.onListening?.(url);
  exporter.start();

  const stopReload = io.onReload?.(() => {
    try {
      const next = loadConfig(options, io.cwd, io.env);
      exporter.reload(next);
      log(`reloaded: ${describe(next)}`);
    } catch (err) {
      log(`reload refused, keeping the running configuration: ${errorMessage(err)}`);
    }
  });
  await new Promise<void>((resolve) => {
    if (!io.signal) return; // runs until the process ends
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  stopReload?.();
  log('stopping');
  await cleanup();
  return 0;
}
