// Query files in the editor: the language, diagnostics as you type, completion, CodeLens, and Run
// all through the command (result documents and History), against a devnet on free ports.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { activateExtension, closeAllEditors, providerSettings, setProviders, waitFor, type ScratchFiles, scratchFiles } from './helpers';

describe('query files in VS Code', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;
  let scratch: ScratchFiles;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 200, providers: [{ name: 'Query devnet' }] });
    await setProviders(providerSettings(devnet.providers));
    api = await activateExtension();
    scratch = scratchFiles('ce-chainq-');
    await waitFor('twelve blocks', () => devnet.height() >= 12n);
  });
  after(async () => {
    await closeAllEditors();
    await devnet?.stop();
    scratch?.dispose();
  });

  const open = (name: string, text: string) => scratch.open(name, text);

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

    // History keeps its newest 100 entries (HISTORY_LIMIT): count the new ids, not the length.
    const before = new Set((await api.testing.history()).map((e) => e.id));
    const result = await vscode.commands.executeCommand<{ run: { passed: boolean; requests: unknown[] } } | undefined>(
      'chainEndpoints.queries.runAll',
      doc.uri,
    );
    assert.ok(result, 'Run all returned nothing (untrusted workspace?)');
    assert.equal(result.run.passed, true);
    assert.equal(result.run.requests.length, 2);
    await waitFor('two History entries', async () => (await api.testing.history()).filter((e) => !before.has(e.id)).length >= 2);
    await waitFor('the result document of the last request', () =>
      vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'chain-endpoints' && e.document.getText().includes('"block"')),
    );
  });
  it('CodeLens Run all records the run in the Testing view: pass and fail per assertion with the value found', async () => {
    const doc = await open(
      'tested.chainq',
      [
        'request latest = consensusRpc.status',
        'assert result.sync_info.latest_block_height > 10',
        'assert result.node_info.network == not-this-chain',
        '',
        'request number = evm.blockNumber',
        'assert result matches /^0x/',
        '',
      ].join('\n'),
    );
    type Tests = Record<string, { state: string; message?: string }>;
    const result = await vscode.commands.executeCommand<{ run: { passed: boolean }; tests: Tests } | undefined>('chainEndpoints.queries.runAll', doc.uri);
    assert.ok(result?.tests, 'the run returned no Testing view outcomes');
    const id = doc.uri.toString();
    const tests = result.tests;
    assert.equal(result.run.passed, false);
    assert.equal(tests[`${id}#latest#2`]?.state, 'passed', JSON.stringify(tests));
    assert.equal(tests[`${id}#latest#3`]?.state, 'failed', JSON.stringify(tests));
    assert.match(tests[`${id}#latest#3`].message ?? '', new RegExp(devnet.chainId));
    assert.match(tests[`${id}#latest#3`].message ?? '', /result document/);
    assert.equal(tests[`${id}#latest`]?.state, 'failed');
    assert.equal(tests[`${id}#number`]?.state, 'passed');
    // "Run" on one request: only that one, in the Testing view as well.
    const one = await vscode.commands.executeCommand<{ tests: Tests } | undefined>('chainEndpoints.queries.run', doc.uri, 'number');
    assert.deepEqual(Object.keys(one?.tests ?? {}).sort(), [`${id}#number`, `${id}#number#6`]);
  });

  it('a check error stops Run as in the CLI: nothing is sent, the error is reported at its line and column', async () => {
    const doc = await open(
      'broken.chainq',
      [
        'request ok = evmRpc web3_clientVersion',
        'params: ["stop-marker-ok"]',
        'assert success',
        '',
        'request broken = consensusHttp.block',
        'height: {{nowhere.result.height}}',
        '',
        'request ok2 = evmRpc web3_clientVersion',
        'params: ["stop-marker-ok2"]',
        '',
      ].join('\n'),
    );
    // The diagnostics are shown as typed; Run says the same error and sends nothing.
    await waitFor('the diagnostic', () => vscode.languages.getDiagnostics(doc.uri).some((d) => d.range.start.line === 5));
    type Tests = Record<string, { state: string; message?: string }>;
    type Stopped = { run?: unknown; stop?: { file: string; diagnostic: { line: number; col: number; message: string } }; tests: Tests };
    // What this file would send carries a marker (the extension's own probes may reach the devnet meanwhile).
    const sent = () => devnet.lastRequests('Query devnet').filter((q) => q.body.includes('stop-marker')).length;
    const result = await vscode.commands.executeCommand<Stopped | undefined>('chainEndpoints.queries.runAll', doc.uri);
    assert.ok(result, 'the command returned nothing');
    assert.equal(result.run, undefined, 'the file ran');
    assert.equal(result.stop?.diagnostic.line, 6);
    assert.equal(result.stop?.diagnostic.col, 9);
    assert.match(result.stop?.diagnostic.message ?? '', /No request named "nowhere"/);
    const id = doc.uri.toString();
    assert.equal(result.tests[id]?.state, 'errored', JSON.stringify(result.tests));
    assert.match(result.tests[id].message ?? '', /broken\.chainq:6:9: No request named "nowhere"/);
    assert.equal(result.tests[`${id}#broken`]?.state, 'errored');
    assert.equal(result.tests[`${id}#ok`]?.state, 'skipped');
    assert.equal(result.tests[`${id}#ok2`]?.state, 'skipped');
    // Run on a request that has no error: the file still has one, nothing runs.
    const one = await vscode.commands.executeCommand<Stopped | undefined>('chainEndpoints.queries.run', doc.uri, 'ok2');
    assert.equal(one?.run, undefined);
    assert.equal(one?.tests[`${id}#ok2`]?.state, 'skipped');
    // Nothing reached the server (the devnet serves every interface of the provider).
    assert.equal(sent(), 0, 'a request was sent');
  });

  it('diagnoses an undefined variable and reference, and completes operations, parameters, providers and variables', async () => {
    const doc = await open(
      'complete.chainq',
      [
        '@addr = 0x2222222222222222222222222222222222222222',
        'request a = consensusHttp.block',
        'height: ${nope}',
        'provider: ',
        '',
        'request b = evm.getBalance',
        'address: {{zzz.result}}',
        '',
      ].join('\n'),
    );
    const diagnostics = await waitFor('diagnostics', () => {
      const d = vscode.languages.getDiagnostics(doc.uri);
      return d.length >= 2 ? d : undefined;
    });
    const shown = diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`);
    assert.ok(
      shown.some((x) => x.startsWith('3:') && /nope/.test(x)),
      shown.join('\n'),
    );
    assert.ok(
      shown.some((x) => x.startsWith('7:') && /zzz/.test(x)),
      shown.join('\n'),
    );
    const labelsAt = async (line: number, character: number) => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        doc.uri,
        new vscode.Position(line, character),
      );
      return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    };
    assert.ok((await labelsAt(1, 12)).includes('consensusRpc.status'), 'operation ids');
    assert.ok((await labelsAt(3, 10)).includes('Query devnet'), 'provider names');
    const vars = await labelsAt(2, 10);
    assert.ok(vars.includes('addr'), `variables: ${vars.join(', ')}`);
    const keys = await labelsAt(6, 0);
    assert.ok(keys.includes('address') && keys.includes('provider'), `parameter keys: ${keys.join(', ')}`);
  });

  it('${env:NAME} reads only names the user settings allow; nothing is sent otherwise', async () => {
    process.env.CE_QUERY_TOKEN = 'tok-env-4242';
    const config = vscode.workspace.getConfiguration('chainEndpoints');
    const doc = await open('env.chainq', 'request e = evmRpc web3_clientVersion\nparams: ["${env:CE_QUERY_TOKEN}"]\n');
    type Run = {
      run?: { requests: { request: { name: string }; error?: string; runs: { record: { error?: string } }[] }[] };
      stop?: { diagnostic: { message: string } };
    };
    const sent = () => devnet.lastRequests('Query devnet').filter((q) => q.body.includes('tok-env-4242')).length;
    // Refused by the checks (nothing runs), or by the run itself.
    const errorOf = (r: Run | undefined) => r?.stop?.diagnostic.message ?? r?.run?.requests[0].runs[0]?.record.error ?? r?.run?.requests[0].error ?? '';
    try {
      const refused = await vscode.commands.executeCommand<Run | undefined>('chainEndpoints.queries.runAll', doc.uri);
      assert.match(errorOf(refused), /CE_QUERY_TOKEN.*chainEndpoints\.queryFiles\.allowEnv/);
      assert.equal(sent(), 0);
      await config.update('queryFiles.allowEnv', ['CE_QUERY_TOKEN'], vscode.ConfigurationTarget.Global);
      const allowed = await vscode.commands.executeCommand<Run | undefined>('chainEndpoints.queries.runAll', doc.uri);
      assert.equal(errorOf(allowed), '', JSON.stringify(allowed?.run?.requests[0]));
      assert.equal(sent(), 1);
    } finally {
      await config.update('queryFiles.allowEnv', undefined, vscode.ConfigurationTarget.Global);
      delete process.env.CE_QUERY_TOKEN;
    }
  });
});
