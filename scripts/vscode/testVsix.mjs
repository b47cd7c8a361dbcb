#!/usr/bin/env node
// @ts-check
// npm run test:vsix: the extension as a user gets it. Packages the .vsix (scripts/package.mjs: release
// build + vsce), installs it with `code-server --install-extension` into a fresh extensions folder,
// starts code-server on that folder with the extension NOT under development (VS Code loads the
// installed copy, not the working tree), and runs out/test/integration-vsix/index.js in its extension
// host. VS Code runs an extensionTestsPath only together with an extensionDevelopmentPath, so the
// development path is an empty harness extension (test/integration-vsix/harness), not this one.
//   node scripts/vscode/testVsix.mjs [--vsix <file>] [--no-package] [--keep]
// --vsix / --no-package test an existing .vsix (default file: <name>-<version>.vsix); --keep leaves
// the extensions folder for a look. Exit code 0 only when every test passed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureCodeServer } from './codeServer.mjs';
import { runInCodeServer } from './runCodeServer.mjs';
import { artifactsDir, log, repoRoot } from './paths.mjs';
import { packageExtension } from '../package.mjs';

const EXTENSION_ID = 'chain-endpoints.chain-endpoints';

/** Installs a .vsix into extensionsDir with code-server's CLI; returns the folder it was unpacked to. */
export async function installVsix(vsixPath, extensionsDir) {
  const cs = await ensureCodeServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chain-endpoints-install-'));
  try {
    const args = [
      cs.entry,
      '--config',
      path.join(tmp, 'config.yaml'),
      '--user-data-dir',
      path.join(tmp, 'user'),
      '--extensions-dir',
      extensionsDir,
      '--install-extension',
      path.resolve(vsixPath),
      '--force',
    ];
    const r = spawnSync(cs.nodeBin, args, {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, VSCODE_CLI: undefined, ELECTRON_RUN_AS_NODE: undefined },
    });
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`code-server --install-extension exited with ${r.status}:\n${output}`);
    log(
      output
        .split('\n')
        .filter((l) => /install/i.test(l))
        .join('\n') || 'installed',
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const dir = fs.readdirSync(extensionsDir).find((d) => d.toLowerCase().startsWith(`${EXTENSION_ID}-`));
  if (!dir) throw new Error(`${EXTENSION_ID} not found in ${extensionsDir} after the install (has: ${fs.readdirSync(extensionsDir).join(', ')})`);
  return path.join(extensionsDir, dir);
}

async function main() {
  const argv = process.argv.slice(2);
  const t0 = Date.now();
  const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  const vsixIdx = argv.indexOf('--vsix');
  let vsix = vsixIdx >= 0 ? path.resolve(argv[vsixIdx + 1]) : undefined;
  if (!vsix) {
    if (argv.includes('--no-package')) {
      const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
      vsix = path.join(repoRoot, `${pkg.name}-${pkg.version}.vsix`);
    } else {
      console.log('=== package');
      vsix = packageExtension().file;
    }
  }
  if (!fs.existsSync(vsix)) throw new Error(`${vsix} does not exist (run npm run package)`);

  console.log('\n=== compile:tests');
  // Only this suite's output is cleared (a renamed test must not run stale); the rest of out/ may be
  // in use by another run.
  fs.rmSync(path.join(repoRoot, 'out', 'test', 'integration-vsix'), { recursive: true, force: true });
  const tsc = spawnSync('npm', ['run', 'compile:tests', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
  const testsPath = path.join(repoRoot, 'out', 'test', 'integration-vsix', 'index.js');
  if (!fs.existsSync(testsPath)) throw new Error(`tsc emitted no ${path.relative(repoRoot, testsPath)} (exit ${tsc.status})`);

  console.log(`\n=== install ${path.relative(repoRoot, vsix)}`);
  const extensionsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chain-endpoints-vsix-extensions-'));
  let code = 1;
  try {
    const installed = await installVsix(vsix, extensionsDir);
    log(`installed into ${installed}`);

    console.log('\n=== vsix tests (code-server, the extension as installed; development path: the empty harness)');
    code = await runInCodeServer({
      extensionsDir,
      extensionPath: path.join(repoRoot, 'test', 'integration-vsix', 'harness'),
      testsPath,
      screenshotsDir: artifactsDir,
      timeoutMs: Number(process.env.CHAIN_ENDPOINTS_TEST_TIMEOUT_MS) || 5 * 60_000,
      env: {
        CHAIN_ENDPOINTS_TEST: '1',
        CHAIN_ENDPOINTS_VSIX_EXTENSIONS_DIR: extensionsDir,
        CHAIN_ENDPOINTS_VSIX_REPO: repoRoot,
      },
    });
  } finally {
    if (argv.includes('--keep')) log(`extensions folder kept: ${extensionsDir}`);
    else fs.rmSync(extensionsDir, { recursive: true, force: true });
  }
  console.log(`\n=== test:vsix ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${secs()}`);
  return code;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      console.error(`test:vsix: ${e.message}`);
      process.exit(1);
    },
  );
}
