// The exporter's HTTP endpoints: GET /metrics (the last rendered text: never waits on the
// network), /probe?target=<provider>&module=<interface> (blackbox_exporter's multi-target shape: one
// probe now, within the scrape's timeout, a few at once) and /-/healthy. Nothing a client sends is
// echoed back; only GET and HEAD are served, and a request with a body is refused without reading
// it. Slow or stalled clients are bounded: headers within 10 s, the whole request within 15 s, a
// connection idle for 30 s (a client that stops reading its answer) closed, at most
// MAX_CONNECTIONS open; every /metrics answer is the one buffer encoded per rendering, so a
// thousand slow readers hold no copy of it.

import http = require('node:http');
import { INTERFACES, type InterfaceId } from '../config/providers';
import { EXPOSITION_CONTENT_TYPE, type Exporter } from './exporter';

/** A /probe waits at most this long (less when Prometheus' scrape timeout header says so). */
export const PROBE_MAX_MS = 10_000;

/** Connections open at once; past them a new one is closed at once (file descriptors stay for the probes). */
export const MAX_CONNECTIONS = 512;

/** The path and query of a request target: origin form (`/metrics?x`) or absolute form; `//x` is a path, not a host. */
function targetOf(raw: string): URL {
  return raw.startsWith('/') ? new URL(`http://exporter${raw}`) : new URL(raw);
}

export function createExporterServer(exporter: Pick<Exporter, 'metricsBody' | 'probeNow'>): http.Server {
  const server = http.createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    const send = (status: number, body: string | Buffer, type = 'text/plain; charset=utf-8', close = false) => {
      const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      res.writeHead(status, {
        'Content-Type': type,
        'Content-Length': bytes.length,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        ...(close ? { Connection: 'close' } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : bytes);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(405, 'only GET and HEAD\n', undefined, true);
    }
    // A body is never read: refused, and the connection closed rather than drained.
    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0'))
      return send(413, 'a request body is not accepted\n', undefined, true);
    let url: URL;
    try {
      url = targetOf(req.url ?? '/');
    } catch {
      return send(400, 'bad request\n', undefined, true);
    }
    if (url.pathname === '/metrics') return send(200, exporter.metricsBody(), EXPOSITION_CONTENT_TYPE);
    if (url.pathname === '/-/healthy') return send(200, 'Healthy\n');
    if (url.pathname === '/') return send(200, 'chain-endpoints exporter: /metrics, /probe?target=<provider>&module=<interface>, /-/healthy\n');
    if (url.pathname !== '/probe') return send(404, 'not found\n');
    const target = url.searchParams.get('target');
    const module = url.searchParams.get('module');
    if (!target) return send(400, 'target parameter is missing\n');
    if (!module || !(INTERFACES as readonly string[]).includes(module)) return send(400, `module must be one of ${INTERFACES.join(', ')}\n`);
    const header = Number(req.headers['x-prometheus-scrape-timeout-seconds']);
    const timeoutMs = Math.max(100, Math.min(PROBE_MAX_MS, Number.isFinite(header) && header > 0 ? header * 1000 - 500 : PROBE_MAX_MS));
    // The scrape gave up (its timeout, Prometheus stopping): the probe is not kept running for nobody.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    exporter.probeNow(target, module as InterfaceId, timeoutMs, gone.signal).then(
      (text) => {
        if (gone.signal.aborted) return;
        if (text === 'unknown') send(400, 'no such target: name a configured provider and one of its interfaces\n');
        else if (text === 'busy') send(503, 'too many probes at once; try again\n');
        else send(200, text, EXPOSITION_CONTENT_TYPE);
      },
      () => {
        if (!gone.signal.aborted) send(500, 'probe failed\n');
      },
    );
  });
  server.requestTimeout = 15_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  // A connection with nothing sent or read for this long (a client that stopped reading) is closed.
  server.timeout = 30_000;
  server.maxHeadersCount = 50;
  server.maxConnections = MAX_CONNECTIONS;
  return server;
}
