// Query files in the Testing view: one item per file, its requests as children and each request's
// assertions under them. Running one (or all) runs those requests (and the earlier ones they
// reference) through the editor's runner (queryRun.ts) and marks each assertion passed or failed,
// with the value found and a link to the result document.

import vscode = require('vscode');
import { escapeMarkdown } from '../../core/documents/markdown';
import { firstErrorOfEachRequest } from '../../core/queries/check';
import { parseQueryFile } from '../../core/queries/parse';
import { type ProviderRun, type RequestRun, assertionsOf } from '../../core/queries/run';
import type { AssertionResult } from '../../core/queries/assert';
import type { QueryFile } from '../../core/queries/model';
import type { Diagnostic } from '../../core/queries/syntax';
import type { CommandDeps } from '../base/deps';
import { Disposable } from '../base/lifecycle';
import { type EditorRun, refusal, runQueryDocument } from './queryRun';

type Kind = { file: vscode.Uri } | { file: vscode.Uri; request: string } | { file: vscode.Uri; request: string; line: number };

export class QueryTests extends Disposable {
  private readonly controller: vscode.TestController;
  private readonly kinds = new WeakMap<vscode.TestItem, Kind>();

  constructor(private readonly deps: CommandDeps) {
    super();
    this.controller = this._register(vscode.tests.createTestController('chainEndpoints.queries', vscode.l10n.t('Chain Endpoints query files')));
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.controller.createRunProfile(vscode.l10n.t('Run'), vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token), true);
    const watcher = this._register(vscode.workspace.createFileSystemWatcher('**/*.chainq'));
    this._register(
      watcher.onDidCreate((uri) => this.readFile(uri)),
      watcher.onDidChange((uri) => {
        if (!vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString() && d.isDirty)) void this.readFile(uri);
      }),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
    );
  }

  private async discover(): Promise<void> {
    const files = await vscode.workspace.findFiles('**/*.chainq', '**/node_modules/**', 1000);
    await Promise.all(files.map((uri) => this.readFile(uri)));
  }

  private async readFile(uri: vscode.Uri): Promise<void> {
    try {
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const text = open ? open.getText() : Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
      this.updateFile(uri, parseQueryFile(text));
    } catch {
      this.controller.items.delete(uri.toString());
    }
  }

  update(doc: vscode.TextDocument, file: QueryFile): void {
    if (doc.uri.scheme === 'file' || doc.uri.scheme === 'untitled' || doc.uri.scheme === 'vscode-remote') this.updateFile(doc.uri, file);
  }

  private updateFile(uri: vscode.Uri, file: QueryFile): void {
    const id = uri.toString();
    const fileItem = this.controller.items.get(id) ?? this.controller.createTestItem(id, vscode.workspace.asRelativePath(uri), uri);
    this.kinds.set(fileItem, { file: uri });
    fileItem.children.replace(
      file.requests.map((r) => {
        const item = this.controller.createTestItem(`${id}#${r.name}`, `${r.name} · ${r.op?.id ?? r.target.text}`, uri);
        item.range = new vscode.Range(r.line - 1, 0, r.endLine - 1, 0);
        this.kinds.set(item, { file: uri, request: r.name });
        item.children.replace(
          r.assertions.map((a) => {
            const child = this.controller.createTestItem(`${id}#${r.name}#${a.line}`, a.text, uri);
            child.range = new vscode.Range(a.line - 1, 0, a.line - 1, a.col - 1 + a.text.length);
            this.kinds.set(child, { file: uri, request: r.name, line: a.line });
            return child;
          }),
        );
        return item;
      }),
    );
    if (!this.controller.items.get(id)) this.controller.items.add(fileItem);
  }

  /**
   * The CodeLens "Run" / "Run all": the same run, recorded in the Testing view (one TestRun for the
   * requests run), so the editor and the Testing view agree. Returns the run and what each test
   * item ended as.
   */
  async runFromEditor(
    doc: vscode.TextDocument,
    only: readonly string[] | undefined,
    open: boolean,
  ): Promise<(EditorRun & { tests: TestOutcomes }) | undefined> {
    this.updateFile(doc.uri, parseQueryFile(doc.getText()));
    const id = doc.uri.toString();
    const fileItem = this.controller.items.get(id);
    const include = fileItem && (only ? only.map((n) => fileItem.children.get(`${id}#${n}`)).filter((i): i is vscode.TestItem => !!i) : [fileItem]);
    const run = new RecordedRun(this.controller.createTestRun(new vscode.TestRunRequest(include), vscode.workspace.asRelativePath(doc.uri), false));
    try {
      const result = await this.runFile(run, doc.uri, only ? new Set(only) : undefined, undefined, open);
      return result && { ...result, tests: run.outcomes };
    } finally {
      run.end();
    }
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = new RecordedRun(this.controller.createTestRun(request));
    try {
      // What to run, per file: every request (undefined) or some of them.
      const byFile = new Map<string, { uri: vscode.Uri; only?: Set<string> }>();
      const roots = request.include ?? [...iterate(this.controller.items)];
      for (const item of roots) {
        const kind = this.kinds.get(item);
        if (!kind) continue;
        const key = kind.file.toString();
        const entry = byFile.get(key) ?? { uri: kind.file, only: new Set<string>() };
        if (!('request' in kind)) entry.only = undefined;
        else entry.only?.add(kind.request);
        byFile.set(key, entry);
      }
      for (const { uri, only } of byFile.values()) {
        if (token.isCancellationRequested) break;
        await this.runFile(run, uri, only, token);
      }
    } finally {
      run.end();
    }
  }

  private async runFile(
    run: RecordedRun,
    uri: vscode.Uri,
    only: Set<string> | undefined,
    token: vscode.CancellationToken | undefined,
    open = false,
  ): Promise<EditorRun | undefined> {
    const fileItem = this.controller.items.get(uri.toString());
    const refused = refusal();
    if (refused) {
      if (fileItem) run.errored(fileItem, new vscode.TestMessage(refused));
      if (open) void vscode.window.showWarningMessage(refused);
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    fileItem?.children.forEach((item) => {
      const name = this.kinds.get(item);
      if (name && 'request' in name && (!only || only.has(name.request))) run.started(item);
    });
    const result = await runQueryDocument(this.deps, doc, { only: only ? [...only] : undefined, token, open });
    if (!result) {
      if (fileItem) run.errored(fileItem, new vscode.TestMessage(vscode.l10n.t('The file has errors: see the Problems view.')));
      return undefined;
    }
    this.updateFile(uri, result.file);
    if (result.stop) this.reportStop(run, uri, result.file, result.diagnostics, only);
    else for (const r of result.run.requests) this.report(run, uri, r, result.documents);
    return result;
  }

  /** The checks stopped the run: each request with an error errored at it, the others skipped, the file errored at the first. */
  private reportStop(run: RecordedRun, uri: vscode.Uri, file: QueryFile, errors: readonly Diagnostic[], only: Set<string> | undefined): void {
    const fileItem = this.controller.items.get(uri.toString());
    if (!fileItem) return;
    const located = (d: Diagnostic) => {
      const m = new vscode.TestMessage(`${vscode.workspace.asRelativePath(uri)}:${d.line}:${d.col}: ${d.message}`);
      m.location = new vscode.Location(uri, new vscode.Position(d.line - 1, d.col - 1));
      return m;
    };
    const firstError = firstErrorOfEachRequest(file.requests, errors);
    for (const r of file.requests) {
      const item = fileItem.children.get(`${uri.toString()}#${r.name}`);
      if (!item) continue;
      const error = firstError.get(r);
      if (error) run.errored(item, located(error));
      else if (!only || only.has(r.name)) run.skipped(item);
    }
    run.errored(fileItem, located(errors[0]));
  }

  private report(run: RecordedRun, uri: vscode.Uri, r: RequestRun, documents: Map<ProviderRun, vscode.Uri>): void {
    const base = `${uri.toString()}#${r.request.name}`;
    const requestItem = this.controller.items.get(uri.toString())?.children.get(base);
    if (!requestItem) return;
    const duration = r.runs.reduce((s, p) => Math.max(s, p.record.latencyMs), 0);
    if (r.error) {
      // A request that did not run: its located error (a parse error, a missing value), at its line.
      const m = new vscode.TestMessage(r.error);
      const at = /^line (\d+):(\d+)/.exec(r.error);
      m.location = new vscode.Location(uri, at ? new vscode.Position(Number(at[1]) - 1, Number(at[2]) - 1) : new vscode.Position(r.request.line - 1, 0));
      run.errored(requestItem, m, duration);
      return;
    }
    // Each assertion's results: per provider, and across providers.
    const byLine = new Map<number, { provider?: ProviderRun; a: AssertionResult }[]>();
    for (const x of assertionsOf(r)) byLine.set(x.a.assertion.line, [...(byLine.get(x.a.assertion.line) ?? []), x]);
    let requestFailed = false;
    const requestMessages: vscode.TestMessage[] = [];
    for (const [line, results] of byLine) {
      const item: vscode.TestItem | undefined = line === r.request.line ? requestItem : requestItem.children.get(`${base}#${line}`);
      const failures = results.filter((x) => !x.a.passed);
      const messages = failures.map((x) => message(uri, line, x.provider, x.a, x.provider && documents.get(x.provider)));
      if (failures.length > 0) requestFailed = true;
      if (!item || item === requestItem) {
        requestMessages.push(...messages);
        continue;
      }
      if (failures.length > 0) run.failed(item, messages, duration);
      else run.passed(item, duration);
    }
    if (requestFailed)
      run.failed(requestItem, requestMessages.length > 0 ? requestMessages : [new vscode.TestMessage(vscode.l10n.t('An assertion failed.'))], duration);
    else run.passed(requestItem, duration);
  }
}

