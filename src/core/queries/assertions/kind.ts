// What one kind of query-file assertion is (`assert …` lines): how its text is read, how it is
// evaluated on what a request produced, and what the run and the checks need to know about it. Each
// kind is one file of this folder, listed once in index.ts; parse.ts, assert.ts, check.ts, run.ts and
// the editor's completion read that list.

import type { MatchOutcome } from '../regex';
import type { Assertion, Diagnostic, Located, PathSegment } from '../syntax';
import type { AssertionResult, ResultRecord } from './values';

/** The assertion of one kind (its typed form in syntax.ts's Assertion union). */
export type AssertionOf<K extends Assertion['kind']> = Extract<Assertion, { kind: K }>;

/** What a kind's reader is given. */
export interface ReadContext {
  readonly diagnostics: Diagnostic[];
  /** Reports an error at `col` (default: the whole assertion) and returns null: the line is this kind's, but wrong. */
  error(message: string, col?: number, len?: number): null;
}

/** The rest of an assertion after its path (`result.height` then `== 5`), located. */
export interface AfterPath {
  readonly path: PathSegment[];
  /** The text after the path, trimmed. */
  readonly rest: string;
  /** Its column. */
  readonly restCol: number;
}

/** What one evaluation is given besides the record. */
export interface EvaluateInput {
  /** The value side with its references resolved (kinds with a value()). */
  readonly expected?: string;
  /** What prepare() produced (the bounded regular expression run of `matches`). */
  readonly prepared?: MatchOutcome;
}

/**
 * One kind of assertion. A reader returns undefined when the text is not of this kind, null when it
 * is but wrong (its diagnostic reported through ctx.error), or the assertion.
 */
export interface AssertionKind<K extends Assertion['kind'] = Assertion['kind']> {
  /** The kinds (in syntax.ts's Assertion union) this file reads and evaluates. */
  readonly kinds: readonly K[];
  /** The words of the kind: highlighted by the grammar (syntaxes/chainq.tmLanguage.json; a unit test compares). */
  readonly keywords: readonly string[];
  /** What the editor offers after `assert ` (in the list's order). */
  readonly completions?: readonly string[];
  /** Reads the whole text (`success`, `latency < 2s`), tried before the text is read as a path. */
  readWhole?(a: Located, ctx: ReadContext): AssertionOf<K> | null | undefined;
  /** Reads what follows a path (`exists`, `== 5`), tried in the list's order. */
  readAfterPath?(a: Located, after: AfterPath, ctx: ReadContext): AssertionOf<K> | null | undefined;
  /** The value side, a template resolved when the request runs (checked by check.ts, resolved by run.ts). */
  value?(a: AssertionOf<K>): Located | undefined;
  /** Work done before evaluating, bounded by `budgetMs` (what is left of the request's timeout). */
  prepare?(a: AssertionOf<K>, r: ResultRecord, budgetMs: number): Promise<MatchOutcome | undefined>;
  /** The assertion on one record. */
  evaluate(a: AssertionOf<K>, r: ResultRecord, input: EvaluateInput): AssertionResult;
  /** For kinds that compare the providers of a fan-out (`provider: *`): the assertion across their records. */
  evaluateAcross?(a: AssertionOf<K>, records: readonly ResultRecord[]): AssertionResult;
}

/** Any one kind (what the list holds). */
export type AnyAssertionKind = { [K in Assertion['kind']]: AssertionKind<K> }[Assertion['kind']];
