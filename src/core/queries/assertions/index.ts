// The kinds of query-file assertions, listed once. A new kind is one file of this folder (its typed
// form, an interface extending syntax.ts's AssertionBase, and how it is read, evaluated and checked:
// kind.ts) and one line here: the Assertion union is computed from this list. parse.ts tries the
// readers in this order; assert.ts, check.ts and pipeline.ts dispatch on the kind; the editor's
// completion and the grammar's keywords come from here (a unit test compares, and another that every
// file of this folder is listed).

import type { Located } from '../syntax';
import { comparison } from './compare';
import { exists } from './exists';
import { failure } from './failure';
import type { AssertionKind, FormOf } from './kind';
import { latency } from './latency';
import { matches } from './matches';
import { same } from './same';
import { status } from './status';
import { success } from './success';
import { within } from './within';

export const ASSERTION_KINDS = [success, failure, status, latency, within, exists, same, matches, comparison] as const;

/** Every assertion a query file may hold: the union of the typed forms of the kinds listed above. */
export type Assertion = FormOf<(typeof ASSERTION_KINDS)[number]>;

/** The assertion of one kind (`AssertionOf<'compare'>` is CompareAssertion). */
export type AssertionOf<K extends Assertion['kind']> = Extract<Assertion, { kind: K }>;

/** The list as one type: every entry reads, evaluates and checks an Assertion (dispatch by kind). */
const KINDS: readonly AssertionKind<Assertion>[] = ASSERTION_KINDS;

const byKind = new Map<Assertion['kind'], AssertionKind<Assertion>>();
for (const k of KINDS) for (const kind of k.kinds) byKind.set(kind, k);

/** The file that reads and evaluates assertions of `a`'s kind. */
export function kindOf(a: Assertion): AssertionKind<Assertion> {
  // Always there: every kind of the union comes from an entry of the list.
  return byKind.get(a.kind)!;
}

/** The readers, in the list's order (parse.ts). */
export function assertionReaders(): readonly AssertionKind<Assertion>[] {
  return KINDS;
}

/** Whether `a` compares the providers of a fan-out (`same`, `within`). */
export function isAcross(a: Assertion): boolean {
  return kindOf(a).evaluateAcross !== undefined;
}

/** The value side of `a` to resolve and check (a template), if it has one. */
export function valueOf(a: Assertion): Located | undefined {
  return kindOf(a).value?.(a);
}

/** What the editor offers after `assert ` (before the path roots). */
export const ASSERTION_COMPLETIONS: readonly string[] = ASSERTION_KINDS.flatMap((k) => k.completions ?? []);

/** Every assertion keyword (the grammar highlights these). */
export const ASSERTION_KEYWORDS: readonly string[] = [...new Set(ASSERTION_KINDS.flatMap((k) => k.keywords))];
