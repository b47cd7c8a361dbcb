// The plain data a result document is made of: what was sent (RequestDescription) and what came
// back (AnswerRecord). chain/ builds them (its Outcome is an AnswerRecord with the catalogue's
// Operation); this layer renders them, so it names only what a document shows of the operation.

import type { EndpointError } from '../base/errors';
import type { InterfaceId } from '../config/providers';
import type { FormattedJson } from './jsonFormat';

/** What a document shows of the operation behind an answer. */
export interface OperationLabel {
  readonly id: string;
  readonly iface: InterfaceId;
  readonly label: string;
}

export interface RequestDescription {
  method: 'GET' | 'POST' | 'WS';
  url: string;
  /** The exact body sent (JSON-RPC and REST POST), or the message sent over the socket. */
  body?: string;
  /** For subscriptions: keep reading after the first answer. */
  stream?: boolean;
}

export interface AnswerRecord {
  /** The operation that made the request, as the document names it. */
  operation: OperationLabel;
  providerName: string;
  args: Readonly<Record<string, string>>;
  request: RequestDescription;
  startedAt: Date;
  status?: number;
  elapsedMs: number;
  /** WebSocket exchanges: milliseconds until the socket was open (the rest of elapsedMs is the answer). */
  connectMs?: number;
  bytes: number;
  /** The body as received (for WebSocket exchanges: a JSON array of the messages received). */
  body?: Buffer;
  /** The first bytes of a body too large to be held whole as well as formatted (see `formatted`). */
  head?: Buffer;
  /** The body formatted for the document as it arrived (HTTP answers that are JSON). */
  formatted?: FormattedJson;
  /** The body on disk, when too large for memory (or a reassembled genesis). */
  file?: string;
  result?: unknown;
  error?: EndpointError;
  summary?: string;
  /** Extra facts for the document header. */
  notes: string[];
  /** A paged answer with more: the arguments of the next page (pagination.key from next_key). The document ends with its link. */
  nextPage?: Readonly<Record<string, string>>;
}

/** The document's last line for a paged answer with more: `// next page: {"operation":…, …}` (links read it back). */
export const NEXT_PAGE_PREFIX = '// next page: ';
