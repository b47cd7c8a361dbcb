// The status-bar item `chainEndpoints.height`: owns its item and its feed (a HeightTracker on
// the chosen provider's consensus WebSocket, polling /status when the socket is unusable).
// Rebuilt whenever the provider or its settings change; the old tracker is disposed first.

import * as vscode from 'vscode';
import { HeightSnapshot, HeightTracker } from '../core/heightTracker';
import { HttpClient } from '../core/http';
import { interpret, isObject } from '../core/interpret';
import { Provider, joinUrl, redactUrl } from '../core/providers';
import { Log } from './log';
import { SECTION, onSettingsChanged, readSettings } from './settings';

export const STATUS_ITEM_ID = 'chainEndpoints.height';
export const STATUS_MENU_COMMAND = 'chainEndpoints.statusBar.menu';

const formatter = new Intl.NumberFormat('en-US');

export function formatHeight(h: bigint): string {
  return formatter.format(h);
}

/** Picks the provider the status bar follows: the named one, else the first with a WebSocket. */
export function chooseStatusProvider(providers: readonly Provider[], wanted: string): Provider | undefined {
  if (wanted) {
    const named = providers.find((p) => p.name.toLowerCase() === wanted.toLowerCase());
    if (named && (named.endpoints.consensusWs || named.endpoints.consensusHttp)) return named;
  }
  return providers.find((p) => p.endpoints.consensusWs) ?? providers.find((p) => p.endpoints.consensusHttp);
}

