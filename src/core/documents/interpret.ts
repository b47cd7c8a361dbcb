// Reading an answer: turns an HTTP response into a parsed result or one clear EndpointError,
// covering every error shape of docs/protocols.md (JSON-RPC errors in 200s and 500s, REST gRPC-style
// bodies, HTML error pages, 429 with Retry-After, empty or garbage bodies).

import { EndpointError, bodyPreview } from '../base/errors';
import { parseDecimalHeight } from '../base/limits';
import { type HttpResponse } from '../transport/http';
import type { FormattedJson } from './jsonFormat';
import * as l10n from '../base/l10n';
import { redactUrl } from '../secrets/redact';
import { MAX_SERVER_TEXT, clean, endSentence, isObject } from '../base/text';
import { describeRetryAfter, notJsonRpc, rpcErrorOf, statusLine } from '../transport/jsonRpc';

export type Dialect = 'jsonrpc' | 'rest';

export interface Interpreted {
  /** The whole parsed body (undefined when not JSON, not buffered, or read from `formatted`). */
  json?: unknown;
  /** For JSON-RPC: the `result` member. For REST: the body. Parsed on first use from `formatted`. */
  readonly result?: unknown;
  /** Whether `result` is JSON null, told without parsing it (from its text in `formatted`). */
  resultIsNull?(): boolean;
  error?: EndpointError;
}

/** What the reading needs of a JSON body: its top-level members, and the whole value. */
interface JsonView {
  object: boolean;
  has(key: string): boolean;
  get(key: string): unknown;
  /** Whether the member `key` is JSON null (parsing nothing when the view has its text). */
  isNull(key: string): boolean;
  value(): unknown;
}

function parsedView(json: unknown): JsonView {
  const object = isObject(json);
  return {
    object,
    has: (key) => object && key in json,
    get: (key) => (object ? json[key] : undefined),
    isNull: (key) => object && json[key] === null,
    value: () => json,
  };
}

/**
 * A view of formatted JSON that parses only when asked, once: from the raw body when it is held
 * (compact, so faster to parse), else each member from its span in the formatted text.
 */
function formattedView(f: FormattedJson, raw: Buffer | undefined): JsonView {
  let spans: Map<string, { start: number; end: number }> | undefined;
  const member = (key: string) => {
    // Later duplicates win, as with JSON.parse.
    spans ??= new Map(f.members.map((m) => [keyText(m.key), m]));
    return spans.get(key);
  };
  const parse = (bytes: Buffer, start: number, end: number) => JSON.parse(bytes.toString('utf8', start, end)) as unknown;
  let whole: { v: unknown } | undefined;
  const value = () => (whole ??= { v: raw ? parse(raw, 0, raw.length) : parse(f.buffer, f.start, f.end) }).v;
  const parsed = new Map<string, unknown>();
  return {
    object: f.top === 'object',
    has: (key) => member(key) !== undefined,
    get: (key) => {
      const span = member(key);
      if (!span) return undefined;
      if (raw || whole) return (value() as Record<string, unknown>)[key];
      if (!parsed.has(key)) parsed.set(key, parse(f.buffer, span.start, span.end));
      return parsed.get(key);
    },
    // The formatter writes a literal as sent and a member's span is its value alone: null is those 4 bytes.
    isNull: (key) => {
      const span = member(key);
      return span !== undefined && span.end - span.start === 4 && f.buffer.toString('latin1', span.start, span.end) === 'null';
    },
    value,
  };
}

/** A key as sent (quotes included) as text: most have no escapes to decode. */
function keyText(literal: string): string {
  return literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
}

/**
 * Interprets a response to a request to `url` (redacted in messages). A body that went to a
 * digest (`res.digested`) is JSON when `formatted` is given, and read from it: no second parse,
 * and the result is parsed only when someone asks for it.
 */
export function interpret(res: HttpResponse, dialect: Dialect, url: string, formatted?: FormattedJson): Interpreted {
  // The common case first: a 2xx JSON body held whole, read with one parse and no more (no view, no
  // closures: thousands of answers a second in a query file). Anything else goes to the full reading.
  let early: { json: unknown } | 'not JSON' | undefined;
  if (!res.digested && res.body && res.status >= 200 && res.status < 300) {
    try {
      early = { json: JSON.parse(res.body.toString('utf8')) };
    } catch {
      early = 'not JSON'; // not parsed twice: the full reading says what it is
    }
    if (early !== 'not JSON') {
      const json = early.json;
      if (dialect === 'rest') return { json, result: json };
      if (isObject(json) && !isObject(json.error) && 'result' in json) return { json, result: json.result };
    }
  }
  return interpretFully(res, dialect, url, formatted, early);
}

