// Test module of the in-editor explorer benchmark (extensionTestsPath, run in the extension host):
// one provider on the loopback block server, then, interleaved, the raw block document and the
// decoded Look Up, each timed from the command to its document shown; every editor closed between.
const fs = require('fs');

exports.run = async function run() {
  const vscode = require('vscode');
  const ext = vscode.extensions.getExtension('chain-endpoints.chain-endpoints');
  if (!ext) throw new Error('the extension is not installed');
  await ext.activate();
  const config = vscode.workspace.getConfiguration('chainEndpoints');
  await config.update('statusBar.enabled', false, vscode.ConfigurationTarget.Global);
  await config.update('providers', [{ name: 'bench', chainId: 'bench_262144-1', consensusHttp: process.env.CE_BENCH_URL }], vscode.ConfigurationTarget.Global);
  // The provider answers: a lookup through the API says why when it does not.
  const api = ext.exports;
  const check = await api.lookUp('5', { provider: 'bench' });
  if (check.kind !== 'block') throw new Error(`the lookup found ${check.kind}: ${JSON.stringify(check).slice(0, 500)}`);
  const variants = {
    ours: () => vscode.commands.executeCommand('chainEndpoints.lookUp', { provider: 'bench', query: '5' }),
    baseline: () => vscode.commands.executeCommand('chainEndpoints.consensusHttp.block', { provider: 'bench', height: '5' }),
  };
  const times = { ours: [], baseline: [] };
  const lines = {};
  const warmup = Number(process.env.CE_BENCH_WARMUP || 2);
  const n = Number(process.env.CE_BENCH_N || 7);
  for (let i = 0; i < warmup + n; i++) {
    const order = i % 2 === 0 ? ['ours', 'baseline'] : ['baseline', 'ours'];
    for (const name of order) {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await new Promise((r) => setTimeout(r, 200));
      const t0 = performance.now();
      const uri = await variants[name]();
      const ms = performance.now() - t0;
      const editor = vscode.window.activeTextEditor;
      if (!uri || !editor || editor.document.uri.toString() !== uri.toString())
        throw new Error(`${name}: no document shown (command gave ${uri}; active editor ${editor?.document.uri})`);
      lines[name] = editor.document.lineCount;
      if (i >= warmup) times[name].push(ms);
    }
  }
  fs.writeFileSync(process.env.CE_BENCH_OUT, JSON.stringify({ times, lines }));
};
