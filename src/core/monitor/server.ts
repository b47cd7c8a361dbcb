// The exporter's HTTP endpoints: GET /metrics (the last rendered text: never waits on the
// network), /probe?target=<provider>&module=<interface> (blackbox_exporter's multi-target shape: one
// probe now, within the scrape's timeout, a few at once) and /-/healthy. Nothing a client sends is
// echoed back; only GET and HEAD are served.

import http = require('node:http');
import { INTERFACES, type InterfaceId } from '../config/providers';
import { EXPOSITION_CONTENT_TYPE, type Exporter } from './exporter';

/** A /probe waits at most this long (less when Prometheus' scrape timeout header says so). */
export const PROBE_MAX_MS = 10_000;

export function createExporterServer(exporter: Exporter): http.Server {
  const server = http.createServer((req, res) => {
    const send = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(405, 'only GET and HEAD\n');
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://exporter');
    } catch {
      return send(400, 'bad request\n');
    }
    if (url.pathname === '/metrics') return send(200, exporter.metrics(), EXPOSITION_CONTENT_TYPE);
    if (url.pathname === '/-/healthy') return send(200, 'Healthy\n');
    if (url.pathname === '/') return send(200, 'chain-endpoints exporter: /metrics, /probe?target=<provider>&module=<interface>, /-/healthy\n');
    if (url.pathname !== '/probe') return send(404, 'not found\n');
    const target = url.searchParams.get('target');
    const module = url.searchParams.get('module');
    if (!target) return send(400, 'target parameter is missing\n');
    if (!module || !(INTERFACES as readonly string[]).includes(module)) return send(400, `module must be one of ${INTERFACES.join(', ')}\n`);
    const header = Number(req.headers['x-prometheus-scrape-timeout-seconds']);
    const timeoutMs = Math.max(100, Math.min(PROBE_MAX_MS, Number.isFinite(header) && header > 0 ? header * 1000 - 500 : PROBE_MAX_MS));
    exporter.probeNow(target, module as InterfaceId, timeoutMs).then(
      (text) => {
        if (text === 'unknown') send(400, 'no such target: name a configured provider and one of its interfaces\n');
        else if (text === 'busy') send(503, 'too many probes at once; try again\n');
        else send(200, text, EXPOSITION_CONTENT_TYPE);
      },
      () => send(500, 'probe failed\n'),
    );
  });
  server.requestTimeout = 15_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 50;
  return server;
}
