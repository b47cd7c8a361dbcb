// "Compare Providers": a webview table of every provider x interface (height, blocks behind,
// median and p90 latency, success rate, last error, rate limit, rank), sortable, exportable as
// JSON and CSV, updated live while open. Strict CSP: no remote content, one nonce'd script.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { toCsv, toRecords } from '../core/healthExport';
import { HealthController } from './healthController';

export class CompareView implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly health: HealthController,
  ) {
    this.disposables.push(health.onDidChange(() => this.post()));
  }

  async show(): Promise<void> {
    if (this.panel) {
      this.panel.reveal();
    } else {
      const media = vscode.Uri.joinPath(this.extensionUri, 'media');
      const panel = vscode.window.createWebviewPanel('chainEndpoints.compare', 'Compare Providers', vscode.ViewColumn.Active, {
        enableScripts: true,
        localResourceRoots: [media],
        retainContextWhenHidden: false,
      });
      this.panel = panel;
      panel.iconPath = vscode.Uri.joinPath(media, 'chain-endpoints.svg');
      panel.webview.html = this.html(panel.webview, media);
      panel.onDidDispose(() => (this.panel = undefined), undefined, this.disposables);
      panel.webview.onDidReceiveMessage((m) => this.onMessage(m), undefined, this.disposables);
    }
    this.post();
    await this.health.refresh();
  }

  private post(): void {
    void this.panel?.webview.postMessage({ type: 'rows', rows: toRecords(this.health.rows()), at: new Date().toISOString() });
  }

  private async onMessage(m: { type?: string; format?: string }): Promise<void> {
    if (m.type === 'ready') return this.post();
    if (m.type === 'refresh') return void this.health.refresh();
    if (m.type === 'export' && (m.format === 'json' || m.format === 'csv')) {
      const records = toRecords(this.health.rows());
      const uri = await vscode.window.showSaveDialog({
        title: 'Export provider health',
        defaultUri: vscode.Uri.file(`provider-health.${m.format}`),
        filters: m.format === 'json' ? { JSON: ['json'] } : { CSV: ['csv'] },
      });
      if (!uri) return;
      const text = m.format === 'json' ? JSON.stringify(records, null, 2) + '\n' : toCsv(records);
      await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
      void vscode.window.showInformationMessage(`Exported ${records.length} rows to ${uri.fsPath}`);
    }
  }

  private html(webview: vscode.Webview, media: vscode.Uri): string {
    const nonce = randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(media, 'compare.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(media, 'compare.css'));
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${webview.cspSource}; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>Compare Providers</title>
</head>
<body>
<header>
  <h1>Compare providers</h1>
  <span id="updated" aria-live="polite"></span>
  <button id="refresh" type="button">Refresh</button>
  <button id="export-json" type="button">Export JSON</button>
  <button id="export-csv" type="button">Export CSV</button>
</header>
<table id="table" aria-label="Provider health by interface"><thead></thead><tbody></tbody></table>
<p id="empty">Probing…</p>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  dispose(): void {
    this.panel?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
