// Wiring only: the log channel first, then each part with its dependencies, every one pushed to
// context.subscriptions. The parts live in src/ui (editor-facing) and src/core (plain Node).

import * as vscode from 'vscode';
import { InterfaceHealth } from './core/health';
import { HttpClient, formatBytes } from './core/http';
import { redactUrl } from './core/providers';
import { addProvider } from './ui/addProvider';
import { registerCommand, registerOperationCommands } from './ui/commands';
import { CompareView } from './ui/compareView';
import { HealthController } from './ui/healthController';
import { HeightStatusBar, STATUS_MENU_COMMAND } from './ui/heightStatusBar';
import { createLog } from './ui/log';
import { ProvidersTree, TreeSnapshot } from './ui/providersTree';
import { ResultDocuments } from './ui/resultDocuments';
import { SecretStore } from './ui/secretStore';

/** What activate() returns; a first, versioned API (see README). */
export interface ChainEndpointsApi {
  readonly apiVersion: 1;
  /**
   * The status bar: the provider it follows (a fallback while the configured one is unwell), the
   * configured one, the height (decimal string) and the tracker state; undefined when hidden.
   */
  currentHeight(): { provider: string; configured: string; height?: string; state: string; reason?: string } | undefined;
  /** Not a stable API: what the Providers view shows, for the integration tests. */
  readonly testing: { treeSnapshot(): Promise<TreeSnapshot[]>; healthRows(): readonly InterfaceHealth[] };
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

  const secrets = new SecretStore(context, log);
  const documents = new ResultDocuments();
  const health = new HealthController(http, log, secrets);
  const tree = new ProvidersTree(health);
  const statusBar = new HeightStatusBar(log, http, health, secrets);
  const compare = new CompareView(context.extensionUri, health);
  context.subscriptions.push(secrets, documents, health, tree, statusBar, compare);

  const storageDir = vscode.Uri.joinPath(context.globalStorageUri, 'results').fsPath;
  context.subscriptions.push(
    ...registerOperationCommands({ log, http, documents, secrets, storageDir }),
    registerCommand(log, 'chainEndpoints.setSecret', (arg?: { name?: string; value?: string }) => secrets.promptSet(arg)),
    registerCommand(log, 'chainEndpoints.deleteSecret', (arg?: { name?: string }) => secrets.promptDelete(arg)),
    registerCommand(log, 'chainEndpoints.refresh', async () => {
      tree.refresh();
      await health.refresh();
    }),
    registerCommand(log, 'chainEndpoints.health.compare', () => compare.show()),
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
      const { configured, following, snapshot, reason } = statusBar.current;
      if (!configured || !following) return undefined;
      return { provider: following.name, configured: configured.name, height: snapshot?.height?.toString(), state: snapshot?.state ?? 'stopped', reason };
    },
    testing: { treeSnapshot: () => tree.snapshot(), healthRows: () => health.rows() },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
