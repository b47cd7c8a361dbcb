// A query file as read: its variables and requests, each with its assertions (Assertion: the union
// of the typed forms of the kinds listed in assertions/index.ts). Above syntax.ts (the positions,
// templates and paths the kinds read with) and the kinds, so no import goes back down-up.

import type { Operation } from '../chain/operation';
import type { Assertion } from './assertions/index';
import type { ArgLine, Diagnostic, Located } from './syntax';

export type { Assertion } from './assertions/index';

export interface QueryRequest {
  readonly name: string;
  readonly line: number;
  /** Last line that belongs to the request. */
  endLine: number;
  /** The operation (from the catalogue, or the query files' own raw subscribe); undefined when unknown. */
  readonly op?: Operation;
  /** The target as written (`consensusRpc.status`, `evmRpc eth_getLogs`). */
  readonly target: Located;
  /** Arguments fixed by a raw target (the method, the path, the query). */
  readonly fixedArgs: Record<string, string>;
  readonly args: ArgLine[];
  provider?: Located;
  confirmed: boolean;
  timeoutMs?: number;
  /** `page: all`: follow the next pages, at most this many. */
  pageAll?: number;
  readonly assertions: Assertion[];
}

export interface QueryFile {
  /** File-level variables (`@name = value`), in order. */
  readonly variables: Map<string, Located>;
  readonly requests: QueryRequest[];
  readonly diagnostics: Diagnostic[];
}
