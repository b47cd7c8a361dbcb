// The text of a result document: a `//` comment header (what was asked, of whom, what came
// back, how fast, how big), then the body pretty-printed with its literals intact. Failures lead
// with one sentence, and the rest still parses as JSON.

import { bodyPreview } from './errors';
import type { Outcome } from './execute';
import { formatBytes } from './http';
import { formatJsonBytes } from './jsonFormat';
import { INTERFACE_LABELS, redactUrl } from './providers';
import { statusLine } from './interpret';

const MAX_BODY_IN_HEADER = 2048;

export function renderHeader(o: Outcome): string[] {
  const lines: string[] = [];
  if (o.error) lines.push(`ERROR: ${o.error.message}`);
  lines.push(`${INTERFACE_LABELS[o.operation.iface]} · ${o.operation.label} · ${o.providerName}`);
  if (o.request.url) lines.push(`${o.request.method} ${redactUrl(o.request.url)}`);
  if (o.request.body !== undefined) {
    const body = o.request.body.length > MAX_BODY_IN_HEADER ? `${o.request.body.slice(0, MAX_BODY_IN_HEADER)}… (${o.request.body.length} chars)` : o.request.body;
    lines.push(`request: ${body}`);
  }
  const facts = [
    o.status !== undefined ? statusLine(o.status) : undefined,
    o.elapsedMs ? `${Math.round(o.elapsedMs)} ms` : undefined,
    `${formatBytes(o.bytes)}`,
    o.startedAt.toISOString(),
  ].filter(Boolean);
  lines.push(facts.join(' · '));
  if (o.summary) lines.push(`result: ${o.summary}`);
  for (const note of o.notes) lines.push(note);
  return lines.map((l) => `// ${l.replace(/[\r\n]+/g, ' ')}`);
}

/** The body, pretty-printed when it is JSON; otherwise a JSON object describing it. */
export function renderBody(o: Outcome): string {
  // Formatted straight from the bytes (no decoded copy of a large body); a body that is empty or
  // only whitespace is not JSON either, so it is described below as before.
  if (o.body !== undefined && o.body.length > 0) {
    try {
      return formatJsonBytes(o.body);
    } catch {
      // not JSON: described below
    }
  }
  const raw = o.body?.toString('utf8') ?? '';
  const described: Record<string, unknown> = {};
  if (o.error) described.error = o.error.message;
  if (o.error?.detail.code !== undefined) described.code = o.error.detail.code;
  if (o.error?.detail.data !== undefined) described.data = o.error.detail.data;
  if (o.status !== undefined) described.status = o.status;
  if (o.error?.detail.contentType) described.contentType = o.error.detail.contentType;
  if (o.error?.detail.retryAfter) described.retryAfter = o.error.detail.retryAfter;
  if (raw.trim() !== '') described.bodyPreview = bodyPreview(o.body, 1024);
  else if (o.body !== undefined) described.body = '';
  if (o.file) described.file = o.file;
  return JSON.stringify(described, null, 2);
}

export function renderDocument(o: Outcome): string {
  return `${renderHeader(o).join('\n')}\n${renderBody(o)}\n`;
}

/** The document text without its header: what a test compares with the served body. */
export function stripHeader(text: string): string {
  return text.replace(/^(\/\/[^\n]*\n)+/, '');
}
