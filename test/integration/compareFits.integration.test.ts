// Compare Providers in a 1400 px window with the sidebar open: the page is no wider than the editor
// (the table scrolls inside it), and a provider that is down still has a series in the charts.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { activateExtension, closeAllEditors, providerSettings, setProviders, sleep, waitFor } from './helpers';
import { ui } from './uiDriver';

describe('Compare Providers fits beside the sidebar', function () {
  this.timeout(90_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 300, providers: [{ name: 'Fit one' }, { name: 'Fit two' }] });
    await setProviders([...providerSettings(devnet.providers), { name: 'Fit down', evmRpc: 'http://127.0.0.1:9', rest: 'http://127.0.0.1:9' }]);
    api = await activateExtension();
  });
  after(async () => {
    await closeAllEditors();
    await devnet?.stop();
  });

  it('the page does not overflow the editor at 1400 px with the sidebar, and the down provider has a chart series', async function () {
    if (!ui.available) this.skip();
    for (let i = 0; i < 4; i++) {
      await vscode.commands.executeCommand('chainEndpoints.refresh');
      await sleep(300);
    }
    await waitFor('the down provider judged', () => api.testing.healthRows().some((r) => r.provider === 'Fit down' && r.state === 'down'));
    await vscode.commands.executeCommand('workbench.view.extension.chainEndpoints');
    await vscode.commands.executeCommand('chainEndpoints.health.compare');
    await ui.waitFor('iframe.webview', 10_000, 'attached');
    const widths = await waitFor('the Compare page', () => ui.frameWidths('#chart-behind'), 15_000, 500);
    await sleep(1500);
    await ui.screenshot('compare-with-sidebar.png');
    assert.ok(widths.scrollWidth <= widths.clientWidth, `the page is ${widths.scrollWidth} px wide in ${widths.clientWidth} px`);
    const charts = await waitFor('the charts drawn', async () => {
      const w = await ui.frameWidths('#charts');
      return w && w.text.includes('Fit down') ? w : undefined;
    });
    assert.match(charts.text, /Fit down · down/, 'the down provider has its "down" series');
  });
});
