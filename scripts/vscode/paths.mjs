// @ts-check
// Shared paths and small helpers for the VS Code test runners.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import net from 'node:net';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cacheRoot = path.join(repoRoot, '.vscode-test');
export const artifactsDir = path.join(repoRoot, 'test-artifacts');
export const chromiumPath = process.env.CHAIN_ENDPOINTS_CHROMIUM || '/usr/bin/chromium';

export const log = (...args) => console.log('[vscode-runner]', ...args);

/** A free TCP port on 127.0.0.1 (asks the kernel, then releases it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

export function hasCommand(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

export function debInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && /install ok installed/.test(r.stdout);
}

/**
 * Debian packages the headless runner needs. Missing ones are installed when
 * CI=true (we are root there), otherwise we stop with the exact command to run.
 */
export function ensureSystemPackages({ needKerberos = true } = {}) {
  const missing = [];
  if (!fs.existsSync(chromiumPath)) missing.push('chromium');
  if (needKerberos && !debInstalled('libkrb5-dev') && !fs.existsSync('/usr/include/krb5.h')) missing.push('libkrb5-dev');
  if (needKerberos && !(hasCommand('make') && hasCommand('g++'))) missing.push('build-essential');
  if (needKerberos && !hasCommand('python3')) missing.push('python3');
  if (missing.length === 0) return;
  const cmd = `apt-get install -y ${missing.join(' ')}`;
  if (process.env.CI === 'true') {
    log(`installing missing Debian packages: ${missing.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const sudo = process.getuid && process.getuid() !== 0 ? ['sudo'] : [];
    let r = spawnSync(sudo[0] || 'apt-get', [...(sudo.length ? ['apt-get'] : []), 'update'], { stdio: 'inherit', env });
    r = spawnSync(sudo[0] || 'apt-get', [...(sudo.length ? ['apt-get'] : []), 'install', '-y', '--no-install-recommends', ...missing], {
      stdio: 'inherit',
      env,
    });
    if (r.status !== 0) throw new Error(`'${cmd}' failed (exit ${r.status})`);
    return;
  }
  throw new Error(
    `missing Debian packages for the headless VS Code runner: ${missing.join(', ')}.\n` +
      `Install them with:  apt-get install -y ${missing.join(' ')}   (as root; run 'apt-get update' first)`,
  );
}
