#!/usr/bin/env node
// @ts-check
// npm test: build, compile the tests, type-check the scripts, lint, run the unit tests (mocha), then the integration tests inside a
// real VS Code: headless code-server + Chromium when there is no display (or
// CHAIN_ENDPOINTS_TEST_RUNNER=code-server), @vscode/test-electron when CHAIN_ENDPOINTS_TEST_RUNNER=electron
// (or a display is present and VS Code can be downloaded). Ends with
//   unit: N passed, N failed / integration: N passed, N failed / N passed, N failed
// Options: --unit-only, --integration-only, --grep <text> (integration tests), --no-build, --no-soak, --no-bench.
// After the unit tests, the soak (test/soak/soak.ts) runs for SOAK_MINUTES (here 3 by default; `npm run soak`: 30),
// then every benchmark case as a smoke run (`node bench/run.mjs --quick`: tiny sizes, targets not enforced), so a
// case that cannot run fails the suite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, artifactsDir, log } from './vscode/paths.mjs';

const argv = process.argv.slice(2);
const flag = (f) => argv.includes(f);
const grepIdx = argv.indexOf('--grep');
if (grepIdx >= 0 && argv[grepIdx + 1]) process.env.CHAIN_ENDPOINTS_TEST_GREP = argv[grepIdx + 1];
const runUnit = !flag('--integration-only');
const runIntegration = !flag('--unit-only');

const problems = []; // { title, message } of every failure, printed at the end
const counts = {};
const t0 = Date.now();
const secs = (t) => `${((Date.now() - t) / 1000).toFixed(1)} s`;

function step(name, cmd, args, opts = {}) {
  const t = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: 'inherit', ...opts });
  const ok = r.status === 0;
  console.log(`=== ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${secs(t)}`);
  if (r.signal === 'SIGINT') process.exit(130);
  return ok;
}

function tmpResultFile(kind) {
  const f = path.join(os.tmpdir(), `chain-endpoints-${kind}-${process.pid}.json`);
  fs.rmSync(f, { force: true });
  return f;
}

