// History at activation: its five commands and what the features record into it (every finished
// request, every Look Up). The view itself (./historyView.ts: the list, its storage, reopening,
// re-running, comparing) is built just after activation from its own file; what is recorded before
// then waits for it.

import type * as vscode from 'vscode';
import type { HistoryEntry } from '../../core/documents/history';
import { buildLater } from '../base/buildLater';
import { Commands } from '../base/commandIds';
import { registerCommand } from '../base/commands';
import type { Log } from '../base/log';
import type { ResultDocuments } from '../base/resultDocuments';
import type { CommandDeps } from '../base/deps';

export interface History extends NonNullable<CommandDeps['history']> {
  /** Entries, newest first (for the tests' hooks). */
  list(): Promise<readonly HistoryEntry[]>;
}

/** `folder`: where the list and the kept results are stored (the extension's global storage). */
export function registerHistory(keep: (d: vscode.Disposable) => void, log: Log, folder: vscode.Uri, documents: ResultDocuments): History {
  const view = buildLater(
    keep,
    log,
    '[history] the History view was not built',
    () => import('./historyView'),
    ({ HistoryView }) => {
      const v = new HistoryView(folder, documents, log);
      keep(v);
      return v;
    },
  );
  for (const d of [
    registerCommand(log, Commands.historyOpen, async (e?: HistoryEntry) => e && (await view)?.open(e)),
    registerCommand(log, Commands.historyRerun, async (e?: HistoryEntry) => e && (await view)?.rerun(e)),
    registerCommand(log, Commands.historyCopyAsCurl, async (e?: HistoryEntry) => e && (await view)?.copyAsCurl(e)),
    registerCommand(log, Commands.historyCompare, async (e?: HistoryEntry, selected?: HistoryEntry[]) => (await view)?.compare(e, selected)),
    registerCommand(log, Commands.historyClear, async () => (await view)?.clear()),
  ])
    keep(d);
  return {
    record: async (outcome, shown, name) => (await view)?.record(outcome, shown, name),
    recordLookUp: async (provider, query, found, startedAt, shown) => (await view)?.recordLookUp(provider, query, found, startedAt, shown),
    list: async () => (await view)?.list() ?? [],
  };
}
