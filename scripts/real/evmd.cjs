// evmd, the example chain of Cosmos EVM (github.com/cosmos/evm), built once from source into
// .cache/real-nodes/evmd-<version>/ for the real-node suite and `npm run chain`.
//
// cosmos/evm's go.mod has replace directives, so `go install module@version` refuses it. A small
// wrapper module is generated in <dir>/src: it requires cosmos/evm at EVMD_VERSION, repeats the
// replace directives of that version's go.mod (read from the module cache after
// `go mod download`), and raises github.com/bytedance/sonic to a release that compiles with
// current Go (v1.13.2 fails on Go 1.26: "undefined: GoMapIterator"). The Go module and build
// caches stay in Go's default places (GOMODCACHE, GOCACHE), so a fresh clone on the same machine
// only relinks. A cold build takes minutes (about 6.5 on 2 cores), about 2.2 GB of memory and
// about 4 GB of disk: it runs under `nice`, and refuses to start, loudly, without the room.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const EVM_MODULE = 'github.com/cosmos/evm';
const EVMD_VERSION = 'v0.3.2';
const EVMD_PACKAGE = `${EVM_MODULE}/cmd/evmd`;
const SONIC = { module: 'github.com/bytedance/sonic', version: 'v1.15.5' };
/** Bumped when the build recipe changes: a binary built by another recipe is rebuilt. */
const RECIPE = 1;
const NEED_MEMORY_BYTES = 3 * 1024 ** 3;
const NEED_DISK_BYTES = 6 * 1024 ** 3;

