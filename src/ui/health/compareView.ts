// "Compare Providers": a webview table of every provider x interface (height, blocks behind,
// median and p90 latency, success rate, last error, rate limit, rank), sortable, exportable as
// JSON and CSV, updated live while open. With several networks the table is grouped by network
// (a header row each: name, chain ids, best height), sorted within each. Strict CSP: no remote content, one nonce'd script.

import vscode = require('vscode');
import { webviewPage } from '../base/webviewPage';
import { Disposable } from '../base/lifecycle';
import { summarizeNetworks } from '../../core/health/networkSummary';
import { readSettings } from '../base/settings';
import { toCsv } from '../../core/health/healthExport';
import type { HealthSource } from '../base/deps';
import { chartTexts, compareExtras, compareRecords } from './compareCharts';
import { type CompareFromPage, type CompareToPage, messageType } from '../base/webviewMessages';

export class CompareView extends Disposable {
  private panel?: vscode.WebviewPanel;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly health: HealthSource,
  ) {
    super();
    this._register(health.onDidChange(() => this.post()));
  }

  async show(): Promise<void> {
    if (this.panel) {
      this.panel.reveal();
    } else {
      const media = vscode.Uri.joinPath(this.extensionUri, 'media');
      const panel = vscode.window.createWebviewPanel('chainEndpoints.compare', vscode.l10n.t('Compare Providers'), vscode.ViewColumn.Active, {
        enableScripts: true,
        localResourceRoots: [media],
        retainContextWhenHidden: false,
      });
      this.panel = panel;
      panel.iconPath = vscode.Uri.joinPath(media, 'chain-endpoints.svg');
      panel.webview.html = this.html(panel.webview, media);
      this._register(panel.onDidDispose(() => (this.panel = undefined)));
      this._register(panel.webview.onDidReceiveMessage((m) => this.onMessage(m)));
    }
    this.post();
    // Comparing providers is asking what each serves: capabilities too, costly probes included (docs/capabilities.md).
    await this.health.refresh(undefined, { capabilities: true });
  }

  /** What the table shows: the records (network by display name) and the networks, in settings order. */
  content(rows = this.health.rows()): { rows: ReturnType<typeof compareRecords>; networks: ReturnType<typeof summarizeNetworks> } {
    const networks = summarizeNetworks(readSettings().providers.providers, rows);
    const labels = new Map(networks.map((n) => [n.key, n.label]));
    return { rows: compareRecords(this.health, rows, (k) => labels.get(k) ?? k), networks };
  }

  private post(): void {
    if (!this.panel) return;
    const rows = this.health.rows();
    const { rows: records, networks } = this.content(rows);
    const message: CompareToPage = {
      type: 'rows',
      rows: records.map((r) => ({ ...r })),
      networks: networks.map((n) => ({ ...n })),
      ...compareExtras(this.health, rows),
      at: new Date().toISOString(),
    };
    void this.panel.webview.postMessage(message);
  }

  private async onMessage(raw: unknown): Promise<void> {
    if (messageType(raw) === undefined) return;
    const m = raw as CompareFromPage;
    if (m.type === 'ready') return this.post();
    if (m.type === 'refresh') return void this.health.refresh(undefined, { capabilities: true });
    if (m.type === 'export' && (m.format === 'json' || m.format === 'csv')) {
      const records = this.content().rows;
      const uri = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export provider health'),
        defaultUri: vscode.Uri.file(`provider-health.${m.format}`),
        filters: m.format === 'json' ? { JSON: ['json'] } : { CSV: ['csv'] },
      });
      if (!uri) return;
      const text = m.format === 'json' ? JSON.stringify(records, null, 2) + '\n' : toCsv(records);
      await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
      void vscode.window.showInformationMessage(vscode.l10n.t('Exported {0} rows to {1}', records.length, uri.fsPath));
    }
  }

  private html(webview: vscode.Webview, media: vscode.Uri): string {
    return webviewPage(webview, media, {
      name: 'compare',
      title: vscode.l10n.t('Compare Providers'),
      texts: { ...webviewTexts(), ...chartTexts() },
      vendor: { scripts: ['vendor/uplot.js', 'charts.js'], styles: ['vendor/uplot.css'] },
      body: (t) => `<header>
  <h1>${t(vscode.l10n.t('Compare providers'))}</h1>
  <span id="updated" aria-live="polite"></span>
  <button id="refresh" type="button">${t(vscode.l10n.t('Refresh'))}</button>
  <button id="export-json" type="button">${t(vscode.l10n.t('Export JSON'))}</button>
  <button id="export-csv" type="button">${t(vscode.l10n.t('Export CSV'))}</button>
</header>
<table id="table" aria-label="${t(vscode.l10n.t('Provider health by interface'))}"><thead></thead><tbody></tbody></table>
<p id="empty">${t(vscode.l10n.t('Probing…'))}</p>
<section id="charts" aria-labelledby="charts-title">
  <h2 id="charts-title">${t(vscode.l10n.t('This session'))}</h2>
  <label>${t(vscode.l10n.t('Interface'))} <select id="chart-iface"></select></label>
  <fieldset id="chart-series"><legend>${t(vscode.l10n.t('Providers shown'))}</legend></fieldset>
  <figure><figcaption id="latency-title">${t(vscode.l10n.t('Latency over time (ms)'))}</figcaption><div id="chart-latency" role="img" aria-labelledby="latency-title"></div></figure>
  <figure><figcaption id="behind-title">${t(vscode.l10n.t('Blocks behind over time'))}</figcaption><div id="chart-behind" role="img" aria-labelledby="behind-title"></div></figure>
</section>`,
    });
  }

  override dispose(): void {
    this.panel?.dispose();
    super.dispose();
  }
}

/** The texts compare.js shows: column headers by record key, and cell templates ({0}: a time). */
function webviewTexts(): { columns: Record<string, string>; rateLimitedUntil: string; updated: string; network: string; evm: string } {
  return {
    columns: {
      provider: vscode.l10n.t('Provider'),
      interface: vscode.l10n.t('Interface'),
      state: vscode.l10n.t('State'),
      height: vscode.l10n.t('Height'),
      behind: vscode.l10n.t('Behind'),
      medianMs: vscode.l10n.t('Median ms'),
      p90Ms: vscode.l10n.t('p90 ms'),
      successRate: vscode.l10n.t('Success'),
      rank: vscode.l10n.t('Rank'),
      rateLimitedUntil: vscode.l10n.t('Rate limit'),
      lastError: vscode.l10n.t('Last error'),
    },
    rateLimitedUntil: vscode.l10n.t({ message: 'until {0}', comment: ['Rate limit column of Compare Providers; {0} is a time of day'] }),
    updated: vscode.l10n.t({ message: 'updated {0}', comment: ['Compare Providers header; {0} is a time of day'] }),
    network: vscode.l10n.t({ message: 'height {0}', comment: ['Compare Providers network header; {0} is the best height of the network'] }),
    evm: vscode.l10n.t({ message: 'EVM {0}', comment: ['Compare Providers network header; {0} is the EVM chain id'] }),
  };
}
