#!/usr/bin/env node
// @ts-check
// npm start: build the extension, start the simulated chain (devnet) on 127.0.0.1:8545/26657/1317 and
// open VS Code with the extension under development (its default provider "Local node" points there).
//   - desktop `code` when it is on PATH and a display exists,
//   - else the desktop VS Code that @vscode/test-electron downloads (display + internet),
//   - else headless: code-server serves the workbench with the extension and prints the URL to open.
// Options: --headless (force the headless mode), --port N (code-server port; default 8080 or a free one),
//          --no-devnet, --screenshot (headless: also save test-artifacts/start.png from headless Chromium).
// Ctrl-C stops everything.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { repoRoot, artifactsDir, hasCommand, freePort, log } from './vscode/paths.mjs';

const argv = process.argv.slice(2);
const flag = (f) => argv.includes(f);
const opt = (f) => {
  const i = argv.indexOf(f);
  return i >= 0 ? argv[i + 1] : undefined;
};
const workspace = path.join(repoRoot, 'test', 'fixtures', 'workspace');
const DEVNET_PORTS = [8545, 26657, 1317];
const cleanups = [];
let stopping = false;

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const c of cleanups.reverse()) {
    try {
      await c();
    } catch {
      /* keep stopping */
    }
  }
  process.exit(code);
}
process.on('SIGINT', () => {
  log('Ctrl-C: stopping');
  stopAll(0);
});
process.on('SIGTERM', () => stopAll(0));

function run(name, cmd, args, { tolerate = false } = {}) {
  log(`${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: 'inherit' });
  if (r.status === 0) return;
  if (tolerate) {
    log(`${name} reported errors (exit ${r.status}); going on with what it emitted`);
    return;
  }
  console.error(`${name} failed (exit ${r.status})`);
  process.exit(1);
}

const portOpen = (port) =>
  new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.setTimeout(1000, () => {
      s.destroy();
      resolve(false);
    });
  });

function killGroup(child, sig = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    /* gone */
  }
}

function spawnManaged(name, cmd, args, opts = {}) {
  const child = spawn(cmd, args, { cwd: repoRoot, stdio: 'inherit', detached: true, ...opts });
  cleanups.push(async () => {
    killGroup(child);
    await new Promise((r) => {
      if (child.exitCode !== null || child.signalCode !== null) return r();
      const t = setTimeout(() => {
        killGroup(child, 'SIGKILL');
        r();
      }, 3000);
      child.once('exit', () => {
        clearTimeout(t);
        r();
      });
    });
  });
  process.once('exit', () => killGroup(child, 'SIGKILL'));
  return child;
}

async function startDevnet() {
  if (flag('--no-devnet')) return;
  const cli = path.join(repoRoot, 'out', 'test', 'devnet', 'cli.js');
  if (!fs.existsSync(cli)) {
    log(`no devnet (${path.relative(repoRoot, cli)} missing): starting VS Code without it`);
    return;
  }
  const open = await Promise.all(DEVNET_PORTS.map(portOpen));
  if (open.every(Boolean)) {
    log(`ports ${DEVNET_PORTS.join('/')} already answer: using the devnet that runs there`);
    return;
  }
  const devnet = spawnManaged('devnet', process.execPath, [cli]);
  devnet.once('exit', (code, sig) => {
    if (!stopping) {
      console.error(`devnet exited (code ${code}, signal ${sig})`);
      stopAll(1);
    }
  });
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if ((await Promise.all(DEVNET_PORTS.map(portOpen))).every(Boolean)) {
      log(`devnet up: EVM RPC http://127.0.0.1:8545, CometBFT http://127.0.0.1:26657, REST http://127.0.0.1:1317`);
      return;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  console.error('the devnet did not open its ports within 60 s');
  await stopAll(1);
}

async function desktop() {
  if (flag('--headless') || !(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)) return false;
  const args = ['--new-window', `--extensionDevelopmentPath=${repoRoot}`, workspace];
  if (hasCommand('code')) {
    log(`opening desktop VS Code: code ${args.join(' ')}`);
    const child = spawnManaged('code', 'code', ['--wait', ...args]);
    child.once('exit', () => stopAll(0));
    return true;
  }
  try {
    const { ensureDesktopVSCode } = await import('./vscode/runElectron.mjs');
    const exe = await ensureDesktopVSCode();
    const userDir = path.join(repoRoot, '.vscode-test', 'start-user-data');
    log(`opening downloaded VS Code: ${exe}`);
    const child = spawnManaged('vscode', exe, [
      ...args,
      '--user-data-dir',
      userDir,
      '--extensions-dir',
      path.join(repoRoot, '.vscode-test', 'start-extensions'),
      '--skip-welcome',
    ]);
    child.once('exit', () => stopAll(0));
    return true;
  } catch (e) {
    log(`no desktop VS Code (${e.message.split('\n')[0]}); using headless code-server`);
    return false;
  }
}

async function headless() {
  const { startCodeServer, launchChromium } = await import('./vscode/runCodeServer.mjs');
  let port = Number(opt('--port')) || 0;
  if (!port) port = (await portOpen(8080)) ? await freePort() : 8080;
  const server = await startCodeServer({ port, env: { CHAIN_ENDPOINTS_DEV: '1' } });
  cleanups.push(() => server.stop());
  server.child.once('exit', () => {
    if (!stopping) {
      console.error('code-server exited');
      stopAll(1);
    }
  });
  const url = server.url({ workspacePath: workspace, extensionPath: repoRoot });
  console.log(`\nVS Code (code-server ${server.version}) with Chain Endpoints under development:\n\n  ${url}\n`);
  console.log('Open it in a browser on this machine (or forward the port). Ctrl-C stops code-server and the devnet.\n');
  if (flag('--screenshot')) {
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    await page.locator('.statusbar').waitFor({ timeout: 60_000 });
    // The picture once the extension is up: its block-height item in the status bar (it activates
    // at onStartupFinished, some seconds after the status bar itself shows).
    await page
      .locator('[id$="chainEndpoints.height"]')
      .waitFor({ timeout: 45_000 })
      .catch(() => log('the Chain Endpoints status bar item did not show within 45 s'));
    await page.waitForTimeout(1500);
    fs.mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: path.join(artifactsDir, 'start.png') });
    log(`screenshot: ${path.join(artifactsDir, 'start.png')}`);
  }
}

run('build', 'npm', ['run', 'build', '--silent']);
if (!flag('--no-devnet')) run('compile:tests', 'npm', ['run', 'compile:tests', '--silent'], { tolerate: true }); // tsc emits despite type errors
await startDevnet();
if (!(await desktop())) await headless();
