// Query files in the editor, the newcomer's first runs: two providers and no @provider is a
// diagnostic before running, with quick fixes naming the candidates; Run all keeps the query file
// focused and opens the result beside it; a request that errored reads "error".

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { activateExtension, closeAllEditors, providerSettings, setProviders, waitFor, type ScratchFiles, scratchFiles } from './helpers';

describe('query files in VS Code: provider choice, focus, errors', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let scratch: ScratchFiles;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 200, providers: [{ name: 'Alpha' }, { name: 'Beta' }] });
    // "Down" has an EVM address nothing listens on (port 9, discard): its requests fail.
    await setProviders([...providerSettings(devnet.providers), { name: 'Down', evmRpc: 'http://127.0.0.1:9' }]);
    await activateExtension();
    scratch = scratchFiles('ce-chainq-fixes-');
    await waitFor('three blocks', () => devnet.height() >= 3n);
  });
  after(async () => {
    await closeAllEditors();
    await devnet?.stop();
    scratch?.dispose();
  });

  const open = (name: string, text: string) => scratch.open(name, text);

  it('a request two providers could serve is a diagnostic before running, and the quick fix sets @provider (over the commented line)', async () => {
    const doc = await open(
      'ambiguous.chainq',
      ['# What the shipped examples look like.', '# @provider = Local node', '', 'request latest = consensusRpc.status', ''].join('\n'),
    );
    const diagnostic = await waitFor('the ambiguity diagnostic', () =>
      vscode.languages.getDiagnostics(doc.uri).find((d) => d.range.start.line === 3 && /provider/i.test(d.message)),
    );
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.match(diagnostic.message, /"Alpha", "Beta"/);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, diagnostic.range);
    const titles = actions.map((a) => a.title);
    assert.ok(titles.includes('Use "Alpha" for the requests without a provider (@provider)'), titles.join('\n'));
    assert.ok(titles.includes('Use "Beta" for the requests without a provider (@provider)'), titles.join('\n'));
    assert.ok(titles.includes('Run "latest" on "Beta" (provider:)'), titles.join('\n'));
    assert.ok(!titles.some((t) => t.includes('Down')), 'Down has no consensusRpc address: not a candidate');
    const useBeta = actions.find((a) => a.title.startsWith('Use "Beta"'))!;
    assert.ok(await vscode.workspace.applyEdit(useBeta.edit!));
    assert.equal(doc.lineAt(1).text, '@provider = Beta');
    await waitFor('the diagnostic gone', () => !vscode.languages.getDiagnostics(doc.uri).some((d) => /provider/i.test(d.message)));
    const per = await open('per-request.chainq', 'request n = evm.blockNumber\nassert result matches /^0x/\n');
    const range = await waitFor('its diagnostic', () => vscode.languages.getDiagnostics(per.uri).find((d) => /provider/i.test(d.message))?.range);
    const fixes = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', per.uri, range);
    assert.ok(await vscode.workspace.applyEdit(fixes.find((a) => a.title === 'Run "n" on "Alpha" (provider:)')!.edit!));
    assert.equal(per.getText(), 'request n = evm.blockNumber\nprovider: Alpha\nassert result matches /^0x/\n');
  });

  it('Run all keeps the query file focused and shows the result beside it', async () => {
    await closeAllEditors();
    const doc = await open('focus.chainq', '@provider = Alpha\nrequest latest = consensusRpc.status\nassert success\n');
    const queryColumn = vscode.window.activeTextEditor?.viewColumn;
    const result = await vscode.commands.executeCommand<{ run: { passed: boolean } } | undefined>('chainEndpoints.queries.runAll', doc.uri);
    assert.equal(result?.run.passed, true);
    const resultEditor = await waitFor('the result document', () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'chain-endpoints' && e.document.getText().includes('sync_info')),
    );
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), doc.uri.toString(), 'the query file keeps the focus');
    assert.notEqual(resultEditor.viewColumn, queryColumn, 'the result opens beside the query file');
  });

  it('a request that errored reads "Down: error — …", not "success"', async () => {
    const doc = await open('errored.chainq', 'request n = evm.blockNumber\nprovider: Down\n');
    type Tests = Record<string, { state: string; message?: string }>;
    const result = await vscode.commands.executeCommand<{ tests: Tests } | undefined>('chainEndpoints.queries.runAll', doc.uri);
    const outcome = result?.tests[`${doc.uri.toString()}#n`];
    assert.equal(outcome?.state, 'failed', JSON.stringify(result?.tests));
    const message = (outcome?.message ?? '').replace(/&nbsp;/g, ' '); // Markdown text: spaces escaped
    assert.match(message, /^Down: error — Could not reach http:\/\/127\.0\.0\.1:9\//);
    assert.doesNotMatch(message, /success/);
  });
});
