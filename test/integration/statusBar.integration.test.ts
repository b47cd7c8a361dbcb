// The status bar follows the devnet's height over the WebSocket, survives a restart of the node
// without ever showing a lower height, and switches provider when the setting changes. Where the
// runner gives a UI driver, the real status-bar item and the tree are read and clicked too.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { activateExtension, closeAllEditors, setProviders, setSetting, sleep, waitFor, providerSettings } from './helpers';
import { ui } from './uiDriver';

const ITEM = '[id="chain-endpoints.chain-endpoints.chainEndpoints.height"], [id^="chain-endpoints.chain-endpoints"][id$="chainEndpoints.height"]';

describe('status bar: live block height', function () {
  this.timeout(90_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;
  const seen: bigint[] = [];
  let sampler: NodeJS.Timeout | undefined;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 500, providers: [{ name: 'Live A' }, { name: 'Live B' }] });
    await setSetting('statusBar.provider', '');
    await setProviders(providerSettings(devnet.providers));
    api = await activateExtension();
    sampler = setInterval(() => {
      const h = api.currentHeight();
      if (h?.provider === 'Live A' && h.height) seen.push(BigInt(h.height));
    }, 50);
  });

  after(async () => {
    if (sampler) clearInterval(sampler);
    await setSetting('statusBar.provider', undefined);
    await setSetting('statusBar.pin', undefined);
    await closeAllEditors();
    await devnet?.stop();
  });

  const height = () => {
    const h = api.currentHeight();
    return h?.height ? BigInt(h.height) : undefined;
  };

  it('follows the first provider with a WebSocket and climbs block by block', async () => {
    await waitFor('a live height from Live A', () => api.currentHeight()?.provider === 'Live A' && api.currentHeight()?.state === 'live' && height());
    const first = height()!;
    await waitFor('the height to climb by 3', () => (height() ?? 0n) >= first + 3n, 20_000);
    const tip = devnet.height();
    assert.ok(tip - height()! <= 2n, `status bar ${height()} is close to the tip ${tip}`);
  });

  it('shows the height with thousands separators in the real status bar', async function () {
    if (!ui.available) this.skip();
    const text = await ui.text(ITEM, 10_000);
    assert.match(text, /\d/);
    const label = await ui.attr(ITEM, 'aria-label');
    assert.match(label ?? '', /block height \d[\d,]*/);
    const shown = BigInt(text.replace(/[^\d]/g, ''));
    await waitFor('the status bar text to climb', async () => BigInt((await ui.text(ITEM)).replace(/[^\d]/g, '') || '0') > shown, 15_000);
    await ui.hover(ITEM);
    await sleep(1500);
    await ui.screenshot('status-bar-tooltip.png');
  });

  it('recovers after the node restarts, never showing a lower height', async () => {
    await setSetting('statusBar.pin', true); // this is about reconnecting, not failing over
    await waitFor('live on Live A', () => api.currentHeight()?.provider === 'Live A' && api.currentHeight()?.state === 'live' && height(), 20_000);
    const before = height()!;
    await devnet.stopProvider('Live A');
    await waitFor('the status bar to notice', () => api.currentHeight()?.state !== 'live', 30_000);
    await sleep(1500);
    await devnet.startProvider('Live A');
    await waitFor('live again with a higher height', () => api.currentHeight()?.state === 'live' && (height() ?? 0n) > before + 1n, 45_000);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `height went backwards: ${seen[i - 1]} -> ${seen[i]}`);
    await setSetting('statusBar.pin', undefined);
  });

  it('switches provider when the setting changes', async () => {
    await setSetting('statusBar.provider', 'Live B');
    await waitFor('Live B followed', () => api.currentHeight()?.provider === 'Live B' && api.currentHeight()?.state === 'live', 20_000);
    await setSetting('statusBar.provider', 'Live A');
    await waitFor('Live A followed again', () => api.currentHeight()?.provider === 'Live A', 20_000);
  });

  it('clicking an operation in the view opens its result', async function () {
    if (!ui.available) this.skip();
    await closeAllEditors();
    // The History view lists earlier requests with the same labels: empty it so the rows clicked
    // below can only be the Providers view's.
    await vscode.commands.executeCommand('chainEndpoints.history.clear');
    await vscode.commands.executeCommand('workbench.view.extension.chainEndpoints');
    // The view shows this suite's providers (run alone, right after \`before\`, it may still show an
    // earlier suite's for a moment): the first EVM RPC row is then Live A's.
    await ui.waitFor('.monaco-list-row[aria-label*="Live A"]', 10_000);
    await sleep(300);
    await ui.click('.monaco-list-row[aria-label*="EVM RPC"]', 10_000);
    await ui.click('.monaco-list-row[aria-label*="eth_blockNumber"]', 10_000);
    const editor = await waitFor(
      'a result editor',
      () => {
        const active = vscode.window.activeTextEditor;
        return active?.document.uri.scheme === 'chain-endpoints' ? active : undefined;
      },
      15_000,
    );
    assert.match(editor.document.getText(), /eth_blockNumber · Live A/);
    await ui.waitFor('.tab[aria-label*="eth_blockNumber"], .tab[title*="eth_blockNumber"]', 10_000).catch(() => undefined);
    await sleep(500);
    await ui.screenshot('tree-and-result.png');
  });
});
