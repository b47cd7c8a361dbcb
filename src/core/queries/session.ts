// Preparing a query file to run or to show: parsed, then checked with one set of options
// (check.ts's CheckContext), its diagnostics in one sorted list. The CLI (cli.ts) prepares each file
// before any request and stops on an error; the editor (src/ui/onDemand/queryEditor.ts) shows the
// same diagnostics, checked with the options its runner uses (src/ui/onDemand/queryRun.ts).

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
