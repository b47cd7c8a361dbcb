// Module routes in the editor against the devnet: REST: Query a Module Route… picks a route by
// typing words of it, asks its typed parameters (an enum as a pick, the page size validated as it is
// typed), and opens the document, which ends with a next-page link; following the link opens the
// next page. The tree shows a REST group per module.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { activateExtension, closeAllEditors, providerSettings, setProviders, sleep, waitFor } from './helpers';
import { ui } from './uiDriver';

const PROVIDER = 'Modules node';

describe('Module routes: REST: Query a Module Route…', function () {
  this.timeout(90_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 300, providers: [{ name: PROVIDER }] });
    await setProviders(providerSettings(devnet.providers));
    api = await activateExtension();
  });
  after(async () => {
    await closeAllEditors();
    await devnet.stop();
  });

  /** Types into the open quick pick or input box and accepts. */
  async function answer(text: string): Promise<void> {
    await ui.waitFor('.quick-input-widget', 10_000);
    await sleep(300);
    await ui.type(text);
    await sleep(400);
    await ui.press('Enter');
  }

  it('picks staking Validators, asks its status and page size, opens a page that links to the next', async () => {
    assert.ok(ui.available, 'this test drives the quick pick through the UI driver (npm test runs it)');
    const before = vscode.workspace.textDocuments.length;
    const running = vscode.commands.executeCommand('chainEndpoints.rest.query');
    await answer('staking: Validators');
    await answer(PROVIDER);
    await answer('BOND_STATUS_BONDED');
    // The page size is validated as typed: a word is refused (the box stays open), a number accepted.
    await ui.waitFor('.quick-input-widget', 10_000);
    await ui.type('two');
    await waitFor('the validation message', async () => /whole number/.test(await ui.text('.quick-input-widget').catch(() => '')), 5_000);
    await ui.press('Control+A');
    await ui.type('2');
    await sleep(300);
    await ui.press('Enter');
    const uri = (await running) as vscode.Uri | undefined;
    assert.ok(uri, 'the command returned the document');
    assert.ok(vscode.workspace.textDocuments.length >= before);
    const doc = await vscode.workspace.openTextDocument(uri);
    const text = doc.getText();
    assert.match(text, /\/\/ GET .*\/cosmos\/staking\/v1beta1\/validators\?status=BOND_STATUS_BONDED&pagination\.limit=2/);
    assert.match(text, /\/\/ result: 2 validators · more: next page at the end/);
    const last = doc.lineAt(doc.lineCount - 1).text || doc.lineAt(doc.lineCount - 2).text;
    assert.match(last, /^\/\/ next page: \{"operation":"staking\.Validators"/);

    const links = await waitFor('the next-page link', async () => {
      const all = (await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', uri)) ?? [];
      return all.find((l) => l.target?.scheme === 'command' && l.target.path === 'chainEndpoints.rest.query' && /next/.test(l.tooltip ?? ''));
    });
    const [arg] = JSON.parse(decodeURIComponent(links.target!.query)) as Array<Record<string, string>>;
    assert.equal(arg.operation, 'staking.Validators');
    assert.equal(arg.provider, PROVIDER);
    assert.ok(arg['pagination.key']);
    const next = (await vscode.commands.executeCommand('chainEndpoints.rest.query', arg)) as vscode.Uri;
    const nextText = (await vscode.workspace.openTextDocument(next)).getText();
    assert.match(nextText, /\/\/ result: 1 validators · last page/);
    assert.ok(!nextText.includes('// next page:'));
  });

  it('the tree shows a collapsed group per REST module under the REST interface', async () => {
    const tree = await api.testing.treeSnapshot();
    const provider = tree.find((n) => n.label === PROVIDER)!;
    const rest = provider.children.find((c) => c.label === 'REST')!;
    const staking = rest.children.find((c) => c.label === 'staking')!;
    assert.equal(staking.contextValue, 'module');
    assert.ok(staking.children.some((c) => c.label === 'validators' && c.command === 'chainEndpoints.rest.query'));
    for (const m of ['bank', 'gov', 'ibc.client', 'vm', 'feemarket', 'erc20', 'precisebank'])
      assert.ok(
        rest.children.some((c) => c.label === m),
        m,
      );
  });
});
