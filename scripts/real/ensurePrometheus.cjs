#!/usr/bin/env node
// @ts-check
// Prometheus and promtool for the exporter's tests (promtool check metrics / check rules / test
// rules in the unit tests, a real Prometheus scraping the exporter in test/real): Debian's
// `prometheus` package, fetched with `apt-get download` (no root needed) and unpacked with
// `dpkg -x` into .cache/prometheus/ (or $CHAIN_ENDPOINTS_PROMETHEUS_CACHE). Already unpacked
// binaries are used as they are: $CHAIN_ENDPOINTS_PROMETHEUS_BIN (a folder holding both), the
// cache, then the PATH. A machine where none of that works fails loudly, saying why: the tests
// never pass by skipping. CommonJS, so that `node scripts/real/ensurePrometheus.cjs` (.ci/run) and
// the compiled tests can both use it.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..', '..');

function cacheDir() {
  return process.env.CHAIN_ENDPOINTS_PROMETHEUS_CACHE || path.join(repoRoot, '.cache', 'prometheus');
}

/** @param {string} dir */
function usable(dir) {
  const promtool = path.join(dir, 'promtool');
  const prometheus = path.join(dir, 'prometheus');
  if (!fs.existsSync(promtool) || !fs.existsSync(prometheus)) return undefined;
  const r = spawnSync(promtool, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? { promtool, prometheus } : undefined;
}

/** @param {string} cmd @param {string[]} args @param {import('node:child_process').SpawnSyncOptions} [opts] */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 600_000, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  return String(r.stdout ?? '');
}

/**
 * The paths of promtool and prometheus, installing them into the cache when missing.
 * @returns {{ promtool: string, prometheus: string }}
 */
function ensurePrometheus() {
  if (process.env.CHAIN_ENDPOINTS_PROMETHEUS_BIN) {
    const found = usable(process.env.CHAIN_ENDPOINTS_PROMETHEUS_BIN);
    if (!found) throw new Error(`CHAIN_ENDPOINTS_PROMETHEUS_BIN=${process.env.CHAIN_ENDPOINTS_PROMETHEUS_BIN} holds no working promtool and prometheus`);
    return found;
  }
  const bin = path.join(cacheDir(), 'usr', 'bin');
  const cached = usable(bin);
  if (cached) return cached;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const found = dir && usable(dir);
    if (found) return found;
  }
  if (process.platform !== 'linux')
    throw new Error('promtool and prometheus are missing: install Prometheus (it brings promtool) or set CHAIN_ENDPOINTS_PROMETHEUS_BIN');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'prometheus-deb-'));
  try {
    // apt-get download needs no root; an outdated package list is refreshed once when it fails.
    try {
      run('apt-get', ['download', 'prometheus'], { cwd: work });
    } catch (first) {
      const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo', '-n'];
      const update = spawnSync(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update'], { encoding: 'utf8', timeout: 600_000 });
      if (update.status !== 0) throw first;
      run('apt-get', ['download', 'prometheus'], { cwd: work });
    }
    const deb = fs.readdirSync(work).find((f) => f.startsWith('prometheus_') && f.endsWith('.deb'));
    if (!deb) throw new Error(`apt-get download prometheus left no .deb in ${work}`);
    fs.mkdirSync(cacheDir(), { recursive: true });
    run('dpkg', ['-x', path.join(work, deb), cacheDir()]);
  } catch (err) {
    throw new Error(
      `could not install Prometheus from Debian into ${cacheDir()} (apt-get download prometheus, dpkg -x): ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const installed = usable(bin);
  if (!installed) throw new Error(`the Debian package did not give a working promtool and prometheus in ${bin}`);
  return installed;
}

module.exports = { ensurePrometheus };

if (require.main === module) {
  try {
    const { promtool, prometheus } = ensurePrometheus();
    console.log(`prometheus: ${prometheus}\npromtool: ${promtool}`);
  } catch (err) {
    console.error(`ensurePrometheus: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
