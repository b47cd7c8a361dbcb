// The provider picks outside the operation commands show what those show (ui/providers/providerPicks.ts):
// Set Secret's, Import Module Routes' and the status bar's Switch Provider… list each provider with its
// state and height, and the provider picked last (in any provider pick) first.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { activateExtension, closeAllEditors, providerSettings, setProviders, sleep, waitFor } from './helpers';
import { ui } from './uiDriver';

describe('provider picks: Set Secret and Switch Provider show state, height, the last used first', function () {
  this.timeout(90_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 300, providers: [{ name: 'Pick A' }, { name: 'Pick B' }] });
    // A third provider that refuses every connection: shown as down.
    await setProviders([...providerSettings(devnet.providers), { name: 'Pick Down', consensusHttp: 'http://127.0.0.1:1', evmRpc: 'http://127.0.0.1:1' }]);
    api = await activateExtension();
    // One explicit refresh (the periodic one probes only what the view shows).
    await vscode.commands.executeCommand('chainEndpoints.refresh');
    await waitFor(
      'health rows of the three providers',
      () =>
        ['Pick A', 'Pick B'].every((n) => api.testing.healthRows().some((r) => r.provider === n && r.last?.height !== undefined)) &&
        api.testing.healthRows().some((r) => r.provider === 'Pick Down' && r.state === 'down'),
      30_000,
    );
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await closeAllEditors();
    await devnet.stop();
  });

  /** The open quick pick's rows, top to bottom (label and description as shown). */
  async function pickRows(): Promise<string[]> {
    await ui.waitFor('.quick-input-widget .monaco-list-row', 10_000);
    await sleep(400);
    const text = await ui.text('.quick-input-widget .monaco-list');
    return text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  }

  /** Runs `command` with no argument, reads its provider pick, dismisses it: the rows and what the command returned. */
  async function dismissedPick(command: string): Promise<{ rows: string[]; text: string; result: unknown }> {
    const running = vscode.commands.executeCommand(command);
    const rows = await pickRows();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    return { rows, text: rows.join('\n'), result: await running };
  }

  /** Pick B (picked last) is the first provider row, with its height. */
  function assertLastUsedFirst(rows: string[], text: string): void {
    const first = rows.findIndex((r) => r.includes('Pick'));
    assert.match(rows.slice(first, first + 2).join(' '), /Pick B.*last used.*#[\d,]+/, `the last used first, with its height:\n${text}`);
  }

  it('Set Secret: the last provider used (picked in an operation command) first, with its state and height; a down provider says down', async () => {
    assert.ok(ui.available, 'this test reads the quick pick through the UI driver (npm test runs it)');
    // Pick B through an operation command's pick: it becomes the last used.
    const running = vscode.commands.executeCommand<vscode.Uri | undefined>('chainEndpoints.evm.blockNumber');
    await ui.waitFor('.quick-input-widget', 10_000);
    await sleep(300);
    await ui.type('Pick B');
    await sleep(400);
    await ui.press('Enter');
    assert.ok((await running) instanceof vscode.Uri);

    const { rows, text, result } = await dismissedPick('chainEndpoints.setSecret');
    assert.equal(result, undefined, 'dismissed: nothing set');
    assertLastUsedFirst(rows, text);
    assert.match(text, /Pick A[\s\S]*?(healthy|\d\/\d healthy) · #[\d,]+/, `a healthy provider with its height:\n${text}`);
    assert.match(text, /Pick Down[\s\S]*?down/, `the refused provider says down:\n${text}`);
  });

  it("Import Module Routes: each node's /swagger/ item shows its REST state and height, the last used first", async () => {
    const importing = vscode.commands.executeCommand('chainEndpoints.rest.importOpenApi');
    // Several networks may be known (the refused provider's own): pick the devnet's, by a provider's name.
    await ui.waitFor('.quick-input-widget .monaco-list-row', 10_000);
    await sleep(400);
    if (/Import module routes for which network/.test(await ui.text('.quick-input-widget'))) {
      await ui.type('Pick A');
      await sleep(400);
      await ui.press('Enter');
      await sleep(400);
    }
    const rows = await pickRows();
    const text = rows.join('\n');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await importing, undefined, 'dismissed: nothing imported');
    assert.match(text, /An OpenAPI file/);
    assert.match(text, /Pick B's \/swagger\/[\s\S]*?last used · healthy · #[\d,]+/, `the last used with its REST state and height:\n${text}`);
    assert.ok(text.indexOf("Pick B's") < text.indexOf("Pick A's"), `the last used before the others:\n${text}`);
  });

  it("Call Contract…: the same pick, each provider's EVM RPC state and height, the last used first", async () => {
    const { rows, text, result } = await dismissedPick('chainEndpoints.evm.callContract');
    assert.equal(result, undefined, 'dismissed: nothing called');
    assertLastUsedFirst(rows, text);
    assert.match(text, /Pick A[\s\S]*?healthy · #[\d,]+/, `state and height:\n${text}`);
  });

  it('Switch Provider… (status bar): the same items', async () => {
    const { rows, text } = await dismissedPick('chainEndpoints.statusBar.switchProvider');
    assertLastUsedFirst(rows, text);
    assert.match(text, /Pick A[\s\S]*?healthy · #[\d,]+/, `state and height:\n${text}`);
  });
});
