#!/usr/bin/env node
// @ts-check
// npm start: build the extension, start the simulated chain (devnet) on 127.0.0.1:8545/26657/1317 and
// open VS Code with the extension under development on the sample workspace (examples/workspace: the
// Chain Endpoints view, the example query files); its providers "Local node" and "Local node v0.5" point at the devnet.
//   - desktop `code` when it is on PATH and a display exists,
//   - else the desktop VS Code that @vscode/test-electron downloads (display + internet),
//   - else headless: code-server serves the workbench with the extension on 127.0.0.1, behind a password
//     made for the run, and prints the address and the password; workspace trust stays on.
// Each step says what it does and how long it usually takes; once the address is printed the terminal
// stays quiet (the devnet's and code-server's output go to test-artifacts/*.log; --verbose shows them).
// Reference: docs/start.md. Ctrl-C stops everything.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { repoRoot, artifactsDir, hasCommand, freePort } from './vscode/paths.mjs';

const USAGE = `usage: npm start [-- options]

Builds the extension, starts the devnet (a simulated Cosmos EVM chain on 127.0.0.1) and opens VS Code
with Chain Endpoints on the sample workspace examples/workspace.

options:
  --headless          serve VS Code in the browser (code-server) even when a desktop VS Code could open;
                      the default when there is no display. Prints the address to open.
  --port N            code-server's port (headless; default 8080, or a free port when 8080 is taken)
  --no-devnet         do not start the devnet (use your own node, or one already running)
  --screenshot [PATH] headless: also save a picture of the first screen (default test-artifacts/start.png)
  --verbose           show the devnet's block heights and code-server's log in this terminal
  -h, --help          this text

First use installs code-server into .vscode-test/ (about 3 minutes; once). Details: docs/start.md`;

const argv = process.argv.slice(2);
if (argv.includes('-h') || argv.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
const KNOWN = new Set(['--headless', '--port', '--no-devnet', '--screenshot', '--verbose']);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--port' || (a === '--screenshot' && argv[i + 1] && !argv[i + 1].startsWith('--'))) i++;
  else if (!KNOWN.has(a)) {
    console.error(`unknown option ${a}\n\n${USAGE}`);
    process.exit(2);
  }
}
const flag = (f) => argv.includes(f);
const opt = (f) => {
  const i = argv.indexOf(f);
  return i >= 0 && argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[i + 1] : undefined;
};
const verbose = flag('--verbose');
const port = opt('--port');
if (flag('--port') && !(Number(port) > 0 && Number(port) < 65536)) {
  console.error('--port needs a port number (1-65535)');
  process.exit(2);
}

const WORKSPACE = path.join(repoRoot, 'examples', 'workspace');
const FIRST_FILE = path.join(WORKSPACE, 'tx-lookup.chainq');
const DEVNET_PORTS = [8545, 26657, 1317];
const STEPS = 4;
const cleanups = [];
let stopping = false;
const started = Date.now();

const say = (...args) => console.log('[start]', ...args);
const secondsSince = (t) => `${((Date.now() - t) / 1000).toFixed(0)} s`;
const rel = (p) => path.relative(process.cwd(), p) || '.';

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
  say('Ctrl-C: stopping');
  void stopAll(0);
});
process.on('SIGTERM', () => void stopAll(0));

