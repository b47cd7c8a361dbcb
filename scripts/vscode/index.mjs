// @ts-check
// Entry point of the VS Code runner modules used by scripts/test.mjs and scripts/start.mjs.
export { ensureCodeServer, isCodeServerInstalled, CODE_SERVER_VERSION } from './codeServer.mjs';
export { runInCodeServer, startCodeServer, launchChromium, DEFAULT_USER_SETTINGS } from './runCodeServer.mjs';
export { runInElectron, ensureDesktopVSCode } from './runElectron.mjs';
export { startUiDriverServer } from './uiDriverServer.mjs';
export { repoRoot, cacheRoot, artifactsDir, freePort, ensureSystemPackages, log } from './paths.mjs';
export { isNoise, NOISE_PATTERNS } from './noise.mjs';
