// How health looks in the editor: short descriptions, colours and tooltips for the tree and
// the status bar, from assessed rows (src/core/health.ts).

import * as vscode from 'vscode';
import { HealthState, InterfaceHealth } from '../core/health';

const formatter = new Intl.NumberFormat('en-US');

const COLORS: Record<HealthState, string | undefined> = {
  unknown: undefined,
  healthy: 'charts.green',
  lagging: 'charts.yellow',
  down: 'charts.red',
  wrongChain: 'charts.purple',
  rateLimited: 'charts.orange',
};

export const STATE_LABELS: Record<HealthState, string> = {
  unknown: 'not probed',
  healthy: 'healthy',
  lagging: 'lagging',
  down: 'down',
  wrongChain: 'wrong chain',
  rateLimited: 'rate-limited',
};

export function healthColor(state: HealthState): vscode.ThemeColor | undefined {
  const id = COLORS[state];
  return id ? new vscode.ThemeColor(id) : undefined;
}

/** `#1,234,567 · 84 ms`, `2 behind · 310 ms`, `429 rate-limited`, `refused`… */
export function describeHealth(r: InterfaceHealth): string {
  const ms = r.last?.latencyMs !== undefined ? `${Math.round(r.last.latencyMs)} ms` : undefined;
  switch (r.state) {
    case 'healthy': {
      const h = r.last?.height !== undefined ? `#${formatter.format(r.last.height)}` : 'up';
      return [h, ms].filter(Boolean).join(' · ');
    }
    case 'lagging':
      return [r.reason, ms].filter(Boolean).join(' · ');
    case 'unknown':
      return '';
    default:
      return r.reason ?? STATE_LABELS[r.state];
  }
}

export function healthTooltipLines(r: InterfaceHealth): string[] {
  const lines = [`state: **${STATE_LABELS[r.state]}**${r.reason ? ` (${r.reason})` : ''}`];
  if (r.last?.height !== undefined) lines.push(`height: ${formatter.format(r.last.height)}${r.behind ? ` (${r.behind} behind the best)` : ''}`);
  if (r.last?.chainId) lines.push(`chain: ${r.last.chainId}`);
  if (r.last?.latencyMs !== undefined) lines.push(`latency: ${Math.round(r.last.latencyMs)} ms${r.last.setupMs !== undefined ? ` (+ ${Math.round(r.last.setupMs)} ms connection set-up)` : ''}`);
  if (r.medianMs !== undefined) lines.push(`median ${Math.round(r.medianMs)} ms · p90 ${Math.round(r.p90Ms ?? r.medianMs)} ms over ${r.samples} probe(s)`);
  if (r.successRate !== undefined) lines.push(`success: ${Math.round(r.successRate * 100)}%`);
  if (r.rank !== undefined) lines.push(`rank ${r.rank} (score ${r.score!.toFixed(2)})`);
  if (r.crossCheck) lines.push(`⚠ ${r.crossCheck}`);
  if (r.lastError) lines.push(`last error (${new Date(r.lastError.at).toLocaleTimeString()}): ${r.lastError.message}`);
  if (r.last?.rateLimitedUntil && r.last.rateLimitedUntil > Date.now()) lines.push(`rate-limited: next probe after ${new Date(r.last.rateLimitedUntil).toLocaleTimeString()}`);
  return lines;
}

const SEVERITY: HealthState[] = ['down', 'wrongChain', 'rateLimited', 'lagging', 'healthy', 'unknown'];

/** A provider's rows summed up: the worst state and e.g. `2 down, 1 lagging` or `all healthy`. */
export function summarizeProvider(rows: readonly InterfaceHealth[]): { state: HealthState; text: string } | undefined {
  const known = rows.filter((r) => r.state !== 'unknown');
  if (known.length === 0) return undefined;
  const worst = SEVERITY.find((s) => known.some((r) => r.state === s))!;
  if (known.every((r) => r.state === 'healthy') && !known.some((r) => r.crossCheck)) return { state: 'healthy', text: 'all healthy' };
  const parts = SEVERITY.filter((s) => s !== 'healthy' && s !== 'unknown')
    .map((s) => [s, known.filter((r) => r.state === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${STATE_LABELS[s]}`);
  const crossed = known.filter((r) => r.crossCheck).length;
  if (crossed) parts.push(`${crossed} out of step`);
  return { state: worst === 'healthy' && crossed ? 'lagging' : worst, text: parts.join(', ') };
}