export class HeightStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private tracker?: HeightTracker;
  private provider?: Provider;
  private readonly disposables: vscode.Disposable[] = [];
  private ticker?: NodeJS.Timeout;
  private lastSnapshot?: HeightSnapshot;

  constructor(
    private readonly log: Log,
    private readonly http: HttpClient,
  ) {
    this.item = vscode.window.createStatusBarItem(STATUS_ITEM_ID, vscode.StatusBarAlignment.Left, 100);
    this.item.name = 'Chain Endpoints: block height';
    this.item.command = STATUS_MENU_COMMAND;
    this.disposables.push(
      this.item,
      onSettingsChanged(['providers', 'statusBar', 'requestTimeoutSeconds'], () => this.restart()),
    );
    this.restart();
  }

  /** The provider followed now, and the latest snapshot (for commands and tests). */
  get current(): { provider?: Provider; snapshot?: HeightSnapshot } {
    return { provider: this.provider, snapshot: this.lastSnapshot };
  }

  restart(): void {
    this.stopTracker();
    const settings = readSettings();
    const provider = chooseStatusProvider(settings.providers.providers, settings.statusBarProvider);
    this.provider = provider;
    if (!settings.statusBarEnabled || !provider) {
      this.item.hide();
      if (settings.statusBarEnabled && !provider) this.log.info('[status] no provider with a consensus address: status bar hidden');
      return;
    }
    const timeoutMs = settings.requestTimeoutMs;
    const statusBase = provider.endpoints.consensusHttp ?? provider.endpoints.consensusRpc;
    const tracker = new HeightTracker({
      wsUrl: provider.endpoints.consensusWs,
      fetchStatus: statusBase ? (signal) => this.fetchStatus(statusBase, Math.min(timeoutMs, 10_000), signal) : undefined,
      log: (level, message) => this.log[level](`[status] ${provider.name}: ${message}`),
    });
    this.tracker = tracker;
    tracker.onDidChange((s) => this.render(s));
    this.log.info(`[status] following ${provider.name} (${redactUrl(provider.endpoints.consensusWs ?? statusBase ?? '')})`);
    this.render(tracker.snapshot());
    this.item.show();
    tracker.start();
    this.ticker = setInterval(() => this.lastSnapshot && this.render(this.lastSnapshot), 5000);
  }

  reconnect(): void {
    this.tracker?.reconnect();
  }

  private async fetchStatus(base: string, timeoutMs: number, signal: AbortSignal): Promise<{ height: bigint; time?: string }> {
    const url = joinUrl(base, '/status');
    const res = await this.http.send({ method: 'GET', url, timeoutMs, signal });
    const read = interpret(res, 'jsonrpc', redactUrl(url));
    if (read.error) throw read.error;
    const sync = isObject(read.result) && isObject(read.result.sync_info) ? read.result.sync_info : undefined;
    const h = sync?.latest_block_height;
    if (typeof h !== 'string' || !/^\d+$/.test(h)) throw new Error(`no sync_info.latest_block_height in ${redactUrl(url)}`);
    return { height: BigInt(h), time: typeof sync?.latest_block_time === 'string' ? sync.latest_block_time : undefined };
  }

  private render(s: HeightSnapshot): void {
    this.lastSnapshot = s;
    const p = this.provider;
    if (!p) return;
    const h = s.height !== undefined ? formatHeight(s.height) : undefined;
    let icon = '$(pulse)';
    let suffix = '';
    switch (s.state) {
      case 'connecting':
        icon = '$(loading~spin)';
        break;
      case 'reconnecting':
        icon = '$(sync~spin)';
        suffix = ' reconnecting';
        break;
      case 'stalled':
        icon = '$(warning)';
        suffix = ' stalled';
        break;
      case 'polling':
        icon = '$(pulse)';
        suffix = ' (polling)';
        break;
      case 'stopped':
        icon = '$(circle-slash)';
        break;
    }
    this.item.text = h ? `${icon} ${h}${suffix}` : `${icon} ${s.state === 'connecting' ? 'connecting…' : s.state}`;
    this.item.backgroundColor =
      s.state === 'stalled' || (s.state === 'reconnecting' && h === undefined)
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    this.item.accessibilityInformation = {
      label: h ? `block height ${h}, ${p.name}, ${s.state}` : `block height unknown, ${p.name}, ${s.state}`,
    };
    this.item.tooltip = this.tooltip(p, s);
  }

  private tooltip(p: Provider, s: HeightSnapshot): vscode.MarkdownString {
    const since = s.receivedAt ? `${Math.max(0, Math.round((Date.now() - s.receivedAt) / 1000))} s ago` : '—';
    const rows = [
      `**${p.name}** · block height`,
      '',
      `| | |`,
      `|---|---|`,
      `| height | ${s.height !== undefined ? formatHeight(s.height) : '—'} |`,
      `| state | ${s.state}${s.source ? ` (${s.source})` : ''} |`,
      `| address | ${redactUrl(p.endpoints.consensusWs ?? p.endpoints.consensusHttp ?? '')} |`,
      `| last block time | ${s.blockTime ?? '—'} |`,
      `| last block received | ${since} |`,
      `| block interval | ${s.blockIntervalMs ? `${(s.blockIntervalMs / 1000).toFixed(1)} s` : '—'} |`,
    ];
    if (s.detail) rows.push(`| detail | ${s.detail.replace(/\|/g, '\\|')} |`);
    rows.push('', 'Click for: open the latest block, switch provider, reconnect.');
    return new vscode.MarkdownString(rows.join('\n'));
  }

  /** The click menu. */
  async showMenu(): Promise<void> {
    const p = this.provider;
    const items: (vscode.QuickPickItem & { id: string })[] = [];
    if (p?.endpoints.consensusRpc || p?.endpoints.consensusHttp) items.push({ id: 'open', label: '$(file-code) Open the latest block', description: p.name });
    items.push({ id: 'switch', label: '$(arrow-swap) Switch provider…' });
    items.push({ id: 'reconnect', label: '$(debug-restart) Reconnect' });
    const picked = await vscode.window.showQuickPick(items, { title: 'Chain Endpoints: block height' });
    if (!picked) return;
    if (picked.id === 'reconnect') this.reconnect();
    if (picked.id === 'switch') await this.switchProvider();
    if (picked.id === 'open' && p) await this.openLatestBlock(p);
  }

  private async openLatestBlock(p: Provider): Promise<void> {
    const height = this.lastSnapshot?.height;
    if (p.endpoints.consensusRpc && height !== undefined) {
      await vscode.commands.executeCommand('chainEndpoints.consensus.block', { provider: p.name, height: height.toString() });
    } else if (p.endpoints.consensusHttp && height !== undefined) {
      await vscode.commands.executeCommand('chainEndpoints.consensusHttp.block', { provider: p.name, height: height.toString() });
    } else if (p.endpoints.rest) {
      await vscode.commands.executeCommand('chainEndpoints.rest.latestBlock', { provider: p.name });
    }
  }

  async switchProvider(): Promise<void> {
    const { providers } = readSettings().providers;
    const candidates = providers.filter((x) => x.endpoints.consensusWs || x.endpoints.consensusHttp);
    const picked = await vscode.window.showQuickPick(
      candidates.map((x) => ({
        label: x.name,
        description: redactUrl(x.endpoints.consensusWs ?? x.endpoints.consensusHttp ?? ''),
        picked: x.name === this.provider?.name,
      })),
      { title: 'Follow the block height of…' },
    );
    if (!picked) return;
    await vscode.workspace.getConfiguration(SECTION).update('statusBar.provider', picked.label, vscode.ConfigurationTarget.Global);
  }

  private stopTracker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    this.tracker?.dispose();
    this.tracker = undefined;
    this.lastSnapshot = undefined;
  }

  dispose(): void {
    this.stopTracker();
    this.disposables.forEach((d) => d.dispose());
  }
}
