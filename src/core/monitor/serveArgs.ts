// The command line of `chain-endpoints serve` (the Prometheus exporter, docs/monitoring.md): its
// usage text and its options read into one object. A mistake is a UsageError (exit 2).

import { UsageError } from '../queries/cliArgs';
import { didYouMean } from '../queries/suggest';

export const SERVE_USAGE = `usage: chain-endpoints serve --providers FILE [--queries FILE_OR_FOLDER]… [options]

Exports every provider's health, capabilities and query files as Prometheus metrics.

options:
  --providers FILE       a JSON array like the chainEndpoints.providers setting, or a settings file with a
                         "chainEndpoints.providers" key. Secrets: as for "run" (CHAIN_ENDPOINTS_SECRET_<P>__<NAME>).
  --queries PATH         a query file, or a folder searched for *.chainq files (repeat it); each runs once per
                         interval; its metrics' "file" label is relative to the folder given
  --listen HOST:PORT     where to serve /metrics, /probe and /-/healthy (default 127.0.0.1:9464, loopback);
                         another host (0.0.0.0, a LAN address) only when you name it
  --interval DURATION    between probes of an interface, e.g. 30s, 500ms, 2m (default 30s; at least 100ms)
  --timeout DURATION     per request (default 10s; a health probe waits at most 10s; a query file's own
                         timeout: may shorten it, never lengthen it)
  --concurrency N        health and capability probes in flight at once (default 8); as many query file
                         runs besides, so that a slow query file never delays a health probe
  --otlp URL             also push the metrics to an OpenTelemetry collector over OTLP/HTTP (JSON) on the same
                         interval, e.g. http://127.0.0.1:4318 (/v1/metrics is added to a bare host); http or
                         https only, never user:password@
  --otlp-header K=V      a header of each push (repeat it), e.g. an API key; never logged. The SDK's
                         OTEL_EXPORTER_OTLP_HEADERS variable works too and keeps it off the command line
  -h, --help             this text

signals: SIGHUP reloads the providers and query files (a broken one keeps the running configuration);
SIGTERM and SIGINT stop (exit 0).
exit status: 0 stopped by a signal, 2 a usage error or a file that cannot be read or parsed`;

export interface ServeOptions {
  providersFile: string;
  queries: string[];
  host: string;
  port: number;
  intervalMs: number;
  timeoutMs: number;
  concurrency: number;
  /** Where to push OTLP metrics (checked: http(s), no credentials), or undefined. */
  otlp?: string;
  otlpHeaders: Record<string, string>;
  help?: boolean;
}

const OPTIONS = ['--providers', '--queries', '--listen', '--interval', '--timeout', '--concurrency', '--otlp', '--otlp-header', '--help'];

/** A duration: `30s`, `500ms`, `2m`, `1h`, or a number of seconds. */
export function parseDuration(flag: string, v: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(v.trim());
  if (!m) throw new UsageError(`${flag}: "${v}" is not a duration (e.g. 30s, 500ms, 2m)`);
  const n = Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : m[2] === 'h' ? 3_600_000 : 1000);
  if (!Number.isFinite(n) || n > 24 * 3_600_000) throw new UsageError(`${flag}: at most 24h`);
  return Math.round(n);
}

/** `host:port`, `[v6]:port`: the host as given (no default address beyond loopback) and the port (0 = any free one). */
export function parseListen(v: string): { host: string; port: number } {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(v.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new UsageError(`--listen: "${v}" is not HOST:PORT (e.g. 127.0.0.1:9464, [::1]:9464, 0.0.0.0:9464)`);
  return { host: m[1] ?? m[2], port };
}

/** Whether a listen host stays on this machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** An OTLP/HTTP metrics endpoint: http(s) only, no user:password@; a bare host gets the standard /v1/metrics path. */
export function parseOtlpUrl(v: string): string {
  let u: URL;
  try {
    u = new URL(v.trim());
  } catch {
    throw new UsageError('--otlp: not a URL (e.g. http://127.0.0.1:4318)');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--otlp: only http and https (not ${u.protocol.replace(':', '')})`);
  // Never echo the URL itself: it may carry the secret being refused.
  if (u.username || u.password)
    throw new UsageError('--otlp: user:password@ in the address is refused; give credentials with --otlp-header or OTEL_EXPORTER_OTLP_HEADERS');
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/v1/metrics';
  return u.toString();
}

/** `name=value`: a header of each OTLP push (a token name; no line break in the value). */
export function parseOtlpHeader(v: string): [string, string] {
  const eq = v.indexOf('=');
  const name = eq > 0 ? v.slice(0, eq).trim() : '';
  // Never echo the value: it is likely a key.
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError('--otlp-header: expected NAME=VALUE with a header name before "="');
  const value = v.slice(eq + 1);
  if (/[\r\n\0]/.test(value)) throw new UsageError(`--otlp-header ${name}: the value has a line break`);
  return [name, value];
}

/** `argv` after the word `serve`. */
export function parseServeArgs(argv: readonly string[]): ServeOptions {
  const o: ServeOptions = {
    providersFile: '',
    queries: [],
    host: '127.0.0.1',
    port: 9464,
    intervalMs: 30_000,
    timeoutMs: 10_000,
    concurrency: 8,
    otlpHeaders: {},
  };
  if (argv.some((a) => a === '--help' || a === '-h')) return { ...o, help: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const value = (): string => {
      const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--providers') o.providersFile = value();
    else if (flag === '--queries') o.queries.push(value());
    else if (flag === '--listen') Object.assign(o, parseListen(value()));
    else if (flag === '--interval') {
      o.intervalMs = parseDuration(flag, value());
      if (o.intervalMs < 100) throw new UsageError('--interval: at least 100ms');
    } else if (flag === '--timeout') {
      o.timeoutMs = parseDuration(flag, value());
      if (o.timeoutMs < 100 || o.timeoutMs > 600_000) throw new UsageError('--timeout: from 100ms to 10m');
    } else if (flag === '--concurrency') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > 256) throw new UsageError('--concurrency needs a whole number from 1 to 256');
      o.concurrency = n;
    } else if (flag === '--otlp') o.otlp = parseOtlpUrl(value());
    else if (flag === '--otlp-header') {
      const [name, v] = parseOtlpHeader(value());
      o.otlpHeaders[name] = v;
    } else if (flag.startsWith('-')) throw new UsageError(`unknown option ${flag}.${didYouMean(flag, OPTIONS)}`);
    else throw new UsageError(`unexpected "${a}": query files go after --queries`);
  }
  if (!o.providersFile) throw new UsageError('--providers FILE is required');
  if (Object.keys(o.otlpHeaders).length > 0 && !o.otlp) throw new UsageError('--otlp-header needs --otlp URL');
  return o;
}
