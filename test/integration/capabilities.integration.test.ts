// Capabilities in the editor: with a pruned provider, one without a transaction indexer and a full
// one, the API reports what each serves, the tree marks the operation a provider cannot serve (not
// hidden), and running a request below a provider's earliest block says why before sending and
// runs it, one click away, on the provider that has it.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { activateExtension, closeAllEditors, providerSettings, setProviders, setSetting, sleep, waitFor } from './helpers';
import { ui } from './uiDriver';

describe('capabilities: what each provider can serve', function () {
  this.timeout(120_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;

  before(async () => {
    devnet = await startDevnet({
      blockIntervalMs: 300,
      providers: [
        { name: 'Cap pruned', capabilities: { prunedBelow: 8n } },
        { name: 'Cap no index', lagBlocks: 3, capabilities: { txIndex: false } },
        { name: 'Cap full' },
      ],
    });
    await setSetting('health.intervalSeconds', 0);
    await setProviders(providerSettings(devnet.providers));
    api = await activateExtension();
    await waitFor('blocks past the pruning', () => devnet.height() > 12n, 30_000);
  });

  after(async () => {
    await setSetting('health.intervalSeconds', undefined);
    await closeAllEditors();
    await devnet?.stop();
  });

  it('the API reports each provider capabilities, with when they were probed', async () => {
    const pruned = await api.capabilities('Cap pruned');
    assert.equal(pruned.consensus?.earliestHeight, '8');
    assert.equal(pruned.evm?.archive, false);
    assert.ok(Date.parse(pruned.probedAt) <= Date.now());
    const noIndex = await api.capabilities('Cap no index');
    assert.equal(noIndex.consensus?.txIndex, false);
    const full = await api.capabilities('Cap full');
    assert.equal(full.consensus?.txIndex, true);
    assert.ok(full.evm?.namespaces?.includes('debug'));
    await assert.rejects(api.capabilities('nobody'), /No provider named/);
    // The Refresh command probes them again, however recent.
    await new Promise((r) => setTimeout(r, 20));
    await vscode.commands.executeCommand('chainEndpoints.refresh');
    const again = await api.capabilities('Cap pruned');
    assert.ok(Date.parse(again.probedAt) > Date.parse(pruned.probedAt), `probed again after Refresh (${pruned.probedAt} -> ${again.probedAt})`);
  });

  it('marks in the tree the operation a provider cannot serve', async () => {
    await vscode.commands.executeCommand('chainEndpoints.refresh');
    const tree = await api.testing.treeSnapshot();
    const ops = (provider: string) => tree.find((t) => t.label === provider)!.children.find((c) => c.label === 'Consensus HTTP')!.children;
    const tx = (provider: string) => ops(provider).find((o) => o.label === 'tx')!;
    assert.equal(tx('Cap no index').contextValue, 'operation.unserved');
    assert.match(tx('Cap no index').description!, /not served here/);
    assert.equal(tx('Cap full').contextValue, 'operation');
    assert.equal(ops('Cap no index').length, ops('Cap full').length, 'marked, not hidden');
  });

  it('says why before sending, and runs on the provider that has it in one click', async function () {
    if (!ui.available) return assert.fail('this test needs the UI driver (npm test runs it with code-server)');
    assert.equal((await api.capabilities('Cap pruned')).consensus?.earliestHeight, '8');
    const run = vscode.commands.executeCommand<vscode.Uri | undefined>('chainEndpoints.consensus.block', { provider: 'Cap pruned', height: '2' });
    // The question is a notification: as a toast, or in the notification centre (shown too, in case toasts are off).
    const toast = '.notification-list-item:visible:has-text("earliest block 8")';
    await sleep(1500);
    await vscode.commands.executeCommand('notifications.showList');
    const first = await Promise.race([
      run.then((u) => ({ finished: u })),
      ui.waitFor(toast, 15_000).then(
        () => ({ toast: true }),
        (err: unknown) => ({ error: err }),
      ),
    ]);
    if (!('toast' in first)) {
      await ui.screenshot('capabilities-no-toast.png');
      const finished = 'finished' in first && first.finished ? (await vscode.workspace.openTextDocument(first.finished)).getText().slice(0, 400) : '';
      assert.fail(`no question before sending: ${'error' in first ? String(first.error) : `the command finished first: ${finished}`}`);
    }
    const message = await ui.text(`${toast} .notification-list-item-message`);
    assert.match(message, /Height 2 is below Cap pruned's earliest block 8\. Cap (full|no index) has it: run there\?/);
    await sleep(300);
    await ui.screenshot('capabilities-run-elsewhere.png');
    await ui.click(`${toast} .monaco-button:has-text("Run on Cap")`);
    const uri = await run;
    assert.ok(uri instanceof vscode.Uri, 'a document opened');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.match(doc.getText(), /Cap (full|no index)/, 'the request ran on the other provider');
    assert.doesNotMatch(doc.getText().split('\n').slice(0, 8).join('\n'), /Cap pruned/);
    assert.match(doc.getText(), /"height": "2"/);
  });

  it('Compare Providers shows the capability columns and the session charts', async () => {
    for (let i = 0; i < 8; i++) {
      await vscode.commands.executeCommand('chainEndpoints.refresh');
      await sleep(400);
    }
    const rows = api.testing.healthRows();
    assert.ok(
      rows.every((r) => r.samples >= 8 || r.state === 'down'),
      'a history to draw',
    );
    await vscode.commands.executeCommand('chainEndpoints.health.compare');
    await waitFor('the Compare Providers tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Compare Providers'));
    if (ui.available) {
      await ui.waitFor('iframe.webview', 10_000, 'attached');
      await vscode.commands.executeCommand('workbench.action.closeSidebar');
      await sleep(2500);
      await ui.screenshot('compare-charts.png');
      // The charts below the table: focus the page and go to its end.
      await ui.click('iframe.webview');
      await ui.press('End');
      await sleep(800);
      await ui.screenshot('compare-charts-session.png');
    }
    await closeAllEditors();
  });
});