function message(uri: vscode.Uri, line: number, provider: ProviderRun | undefined, a: AssertionResult, document: vscode.Uri | undefined): vscode.TestMessage {
  const who = provider ? `${provider.provider}: ` : '';
  const found = a.actual !== undefined && !a.message.includes(a.actual) ? ` (${vscode.l10n.t('found {0}', a.actual)})` : '';
  const text = new vscode.MarkdownString();
  // A request that errored reads "error", not the name of the assertion it failed ("success").
  const errored = a.assertion.kind === 'success' && !a.passed && provider?.record.error !== undefined;
  // Provider names, the file's assertion and the server's values: through the one escaper (core/documents/markdown.ts).
  if (errored) text.appendMarkdown(escapeMarkdown(`${who}${vscode.l10n.t('error')} — ${provider!.record.error}`, 2000));
  else text.appendMarkdown(escapeMarkdown(`${who}${a.assertion.text} — ${a.message}${found}`, 2000));
  if (document) text.appendMarkdown(` · [${vscode.l10n.t('result document')}](${document.toString()})`);
  const m = new vscode.TestMessage(text);
  m.location = new vscode.Location(uri, new vscode.Position(line - 1, 0));
  if (a.actual !== undefined) m.actualOutput = a.actual;
  return m;
}

