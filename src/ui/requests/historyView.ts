// The History view: the last 100 requests (interface, operation, provider, status, latency,
// when). Click to reopen the kept result; re-run, copy as curl, compare two results (or one with
// the previous run of the same request) side by side, clear. Kept in the extension's global
// storage across restarts; texts are stored masked, so no secret is ever written.

import { randomBytes } from 'node:crypto';
import vscode = require('vscode');
import { existsSync } from 'node:fs';
import { Commands, operationCommand } from '../base/commandIds';
import { Disposable } from '../base/lifecycle';
import { LocalizedError, errorMessage } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import type { Outcome } from '../../core/chain/execute';
import { HISTORY_LIMIT, type HistoryEntry, LOOK_UP, RESULT_TEXT_LIMIT, addEntry, historyLabel, parseHistory, sameRequest } from '../../core/documents/history';
import { escapeMarkdown, markdownCode } from '../../core/documents/markdown';
import { formatBytes } from '../../core/base/numbers';
import { masker } from '../../core/secrets/mask';
import { documentName } from '../../core/documents/resultName';
import { INTERFACE_LABELS } from '../../core/config/providers';
import { onDemand } from '../base/load';
import { type Log } from '../base/log';
import { RESULT_SCHEME, type ResultDocuments } from '../base/resultDocuments';
import { readSettings } from '../base/settings';

export const HISTORY_VIEW_ID = 'chainEndpoints.history';

export class HistoryView extends Disposable implements vscode.TreeDataProvider<HistoryEntry> {
  private entries: HistoryEntry[] = [];
  private readonly loaded: Promise<void>;
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private saving = Promise.resolve();

  constructor(
    private readonly folder: vscode.Uri,
    private readonly documents: ResultDocuments,
    private readonly log: Log,
  ) {
    super();
    this._register(this.changed);
    this.loaded = this.load();
    // Its commands are registered at activation (./history.ts), which hands them to this view.
    this._register(vscode.window.createTreeView(HISTORY_VIEW_ID, { treeDataProvider: this, canSelectMany: true }));
  }

  /** Entries, newest first (for the API and tests). */
  async list(): Promise<readonly HistoryEntry[]> {
    await this.loaded;
    return this.entries;
  }

