// The query-file language features: diagnostics as you type (the parser's and the checks', with
// line and column), completion (operations, parameters, providers, variables, earlier requests),
// CodeLens "Run" above each request and "Run all" at the top. Started by src/ui/queries/register.ts when
// the first `.chainq` file is seen; everything here is on demand.

import { ACCOUNT_OPERATION } from '../../core/queries/accountRequest';
import vscode = require('vscode');
import { OPERATIONS, routeOperations } from '../../core/chain/operations';
import { INTERFACES } from '../../core/config/providers';
import { assertionCompletions, keyCompletions } from '../../core/queries/completion';
import { PATH_ROOTS, parseQueryFile } from '../../core/queries/parse';
import { WS_SUBSCRIBE } from '../../core/queries/raw';
import { prepareParsed } from '../../core/queries/session';
import type { QueryFile } from '../../core/queries/model';
import { Commands } from '../base/commandIds';
import type { CommandDeps } from '../base/deps';
import { Disposable } from '../base/lifecycle';
import { readSettings } from '../base/settings';
import { QueryFixes, ambiguityDiagnostics } from './queryFixes';
import { editorPolicy } from './queryRun';
import { QueryTests } from './queryTests';

export const LANGUAGE_ID = 'chainq';
const SELECTOR: vscode.DocumentSelector = { language: LANGUAGE_ID };

/** The parsed file of a document, kept per version. */
const parsed = new WeakMap<vscode.TextDocument, { version: number; file: QueryFile }>();
export function parsedOf(doc: vscode.TextDocument): QueryFile {
  const hit = parsed.get(doc);
  if (hit && hit.version === doc.version) return hit.file;
  const file = parseQueryFile(doc.getText());
  parsed.set(doc, { version: doc.version, file });
  return file;
}

export class QueryEditor extends Disposable {
  private readonly diagnostics = this._register(vscode.languages.createDiagnosticCollection(LANGUAGE_ID));
  private readonly timers = new Map<string, NodeJS.Timeout>();
  readonly tests: QueryTests;

  constructor(deps: CommandDeps) {
    super();
    this.tests = this._register(new QueryTests(deps));
    this._register(
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, 250)),
      vscode.workspace.onDidCloseTextDocument((d) => this.diagnostics.delete(d.uri)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('chainEndpoints.providers')) vscode.workspace.textDocuments.forEach((d) => this.schedule(d, 0));
      }),
      vscode.languages.registerCodeLensProvider(SELECTOR, { provideCodeLenses: (doc) => codeLenses(doc) }),
      vscode.languages.registerCodeActionsProvider(SELECTOR, new QueryFixes(parsedOf), { providedCodeActionKinds: QueryFixes.kinds }),
      vscode.languages.registerCompletionItemProvider(SELECTOR, { provideCompletionItems: (doc, pos) => complete(doc, pos) }, ':', '{', '$', '.', ' ', '='),
      { dispose: () => this.timers.forEach((t) => clearTimeout(t)) },
    );
    vscode.workspace.textDocuments.forEach((d) => this.schedule(d, 0));
  }

  private schedule(doc: vscode.TextDocument, delayMs: number): void {
    if (doc.languageId !== LANGUAGE_ID || this.isDisposed) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.update(doc);
      }, delayMs),
    );
  }

  private update(doc: vscode.TextDocument): void {
    if (doc.isClosed) return;
    const file = parsedOf(doc);
    // Checked under the policy the runner runs it with (queryRun.ts), as the pipeline checks it before a run (core/queries/pipeline.ts).
    const { diagnostics } = prepareParsed(file, editorPolicy(readSettings().providers.providers));
    const shown = diagnostics.map((d) => {
      const range = new vscode.Range(d.line - 1, d.col - 1, d.line - 1, d.endCol - 1);
      const diagnostic = new vscode.Diagnostic(range, d.message, d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
      diagnostic.source = 'chain-endpoints';
      return diagnostic;
    });
    // A request two providers could serve stops when run: said here, with its quick fixes (queryFixes.ts).
    this.diagnostics.set(doc.uri, [...shown, ...ambiguityDiagnostics(file, shown)]);
    this.tests.update(doc, file);
  }
}

function codeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
  const file = parsedOf(doc);
  if (file.requests.length === 0) return [];
  const top = new vscode.Range(0, 0, 0, 0);
  const lenses = [new vscode.CodeLens(top, { title: `$(run-all) ${vscode.l10n.t('Run all')}`, command: Commands.queriesRunAll, arguments: [doc.uri] })];
  for (const r of file.requests) {
    const at = new vscode.Range(r.line - 1, 0, r.line - 1, 0);
    lenses.push(new vscode.CodeLens(at, { title: `$(play) ${vscode.l10n.t('Run')}`, command: Commands.queriesRun, arguments: [doc.uri, r.name] }));
  }
  return lenses;
}

function item(label: string, kind: vscode.CompletionItemKind, detail?: string, insert?: string): vscode.CompletionItem {
  const c = new vscode.CompletionItem(label, kind);
  c.detail = detail;
  if (insert !== undefined) c.insertText = insert;
  return c;
}

/** The longest text before the cursor that completion reads: its patterns are written for a line a person types. */
const MAX_COMPLETION_LINE = 1000;

function complete(doc: vscode.TextDocument, pos: vscode.Position): vscode.CompletionItem[] {
  // Past MAX_COMPLETION_LINE nothing is offered: the patterns below retry from every position of a
  // line, a time quadratic in a hostile one (100,000 characters: 11 s on each keystroke).
  if (pos.character > MAX_COMPLETION_LINE) return [];
  const before = doc.lineAt(pos.line).text.slice(0, pos.character);
  const file = parsedOf(doc);
  const K = vscode.CompletionItemKind;
  const earlier = file.requests.filter((r) => r.line - 1 < pos.line);
  const current = earlier.at(-1);
  // Inside {{ … }}: earlier requests, then what a path can start with.
  const ref = /\{\{\s*([A-Za-z0-9_-]*)(\.[^}]*)?$/.exec(before);
  if (ref) {
    if (ref[2] === undefined) return earlier.filter((r) => r !== current || r.line - 1 !== pos.line).map((r) => item(r.name, K.Reference, r.op?.id));
    if (/^\.[A-Za-z]*$/.test(ref[2])) return PATH_ROOTS.map((p) => item(p, K.Field));
    return [];
  }
  if (/\$\{[A-Za-z0-9_:-]*$/.test(before)) {
    return [
      ...[...file.variables.keys()].map((v) => item(v, K.Variable, file.variables.get(v)?.text)),
      item('env:', K.Module, 'an environment variable'),
      item('secret:', K.Module, 'a secret'),
    ];
  }
  if (/^\s*request\s+\S+\s*=\s*\S*$/.test(before)) {
    return [
      ...OPERATIONS.map((op) => item(op.id, op.broadcast ? K.Event : K.Function, op.title)),
      // The module routes (docs/modules.md): `staking.Validators`, with their path and summary.
      ...routeOperations().map((op) => item(op.id, K.Method, `${op.route!.path} · ${op.route!.summary}`)),
      item(WS_SUBSCRIBE.id, K.Function, WS_SUBSCRIBE.title),
      item(ACCOUNT_OPERATION.id, K.Function, ACCOUNT_OPERATION.title),
      ...INTERFACES.map((i) => item(i, K.Module, 'a raw request on this interface', `${i} `)),
    ];
  }
  if (/^\s*provider\s*:\s*\S*$/.test(before)) {
    return [
      item('*', K.Constant, 'every provider'),
      ...readSettings().providers.providers.map((p) => item(p.name, K.Value, Object.keys(p.endpoints).join(', '))),
    ];
  }
  const kinds = { keyword: K.Keyword, field: K.Field, property: K.Property } as const;
  // After `assert `, by the request's operation (evm.simulate adds engine, revert, logs, steps[i]…; `revert.` its fields): core/queries/completion.ts.
  const asserted = /^\s*assert\s+(?:(\S*)\.[A-Za-z]*|\S*)$/.exec(before);
  if (asserted) return assertionCompletions(current?.op?.id, asserted[1]).map((e) => item(e.label, kinds[e.kind], e.detail, e.insert));
  if (/^\s*[A-Za-z_]*$/.test(before)) {
    const out = [item('request', K.Keyword, 'request <name> = <operation>', 'request '), item('@', K.Variable, '@name = value')];
    if (current) {
      for (const e of keyCompletions(current.op?.id, current.fixedArgs)) out.push(item(e.label, kinds[e.kind], e.detail, e.insert));
      out.push(item('assert', K.Keyword, undefined, 'assert '));
    }
    return out;
  }
  return [];
}
