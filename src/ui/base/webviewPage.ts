// The one page shape of the extension's webviews (Compare, the event console): a strict Content
// Security Policy (no inline script, only the extension's media by nonce), the view's own script and
// stylesheet from media/, its texts as escaped JSON in data-l10n, and server text never as markup.

import { randomBytes } from 'node:crypto';
import vscode = require('vscode');

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The page of the webview whose files are media/<name>.js and media/<name>.css; `body` gets an escaper. */
export function webviewPage(
  webview: vscode.Webview,
  media: vscode.Uri,
  page: { name: string; title: string; texts: unknown; body: (t: (message: string) => string) => string; vendor?: { scripts?: string[]; styles?: string[] } },
): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(media, `${page.name}.js`));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, `${page.name}.css`));
  // The script reads its texts from data-l10n: JSON, escaped for the attribute.
  const texts = escapeHtml(JSON.stringify(page.texts));
  return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${webview.cspSource}; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${(page.vendor?.styles ?? []).map((f) => `<link rel="stylesheet" href="${webview.asWebviewUri(vscode.Uri.joinPath(media, f))}">\n`).join('')}<link rel="stylesheet" href="${style}">
<title>${escapeHtml(page.title)}</title>
</head>
<body data-l10n="${texts}">
${page.body(escapeHtml)}
${(page.vendor?.scripts ?? []).map((f) => `<script nonce="${nonce}" src="${webview.asWebviewUri(vscode.Uri.joinPath(media, f))}"></script>\n`).join('')}<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
