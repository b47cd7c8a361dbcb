// Request history: the last requests with what they returned (status, latency, size), kept
// across restarts. The list and its on-disk form live here (plain data, no vscode); the view
// is src/ui/requests/historyView.ts. Nothing secret is stored: texts and arguments arrive masked.

import { type InterfaceId } from '../config/providers';

export const HISTORY_LIMIT = 100;
/** Result texts larger than this are not kept (the entry can still be re-run). */
export const RESULT_TEXT_LIMIT = 1024 * 1024;

export interface HistoryEntry {
  id: string;
  /** ISO time the request started. */
  at: string;
  /** An operation id, or LOOK_UP for a Look Up (its query in `args.query`). */
  operation: string;
  label: string;
  /** The interface of an operation; none for a Look Up (it asks several). */
  iface?: InterfaceId;
  provider: string;
  args: Record<string, string>;
  ok: boolean;
  status?: number;
  error?: string;
  elapsedMs: number;
  bytes: number;
  /** The result text is kept (under RESULT_TEXT_LIMIT) in the history folder. */
  stored: boolean;
  /** A result that went to a file (large body, genesis). */
  file?: string;
}

/** The `operation` of a Look Up entry. */
export const LOOK_UP = 'lookUp';

/**
 * What History calls a request: the query file's request name when it came from one, then the
 * method of a custom JSON-RPC request or the path of a custom GET, or the operation's label with
 * its `{placeholders}` filled from the arguments (`blocks/1234`, not `blocks/{height}`).
 */
export function historyLabel(opId: string, opLabel: string, args: Readonly<Record<string, string>>, name?: string): string {
  let label = opLabel;
  if (/\.custom$/.test(opId) && args.method) label = args.method;
  else if (/\.custom$/.test(opId) && args.path) label = args.path.length > 60 ? `${args.path.slice(0, 59)}…` : args.path;
  else label = opLabel.replace(/\{(\w+)\}/g, (whole, key: string) => args[key] ?? whole);
  return name ? `${name} · ${label}` : label;
}

/** The same request (operation, provider, arguments): what "compare with previous" pairs. */
export function sameRequest(a: HistoryEntry, b: HistoryEntry): boolean {
  return a.operation === b.operation && a.provider === b.provider && JSON.stringify(a.args) === JSON.stringify(b.args);
}

/** Newest first; adding past the limit drops the oldest (returned, so their texts can be deleted). */
export function addEntry(entries: HistoryEntry[], entry: HistoryEntry, limit = HISTORY_LIMIT): { entries: HistoryEntry[]; dropped: HistoryEntry[] } {
  const all = [entry, ...entries];
  return { entries: all.slice(0, limit), dropped: all.slice(limit) };
}

/** Reads a saved index, keeping only well-formed entries (a damaged file loses nothing else). */
export function parseHistory(text: string): HistoryEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  return data
    .filter(
      (e): e is HistoryEntry =>
        typeof e === 'object' &&
        e !== null &&
        typeof e.id === 'string' &&
        /^[a-z0-9-]+$/.test(e.id) &&
        typeof e.at === 'string' &&
        typeof e.operation === 'string' &&
        typeof e.provider === 'string' &&
        typeof e.ok === 'boolean' &&
        typeof e.args === 'object' &&
        e.args !== null,
    )
    .slice(0, HISTORY_LIMIT);
}
