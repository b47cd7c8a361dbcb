// Quick fixes of query files: a request that two or more providers could serve, with no
// "provider:" line and no @provider, gets "Use NAME for this file (@provider)" and "Run this
// request on NAME (provider:)", one per candidate. The diagnostic itself is the checks' (or
// ambiguityDiagnostics() below when the checks do not report it).

import vscode = require('vscode');
import {
  type AmbiguousRequest,
  type LineEdit,
  ambiguityMessage,
  ambiguousRequests,
  providerVariableEdit,
  requestProviderEdit,
} from '../../core/queries/providerChoice';
import type { QueryFile } from '../../core/queries/model';
import { readSettings } from '../base/settings';

function lineEdit(edit: vscode.WorkspaceEdit, doc: vscode.TextDocument, e: LineEdit): void {
  if (e.replace) edit.replace(doc.uri, doc.lineAt(e.line).range, e.text);
  else edit.insert(doc.uri, new vscode.Position(e.line, 0), `${e.text}\n`);
}

function rangeOf(a: AmbiguousRequest): vscode.Range {
  const t = a.request.target;
  return new vscode.Range(t.line - 1, t.col - 1, t.line - 1, t.col - 1 + Math.max(1, t.text.length));
}

/** The ambiguity diagnostics the checks did not already report at the same place. */
export function ambiguityDiagnostics(file: QueryFile, existing: readonly vscode.Diagnostic[]): vscode.Diagnostic[] {
  // The lines that have a provider diagnostic already, found once (each request searching them all was requests × diagnostics).
  const reported = new Set<number>();
  for (const d of existing) if (/provider/i.test(d.message)) reported.add(d.range.start.line);
  return ambiguousRequests(file, readSettings().providers.providers)
    .filter((a) => !reported.has(a.request.target.line - 1))
    .map((a) => {
      const d = new vscode.Diagnostic(rangeOf(a), ambiguityMessage(a), vscode.DiagnosticSeverity.Error);
      d.source = 'chain-endpoints';
      return d;
    });
}

export class QueryFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly parsed: (doc: vscode.TextDocument) => QueryFile) {}

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const file = this.parsed(doc);
    const lines = Array.from({ length: doc.lineCount }, (_, i) => doc.lineAt(i).text);
    const out: vscode.CodeAction[] = [];
    for (const a of ambiguousRequests(file, readSettings().providers.providers)) {
      const r = a.request;
      if (range.end.line < r.line - 1 || range.start.line > r.endLine - 1) continue;
      const diagnostics = context.diagnostics.filter((d) => d.range.start.line === r.target.line - 1);
      a.candidates.forEach((name, i) => {
        const fileWide = new vscode.CodeAction(
          vscode.l10n.t('Use "{0}" for the requests without a provider (@provider)', name),
          vscode.CodeActionKind.QuickFix,
        );
        fileWide.edit = new vscode.WorkspaceEdit();
        lineEdit(fileWide.edit, doc, providerVariableEdit(lines, name));
        fileWide.diagnostics = diagnostics;
        fileWide.isPreferred = i === 0;
        const one = new vscode.CodeAction(vscode.l10n.t('Run "{0}" on "{1}" (provider:)', r.name, name), vscode.CodeActionKind.QuickFix);
        one.edit = new vscode.WorkspaceEdit();
        lineEdit(one.edit, doc, requestProviderEdit(lines, r, name));
        one.diagnostics = diagnostics;
        out.push(fileWide, one);
      });
    }
    return out;
  }
}
