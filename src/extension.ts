// Wiring only: the log channel first, then each part with its dependencies, every one pushed to
// context.subscriptions. The parts live in src/ui (editor-facing) and src/core (plain Node).

import * as vscode from 'vscode';
import { HttpClient, formatBytes } from './core/http';
import { redactUrl } from './core/providers';
import { addProvider } from './ui/addProvider';
import { registerCommand, registerOperationCommands } from './ui/commands';
import { HeightStatusBar, STATUS_MENU_COMMAND } from './ui/heightStatusBar';
import { createLog } from './ui/log';
import { ProvidersTree, TreeSnapshot } from './ui/providersTree';
import { ResultDocuments } from './ui/resultDocuments';

/** What activate() returns; a first, versioned API (see README). */
export interface ChainEndpointsApi {
  readonly apiVersion: 1;
  /** The status bar's provider and height (decimal string), or undefined while unknown. */
  currentHeight(): { provider: string; height?: string; state: string } | undefined;
  /** Not a stable API: what the Providers view shows, for the integration tests. */
  readonly testing: { treeSnapshot(): Promise<TreeSnapshot[]> };
}

export function activate(context: vscode.ExtensionContext): ChainEndpointsApi {
  const log = createLog();
  context.subscriptions.push(log);

  const http = new HttpClient({
    userAgent: `chain-endpoints/${context.extension.packageJSON.version}`,
    onResponse: (req, res) =>
      log.debug(`[http] ${req.method} ${redactUrl(req.url)} -> ${res.status} ${Math.round(res.elapsedMs)} ms ${formatBytes(res.bytes)}`),
  });
  context.subscriptions.push({ dispose: () => void http.close() });

  const documents = new ResultDocuments();
  const tree = new ProvidersTree();
  const statusBar = new HeightStatusBar(log, http);
  context.subscriptions.push(documents, tree, statusBar);

  const storageDir = vscode.Uri.joinPath(context.globalStorageUri, 'results').fsPath;
  context.subscriptions.push(
    ...registerOperationCommands({ log, http, documents, storageDir }),
    registerCommand(log, 'chainEndpoints.refresh', () => {
      tree.refresh();
      statusBar.restart();
    }),
    registerCommand(log, 'chainEndpoints.addProvider', () => addProvider()),
    registerCommand(log, 'chainEndpoints.openSettings', () =>
      vscode.commands.executeCommand('workbench.action.openSettings', '@ext:chain-endpoints.chain-endpoints'),
    ),
    registerCommand(log, STATUS_MENU_COMMAND, () => statusBar.showMenu()),
    registerCommand(log, 'chainEndpoints.statusBar.reconnect', () => statusBar.reconnect()),
    registerCommand(log, 'chainEndpoints.statusBar.switchProvider', () => statusBar.switchProvider()),
  );
  log.info(`[activate] Chain Endpoints ${context.extension.packageJSON.version} active`);

  return {
    apiVersion: 1,
    currentHeight: () => {
      const { provider, snapshot } = statusBar.current;
      if (!provider) return undefined;
      return { provider: provider.name, height: snapshot?.height?.toString(), state: snapshot?.state ?? 'stopped' };
    },
    testing: { treeSnapshot: () => tree.snapshot() },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
