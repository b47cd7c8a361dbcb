// Assertions of query files, evaluated on what one request produced on one provider (a Record), or
// across the providers of a fan-out (`same`, `within N`). Each kind is read and evaluated by its own
// file in assertions/ (listed once in assertions/index.ts); this module dispatches to it and keeps
// the values' helpers (assertions/values.ts) where the runner and the reports import them.

import { errorMessage } from '../base/errors';
import { masker } from '../secrets/mask';
import { type Assertion, isAcross, kindOf } from './assertions/index';
import { type AssertionResult as KindResult, type ResultRecord, oneLine } from './assertions/values';
import type { QueryRequest } from './model';
import type { MatchOutcome } from './regex';
import { type Located, hasTemplate } from './syntax';

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

/** The implicit assertion of a request that has none of its own: it succeeds. */
export function implicitSuccess(request: Pick<QueryRequest, 'line'>): Assertion {
  return { kind: 'success', text: 'success', line: request.line, col: 1 };
}

/** The least time a request's assertions get, even when its answer used up its timeout. */
export const MIN_BUDGET_MS = 50;

/**
 * A request's own assertions (not those across providers) on one provider's record, in order; with
 * none, the implicit `success`. `resolve` gives a value side its text (references, variables: it may
 * throw, and the assertion fails with why); `budgetMs` (what is left of the request's timeout, at
 * least MIN_BUDGET_MS) bounds every prepare() of the request together (regex runs): one deadline.
 * Never throws: every problem is a failed result. A promise only when a prepare() waits (a regular
 * expression run in the worker): a file's thousands of assertions mostly resolve at once.
 */
export function evaluateOwn(
  request: Pick<QueryRequest, 'line' | 'assertions'>,
  record: ResultRecord,
  resolve: (value: Located) => string,
  budgetMs: number,
): AssertionResult[] | Promise<AssertionResult[]> {
  const deadline = Date.now() + Math.max(MIN_BUDGET_MS, budgetMs);
  const all = request.assertions;
  const results: AssertionResult[] = [];
  for (let i = 0; i < all.length; i++) {
    if (isAcross(all[i])) continue;
    const result = evaluateOne(all[i], record, resolve, deadline);
    if (result instanceof Promise) return evaluateRest(result, results, all, i + 1, record, resolve, deadline);
    results.push(result);
  }
  if (results.length === 0) results.push(evaluate(implicitSuccess(request), record));
  return results;
}

/** evaluateOwn() from the first assertion that waits on. */
async function evaluateRest(
  waiting: Promise<AssertionResult>,
  results: AssertionResult[],
  all: readonly Assertion[],
  from: number,
  record: ResultRecord,
  resolve: (value: Located) => string,
  deadline: number,
): Promise<AssertionResult[]> {
  results.push(await waiting);
  for (let i = from; i < all.length; i++) if (!isAcross(all[i])) results.push(await evaluateOne(all[i], record, resolve, deadline));
  return results;
}

/** One assertion of evaluateOwn(); never throws (nor rejects). */
function evaluateOne(a: Assertion, record: ResultRecord, resolve: (value: Located) => string, deadline: number): AssertionResult | Promise<AssertionResult> {
  let value: Located | undefined;
  let expected: string | undefined;
  let prepared: MatchOutcome | undefined | Promise<MatchOutcome | undefined>;
  try {
    const kind = kindOf(a);
    value = kind.value?.(a);
    expected = value ? resolve(value) : undefined;
    prepared = kind.prepare?.(a, record, deadline);
  } catch (err) {
    return failedOn(a, err);
  }
  if (prepared instanceof Promise) {
    return prepared.then(
      (p) => judged(a, record, value, expected, p),
      (err: unknown) => failedOn(a, err),
    );
  }
  return judged(a, record, value, expected, prepared);
}

function judged(
  a: Assertion,
  record: ResultRecord,
  value: Located | undefined,
  expected: string | undefined,
  prepared: MatchOutcome | undefined,
): AssertionResult {
  try {
    const result = evaluate(a, record, expected, prepared);
    // With its references resolved (the reports' names), when it has any: masked, one line.
    const templated = expected !== undefined && value !== undefined && hasTemplate(value.text);
    return templated ? { ...result, shownText: a.text.slice(0, value!.col - a.col) + oneLine(masker.mask(expected!), 80) } : result;
  } catch (err) {
    return failedOn(a, err);
  }
}

function failedOn(a: Assertion, err: unknown): AssertionResult {
  return { assertion: a, passed: false, message: errorMessage(err) };
}