/** The replace directives of a go.mod text, one `old => new` string each. */
function replaceDirectives(goMod) {
  const out = [];
  const text = goMod.replace(/\/\/[^\n]*/g, '');
  for (const block of text.matchAll(/^replace\s*\(([\s\S]*?)^\)/gm)) {
    for (const line of block[1].split('\n')) if (line.includes('=>')) out.push(line.trim().replace(/\s+/g, ' '));
  }
  for (const single of text.matchAll(/^replace\s+([^(\n][^\n]*=>[^\n]*)$/gm)) out.push(single[1].trim().replace(/\s+/g, ' '));
  return out;
}

function memAvailableBytes() {
  try {
    const m = /^MemAvailable:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux
  }
  return os.freemem();
}

function freeDiskBytes(dir) {
  let d = dir;
  while (!fs.existsSync(d)) d = path.dirname(d);
  const s = fs.statfsSync(d);
  return s.bavail * s.bsize;
}

const gib = (n) => `${(n / 1024 ** 3).toFixed(1)} GiB`;

/**
 * Makes sure `<cacheDir>/evmd-<version>/evmd` exists and runs; builds it when not.
 * `h` gives run, runFetching, tail and log from ensureNodes.cjs. Returns the node info.
 */
function ensureEvmd(cacheDir, h) {
  const t0 = Date.now();
  const dir = path.join(cacheDir, `evmd-${EVMD_VERSION}`);
  const bin = path.join(dir, process.platform === 'win32' ? 'evmd.exe' : 'evmd');
  const stampFile = path.join(dir, 'build.json');
  const goEnv = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' };
  const go = h.run('go', ['version'], { env: goEnv });
  if (go.status !== 0) {
    throw new Error(`cannot build evmd ${EVMD_VERSION}: the Go toolchain is not available (\`go version\`: ${go.error ? go.error.message : h.tail(go.out)})`);
  }
  const want = { module: EVM_MODULE, version: EVMD_VERSION, sonic: SONIC.version, recipe: RECIPE };
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
  } catch {
    stamp = undefined;
  }
  const same = stamp && Object.entries(want).every(([k, v]) => stamp[k] === v);
  if (same && fs.existsSync(bin) && h.run(bin, ['version'], { timeout: 30_000 }).status === 0) {
    return { name: 'evmd', path: bin, version: EVMD_VERSION, cached: true, ms: Date.now() - t0 };
  }

  // A cold build: check the room first, and say what is missing.
  const env = h.run('go', ['env', 'GOMODCACHE', 'GOCACHE'], { env: goEnv });
  const [modCache, buildCache] = env.out.split('\n').map((s) => s.trim());
  const mem = memAvailableBytes();
  const lacks = [];
  if (mem < NEED_MEMORY_BYTES) lacks.push(`memory: ${gib(mem)} available, the build needs ${gib(NEED_MEMORY_BYTES)}`);
  for (const [what, where] of [
    ['module cache', modCache],
    ['build cache', buildCache],
    ['node cache', dir],
  ]) {
    if (!where) continue;
    const free = freeDiskBytes(where);
    if (free < NEED_DISK_BYTES) lacks.push(`disk: ${gib(free)} free for the ${what} (${where}), the build needs ${gib(NEED_DISK_BYTES)}`);
  }
  if (lacks.length) throw new Error(`cannot build evmd ${EVMD_VERSION}: this machine lacks ${lacks.join('; ')}`);

  h.log(`building evmd ${EVMD_VERSION} with ${go.out} into ${dir} (cold: several minutes, under nice) ...`);
  const src = path.join(dir, 'src');
  fs.mkdirSync(src, { recursive: true });
  const niceGo = (args) => (process.platform === 'win32' ? ['go', args] : ['nice', ['-n', '10', 'go', ...args]]);
  const opts = (timeout) => ({ cwd: src, env: goEnv, stdio: ['ignore', 'pipe', 'pipe'], timeout, killSignal: 'SIGKILL' });

  const dl = h.runFetching('go', ['mod', 'download', '-json', `${EVM_MODULE}@${EVMD_VERSION}`], opts(20 * 60_000), h.log);
  if (dl.status !== 0)
    throw new Error(`cannot build evmd: go mod download ${EVM_MODULE}@${EVMD_VERSION} exited with ${dl.status ?? dl.signal}:\n${h.tail(dl.out)}`);
  const goModFile = JSON.parse(dl.out.slice(dl.out.indexOf('{'))).GoMod;
  const upstream = fs.readFileSync(goModFile, 'utf8');
  const goLine = /^go\s+(\S+)/m.exec(upstream)?.[1] ?? '1.23';
  const replaces = replaceDirectives(upstream);
  if (replaces.length === 0) throw new Error(`cannot build evmd: no replace directives found in ${goModFile}`);
  fs.writeFileSync(
    path.join(src, 'go.mod'),
    `// Generated by scripts/real/evmd.cjs: builds ${EVMD_PACKAGE} at ${EVMD_VERSION}.\nmodule chainendpoints.local/evmd-build\n\ngo ${goLine}\n\nrequire ${EVM_MODULE} ${EVMD_VERSION}\n\n// The replace directives of ${EVM_MODULE} ${EVMD_VERSION}'s go.mod.\nreplace (\n${replaces.map((r) => `\t${r}`).join('\n')}\n)\n`,
  );
  fs.writeFileSync(path.join(src, 'tools.go'), `//go:build tools\n\npackage tools\n\nimport _ "${EVMD_PACKAGE}"\n`);
  fs.rmSync(path.join(src, 'go.sum'), { force: true });

  for (const [step, args] of [
    ['go get', ['get', `${EVM_MODULE}@${EVMD_VERSION}`, `${SONIC.module}@${SONIC.version}`]],
    ['go mod tidy', ['mod', 'tidy']],
  ]) {
    const [cmd, a] = niceGo(args);
    const r = h.runFetching(cmd, a, opts(30 * 60_000), h.log);
    if (r.status !== 0) throw new Error(`cannot build evmd: ${step} exited with ${r.status ?? r.signal}:\n${h.tail(r.out)}`);
  }
  const tBuild = Date.now();
  const [cmd, a] = niceGo(['build', '-o', bin, EVMD_PACKAGE]);
  const b = h.run(cmd, a, opts(60 * 60_000));
  if (b.status !== 0) throw new Error(`cannot build evmd: go build exited with ${b.status ?? b.signal}:\n${h.tail(b.out, 25)}`);
  const v = h.run(bin, ['version'], { timeout: 30_000 });
  if (v.status !== 0) throw new Error(`evmd was built at ${bin} but \`evmd version\` fails:\n${h.tail(v.out)}`);
  fs.writeFileSync(
    stampFile,
    JSON.stringify({ ...want, go: go.out, builtAt: new Date().toISOString(), buildSeconds: Math.round((Date.now() - tBuild) / 1000) }, null, 2) + '\n',
  );
  return { name: 'evmd', path: bin, version: EVMD_VERSION, cached: false, ms: Date.now() - t0 };
}

module.exports = { ensureEvmd, replaceDirectives, EVMD_VERSION };
