// What one request produced (the Outcome, an AnswerRecord of documents/answer.ts with its operation), the options every request runs with, and the one
// place that sends an HTTP request and records its facts on the Outcome.

import { type Http, type HttpRequest, type HttpResponse } from '../transport/http';
import type { AnswerRecord, RequestDescription } from '../documents/answer';
export type { RequestDescription } from '../documents/answer';
import { EndpointError, LocalizedError, errorMessage, isEndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import type { FormattedJson } from '../documents/jsonFormat';
import type { Args, Operation } from './operations';

export interface ExecuteOptions {
  http: Http;
  timeoutMs: number;
  maxBufferBytes: number;
  /** The most one answer (a genesis: all its chunks) may cost; default 1 GiB (chainEndpoints.maxDownloadMegabytes). */
  maxDownloadBytes?: number;
  /** Where bodies too large for memory, and reassembled genesis files, are written (none: such a body is an error). */
  spillDir?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  onProgress?: (message: string) => void;
  /**
   * false: the body is not formatted for a document while it arrives (the query files' CLI, which
   * shows no document; renderDocument() still formats it on demand). Default true.
   */
  formatWhileReceiving?: boolean;
}

/** What one request produced, with the operation of the catalogue that made it. */
export interface Outcome extends AnswerRecord {
  operation: Operation;
  args: Args;
}

/** Where a result is read from on first use; `resultIsNull` answers without that read. */
export interface ResultSource {
  readonly result?: unknown;
  resultIsNull?(): boolean;
}

/**
 * The Outcome execute() builds. Its result may be read from the answer on first use
 * (`readResultFrom`): a large answer's document needs only its formatted text, never a parse.
 * (A class accessor: defining one on a plain object would turn it into a slow dictionary.)
 */
export class RecordedOutcome implements Outcome {
  request: RequestDescription = { method: 'GET', url: '' };
  status?: number;
  elapsedMs = 0;
  connectMs?: number;
  bytes = 0;
  body?: Buffer;
  head?: Buffer;
  formatted?: FormattedJson;
  file?: string;
  error?: EndpointError;
  summary?: string;
  notes: string[] = [];
  nextPage?: Args;
  private source?: ResultSource;
  private value?: unknown;

  constructor(
    readonly operation: Operation,
    readonly providerName: string,
    readonly args: Args,
    readonly startedAt: Date,
  ) {}

  get result(): unknown {
    return this.source ? this.source.result : this.value;
  }

  set result(value: unknown) {
    this.source = undefined;
    this.value = value;
  }

  readResultFrom(source: ResultSource): void {
    this.source = source;
  }

  /** Whether the result is JSON null, without parsing it when its source can tell from the text. */
  resultIsNull(): boolean {
    return this.source?.resultIsNull ? this.source.resultIsNull() : this.result === null;
  }
}

type RequestCore = Pick<HttpRequest, 'method' | 'url' | 'body'> & Partial<HttpRequest>;

/** A request with the options' headers, deadline, cancellation and size limits (`req` may override them). */
export function requestWith(options: ExecuteOptions, req: RequestCore): HttpRequest {
  return {
    headers: options.headers,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    maxBufferBytes: options.maxBufferBytes,
    maxBytes: options.maxDownloadBytes,
    spillDir: options.spillDir,
    ...req,
  };
}

/** Sends `req` (see requestWith) and records status, latency, size and body on `outcome`. */
export async function sendRecorded(options: ExecuteOptions, outcome: Outcome, req: RequestCore): Promise<HttpResponse> {
  const res = await options.http.send(requestWith(options, req));
  outcome.status = res.status;
  outcome.elapsedMs = res.elapsedMs;
  outcome.bytes = res.bytes;
  outcome.body = res.body;
  outcome.head = res.head;
  outcome.file = res.file;
  if (res.file) outcome.notes.push(l10n.t('body written to {0} (larger than chainEndpoints.maxDocumentMegabytes)', res.file));
  return res;
}

/**
 * One run that is not a catalogue request on the wire (the query files' own operations: `evm.simulate`,
 * `explorer.receipt`, `explorer.account`): the outcome recorded and timed, and a failure as its error,
 * never thrown. `work` sets the outcome's result, status and summary, and returns the record's fields.
 */
export async function recordedRun(
  op: Operation,
  providerName: string,
  args: Args,
  request: RequestDescription,
  work: (outcome: RecordedOutcome) => Promise<Record<string, unknown> | undefined>,
): Promise<{ outcome: RecordedOutcome; fields?: Record<string, unknown> }> {
  const outcome = new RecordedOutcome(op, providerName, args, new Date());
  const started = performance.now();
  outcome.request = request;
  try {
    const fields = await work(outcome);
    return { outcome, ...(fields ? { fields } : {}) };
  } catch (err) {
    outcome.error = isEndpointError(err)
      ? err
      : new EndpointError('input', err instanceof LocalizedError ? { english: err.message, shown: err.shown } : errorMessage(err));
    return { outcome };
  } finally {
    outcome.elapsedMs = performance.now() - started;
  }
}
