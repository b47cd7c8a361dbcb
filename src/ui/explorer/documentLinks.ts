// Links and hovers in result documents, computed on demand: only the lines visible in the editors
// showing the document (plus a margin), or the whole document when it is small, and at most
// MAX_LINKS links, so a 50 MB document costs what its visible part costs. A link opens Look Up on
// the document's provider (a command URI to chainEndpoints.lookUp with `{ provider, query }`).

import vscode = require('vscode');
import { knownContext } from '../../core/explorer/context';
import { SIMULATE_LINK_RE, SIMULATE_LINK_TEXT } from '../../core/explorer/render';
import { MAX_LINKS, hoverAt, scanBudget, scanLinks, scanRouteLinks } from '../../core/explorer/links';
import { Commands } from '../base/commandIds';
import { escapeMarkdown } from '../../core/documents/markdown';
import { readSettings } from '../base/settings';
import { cleanName } from '../../core/documents/resultName';
import { masker } from '../../core/secrets/mask';
import { networkOf, registryForHovers } from '../contracts/contracts';

/** Lines scanned above and below what is visible. */
const MARGIN_LINES = 500;
/** Up to this many lines, the whole document is scanned. */
const WHOLE_DOCUMENT_LINES = 20_000;
/** Characters of a line read around a hover (a minified answer may be one 50 MB line). */
const HOVER_WINDOW = 300;
/** Characters read per line for links. */
const MAX_LINE_CHARS = 20_000;

/** The configured provider a result document belongs to (its first path segment, cleaned as written). */
export function providerOfDocument(uri: vscode.Uri): string | undefined {
  const segment = decodeURIComponent(uri.path.split('/')[1] ?? '');
  return readSettings().providers.providers.find((p) => cleanName(masker.mask(p.name)) === segment || p.name === segment)?.name;
}

/** The line ranges to scan: the whole document when small, else the visible ranges plus a margin, merged. */
export function linesToScan(doc: vscode.TextDocument, visible: readonly vscode.Range[]): Array<[number, number]> {
  if (doc.lineCount <= WHOLE_DOCUMENT_LINES) return [[0, doc.lineCount - 1]];
  const spans = (visible.length > 0 ? visible : [new vscode.Range(0, 0, 0, 0)])
    .map((r): [number, number] => [Math.max(0, r.start.line - MARGIN_LINES), Math.min(doc.lineCount - 1, r.end.line + MARGIN_LINES)])
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s[0] <= last[1] + 1) last[1] = Math.max(last[1], s[1]);
    else merged.push([s[0], s[1]]);
  }
  return merged;
}

export function lookUpCommandUri(provider: string | undefined, query: string): vscode.Uri {
  const arg = provider === undefined ? { query } : { provider, query };
  return vscode.Uri.parse(`command:chainEndpoints.lookUp?${encodeURIComponent(JSON.stringify([arg]))}`);
}

/** A link that runs a module route on the document's provider (REST: Query a Module Route… with its arguments). */
export function routeCommandUri(provider: string | undefined, operation: string, args: Readonly<Record<string, string>>): vscode.Uri {
  const arg = { ...args, operation, ...(provider === undefined ? {} : { provider }) };
  return vscode.Uri.parse(`command:${Commands.restQuery}?${encodeURIComponent(JSON.stringify([arg]))}`);
}

/** The lines just above `line` (a JSON array of log topics opened there), short lines only. */
function contextAbove(doc: vscode.TextDocument, line: number): string {
  const out: string[] = [];
  for (let i = Math.max(0, line - 8); i < line; i++) {
    const t = doc.lineAt(i).text;
    out.push(t.length > 300 ? '' : t);
  }
  return out.join('\n');
}

