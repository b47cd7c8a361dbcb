// Prometheus and promtool for the exporter's tests, installed from Debian into .cache/prometheus
// when missing (scripts/real/ensurePrometheus.cjs): a machine where that fails fails the tests.

import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface EnsureModule {
  ensurePrometheus(): { promtool: string; prometheus: string };
}

let found: { promtool: string; prometheus: string } | undefined;

/** The paths of promtool and prometheus (installed on first use). */
export function ensurePrometheus(): { promtool: string; prometheus: string } {
  found ??= (require(path.join(ROOT, 'scripts', 'real', 'ensurePrometheus.cjs')) as EnsureModule).ensurePrometheus();
  return found;
}

/** Runs promtool with `args` (and `input` on stdin): its exit status and everything it printed. */
export function promtool(args: readonly string[], input?: string, cwd?: string): { status: number | null; out: string } {
  const r = spawnSync(ensurePrometheus().promtool, args, { input, cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}`.trim() };
}

/** promtool check metrics on an exposition text. */
export function promtoolCheckMetrics(text: string): { status: number | null; out: string } {
  return promtool(['check', 'metrics'], text);
}

export const REPO_ROOT = ROOT;

/** Label values a configured name, a file name or an error could hold. */
export const HOSTILE_VALUES = [
  'q"uote',
  'back\\slash\\',
  'new\nline',
  'cr\rx',
  'ls\u2028ps\u2029',
  'lone\uD800',
  'lone\uDC00',
  'pair\uD83D\uDE00',
  'tab\tx',
  'nul\u0000x',
  'del\u007f esc\u001b[31m',
  'bom\uFEFF',
  'a}b{c=d,e="f"',
  '# HELP x y',
  'x'.repeat(100_000),
  '',
];

/** The sample lines of a text read back as its UTF-8 bytes: names with labels that occur twice. */
export function duplicateSeries(text: string): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const line of Buffer.from(text, 'utf8').toString('utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const series = line.slice(0, line.lastIndexOf(' '));
    if (seen.has(series)) twice.push(series.slice(0, 200));
    seen.add(series);
  }
  return twice;
}
