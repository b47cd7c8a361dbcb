// Health rows as plain data, CSV and JSON: for the comparison view and its exports.

import { type InterfaceHealth } from './model';
import { INTERFACE_LABELS } from '../config/providers';

export interface HealthRecord {
  provider: string;
  interface: string;
  state: string;
  height: string | null;
  behind: string | null;
  latencyMs: number | null;
  setupMs: number | null;
  medianMs: number | null;
  p90Ms: number | null;
  successRate: number | null;
  samples: number;
  chainId: string | null;
  rank: number | null;
  lastError: string | null;
  lastErrorAt: string | null;
  rateLimitedUntil: string | null;
  crossCheck: string | null;
  /** The provider's network (its display name; config/networks.ts). */
  network: string | null;
}

const round = (n: number | undefined) => (n === undefined ? null : Math.round(n));

/** `networkLabel` names a network key (the rows' `network`); the key itself when omitted. */
export function toRecords(rows: readonly InterfaceHealth[], networkLabel: (key: string) => string = (k) => k): HealthRecord[] {
  return rows.map((r) => ({
    provider: r.provider,
    interface: INTERFACE_LABELS[r.iface],
    state: r.state,
    height: r.last?.height?.toString() ?? null,
    behind: r.behind?.toString() ?? null,
    latencyMs: round(r.last?.latencyMs),
    setupMs: round(r.last?.setupMs),
    medianMs: round(r.medianMs),
    p90Ms: round(r.p90Ms),
    successRate: r.successRate === undefined ? null : Math.round(r.successRate * 1000) / 1000,
    samples: r.samples,
    chainId: r.last?.chainId ?? null,
    rank: r.rank ?? null,
    lastError: r.lastError?.message ?? null,
    lastErrorAt: r.lastError ? new Date(r.lastError.at).toISOString() : null,
    rateLimitedUntil: r.last?.rateLimitedUntil && r.last.rateLimitedUntil > Date.now() ? new Date(r.last.rateLimitedUntil).toISOString() : null,
    crossCheck: r.crossCheck ?? null,
    network: r.network === undefined ? null : networkLabel(r.network),
  }));
}

export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  // A text cell a spreadsheet would read as a formula (server text: errors, chain ids) starts with ' instead.
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(records: readonly HealthRecord[]): string {
  const columns = Object.keys(records[0] ?? toRecords([{ provider: '', iface: 'rest', state: 'unknown', samples: 0 }])[0]) as (keyof HealthRecord)[];
  return [columns.join(','), ...records.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\n') + '\n';
}
