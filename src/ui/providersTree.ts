// The Providers view. Three levels: a provider, the interfaces it publishes (address as the
// description), and the operations of each interface from the catalogue (click to run).
// Invalid settings entries appear as error rows saying what is wrong; valid entries keep working.
// Nodes build their own TreeItem; ids are stable so expansion survives refreshes.

import vscode = require('vscode');
import { COMMAND_PREFIX } from '../core/chain/operationIds';
import type { Operation } from '../core/chain/operations';
import { INTERFACES, INTERFACE_LABELS, InterfaceId, Provider, ProviderProblem, redactUrl } from '../core/config/providers';
import { InterfaceHealth } from '../core/health/health';
import { HealthController } from './healthController';
import { describeHealth, healthColor, healthTooltipLines, summarizeProvider } from './healthPresentation';
import { readSettings, onSettingsChanged } from './settings';
import { loadOnDemand } from './loadOnDemand';

export const VIEW_ID = 'chainEndpoints.providers';

const INTERFACE_ICONS: Record<InterfaceId, string> = {
  evmRpc: 'symbol-event',
  consensusHttp: 'globe',
  consensusRpc: 'symbol-method',
  consensusWs: 'plug',
  rest: 'symbol-interface',
};

export class ProviderNode {
  readonly kind = 'provider';
  constructor(
    readonly provider: Provider,
    readonly health: readonly InterfaceHealth[] = [],
  ) {}
  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.provider.name, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `provider:${this.provider.name}`;
    const count = Object.keys(this.provider.endpoints).length;
    const summary = summarizeProvider(this.health);
    const interfaces = count === 1 ? vscode.l10n.t('1 interface') : vscode.l10n.t('{0} interfaces', count);
    item.description = summary ? `${interfaces} · ${summary.text}` : interfaces;
    item.iconPath = new vscode.ThemeIcon('server-environment', summary ? healthColor(summary.state) : undefined);
    item.contextValue = 'provider';
    item.tooltip = summary ? `${this.provider.name}: ${summary.text}` : this.provider.name;
    return item;
  }
}

export class InterfaceNode {
  readonly kind = 'interface';
  constructor(
    readonly provider: Provider,
    readonly iface: InterfaceId,
    readonly health?: InterfaceHealth,
  ) {}
  get address(): string {
    return this.provider.endpoints[this.iface]!;
  }
  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(INTERFACE_LABELS[this.iface], vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `provider:${this.provider.name}/${this.iface}`;
    const h = this.health && this.health.state !== 'unknown' ? this.health : undefined;
    const status = h ? describeHealth(h) : '';
    item.description = status ? `${status} · ${redactUrl(this.address)}` : redactUrl(this.address);
    const tooltip = new vscode.MarkdownString(`${vscode.l10n.t('**{0}** of {1}', INTERFACE_LABELS[this.iface], this.provider.name)}  \n\`${redactUrl(this.address)}\``);
    if (h) tooltip.appendMarkdown(`\n\n${healthTooltipLines(h).join('  \n')}`);
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(h?.crossCheck ? 'warning' : INTERFACE_ICONS[this.iface], h ? healthColor(h.crossCheck && h.state === 'healthy' ? 'lagging' : h.state) : undefined);
    item.contextValue = 'interface';
    return item;
  }
}

export class OperationNode {
  readonly kind = 'operation';
  constructor(
    readonly provider: Provider,
    readonly operation: Operation,
  ) {}
  toTreeItem(): vscode.TreeItem {
    const op = this.operation;
    const item = new vscode.TreeItem(op.label, vscode.TreeItemCollapsibleState.None);
    item.id = `provider:${this.provider.name}/${op.iface}/${op.id}`;
    const needs = op.params.map((p) => (p.optional ? `[${p.key}]` : p.key)).join(', ');
    item.description = needs || undefined;
    item.tooltip = `${op.title}\n${vscode.l10n.t('Click to run against {0}.', this.provider.name)}`;
    item.iconPath = new vscode.ThemeIcon(op.broadcast ? 'cloud-upload' : 'play');
    item.contextValue = op.broadcast ? 'operation.broadcast' : 'operation';
    item.command = { command: COMMAND_PREFIX + op.id, title: op.title, arguments: [this] };
    return item;
  }
}

export class ProblemNode {
  readonly kind = 'problem';
  constructor(readonly problem: ProviderProblem) {}
  toTreeItem(): vscode.TreeItem {
    const label = this.problem.name ? vscode.l10n.t('{0}: invalid', this.problem.name) : vscode.l10n.t('Entry {0}: invalid', this.problem.index + 1);
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = `problem:${this.problem.index}`;
    item.description = this.problem.message;
    item.tooltip = new vscode.MarkdownString(`${vscode.l10n.t('**Invalid provider entry** in `{0}`', 'chainEndpoints.providers')}\n\n${this.problem.message}`);
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.contextValue = 'problem';
    item.command = { command: 'chainEndpoints.openSettings', title: vscode.l10n.t('Open Settings') };
    return item;
  }
}

export interface TreeSnapshot {
  label: string;
  description?: string;
  contextValue?: string;
  command?: string;
  children: TreeSnapshot[];
}

export type TreeNode = ProviderNode | InterfaceNode | OperationNode | ProblemNode;

export class ProvidersTree implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<TreeNode>;
  private readonly disposables: vscode.Disposable[] = [];
  /** Providers whose rows the user collapsed (rows start expanded). */
  private readonly collapsed = new Set<string>();

  constructor(private readonly health: HealthController) {
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
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
        this.reportShown();
      }),
      this.view.onDidCollapseElement((e) => {
        if (e.element instanceof ProviderNode) this.collapsed.add(e.element.provider.name);
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
    const names = this.view.visible
      ? readSettings().providers.providers.map((p) => p.name).filter((n) => !this.collapsed.has(n))
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
      return [
        ...providers.map((p) => new ProviderNode(p, rows.filter((r) => r.provider === p.name))),
        ...problems.map((p) => new ProblemNode(p)),
      ];
    }
    if (node instanceof ProviderNode) {
      return INTERFACES.filter((i) => node.provider.endpoints[i]).map((i) => new InterfaceNode(node.provider, i, this.health.healthOf(node.provider.name, i)));
    }
    if (node instanceof InterfaceNode) {
      // The catalogue loads with the code that runs its operations (when an interface is first expanded).
      return loadOnDemand().then(({ operationsFor }) => operationsFor(node.iface).map((op) => new OperationNode(node.provider, op)));
    }
    return [];
  }

  getParent(node: TreeNode): TreeNode | undefined {
    if (node instanceof OperationNode) return new InterfaceNode(node.provider, node.operation.iface);
    if (node instanceof InterfaceNode) return new ProviderNode(node.provider);
    return undefined;
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
        children: child instanceof ProviderNode || child instanceof InterfaceNode ? await this.snapshot(child) : [],
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
        vscode.l10n.t('This workspace is not trusted: the providers in its settings are not contacted (your user settings still apply). Trust the workspace to use them.'),
      );
    }
    if (state === 'broken') messages.push(vscode.l10n.t('No valid provider: fix the entries below in settings, or add a provider.'));
    this.view.message = messages.length ? messages.join(' ') : undefined;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
