// Running one operation against one provider: build the wire request from the catalogue entry,
// send it over the right transport, and read the answer into an Outcome (success or one clear
// error, with the request, status, latency and size kept for the result document).

import { EndpointError, isEndpointError } from '../base/errors';
import { fetchGenesis } from './genesis';
import { interpret } from '../documents/interpret';
import { JsonFormatter } from '../documents/jsonFormat';
import * as l10n from '../base/l10n';
import { type Args, type Operation, type WireRequest, validateArgs } from './operations';
import { type ExecuteOptions, type Outcome, RecordedOutcome, type RequestDescription, sendRecorded } from './outcome';
import { INTERFACE_LABELS, type Provider, joinUrl } from '../config/providers';
import { redactUrl } from '../secrets/redact';
import { wsExchange } from '../transport/wsCall';
import { cometSubscribe, jsonRpcRequest } from '../transport/jsonRpc';
import { errorMessage } from '../base/errors';

export type { ExecuteOptions, Outcome, RequestDescription } from './outcome';

/** Bytes kept free in front of a formatted body for the document's header (a longer one is copied in front). */
const HEADER_ROOM = 8 * 1024;

let lastId = 0;
/** JSON-RPC ids: integers, never reused within a session (always sent: no id = no reply). */
export function nextRequestId(): number {
  lastId = lastId >= Number.MAX_SAFE_INTEGER ? 1 : lastId + 1;
  return lastId;
}

export function endpointOf(provider: Provider, op: Operation): string {
  const base = provider.endpoints[op.iface];
  if (!base) {
    throw new EndpointError('input', l10n.both('Provider "{0}" has no {1} address.', provider.name, INTERFACE_LABELS[op.iface]));
  }
  return base;
}

/** The request an operation makes, exactly as it goes on the wire. Throws on invalid input. */
export function describeRequest(provider: Provider, op: Operation, args: Args, id = 1): RequestDescription {
  const invalid = validateArgs(op, args);
  if (invalid) throw new EndpointError('input', invalid);
  const base = endpointOf(provider, op);
  return describeWire(base, op.build(args), id);
}

function describeWire(base: string, wire: WireRequest, id: number): RequestDescription {
  switch (wire.kind) {
    case 'get': {
      let url = joinUrl(base, wire.path, wire.query);
      if (wire.rawQuery) url += (url.includes('?') ? '&' : '?') + wire.rawQuery;
      return { method: 'GET', url };
    }
    case 'post':
      return { method: 'POST', url: joinUrl(base, wire.path), body: JSON.stringify(wire.body) };
    case 'jsonrpc':
      return { method: 'POST', url: base, body: jsonRpcRequest(wire.method, wire.params, id) };
    case 'ws-call':
      return { method: 'WS', url: base, body: jsonRpcRequest(wire.method, wire.params, id) };
    case 'ws-subscribe':
      return { method: 'WS', url: base, body: cometSubscribe(wire.query, id), stream: true };
    case 'genesis':
      return { method: 'GET', url: joinUrl(base, '/genesis') };
  }
}

/** Runs one operation. Never throws: every failure is in `outcome.error`. */
export async function execute(provider: Provider, op: Operation, args: Args, options: ExecuteOptions): Promise<Outcome> {
  const startedAt = new Date();
  const outcome = new RecordedOutcome(op, provider.name, args, startedAt);
  try {
    const invalid = validateArgs(op, args);
    if (invalid) throw new EndpointError('input', invalid);
    const base = endpointOf(provider, op);
    const wire = op.build(args);
    const id = nextRequestId();
    outcome.request = describeWire(base, wire, id);
    if (wire.kind === 'genesis') {
      await fetchGenesis(base, options, outcome);
    } else if (wire.kind === 'ws-call' || wire.kind === 'ws-subscribe') {
      await runWebSocket(wire, id, options, outcome);
    } else {
      await runHttp(wire.kind === 'get' || wire.kind === 'post' ? 'rest' : 'jsonrpc', options, outcome);
    }
    if (!outcome.error && op.decodeResult && outcome.head === undefined && outcome.result !== undefined) {
      outcome.result = op.decodeResult(outcome.result, args);
    }
    // A summary is a line about a small answer; one not held whole (over 4 MiB) is not parsed for it.
    if (!outcome.error && op.summarize && outcome.head === undefined && outcome.result !== undefined) {
      outcome.summary = op.summarize(outcome.result);
    }
    if (!outcome.error && op.nullSummary && outcome.head === undefined && outcome.resultIsNull()) {
      outcome.summary = op.nullSummary();
    }
    if (!outcome.error && op.nextPage && outcome.head === undefined && outcome.result !== undefined) {
      outcome.nextPage = op.nextPage(args, outcome.result);
    }
  } catch (err) {
    outcome.error = isEndpointError(err) ? err : new EndpointError('protocol', l10n.both('Unexpected failure: {0}.', errorMessage(err)));
  }
  outcome.elapsedMs = outcome.elapsedMs || Date.now() - startedAt.getTime();
  return outcome;
}

async function runHttp(dialect: 'rest' | 'jsonrpc', options: ExecuteOptions, outcome: RecordedOutcome): Promise<void> {
  const { request } = outcome;
  // The document's text is formatted while the answer arrives, with room left for its header.
  const formatter = options.formatWhileReceiving === false ? undefined : new JsonFormatter({ reserve: HEADER_ROOM });
  const res = await sendRecorded(options, outcome, {
    method: request.method === 'POST' ? 'POST' : 'GET',
    url: request.url,
    body: request.body,
    digest: formatter,
  });
  const height = res.headers['x-cosmos-block-height'];
  if (height) outcome.notes.push(`x-cosmos-block-height: ${height}`); // a header, as received
  if (res.file) {
    if (res.status < 200 || res.status >= 300) {
      outcome.error = new EndpointError(
        'http',
        l10n.both('HTTP {0} from {1} with a very large body (saved to a file).', String(res.status), redactUrl(request.url)),
        {
          status: res.status,
        },
      );
    }
    return;
  }
  // The CometBFT URI form (GET on consensusHttp) answers JSON-RPC envelopes too.
  const isCometGet = dialect === 'rest' && outcome.operation.iface === 'consensusHttp';
  const formatted = formatter && res.digested ? formatter.end() : undefined;
  const read = interpret(res, isCometGet ? 'jsonrpc' : dialect, request.url, formatted);
  outcome.formatted = formatted;
  outcome.error = read.error;
  // Parsed when first read (a summary, the API): the document itself needs only the formatted text.
  outcome.readResultFrom(read);
}

async function runWebSocket(
  wire: Extract<WireRequest, { kind: 'ws-call' | 'ws-subscribe' }>,
  id: number,
  options: ExecuteOptions,
  outcome: Outcome,
): Promise<void> {
  const exchange = await wsExchange(outcome.request.url, {
    message: outcome.request.body!,
    id,
    collect: wire.kind === 'ws-subscribe' ? wire.count : 0,
    unsubscribe: wire.kind === 'ws-subscribe' ? jsonRpcRequest('unsubscribe_all', {}, nextRequestId()) : undefined,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    headers: options.headers,
    maxMessageBytes: options.maxDownloadBytes,
  });
  outcome.elapsedMs = exchange.elapsedMs;
  if (exchange.connectMs !== undefined) outcome.connectMs = exchange.connectMs;
  outcome.bytes = exchange.bytes;
  outcome.body = Buffer.from(`[${exchange.messages.join(',')}]`);
  outcome.result = exchange.result;
  outcome.error = exchange.error;
  outcome.notes.push(l10n.t('{0} message(s) received over the socket', exchange.messages.length));
}
