// Provider health in the editor: with three devnet providers, one lagging and one stopped
// mid-run, the tree shows each state after one refresh, the comparison opens with the same
// figures, and the status bar fails over to the healthy provider and back (unless pinned).

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { activateExtension, closeAllEditors, setProviders, setSetting, sleep, waitFor, providerSettings } from './helpers';
import { ui } from './uiDriver';

const BLOCK_MS = 1000;

describe('provider health and failover', function () {
  this.timeout(120_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: BLOCK_MS, providers: [{ name: 'H good' }, { name: 'H lagging', lagBlocks: 6 }, { name: 'H flaky' }] });
    await setSetting('statusBar.provider', 'H flaky');
    await setSetting('health.intervalSeconds', 0);
    await setProviders(providerSettings(devnet.providers));
    api = await activateExtension();
    await waitFor('blocks past the lag', () => devnet.height() > 8n, 20_000);
  });

  after(async () => {
    for (const key of ['statusBar.provider', 'statusBar.pin', 'health.intervalSeconds']) await setSetting(key, undefined);
    await closeAllEditors();
    await devnet?.stop();
  });

  const row = (provider: string, iface: string) => api.testing.healthRows().find((r) => r.provider === provider && r.iface === iface);

  it('one refresh shows healthy, lagging and down in the tree', async () => {
    await devnet.stopProvider('H flaky');
    await vscode.commands.executeCommand('chainEndpoints.refresh');
    for (const iface of ['evmRpc', 'consensusHttp', 'consensusRpc', 'consensusWs', 'rest']) {
      assert.equal(row('H good', iface)?.state, 'healthy', `H good ${iface}: ${row('H good', iface)?.reason}`);
      assert.equal(row('H lagging', iface)?.state, 'lagging', `H lagging ${iface}`);
      assert.equal(row('H flaky', iface)?.state, 'down', `H flaky ${iface}`);
    }
    const tree = await api.testing.treeSnapshot();
    const byName = (n: string) => tree.find((t) => t.label === n)!;
    assert.match(byName('H good').description!, /all healthy/);
    assert.match(byName('H lagging').description!, /5 lagging/);
    assert.match(byName('H flaky').description!, /5 down/);
    assert.match(byName('H good').children[1].description!, /^#[\d,]+ · \d+ ms · http/);
    assert.match(byName('H lagging').children[1].description!, /^\d+ behind · \d+ ms/);
    assert.match(byName('H flaky').children[1].description!, /^refused · http/);
    if (ui.available) {
      await vscode.commands.executeCommand('workbench.view.extension.chainEndpoints');
      await sleep(1500);
      await ui.screenshot('tree-health.png');
    }
    await devnet.startProvider('H flaky');
  });

  it('the comparison opens with the same figures', async () => {
    await vscode.commands.executeCommand('chainEndpoints.health.compare');
    const tab = await waitFor('the Compare Providers tab', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Compare Providers'),
    );
    assert.ok(tab);
    if (ui.available) {
      const frameText = await waitFor('rows in the webview', async () => {
        const n = await ui.count('iframe.webview');
        return n > 0 ? n : undefined;
      });
      assert.ok(frameText > 0);
      await sleep(1500);
      await ui.screenshot('compare-providers.png');
    }
    await closeAllEditors();
  });

  it('fails over within 2 block intervals when the followed provider stops, and comes back', async () => {
    await waitFor('H flaky live', () => api.currentHeight()?.provider === 'H flaky' && api.currentHeight()?.state === 'live', 30_000);
    await devnet.stopProvider('H flaky');
    const stoppedAt = Date.now();
    const current = await waitFor('a failover', () => (api.currentHeight()?.provider !== 'H flaky' ? api.currentHeight() : undefined), 10_000, 20);
    const elapsed = Date.now() - stoppedAt;
    console.log(`failover took ${elapsed} ms (block interval ${BLOCK_MS} ms)`);
    assert.equal(current.provider, 'H good', 'the healthy provider, not the lagging one');
    assert.equal(current.configured, 'H flaky');
    assert.match(current.reason ?? '', /H flaky is unreachable/);
    assert.ok(elapsed <= 2 * BLOCK_MS, `failover took ${elapsed} ms`);
    await waitFor('the fallback live', () => api.currentHeight()?.state === 'live', 10_000);
    if (ui.available) await ui.screenshot('status-bar-failover.png');
    await devnet.startProvider('H flaky');
    await waitFor('back on H flaky', () => api.currentHeight()?.provider === 'H flaky' && api.currentHeight()?.state === 'live', 60_000);
  });

  it('pinned, it stays on the configured provider', async () => {
    await setSetting('statusBar.pin', true);
    await waitFor('H flaky live', () => api.currentHeight()?.provider === 'H flaky' && api.currentHeight()?.state === 'live', 30_000);
    await devnet.stopProvider('H flaky');
    await sleep(3 * BLOCK_MS);
    assert.equal(api.currentHeight()?.provider, 'H flaky');
    assert.notEqual(api.currentHeight()?.state, 'live');
    await devnet.startProvider('H flaky');
    await setSetting('statusBar.pin', false);
  });
});
