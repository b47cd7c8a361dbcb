// The kinds of query-file assertions, listed once. A new kind is one file of this folder (how it is
// read, evaluated and checked: kind.ts), its typed form in syntax.ts's Assertion union, and one line
// here. parse.ts tries the readers in this order; assert.ts, check.ts and run.ts dispatch on the
// kind; the editor's completion and the grammar's keywords come from here (a unit test compares).

import type { Assertion, Located } from '../syntax';
import { comparison } from './compare';
import { exists } from './exists';
import { failure } from './failure';
import type { AnyAssertionKind, AssertionKind, AssertionOf } from './kind';
import { latency } from './latency';
import { matches } from './matches';
import { same } from './same';
import { status } from './status';
import { success } from './success';
import { within } from './within';

export const ASSERTION_KINDS: readonly AnyAssertionKind[] = [success, failure, status, latency, within, exists, same, matches, comparison];

const byKind = new Map<Assertion['kind'], AnyAssertionKind>();
for (const k of ASSERTION_KINDS) for (const kind of k.kinds) byKind.set(kind, k);

/** The file that reads and evaluates assertions of `a`'s kind. */
export function kindOf<K extends Assertion['kind']>(a: AssertionOf<K>): AssertionKind<K> {
  return byKind.get(a.kind) as unknown as AssertionKind<K>;
}

/** Whether `a` compares the providers of a fan-out (`same`, `within`). */
export function isAcross(a: Assertion): boolean {
  return kindOf(a).evaluateAcross !== undefined;
}

/** The value side of `a` to resolve and check (a template), if it has one. */
export function valueOf(a: Assertion): Located | undefined {
  return (kindOf(a) as AssertionKind).value?.(a);
}

/** What the editor offers after `assert ` (before the path roots). */
export const ASSERTION_COMPLETIONS: readonly string[] = ASSERTION_KINDS.flatMap((k) => k.completions ?? []);

/** Every assertion keyword (the grammar highlights these). */
export const ASSERTION_KEYWORDS: readonly string[] = [...new Set(ASSERTION_KINDS.flatMap((k) => k.keywords))];
