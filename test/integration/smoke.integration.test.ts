// Temporary smoke test of the integration runner: the extension is installed, activates, and the
// UI driver can take a screenshot of the workbench.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ui } from './uiDriver';

const EXTENSION_ID = 'chain-endpoints.chain-endpoints';

describe('smoke', () => {
  it('finds and activates the extension', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not installed in the test instance`);
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  it('sees the runner environment and takes a screenshot', async function () {
    if (!ui.available) this.skip();
    await ui.waitFor('.monaco-workbench', 30_000);
    const file = await ui.screenshot('smoke-workbench.png');
    assert.ok(file.endsWith('smoke-workbench.png'), file);
  });
});
