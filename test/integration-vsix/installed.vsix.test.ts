// The extension as installed from its .vsix (npm run test:vsix): present, loaded from the extensions
// folder rather than the working tree, holding only what ships, and working end to end: its
// eth_blockNumber command against a devnet. Fails (never skips) when not run by test:vsix.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type Devnet, startDevnet } from '../devnet/devnet';

const EXTENSION_ID = 'chain-endpoints.chain-endpoints';

/** Files under dir, relative, with forward slashes. */
function filesUnder(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full, base) : [path.relative(base, full).split(path.sep).join('/')];
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

describe('Chain Endpoints installed from its .vsix', function () {
  this.timeout(60_000);
  const extensionsDir = process.env.CHAIN_ENDPOINTS_VSIX_EXTENSIONS_DIR;
  const repo = process.env.CHAIN_ENDPOINTS_VSIX_REPO;
  let devnet: Devnet | undefined;

  before(() => {
    assert.ok(extensionsDir && repo, 'CHAIN_ENDPOINTS_VSIX_EXTENSIONS_DIR / _REPO are not set: this suite runs through npm run test:vsix');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await devnet?.stop();
  });

  it('is the installed copy, not the working tree in development mode', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    const extPath = fs.realpathSync(ext.extensionPath);
    assert.ok(extPath.startsWith(fs.realpathSync(extensionsDir!) + path.sep), `extensionPath ${extPath} is not under ${extensionsDir}`);
    assert.notEqual(extPath, fs.realpathSync(repo!));
    // The development extension of this run is the empty harness (VS Code needs one to run tests).
    const harness = vscode.extensions.getExtension('chain-endpoints-test.vsix-test-harness');
    assert.ok(harness, 'the harness extension is not loaded');
    assert.notEqual(fs.realpathSync(harness.extensionPath), extPath);
    const version = JSON.parse(fs.readFileSync(path.join(repo!, 'package.json'), 'utf8')).version;
    assert.equal(ext.packageJSON.version, version);
  });

  it('holds only the bundle, the manifest, media, the query-file grammar and the documents', () => {
    const files = filesUnder(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath);
    const allowed = [
      /^dist\/(extension|activation|[a-zA-Z]+-[A-Z0-9]{8})\.js$/, // the entry, its activation file, and esbuild's named chunks (a feature's, a lazily built part's, shared code)
      /^dist\/vendor\/(undici|ws)\.js$/,
      /^package\.json$/,
      /^package\.nls(\.[\w-]+)?\.json$/,
      /^l10n\/[^/]+\.json$/,
      /^media\/.+/,
      /^syntaxes\/chainq\.(tmLanguage|language-configuration)\.json$/,
      /^readme\.md$/i,
      /^changelog\.md$/i,
      /^LICENSE(\.txt)?$/i,
      /^\.vsixmanifest$/,
    ];
    assert.deepEqual(
      files.filter((f) => !allowed.some((re) => re.test(f))),
      [],
    );
    for (const f of ['dist/extension.js', 'dist/vendor/undici.js', 'dist/vendor/ws.js', 'syntaxes/chainq.tmLanguage.json'])
      assert.ok(files.includes(f), `${f} missing: ${files.join(', ')}`);
    // Every file the bundle requires, at activation or on a feature's first use, is installed.
    const dist = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist');
    const required = new Set<string>();
    const visit = (f: string) => {
      for (const m of fs.readFileSync(path.join(dist, f), 'utf8').matchAll(/require\("\.\/([\w-]+\.js)"\)/g)) {
        if (required.has(m[1])) continue;
        required.add(m[1]);
        visit(m[1]);
      }
    };
    visit('extension.js');
    assert.ok(
      [...required].some((f) => f.startsWith('explorer-')),
      `the explorer's file is not required by the bundle: ${[...required].join(', ')}`,
    );
    for (const f of required) assert.ok(files.includes(`dist/${f}`), `dist/${f} is required by the bundle but not installed`);
    const bundle = fs.readFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'extension.js'), 'utf8');
    assert.ok(!/sourceMappingURL/.test(bundle.slice(-300)), 'a release bundle has no source map reference');
  });

  it('shows its localised manifest strings, not %keys%', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON;
    const titles: string[] = pkg.contributes.commands.map((c: { title: string }) => c.title);
    assert.deepEqual(
      titles.filter((t) => /^%.*%$/.test(t)),
      [],
    );
    const block = pkg.contributes.commands.find((c: { command: string }) => c.command === 'chainEndpoints.evm.blockNumber');
    assert.match(block.title, /eth_blockNumber/);
  });

  it('activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('runs chainEndpoints.evm.blockNumber against a devnet and shows the block number', async () => {
    devnet = await startDevnet({ blockIntervalMs: 300, providers: [{ name: 'Local node' }] });
    const { name, evmRpc, consensusHttp, consensusRpc, consensusWs, rest } = devnet.providers[0];
    await vscode.workspace
      .getConfiguration('chainEndpoints')
      .update('providers', [{ name, evmRpc, consensusHttp, consensusRpc, consensusWs, rest }], vscode.ConfigurationTarget.Global);
    while (devnet.height() < 3n) await sleep(100);
    // The extension applies the setting on its change event: ask until the request reaches this
    // devnet (and not whatever may listen on the default Local node ports).
    const deadline = Date.now() + 15_000;
    let text = '';
    for (;;) {
      const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('chainEndpoints.evm.blockNumber', { provider: 'Local node' });
      assert.ok(uri instanceof vscode.Uri, `the command returned ${String(uri)} instead of a Uri`);
      text = (await vscode.workspace.openTextDocument(uri)).getText();
      if (devnet.lastRequests('Local node').some((r) => r.iface === 'evmRpc' && r.body.includes('eth_blockNumber'))) break;
      assert.ok(Date.now() < deadline, `the request never reached the devnet; last document:\n${text}`);
      await sleep(200);
    }
    const m = /^\/\/ result: (0x[0-9a-f]+) = (\d+) \(decimal\)$/m.exec(text);
    assert.ok(m, `no block number in the document:\n${text}`);
    assert.equal(BigInt(m[1]).toString(), m[2]);
    const height = BigInt(m[2]);
    assert.ok(height >= 3n && height <= devnet.height(), `block ${height}, devnet at ${devnet.height()}`);
    const body = JSON.parse(text.replace(/^(\/\/[^\n]*\n)+/, ''));
    assert.equal(body.result, m[1]);
  });
});
