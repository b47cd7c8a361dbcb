// @ts-check
// What the workbench and code-server print on a machine without internet or accounts that says
// nothing about the extension under test. codeAutomationLog receives the workbench's whole log
// (its own messages and the extension host's console), one message per call; a message whose
// first line matches is dropped with its stack. CHAIN_ENDPOINTS_TEST_VERBOSE=1 shows everything.
export const NOISE_PATTERNS = [
  // no internet: accounts, gallery, telemetry, update checks
  /github|copilot|authentication provider|\bgetSessions\b|AccountPolicyGate/i,
  /open-vsx|marketplace|gallery|extensions?Gallery|unpkg|vscode-cdn|vscode-unpkg/i,
  /telemetry|applicationinsights|vortex\.data/i,
  /update ?check|checkForUpdates|autoUpdateBuiltinExtensions/i,
  /getaddrinfo|ENOTFOUND|EAI_AGAIN|ERR_NAME_NOT_RESOLVED|ERR_INTERNET_DISCONNECTED|net::ERR_|Failed to fetch/i,
  // routine connection chatter of the web workbench and the server
  /^Resolving connection token|^Resolved connection token|^Creating a socket|^\[reconnection-grace-time\]/,
  /^Updating additional builtin extensions cache|^\[Service Worker\]|^\[AgentHost|AgentHostChannel/,
  /^Canceled(: Canceled)*$/, // pending remote calls cancelled when the page closes
  /^Unable to write into user settings because the file has unsaved changes/,
  /vsda(_bg\.wasm|\.js)/, // optional signing module not shipped with code-server
  /^Extension host agent started|initializing default profile extensions/i,
  /DeprecationWarning|punycode/i,
  /^Creation of workbench contribution .* took \d+ms/,
  /Long running operations during shutdown/i,
];

/** Output of our own test reporter is never noise, whatever it contains. */
const OURS = /^\s*(✔|✘|- .*\(skipped\)|FAILED:|CHAIN_ENDPOINTS_|\d+ passing)/;

export function isNoise(text) {
  const first =
    String(text)
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  if (first === '') return true;
  if (OURS.test(first)) return false;
  return NOISE_PATTERNS.some((re) => re.test(first));
}
