// The network row of the Providers view, shown above its providers when more than one network is
// configured (config/networks.ts): its name, chain ids, best height and a summary of its providers.

import vscode = require('vscode');
import { formatHeight } from '../../core/base/numbers';
import type { Network } from '../../core/config/networks';
import { escapeMarkdown } from '../../core/documents/markdown';
import type { InterfaceHealth } from '../../core/health/model';
import { healthColor, summarizeProvider } from '../health/healthPresentation';

/** The highest height a usable interface of the network reports (wrong-chain and suspect rows excluded). */
export function bestHeight(rows: readonly InterfaceHealth[]): bigint | undefined {
  let best: bigint | undefined;
  for (const r of rows) {
    const h = r.last?.ok ? r.last.height : undefined;
    if (h === undefined || (r.state !== 'healthy' && r.state !== 'lagging')) continue;
    if (best === undefined || h > best) best = h;
  }
  return best;
}

export class NetworkNode {
  readonly kind = 'network' as const;
  constructor(
    readonly network: Network,
    /** The health rows of the network's providers. */
    readonly health: readonly InterfaceHealth[] = [],
  ) {}
  toTreeItem(): vscode.TreeItem {
    const n = this.network;
    const item = new vscode.TreeItem(n.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `network:${n.key}`;
    const ids = [
      n.chainId !== n.label ? n.chainId : undefined,
      n.evmChainId ? vscode.l10n.t('EVM {0}', `${BigInt(n.evmChainId).toString()} (0x${BigInt(n.evmChainId).toString(16)})`) : undefined,
    ];
    const height = bestHeight(this.health);
    const summary = summarizeProvider(this.health);
    const count = n.providers.length === 1 ? vscode.l10n.t('1 provider') : vscode.l10n.t('{0} providers', n.providers.length);
    item.description = [
      ...ids.filter((x): x is string => x !== undefined),
      height !== undefined ? vscode.l10n.t('height {0}', formatHeight(height)) : undefined,
      n.unidentified ? vscode.l10n.t('chain not identified yet') : undefined,
      summary ? `${count}: ${summary.text}` : count,
    ]
      .filter((x): x is string => x !== undefined)
      .join(' · ');
    item.iconPath = new vscode.ThemeIcon('globe', summary ? healthColor(summary.state) : undefined);
    item.contextValue = 'network';
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(vscode.l10n.t('**Network** {0}', escapeMarkdown(n.label)));
    // Provider names and chain ids come from settings and nodes: through the one escaper (core/documents/markdown.ts).
    tooltip.appendMarkdown(`  \n${escapeMarkdown(String(item.description), 600)}  \n${escapeMarkdown(n.providers.map((p) => p.name).join(', '), 600)}`);
    item.tooltip = tooltip;
    return item;
  }
}
