// What one kind of query-file assertion is (`assert …` lines): how its text is read, how it is
// evaluated on what a request produced, and what the run and the checks need to know about it. Each
// kind is one file of this folder that declares its typed form (an interface extending
// syntax.ts's AssertionBase) and its AssertionKind, listed once in index.ts (the Assertion union is
// computed from that list); parse.ts, assert.ts, check.ts, pipeline.ts and the editor's completion
// read the list.

import type { MatchOutcome } from '../regex';
import type { AssertionBase, Diagnostic, Located, PathSegment } from '../syntax';
import type { AssertionResult, ResultRecord } from './values';

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
export interface AssertionKind<A extends AssertionBase = AssertionBase> {
  /** The kinds (the `kind` of its typed form A) this file reads and evaluates. */
  readonly kinds: readonly A['kind'][];
  /** The words of the kind: highlighted by the grammar (syntaxes/chainq.tmLanguage.json; a unit test compares). */
  readonly keywords: readonly string[];
  /** What the editor offers after `assert ` (in the list's order). */
  readonly completions?: readonly string[];
  /** Reads the whole text (`success`, `latency < 2s`), tried before the text is read as a path. */
  readWhole?(a: Located, ctx: ReadContext): A | null | undefined;
  /** Reads what follows a path (`exists`, `== 5`), tried in the list's order. */
  readAfterPath?(a: Located, after: AfterPath, ctx: ReadContext): A | null | undefined;
  /** The value side, a template resolved when the request runs (checked by check.ts, resolved by run.ts). */
  value?(a: A): Located | undefined;
  /**
   * Work done before evaluating, finished by `deadline` (a Date.now() time: the request's, shared by
   * its assertions); a promise only when it waits (a query file's thousands of assertions mostly do not).
   */
  prepare?(a: A, r: ResultRecord, deadline: number): MatchOutcome | undefined | Promise<MatchOutcome | undefined>;
  /** The assertion on one record. */
  evaluate(a: A, r: ResultRecord, input: EvaluateInput): AssertionResult<A>;
  /** For kinds that compare the providers of a fan-out (`provider: *`): the assertion across their records. */
  evaluateAcross?(a: A, records: readonly ResultRecord[]): AssertionResult<A>;
}

/** The typed form a kind reads (`FormOf<typeof comparison>` is CompareAssertion). */
export type FormOf<T> = T extends AssertionKind<infer A> ? A : never;
