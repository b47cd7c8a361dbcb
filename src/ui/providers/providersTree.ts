// The Providers view. Three levels: a provider, the interfaces it publishes, and the operations of
// each interface from the catalogue (the nodes: treeNodes.ts). Invalid settings entries appear as
// error rows saying what is wrong; valid entries keep working. Ids are stable so expansion survives
// refreshes.

import vscode = require('vscode');
import { Disposable } from '../base/lifecycle';
import { type Network, discoveredChains, groupNetworks } from '../../core/config/networks';
import { INTERFACES } from '../../core/config/providers';
import { NetworkNode } from './networkNode';
import { type HealthController } from '../health/healthController';
import { InterfaceNode, ModuleGroupNode, OperationNode, ProblemNode, ProviderNode, type TreeNode } from './treeNodes';
import { readSettings, onSettingsChanged } from '../base/settings';
import { onDemand } from '../base/load';
import type { Operation } from '../../core/chain/operations';

export const VIEW_ID = 'chainEndpoints.providers';

export interface TreeSnapshot {
  label: string;
  description?: string;
  contextValue?: string;
  command?: string;
  children: TreeSnapshot[];
}

export class ProvidersTree extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<TreeNode>;
  /** Providers whose rows the user collapsed (rows start expanded). */
  private readonly collapsed = new Set<string>();
  /** Networks (keys) the user collapsed. */
  private readonly collapsedNetworks = new Set<string>();

  constructor(private readonly health: HealthController) {
    super();
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this._register(
      this.changed,
      this.view,
      onSettingsChanged(['providers'], () => {
        this.refresh();
        this.reportShown();
      }),
      health.onDidChange(() => this.changed.fire(undefined)),
      this.view.onDidChangeVisibility(() => {
        if (this.view.visible) this.updateContext();
        this.reportShown();
      }),
      this.view.onDidExpandElement((e) => {
        if (e.element instanceof ProviderNode) this.collapsed.delete(e.element.provider.name);
        if (e.element instanceof NetworkNode) this.collapsedNetworks.delete(e.element.network.key);
        this.reportShown();
      }),
      this.view.onDidCollapseElement((e) => {
        if (e.element instanceof ProviderNode) this.collapsed.add(e.element.provider.name);
        if (e.element instanceof NetworkNode) this.collapsedNetworks.add(e.element.network.key);
        this.reportShown();
      }),
    );
    // The welcome state and the probes concern a visible view: both start when it shows (views
    // start hidden; VS Code reports them visible right after), not during activation.
    if (this.view.visible) {
      this.updateContext();
      this.reportShown();
    }
  }

  /** Tells the health controller which providers a person can see now. */
  private reportShown(): void {
    const hidden = new Set(
      this.networks()
        .filter((n) => this.collapsedNetworks.has(n.key))
        .flatMap((n) => n.providers.map((p) => p.name)),
    );
    const names = this.view.visible
      ? readSettings()
          .providers.providers.map((p) => p.name)
          .filter((n) => !this.collapsed.has(n) && !hidden.has(n))
      : [];
    this.health.setShown(new Set(names));
  }

  refresh(): void {
    this.updateContext();
    this.changed.fire(undefined);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.toTreeItem();
  }

  getChildren(node?: TreeNode): TreeNode[] | Promise<TreeNode[]> {
    if (!node) {
      const { providers, problems } = readSettings().providers;
      const rows = this.health.rows();
      const networks = this.networks();
      // One network keeps the plain list of providers; several are shown above their providers.
      let top: TreeNode[];
      if (networks.length > 1) top = networks.map((n) => new NetworkNode(n, rowsOf(rows, n)));
      else {
        const byProvider = rowsByProvider(rows);
        top = providers.map((p) => new ProviderNode(p, byProvider.get(p.name) ?? []));
      }
      return [...top, ...problems.map((p) => new ProblemNode(p))];
    }
    if (node instanceof NetworkNode) {
      const byProvider = rowsByProvider(this.health.rows());
      return node.network.providers.map((p) => new ProviderNode(p, byProvider.get(p.name) ?? []));
    }
    if (node instanceof ProviderNode) {
      const caps = this.health.capabilities(node.provider.name);
      return INTERFACES.filter((i) => node.provider.endpoints[i]).map(
        (i) => new InterfaceNode(node.provider, i, this.health.healthOf(node.provider.name, i), caps),
      );
    }
    if (node instanceof InterfaceNode) {
      // The catalogue loads with the code that runs its operations (when an interface is first expanded).
      const caps = this.health.capabilities(node.provider.name);
      return onDemand.providers().then(({ operationsFor, canServe, routeOperations, restModuleOf }) => {
        const ops: TreeNode[] = operationsFor(node.iface).map((op) => {
          const v = canServe(op, undefined, caps);
          return new OperationNode(node.provider, op, v.served === false ? v.reason : undefined);
        });
        if (node.iface !== 'rest') return ops;
        // REST: then a group per module (collapsed), generated and imported for this provider's network.
        const network = this.networks().find((n) => n.providers.some((p) => p.name === node.provider.name))?.key;
        const groups = new Map<string, Operation[]>();
        for (const op of routeOperations()) {
          const source = op.route!.source;
          if (source.startsWith('import:') && source !== `import:${network}`) continue;
          const list = groups.get(op.route!.module) ?? [];
          list.push(op);
          groups.set(op.route!.module, list);
        }
        for (const [module, list] of groups) {
          const key = list[0].route!.source.startsWith('import:') ? undefined : restModuleOf(list[0].route!.path);
          const v = key && caps?.rest?.modules[key] === false ? canServe(list[0], undefined, caps) : undefined;
          ops.push(new ModuleGroupNode(node.provider, module, list, v?.served === false ? v.reason : undefined));
        }
        return ops;
      });
    }
    if (node instanceof ModuleGroupNode) {
      const caps = this.health.capabilities(node.provider.name);
      return onDemand.providers().then(({ canServe }) =>
        node.operations.map((op) => {
          const v = canServe(op, undefined, caps);
          return new OperationNode(node.provider, op, v.served === false ? v.reason : undefined);
        }),
      );
    }
    return [];
  }

  getParent(node: TreeNode): TreeNode | undefined {
    if (node instanceof OperationNode && node.operation.route) return new ModuleGroupNode(node.provider, node.operation.route.module, []);
    if (node instanceof ModuleGroupNode) return new InterfaceNode(node.provider, 'rest');
    if (node instanceof OperationNode) return new InterfaceNode(node.provider, node.operation.iface);
    if (node instanceof InterfaceNode) return new ProviderNode(node.provider);
    if (node instanceof ProviderNode) {
      const networks = this.networks();
      const n = networks.length > 1 ? networks.find((x) => x.providers.some((p) => p.name === node.provider.name)) : undefined;
      return n && new NetworkNode(n, rowsOf(this.health.rows(), n));
    }
    return undefined;
  }

  /** The configured providers grouped into networks (declared, else discovered by the probes). */
  networks(): Network[] {
    const rows = this.health.rows();
    return groupNetworks(readSettings().providers.providers, discoveredChains(rows));
  }

  /** The whole tree as plain data (labels, descriptions, context values): for tests and the API. */
  async snapshot(node?: TreeNode): Promise<TreeSnapshot[]> {
    const out: TreeSnapshot[] = [];
    for (const child of await this.getChildren(node)) {
      const item = child.toTreeItem();
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      out.push({
        label,
        description: typeof item.description === 'string' ? item.description : undefined,
        contextValue: item.contextValue,
        command: item.command?.command,
        children:
          child instanceof NetworkNode || child instanceof ProviderNode || child instanceof InterfaceNode || child instanceof ModuleGroupNode
            ? await this.snapshot(child)
            : [],
      });
    }
    return out;
  }

  /** Sets the context key the welcome view reads, and the view's message for broken lists. */
  private updateContext(): void {
    const settings = readSettings();
    const { providers, problems } = settings.providers;
    const state = providers.length > 0 ? 'ok' : problems.length > 0 ? 'broken' : 'empty';
    void vscode.commands.executeCommand('setContext', 'chainEndpoints.providersState', state);
    const messages: string[] = [];
    if (settings.untrustedWorkspaceProviders) {
      messages.push(
        vscode.l10n.t(
          'This workspace is not trusted: the providers in its settings are not contacted (your user settings still apply). Trust the workspace to use them.',
        ),
      );
    }
    if (state === 'broken') messages.push(vscode.l10n.t('No valid provider: fix the entries below in settings, or add a provider.'));
    this.view.message = messages.length ? messages.join(' ') : undefined;
  }
}

/** The rows of each provider, in their order: one pass over the rows, not one per provider. */
function rowsByProvider<R extends { provider: string }>(rows: readonly R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of rows) {
    const list = out.get(r.provider);
    if (list) list.push(r);
    else out.set(r.provider, [r]);
  }
  return out;
}

function rowsOf<R extends { provider: string }>(rows: readonly R[], network: Network): R[] {
  const names = new Set(network.providers.map((p) => p.name));
  return rows.filter((r) => names.has(r.provider));
}
