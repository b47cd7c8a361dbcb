// The nodes of the Providers view: a provider, the interfaces it publishes (address as the
// description), the operations of each interface (click to run), and invalid settings entries.
// Each node builds its own TreeItem and carries a `kind`: code loaded on demand tells nodes apart by
// `kind` (isInterfaceNode, isOperationNode), never by instanceof across the lazy boundary.

import vscode = require('vscode');
import { Commands, operationCommand } from '../base/commandIds';
import type { Operation } from '../../core/chain/operations';
import { INTERFACE_LABELS, type InterfaceId, type Provider, type ProviderProblem } from '../../core/config/providers';
import type { InterfaceHealth } from '../../core/health/model';
import { redactUrl } from '../../core/secrets/redact';
import { escapeMarkdown, markdownCode } from '../../core/documents/markdown';
import { describeHealth, healthColor, healthTooltipLines, summarizeProvider } from '../health/healthPresentation';
import type { Capabilities } from '../../core/health/capabilities';
import { capabilityTooltipLines } from '../health/capabilityPresentation';
import type { NetworkNode } from './networkNode';

const INTERFACE_ICONS: Record<InterfaceId, string> = {
  evmRpc: 'symbol-event',
  consensusHttp: 'globe',
  consensusRpc: 'symbol-method',
  consensusWs: 'plug',
  rest: 'symbol-interface',
  evmWs: 'radio-tower',
};

export class ProviderNode {
  readonly kind = 'provider' as const;
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
  readonly kind = 'interface' as const;
  constructor(
    readonly provider: Provider,
    readonly iface: InterfaceId,
    readonly health?: InterfaceHealth,
    readonly capabilities?: Capabilities,
  ) {}
  get address(): string {
    return this.provider.endpoints[this.iface]!;
  }
  toTreeItem(): vscode.TreeItem {
    // The EVM WebSocket has no catalogue operations (it is for Watch Events…): nothing to expand.
    const collapsible = this.iface === 'evmWs' ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(INTERFACE_LABELS[this.iface], collapsible);
    item.id = `provider:${this.provider.name}/${this.iface}`;
    const h = this.health && this.health.state !== 'unknown' ? this.health : undefined;
    const status = h ? describeHealth(h) : '';
    item.description = status ? `${status} · ${redactUrl(this.address)}` : redactUrl(this.address);
    const tooltip = new vscode.MarkdownString(
      `${vscode.l10n.t('**{0}** of {1}', INTERFACE_LABELS[this.iface], escapeMarkdown(this.provider.name))}  \n${markdownCode(redactUrl(this.address))}`,
    );
    if (h) tooltip.appendMarkdown(`\n\n${healthTooltipLines(h).join('  \n')}`);
    const caps = capabilityTooltipLines(this.capabilities, this.iface);
    if (caps.length) tooltip.appendMarkdown(`\n\n${caps.join('  \n')}`);
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      h?.crossCheck ? 'warning' : INTERFACE_ICONS[this.iface],
      h ? healthColor(h.crossCheck && h.state === 'healthy' ? 'lagging' : h.state) : undefined,
    );
    item.contextValue = 'interface';
    return item;
  }
}

export class OperationNode {
  readonly kind = 'operation' as const;
  constructor(
    readonly provider: Provider,
    readonly operation: Operation,
    /** Why this provider cannot serve the operation (from its capabilities), when known. */
    readonly unserved?: string,
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
    if (this.unserved) {
      // Marked, not hidden: running it says why and names a provider that can serve it.
      item.description = [vscode.l10n.t('not served here'), needs].filter(Boolean).join(' · ');
      item.tooltip = `${op.title}\n${this.unserved}\n${vscode.l10n.t('Click to choose a provider that can serve it.')}`;
      item.iconPath = new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
      item.contextValue = `${item.contextValue}.unserved`;
    }
    // A module route has no command of its own: REST: Query a Module Route… runs the node's route.
    item.command = { command: op.route ? Commands.restQuery : operationCommand(op.id), title: op.title, arguments: [this] };
    if (op.route)
      item.tooltip = `${op.title}\n${op.route.path}\n${op.route.summary}\n${this.unserved ?? vscode.l10n.t('Click to run against {0}.', this.provider.name)}`;
    return item;
  }
}

/** The routes of one REST module (staking, gov, ibc.client, vm, …) under a provider's REST interface: collapsed. */
export class ModuleGroupNode {
  readonly kind = 'module' as const;
  constructor(
    readonly provider: Provider,
    readonly module: string,
    readonly operations: readonly Operation[],
    /** Why this provider does not serve the module (a 501 seen or probed), when known. */
    readonly unserved?: string,
  ) {}
  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.module, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `provider:${this.provider.name}/rest/module:${this.module}`;
    const count = this.operations.length === 1 ? vscode.l10n.t('1 route') : vscode.l10n.t('{0} routes', this.operations.length);
    item.description = this.unserved ? `${vscode.l10n.t('not served here')} · ${count}` : count;
    item.tooltip = this.unserved ? `${this.module}\n${this.unserved}` : `${this.module}: ${count}`;
    item.iconPath = this.unserved
      ? new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'))
      : new vscode.ThemeIcon('symbol-namespace');
    item.contextValue = this.unserved ? 'module.unserved' : 'module';
    return item;
  }
}

export class ProblemNode {
  readonly kind = 'problem' as const;
  constructor(readonly problem: ProviderProblem) {}
  toTreeItem(): vscode.TreeItem {
    const label = this.problem.name ? vscode.l10n.t('{0}: invalid', this.problem.name) : vscode.l10n.t('Entry {0}: invalid', this.problem.index + 1);
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = `problem:${this.problem.index}`;
    item.description = this.problem.message;
    item.tooltip = new vscode.MarkdownString(
      `${vscode.l10n.t('**Invalid provider entry** in `{0}`', 'chainEndpoints.providers')}\n\n${escapeMarkdown(this.problem.message, 600)}`,
    );
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.contextValue = 'problem';
    item.command = { command: Commands.openSettings, title: vscode.l10n.t('Open Settings') };
    return item;
  }
}

export type TreeNode = NetworkNode | ProviderNode | InterfaceNode | OperationNode | ModuleGroupNode | ProblemNode;
