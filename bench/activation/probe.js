// Test module for the activation benchmark (extensionTestsPath, run inside the extension host):
// makes sure the extension is activated, waits a few seconds to see what connects after
// activation, then writes what the shim (shim.js) recorded to $CE_BENCH_ACTIVATION_OUT.
const fs = require('fs');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

exports.run = async function run() {
  const vscode = require('vscode');
  const ext = vscode.extensions.getExtension('chain-endpoints.chain-endpoints');
  // CE_BENCH_ACTIVATE_AFTER_MS: the manifest copy has no activation event; the extension is
  // activated here, that long after the workbench came up (a host no longer busy starting).
  if (process.env.CE_BENCH_ACTIVATE_AFTER_MS) await sleep(Number(process.env.CE_BENCH_ACTIVATE_AFTER_MS));
  const started = Date.now();
  while (!globalThis.__ceBenchActivation) {
    if (Date.now() - started > 60_000) throw new Error('the extension did not activate within 60 s');
    if (ext && !ext.isActive) await ext.activate();
    await sleep(20);
  }
  await sleep(Number(process.env.CE_BENCH_OBSERVE_MS || 3000));
  const r = globalThis.__ceBenchActivation;
  fs.writeFileSync(process.env.CE_BENCH_ACTIVATION_OUT, JSON.stringify({ ...r, host: { node: process.version, execPath: process.execPath } }));
};
