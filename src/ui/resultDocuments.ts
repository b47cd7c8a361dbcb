// Read-only result documents through the `chain-endpoints` URI scheme. One URI per request
// (provider, operation, arguments): running it again replaces the text and the open editor
// follows. The texts live here while their documents are open; never untitled documents, so
// closing one never asks to save.

import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { Outcome } from '../core/execute';
import { renderDocument } from '../core/render';

export const RESULT_SCHEME = 'chain-endpoints';

export class ResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor() {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === RESULT_SCHEME) this.texts.delete(doc.uri.toString());
      }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.texts.get(uri.toString()) ??
      '// This result is no longer in memory (the window was reloaded): run the request again.\n{}\n'
    );
  }

  /** Shows an outcome: its own file when the body went to disk, else a result document. */
  async show(outcome: Outcome): Promise<vscode.Uri> {
    if (outcome.file && !outcome.error) {
      const uri = vscode.Uri.file(outcome.file);
      await vscode.window.showTextDocument(uri, { preview: false });
      return uri;
    }
    const uri = resultUri(outcome);
    const key = uri.toString();
    const isOpen = this.texts.has(key);
    this.texts.set(key, renderDocument(outcome));
    if (isOpen) this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: false });
    return uri;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.texts.clear();
  }
}

/** A readable, stable address: `chain-endpoints:/<provider>/<operation> <args>.json`. */
export function resultUri(outcome: Outcome): vscode.Uri {
  const args = Object.entries(outcome.args)
    .filter(([k, v]) => k !== 'provider' && v.trim() !== '')
    .map(([, v]) => (v.length > 24 ? `${v.slice(0, 12)}…${v.slice(-8)}` : v.trim()))
    .join(' ');
  const name = `${outcome.operation.label.replace(/…$/, '')}${args ? ' ' + args : ''}`;
  const clean = (s: string) => s.replace(/[\\/:*?"<>|#%{}]+/g, '_');
  return vscode.Uri.from({
    scheme: RESULT_SCHEME,
    path: `/${clean(outcome.providerName)}/${clean(name)}.json`,
    // Distinguishes requests whose shortened names collide (e.g. two custom requests).
    query: `${outcome.operation.id}&${createHash('sha1').update(JSON.stringify(outcome.args)).digest('hex').slice(0, 10)}`,
  });
}
