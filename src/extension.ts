// Wiring only: the log channel first, then each part with its dependencies, every one pushed to
// context.subscriptions. The parts live in src/ui (editor-facing) and src/core (plain Node).

import vscode = require('vscode');
import { Commands } from './ui/base/commandIds';
import { type InterfaceHealth } from './core/health/model';
import { type HistoryEntry } from './core/documents/history';
import { HttpClient } from './core/transport/http';
import { formatBytes } from './core/base/numbers';
import { redactUrl } from './core/secrets/redact';
import type { ImportArgs } from './ui/providers/importChainRegistry';
import { API_VERSION, type ChainEndpointsApi } from './api';
import { setTranslator } from './core/base/l10n';
import { OPERATION_IDS } from './core/chain/operationIds';
import { registerCommand, registerOperationCommands } from './ui/base/commands';
import { readSettings } from './ui/base/settings';
import type { CompareView } from './ui/health/compareView';
import { HealthController } from './ui/health/healthController';
import { HeightStatusBar } from './ui/statusBar/heightStatusBar';
import { NetworkStatusBars } from './ui/statusBar/networkStatusBars';
import { currentNetworks } from './ui/providers/networkDirectory';
import { HistoryView } from './ui/requests/historyView';
import { loadOnDemand } from './ui/base/load';
import { createLog } from './ui/base/log';
import { windowPrompts } from './ui/base/prompts';
import { watchProxySettings } from './ui/providers/proxySettings';
import { ProvidersTree, type TreeSnapshot } from './ui/providers/providersTree';
import { QueryFiles } from './ui/queries/register';
import { registerExplorer } from './ui/explorer/register';
import { ResultDocuments } from './ui/base/resultDocuments';
import { SecretStore } from './ui/providers/secretStore';
import { sweepSpillDir } from './core/transport/spillFiles';
import { deferredWatch } from './core/base/deferredWatch';
import { errorMessage } from './core/base/errors';
import { rememberPicksIn } from './ui/base/pickMemory';

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
  const log = createLog();
  // Requests and sockets go through the editor's proxy setting (before anything connects).
  context.subscriptions.push(log, watchProxySettings());

  const http = new HttpClient({
    userAgent: `chain-endpoints/${context.extension.packageJSON.version}`,
    onResponse: (req, res) =>
      log.debug(`[http] ${req.method} ${redactUrl(req.url)} -> ${res.status} ${Math.round(res.elapsedMs)} ms ${formatBytes(res.bytes)}`),
  });
  context.subscriptions.push({ dispose: () => void http.close() });

  rememberPicksIn(context.workspaceState);
  const secrets = new SecretStore(context, log);
  const documents = new ResultDocuments();
  const health = new HealthController(http, log, secrets);
  const tree = new ProvidersTree(health);
  const statusBar = new HeightStatusBar(log, http, health, secrets);
  const networkBars = new NetworkStatusBars(log, http, health, secrets, statusBar);
  const history = new HistoryView(vscode.Uri.joinPath(context.globalStorageUri, 'history'), documents, log);
  context.subscriptions.push(secrets, documents, health, tree, statusBar, networkBars, history);

  // What no one sees at startup is loaded on first use (src/ui/onDemand/index.ts): the comparison view,
  // the two ways to add providers, and the request runner.
  let compare: Promise<CompareView> | undefined;
  const compareView = () =>
    (compare ??= loadOnDemand().then(({ CompareView }) => {
      const view = new CompareView(context.extensionUri, health);
      context.subscriptions.push(view);
      return view;
    }));

  const storageDir = vscode.Uri.joinPath(context.globalStorageUri, 'results').fsPath;
  const deps = {
    log,
    http,
    documents,
    secrets,
    history,
    storageDir,
    health,
    state: context.globalState,
    keep: (d: vscode.Disposable) => void context.subscriptions.push(d),
  };
  // Answers left in storage by earlier sessions: stale and partial files go (core/transport/spillFiles.ts).
  const sweep = setTimeout(
    () => void sweepSpillDir(storageDir).then((gone) => gone.length && log.info(`[storage] removed ${gone.length} stale answer file(s)`)),
    5000,
  );
  context.subscriptions.push({ dispose: () => clearTimeout(sweep) });
  context.subscriptions.push(
    ...registerOperationCommands(deps),
    new QueryFiles(deps),
    ...registerExplorer(deps),
    registerCommand(log, Commands.setSecret, (arg?: { provider?: string; name?: string; value?: string }) =>
      secrets.promptSet(arg, async () => (await loadOnDemand()).providerPrompts(windowPrompts, () => health.rows())),
    ),
    registerCommand(log, Commands.deleteSecret, (arg?: { provider?: string; name?: string }) => secrets.promptDelete(arg)),
    // An explicit Refresh probes what each provider serves again too (a node restarted with other settings).
    registerCommand(log, Commands.refresh, async () => {
      tree.refresh();
      await health.refresh(undefined, { capabilities: true });
    }),
    registerCommand(log, Commands.compareHealth, async () => (await compareView()).show()),
    registerCommand(log, Commands.addProvider, async () => (await loadOnDemand()).addProvider()),
    registerCommand(log, Commands.importChainRegistry, async (arg?: ImportArgs) => (await loadOnDemand()).importChainRegistry(arg)),
    registerCommand(log, Commands.openSettings, () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:chain-endpoints.chain-endpoints')),
    // With one item per network (statusBar.perNetwork), an item's menu names its network.
    registerCommand(log, Commands.statusBarMenu, (network?: unknown) => (networkBars.bar(String(network)) ?? statusBar).showMenu()),
    registerCommand(log, Commands.statusBarReconnect, () => [statusBar, ...networkBars.all()].forEach((b) => b.reconnect())),
    registerCommand(log, Commands.statusBarSwitchProvider, (network?: unknown) => (networkBars.bar(String(network)) ?? statusBar).switchProvider()),
    registerCommand(log, Commands.watchEvents, async (arg?: unknown) =>
      (await loadOnDemand()).watchEvents({ extensionUri: context.extensionUri, log, secrets, health, keep: (d) => context.subscriptions.push(d) }, arg),
    ),
  );
  // The sample workspace (examples/workspace, what `npm start` opens) asks for the view at once.
  if (readSettings().showViewOnStartup)
    void vscode.commands
      .executeCommand('chainEndpoints.providers.focus')
      .then(undefined, (e: unknown) => log.warn(`[activate] showing the view: ${errorMessage(e)}`));
  log.info(`[activate] Chain Endpoints ${context.extension.packageJSON.version} active`);

  return {
    apiVersion: API_VERSION,
    providers: () => {
      const all = readSettings().providers.providers;
      const networks = currentNetworks(all);
      return all.map(({ name, endpoints, chainId, evmChainId }) => {
        const network = networks.find((n) => !n.unidentified && n.providers.some((p) => p.name === name))?.label;
        return { name, endpoints: { ...endpoints }, chainId, evmChainId, network };
      });
    },
    operations: () => [...OPERATION_IDS],
    run: async (operation, options) => (await loadOnDemand()).runForApi(deps, operation, options),
    // { height }: the query `<address>@<height>`, read and checked by core/explorer/identify.ts.
    lookUp: async (query, options) =>
      (await loadOnDemand()).lookUpForApi(deps, options?.height === undefined ? query : `${String(query).trim()}@${String(options.height).trim()}`, options),
    callContract: async (spec) => (await loadOnDemand()).callContractForApi(deps, spec),
    decode: async (input) => (await loadOnDemand()).decodeForApi(deps, input),
    simulate: async (spec) => (await loadOnDemand()).simulateForApi(deps, spec),
    capabilities: async (provider) => (await loadOnDemand()).capabilitiesForApi(health, provider),
    watch: (spec, listener) => {
      // The handle at once; a refused spec reaches the listener as a `note` event.
      const watch = deferredWatch(
        async () => (await loadOnDemand()).watchForApi({ log, secrets, health }, spec, listener),
        listener,
        (err) => log.warn(`[events] a watch() listener threw: ${errorMessage(err)}`),
      );
      context.subscriptions.push(watch); // closed on deactivation if the caller did not
      return watch;
    },
    onDidChangeHeight: statusBar.onDidChangeHeight,
    currentHeight: () => {
      const { configured, following, snapshot, reason } = statusBar.current;
      if (!configured || !following) return undefined;
      return { provider: following.name, configured: configured.name, height: snapshot?.height?.toString(), state: snapshot?.state ?? 'stopped', reason };
    },
    testing: {
      treeSnapshot: () => tree.snapshot(),
      healthRows: () => health.rows(),
      history: () => history.list(),
      networkHeights: () =>
        networkBars.all().map(({ current: c }) => ({ configured: c.configured?.name, following: c.following?.name, height: c.snapshot?.height?.toString() })),
      compareContent: async () => (compare ? (await compare).content() : undefined),
      statusBarTooltip: () => statusBar.tooltipMarkdown,
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
