// Wiring only: the log channel first, then the shared services (HTTP client, secrets, result
// documents, health, History), then each feature's register.ts (src/ui/<feature>/register.ts), every
// disposable kept in context.subscriptions. What a feature runs is loaded on its first use
// (src/ui/base/load.ts). The parts live in src/ui (editor-facing) and src/core (plain Node).

import vscode = require('vscode');
import { type InterfaceHealth } from './core/health/model';
import { type HistoryEntry } from './core/documents/history';
import { lazyHttp } from './core/transport/lazyHttp';
import { formatBytes } from './core/base/numbers';
import { redactUrl } from './core/secrets/redact';
import { API_VERSION, type ChainEndpointsApi } from './api';
import { setTranslator } from './core/base/l10n';
import { errorMessage } from './core/base/errors';
import type { Activation } from './ui/base/activation';
import { createLog } from './ui/base/log';
import { rememberPicksIn } from './ui/base/pickMemory';
import { ResultDocuments } from './ui/base/resultDocuments';
import { readSettings, watchSettings } from './ui/base/settings';
import type { CompareView } from './ui/health/compareView';
import { HealthController } from './ui/health/healthController';
import { registerHealth } from './ui/health/register';
import { registerContracts } from './ui/contracts/register';
import { registerEvents } from './ui/events/register';
import { registerExplorer } from './ui/explorer/register';
import { watchProxySettings } from './ui/providers/proxySettings';
import { registerProviders } from './ui/providers/register';
import { type TreeSnapshot } from './ui/providers/providersTree';
import { SecretStore } from './ui/providers/secretStore';
import { registerQueries } from './ui/queries/register';
import { registerHistory } from './ui/requests/history';
import { registerRequests } from './ui/requests/register';
import { registerStatusBar } from './ui/statusBar/register';

/** What activate() returns: the public API (src/api.ts) and, not part of it, hooks for the tests. */
export interface ActivatedApi extends ChainEndpointsApi {
  readonly testing: {
    treeSnapshot(): Promise<TreeSnapshot[]>;
    healthRows(): readonly InterfaceHealth[];
    history(): Promise<readonly HistoryEntry[]>;
    /** The per-network status-bar items (statusBar.perNetwork): the provider each follows. */
    networkHeights(): { configured?: string; following?: string; height?: string }[];
    /** What the Compare view shows (its records and networks), once opened. */
    compareContent(): Promise<ReturnType<CompareView['content']> | undefined>;
    /** The status-bar item's tooltip, as Markdown text. */
    statusBarTooltip(): string | undefined;
  };
}

export function activate(context: vscode.ExtensionContext): ActivatedApi {
  // The request core (no vscode import) translates through the editor's bundle too.
  setTranslator((message, ...args) => vscode.l10n.t(message, ...args));
  // Settings are read once per change (first, so every later settings listener reads the new values).
  context.subscriptions.push(watchSettings());
  const log = createLog();
  // Requests and sockets go through the editor's proxy setting (before anything connects).
  context.subscriptions.push(log, watchProxySettings());

  // Built, with the whole transport, on the first request (core/transport/lazyHttp.ts).
  const http = lazyHttp({
    userAgent: `chain-endpoints/${context.extension.packageJSON.version}`,
    onResponse: (req, res) =>
      log.debug(`[http] ${req.method} ${redactUrl(req.url)} -> ${res.status} ${Math.round(res.elapsedMs)} ms ${formatBytes(res.bytes)}`),
  });
  context.subscriptions.push({ dispose: () => void http.close() });

  // The shared services.
  rememberPicksIn(context.workspaceState);
  const secrets = new SecretStore(context, log);
  const documents = new ResultDocuments();
  const health = new HealthController(http, log, secrets);
  context.subscriptions.push(secrets, documents, health);
  const keep = (d: vscode.Disposable) => void context.subscriptions.push(d);
  const history = registerHistory(keep, log, vscode.Uri.joinPath(context.globalStorageUri, 'history'), documents);
  const storageDir = vscode.Uri.joinPath(context.globalStorageUri, 'results').fsPath;
  const a: Activation = {
    log,
    http,
    documents,
    secrets,
    history,
    storageDir,
    health,
    state: context.globalState,
    extensionUri: context.extensionUri,
    keep,
  };
  // Answers left in storage by earlier sessions: stale and partial files go (core/transport/spillFiles.ts).
  const sweep = setTimeout(
    () =>
      void import('./core/transport/spillFiles')
        .then(({ sweepSpillDir }) => sweepSpillDir(storageDir))
        .then((gone) => gone.length && log.info(`[storage] removed ${gone.length} stale answer file(s)`))
        .catch((e: unknown) => log.warn(`[storage] sweeping stale answer files: ${errorMessage(e)}`)),
    5000,
  );
  context.subscriptions.push({ dispose: () => clearTimeout(sweep) });

  // The features, each from its folder's register.ts.
  const providers = registerProviders(a);
  const statusBar = registerStatusBar(a);
  const healthApi = registerHealth(a, () => providers.tree.refresh());
  const requests = registerRequests(a);
  const contracts = registerContracts(a);
  const explorer = registerExplorer(a);
  const events = registerEvents(a);
  registerQueries(a);

  // The sample workspace (examples/workspace, what `npm start` opens) asks for the view at once:
  // just after activation, which reads no setting itself (the first reading costs milliseconds).
  const showView = setTimeout(() => {
    if (readSettings().showViewOnStartup)
      void vscode.commands
        .executeCommand('chainEndpoints.providers.focus')
        .then(undefined, (e: unknown) => log.warn(`[activate] showing the view: ${errorMessage(e)}`));
  }, 0);
  context.subscriptions.push({ dispose: () => clearTimeout(showView) });
  log.info(`[activate] Chain Endpoints ${context.extension.packageJSON.version} active`);

  return {
    apiVersion: API_VERSION,
    providers: providers.providers,
    operations: requests.operations,
    run: requests.run,
    lookUp: explorer.lookUp,
    callContract: contracts.callContract,
    decode: contracts.decode,
    simulate: contracts.simulate,
    capabilities: healthApi.capabilities,
    watch: events.watch,
    onDidChangeHeight: statusBar.onDidChangeHeight,
    currentHeight: statusBar.currentHeight,
    testing: {
      treeSnapshot: () => providers.tree.snapshot(),
      healthRows: () => health.rows(),
      history: () => history.list(),
      networkHeights: () =>
        (statusBar.bars()?.networkBars.all() ?? []).map(({ current: c }) => ({
          configured: c.configured?.name,
          following: c.following?.name,
          height: c.snapshot?.height?.toString(),
        })),
      compareContent: () => healthApi.compareContent(),
      statusBarTooltip: () => statusBar.bars()?.statusBar.tooltipMarkdown,
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
