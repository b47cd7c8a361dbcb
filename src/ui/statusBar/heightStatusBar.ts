// The status-bar item `chainEndpoints.height`: shows what the HeightFollower (src/core/health/
// heightFollower.ts: which provider to follow, failover and back) follows, with its tooltip and
// click menu. Feeds are HeightTrackers on the consensus WebSocket (polling /status when the
// socket is unusable, through execute(): core/chain/probes.ts), with the provider's secrets
// substituted. Its click menu and the settings it writes: statusBarMenu.ts.

import vscode = require('vscode');
import { Commands } from '../base/commandIds';
import { Disposable } from '../base/lifecycle';
import { errorMessage } from '../../core/base/errors';
import { formatHeight } from '../../core/base/numbers';
import { type HeightSnapshot, HeightTracker } from '../../core/chain/heightTracker';
import { type InterfaceId, type Provider } from '../../core/config/providers';
import type { InterfaceHealth } from '../../core/health/model';
import { escapeMarkdown } from '../../core/documents/markdown';
import { type FollowView, HeightFollower, chooseStatusProvider } from '../../core/health/heightFollower';
import { redactUrl } from '../../core/secrets/redact';
import type { Http } from '../../core/transport/http';
import { type Log } from '../base/log';
import { currentNetworks } from '../providers/networkDirectory';
import type { SecretStore } from '../providers/secretStore';
import { type Settings, onSettingsChanged, readSettings, statusBarPinned } from '../base/settings';
import { type StatusMenuTarget, showStatusBarMenu, switchStatusProvider } from './statusBarMenu';

export const STATUS_ITEM_ID = 'chainEndpoints.height';

/** A tracker state as shown (the status bar's text and its accessibility label). */
function stateName(state: HeightSnapshot['state']): string {
  switch (state) {
    case 'connecting':
      return vscode.l10n.t('connecting');
    case 'live':
      return vscode.l10n.t('live');
    case 'reconnecting':
      return vscode.l10n.t('reconnecting');
    case 'stalled':
      return vscode.l10n.t('stalled');
    case 'polling':
      return vscode.l10n.t('polling');
    case 'stopped':
      return vscode.l10n.t('stopped');
  }
}

/** What an item asks of the health controller (ui/health/healthController.ts). */
export interface StatusHealth {
  healthOf(provider: string, iface: InterfaceId): InterfaceHealth | undefined;
  refresh(names?: readonly string[]): Promise<readonly InterfaceHealth[]>;
  rows(): readonly InterfaceHealth[];
  readonly onDidChange: vscode.Event<unknown>;
}

export interface FollowState {
  /** The provider configured (or chosen by default). */
  configured?: Provider;
  /** The provider whose height is shown now (a fallback while the configured one is unwell). */
  following?: Provider;
  snapshot?: HeightSnapshot;
  /** Why the bar follows a fallback (English). */
  reason?: string;
}