function* iterate(items: vscode.TestItemCollection): Generator<vscode.TestItem> {
  const all: vscode.TestItem[] = [];
  items.forEach((i) => all.push(i));
  yield* all;
}

/** What each test item of a run ended as (id → state and its first message), for the command's caller. */
export type TestOutcomes = Record<string, { state: 'passed' | 'failed' | 'errored' | 'skipped'; message?: string }>;

/** A TestRun that also keeps what it reported. */
class RecordedRun {
  readonly outcomes: TestOutcomes = {};
  constructor(private readonly run: vscode.TestRun) {}
  started(item: vscode.TestItem): void {
    this.run.started(item);
  }
  passed(item: vscode.TestItem, duration?: number): void {
    this.outcomes[item.id] = { state: 'passed' };
    this.run.passed(item, duration);
  }
  failed(item: vscode.TestItem, messages: vscode.TestMessage[], duration?: number): void {
    this.outcomes[item.id] = { state: 'failed', message: text(messages[0]) };
    this.run.failed(item, messages, duration);
  }
  skipped(item: vscode.TestItem): void {
    this.outcomes[item.id] = { state: 'skipped' };
    this.run.skipped(item);
  }
  errored(item: vscode.TestItem, message: vscode.TestMessage, duration?: number): void {
    this.outcomes[item.id] = { state: 'errored', message: text(message) };
    this.run.errored(item, message, duration);
  }
  end(): void {
    this.run.end();
  }
}

function text(m: vscode.TestMessage | undefined): string | undefined {
  // A Markdown message is returned as the text it shows (its escapes undone).
  return m === undefined ? undefined : typeof m.message === 'string' ? m.message : m.message.value.replace(/\\([\s\S])/g, '$1');
}
