// Several networks side by side in the editor: two devnet chains (the larger far ahead, three
// providers; the smaller two). The tree and Compare group by network, each judged on its own; with
// the status bar on the smaller network, a stopped provider fails over to the other provider of the
// same network, never to the larger one; statusBar.perNetwork shows one item per network.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { type DevnetNetworks, SECOND_NETWORK, startNetworks } from '../devnet/devnet';
import { activateExtension, closeAllEditors, providerSettings, setProviders, setSetting, sleep, waitFor } from './helpers';
import { ui } from './uiDriver';

const BLOCK_MS = 1000;

describe('several networks side by side', function () {
  this.timeout(120_000);
  let nets: DevnetNetworks;
  let api: ChainEndpointsApi;

  before(async () => {
    nets = await startNetworks([
      { blockIntervalMs: BLOCK_MS, initialHeight: 5000n, providers: [{ name: 'Big one' }, { name: 'Big two' }, { name: 'Big lagging', lagBlocks: 6 }] },
      { ...SECOND_NETWORK, initialHeight: 1n, blockIntervalMs: BLOCK_MS, providers: [{ name: 'Small flaky' }, { name: 'Small steady' }] },
    ]);
    await setSetting('statusBar.provider', 'Small flaky');
    await setSetting('health.intervalSeconds', 0);
    await setProviders(providerSettings(nets.providers));
    api = await activateExtension();
    await waitFor('blocks past the lag', () => nets.devnets[1].height() > 8n, 20_000);
  });

  after(async () => {
    for (const key of ['statusBar.provider', 'statusBar.perNetwork', 'health.intervalSeconds']) await setSetting(key, undefined);
    await closeAllEditors();
    await nets?.stop();
  });

  const row = (provider: string, iface: string) => api.testing.healthRows().find((r) => r.provider === provider && r.iface === iface);

  it('the tree shows two networks above their providers, each judged on its own', async () => {
    await vscode.commands.executeCommand('chainEndpoints.refresh');
    for (const iface of ['consensusHttp', 'consensusWs', 'evmRpc']) {
      assert.equal(row('Small steady', iface)?.state, 'healthy', `Small steady ${iface}: ${row('Small steady', iface)?.reason}`);
      assert.equal(row('Big one', iface)?.state, 'healthy', `Big one ${iface}`);
      assert.equal(row('Big lagging', iface)?.state, 'lagging', `Big lagging ${iface}`);
    }
    const tree = await waitFor('two networks in the tree', async () => {
      const t = await api.testing.treeSnapshot();
      return t.filter((n) => n.contextValue === 'network').length === 2 ? t : undefined;
    });
    const [big, small] = tree.filter((n) => n.contextValue === 'network');
    assert.equal(big.label, 'chain-endpoints-devnet-1');
    assert.equal(small.label, 'chain-endpoints-devnet-2');
    assert.deepEqual(
      big.children.map((c) => c.label),
      ['Big one', 'Big two', 'Big lagging'],
    );
    assert.deepEqual(
      small.children.map((c) => c.label),
      ['Small flaky', 'Small steady'],
    );
    assert.match(small.description!, /EVM 262145 \(0x40001\) · height [\d,]+ · 2 providers: all healthy/);
    assert.match(big.description!, /EVM 262144 \(0x40000\) · height 5,[\d,]+ · 3 providers: .*lagging/);
    assert.match(small.children[1].description!, /all healthy/);
    if (ui.available) {
      await vscode.commands.executeCommand('workbench.view.extension.chainEndpoints');
      await sleep(1500);
      await ui.screenshot('tree-networks.png');
    }
  });

  it('Compare groups by network', async () => {
    await vscode.commands.executeCommand('chainEndpoints.health.compare');
    const content = await waitFor('the comparison content', () => api.testing.compareContent());
    assert.deepEqual(
      content.networks.map((n) => [n.label, n.providers]),
      [
        ['chain-endpoints-devnet-1', ['Big one', 'Big two', 'Big lagging']],
        ['chain-endpoints-devnet-2', ['Small flaky', 'Small steady']],
      ],
    );
    assert.ok(BigInt(content.networks[0].height!) >= 5000n);
    assert.ok(BigInt(content.networks[1].height!) < 1000n);
    const small = content.rows.filter((r) => r.provider === 'Small steady');
    // Judged within its own network: never behind the larger one's thousands of blocks. Its two
    // providers serve one chain, but a block can land between their probes (1 behind), and a loaded
    // machine can make one slower than the other: 'lagging' for latency alone is not a wrong judgement.
    assert.ok(small.length > 0, 'Small steady has rows');
    for (const r of small) {
      const shown = JSON.stringify(r);
      assert.equal(r.network, 'chain-endpoints-devnet-2', shown);
      assert.ok(r.state === 'healthy' || r.state === 'lagging', shown);
      assert.ok(r.behind !== null && BigInt(r.behind) <= 1n, shown);
    }
    if (ui.available) {
      await sleep(1500);
      await ui.screenshot('compare-networks.png');
    }
    await closeAllEditors();
  });

  it('on the smaller network, a stopped provider fails over to the other provider of that network, never to the larger', async () => {
    await waitFor('Small flaky live', () => api.currentHeight()?.provider === 'Small flaky' && api.currentHeight()?.state === 'live', 30_000);
    await nets.of('Small flaky').stopProvider('Small flaky');
    const current = await waitFor('a failover', () => (api.currentHeight()?.provider !== 'Small flaky' ? api.currentHeight() : undefined), 15_000, 20);
    assert.equal(current.provider, 'Small steady', "the other provider of the same network, not a larger network's");
    assert.equal(current.configured, 'Small flaky');
    assert.match(current.reason ?? '', /Small flaky is unreachable/);
    const live = await waitFor('the fallback live with a height', () => {
      const c = api.currentHeight();
      return c?.state === 'live' && c.height !== undefined ? c : undefined;
    });
    assert.equal(live.provider, 'Small steady');
    const shown = BigInt(live.height!);
    assert.ok(shown < 1000n, `the smaller network's height, not the larger one's (shown ${shown})`);
    if (ui.available) await ui.screenshot('status-bar-network-failover.png');
    // Its network's other provider stopped too: no failover at all (never to the larger network).
    await nets.of('Small steady').stopProvider('Small steady');
    await sleep(3 * BLOCK_MS);
    const after = api.currentHeight()!;
    assert.ok(after.provider.startsWith('Small'), `still on the smaller network (${after.provider})`);
    assert.ok(after.height === undefined || BigInt(after.height) < 1000n, `height ${after.height}`);
    await nets.of('Small flaky').startProvider('Small flaky');
    await nets.of('Small steady').startProvider('Small steady');
    await waitFor('back on Small flaky', () => api.currentHeight()?.provider === 'Small flaky' && api.currentHeight()?.state === 'live', 60_000);
  });

  it('the API names the network of each provider', async () => {
    const byName = new Map(api.providers().map((p) => [p.name, p.network]));
    assert.equal(byName.get('Big one'), 'chain-endpoints-devnet-1');
    assert.equal(byName.get('Big lagging'), 'chain-endpoints-devnet-1');
    assert.equal(byName.get('Small steady'), 'chain-endpoints-devnet-2');
  });

  it('statusBar.perNetwork shows one item per network, each following its own', async () => {
    // The networks are known from the probes (run alone, no earlier test has refreshed).
    await vscode.commands.executeCommand('chainEndpoints.refresh');
    await setSetting('statusBar.perNetwork', true);
    const items = await waitFor('two items live', () => {
      const list = api.testing.networkHeights();
      return list.length === 2 && list.every((i) => i.height !== undefined) ? list : undefined;
    });
    assert.equal(items[0].configured, 'Big one');
    assert.ok(BigInt(items[0].height!) >= 5000n);
    assert.equal(items[1].configured, 'Small flaky');
    assert.ok(BigInt(items[1].height!) < 1000n);
    if (ui.available) await ui.screenshot('status-bar-per-network.png');
    // Each network's item follows its own choice (by network name or chain id), the others unchanged.
    await setSetting('statusBar.networkProviders', { 'CHAIN-ENDPOINTS-DEVNET-2': 'Small steady' });
    await waitFor('the small network follows its choice', () => api.testing.networkHeights()[1]?.configured === 'Small steady');
    assert.equal(api.testing.networkHeights()[0].configured, 'Big one');
    await setSetting('statusBar.networkProviders', { 'chain-endpoints-devnet-2': 'Small steady', 'chain-endpoints-devnet-1': 'Big two' });
    await waitFor('the big network follows its choice', () => api.testing.networkHeights()[0]?.configured === 'Big two');
    assert.equal(api.testing.networkHeights()[1].configured, 'Small steady');
    // A provider of another network is no choice: the network's first.
    await setSetting('statusBar.networkProviders', { 'chain-endpoints-devnet-1': 'Small steady' });
    await waitFor('back on its first', () => api.testing.networkHeights()[0]?.configured === 'Big one');
    await setSetting('statusBar.networkProviders', undefined);
    await setSetting('statusBar.perNetwork', false);
    await waitFor('back to one item', () => api.testing.networkHeights().length === 0);
  });
});
