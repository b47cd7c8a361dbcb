// What the console's page gets per entry (one small line, no event data: that goes over only when
// a line is opened), and the JSON Lines record Export writes. Plain functions of an entry, shared
// by the console (src/ui/events/eventConsole.ts) and the benchmark that measures it.

import type { WatchEntry } from './entry';

/** A batch larger than this is cut to its newest lines, with a line saying how many were skipped. */
export const MAX_LINES_PER_BATCH = 500;
const MAX_SUMMARY = 400;

export interface ConsoleLine {
  seq: number;
  /** Date.now() at arrival (the page formats it). */
  at: number;
  kind: WatchEntry['kind'];
  type?: string;
  height?: string;
  txHash?: string;
  summary: string;
  hasDetail: boolean;
}

export function toLine(e: WatchEntry): ConsoleLine {
  return {
    seq: e.seq,
    at: e.at,
    kind: e.kind,
    type: e.type,
    height: e.height,
    txHash: e.txHash,
    summary: e.summary.length > MAX_SUMMARY ? e.summary.slice(0, MAX_SUMMARY - 1) + '…' : e.summary,
    hasDetail: e.data !== undefined,
  };
}

/** The message of one batch: its newest MAX_LINES_PER_BATCH lines, and how many were left out. */
export function batchMessage(entries: readonly WatchEntry[]): { type: 'lines'; lines: ConsoleLine[]; skipped: number } {
  const skipped = Math.max(0, entries.length - MAX_LINES_PER_BATCH);
  const lines: ConsoleLine[] = new Array<ConsoleLine>(entries.length - skipped);
  for (let i = skipped; i < entries.length; i++) lines[i - skipped] = toLine(entries[i]);
  return { type: 'lines', lines, skipped };
}

/** One JSON Lines record per entry (what Export writes). */
export function toJsonLine(e: WatchEntry): string {
  const { seq, kind, type, height, txHash, summary, data, truncated, gap } = e;
  return JSON.stringify({ seq, at: new Date(e.at).toISOString(), kind, type, height, txHash, summary, data, truncated, gap });
}
