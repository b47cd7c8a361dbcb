// The messages between the extension and its two webviews, typed once for both sides: the ui
// (compareView.ts, eventConsole.ts) posts and reads these types, and media/compare.js, charts.js and
// events.js name them in JSDoc (`@type {import('../src/ui/webviewMessages').…}`), checked by
// `npm run typecheck` (media/tsconfig.json). Self-contained on purpose (no import): the pages'
// checker reads this file alone.

// ---- Compare Providers (media/compare.js, media/charts.js) --------------------------------------

/** One table row: a provider's interface, its health and what it serves (compareCharts.ts builds them). */
export type CompareRow = {
  provider: string;
  interface: string;
  state: string;
  network: string | null;
  /** The other columns (core/health/healthExport.ts HealthRecord, capabilitySummary.ts cells). */
  [column: string]: string | number | null;
};

/** One interface's history for the charts: [unix seconds, latency ms, blocks behind, state]. */
export interface CompareSeries {
  provider: string;
  iface: string;
  label: string;
  points: [number, number | null, number | null, string][];
}

export type CompareNetwork = {
  key: string;
  label: string;
  [field: string]: unknown;
};

/** Extension → page. */
export type CompareToPage = { type: 'rows'; rows: CompareRow[]; networks: CompareNetwork[]; history: CompareSeries[]; at: string };

/** Page → extension. */
export type CompareFromPage = { type: 'ready' } | { type: 'refresh' } | { type: 'export'; format: 'json' | 'csv' };

// ---- Watch Events console (media/events.js) -----------------------------------------------------

/** One line of the console (core/events/lines.ts builds them). */
export interface EventLine {
  seq: number;
  /** Date.now() at arrival (the page formats it). */
  at: number;
  kind: 'event' | 'gap' | 'note';
  type?: string;
  height?: string;
  txHash?: string;
  summary: string;
  hasDetail: boolean;
}

/** The watch's state as the page shows it (core/events/spec.ts WatchSnapshot). */
export interface EventsState {
  state: 'connecting' | 'live' | 'reconnecting' | 'stopped';
  detail?: string;
  paused: boolean;
  received: number;
  stored: number;
  evicted: number;
  oversize: number;
  ignored: number;
  gaps: number;
  ratePerSecond: number;
}

/** What the page reports to the in-editor tests. */
export interface EventsPageState {
  shown: number;
  total: number;
  paused: boolean;
  filter: string;
}

/** Extension → page. */
export type EventsToPage =
  | { type: 'lines'; lines: EventLine[]; skipped: number }
  | { type: 'state'; state: EventsState }
  | { type: 'detail'; seq: number; text: string }
  | { type: 'test'; filter?: string; click?: 'pause' | 'clear' };

/** Page → extension. */
export type EventsFromPage =
  | { type: 'ready' | 'pause' | 'resume' | 'clear' | 'reconnect' | 'export' }
  | { type: 'detail' | 'openTx'; seq: number }
  | ({ type: 'testState' } & EventsPageState);

/** A message from a page, read defensively (a webview is another process: check before use). */
export function messageType(raw: unknown): string | undefined {
  return typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string' ? (raw as { type: string }).type : undefined;
}
