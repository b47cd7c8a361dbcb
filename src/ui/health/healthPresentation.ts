// How health looks in the editor: short descriptions, colours and tooltips for the tree and
// the status bar, from assessed rows (src/core/health/health.ts).

import vscode = require('vscode');
import { formatHeight } from '../../core/base/numbers';
import { type HealthState, type InterfaceHealth } from '../../core/health/model';
import { escapeMarkdown } from '../../core/documents/markdown';

const COLORS: Record<HealthState, string | undefined> = {
  unknown: undefined,
  healthy: 'charts.green',
  lagging: 'charts.yellow',
  down: 'charts.red',
  wrongChain: 'charts.purple',
  rateLimited: 'charts.orange',
  suspect: 'charts.purple',
  stale: 'charts.orange',
};

/** A state's name as shown (translated on each call: the bundle may load after this module). */
export function stateLabel(state: HealthState): string {
  switch (state) {
    case 'unknown':
      return vscode.l10n.t('not probed');
    case 'healthy':
      return vscode.l10n.t('healthy');
    case 'lagging':
      return vscode.l10n.t('lagging');
    case 'down':
      return vscode.l10n.t('down');
    case 'wrongChain':
      return vscode.l10n.t('wrong chain');
    case 'rateLimited':
      return vscode.l10n.t('rate-limited');
    case 'suspect':
      return vscode.l10n.t('suspect height');
    case 'stale':
      return vscode.l10n.t('stale');
  }
}

/** `2 down`, `1 lagging`…: one state's count in a provider's summary. */
function stateCount(state: HealthState, n: number): string {
  switch (state) {
    case 'unknown':
      return vscode.l10n.t('{0} not probed', n);
    case 'healthy':
      return vscode.l10n.t('{0} healthy', n);
    case 'lagging':
      return vscode.l10n.t('{0} lagging', n);
    case 'down':
      return vscode.l10n.t('{0} down', n);
    case 'wrongChain':
      return vscode.l10n.t('{0} wrong chain', n);
    case 'rateLimited':
      return vscode.l10n.t('{0} rate-limited', n);
    case 'suspect':
      return vscode.l10n.t('{0} suspect height', n);
    case 'stale':
      return vscode.l10n.t('{0} stale', n);
  }
}

export function healthColor(state: HealthState): vscode.ThemeColor | undefined {
  const id = COLORS[state];
  return id ? new vscode.ThemeColor(id) : undefined;
}

/** `#1,234,567 · 84 ms`, `2 behind · 310 ms`, `429 rate-limited`, `refused`… */
export function describeHealth(r: InterfaceHealth): string {
  const ms = r.last?.latencyMs !== undefined ? `${Math.round(r.last.latencyMs)} ms` : undefined;
  switch (r.state) {
    case 'healthy': {
      const h = r.last?.height !== undefined ? `#${formatHeight(r.last.height)}` : vscode.l10n.t('up');
      return [h, ms].filter(Boolean).join(' · ');
    }
    case 'lagging':
      return [r.reason, ms].filter(Boolean).join(' · ');
    case 'unknown':
      return '';
    case 'down':
      return r.retryAt
        ? vscode.l10n.t('{0} · retry at {1}', r.reason ?? stateLabel(r.state), new Date(r.retryAt).toLocaleTimeString())
        : (r.reason ?? stateLabel(r.state));
    default:
      return r.reason ?? stateLabel(r.state);
  }
}

/** Markdown lines for a tooltip: server text (reasons, chain ids, errors) escaped and bounded. */
export function healthTooltipLines(r: InterfaceHealth): string[] {
  const label = stateLabel(r.state);
  const lines = [r.reason ? vscode.l10n.t('state: **{0}** ({1})', label, escapeMarkdown(r.reason)) : vscode.l10n.t('state: **{0}**', label)];
  if (r.last?.height !== undefined) {
    const height = formatHeight(r.last.height);
    lines.push(r.behind ? vscode.l10n.t('height: {0} ({1} behind the best)', height, r.behind.toString()) : vscode.l10n.t('height: {0}', height));
  }
  if (r.last?.chainId) lines.push(vscode.l10n.t('chain: {0}', escapeMarkdown(r.last.chainId, 100)));
  if (r.last?.latencyMs !== undefined) {
    const latency = Math.round(r.last.latencyMs);
    lines.push(
      r.last.setupMs !== undefined
        ? vscode.l10n.t('latency: {0} ms (+ {1} ms connection set-up)', latency, Math.round(r.last.setupMs))
        : vscode.l10n.t('latency: {0} ms', latency),
    );
  }
  if (r.medianMs !== undefined)
    lines.push(vscode.l10n.t('median {0} ms · p90 {1} ms over {2} probe(s)', Math.round(r.medianMs), Math.round(r.p90Ms ?? r.medianMs), r.samples));
  if (r.successRate !== undefined) lines.push(vscode.l10n.t('success: {0}%', Math.round(r.successRate * 100)));
  if (r.rank !== undefined) lines.push(vscode.l10n.t('rank {0} (score {1})', r.rank, r.score!.toFixed(2)));
  if (r.crossCheck) lines.push(`⚠ ${escapeMarkdown(r.crossCheck)}`);
  if (r.lastError) lines.push(vscode.l10n.t('last error ({0}): {1}', new Date(r.lastError.at).toLocaleTimeString(), escapeMarkdown(r.lastError.message)));
  if (r.retryAt)
    lines.push(vscode.l10n.t('{0} failures in a row: probed less often, next try at {1}', r.errorStreak ?? 2, new Date(r.retryAt).toLocaleTimeString()));
  if (r.state === 'stale' && r.heightSince) lines.push(vscode.l10n.t('last new block seen at {0}', new Date(r.heightSince).toLocaleTimeString()));
  if (r.last?.rateLimitedUntil && r.last.rateLimitedUntil > Date.now()) {
    lines.push(vscode.l10n.t('rate-limited: next probe after {0}', new Date(r.last.rateLimitedUntil).toLocaleTimeString()));
  }
  return lines;
}

const SEVERITY: HealthState[] = ['down', 'wrongChain', 'suspect', 'stale', 'rateLimited', 'lagging', 'healthy', 'unknown'];

/** A provider's rows summed up: the worst state and e.g. `2 down, 1 lagging` or `all healthy`. */
export function summarizeProvider(rows: readonly InterfaceHealth[]): { state: HealthState; text: string } | undefined {
  const known = rows.filter((r) => r.state !== 'unknown');
  if (known.length === 0) return undefined;
  const worst = SEVERITY.find((s) => known.some((r) => r.state === s))!;
  if (known.every((r) => r.state === 'healthy') && !known.some((r) => r.crossCheck)) return { state: 'healthy', text: vscode.l10n.t('all healthy') };
  const parts = SEVERITY.filter((s) => s !== 'healthy' && s !== 'unknown')
    .map((s) => [s, known.filter((r) => r.state === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => stateCount(s, n));
  const crossed = known.filter((r) => r.crossCheck).length;
  if (crossed) parts.push(vscode.l10n.t('{0} out of step', crossed));
  return { state: worst === 'healthy' && crossed ? 'lagging' : worst, text: parts.join(', ') };
}
