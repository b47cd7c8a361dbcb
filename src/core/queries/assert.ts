// Assertions of query files, evaluated on what one request produced on one provider (a Record), or
// across the providers of a fan-out (`same`, `within N`). Each kind is read and evaluated by its own
// file in assertions/ (listed once in assertions/index.ts); this module dispatches to it and keeps
// the values' helpers (assertions/values.ts) where the runner and the reports import them.

import { type Assertion, kindOf } from './assertions/index';
import type { AssertionResult as KindResult, ResultRecord } from './assertions/values';
import type { MatchOutcome } from './regex';

export { type ResultRecord, asInteger, compare, heightOf, matchedText, oneLine, preview, shorten } from './assertions/values';

/** One assertion's verdict in a run (any kind). */
export type AssertionResult = KindResult<Assertion>;

/**
 * One assertion on one record. `expected` is the value side with its references resolved (compare
 * and status); `matched` what the bounded regular expression run found (`matches`); `within` and
 * `same` are evaluated across providers by evaluateAcross() (on one record: trivially true when present).
 */
export function evaluate(a: Assertion, r: ResultRecord, expected?: string, matched?: MatchOutcome): AssertionResult {
  return kindOf(a).evaluate(a, r, { expected, prepared: matched });
}

/** `same` and `within N` (the kinds with evaluateAcross) across the records of a fan-out (one record: trivially true when present). */
export function evaluateAcross(a: Assertion, records: readonly ResultRecord[]): AssertionResult {
  return kindOf(a).evaluateAcross!(a, records);
}
