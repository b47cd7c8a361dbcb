// @ts-check
// runInCodeServer(): runs an extension (and optionally its tests) inside a real VS Code with no
// display: code-server serves the workbench on a loopback port, headless Chromium (playwright-core)
// opens it with a development payload, the extension host's console comes back through
// codeAutomationLog and the test module's result through codeAutomationExit.
// See docs/testing-in-vscode.md for the recipe.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ensureCodeServer } from './codeServer.mjs';
import { chromiumPath, ensureSystemPackages, freePort, log } from './paths.mjs';
import { isNoise } from './noise.mjs';
import { startUiDriverServer } from './uiDriverServer.mjs';

/**
 * @typedef {object} RunOptions
 * @property {string} [extensionPath]
 * @property {string} [testsPath]
 * @property {string} [workspacePath]
 * @property {object} [userSettings]
 * @property {Record<string, string>} [env]
 * @property {number} [timeoutMs]
 * @property {string} [screenshotsDir]
 * @property {(line: string, type?: string) => void} [onLine]
 * @property {{ width: number, height: number }} [viewport]
 * @property {string} [extensionsDir]
 * @property {string} [vscodeExecutablePath] (runInElectron only)
 */

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Settings that keep a throwaway profile quiet and offline. Callers' userSettings win. */
export const DEFAULT_USER_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.enableExperiments': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'github.gitAuthentication': false,
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'workbench.settings.enableNaturalLanguageSearch': false,
  'npm.fetchOnlinePackageInfo': false,
  'window.commandCenter': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

const verbose = () => process.env.CHAIN_ENDPOINTS_TEST_VERBOSE === '1';

function killTree(child, signal = 'SIGTERM') {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* gone */
    }
  }
}

function remoteUri(port, p) {
  return `vscode-remote://127.0.0.1:${port}${p.replace(/\.js$/, '')}`;
}

/**
 * Starts code-server and waits for it; returns { port, url(payload), child, stop(), tmp }.
 * Used by runInCodeServer and by `npm start --headless`.
 */
/**
 * `password`: code-server asks for it (`--auth password`, given in the PASSWORD environment variable,
 * never on the command line); without one, no login (the tests' throwaway servers, whose address
 * only this process knows). `workspaceTrust`: leave VS Code's workspace trust on (npm start), so a
 * folder is trusted by the user's click like any other; the tests turn it off.
 * @param {{ userSettings?: object, env?: Record<string, string>, port?: number, host?: string,
 *   echoServerLog?: boolean, extensionsDir?: string, password?: string, workspaceTrust?: boolean }} [options]
 */
export async function startCodeServer({
  userSettings = {},
  env = {},
  port,
  host = '127.0.0.1',
  echoServerLog = verbose(),
  extensionsDir,
  password,
  workspaceTrust = false,
} = {}) {
  // Loopback only: the workbench runs code and the extension reads secrets; nothing else on the network may reach it.
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) throw new Error(`code-server must listen on loopback (127.0.0.1), not ${host}`);
  const cs = await ensureCodeServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chain-endpoints-vscode-'));
  const userDir = path.join(tmp, 'user');
  // extensionsDir: a caller's folder with extensions already installed (the .vsix test); kept on stop.
  const extDir = extensionsDir ? path.resolve(extensionsDir) : path.join(tmp, 'extensions');
  fs.mkdirSync(path.join(userDir, 'User'), { recursive: true });
  fs.mkdirSync(extDir, { recursive: true });
  const trust = workspaceTrust ? { 'security.workspace.trust.enabled': true } : {};
  fs.writeFileSync(path.join(userDir, 'User', 'settings.json'), JSON.stringify({ ...DEFAULT_USER_SETTINGS, ...trust, ...userSettings }, null, 2));
  port = port || (await freePort());
  const args = [
    cs.entry,
    '--config',
    path.join(tmp, 'config.yaml'),
    '--auth',
    password ? 'password' : 'none',
    '--bind-addr',
    `${host}:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--ignore-last-opened',
    '--disable-getting-started-override',
    '--user-data-dir',
    userDir,
    '--extensions-dir',
    extDir,
    '--vscode-option',
    'enable-smoke-test-driver',
  ];
  // The extension host is a child of the server and inherits this environment (checked by the
  // smoke test: CHAIN_ENDPOINTS_UI_DRIVER reaches it), so test settings can travel as env vars.
  const child = spawn(cs.nodeBin, args, {
    env: { ...process.env, ...env, PASSWORD: password, HASHED_PASSWORD: undefined, VSCODE_CLI: undefined, ELECTRON_RUN_AS_NODE: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group: stop() kills the server and every extension host under it
  });
  const serverLog = [];
  let buffer = '';
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('code-server did not print "HTTP server listening on" within 90 s')), 90_000);
    const onData = (chunk) => {
      buffer += chunk.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        serverLog.push(line);
        if (serverLog.length > 400) serverLog.shift();
        if (echoServerLog && !isNoise(line)) console.log(`[code-server] ${line}`);
        if (line.includes('HTTP server listening on')) {
          clearTimeout(timer);
          resolve();
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited early (code ${code}, signal ${sig}):\n${serverLog.slice(-30).join('\n')}`));
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
  const lastResort = () => killTree(child, 'SIGKILL'); // if our process exits without stop()
  process.once('exit', lastResort);
  let stopped = false;
  const stop = async () => {
    process.removeListener('exit', lastResort);
    if (stopped) return;
    stopped = true;
    killTree(child, 'SIGTERM');
    await new Promise((r) => {
      if (child.exitCode !== null || child.signalCode !== null) return r();
      const t = setTimeout(() => {
        killTree(child, 'SIGKILL');
        r();
      }, 3000);
      child.once('exit', () => {
        clearTimeout(t);
        r();
      });
    });
    killTree(child, 'SIGKILL'); // stragglers in the group (extension hosts, file watchers)
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    await ready;
  } catch (e) {
    await stop();
    throw e;
  }
  /** @param {{ workspacePath?: string, extensionPath?: string, testsPath?: string, openFile?: string }} target */
  const url = ({ workspacePath, extensionPath, testsPath, openFile }) => {
    const payload = [];
    if (extensionPath) payload.push(['extensionDevelopmentPath', remoteUri(port, path.resolve(extensionPath))]);
    if (testsPath) payload.push(['extensionTestsPath', remoteUri(port, path.resolve(testsPath))]);
    if (openFile) payload.push(['openFile', `vscode-remote://127.0.0.1:${port}${path.resolve(openFile)}`]); // the workbench opens it in the editor
    payload.push(['skipWelcome', 'true']);
    const q = [];
    if (workspacePath) q.push(`folder=${encodeURIComponent(path.resolve(workspacePath))}`);
    q.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
    return `http://${host}:${port}/?${q.join('&')}`;
  };
  return { port, child, stop, tmp, url, serverLog, version: cs.version };
}

