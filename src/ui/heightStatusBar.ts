// The status-bar item `chainEndpoints.height`: owns its item and its feeds. A primary
// HeightTracker follows the configured provider's consensus WebSocket (polling /status when the
// socket is unusable). When that provider is down, stalled or lagging, and the bar is not pinned,
// a fallback tracker follows the best-ranked healthy provider (health ranking) until the
// configured one is live again; the primary keeps running in the background to notice.

import vscode = require('vscode');
import { HeightSnapshot, HeightTracker } from '../core/heightTracker';
import { HttpClient } from '../core/http';
import { escapeMarkdown } from '../core/markdown';
import { formatHeight } from '../core/numbers';
import { Provider, joinUrl, redactUrl } from '../core/providers';
import { HealthController } from './healthController';
import { loadOnDemand } from './loadOnDemand';
import { Log } from './log';
import { SecretStore } from './secretStore';
import { SECTION, onSettingsChanged, readSettings } from './settings';

export const STATUS_ITEM_ID = 'chainEndpoints.height';
export const STATUS_MENU_COMMAND = 'chainEndpoints.statusBar.menu';

/** While following a fallback, how often the configured provider's health is probed again. */
const RECHECK_MS = 10_000;


/** Picks the provider the status bar follows: the named one, else the first with a WebSocket. */
export function chooseStatusProvider(providers: readonly Provider[], wanted: string): Provider | undefined {
  if (wanted) {
    const named = providers.find((p) => p.name.toLowerCase() === wanted.toLowerCase());
    if (named && (named.endpoints.consensusWs || named.endpoints.consensusHttp)) return named;
  }
  return providers.find((p) => p.endpoints.consensusWs) ?? providers.find((p) => p.endpoints.consensusHttp);
}

interface Feed {
  provider: Provider;
  tracker: HeightTracker;
}

/** Why the bar follows a fallback: in English (the log, the API's `reason`) and as shown (the tooltip). */
interface Problem {
  english: string;
  shown: string;
}

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

export interface FollowState {
  /** The provider configured (or chosen by default). */
  configured?: Provider;
  /** The provider whose height is shown now (a fallback while the configured one is unwell). */
  following?: Provider;
  snapshot?: HeightSnapshot;
  /** Why the bar follows a fallback. */
  reason?: string;
}

