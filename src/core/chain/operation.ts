// What an operation is: its parameters (with their validators), the request it builds on the wire,
// and the one-line summary of its result. The catalogue (catalogue/*.ts) is a list of these.

import type { InterfaceId } from '../config/providers';
import type * as v from './validate';

export interface ParamSpec {
  /** Key in the command argument `{ provider, <key>: ... }`. */
  readonly key: string;
  readonly title: string;
  readonly prompt: string;
  readonly placeholder?: string;
  /** An empty answer is accepted (and means the documented default). */
  readonly optional?: boolean;
  readonly validate: v.Validator;
}

export type WireRequest =
  | { kind: 'get'; path: string; query?: Record<string, string | undefined>; rawQuery?: string }
  | { kind: 'post'; path: string; body: unknown }
  | { kind: 'jsonrpc'; method: string; params: unknown }
  | { kind: 'ws-call'; method: string; params: unknown }
  | { kind: 'ws-subscribe'; query: string; count: number }
  | { kind: 'genesis' };

export type Args = Readonly<Record<string, string>>;

export interface Operation {
  /** Command id without the `chainEndpoints.` prefix. */
  readonly id: string;
  readonly iface: InterfaceId;
  /** Short label for the tree. */
  readonly label: string;
  /** Palette title (the category "Chain Endpoints" is added by package.json). */
  readonly title: string;
  readonly params: readonly ParamSpec[];
  /** Sends a transaction: shown and confirmed first, never retried. */
  readonly broadcast?: boolean;
  build(args: Args): WireRequest;
  /** One line about the parsed result, shown in the document header. */
  summarize?(result: unknown): string | undefined;
  /** The result as query files and the API read it (evm.callContract: the return data decoded); the body stays as received. */
  decodeResult?(result: unknown, args: Args): unknown;
}
