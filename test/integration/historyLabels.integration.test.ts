// History names what was asked: a Look Up is an entry (re-run opens it again), a query file's
// request shows its name, a REST template its filled path.

import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { activateExtension, closeAllEditors, providerSettings, runForDocument, setProviders, waitFor, type ScratchFiles, scratchFiles } from './helpers';

describe('History: Look Ups and labels', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;
  let scratch: ScratchFiles;
  const PROVIDER = 'History devnet';

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 200, providers: [{ name: PROVIDER }] });
    await setProviders(providerSettings(devnet.providers));
    api = await activateExtension();
    scratch = scratchFiles('ce-history-');
    await waitFor('five blocks', () => devnet.height() >= 5n);
  });
  after(async () => {
    await closeAllEditors();
    await devnet?.stop();
    scratch?.dispose();
  });

  it('a Look Up is in History, labelled with its query, and re-run opens it again', async () => {
    await runForDocument('chainEndpoints.lookUp', { provider: PROVIDER, query: '3' });
    const entry = await waitFor('the Look Up entry', async () => (await api.testing.history()).find((e) => e.operation === 'lookUp'));
    assert.equal(entry.label, 'Look Up 3');
    assert.equal(entry.provider, PROVIDER);
    assert.equal(entry.ok, true);
    const again = await vscode.commands.executeCommand<vscode.Uri | undefined>('chainEndpoints.history.rerun', entry);
    assert.ok(again instanceof vscode.Uri, 're-run returned no document');
  });

  it("a query file's requests are listed by their names and their filled paths", async () => {
    const file = path.join(scratch.dir, 'named.chainq');
    writeFileSync(file, 'request tipBlock = rest.blockByHeight\nheight: 4\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    // History is shared by the whole in-editor run: earlier suites asked rest.blockByHeight at height 4
    // too (labelled 'blocks/4', no name). This file's entry is the new one, on this suite's provider.
    const before = new Set((await api.testing.history()).map((e) => e.id));
    await vscode.commands.executeCommand('chainEndpoints.queries.runAll', doc.uri);
    const entry = await waitFor('the request in History', async () =>
      (await api.testing.history()).find((e) => !before.has(e.id) && e.provider === PROVIDER && e.operation === 'rest.blockByHeight'),
    );
    assert.equal(entry.label, 'tipBlock · blocks/4');
  });

  it('the interface-named id consensusRpc.block runs like consensus.block: command, API and query file', async () => {
    const { text } = await runForDocument('chainEndpoints.consensusRpc.block', { provider: PROVIDER, height: '3' });
    assert.match(text, /"height": "3"/);
    const r = await api.run('consensusRpc.block', { provider: PROVIDER, params: { height: '2' } });
    assert.equal(r.error, undefined, JSON.stringify(r).slice(0, 300));
    const file = path.join(scratch.dir, 'ids.chainq');
    writeFileSync(file, 'request b = consensusRpc.block\nheight: 2\nassert result.block.header.height == 2\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const run = await vscode.commands.executeCommand<{ run: { passed: boolean } } | undefined>('chainEndpoints.queries.runAll', doc.uri);
    assert.equal(run?.run.passed, true);
  });
});
