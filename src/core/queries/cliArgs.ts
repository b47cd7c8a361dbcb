// The command line of `chain-endpoints`: its usage text, its options read into one object, and the
// environment variable of each secret (an encoding in which two (provider, name) pairs never share
// a variable). A mistake is a UsageError (exit 2), with a "did you mean" when one is close.

import { REPORTERS, type ReporterName } from './report';
import { didYouMean } from './suggest';

export const USAGE = `usage: chain-endpoints run <file.chainq>… [options]
       chain-endpoints serve --providers FILE [--queries PATH]… [options]   (Prometheus exporter: serve --help)
       chain-endpoints --help

Runs query files against the providers of a JSON file and reports every assertion.

options:
  --providers FILE       a JSON array like the chainEndpoints.providers setting, or a settings file with a
                         "chainEndpoints.providers" key (comments allowed). Without it, .vscode/settings.json
                         is read if it exists; its providers (the repository's own file) never get a secret.
  --provider NAME        the provider of requests that name none (replaces the file's @provider)
  --allow-env NAME       lets \${env:NAME} read the variable NAME (repeat it, or NAME1,NAME2). A name not
                         allowed is an error before any request; \${env:NAME:-default} uses its default
                         only when NAME is allowed and unset. CHAIN_ENDPOINTS_SECRET_* is never readable.
  --reporter KIND        text (default), tap, junit or json
  --output FILE          write the report there (a text summary still goes to stdout)
  --timeout SECONDS      per request (default 30), regular expressions included; a file's own
                         "timeout:" may shorten it, never lengthen it
  --concurrency N        requests of one "provider: *" in flight (default 4)
  --max-download-mb N    the most one answer may cost, after decompression (default 64)
  -h, --help             this text

secrets:
  \${secret:NAME} of provider P is read from CHAIN_ENDPOINTS_SECRET_<P>__<NAME>, only for providers from
  a file named with --providers. In <P> and <NAME>, letters are upper-cased and digits kept; any other
  character c becomes _ and its code in 2 hex digits (_2D for "-", _20 for a space, _5F for "_", _2E
  for "."; _U and 4 hex digits past U+00FF); "__" separates the two. So provider "eth-main" with
  \${secret:api_key} reads CHAIN_ENDPOINTS_SECRET_ETH_2DMAIN__API_5FKEY. No two pairs share a
  variable. A secret reaches only its own provider: a value another provider echoed that contains
  it is not sent; it is masked (***) in every report.

exit status: 0 every assertion passed, 1 one failed, 2 a usage or parse error (before any request)`;

export interface CliOptions {
  files: string[];
  provider?: string;
  providersFile?: string;
  reporter: ReporterName;
  timeoutMs: number;
  concurrency: number;
  output?: string;
  allowEnv: Set<string>;
  maxDownloadBytes: number;
  help?: boolean;
}

export class UsageError extends Error {}

/** Default --max-download-mb: an answer a CI check reads is small; a runaway one stops early. */
export const CLI_DEFAULT_MAX_DOWNLOAD_MB = 64;

const OPTIONS = ['--provider', '--providers', '--reporter', '--timeout', '--concurrency', '--output', '--allow-env', '--max-download-mb', '--help'];

export function parseArgs(argv: readonly string[]): CliOptions {
  const o: CliOptions = {
    files: [],
    reporter: 'text',
    timeoutMs: 30_000,
    concurrency: 4,
    allowEnv: new Set(),
    maxDownloadBytes: CLI_DEFAULT_MAX_DOWNLOAD_MB * 1024 * 1024,
  };
  if (argv[0] === 'help' || argv.some((a) => a === '--help' || a === '-h')) return { ...o, help: true };
  const [command, ...rest] = argv;
  if (command !== 'run') {
    throw new UsageError(
      command === undefined ? 'no command: use "chain-endpoints run <file.chainq>"' : `unknown command "${command}".${didYouMean(command, ['run', 'serve'])}`,
    );
  }
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
      if (!(REPORTERS as readonly string[]).includes(r)) throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}.${didYouMean(r, REPORTERS)}`);
      o.reporter = r as ReporterName;
    } else if (flag === '--timeout') o.timeoutMs = count(value(), 3600) * 1000;
    else if (flag === '--concurrency') o.concurrency = Math.floor(count(value(), 64));
    else if (flag === '--output') o.output = value();
    else if (flag === '--max-download-mb') o.maxDownloadBytes = Math.floor(count(value(), 65536) * 1024 * 1024);
    else if (flag === '--allow-env') {
      for (const name of value().split(',')) {
        const n = name.trim();
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) throw new UsageError(`--allow-env: "${n}" is not an environment variable name`);
        o.allowEnv.add(n);
      }
    } else if (flag.startsWith('-')) throw new UsageError(`unknown option ${flag}.${didYouMean(flag, OPTIONS)}`);
    else o.files.push(a);
  }
  if (o.files.length === 0) throw new UsageError('name at least one query file');
  return o;
}

/** One part of a secret's variable: letters upper-cased, digits kept, anything else `_XX` (or `_UXXXX`). */
function encodePart(s: string): string {
  let out = '';
  for (const ch of s) {
    if (/[A-Za-z0-9]/.test(ch)) out += ch.toUpperCase();
    else {
      const code = ch.codePointAt(0)!;
      if (code <= 0xff) out += `_${code.toString(16).toUpperCase().padStart(2, '0')}`;
      else for (const unit of ch.split('')) out += `_U${unit.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    }
  }
  return out;
}

/**
 * The environment variable holding secret `name` of provider `provider`. Injective up to letter
 * case (provider names are unique regardless of case): within a part every "_" is followed by a hex
 * digit or U, so the first "__" is the separator.
 */
export function secretEnvName(provider: string, name: string): string {
  return `CHAIN_ENDPOINTS_SECRET_${encodePart(provider)}__${encodePart(name)}`;
}
