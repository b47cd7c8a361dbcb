// Query files in the editor: the language, diagnostics as you type, completion, CodeLens, and Run
// all through the command (result documents and History), against a devnet on free ports.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { activateExtension, closeAllEditors, providerSettings, setProviders, waitFor } from './helpers';

describe('query files in VS Code', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;
  let dir: string;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 200, providers: [{ name: 'Query devnet' }] });
    await setProviders(providerSettings(devnet.providers));
    api = await activateExtension();
    dir = mkdtempSync(path.join(tmpdir(), 'ce-chainq-'));
    await waitFor('twelve blocks', () => devnet.height() >= 12n);
  });
  after(async () => {
    await closeAllEditors();
    await devnet?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = async (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    return doc;
  };

  it('a .chainq file is the chainq language, with diagnostics located by line and column', async () => {
    const doc = await open('bad.chainq', '# bad\nrequest a = evm.nope\nrequest b = consensusHttp.block\nheight: -3\nprovider: Nobody\n');
    assert.equal(doc.languageId, 'chainq');
    const diagnostics = await waitFor('diagnostics', () => {
      const d = vscode.languages.getDiagnostics(doc.uri);
      return d.length >= 3 ? d : undefined;
    });
    const shown = diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message.split(':')[0]}`);
    assert.ok(shown.includes('2:13 Unknown operation "evm.nope"'), shown.join('\n'));
    assert.ok(
      shown.some((s) => s.startsWith('4:9 ')),
      shown.join('\n'),
    );
    assert.ok(
      shown.some((s) => s.startsWith('5:11 No provider named "Nobody"')),
      shown.join('\n'),
    );
  });

  it('offers completion and CodeLens, and Run all runs the file into result documents and History', async () => {
    const doc = await open(
      'good.chainq',
      [
        'request latest = consensusRpc.status',
        'assert result.sync_info.latest_block_height > 10',
        '',
        'request older = consensusHttp.block',
        'height: {{latest.result.sync_info.latest_block_height - 10}}',
        'assert result.block.header.height == {{latest.result.sync_info.latest_block_height - 10}}',
        '',
      ].join('\n'),
    );
    const lenses = await waitFor('CodeLens', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      return l && l.length === 3 ? l : undefined;
    });
    assert.deepEqual(
      lenses.map((l) => l.range.start.line),
      [0, 0, 3],
    );
    const completion = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(4, 10));
    const labels = completion.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('latest'), labels.join(', '));

    const before = (await api.testing.history()).length;
    const result = await vscode.commands.executeCommand<{ run: { passed: boolean; requests: unknown[] } } | undefined>(
      'chainEndpoints.queries.runAll',
      doc.uri,
    );
    assert.ok(result, 'Run all returned nothing (untrusted workspace?)');
    assert.equal(result.run.passed, true);
    assert.equal(result.run.requests.length, 2);
    await waitFor('two History entries', async () => (await api.testing.history()).length >= before + 2);
    await waitFor('the result document of the last request', () =>
      vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'chain-endpoints' && e.document.getText().includes('"block"')),
    );
  });
});
