// "Watch Events…" console: one webview panel per watch. A webview rather than a live document:
// a document provider re-sends the whole text on every change, and a console at thousands of
// events per second would copy the whole buffer ten times a second. The panel gets only the new
// lines of each batch (at most 10 batches a second, at most MAX_LINES_PER_BATCH lines each); an
// event's JSON goes over only when a line is expanded. Strict CSP as the Compare view: no remote
// content, one nonce'd script, and the script inserts server text with textContent only.

import vscode = require('vscode');
import { webviewPage } from '../base/webviewPage';
import { Disposable } from '../base/lifecycle';
import type { Log } from '../base/log';
import type { WatchEntry } from '../../core/events/entry';
import { batchMessage, toJsonLine } from '../../core/events/lines';
import type { Watch, WatchSnapshot } from '../../core/events/watch';
import { Commands } from '../base/commandIds';
import { eventDetail } from './eventDetail';
import { type EventsFromPage, type EventsPageState, type EventsToPage, messageType } from '../base/webviewMessages';

/** The event JSON shown when a line is expanded, at most. */
const MAX_DETAIL_CHARS = 256 * 1024;

export class EventConsole extends Disposable {
  private readonly panel: vscode.WebviewPanel;

  constructor(
    extensionUri: vscode.Uri,
    private readonly watch: Watch,
    private readonly provider: string,
    title: string,
    private readonly log: Log,
  ) {
    super();
    const media = vscode.Uri.joinPath(extensionUri, 'media');
    this.panel = vscode.window.createWebviewPanel('chainEndpoints.events', title, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [media],
      // The panel keeps its lines while hidden (they are bounded by events.js).
      retainContextWhenHidden: true,
    });
    this.panel.iconPath = vscode.Uri.joinPath(media, 'chain-endpoints.svg');
    this.panel.webview.html = this.html(this.panel.webview, media, title);
    this._register(this.panel.onDidDispose(() => this.dispose()));
    this._register(this.panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)));
    this._register(watch.onBatch((entries) => this.postBatch(entries)));
    this._register(watch.onState((s) => this.postState(s)));
    this._register({ dispose: () => watch.dispose() });
  }

  start(): void {
    this.watch.start();
  }

  private postBatch(entries: WatchEntry[]): void {
    // Only the batch's new lines (at most MAX_LINES_PER_BATCH), never the buffer.
    this.post(batchMessage(entries));
  }

  private postState(s: WatchSnapshot): void {
    this.post({ type: 'state', state: s });
  }

  /** Every message to the page goes through here, typed (src/ui/base/webviewMessages.ts). */
  private post(message: EventsToPage): void {
    void this.panel.webview.postMessage(message);
  }

  private async onMessage(raw: unknown): Promise<void> {
    if (messageType(raw) === undefined) return;
    const m = raw as EventsFromPage;
    const seq = 'seq' in m && typeof m.seq === 'number' ? m.seq : -1;
    switch (m.type) {
      case 'ready':
        this.postState(this.watch.snapshot());
        this.postBatch(this.watch.entries());
        return;
      case 'pause':
        return this.watch.pause();
      case 'resume':
        return this.watch.resume();
      case 'clear':
        return this.watch.clear();
      case 'reconnect':
        return this.watch.reconnect();
      case 'export':
        await this.export();
        return;
      case 'detail':
        this.post({ type: 'detail', seq, text: await this.detailText(seq) });
        return;
      case 'openTx': {
        // The hash comes from our own buffer, never from the webview.
        const e = this.watch.entry(seq);
        if (!e?.txHash) return;
        await openTransaction(this.provider, e);
        return;
      }
      case 'testState':
        this.testing.lastPageState = m as PageState;
        return;
    }
  }

  /** An expanded line: the event decoded with the explorer's decoders (a Tx event's transaction), then as received; cut at MAX_DETAIL_CHARS. */
  private async detailText(seq: number): Promise<string> {
    const e = this.watch.entry(seq);
    let text =
      e?.data === undefined
        ? vscode.l10n.t('This event is no longer in the buffer.')
        : await eventDetail(e.data, {
            decoded: vscode.l10n.t('Transaction (decoded)'),
            ethereum: vscode.l10n.t('Ethereum transaction (decoded)'),
            event: vscode.l10n.t('Event (as received)'),
          });
    if (text.length > MAX_DETAIL_CHARS)
      text = text.slice(0, MAX_DETAIL_CHARS) + '\n' + vscode.l10n.t('… cut at {0} characters; Export has the whole event.', MAX_DETAIL_CHARS);
    return text;
  }

  /** What the in-editor tests drive: the page's own controls (through a message) and Export to a file. */
  readonly testing = {
    watch: (): Watch => this.watch,
    lastPageState: undefined as PageState | undefined,
    /** Types into the filter box or clicks a button of the page; the page answers with a `testState`. */
    page: (action: { filter: string } | { click: 'pause' | 'clear' }) => this.panel.webview.postMessage({ type: 'test', ...action } satisfies EventsToPage),
    exportTo: (uri: vscode.Uri) => this.export(uri),
    /** The text an expanded line shows. */
    detail: (seq: number) => this.detailText(seq),
    /** The link of the line `seq` (as a click on its hash): the command it ran. */
    openTx: (seq: number) => openTransaction(this.provider, this.watch.entry(seq) ?? {}),
  };

  /** Writes the buffer as JSON Lines; how many entries it wrote (undefined when no file was picked). */
  private async export(to?: vscode.Uri): Promise<number | undefined> {
    const entries = this.watch.entries();
    const uri =
      to ??
      (await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export events as JSON Lines'),
        defaultUri: vscode.Uri.file(`events-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`),
        filters: { 'JSON Lines': ['jsonl'] },
      }));
    if (!uri) return undefined;
    const text = entries.map(toJsonLine).join('\n') + (entries.length ? '\n' : '');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    this.log.info(`[events] exported ${entries.length} entries`);
    void vscode.window.showInformationMessage(vscode.l10n.t('Exported {0} events to {1}', entries.length, uri.fsPath));
    return entries.length;
  }

  private html(webview: vscode.Webview, media: vscode.Uri, title: string): string {
    return webviewPage(webview, media, {
      name: 'events',
      title: title,
      texts: webviewTexts(),
      body: (t) => `<header>
  <h1>${t(title)}</h1>
  <span id="state" aria-live="polite"></span>
  <input id="filter" type="search" placeholder="${t(vscode.l10n.t('Filter'))}" aria-label="${t(vscode.l10n.t('Filter the lines'))}">
  <button id="pause" type="button">${t(vscode.l10n.t('Pause'))}</button>
  <button id="clear" type="button">${t(vscode.l10n.t('Clear'))}</button>
  <button id="export" type="button">${t(vscode.l10n.t('Export JSON Lines'))}</button>
</header>
<div id="counts" aria-live="off"></div>
<ol id="lines" aria-label="${t(vscode.l10n.t('Events'))}"></ol>
<p id="empty">${t(vscode.l10n.t('Waiting for events…'))}</p>`,
    });
  }
}

