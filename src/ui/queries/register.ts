// Query files (`.chainq`, README "Query files") in the editor at no cost to activation: the two run
// commands, and the language features (diagnostics, completion, CodeLens, the Testing view) loaded
// from their own file (./index.ts) when the first query file is opened, or when the workspace holds one (looked
// for a few seconds after activation).

import vscode = require('vscode');
import { Commands } from '../base/commandIds';
import { registerCommand } from '../base/commands';
import type { Activation } from '../base/activation';
import type { CommandDeps } from '../base/deps';
import { Disposable } from '../base/lifecycle';
import { onDemand } from '../base/load';
import type { QueryEditor } from './queryEditor';

const LANGUAGE_ID = 'chainq';
const LOOK_AFTER_MS = 3000;

export class QueryFiles extends Disposable {
  private started?: Promise<void>;
  private editor?: QueryEditor;

  constructor(private readonly deps: CommandDeps) {
    super();
    this._register(
      registerCommand(deps.log, Commands.queriesRun, (uri?: unknown, name?: unknown) => this.run(uri, typeof name === 'string' ? name : undefined)),
      registerCommand(deps.log, Commands.queriesRunAll, (uri?: unknown) => this.run(uri)),
      vscode.workspace.onDidOpenTextDocument((d) => {
        if (d.languageId === LANGUAGE_ID) void this.start();
      }),
    );
    if (vscode.workspace.textDocuments.some((d) => d.languageId === LANGUAGE_ID)) {
      void this.start();
    } else {
      const timer = setTimeout(() => {
        void Promise.resolve(vscode.workspace.findFiles('**/*.chainq', '**/node_modules/**', 1)).then(
          (found) => {
            if (found.length > 0) void this.start();
          },
          () => undefined,
        );
      }, LOOK_AFTER_MS);
      this._register({ dispose: () => clearTimeout(timer) });
    }
  }

  /** Loads and starts the language features once. */
  private start(): Promise<void> {
    return (this.started ??= onDemand.queries().then(({ QueryEditor }) => {
      this.editor = this._register(new QueryEditor(this.deps));
    }));
  }

  private async run(arg: unknown, name?: string): Promise<unknown> {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a .chainq query file to run it.'));
      return undefined;
    }
    await this.start();
    const doc = await vscode.workspace.openTextDocument(uri);
    // Through the Testing view's controller: the CodeLens run shows there too.
    return this.editor!.tests.runFromEditor(doc, name ? [name] : undefined, true);
  }
}

/** Query files at activation (src/extension.ts). */
export function registerQueries(a: Activation): void {
  a.keep(new QueryFiles(a));
}
