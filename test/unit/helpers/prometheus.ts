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