/** One build step, its output kept for a failure (or shown with --verbose). */
function run(step, what, usually, cmd, args, { tolerate = false } = {}) {
  const t = Date.now();
  say(`${step}/${STEPS} ${what} (${usually})`);
  const r = spawnSync(cmd, args, { cwd: repoRoot, encoding: 'utf8', stdio: verbose ? 'inherit' : 'pipe', maxBuffer: 64 * 1024 * 1024 });
  if (r.status === 0) return say(`    done in ${secondsSince(t)}`);
  if (tolerate) {
    say(`    done in ${secondsSince(t)}, with errors (exit ${r.status}); going on with what it emitted (see them: ${cmd} ${args.join(' ')})`);
    return;
  }
  if (!verbose) console.error(`${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').slice(-40).join('\n'));
  console.error(`${what} failed (exit ${r.status}): ${cmd} ${args.join(' ')}`);
  process.exit(1);
}

const portOpen = (p) =>
  new Promise((resolve) => {
    const s = net.connect({ port: p, host: '127.0.0.1' });
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

function spawnManaged(cmd, args, opts = {}) {
  const child = spawn(cmd, args, { cwd: repoRoot, stdio: 'inherit', detached: true, ...opts });
  cleanups.push(async () => {
    killGroup(child);
    await new Promise((r) => {
      if (child.exitCode !== null || child.signalCode !== null) return r(undefined);
      const t = setTimeout(() => {
        killGroup(child, 'SIGKILL');
        r(undefined);
      }, 3000);
      child.once('exit', () => {
        clearTimeout(t);
        r(undefined);
      });
    });
  });
  process.once('exit', () => killGroup(child, 'SIGKILL'));
  return child;
}

/** A child's output into a log file (and this terminal with --verbose). */
function teeTo(child, file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const out = fs.createWriteStream(file);
  for (const s of [child.stdout, child.stderr]) {
    s?.on('data', (chunk) => {
      out.write(chunk);
      if (verbose) process.stdout.write(chunk);
    });
  }
  child.once('exit', () => out.end());
}

async function startDevnet() {
  const step = 3;
  if (flag('--no-devnet')) return say(`${step}/${STEPS} devnet: not started (--no-devnet)`);
  const cli = path.join(repoRoot, 'out', 'test', 'devnet', 'cli.js');
  if (!fs.existsSync(cli)) return say(`${step}/${STEPS} devnet: ${rel(cli)} missing (compiling failed?); going on without it`);
  if ((await Promise.all(DEVNET_PORTS.map(portOpen))).every(Boolean))
    return say(`${step}/${STEPS} devnet: ports ${DEVNET_PORTS.join('/')} already answer; using what runs there`);
  const t = Date.now();
  say(`${step}/${STEPS} starting the devnet (a few seconds)`);
  const logFile = path.join(artifactsDir, 'devnet.log');
  const devnet = spawnManaged(process.execPath, [cli], { stdio: ['ignore', 'pipe', 'pipe'] });
  teeTo(devnet, logFile);
  devnet.once('exit', (code, sig) => {
    if (!stopping) {
      console.error(`the devnet exited (code ${code}, signal ${sig}); its output: ${rel(logFile)}`);
      void stopAll(1);
    }
  });
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if ((await Promise.all(DEVNET_PORTS.map(portOpen))).every(Boolean)) {
      say(
        `    up in ${secondsSince(t)}: EVM RPC http://127.0.0.1:8545, CometBFT http://127.0.0.1:26657, REST http://127.0.0.1:1317 (Local node); 8555/26667/1327 (Local node v0.5); 8565/26677/1337 (Pruned node)`,
      );
      say(`    addresses, dev keys and real transactions to look up: ${rel(logFile)}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  console.error(`the devnet did not open its ports within 60 s; its output: ${rel(logFile)}`);
  await stopAll(1);
}

async function desktop() {
  if (flag('--headless') || !(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)) return false;
  const args = ['--new-window', `--extensionDevelopmentPath=${repoRoot}`, WORKSPACE, FIRST_FILE];
  if (hasCommand('code')) {
    say(`4/${STEPS} opening desktop VS Code (code ${args.join(' ')})`);
    const child = spawnManaged('code', ['--wait', ...args]);
    child.once('exit', () => void stopAll(0));
    return true;
  }
  try {
    say(`4/${STEPS} downloading a desktop VS Code into .vscode-test/ (first use only; about 1 minute)`);
    const { ensureDesktopVSCode } = await import('./vscode/runElectron.mjs');
    const exe = await ensureDesktopVSCode();
    const userDir = path.join(repoRoot, '.vscode-test', 'start-user-data');
    say(`    opening ${exe}`);
    const child = spawnManaged(exe, [
      ...args,
      '--user-data-dir',
      userDir,
      '--extensions-dir',
      path.join(repoRoot, '.vscode-test', 'start-extensions'),
      '--skip-welcome',
    ]);
    child.once('exit', () => void stopAll(0));
    return true;
  } catch (e) {
    say(`    no desktop VS Code (${e.message.split('\n')[0]}); serving it headless with code-server instead`);
    return false;
  }
}

/** code-server's first install runs in a child so this process can say it is still going. */
async function installCodeServer() {
  const { isCodeServerInstalled } = await import('./vscode/codeServer.mjs');
  if (isCodeServerInstalled()) return;
  const t = Date.now();
  say(`4/${STEPS} installing code-server (VS Code in the browser) into .vscode-test/: first use only, about 3 minutes`);
  const child = spawnManaged(process.execPath, [path.join(repoRoot, 'scripts', 'vscode', 'codeServer.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
  const beat = setInterval(() => {
    const s = Math.round((Date.now() - t) / 1000);
    say(`    still installing code-server: ${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s so far (usually about 3 min)`);
  }, 20_000);
  const code = await new Promise((r) => child.once('exit', (c) => r(c)));
  clearInterval(beat);
  if (code !== 0) {
    console.error(`installing code-server failed (exit ${code}); its log: ${rel(path.join(repoRoot, '.vscode-test', 'code-server', 'install.log'))}`);
    await stopAll(1);
  }
  say(`    code-server installed in ${secondsSince(t)}`);
}

async function headless() {
  await installCodeServer();
  const { startCodeServer, launchChromium } = await import('./vscode/runCodeServer.mjs');
  const t = Date.now();
  say(`4/${STEPS} starting code-server (about 5 s)`);
  const chosen = Number(port) || ((await portOpen(8080)) ? await freePort() : 8080);
  // Loopback only, behind a password made for this run (printed below with the address), and with
  // workspace trust on: the sample workspace is trusted by your click, like any other folder.
  const password = randomBytes(18).toString('base64url');
  const server = await startCodeServer({ port: chosen, env: { CHAIN_ENDPOINTS_DEV: '1' }, echoServerLog: verbose, password, workspaceTrust: true });
  cleanups.push(() => server.stop());
  server.child.once('exit', () => {
    if (!stopping) {
      console.error('code-server exited');
      void stopAll(1);
    }
  });
  const url = server.url({ workspacePath: WORKSPACE, extensionPath: repoRoot, openFile: FIRST_FILE });
  say(`    code-server ${server.version} up in ${secondsSince(t)}; ready ${secondsSince(started)} after npm start`);
  console.log(`\nOpen VS Code with Chain Endpoints (the sample workspace examples/workspace):\n\n  ${url}\n\nPassword (made for this run): ${password}\n`);
  console.log(
    `In a browser on this machine (or forward port ${server.port}; it listens on 127.0.0.1 only). VS Code then asks whether you trust the sample workspace: trust it to let it set the view and run its query files. The terminal stays quiet from here${verbose ? '' : ' (--verbose shows the devnet and code-server)'}; Ctrl-C stops everything.\n`,
  );
  if (flag('--screenshot')) await screenshot(url, password, launchChromium);
}

async function screenshot(url, password, launchChromium) {
  const file = path.resolve(opt('--screenshot') ?? path.join(artifactsDir, 'start.png'));
  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(url);
  // code-server's login page, then the workbench (code-server sends the browser back to the address).
  const field = page.locator('input[name="password"]');
  if (
    await field
      .waitFor({ state: 'visible', timeout: 10_000 })
      .then(() => true)
      .catch(() => false)
  ) {
    await field.fill(password);
    await field.press('Enter');
  }
  await page.locator('.statusbar').waitFor({ timeout: 60_000 });
  // The trust question, answered as a person would for this sample.
  await page
    .getByRole('button', { name: /Yes, I trust the authors/ })
    .click({ timeout: 15_000 })
    .catch(() => say('no workspace trust question within 15 s'));
  // The first screen once the extension is up: the Chain Endpoints view with "Local node" and the
  // block-height item in the status bar (it activates at onStartupFinished, seconds after the workbench).
  const row = page.locator('.sidebar .monaco-list-row', { hasText: 'Local node' }).first();
  await row.waitFor({ timeout: 60_000 }).catch(() => say('the Chain Endpoints view did not show "Local node" within 60 s'));
  await page
    .locator('[id$="chainEndpoints.height"]')
    .waitFor({ timeout: 45_000 })
    .catch(() => say('the Chain Endpoints status bar item did not show within 45 s'));
  // Expanded, so the picture shows the interfaces and their heights.
  if ((await row.getAttribute('aria-expanded').catch(() => null)) === 'false') await row.click().catch(() => undefined);
  await page.waitForTimeout(4000);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  say(`screenshot: ${rel(file)}`);
  await browser.close();
}

run(1, 'building the extension', 'a few seconds', 'npm', ['run', 'build', '--silent']);
if (!flag('--no-devnet')) run(2, 'compiling the devnet', 'about 30-60 s', 'npm', ['run', 'compile:tests', '--silent'], { tolerate: true });
// tsc emits despite type errors, so a type error elsewhere does not keep the devnet from starting.
else say(`2/${STEPS} compiling the devnet: skipped (--no-devnet)`);
await startDevnet();
if (!(await desktop())) await headless();