export class HeightStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly follower: HeightFollower;
  private ticker?: NodeJS.Timeout;
  private readonly heightChanged = new vscode.EventEmitter<{ provider: string; height: string }>();
  /** Every new height shown, with the provider it came from. */
  readonly onDidChangeHeight = this.heightChanged.event;

  constructor(
    private readonly log: Log,
    private readonly http: Http,
    private readonly health: StatusHealth,
    private readonly secrets: SecretStore,
    /** Set for one item of `statusBar.perNetwork`: the network it follows (networkStatusBars.ts). */
    private readonly scope?: { key: string; label: string; index: number },
  ) {
    super();
    this.item = vscode.window.createStatusBarItem(
      scope ? `${STATUS_ITEM_ID}.${scope.index}` : STATUS_ITEM_ID,
      vscode.StatusBarAlignment.Left,
      100 - (scope?.index ?? 0),
    );
    this.item.name = scope ? vscode.l10n.t('Chain Endpoints: block height of {0}', scope.label) : vscode.l10n.t('Chain Endpoints: block height');
    this.item.command = scope ? { command: Commands.statusBarMenu, title: this.item.name, arguments: [scope.key] } : Commands.statusBarMenu;
    this.follower = new HeightFollower(
      {
        startFeed: (provider, pollOnly, onChange) => this.startFeed(provider, pollOnly, onChange),
        providers: () => readSettings().providers.providers,
        healthOf: (name, iface) => health.healthOf(name, iface),
        refreshHealth: (names) => health.refresh(names),
        pinned: statusBarPinned,
        log: (level, message) => this.log[level](`[status] ${message}`),
      },
      (view, newHeight) => {
        if (newHeight) this.heightChanged.fire({ provider: view.following.name, height: view.snapshot.height!.toString() });
        this.render(view);
      },
    );
    this._register(
      this.item,
      this.heightChanged,
      onSettingsChanged(['providers', 'statusBar', 'requestTimeoutSeconds'], () => this.restart()),
      health.onDidChange(() => void this.follower.evaluate()),
      secrets.onDidChange(() => this.restart()),
    );
    void secrets.ready.then(() => this.restart());
  }

  get current(): FollowState {
    const view = this.follower.view;
    return { configured: view?.configured, following: view?.following, snapshot: view?.snapshot, reason: view?.reason?.english };
  }

  /** The item's tooltip as Markdown text, as the editor renders it (for the tests). */
  get tooltipMarkdown(): string | undefined {
    const t = this.item.tooltip;
    return t === undefined ? undefined : typeof t === 'string' ? t : t.value;
  }

  restart(): void {
    this.stopFeeds();
    const settings = readSettings();
    const provider = chooseStatusProvider(this.candidates(), this.wanted(settings));
    if (!settings.statusBarEnabled || !provider || (!this.scope && perNetworkItems())) {
      this.item.hide();
      if (settings.statusBarEnabled && !provider) this.log.info('[status] no provider with a consensus address: status bar hidden');
      return;
    }
    this.log.info(`[status] following ${provider.name} (${redactUrl(provider.endpoints.consensusWs ?? provider.endpoints.consensusHttp ?? '')})`);
    this.follower.follow(provider);
    this.item.show();
    this.ticker = setInterval(() => {
      const view = this.follower.view;
      if (view) this.render(view);
    }, 5000);
  }

  reconnect(): void {
    this.follower.reconnect();
  }

  /** The provider asked for: `statusBar.provider`, or for a network's item its entry in `statusBar.networkProviders` first. */
  private wanted(settings: Settings): string {
    if (!this.scope) return settings.statusBarProvider;
    const n = currentNetworks(settings.providers.providers).find((x) => x.key === this.scope!.key);
    for (const name of [this.scope.label, n?.chainId, n?.evmChainId]) {
      const chosen = name && settings.statusBarNetworkProviders.get(name.toLowerCase());
      if (chosen) return chosen;
    }
    return settings.statusBarProvider;
  }

  /** The providers this item may follow: all, or those of its network. */
  private candidates(): Provider[] {
    const { providers } = readSettings().providers;
    if (!this.scope) return providers;
    return currentNetworks(providers).find((n) => n.key === this.scope!.key)?.providers ?? [];
  }

  private startFeed(provider: Provider, pollOnly: boolean, onChange: (s: HeightSnapshot) => void): HeightTracker {
    let wire: Provider;
    try {
      wire = this.secrets.resolve(provider); // secrets substituted; every address shown goes through redactUrl
    } catch (err) {
      this.log.warn(`[status] ${provider.name}: ${errorMessage(err)}`);
      wire = { name: provider.name, endpoints: {} };
    }
    const tracker = new HeightTracker({
      wsUrl: pollOnly ? undefined : wire.endpoints.consensusWs,
      headers: wire.headers,
      fetchStatus: wire.endpoints.consensusHttp || wire.endpoints.consensusRpc ? (signal) => this.fetchStatus(wire, signal) : undefined,
      log: (level, message) => this.log[level](`[status] ${provider.name}: ${message}`),
    });
    tracker.onDidChange(onChange);
    tracker.start();
    return tracker;
  }

  /** One `/status` poll, through execute() with the probe preset (the poll's reader is loaded with it: polling is the fallback). */
  private async fetchStatus(wire: Provider, signal: AbortSignal): Promise<{ height: bigint; time?: string }> {
    const { fetchCometStatus, requestOptions } = await import('./poll');
    return fetchCometStatus(wire, requestOptions(readSettings(), { http: this.http, signal, provider: wire }, 'probe'));
  }

  // --- rendering -----------------------------------------------------------------------------

  private render(view: FollowView): void {
    const { snapshot: s, following: p, reason } = view;
    const failedOver = reason !== undefined;
    const h = view.height !== undefined ? formatHeight(view.height) : undefined;
    const icons: Record<HeightSnapshot['state'], string> = {
      connecting: '$(loading~spin)',
      live: '$(pulse)',
      reconnecting: '$(sync~spin)',
      stalled: '$(warning)',
      polling: '$(pulse)',
      stopped: '$(circle-slash)',
    };
    const icon = failedOver ? '$(arrow-swap)' : icons[s.state];
    let shown: string;
    if (h === undefined) shown = s.state === 'connecting' ? vscode.l10n.t('connecting…') : stateName(s.state);
    else if (s.state === 'reconnecting') shown = vscode.l10n.t('{0} reconnecting', h);
    else if (s.state === 'stalled') shown = vscode.l10n.t('{0} stalled', h);
    else if (s.state === 'polling') shown = vscode.l10n.t('{0} (polling)', h);
    else shown = h;
    if (failedOver)
      shown = vscode.l10n.t({
        message: '{0} via {1}',
        args: [shown, p.name],
        comment: ['Status bar: {0} is the height (and state), {1} the fallback provider followed'],
      });
    this.item.text = `${icon} ${shown}`;
    this.item.backgroundColor =
      s.state === 'stalled' || (s.state === 'reconnecting' && h === undefined) || failedOver
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    const heightText = h ?? vscode.l10n.t('unknown');
    this.item.accessibilityInformation = {
      label: failedOver
        ? vscode.l10n.t('block height {0}, {1}, {2}, failed over from {3}', heightText, p.name, stateName(s.state), view.configured.name)
        : vscode.l10n.t('block height {0}, {1}, {2}', heightText, p.name, stateName(s.state)),
    };
    this.item.tooltip = this.tooltip(view);
  }

  private tooltip({ snapshot: s, following: p, configured, reason, height }: FollowView): vscode.MarkdownString {
    const since = s.receivedAt ? vscode.l10n.t('{0} s ago', Math.max(0, Math.round((Date.now() - s.receivedAt) / 1000))) : '—';
    const source = s.source === 'websocket' ? vscode.l10n.t('websocket') : s.source === 'polling' ? vscode.l10n.t('polling') : undefined;
    // Every name, address and value from settings or the node goes through the one escaper (core/documents/markdown.ts).
    const rows = [vscode.l10n.t('**{0}** · block height', escapeMarkdown(p.name)), ''];
    const networks = currentNetworks(readSettings().providers.providers);
    const network = networks.length > 1 ? networks.find((n) => n.providers.some((x) => x.name === configured.name)) : undefined;
    if (network) rows.push(vscode.l10n.t('Network: {0}', escapeMarkdown(network.label)), '');
    if (reason) {
      rows.push(
        vscode.l10n.t(
          'Following **{0}** because {1}. Back to **{2}** when it is healthy again.',
          escapeMarkdown(p.name),
          escapeMarkdown(reason.shown),
          escapeMarkdown(configured.name),
        ),
        '',
      );
    }
    rows.push(
      `| | |`,
      `|---|---|`,
      `| ${vscode.l10n.t('height')} | ${height !== undefined ? formatHeight(height) : '—'} |`,
      `| ${vscode.l10n.t('state')} | ${source ? vscode.l10n.t('{0} ({1})', stateName(s.state), source) : stateName(s.state)} |`,
      `| ${vscode.l10n.t('address')} | ${escapeMarkdown(redactUrl(p.endpoints.consensusWs ?? p.endpoints.consensusHttp ?? ''))} |`,
      `| ${vscode.l10n.t('last block time')} | ${s.blockTime !== undefined ? escapeMarkdown(s.blockTime, 60) : '—'} |`,
      `| ${vscode.l10n.t('last block received')} | ${since} |`,
      `| ${vscode.l10n.t('block interval')} | ${s.blockIntervalMs ? vscode.l10n.t('{0} s', (s.blockIntervalMs / 1000).toFixed(1)) : '—'} |`,
    );
    if (s.detail) rows.push(`| ${vscode.l10n.t('detail')} | ${escapeMarkdown(s.detail)} |`);
    rows.push('', vscode.l10n.t('Click for: open the latest block, switch provider, reconnect.'));
    return new vscode.MarkdownString(rows.join('\n'));
  }

  // --- the click menu (statusBarMenu.ts) --------------------------------------------------

  showMenu(): Promise<void> {
    return showStatusBarMenu(this.menuTarget());
  }

  switchProvider(): Promise<void> {
    return switchStatusProvider(this.menuTarget());
  }

  private menuTarget(): StatusMenuTarget {
    return {
      following: this.follower.view?.following,
      height: this.follower.view?.height,
      candidates: () => this.candidates(),
      reconnect: () => this.reconnect(),
      networkLabel: this.scope?.label,
      rows: () => this.health.rows(),
    };
  }

  private stopFeeds(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    this.follower.stop();
  }

  override dispose(): void {
    this.stopFeeds();
    super.dispose();
  }
}

/** True when `statusBar.perNetwork` is on and there are several networks: one item each instead. */
export function perNetworkItems(): boolean {
  const settings = readSettings();
  return settings.statusBarPerNetwork && currentNetworks(settings.providers.providers).length > 1;
}
