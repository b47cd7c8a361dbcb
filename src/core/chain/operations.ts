// The catalogue of operations: one entry per request the extension can make, one file per family
// of interfaces in catalogue/. The tree's leaves, the palette commands (and package.json's
// contributions, checked by a unit test), copy-as-curl and the tests all read this one list.

import * as l10n from '../base/l10n';
import type { InterfaceId } from '../config/providers';
import { CONSENSUS_OPERATIONS } from './catalogue/consensus';
import { EVM_OPERATIONS } from './catalogue/evm';
import { findModuleOperation, moduleOperations } from './catalogue/modules';
import { REST_OPERATIONS } from './catalogue/rest';
import type { Args, Operation } from './operation';
import { COMMAND_PREFIX, OPERATION_ALIASES } from './operationIds';

export type { Args, Operation, ParamSpec, RouteInfo, WireRequest } from './operation';
export { COMMAND_PREFIX } from './operationIds';

export const OPERATIONS: readonly Operation[] = [...EVM_OPERATIONS, ...CONSENSUS_OPERATIONS, ...REST_OPERATIONS];

const BY_ID = new Map(OPERATIONS.map((op) => [op.id, op]));

/** Routes imported for a network (a chain's own modules, src/core/chain/catalogue/imported.ts), by id. */
const imported = new Map<string, Operation>();

/** Replaces the imported routes (all networks' together; their ids start with `chain.`). An id is the first one's: a later route of the same id is not swapped in. */
export function setImportedOperations(ops: readonly Operation[]): void {
  imported.clear();
  for (const op of ops) if (!imported.has(op.id)) imported.set(op.id, op);
}

/**
 * An operation by id: the catalogue's commands, then the generated module routes (`staking.Validators`,
 * built on first use), then the routes imported for a network; `chainEndpoints.<id>` and the
 * aliases of OPERATION_ALIASES too.
 */
export function findOperation(id: string): Operation | undefined {
  const key = id.startsWith(COMMAND_PREFIX) ? id.slice(COMMAND_PREFIX.length) : id;
  return (
    BY_ID.get(key) ?? (Object.hasOwn(OPERATION_ALIASES, key) ? BY_ID.get(OPERATION_ALIASES[key]) : undefined) ?? findModuleOperation(key) ?? imported.get(key)
  );
}

/** Every module route: the generated ones, then the imported ones. */
export function routeOperations(): Operation[] {
  return [...moduleOperations(), ...imported.values()];
}

export function operationsFor(iface: InterfaceId): Operation[] {
  return OPERATIONS.filter((op) => op.iface === iface);
}

/** Checks every argument an operation needs; returns the first error sentence. */
export function validateArgs(op: Operation, args: Args): string | undefined {
  for (const p of op.params) {
    const value = args[p.key] as string | undefined;
    if (value === undefined || value.trim() === '') {
      if (p.optional) continue;
      return l10n.t('{0} is required: {1}.', p.title, p.prompt.charAt(0).toLowerCase() + p.prompt.slice(1));
    }
    const error = p.validate(value);
    if (error) return error;
  }
  return undefined;
}
