#!/usr/bin/env node
// @ts-check
// The real nodes the conformance suite (test/real) runs against, installed once and cached:
//   - CometBFT (latest v0.38 release), `go install`ed into .cache/real-nodes/cometbft-<version>/;
//   - anvil, the binary shipped in the npm package @foundry-rs/anvil-<platform>-<arch>, installed
//     into .cache/real-nodes/anvil-<version>/ (not a devDependency: the registry here serves only
//     the linux-amd64 build, so a lock file naming the other platforms could never `npm ci`);
//   - evmd (Cosmos EVM's example chain), built from source into .cache/real-nodes/evmd-<version>/
//     (scripts/real/evmd.cjs: minutes when cold, a version check when warm).
// A piece that cannot be installed is an error with the reason: the suite never passes by
// skipping. CommonJS so that both `node scripts/real/ensureNodes.cjs` and the compiled tests
// (out/test/real, CommonJS) can use it.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { retrySync } = require('../retrySync.cjs');
const { ensureEvmd } = require('./evmd.cjs');

const COMETBFT_MODULE = 'github.com/cometbft/cometbft';
const COMETBFT_VERSION = 'v0.38.26';
const ANVIL_PACKAGE = '@foundry-rs/anvil';
const ANVIL_VERSION = '1.7.1';

const repoRoot = path.resolve(__dirname, '..', '..');

