// @ts-check
// Runs some of the unit tests alone: compiles src/ and test/ to out/, then mocha on the files named.
//   npm run test:hardening                    every hardening battery (test/unit/hardening/)
//   npm run test:hardening -- tls flaky       the batteries whose file name contains "tls" or "flaky"
//   npm run test:file -- validate devnet      any unit test file whose path contains one of the words
// HARDENING_SEED=<n> replays a battery's random run (each battery prints its seed).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './vscode/paths.mjs';

const argv = process.argv.slice(2);
const hardeningOnly = argv[0] === '--hardening';
const words = argv.filter((a) => !a.startsWith('--'));

/** Every *.unit.test.ts under a folder of test/, as repository-relative paths. */
function unitTests(dir) {
  /** @type {string[]} */
  const out = [];
  for (const entry of fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...unitTests(rel));
    else if (entry.name.endsWith('.unit.test.ts')) out.push(rel);
  }
  return out;
}

const pool = hardeningOnly ? unitTests('test/unit/hardening') : [...unitTests('test/unit'), ...unitTests('test/devnet')];
const chosen = words.length === 0 ? pool : pool.filter((f) => words.some((w) => f.toLowerCase().includes(w.toLowerCase())));
if (chosen.length === 0) {
  console.error(`no test file matches ${words.join(', ')}; the files are:\n  ${pool.join('\n  ')}`);
  process.exit(2);
}
const compiled = spawnSync('npm', ['run', 'compile:tests', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
const files = chosen.map((f) => path.join('out', f.replace(/\.ts$/, '.js')));
console.log(`mocha on ${files.length} file(s):\n  ${files.join('\n  ')}`);
const mocha = path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
const run = spawnSync(process.execPath, [mocha, '--no-config', '--timeout', '20000', '--reporter', 'spec', '--exit', ...files], {
  cwd: repoRoot,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
