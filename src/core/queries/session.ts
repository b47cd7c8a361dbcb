// Preparing a query file to run or to show: parsed, then checked with one set of options
// (check.ts's CheckContext), its diagnostics in one sorted list. Step 1 of the run pipeline
// (pipeline.ts, which the CLI and the editor's runner drive: an error stops the run) and what the
// editor shows as you type (src/ui/queries/queryEditor.ts), checked under the runner's policy.

import { type CheckContext, checkQueryFile } from './check';
import { parseQueryFile } from './parse';
import type { QueryFile } from './model';
import type { Diagnostic } from './syntax';

export interface PreparedQueryFile {
  readonly file: QueryFile;
  /** The parser's and the checks' diagnostics, by line and column. */
  readonly diagnostics: readonly Diagnostic[];
  /** Whether one of them is an error (the CLI runs nothing then). */
  readonly hasErrors: boolean;
}

/** A parsed file's diagnostics with the checks'. */
export function prepareParsed(file: QueryFile, options: CheckContext): PreparedQueryFile {
  const diagnostics = [...file.diagnostics, ...checkQueryFile(file, options)].sort((a, b) => a.line - b.line || a.col - b.col);
  return { file, diagnostics, hasErrors: diagnostics.some((d) => d.severity === 'error') };
}

/** Parses and checks a query file's text. */
export function prepareQueryFile(source: string, options: CheckContext): PreparedQueryFile {
  return prepareParsed(parseQueryFile(source), options);
}