function cacheDir() {
  return process.env.CHAIN_ENDPOINTS_REAL_NODES_CACHE || path.join(repoRoot, '.cache', 'real-nodes');
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
  return { status: r.status, signal: r.signal, error: r.error, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

/**
 * `run` for steps that fetch (go install from the module proxy, npm install): a stalled fetch is
 * tried again after a pause, up to 3 times, before it fails the suite.
 */
function runFetching(cmd, args, opts, log) {
  let r;
  try {
    return retrySync(
      3,
      () => {
        r = run(cmd, args, opts);
        if (r.status !== 0) throw new Error(`exit ${r.status ?? r.signal}:\n${tail(r.out, 5)}`);
        return r;
      },
      (n, err, seconds) => log(`${cmd} ${args[0]} failed (attempt ${n} of 3, ${err.message}); trying again in ${seconds} s`),
    );
  } catch {
    return r; // the last try's result: the caller says what failed
  }
}

function tail(text, lines = 15) {
  return text.split('\n').slice(-lines).join('\n');
}

/** `cometbft version` of a binary, or undefined when it does not run. */
function cometVersion(bin) {
  if (!fs.existsSync(bin)) return undefined;
  const r = run(bin, ['version']);
  return r.status === 0 ? r.out.split('\n').pop().trim() : undefined;
}

function ensureCometbft(log) {
  const t0 = Date.now();
  const dir = path.join(cacheDir(), `cometbft-${COMETBFT_VERSION}`);
  const bin = path.join(dir, process.platform === 'win32' ? 'cometbft.exe' : 'cometbft');
  const want = COMETBFT_VERSION.replace(/^v/, '');
  const have = cometVersion(bin);
  if (have === want) {
    return { name: 'cometbft', path: bin, version: have, cached: true, ms: Date.now() - t0 };
  }
  const go = run('go', ['version']);
  if (go.status !== 0) {
    throw new Error(
      `cannot install CometBFT ${COMETBFT_VERSION}: the Go toolchain is not available (\`go version\`: ${go.error ? go.error.message : tail(go.out)})`,
    );
  }
  log(`installing CometBFT ${COMETBFT_VERSION} with ${go.out} (go install ${COMETBFT_MODULE}/cmd/cometbft@${COMETBFT_VERSION} -> ${dir}) ...`);
  fs.mkdirSync(dir, { recursive: true });
  const r = runFetching(
    'go',
    ['install', `${COMETBFT_MODULE}/cmd/cometbft@${COMETBFT_VERSION}`],
    {
      cwd: dir,
      env: { ...process.env, GOBIN: dir, GOFLAGS: process.env.GOFLAGS ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
    log,
  );
  if (r.status !== 0) {
    throw new Error(`cannot install CometBFT ${COMETBFT_VERSION}: go install exited with ${r.status ?? r.signal}:\n${tail(r.out)}`);
  }
  const got = cometVersion(bin);
  if (got !== want) {
    throw new Error(`CometBFT ${COMETBFT_VERSION} was installed at ${bin} but \`cometbft version\` says ${JSON.stringify(got)}`);
  }
  return { name: 'cometbft', path: bin, version: got, cached: false, ms: Date.now() - t0 };
}

function anvilPlatformPackage() {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch];
  if (!os || !arch) throw new Error(`anvil: no ${ANVIL_PACKAGE} build for ${process.platform}/${process.arch}`);
  return `${ANVIL_PACKAGE}-${os}-${arch}`;
}

function anvilDir() {
  return path.join(cacheDir(), `anvil-${ANVIL_VERSION}`);
}

function findAnvil(pkg) {
  try {
    const manifest = require.resolve(`${pkg}/package.json`, { paths: [anvilDir()] });
    const bin = path.join(path.dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
    return fs.existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

function anvilVersion(bin) {
  const r = run(bin, ['--version']);
  return r.status === 0
    ? r.out
        .split('\n')[0]
        .replace(/^anvil\s+(Version:\s*)?/i, '')
        .trim()
    : undefined;
}

function ensureAnvil(log) {
  const t0 = Date.now();
  const pkg = anvilPlatformPackage();
  let bin = findAnvil(pkg);
  let cached = true;
  if (!bin) {
    const dir = anvilDir();
    fs.mkdirSync(dir, { recursive: true });
    if (!fs.existsSync(path.join(dir, 'package.json'))) fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
    log(`anvil: installing ${pkg}@${ANVIL_VERSION} from npm into ${dir} ...`);
    const r = runFetching(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-package-lock', `${pkg}@${ANVIL_VERSION}`],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
      log,
    );
    if (r.status !== 0) throw new Error(`cannot install anvil: npm install ${pkg}@${ANVIL_VERSION} exited with ${r.status ?? r.signal}:\n${tail(r.out)}`);
    bin = findAnvil(pkg);
    if (!bin) throw new Error(`cannot install anvil: npm installed ${pkg}@${ANVIL_VERSION} but it ships no bin/anvil`);
    cached = false;
  }
  try {
    fs.accessSync(bin, fs.constants.X_OK);
  } catch {
    fs.chmodSync(bin, 0o755);
  }
  const version = anvilVersion(bin);
  if (!version) throw new Error(`anvil at ${bin} does not run (\`anvil --version\` failed)`);
  return { name: 'anvil', path: bin, version, cached, ms: Date.now() - t0 };
}

/**
 * Installs what is missing (all, or `options.only`: names); returns { cometbft, anvil, evmd } with
 * path, version, cached and ms. Throws with the reason.
 */
function ensureNodes(options = {}) {
  const log = options.log ?? ((m) => console.log(`real-nodes: ${m}`));
  const want = (name) => !options.only || options.only.includes(name);
  const out = {};
  if (want('cometbft')) out.cometbft = ensureCometbft(log);
  if (want('anvil')) out.anvil = ensureAnvil(log);
  if (want('evmd')) out.evmd = ensureEvmd(cacheDir(), { run, runFetching, tail, log });
  return out;
}

module.exports = { ensureNodes, COMETBFT_VERSION, cacheDir };

if (require.main === module) {
  try {
    // `node ensureNodes.cjs [name...]`: only those (npm run chain needs only evmd).
    const only = process.argv.slice(2);
    const nodes = ensureNodes(only.length ? { only } : {});
    for (const n of Object.values(nodes)) {
      console.log(
        `real-nodes: ${n.name} ${n.version} ${n.cached ? 'cached (warm)' : 'installed (cold)'} in ${(n.ms / 1000).toFixed(1)} s: ${path.relative(repoRoot, n.path)}`,
      );
    }
  } catch (err) {
    console.error(`real-nodes: FAILED: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
