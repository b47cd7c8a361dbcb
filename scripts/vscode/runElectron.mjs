// @ts-check
// Desktop path: @vscode/test-electron downloads VS Code (needs internet, cached in .vscode-test/)
// and runs the same test index in it. Needs a display (DISPLAY / WAYLAND_DISPLAY) or xvfb-run.
// The UI driver works here too: VS Code is started with --remote-debugging-port and
// playwright-core attaches to its workbench window over CDP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheRoot, freePort, log } from './paths.mjs';
import { startUiDriverServer } from './uiDriverServer.mjs';
import { DEFAULT_USER_SETTINGS } from './runCodeServer.mjs';

/** Downloads (or finds in .vscode-test/) the desktop VS Code; throws without internet. */
export async function ensureDesktopVSCode(version = process.env.CHAIN_ENDPOINTS_VSCODE_VERSION || 'stable') {
  const { downloadAndUnzipVSCode } = await import('@vscode/test-electron');
  return downloadAndUnzipVSCode({ version, cachePath: cacheRoot, timeout: 30_000 });
}

/**
 * Resolves with VS Code's exit code (0 = tests passed). Same options as runInCodeServer.
 * @param {import('./runCodeServer.mjs').RunOptions} [options]
 */
export async function runInElectron({ extensionPath, testsPath, workspacePath, userSettings = {}, env = {}, screenshotsDir, vscodeExecutablePath } = {}) {
  const { runTests } = await import('@vscode/test-electron');
  vscodeExecutablePath = vscodeExecutablePath || (await ensureDesktopVSCode());
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chain-endpoints-electron-'));
  const userDir = path.join(tmp, 'user');
  fs.mkdirSync(path.join(userDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userDir, 'User', 'settings.json'), JSON.stringify({ ...DEFAULT_USER_SETTINGS, ...userSettings }, null, 2));
  const cdpPort = await freePort();
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  /** @type {import('playwright-core').Page | undefined} */
  let page;
  const getPage = async () => {
    if (page && !page.isClosed()) return page;
    const { chromium } = await import('playwright-core');
    browser = browser || (await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`));
    for (const ctx of browser.contexts()) {
      for (const p of ctx.pages()) {
        if (/workbench/.test(p.url())) {
          page = p;
          return page;
        }
      }
    }
    throw new Error('no VS Code workbench window found over CDP');
  };
  const driver = await startUiDriverServer({ getPage, screenshotsDir });
  try {
    return await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: path.resolve(extensionPath),
      extensionTestsPath: path.resolve(testsPath),
      extensionTestsEnv: { ...env, CHAIN_ENDPOINTS_UI_DRIVER: String(driver.port), CHAIN_ENDPOINTS_SCREENSHOTS_DIR: screenshotsDir },
      launchArgs: [
        ...(workspacePath ? [path.resolve(workspacePath)] : []),
        '--user-data-dir',
        userDir,
        '--extensions-dir',
        path.join(tmp, 'extensions'),
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--disable-gpu',
        '--disable-telemetry',
        '--disable-updates',
        '--no-sandbox',
        `--remote-debugging-port=${cdpPort}`,
      ],
    });
  } catch (e) {
    log(`VS Code (electron) run failed: ${e.message}`);
    return typeof e.code === 'number' && e.code !== 0 ? e.code : 1;
  } finally {
    if (browser) await browser.close().catch(() => {});
    await driver.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
