// What the Compare view gets beyond the health records: each row's capability cells (what it
// serves, the earliest block, the version) and the session's history per interface (latency and
// blocks behind over time) that media/charts.js draws with uPlot, with the texts both need.

import vscode = require('vscode');
import { INTERFACE_LABELS } from '../../core/config/providers';
import { capabilityCells } from '../../core/health/capabilitySummary';
import { type HealthRecord, toRecords } from '../../core/health/healthExport';
import type { InterfaceHealth } from '../../core/health/model';
import type { HealthSource } from '../base/deps';

export interface SeriesHistory {
  provider: string;
  iface: string;
  /** The interface's label (the select shows it). */
  label: string;
  /** [time in s, latency ms | null, blocks behind | null, state] per probe, oldest first. */
  points: [number, number | null, number | null, string][];
}

/** The rows with their capability cells: the table and its exports. */
export function compareRecords(
  health: HealthSource,
  rows: readonly InterfaceHealth[],
  networkLabel?: (key: string) => string,
): (HealthRecord & ReturnType<typeof capabilityCells>)[] {
  const records = toRecords(rows, networkLabel);
  return records.map((r, i) => ({ ...r, ...capabilityCells(health.capabilities?.(rows[i].provider), rows[i].iface) }));
}

export function compareExtras(health: HealthSource, rows: readonly InterfaceHealth[]): { history: SeriesHistory[] } {
  const history = rows.map((r) => ({
    provider: r.provider,
    iface: r.iface,
    label: INTERFACE_LABELS[r.iface],
    points: (health.history?.(r.provider, r.iface) ?? []).map(
      (p) => [Math.round(p.at / 1000), p.latencyMs ?? null, p.behind ?? null, p.state] as [number, number | null, number | null, string],
    ),
  }));
  return { history };
}

/** Texts of the charts and the capability columns (charts.js and compare.js read them from data-l10n). */
export function chartTexts(): { chartColumns: Record<string, string>; chart: Record<string, string> } {
  return {
    chartColumns: {
      trend: vscode.l10n.t('Latency (session)'),
      serves: vscode.l10n.t('Serves'),
      earliest: vscode.l10n.t('Earliest block'),
      version: vscode.l10n.t('Version'),
    },
    chart: {
      latency: vscode.l10n.t('latency ms'),
      behind: vscode.l10n.t('blocks behind'),
      noData: vscode.l10n.t('No probes yet this session.'),
      down: vscode.l10n.t('down'),
      sparkline: vscode.l10n.t('Latency of {0} over the session: {1} probes, last {2} ms'),
    },
  };
}