function interpretFully(
  res: HttpResponse,
  dialect: Dialect,
  url: string,
  formatted: FormattedJson | undefined,
  early: { json: unknown } | 'not JSON' | undefined,
): Interpreted {
  // Only failures name the address (redactUrl remembers recent addresses).
  const where = () => redactUrl(url);
  // The bytes for previews and sniffing: the whole body, or its first bytes when not held whole.
  const body = res.body ?? res.head ?? Buffer.alloc(0);
  const contentType = res.headers['content-type'];
  const retryAfter = res.headers['retry-after'];
  const base = { status: res.status, contentType, retryAfter };
  // A rate limit or an outage can come with any error body: its Retry-After is always shown.
  const wait = retryAfter && res.status >= 400 ? ' ' + l10n.t('Retry after {0}.', describeRetryAfter(retryAfter)) : '';
  let decoded: string | undefined;
  const text = () => (decoded ??= body.toString('utf8'));
  const blank = body.length === res.bytes && isBlank(body, text);
  let view: JsonView | undefined;
  let json: unknown;
  if (res.digested) {
    view = formatted && formattedView(formatted, res.body);
  } else if (typeof early === 'object') {
    json = early.json;
    view = parsedView(json);
  } else if (!blank && early !== 'not JSON') {
    try {
      json = JSON.parse(text());
      view = parsedView(json);
    } catch {
      view = undefined;
    }
  }
  const parsed = view !== undefined;

  // JSON-RPC errors come with 200 (POST, EVM) or 500 (CometBFT URI form): read them first.
  const rpcError = parsed && dialect === 'jsonrpc' && view!.object ? view!.get('error') : undefined;
  if (isObject(rpcError)) return { json, error: rpcErrorOf(rpcError, res.status, base, wait) };
  const restMessage = parsed && dialect === 'rest' && res.status >= 300 && view!.object ? view!.get('message') : undefined;
  if (typeof restMessage === 'string') {
    const restCode = view!.get('code');
    const code = typeof restCode === 'number' ? restCode : undefined;
    const message = clean(restMessage, MAX_SERVER_TEXT) || l10n.t('no message');
    const sentence =
      code !== undefined
        ? l10n.t('REST error from {0}: {1}, gRPC code {2}: {3}', where(), statusLine(res.status), code, message)
        : l10n.t('REST error from {0}: {1}: {2}', where(), statusLine(res.status), message);
    return { json, error: new EndpointError('rest', endSentence(sentence) + wait, { ...base, code }) };
  }
  if (res.status === 429) {
    return {
      json: parsed ? json : undefined,
      error: new EndpointError('http', l10n.join(l10n.both('{0} from {1}: the provider is rate-limiting requests.', statusLine(429), where()), wait), {
        ...base,
        bodyPreview: bodyPreview(body),
      }),
    };
  }
  if (res.status < 200 || res.status >= 300) {
    const line = statusLine(res.status);
    let sentence = l10n.t('{0} from {1}', line, where());
    if (res.status >= 300 && res.status < 400) {
      sentence = l10n.t('{0} from {1} (a redirect to {2}, not followed)', line, where(), clean(res.headers.location ?? '?', 200));
    } else if (/html/i.test(contentType ?? '') || /^\s*<(!doctype|html)/i.test(text())) {
      sentence = l10n.t('{0} from {1}: the server answered with an HTML page', line, where());
    } else if (looksBinary(body)) {
      sentence = l10n.t('{0} from {1}: {2}', line, where(), describeBinary(body, contentType));
    } else if (!blank) {
      sentence = l10n.t('{0} from {1}: {2}', line, where(), clean(bodyPreview(body, 200), 200));
    }
    return {
      json: parsed ? json : undefined,
      error: new EndpointError('http', `${endSentence(sentence)}${wait}`, {
        ...base,
        bodyPreview: bodyPreview(body),
      }),
    };
  }
  if (blank) {
    return { error: new EndpointError('parse', l10n.both('{0} from {1} with an empty body.', statusLine(res.status), where()), base) };
  }
  if (!parsed) {
    const line = statusLine(res.status);
    const sentence =
      /html/i.test(contentType ?? '') || /^\s*</.test(text())
        ? l10n.t('{0} from {1}, but the body is an HTML page, not JSON.', line, where())
        : looksBinary(body)
          ? l10n.t('{0} from {1}, but the body is not JSON: {2}.', line, where(), describeBinary(body, contentType))
          : l10n.t('{0} from {1}, but the body is not JSON: "{2}".', line, where(), clean(bodyPreview(body, 80), 80));
    return {
      error: new EndpointError('parse', sentence, {
        ...base,
        bodyPreview: bodyPreview(body),
      }),
    };
  }
  const v = view!;
  if (dialect === 'jsonrpc') {
    if (!v.object || !v.has('result')) {
      return {
        json,
        error: new EndpointError('protocol', notJsonRpc(where()), base),
      };
    }
    return {
      json,
      get result() {
        return v.get('result');
      },
      resultIsNull: () => v.isNull('result'),
    };
  }
  return {
    json,
    get result() {
      return v.value();
    },
  };
}

/** The height, block time and chain-id of a CometBFT `status` result; undefined without a height. */
export function readCometStatus(result: unknown): { height: bigint; time?: string; chainId?: string } | undefined {
  const sync = isObject(result) && isObject(result.sync_info) ? result.sync_info : undefined;
  const node = isObject(result) && isObject(result.node_info) ? result.node_info : undefined;
  const height = parseDecimalHeight(sync?.latest_block_height); // int64 or not a height
  if (height === undefined) return undefined;
  return {
    height,
    time: typeof sync?.latest_block_time === 'string' ? sync.latest_block_time : undefined,
    chainId: typeof node?.network === 'string' ? node.network : undefined,
  };
}

/** Empty, or only whitespace (as String#trim sees it: ASCII bytes are checked without decoding). */
function isBlank(body: Buffer, text: () => string): boolean {
  for (const b of body) {
    if (b >= 0x80) return text().trim() === '';
    if (b !== 0x20 && (b < 0x09 || b > 0x0d)) return false;
  }
  return true;
}

/** NUL bytes, or many bytes that are not UTF-8 text: a preview would be noise. */
function looksBinary(body: Buffer): boolean {
  const head = body.subarray(0, 512);
  if (head.includes(0)) return true;
  const text = head.toString('utf8');
  const bad = (text.match(/[\uFFFD\u0000-\u0008\u000E-\u001F\u007F-\u009F]/g) ?? []).length;
  return bad > 0 && bad * 10 >= text.length;
}

function describeBinary(body: Buffer, contentType: string | undefined): string {
  return contentType ? l10n.t('{0} bytes of binary data ({1})', body.length, clean(contentType, 60)) : l10n.t('{0} bytes of binary data', body.length);
}