function readResult(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

function record(kind, result, fallbackMessage) {
  if (!result) {
    counts[kind] = { passed: 0, failed: 1 };
    problems.push({ title: `${kind} tests`, message: fallbackMessage });
    return;
  }
  counts[kind] = { passed: result.passed, failed: result.failed };
  for (const f of result.failures || []) problems.push({ title: `${kind}: ${f.title}`, message: f.message });
}

async function integrationRunner() {
  const wanted = process.env.CHAIN_ENDPOINTS_TEST_RUNNER;
  if (wanted && !['code-server', 'electron'].includes(wanted)) throw new Error(`CHAIN_ENDPOINTS_TEST_RUNNER must be code-server or electron, not "${wanted}"`);
  const hasDisplay = !!(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  if (wanted === 'electron' || (!wanted && hasDisplay)) {
    const mod = await import('./vscode/runElectron.mjs');
    try {
      const exe = await mod.ensureDesktopVSCode();
      return { name: 'electron', run: (o) => mod.runInElectron({ ...o, vscodeExecutablePath: exe }) };
    } catch (e) {
      if (wanted === 'electron') throw new Error(`cannot get desktop VS Code for @vscode/test-electron: ${e.message}`);
      log(`desktop VS Code not available (${e.message.split('\n')[0]}); using headless code-server`);
    }
  }
  const mod = await import('./vscode/runCodeServer.mjs');
  return { name: 'code-server', run: (o) => mod.runInCodeServer(o) };
}

// 1. build the extension bundle and compile src/ + test/ to out/
let built = flag('--no-build') || step('build', 'npm', ['run', 'build', '--silent']);
if (!built) problems.push({ title: 'build', message: 'npm run build failed (see above)' });
// out/ is rebuilt from scratch so that a deleted or renamed test never runs from a stale .js file
fs.rmSync(path.join(repoRoot, 'out'), { recursive: true, force: true });
const compiled = step('compile:tests', 'npm', ['run', 'compile:tests', '--silent']);
if (!compiled) problems.push({ title: 'compile:tests', message: 'tsc -p tsconfig.test.json failed (see above)' });
// the build, test-runner and benchmark scripts (JavaScript with // @ts-check)
const scriptsChecked = step('typecheck:scripts', 'npm', ['run', 'typecheck:scripts', '--silent']);
if (!scriptsChecked) problems.push({ title: 'typecheck:scripts', message: 'tsc -p tsconfig.scripts.json failed (see above)' });
// ESLint, the architecture's import rules (dependency-cruiser) and Prettier: npm run lint
const linted = step('lint', 'npm', ['run', 'lint', '--silent']);
if (!linted) problems.push({ title: 'lint', message: 'npm run lint failed (see above; npm run format fixes formatting)' });

// tsc still emits when it reports type errors: run what was emitted so the failures are visible too.
const testsEmitted = fs.existsSync(path.join(repoRoot, 'out', 'test'));
const bundleBuilt = fs.existsSync(path.join(repoRoot, 'dist', 'extension.js'));

// 2. unit tests
if (runUnit && testsEmitted) {
  const file = tmpResultFile('unit');
  const unitOk = step(
    'unit tests',
    process.execPath,
    [
      path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js'),
      '--config',
      '.mocharc.json',
      '--reporter',
      path.join(repoRoot, 'scripts', 'vscode', 'countingReporter.cjs'),
    ],
    { env: { ...process.env, CHAIN_ENDPOINTS_RESULT_FILE: file } },
  );
  const unitResult = readResult(file);
  record('unit', unitResult, 'mocha reported no result (no unit test files, or mocha crashed: see above)');
  if (unitResult && !unitOk && unitResult.failed === 0) {
    counts.unit.failed++;
    problems.push({ title: 'unit run', message: 'mocha exited non-zero although no test failed (see above)' });
  }
}

// 2b. the soak, compressed: heap, RSS and handles over SOAK_MINUTES of status bar, health and requests
if (runUnit && testsEmitted && !flag('--no-soak')) {
  const ok = step('soak', process.execPath, ['--expose-gc', path.join(repoRoot, 'out', 'test', 'soak', 'soak.js')], {
    env: { ...process.env, SOAK_MINUTES: process.env.SOAK_MINUTES || '3' },
  });
  counts.soak = { passed: ok ? 1 : 0, failed: ok ? 0 : 1 };
  if (!ok) problems.push({ title: 'soak', message: 'heap or RSS grew past 10 MB after warm-up, or handles were left (see the soak report above)' });
}

// 2c. every benchmark case, tiny (bench/run.mjs --quick): it runs and prints its figures; targets are not enforced
if (runUnit && testsEmitted && bundleBuilt && !flag('--no-bench')) {
  const ok = step('bench --quick', process.execPath, [path.join(repoRoot, 'bench', 'run.mjs'), '--quick']);
  counts.bench = { passed: ok ? 1 : 0, failed: ok ? 0 : 1 };
  if (!ok) problems.push({ title: 'bench --quick', message: 'a benchmark case could not run or printed no figure (see its error above)' });
}

// 3. integration tests inside VS Code
if (runIntegration && testsEmitted && fs.existsSync(path.join(repoRoot, 'out', 'test', 'integration', 'index.js'))) {
  if (!built && bundleBuilt) console.log('(the build failed: testing the previous dist/extension.js)');
  const t = Date.now();
  const file = tmpResultFile('integration');
  let exitCode = 1;
  let lineResult;
  let runnerError = '';
  try {
    const runner = await integrationRunner();
    console.log(`\n=== integration tests (${runner.name})`);
    fs.mkdirSync(artifactsDir, { recursive: true });
    exitCode = await runner.run({
      extensionPath: process.env.CHAIN_ENDPOINTS_EXTENSION_PATH || repoRoot,
      testsPath: path.join(repoRoot, 'out', 'test', 'integration', 'index.js'),
      workspacePath: path.join(repoRoot, 'test', 'fixtures', 'workspace'),
      screenshotsDir: artifactsDir,
      timeoutMs: Number(process.env.CHAIN_ENDPOINTS_TEST_TIMEOUT_MS) || 30 * 60_000,
      env: { CHAIN_ENDPOINTS_RESULT_FILE: file, CHAIN_ENDPOINTS_TEST: '1' },
      onLine: (line) => {
        const m = /CHAIN_ENDPOINTS_RESULT (\{.*\})\s*$/.exec(line);
        if (m)
          try {
            lineResult = JSON.parse(m[1]);
          } catch {
            /* ignore */
          }
      },
    });
  } catch (e) {
    runnerError = e.message;
    console.error(`integration runner error: ${e.message}`);
  }
  if (exitCode === 130) {
    console.error('interrupted');
    process.exit(130);
  }
  const result = readResult(file) || lineResult;
  record('integration', result, runnerError || `the integration run reported no result (VS Code exit code ${exitCode}; see the output above)`);
  if (result && exitCode !== 0 && result.failed === 0) {
    counts.integration.failed++;
    problems.push({ title: 'integration run', message: `VS Code exited with code ${exitCode} although no test failed` });
  }
  // A --grep that matches nothing is a typo, not a pass.
  if (result && process.env.CHAIN_ENDPOINTS_TEST_GREP && result.passed + result.failed === 0) {
    counts.integration.failed++;
    problems.push({ title: 'integration run', message: `no integration test matches --grep "${process.env.CHAIN_ENDPOINTS_TEST_GREP}" (case-sensitive)` });
  }
  console.log(`=== integration tests: exit code ${exitCode} in ${secs(t)}`);
} else if (runIntegration) {
  record('integration', undefined, 'not run: out/test/integration/index.js was not emitted');
}
if (runUnit && !counts.unit) record('unit', undefined, 'not run: the test compilation emitted nothing');

// 4. summary
console.log(`\n=== summary (${secs(t0)})`);
if (problems.length) {
  console.log('failures:');
  for (const p of problems) console.log(`  - ${p.title}\n      ${String(p.message).split('\n').slice(0, 6).join('\n      ')}`);
}
let passed = 0;
let failed = 0;
for (const kind of ['unit', 'soak', 'bench', 'integration']) {
  if (!counts[kind]) continue;
  console.log(`${kind}: ${counts[kind].passed} passed, ${counts[kind].failed} failed`);
  passed += counts[kind].passed;
  failed += counts[kind].failed;
}
const otherFailures = problems.filter((p) => ['build', 'compile:tests', 'typecheck:scripts', 'lint'].includes(p.title)).length;
console.log(`${passed} passed, ${failed + otherFailures} failed`);
process.exit(failed + otherFailures > 0 ? 1 : 0);