export class HeightStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private primary?: Feed;
  private fallback?: Feed & { reason: Problem };
  private readonly disposables: vscode.Disposable[] = [];
  private ticker?: NodeJS.Timeout;
  private recheck?: NodeJS.Timeout;
  private choosing = false;
  /** The highest height shown since the configured provider last changed (failover never shows less). */
  private shownHeight?: bigint;
  private readonly heightChanged = new vscode.EventEmitter<{ provider: string; height: string }>();
  /** Every new height shown, with the provider it came from. */
  readonly onDidChangeHeight = this.heightChanged.event;

  constructor(
    private readonly log: Log,
    private readonly http: HttpClient,
    private readonly health: HealthController,
    private readonly secrets: SecretStore,
  ) {
    this.item = vscode.window.createStatusBarItem(STATUS_ITEM_ID, vscode.StatusBarAlignment.Left, 100);
    this.item.name = vscode.l10n.t('Chain Endpoints: block height');
    this.item.command = STATUS_MENU_COMMAND;
    this.disposables.push(
      this.item,
      this.heightChanged,
      onSettingsChanged(['providers', 'statusBar', 'requestTimeoutSeconds'], () => this.restart()),
      health.onDidChange(() => void this.evaluate()),
      secrets.onDidChange(() => this.restart()),
    );
    void secrets.ready.then(() => this.restart());
  }

  get current(): FollowState {
    const feed = this.fallback ?? this.primary;
    return { configured: this.primary?.provider, following: feed?.provider, snapshot: feed?.tracker.snapshot(), reason: this.fallback?.reason.english };
  }

  restart(): void {
    this.stopFeeds();
    this.shownHeight = undefined;
    const settings = readSettings();
    const provider = chooseStatusProvider(settings.providers.providers, settings.statusBarProvider);
    if (!settings.statusBarEnabled || !provider) {
      this.item.hide();
      if (settings.statusBarEnabled && !provider) this.log.info('[status] no provider with a consensus address: status bar hidden');
      return;
    }
    this.primary = this.startFeed(provider, false, (s) => {
      if (!this.fallback) this.render(s);
      void this.evaluate();
    });
    this.log.info(`[status] following ${provider.name} (${redactUrl(provider.endpoints.consensusWs ?? provider.endpoints.consensusHttp ?? '')})`);
    this.render(this.primary.tracker.snapshot());
    this.item.show();
    this.ticker = setInterval(() => this.render((this.fallback ?? this.primary)?.tracker.snapshot()), 5000);
  }

  reconnect(): void {
    this.primary?.tracker.reconnect();
    this.fallback?.tracker.reconnect();
  }

  private startFeed(provider: Provider, pollOnly: boolean, onChange: (s: HeightSnapshot) => void): Feed {
    const timeoutMs = Math.min(readSettings().requestTimeoutMs, 10_000);
    let wire: Provider;
    try {
      wire = this.secrets.resolve(provider); // secrets substituted; every address shown goes through redactUrl
    } catch (err) {
      this.log.warn(`[status] ${provider.name}: ${err instanceof Error ? err.message : String(err)}`);
      wire = { name: provider.name, endpoints: {} };
    }
    const statusBase = wire.endpoints.consensusHttp ?? wire.endpoints.consensusRpc;
    const headers = wire.headers;
    const tracker = new HeightTracker({
      wsUrl: pollOnly ? undefined : wire.endpoints.consensusWs,
      headers,
      fetchStatus: statusBase ? (signal) => this.fetchStatus(statusBase, headers, timeoutMs, signal) : undefined,
      log: (level, message) => this.log[level](`[status] ${provider.name}: ${message}`),
    });
    tracker.onDidChange(onChange);
    tracker.start();
    return { provider, tracker };
  }

  private async fetchStatus(base: string, headers: Record<string, string> | undefined, timeoutMs: number, signal: AbortSignal): Promise<{ height: bigint; time?: string }> {
    const url = joinUrl(base, '/status');
    // Polling is the fallback when the WebSocket fails: its reader is loaded then.
    const { interpret, readCometStatus } = await loadOnDemand();
    const res = await this.http.send({ method: 'GET', url, headers, timeoutMs, signal });
    const read = interpret(res, 'jsonrpc', url);
    if (read.error) throw read.error;
    const status = readCometStatus(read.result);
    if (!status) throw new Error(`no sync_info.latest_block_height in ${redactUrl(url)}`);
    return { height: status.height, time: status.time };
  }

  // --- failover ------------------------------------------------------------------------------

  /** Why the configured provider should not be followed now, or undefined when it is fine. */
  private problemOf(feed: Feed): Problem | undefined {
    const s = feed.tracker.snapshot();
    const name = feed.provider.name;
    const detail = s.detail ? ` (${s.detail})` : '';
    if (s.state === 'reconnecting') {
      return {
        english: `${name} is unreachable${detail}`,
        shown: s.detail ? vscode.l10n.t('{0} is unreachable ({1})', name, s.detail) : vscode.l10n.t('{0} is unreachable', name),
      };
    }
    if (s.state === 'stalled') {
      return {
        english: `no new block from ${name}${detail}`,
        shown: s.detail ? vscode.l10n.t('no new block from {0} ({1})', name, s.detail) : vscode.l10n.t('no new block from {0}', name),
      };
    }
    if (s.state === 'polling' && s.pollFailed) {
      return {
        english: `${name} does not answer${detail}`,
        shown: s.detail ? vscode.l10n.t('{0} does not answer ({1})', name, s.detail) : vscode.l10n.t('{0} does not answer', name),
      };
    }
    const h = this.health.healthOf(name, feed.provider.endpoints.consensusWs ? 'consensusWs' : 'consensusHttp');
    if (h?.state === 'suspect') {
      return { english: `${name} reports a suspect height (${h.reason})`, shown: vscode.l10n.t('{0} reports a suspect height ({1})', name, `${h.reason}`) };
    }
    if (h?.state === 'wrongChain') {
      const chain = `${h.last?.chainId}`;
      return { english: `${name} serves another chain (${chain})`, shown: vscode.l10n.t('{0} serves another chain ({1})', name, chain) };
    }
    if (h?.state === 'lagging' && (h.behind ?? 0n) > 2n) {
      const behind = `${h.behind}`;
      return { english: `${name} is ${behind} blocks behind the best provider`, shown: vscode.l10n.t('{0} is {1} blocks behind the best provider', name, behind) };
    }
    return undefined;
  }

  private async evaluate(): Promise<void> {
    const primary = this.primary;
    if (!primary || this.choosing) return;
    const pinned = vscode.workspace.getConfiguration(SECTION).get<boolean>('statusBar.pin', false);
    const problem = this.problemOf(primary);
    if (pinned || !problem) {
      if (this.fallback && (pinned || primary.tracker.snapshot().state === 'live')) this.dropFallback(pinned ? 'pinned' : `${primary.provider.name} is healthy again`);
      return;
    }
    if (this.fallback && !this.problemOf(this.fallback)) {
      this.fallback.reason = problem;
      return;
    }
    this.choosing = true;
    try {
      await this.failOver(primary, problem);
    } finally {
      this.choosing = false;
    }
  }

  private async failOver(primary: Feed, problem: Problem): Promise<void> {
    const exclude = new Set([primary.provider.name, this.fallback?.provider.name]);
    const providers = readSettings().providers.providers.filter((p) => !exclude.has(p.name) && (p.endpoints.consensusWs || p.endpoints.consensusHttp));
    if (providers.length === 0) return;
    const rows = await this.health.refresh(providers.map((p) => p.name));
    const { ranked } = await loadOnDemand(); // loaded by the refresh already
    if (this.primary !== primary) return; // restarted meanwhile
    const healthy = (iface: 'consensusWs' | 'consensusHttp') => ranked(rows, iface).filter((r) => r.state === 'healthy' && !exclude.has(r.provider));
    const ws = healthy('consensusWs')[0];
    const http = healthy('consensusHttp')[0];
    const choice = ws ?? http;
    if (!choice) {
      this.log.warn(`[status] ${problem.english}; no healthy provider to fail over to`);
      return;
    }
    const provider = providers.find((p) => p.name === choice.provider)!;
    this.fallback?.tracker.dispose();
    let fallback: (Feed & { reason: Problem }) | undefined;
    const feed = this.startFeed(provider, !ws, (s) => {
      if (fallback && this.fallback === fallback) this.render(s);
      void this.evaluate();
    });
    fallback = { ...feed, reason: problem };
    this.fallback = fallback;
    this.log.warn(`[status] ${problem.english}: following ${provider.name} until ${primary.provider.name} is healthy again`);
    this.render(feed.tracker.snapshot());
    if (!this.recheck) {
      this.recheck = setInterval(() => {
        if (this.primary) void this.health.refresh([this.primary.provider.name, ...(this.fallback ? [this.fallback.provider.name] : [])]);
      }, RECHECK_MS);
    }
  }

  private dropFallback(why: string): void {
    if (!this.fallback) return;
    this.log.info(`[status] back to ${this.primary?.provider.name}: ${why}`);
    this.fallback.tracker.dispose();
    this.fallback = undefined;
    if (this.recheck) clearInterval(this.recheck);
    this.recheck = undefined;
    this.render(this.primary?.tracker.snapshot());
  }

  // --- rendering -----------------------------------------------------------------------------

  private render(s: HeightSnapshot | undefined): void {
    const feed = this.fallback ?? this.primary;
    if (!s || !feed) return;
    const p = feed.provider;
    if (s.height !== undefined && (this.shownHeight === undefined || s.height > this.shownHeight)) {
      this.shownHeight = s.height;
      this.heightChanged.fire({ provider: p.name, height: s.height.toString() });
    }
    const height = this.shownHeight;
    const h = height !== undefined ? formatHeight(height) : undefined;
    const icons: Record<HeightSnapshot['state'], string> = {
      connecting: '$(loading~spin)',
      live: '$(pulse)',
      reconnecting: '$(sync~spin)',
      stalled: '$(warning)',
      polling: '$(pulse)',
      stopped: '$(circle-slash)',
    };
    const icon = this.fallback ? '$(arrow-swap)' : icons[s.state];
    let shown: string;
    if (h === undefined) shown = s.state === 'connecting' ? vscode.l10n.t('connecting…') : stateName(s.state);
    else if (s.state === 'reconnecting') shown = vscode.l10n.t('{0} reconnecting', h);
    else if (s.state === 'stalled') shown = vscode.l10n.t('{0} stalled', h);
    else if (s.state === 'polling') shown = vscode.l10n.t('{0} (polling)', h);
    else shown = h;
    if (this.fallback) shown = vscode.l10n.t({ message: '{0} via {1}', args: [shown, p.name], comment: ['Status bar: {0} is the height (and state), {1} the fallback provider followed'] });
    this.item.text = `${icon} ${shown}`;
    this.item.backgroundColor =
      s.state === 'stalled' || (s.state === 'reconnecting' && h === undefined) || this.fallback
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    const heightText = h ?? vscode.l10n.t('unknown');
    this.item.accessibilityInformation = {
      label: this.fallback
        ? vscode.l10n.t('block height {0}, {1}, {2}, failed over from {3}', heightText, p.name, stateName(s.state), `${this.primary?.provider.name}`)
        : vscode.l10n.t('block height {0}, {1}, {2}', heightText, p.name, stateName(s.state)),
    };
    this.item.tooltip = this.tooltip(p, s);
  }

  private tooltip(p: Provider, s: HeightSnapshot): vscode.MarkdownString {
    const since = s.receivedAt ? vscode.l10n.t('{0} s ago', Math.max(0, Math.round((Date.now() - s.receivedAt) / 1000))) : '—';
    const source = s.source === 'websocket' ? vscode.l10n.t('websocket') : s.source === 'polling' ? vscode.l10n.t('polling') : undefined;
    const rows = [vscode.l10n.t('**{0}** · block height', p.name), ''];
    if (this.fallback && this.primary) {
      rows.push(
        vscode.l10n.t('Following **{0}** because {1}. Back to **{2}** when it is healthy again.', p.name, escapeMarkdown(this.fallback.reason.shown), this.primary.provider.name),
        '',
      );
    }
    rows.push(
      `| | |`,
      `|---|---|`,
      `| ${vscode.l10n.t('height')} | ${this.shownHeight !== undefined ? formatHeight(this.shownHeight) : '—'} |`,
      `| ${vscode.l10n.t('state')} | ${source ? vscode.l10n.t('{0} ({1})', stateName(s.state), source) : stateName(s.state)} |`,
      `| ${vscode.l10n.t('address')} | ${redactUrl(p.endpoints.consensusWs ?? p.endpoints.consensusHttp ?? '')} |`,
      `| ${vscode.l10n.t('last block time')} | ${s.blockTime ?? '—'} |`,
      `| ${vscode.l10n.t('last block received')} | ${since} |`,
      `| ${vscode.l10n.t('block interval')} | ${s.blockIntervalMs ? vscode.l10n.t('{0} s', (s.blockIntervalMs / 1000).toFixed(1)) : '—'} |`,
    );
    if (s.detail) rows.push(`| ${vscode.l10n.t('detail')} | ${escapeMarkdown(s.detail)} |`);
    rows.push('', vscode.l10n.t('Click for: open the latest block, switch provider, reconnect.'));
    return new vscode.MarkdownString(rows.join('\n'));
  }

  // --- the click menu ------------------------------------------------------------------------

  async showMenu(): Promise<void> {
    const p = (this.fallback ?? this.primary)?.provider;
    const items: (vscode.QuickPickItem & { id: string })[] = [];
    if (p?.endpoints.consensusRpc || p?.endpoints.consensusHttp || p?.endpoints.rest) items.push({ id: 'open', label: `$(file-code) ${vscode.l10n.t('Open the latest block')}`, description: p.name });
    items.push({ id: 'switch', label: `$(arrow-swap) ${vscode.l10n.t('Switch provider…')}` });
    items.push({ id: 'reconnect', label: `$(debug-restart) ${vscode.l10n.t('Reconnect')}` });
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Chain Endpoints: block height') });
    if (!picked) return;
    if (picked.id === 'reconnect') this.reconnect();
    if (picked.id === 'switch') await this.switchProvider();
    if (picked.id === 'open' && p) await this.openLatestBlock(p);
  }

  private async openLatestBlock(p: Provider): Promise<void> {
    const height = this.shownHeight;
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
        picked: x.name === this.primary?.provider.name,
      })),
      { title: vscode.l10n.t('Follow the block height of…') },
    );
    if (!picked) return;
    await vscode.workspace.getConfiguration(SECTION).update('statusBar.provider', picked.label, vscode.ConfigurationTarget.Global);
  }

  private stopFeeds(): void {
    for (const t of [this.ticker, this.recheck]) if (t) clearInterval(t);
    this.ticker = undefined;
    this.recheck = undefined;
    this.fallback?.tracker.dispose();
    this.fallback = undefined;
    this.primary?.tracker.dispose();
    this.primary = undefined;
  }

  dispose(): void {
    this.stopFeeds();
    this.disposables.forEach((d) => d.dispose());
  }
}
