// The text of a result document: a `//` comment header (what was asked, of whom, what came
// back, how fast, how big), then the body pretty-printed with its literals intact. Failures lead
// with one sentence, and the rest still parses as JSON. Rendered as bytes: what the editor reads.

import { bodyPreview } from '../base/errors';
import { type AnswerRecord, NEXT_PAGE_PREFIX } from './answer';
import { formatBytes } from '../base/numbers';
import { type FormattedJson, JsonFormatter } from './jsonFormat';
import { INTERFACE_LABELS } from '../config/providers';
import { redactUrl } from '../secrets/redact';
import { statusLine } from '../transport/jsonRpc';

const MAX_BODY_IN_HEADER = 2048;

/** The header: `//` lines, each ending with a newline (built as one string: it is on every request's path). */
export function renderHeader(o: AnswerRecord): string {
  let text = '';
  if (o.error) text += line(`ERROR: ${o.error.shown}`);
  text += line(`${INTERFACE_LABELS[o.operation.iface]} · ${o.operation.label} · ${o.providerName}`);
  if (o.request.url) text += line(`${o.request.method} ${redactUrl(o.request.url)}`);
  if (o.request.body !== undefined) {
    const body =
      o.request.body.length > MAX_BODY_IN_HEADER ? `${o.request.body.slice(0, MAX_BODY_IN_HEADER)}… (${o.request.body.length} chars)` : o.request.body;
    text += line(`request: ${body}`);
  }
  let facts = o.status !== undefined ? `${statusLine(o.status)} · ` : '';
  if (o.elapsedMs) facts += `${Math.round(o.elapsedMs)} ms · `;
  text += line(`${facts}${formatBytes(o.bytes)} · ${o.startedAt.toISOString()}`);
  if (o.summary) text += line(`result: ${o.summary}`);
  for (const note of o.notes) text += line(note);
  return text;
}

/** One header line: a comment, line breaks inside it turned into spaces. */
function line(text: string): string {
  return text.includes('\n') || text.includes('\r') ? `// ${text.replace(/[\r\n]+/g, ' ')}\n` : `// ${text}\n`;
}

/**
 * The document as the editor gets it (UTF-8 bytes): the header, then the body pretty-printed when
 * it is JSON, otherwise a JSON object describing it. A body formatted as it arrived
 * (`outcome.formatted`) gets its header written into the room left in front of it: a large
 * document is never copied.
 */
export function renderDocumentBytes(o: AnswerRecord): Buffer {
  const header = renderHeader(o);
  // An empty body, or only whitespace, is not JSON either: it is described below.
  const formatted = o.formatted ?? (o.body !== undefined && o.body.length > 0 ? JsonFormatter.format(o.body, { reserve: 4096 }) : undefined);
  if (formatted) {
    const doc = withHeader(header, formatted);
    return o.nextPage ? Buffer.concat([doc, Buffer.from(nextPageLine(o), 'utf8')]) : doc;
  }
  return Buffer.from(`${header}${describeBody(o)}\n`, 'utf8');
}

/** The footer of a paged answer with more: the next page's request, as JSON on one comment line. */
export function nextPageLine(o: AnswerRecord): string {
  return `${NEXT_PAGE_PREFIX}${JSON.stringify({ operation: o.operation.id, ...o.nextPage })}\n`;
}

export function renderDocument(o: AnswerRecord): string {
  return renderDocumentBytes(o).toString('utf8');
}

function withHeader(header: string, f: FormattedJson): Buffer {
  const size = Buffer.byteLength(header, 'utf8');
  const buf = f.buffer;
  if (size > f.start || f.end >= buf.length) {
    return Buffer.concat([Buffer.from(header, 'utf8'), buf.subarray(f.start, f.end), Buffer.from('\n')]);
  }
  buf.write(header, f.start - size, 'utf8');
  buf[f.end] = 0x0a;
  return buf.subarray(f.start - size, f.end + 1);
}

/** A body that is not JSON (or is missing), described as a JSON object. */
function describeBody(o: AnswerRecord): string {
  const sample = o.body ?? o.head;
  const raw = sample?.toString('utf8') ?? '';
  const described: Record<string, unknown> = {};
  if (o.error) described.error = o.error.shown;
  if (o.error?.detail.code !== undefined) described.code = o.error.detail.code;
  if (o.error?.detail.data !== undefined) described.data = o.error.detail.data;
  if (o.status !== undefined) described.status = o.status;
  if (o.error?.detail.contentType) described.contentType = o.error.detail.contentType;
  if (o.error?.detail.retryAfter) described.retryAfter = o.error.detail.retryAfter;
  if (raw.trim() !== '') described.bodyPreview = bodyPreview(sample, 1024);
  else if (sample !== undefined) described.body = '';
  if (o.file) described.file = o.file;
  return JSON.stringify(described, null, 2);
}

/** The document text without its header: what a test compares with the served body. */
export function stripHeader(text: string): string {
  return text.replace(/^(\/\/[^\n]*\n)+/, '');
}
