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
  /** The only values accepted (an enum): the editor offers them as a pick. */
  readonly choices?: readonly string[];
  /** Never prompted for: given through the argument, a query file or a next-page link (pagination keys). */
  readonly hidden?: boolean;
}

/** A module's REST route (catalogue/modules.ts): what the tree, the pick and paging read. */
export interface RouteInfo {
  /** `staking`, `gov.v1beta1`, `ibc.client`, `vm`, … */
  readonly module: string;
  readonly rpc: string;
  /** The path template, such as `/cosmos/staking/v1beta1/validators/{validator_addr}`. */
  readonly path: string;
  readonly summary: string;
  /** Takes `pagination.*` and answers `pagination.next_key`. */
  readonly paged: boolean;
  /** The top-level fields of a 200 answer, as documented. */
  readonly fields: readonly string[];
  /** Where the definition comes from (`cosmos-sdk`, `ibc-go`, `cosmos-evm`, or `import:<network>`). */
  readonly source: string;
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
  /** A module route (generated from the published definitions, or imported): not a package.json command. */
  readonly route?: RouteInfo;
  /** Sends a transaction: shown and confirmed first, never retried. */
  readonly broadcast?: boolean;
  build(args: Args): WireRequest;
  /** A paged answer with more: the arguments of the next page. */
  nextPage?(args: Args, result: unknown): Args | undefined;
  /** One line about the parsed result, shown in the document header. */
  summarize?(result: unknown): string | undefined;
  /**
   * The line when the result is JSON null (nothing found), and no line otherwise: told from the
   * answer's text, so a block is not parsed whole to learn it is not null.
   */
  nullSummary?(): string;
  /** The result as query files and the API read it (evm.callContract: the return data decoded); the body stays as received. */
  decodeResult?(result: unknown, args: Args): unknown;
}
