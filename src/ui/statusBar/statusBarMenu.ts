// The block-height item's click menu (open the latest block, switch provider, reconnect) and the
// provider pick; the choice is written by settings.ts (writeStatusBarProvider). Split out of
// heightStatusBar.ts, which builds the feeds, follows and renders.

import vscode = require('vscode');
import { operationCommand } from '../base/commandIds';
import { providerPickItems } from '../../core/config/networks';
import type { Provider } from '../../core/config/providers';
import type { InterfaceHealth } from '../../core/health/model';
import { redactUrl } from '../../core/secrets/redact';
import { currentNetworks } from '../providers/networkDirectory';
import { providerPrompts } from '../providers/providerPicks';
import { windowPrompts } from '../base/prompts';
import { readSettings, writeStatusBarProvider } from '../base/settings';

/** What the menu needs of one status-bar item. */
export interface StatusMenuTarget {
  /** The provider whose height is shown. */
  readonly following?: Provider;
  readonly height?: bigint;
  /** The providers this item may follow (all, or its network's). */
  candidates(): Provider[];
  reconnect(): void;
  /** For one item of `statusBar.perNetwork`: its network's name. */
  readonly networkLabel?: string;
  /** The health rows: the provider pick shows each provider's state and height. */
  rows(): readonly InterfaceHealth[];
}

export async function showStatusBarMenu(t: StatusMenuTarget): Promise<void> {
  const p = t.following;
  const items: (vscode.QuickPickItem & { id: string })[] = [];
  if (p?.endpoints.consensusRpc || p?.endpoints.consensusHttp || p?.endpoints.rest)
    items.push({ id: 'open', label: `$(file-code) ${vscode.l10n.t('Open the latest block')}`, description: p.name });
  items.push({ id: 'switch', label: `$(arrow-swap) ${vscode.l10n.t('Switch provider…')}` });
  items.push({ id: 'reconnect', label: `$(debug-restart) ${vscode.l10n.t('Reconnect')}` });
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Chain Endpoints: block height') });
  if (!picked) return;
  if (picked.id === 'reconnect') t.reconnect();
  if (picked.id === 'switch') await switchStatusProvider(t);
  if (picked.id === 'open' && p) await openLatestBlock(p, t.height);
}

async function openLatestBlock(p: Provider, height: bigint | undefined): Promise<void> {
  if (p.endpoints.consensusRpc && height !== undefined) {
    await vscode.commands.executeCommand(operationCommand('consensus.block'), { provider: p.name, height: height.toString() });
  } else if (p.endpoints.consensusHttp && height !== undefined) {
    await vscode.commands.executeCommand(operationCommand('consensusHttp.block'), { provider: p.name, height: height.toString() });
  } else if (p.endpoints.rest) {
    await vscode.commands.executeCommand(operationCommand('rest.latestBlock'), { provider: p.name });
  }
}

/** Asks which provider to follow (grouped by network) and writes the choice to the user's settings. */
export async function switchStatusProvider(t: StatusMenuTarget): Promise<void> {
  const { providers } = readSettings().providers;
  const candidates = t.candidates().filter((x) => x.endpoints.consensusWs || x.endpoints.consensusHttp);
  // The shared provider pick: state and height, the last used first (ui/providers/providerPicks.ts).
  const picked = await providerPrompts(windowPrompts, () => t.rows()).pick(
    providerPickItems(candidates, currentNetworks(providers), (x) => redactUrl(x.endpoints.consensusWs ?? x.endpoints.consensusHttp ?? '')),
    { title: vscode.l10n.t('Follow the block height of…') },
  );
  if (picked) await writeStatusBarProvider(picked.provider.name, t.networkLabel);
}