  private indexUri(): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, 'index.json');
  }

  private textUri(id: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, `${id}.json`);
  }

  private async load(): Promise<void> {
    try {
      const bytes = await vscode.workspace.fs.readFile(this.indexUri());
      this.entries = parseHistory(Buffer.from(bytes).toString('utf8'));
    } catch {
      this.entries = [];
    }
    this.changed.fire(undefined);
  }

  private save(): Promise<void> {
    const text = JSON.stringify(this.entries);
    this.saving = this.saving
      .then(() => vscode.workspace.fs.createDirectory(this.folder))
      .then(() => vscode.workspace.fs.writeFile(this.indexUri(), Buffer.from(text, 'utf8')))
      .catch((err) => this.log.warn(`[history] could not save: ${errorMessage(err)}`));
    return this.saving;
  }

  /** Records a finished request with the (masked) text it showed, as UTF-8 bytes; `name`: the query file's request. */
  async record(outcome: Outcome, shown: Uint8Array | undefined, name?: string): Promise<void> {
    const args = Object.fromEntries(Object.entries(outcome.args).map(([k, v]) => [k, masker.mask(v)]));
    await this.add(
      {
        at: outcome.startedAt.toISOString(),
        operation: outcome.operation.id,
        label: historyLabel(outcome.operation.id, outcome.operation.label, args, name),
        iface: outcome.operation.iface,
        provider: outcome.providerName,
        args,
        ok: !outcome.error,
        status: outcome.status,
        error: outcome.error ? masker.mask(outcome.error.message) : undefined,
        elapsedMs: Math.round(outcome.elapsedMs),
        bytes: outcome.bytes,
        file: outcome.error ? undefined : outcome.file,
      },
      shown,
    );
  }

  /** Records a Look Up (several requests, one document): re-run opens Look Up on the same query. */
  async recordLookUp(provider: string, query: string, found: boolean, startedAt: Date, shown: Uint8Array): Promise<void> {
    const q = masker.mask(query);
    await this.add(
      {
        at: startedAt.toISOString(),
        operation: LOOK_UP,
        label: vscode.l10n.t('Look Up {0}', q.length > 70 ? `${q.slice(0, 69)}…` : q),
        provider,
        args: { query: q },
        ok: found,
        error: found ? undefined : vscode.l10n.t('found nothing'),
        elapsedMs: Date.now() - startedAt.getTime(),
        bytes: shown.byteLength,
      },
      shown,
    );
  }

  private async add(fields: Omit<HistoryEntry, 'id' | 'stored'>, shown: Uint8Array | undefined): Promise<void> {
    await this.loaded;
    const id = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    const stored = shown !== undefined && shown.byteLength <= RESULT_TEXT_LIMIT;
    const entry: HistoryEntry = { id, ...fields, stored };
    if (stored) {
      try {
        await vscode.workspace.fs.createDirectory(this.folder);
        await vscode.workspace.fs.writeFile(this.textUri(id), shown!);
      } catch (err) {
        entry.stored = false;
        this.log.warn(`[history] result not kept: ${errorMessage(err)}`);
      }
    }
    const { entries, dropped } = addEntry(this.entries, entry, HISTORY_LIMIT);
    this.entries = entries;
    for (const d of dropped) if (d.stored) void vscode.workspace.fs.delete(this.textUri(d.id)).then(undefined, () => undefined);
    this.changed.fire(undefined);
    await this.save();
  }

  getTreeItem(e: HistoryEntry): vscode.TreeItem {
    const item = new vscode.TreeItem(`${e.label} · ${e.provider}`);
    item.id = `history:${e.id}`;
    const when = new Date(e.at);
    const status = e.ok
      ? e.status !== undefined
        ? String(e.status)
        : vscode.l10n.t('ok')
      : e.status !== undefined
        ? vscode.l10n.t('{0} error', e.status)
        : vscode.l10n.t('error');
    item.description = `${status} · ${e.elapsedMs} ms · ${when.toLocaleTimeString()}`;
    const args = Object.entries(e.args)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
    item.tooltip = new vscode.MarkdownString(
      [
        // Labels, provider names and arguments come from settings, files and typing: through the one escaper (core/documents/markdown.ts).
        `**${e.operation === LOOK_UP ? vscode.l10n.t('Look Up') : e.iface ? INTERFACE_LABELS[e.iface] : escapeMarkdown(e.operation)}** · ${escapeMarkdown(e.label)} · ${escapeMarkdown(e.provider)}`,
        args ? vscode.l10n.t('arguments: {0}', markdownCode(args)) : '',
        `${when.toLocaleString()} · ${e.elapsedMs} ms · ${formatBytes(e.bytes)}`,
        e.error ? vscode.l10n.t('error: {0}', escapeMarkdown(e.error)) : '',
        e.stored || e.file ? vscode.l10n.t('Click to reopen the result.') : vscode.l10n.t('The result was too large to keep: re-run it.'),
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
    item.iconPath = new vscode.ThemeIcon(e.ok ? 'pass' : 'error', new vscode.ThemeColor(e.ok ? 'testing.iconPassed' : 'testing.iconFailed'));
    item.contextValue = 'historyEntry';
    item.command = { command: Commands.historyOpen, title: vscode.l10n.t('Open'), arguments: [e] };
    return item;
  }

  async getChildren(e?: HistoryEntry): Promise<HistoryEntry[]> {
    if (e) return [];
    await this.loaded;
    return this.entries;
  }

  private historyUri(e: HistoryEntry): vscode.Uri {
    return vscode.Uri.from({
      scheme: RESULT_SCHEME,
      path: `/history${documentName(e.provider, `${e.label} ${new Date(e.at).toISOString().slice(11, 19)}`, e.operation === LOOK_UP ? 'md' : 'json')}`,
      query: e.id,
    });
  }

  private async textOf(e: HistoryEntry): Promise<string | undefined> {
    if (!e.stored) return undefined;
    try {
      return Buffer.from(await vscode.workspace.fs.readFile(this.textUri(e.id))).toString('utf8');
    } catch {
      return undefined;
    }
  }

  /** Reopens the kept result; returns its Uri. */
  async open(e: HistoryEntry): Promise<vscode.Uri | undefined> {
    if (e.file && existsSync(e.file)) {
      const uri = vscode.Uri.file(e.file);
      await vscode.window.showTextDocument(uri, { preview: false });
      return uri;
    }
    const text = await this.textOf(e);
    if (text === undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The result of {0} ({1}) was not kept: re-run it from the History view.', e.label, e.provider));
      return undefined;
    }
    return this.documents.showText(this.historyUri(e), text);
  }

  rerun(e: HistoryEntry): Thenable<unknown> {
    if (e.operation === LOOK_UP) return vscode.commands.executeCommand(Commands.lookUp, { provider: e.provider, query: e.args.query });
    return vscode.commands.executeCommand(operationCommand(e.operation), { provider: e.provider, ...e.args });
  }

  async copyAsCurl(e: HistoryEntry): Promise<string | undefined> {
    if (e.operation === LOOK_UP)
      throw new LocalizedError(l10n.both('A Look Up sends several requests: re-run it, or copy one request from the Chain Endpoints view.'));
    const { findOperation, curlLine } = await onDemand.requests();
    const op = findOperation(e.operation);
    const provider = readSettings().providers.providers.find((p) => p.name === e.provider);
    if (!op || !provider) throw new LocalizedError(l10n.both('Provider "{0}" is no longer configured.', e.provider));
    const line = curlLine(provider, op, e.args, false);
    await vscode.env.clipboard.writeText(line);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the request as curl'), 3000);
    return line;
  }

  /** Two selected entries side by side, or one with the previous run of the same request. */
  async compare(e?: HistoryEntry, selected?: HistoryEntry[]): Promise<boolean> {
    await this.loaded;
    let pair: HistoryEntry[] | undefined;
    if (selected && selected.length === 2) pair = [...selected].sort((a, b) => a.at.localeCompare(b.at));
    else if (e) {
      const previous = this.entries.find((x) => x.id !== e.id && x.at <= e.at && sameRequest(x, e));
      if (!previous) {
        void vscode.window.showInformationMessage(vscode.l10n.t('No earlier run of {0} ({1}) with the same arguments to compare with.', e.label, e.provider));
        return false;
      }
      pair = [previous, e];
    }
    if (!pair) return false;
    const [a, b] = pair;
    const [ta, tb] = await Promise.all([this.textOf(a), this.textOf(b)]);
    if (ta === undefined || tb === undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('One of the two results was not kept (too large): re-run it to compare.'));
      return false;
    }
    const ua = this.historyUri(a);
    const ub = this.historyUri(b);
    this.documents.put(ua, ta);
    this.documents.put(ub, tb);
    const time = (x: HistoryEntry) => new Date(x.at).toLocaleTimeString();
    await vscode.commands.executeCommand('vscode.diff', ua, ub, `${a.label}: ${a.provider} ${time(a)} ↔ ${b.provider} ${time(b)}`);
    return true;
  }

  async clear(): Promise<void> {
    await this.loaded;
    const old = this.entries;
    this.entries = [];
    this.changed.fire(undefined);
    await this.save();
    for (const e of old) if (e.stored) void vscode.workspace.fs.delete(this.textUri(e.id)).then(undefined, () => undefined);
  }
}
