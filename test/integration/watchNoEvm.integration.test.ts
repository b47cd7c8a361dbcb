// Watch Events explains a missing EVM stream for a whole network, as it does for one provider:
// when no provider of the network publishes an `evmWs` address, the provider pick says so (and
// what to add), and asking for an EVM stream of that network (`{ network, evm }`) says why instead
// of opening nothing.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { activateExtension, closeAllEditors, providerSettings, setProviders, sleep } from './helpers';
import { ui } from './uiDriver';

const NET = 'Watch net';

describe('Watch Events: a network without an EVM WebSocket says so', function () {
  this.timeout(90_000);
  let devnet: Devnet;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 300, providers: [{ name: 'Watch A' }, { name: 'Watch B' }] });
    // The devnet's addresses without evmWs (providerSettings leaves it out), declared as one network.
    await setProviders(providerSettings(devnet.providers).map((p) => ({ ...p, chainId: devnet.chainId, network: NET })));
    await activateExtension();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
    await closeAllEditors();
    await devnet.stop();
  });

  it('the provider pick says no provider of the network publishes an EVM WebSocket address, and what to add', async () => {
    assert.ok(ui.available, 'this test reads the quick pick through the UI driver (npm test runs it)');
    const watching = vscode.commands.executeCommand('chainEndpoints.watchEvents');
    await ui.waitFor('.quick-input-widget .monaco-list-row', 10_000);
    await sleep(300);
    const placeholder = (await ui.attr('.quick-input-widget input', 'placeholder')) ?? '';
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await watching, undefined, 'dismissed: no console');
    assert.match(placeholder, new RegExp(`No provider of ${NET} publishes an EVM WebSocket address: add "evmWs" .* \\(Watch A, Watch B\\)`), placeholder);
  });

  it('{ network, evm }: no console, and the error says why', async () => {
    assert.ok(ui.available, 'this test reads the notification through the UI driver');
    const result = await vscode.commands.executeCommand('chainEndpoints.watchEvents', { network: NET, evm: { subscription: 'newHeads' } });
    assert.equal(result, undefined);
    await vscode.commands.executeCommand('notifications.showList');
    const toast = '.notification-list-item:visible:has-text("publishes an EVM WebSocket")';
    await ui.waitFor(toast, 10_000);
    const message = await ui.text(`${toast} .notification-list-item-message`);
    assert.match(message, new RegExp(`No provider of ${NET} publishes an EVM WebSocket address: add "evmWs" \\(such as ws://host:8546\\) to one of them`));
  });
});