export async function launchChromium() {
  ensureSystemPackages({ needKerberos: false });
  const { chromium } = await import('playwright-core');
  // Signals are handled by the runner (it stops code-server too), not by Playwright.
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS, handleSIGINT: false, handleSIGTERM: false });
}

/**
 * Runs the extension at extensionPath with the test module testsPath (compiled index, exporting run())
 * in code-server + headless Chromium. Resolves with the exit code the test module reported
 * (0 = all passed); 1 on timeout or when the page never reported. Always stops code-server and Chromium.
 * Options: workspacePath, userSettings, env (reaches the extension host), timeoutMs (default 15 min),
 * screenshotsDir (UI driver screenshots; default <repo>/test-artifacts), onLine(line) for every
 * extension-host output line (unfiltered), viewport {width,height}, extensionsDir (extensions
 * installed beforehand, e.g. from a .vsix; leave extensionPath out to test them as installed).
 * @param {RunOptions} [options]
 */
export async function runInCodeServer({
  extensionPath,
  testsPath,
  workspacePath,
  userSettings = {},
  env = {},
  timeoutMs = 15 * 60_000,
  screenshotsDir,
  onLine,
  viewport = { width: 1400, height: 900 },
  extensionsDir,
} = {}) {
  const started = Date.now();
  screenshotsDir = path.resolve(screenshotsDir || path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'test-artifacts'));
  let server;
  let browser;
  let driver;
  let page;
  let finish;
  const done = new Promise((r) => {
    finish = r;
  });
  let finished = false;
  const settle = (code, why) => {
    if (finished) return;
    finished = true;
    if (why) log(why);
    finish(code);
  };
  const onSignal = (sig) => {
    settle(130, `${sig}: stopping code-server and Chromium`);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  // One call per log message (may span lines: message + stack); a noisy message is dropped whole.
  const emit = (type, text) => {
    text = String(text).replace(/\s+$/, '');
    for (const line of text.split('\n')) onLine?.(line, type);
    if (!verbose() && isNoise(text)) return;
    (type === 'error' ? console.error : console.log)(text);
  };
  try {
    driver = await startUiDriverServer({ getPage: () => page, screenshotsDir, log: verbose() ? log : () => {} });
    const runEnv = { ...env, CHAIN_ENDPOINTS_UI_DRIVER: String(driver.port), CHAIN_ENDPOINTS_SCREENSHOTS_DIR: screenshotsDir };
    server = await startCodeServer({ userSettings, env: runEnv, extensionsDir });
    log(`code-server ${server.version} listening on 127.0.0.1:${server.port} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    server.child.once('exit', (code, sig) =>
      settle(1, `code-server exited unexpectedly (code ${code}, signal ${sig})\n${server.serverLog.slice(-30).join('\n')}`),
    );
    browser = await launchChromium();
    const context = await browser.newContext({ viewport });
    page = await context.newPage();
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = (Array.isArray(args) ? args : [args]).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
      emit(type, text);
    });
    await page.exposeFunction('codeAutomationExit', (code) => {
      settle(Number(code) || 0, `test module finished with exit code ${code} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    });
    page.on('pageerror', (err) => {
      if (verbose() || !isNoise(String(err))) log(`page error: ${String(err).split('\n')[0]}`);
    });
    if (verbose()) page.on('console', (m) => console.log(`[workbench ${m.type()}] ${m.text()}`));
    const timer = setTimeout(async () => {
      if (finished) return;
      try {
        fs.mkdirSync(screenshotsDir, { recursive: true });
        await page.screenshot({ path: path.join(screenshotsDir, 'timeout.png') });
      } catch {
        /* best effort */
      }
      settle(1, `timed out after ${Math.round(timeoutMs / 1000)} s waiting for the tests (screenshot: test-artifacts/timeout.png)`);
    }, timeoutMs);
    timer.unref();
    await Promise.race([done, page.goto(server.url({ workspacePath, extensionPath, testsPath }), { waitUntil: 'domcontentloaded' })]);
    if (!testsPath) settle(0); // nothing to wait for
    return await done;
  } catch (e) {
    if (!finished) {
      finished = true;
      log(`runner error: ${e.message}`);
    }
    return 1;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
    await driver?.close().catch(() => {});
  }
}
