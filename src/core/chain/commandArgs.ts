// What an operation command was given, read without the editor: a tree node or an object such as
// `{ provider: "Local node", height: "5", confirmed: true }` becomes the valid arguments, the
// parameters still to ask for and the confirmation. Which provider runs it is the router's
// (core/health/routeCommand.ts); the editor side (ui/requests/resolveArgs.ts) asks for the rest.

import { LocalizedError } from '../base/errors';
import type { Operation, ParamSpec } from './operations';

export interface CommandArgument {
  /** Valid arguments given (trimmed). */
  args: Record<string, string>;
  /** Parameters to ask for, in order (a programmatic call is never asked for optional ones). */
  missing: ParamSpec[];
  /** `confirmed: true` in the argument: a broadcast sent without the dialog. */
  confirmed: boolean;
}

/**
 * Reads a command's argument for `op`: a tree node (of kind "operation") gives no arguments; an
 * object gives its string and number values. Throws a LocalizedError, saying what is wrong, for an
 * argument its validator refuses. The argument's shape and provider are checked by the router first.
 */
export function readCommandArgument(op: Operation, arg: unknown): CommandArgument {
  const given: Record<string, string> = {};
  const programmatic = typeof arg === 'object' && arg !== null && operationNodeProvider(arg) === undefined;
  if (programmatic) {
    for (const [k, v] of Object.entries(arg as Record<string, unknown>)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') given[k] = String(v);
    }
  }
  const confirmed = programmatic && (arg as { confirmed?: unknown }).confirmed === true;

  const args: Record<string, string> = {};
  const missing: ParamSpec[] = [];
  for (const p of op.params) {
    const value = given[p.key];
    if (value !== undefined) {
      const error = checkParam(p, value);
      if (error) throw new LocalizedError(error);
      args[p.key] = value.trim();
    } else if (!p.hidden && !(programmatic && p.optional)) {
      missing.push(p);
    }
  }
  return { args, missing, confirmed };
}

/** A tree node of an operation (told apart by its `kind`, as the tree's nodes are): its provider's name. */
export function operationNodeProvider(arg: unknown): string | undefined {
  if (typeof arg !== 'object' || arg === null || (arg as { kind?: unknown }).kind !== 'operation') return undefined;
  const name = (arg as { provider?: { name?: unknown } }).provider?.name;
  return typeof name === 'string' ? name : undefined;
}

/** The validator's sentence for `value`, or undefined when valid (blank is valid for an optional parameter). */
export function checkParam(p: ParamSpec, value: string): string | undefined {
  return value.trim() === '' && p.optional ? undefined : p.validate(value);
}