export function documentLinks(doc: vscode.TextDocument, token?: vscode.CancellationToken): vscode.DocumentLink[] {
  const provider = providerOfDocument(doc.uri);
  const visible = vscode.window.visibleTextEditors.filter((e) => e.document === doc).flatMap((e) => e.visibleRanges);
  const links: vscode.DocumentLink[] = [];
  // One work budget for the whole call (core/explorer/links.ts): the editor never waits more than ~40 ms.
  const budget = scanBudget();
  for (const [from, to] of linesToScan(doc, visible)) {
    for (let line = from; line <= to && links.length < MAX_LINKS && !budget.exhausted; line++) {
      if (token?.isCancellationRequested) return links;
      const text = doc.lineAt(line).text;
      for (const l of scanLinks(
        text.length > MAX_LINE_CHARS ? text.slice(0, MAX_LINE_CHARS) : text,
        MAX_LINKS - links.length,
        budget,
        contextAbove(doc, line),
      )) {
        const link = new vscode.DocumentLink(new vscode.Range(line, l.start, line, l.end), lookUpCommandUri(provider, l.query));
        link.tooltip = vscode.l10n.t('Look up {0}', l.query.length > 20 ? `${l.query.slice(0, 10)}…${l.query.slice(-6)}` : l.query);
        links.push(link);
      }
      const replay = text.length < 400 ? SIMULATE_LINK_RE.exec(text) : null;
      if (replay) {
        const start = replay.index;
        const arg = { hash: replay[1], ...(provider === undefined ? {} : { provider }) };
        const link = new vscode.DocumentLink(
          new vscode.Range(line, start, line, start + SIMULATE_LINK_TEXT.length),
          vscode.Uri.parse(`command:${Commands.simulateWithChanges}?${encodeURIComponent(JSON.stringify([arg]))}`),
        );
        link.tooltip = vscode.l10n.t('Re-run this transaction at its parent block with changes, beside the original');
        links.push(link);
      }
      for (const r of scanRouteLinks(text.length > MAX_LINE_CHARS ? text.slice(0, MAX_LINE_CHARS) : text, MAX_LINKS - links.length)) {
        const link = new vscode.DocumentLink(new vscode.Range(line, r.start, line, r.end), routeCommandUri(provider, r.operation, r.args));
        link.tooltip =
          r.operation === 'bank.DenomMetadata'
            ? vscode.l10n.t('Open the metadata of {0}', r.args.denom)
            : vscode.l10n.t('Run {0} for the next page', r.operation);
        links.push(link);
      }
    }
  }
  return links;
}

export function documentHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
  const lineLength = doc.lineAt(position.line).range.end.character;
  const from = Math.max(0, position.character - HOVER_WINDOW);
  const to = Math.min(lineLength, position.character + HOVER_WINDOW);
  const text = doc.getText(new vscode.Range(position.line, from, position.line, to));
  const provider = providerOfDocument(doc.uri);
  const base = provider ? knownContext(provider) : { prefix: undefined, unit: () => undefined };
  const registry = registryForHovers();
  const p = provider ? readSettings().providers.providers.find((x) => x.name === provider) : undefined;
  const network = p ? networkOf(p) : undefined;
  const known = {
    ...base,
    contractName: (a: string) => {
      const n = registry.nameOf(a, network) ?? registry.nameOf(a, p?.chainId ?? provider);
      return n && `${n.name} (${n.source})`;
    },
    signatures: (sel: string) => registry.knownSignatures(sel),
  };
  const at = position.character - from;
  const info = hoverAt(text, at, known);
  // The identifier under the pointer, as links find it: its lookup is one click away in the hover,
  // wherever it is (a document too large for links everywhere included).
  const link = scanLinks(text, undefined, scanBudget(), contextAbove(doc, position.line)).find((l) => l.start <= at && at <= l.end);
  if (!info && !link) return undefined;
  // Trusted for this one command only: server text is added as text, never as Markdown.
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: [Commands.lookUp] };
  for (const line of info?.lines ?? []) md.appendMarkdown(`${escapeMarkdown(line, 1000)}  \n`);
  if (link) md.appendMarkdown(`[$(search) ${vscode.l10n.t('Look up')}](${lookUpCommandUri(provider, link.query).toString()})`);
  const [start, end] = link && !info ? [link.start, link.end] : [info!.start, info!.end];
  return new vscode.Hover(md, new vscode.Range(position.line, from + start, position.line, from + end));
}
