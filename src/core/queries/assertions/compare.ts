// `assert <path> == value` (and !=, <, <=, >, >=): the value at the path compared with the value
// written, a template resolved when the request runs (`{{latest.result.height - 10}}`).

import { type AssertionBase, type CompareOp, type Located, type PathSegment, getPath, pathText, scanTemplate } from '../syntax';
import type { AfterPath, AssertionKind, ReadContext } from './kind';
import { compare, resultOf, shorten } from './values';

export const COMPARE_OPS: readonly CompareOp[] = ['==', '!=', '<=', '>=', '<', '>'];

/** `<op> value` after a path: the operator and the located value; undefined when it starts with no operator. */
export function readComparison(a: Located, after: AfterPath, ctx: ReadContext): { op: CompareOp; value: Located } | null | undefined {
  const { rest, restCol } = after;
  const op = COMPARE_OPS.find((o) => rest.startsWith(o));
  if (!op) return undefined;
  const valueText = rest.slice(op.length).trim();
  if (valueText === '') return ctx.error(`Give a value after "${op}".`, restCol, rest.length);
  if (/^[<>=!]/.test(valueText))
    return ctx.error(
      `"${op}${rest.slice(op.length, op.length + 2).trim()}" is not a comparison: use ==, !=, <, <=, > or >= and a value.`,
      restCol,
      rest.length,
    );
  const value = { text: valueText, line: a.line, col: a.col + a.text.length - valueText.length };
  scanTemplate(value, ctx.diagnostics);
  return { op, value };
}

export interface CompareAssertion extends AssertionBase {
  readonly kind: 'compare';
  readonly path: PathSegment[];
  readonly op: CompareOp;
  readonly value: Located;
}

export const comparison: AssertionKind<CompareAssertion> = {
  kinds: ['compare'],
  keywords: [],
  readAfterPath(a, after, ctx) {
    const c = readComparison(a, after, ctx);
    return c && { text: a.text, line: a.line, col: a.col, kind: 'compare', path: after.path, op: c.op, value: c.value };
  },
  value: (a) => a.value,
  evaluate(a, r, { expected }) {
    const got = getPath(r, a.path);
    if (!got.found) return resultOf(a, false, `${pathText(a.path)} is absent${r.error ? ` (the request failed: ${r.error})` : ''}`);
    const want = expected ?? a.value.text;
    const c = compare(got.value, a.op, want);
    return resultOf(
      a,
      c.passed,
      `found ${shorten(got.value, 80)}${c.passed ? '' : `, expected ${a.op} ${want}`}${c.reason ? ` (${c.reason})` : ''}`,
      got.value,
    );
  },
};