/** What the page reports after a test action: lines shown (after the filter), lines kept, paused. */
export type PageState = EventsPageState;

/** A transaction hash's link: the explorer's Look Up `{ provider, query }` (Cosmos or EVM hash alike). */
export async function openTransaction(provider: string, e: Pick<WatchEntry, 'txHash'>): Promise<string> {
  if (!e.txHash) return 'none';
  await vscode.commands.executeCommand(Commands.lookUp, { provider, query: e.txHash });
  return Commands.lookUp;
}

/** The texts events.js shows ({0}…: values). */
function webviewTexts(): Record<string, string> {
  return {
    pause: vscode.l10n.t('Pause'),
    resume: vscode.l10n.t('Resume'),
    paused: vscode.l10n.t('paused'),
    counts: vscode.l10n.t({ message: '{0} received · {1} kept · {2} dropped from the buffer · {3}/s · {4} gap(s)', comment: ['Event console counters'] }),
    skipped: vscode.l10n.t('{0} lines not shown (too many at once); Export has them'),
    trimmed: vscode.l10n.t('older lines removed from the view; Export has what the buffer keeps'),
    openTx: vscode.l10n.t('Open receipt (Look Up of this transaction)'),
    connecting: vscode.l10n.t('connecting'),
    live: vscode.l10n.t('live'),
    reconnecting: vscode.l10n.t('reconnecting'),
    stopped: vscode.l10n.t('stopped'),
  };
}
