// `chain-endpoints serve --otlp <url>` (docs/monitoring.md): the same metrics pushed to an
// OpenTelemetry collector over OTLP/HTTP (JSON) through the OpenTelemetry JS SDK, loaded only here
// and only when --otlp is given (import() below: the SDK is never evaluated otherwise, and the
// extension never reaches this file). The gauges and counters are read from the exporter's registry
// when the SDK collects (observable instruments: nothing new is measured, nothing waits on the
// network); the request histogram is recorded as OpenTelemetry's RPC client metric,
// rpc.client.call.duration in seconds with rpc.system (jsonrpc or http), rpc.method and
// server.address (a host name: never a path, query or credentials), plus network, provider and
// interface. A push runs on the exporter's interval with a timeout (never longer than the
// interval), at most two at once; a failing collector is logged by host, on the change only, and
// tried again at the next interval. stop() flushes within a bound.

import type { Attributes } from '@opentelemetry/api';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { DURATION_BUCKETS, type Exporter, type RequestObservation, hostOf } from './exporter';

export interface OtlpOptions {
  /** The checked URL (serveArgs.parseOtlpUrl): http(s), no credentials. */
  readonly url: string;
  /** Sent with each push; never logged. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly intervalMs: number;
  /** Per push (at most the interval). */
  readonly timeoutMs: number;
  readonly log: (line: string) => void;
  readonly serviceVersion?: string;
}

export interface OtlpPush {
  /** Records a probe request in the RPC histogram (in memory; the push sends it later). */
  record(r: RequestObservation): void;
  /** Pushes what is left and stops, within `boundMs` whatever the collector does. */
  stop(boundMs: number): Promise<void>;
}

/** Why a push failed, from a closed set (an error's message may quote the URL: never logged). */
export function failureReason(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; name?: unknown } | undefined;
  if (typeof e?.code === 'number' && e.code >= 100 && e.code < 600) return `HTTP ${e.code}`;
  if (typeof e?.code === 'string' && /^E[A-Z_]+$/.test(e.code)) return e.code;
  const message = typeof e?.message === 'string' ? e.message : '';
  if (/timeout|timed out/i.test(message) || e?.name === 'TimeoutError') return 'timeout';
  if (/concurrent export limit/i.test(message)) return 'the previous pushes are still waiting';
  if (/ECONNREFUSED/.test(message)) return 'ECONNREFUSED';
  return 'failed';
}

/** Starts pushing `exporter`'s metrics to the collector at `options.url`. */
export async function startOtlpPush(exporter: Exporter, options: OtlpOptions): Promise<OtlpPush> {
  const [{ MeterProvider, PeriodicExportingMetricReader }, { OTLPMetricExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const host = hostOf(options.url);
  const interval = Math.max(100, options.intervalMs);
  const timeout = Math.max(50, Math.min(options.timeoutMs, interval));
  const otlp = new OTLPMetricExporter({ url: options.url, headers: { ...options.headers }, timeoutMillis: timeout, concurrencyLimit: 2 });
  let failing: string | undefined;
  // The SDK's exporter, wrapped to log a failing collector (host and a closed-set reason only).
  const pushing: PushMetricExporter = {
    export: (metrics, done) =>
      otlp.export(metrics, (result) => {
        if (result.code !== 0) {
          const reason = failureReason(result.error);
          if (failing !== reason) options.log(`OTLP push to ${host} failed (${reason}); trying again every ${interval} ms`);
          failing = reason;
        } else if (failing !== undefined) {
          options.log(`OTLP push to ${host} works again`);
          failing = undefined;
        }
        done(result);
      }),
    forceFlush: () => otlp.forceFlush(),
    shutdown: () => otlp.shutdown(),
    selectAggregationTemporality: (t) => otlp.selectAggregationTemporality(t),
  };
  const reader = new PeriodicExportingMetricReader({ exporter: pushing, exportIntervalMillis: interval, exportTimeoutMillis: timeout });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({
      'service.name': 'chain-endpoints-exporter',
      ...(options.serviceVersion ? { 'service.version': options.serviceVersion } : {}),
    }),
    readers: [reader],
  });
  const meter = provider.getMeter('chain-endpoints', options.serviceVersion);

  // Every family of the registry but the request histogram, as an observable read at collection.
  for (const family of exporter.registry.all()) {
    if (family.type === 'histogram') continue;
    const instrument =
      family.type === 'counter'
        ? meter.createObservableCounter(family.name, { description: family.help })
        : meter.createObservableGauge(family.name, { description: family.help, unit: family.name.endsWith('_seconds') ? 's' : undefined });
    instrument.addCallback((result) => {
      for (const { labels, value } of family.values()) if (Number.isFinite(value)) result.observe(value, labels as Attributes);
    });
  }
  const histogram = meter.createHistogram('rpc.client.call.duration', {
    description: 'Duration of the requests the health probes send (OpenTelemetry RPC semantic conventions).',
    unit: 's',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });

  return {
    record: (r) => {
      const attributes: Attributes = {
        'rpc.system': r.system,
        'rpc.system.name': r.system,
        'rpc.method': r.method,
        network: r.network,
        provider: r.provider,
        interface: r.interface,
      };
      if (r.host) attributes['server.address'] = r.host;
      if (r.port) attributes['server.port'] = r.port;
      histogram.record(r.seconds, attributes);
    },
    stop: async (boundMs) => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        provider.shutdown({ timeoutMillis: boundMs }).catch(() => undefined),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs))),
      ]);
      clearTimeout(timer);
    },
  };
}
