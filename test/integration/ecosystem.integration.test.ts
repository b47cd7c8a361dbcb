// The public API, used as another extension would, and the History view.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChainEndpointsApi } from '../../src/api';
import type { ActivatedApi } from '../../src/extension';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { EXTENSION_ID, closeAllEditors, providerSettings, runForDocument, setProviders, setSetting, sleep, waitFor } from './helpers';

describe('API for other extensions', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 400, providers: [{ name: 'Api node' }] });
    // run() below asks for block 2: wait until the chain has it (activation may be quicker than two blocks).
    await waitFor('block 2', () => devnet.height() >= 2n, 10_000);
    await setProviders(providerSettings(devnet.providers));
    await setSetting('statusBar.provider', 'Api node');
    // Exactly what another extension does: no import of our code, only the declared type.
    api = (await vscode.extensions.getExtension<ChainEndpointsApi>(EXTENSION_ID)!.activate())!;
  });
  after(async () => {
    await setSetting('statusBar.provider', undefined);
    await closeAllEditors();
    await devnet.stop();
  });

  it('is versioned and lists providers and operations', () => {
    assert.equal(api.apiVersion, 1);
    assert.deepEqual(
      api.providers().map((p) => p.name),
      ['Api node'],
    );
    assert.equal(api.providers()[0].endpoints.consensusRpc, devnet.providers[0].consensusRpc);
    assert.ok(api.operations().includes('consensus.block'));
  });

  it('run() resolves to the parsed response with its metadata', async () => {
    const r = await api.run('consensus.block', { provider: 'Api node', params: { height: '2' } });
    assert.equal(r.error, undefined);
    assert.equal((r.result as { block: { header: { height: string } } }).block.header.height, '2');
    assert.equal(r.status, 200);
    assert.ok(r.elapsedMs >= 0 && r.bytes > 0);
    assert.equal(r.request.method, 'POST');
    assert.deepEqual(JSON.parse(r.request.body!).params, ['2']);
    const bad = await api.run('consensus.block', { provider: 'Api node', params: { height: '0' } });
    assert.equal(bad.error?.kind, 'input');
    const past = await api.run('rest.blockByHeight', { provider: 'Api node', params: { height: String(devnet.height() + 500n) } });
    assert.equal(past.error?.kind, 'rest');
    await assert.rejects(api.run('consensusRpc.broadcastTxSync', { provider: 'Api node', params: { tx: 'a2V5PXZhbHVl' } }), /confirmed: true/);
    await assert.rejects(api.run('nope', { provider: 'Api node' }), /Unknown operation/);
  });

  it('run() chooses its provider as the commands do: a name (any case), "best", or a refusal that says why', async () => {
    const best = await api.run('consensus.block', { provider: 'best', params: { height: '2' } });
    assert.equal(best.error, undefined);
    assert.equal((best.result as { block: { header: { height: string } } }).block.header.height, '2');
    const named = await api.run('consensus.block', { provider: ' api NODE ', params: { height: '2' } });
    assert.equal(named.error, undefined);
    await assert.rejects(api.run('consensus.block', { provider: 'Nope' }), /No provider named "Nope"\. Configured providers: "Api node"\./);
    await assert.rejects(api.run('consensus.block', { provider: 'best', network: 'nope' }), /No network named "nope"/);
    // A name with a network: the network must exist and hold the provider (nothing is sent otherwise).
    await assert.rejects(api.run('consensus.block', { provider: 'Api node', network: 'nope', params: { height: '2' } }), /No network named "nope"/);
    await assert.rejects(api.run('consensus.block', {} as never), /run\(\) needs \{ provider \}/);
  });

  it('run() refuses a raw state-changing request without { confirmed: true }: nothing reaches the node (issue 34)', async () => {
    const sent = () => devnet.lastRequests('Api node').filter((r) => /sendRawTransaction|broadcast_tx/.test(r.body + r.path)).length;
    const before = sent();
    await assert.rejects(
      api.run('evm.custom', { provider: 'Api node', params: { method: 'eth_sendRawTransaction', params: '["0x02f86c01"]' } }),
      /eth_sendRawTransaction changes state.*confirmed: true/,
    );
    await assert.rejects(api.run('consensusHttp.custom', { provider: 'Api node', params: { path: '/broadcast_tx_sync?tx=0x00' } }), /confirmed: true/);
    assert.equal(sent(), before, 'nothing sent');
    const confirmed = await api.run('consensusHttp.custom', { provider: 'Api node', params: { path: '/broadcast_tx_sync?tx=0x00' }, confirmed: true });
    assert.ok(confirmed.status !== undefined, 'sent when confirmed');
    assert.equal(sent(), before + 1);
  });

  it('lookUp() chooses its provider as run() does: "best", and the same sentence for an unknown name', async () => {
    const r = await api.lookUp('2', { provider: 'best' });
    assert.equal(r.kind, 'block');
    await assert.rejects(api.lookUp('2', { provider: 'Nope' }), /No provider named "Nope"\. Configured providers: "Api node"\./);
    await assert.rejects(api.lookUp('2', { provider: 'best', network: 'nope' }), /No network named "nope"/);
  });

  it('reports every new height with its provider', async () => {
    const events: { provider: string; height: string }[] = [];
    const sub = api.onDidChangeHeight((e) => events.push(e));
    try {
      await waitFor('three height events', () => events.length >= 3, 20_000);
    } finally {
      sub.dispose();
    }
    assert.ok(events.every((e) => e.provider === 'Api node'));
    for (let i = 1; i < events.length; i++) assert.ok(BigInt(events[i].height) > BigInt(events[i - 1].height));
    assert.equal(api.currentHeight()?.provider, 'Api node');
  });
});

describe('History view', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let api: ActivatedApi;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 400, providers: [{ name: 'History node' }] });
    await setProviders(providerSettings(devnet.providers));
    api = (await vscode.extensions.getExtension<ActivatedApi>(EXTENSION_ID)!.activate())!;
    await vscode.commands.executeCommand('chainEndpoints.history.clear');
  });
  after(async () => {
    await closeAllEditors();
    await devnet.stop();
  });

  it('lists requests newest first with status and latency, reopens and compares them', async () => {
    await runForDocument('chainEndpoints.evm.blockNumber', { provider: 'History node' });
    await sleep(900);
    const second = await runForDocument('chainEndpoints.evm.blockNumber', { provider: 'History node' });
    await runForDocument('chainEndpoints.consensus.block', { provider: 'History node', height: String(devnet.height() + 999n) });
    const entries = await waitFor('three entries', async () => {
      const list = await api.testing.history();
      return list.length >= 3 ? list : undefined;
    });
    assert.deepEqual(
      entries.slice(0, 3).map((e) => [e.operation, e.ok]),
      [
        ['consensus.block', false],
        ['evm.blockNumber', true],
        ['evm.blockNumber', true],
      ],
    );
    assert.equal(entries[1].status, 200);
    assert.ok(entries[1].elapsedMs >= 0);
    assert.match(entries[0].error ?? '', /JSON-RPC error -32603/);

    await closeAllEditors();
    const reopened = await vscode.commands.executeCommand<vscode.Uri>('chainEndpoints.history.open', entries[1]);
    assert.ok(reopened);
    assert.equal((await vscode.workspace.openTextDocument(reopened)).getText(), second.text);

    const compared = await vscode.commands.executeCommand<boolean>('chainEndpoints.history.compare', entries[1]);
    assert.equal(compared, true);
    const diff = await waitFor('a diff editor', () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff);
    assert.ok(diff);

    await vscode.commands.executeCommand('chainEndpoints.history.clear');
    assert.equal((await api.testing.history()).length, 0);
  });
});

describe('chain-registry import', function () {
  this.timeout(30_000);
  const fixtures = require('node:path').join(__dirname, '../../../test/fixtures/chain-registry');

  before(() => setProviders([]));
  after(() => setProviders([]));

  it('imports the providers of a chain.json into user settings, once', async () => {
    const file = vscode.Uri.file(`${fixtures}/lumen-testnet.chain.json`);
    const names = await vscode.commands.executeCommand<string[]>('chainEndpoints.importChainRegistry', { uri: file, select: 'all' });
    assert.ok(names && names.length >= 2, `imported ${JSON.stringify(names)}`);
    const providers = vscode.workspace.getConfiguration('chainEndpoints').get<{ name: string; consensusWs?: string; chainId?: string }[]>('providers')!;
    assert.deepEqual(
      providers.map((p) => p.name),
      names,
    );
    assert.ok(providers.every((p) => p.chainId === 'lumen_7701-1'));
    assert.ok(providers.some((p) => p.consensusWs?.endsWith('/websocket')));
    const again = await vscode.commands.executeCommand<string[]>('chainEndpoints.importChainRegistry', { uri: file, select: 'all' });
    assert.deepEqual(again, [], 'nothing duplicated');
    assert.equal(vscode.workspace.getConfiguration('chainEndpoints').get<unknown[]>('providers')!.length, providers.length);
  });

  it('a malformed file is refused, naming the field, and nothing is written', async () => {
    const before = vscode.workspace.getConfiguration('chainEndpoints').get<unknown[]>('providers')!.length;
    const text = require('node:fs').readFileSync(`${fixtures}/malformed/address-not-string.json`, 'utf8');
    const r = await vscode.commands.executeCommand('chainEndpoints.importChainRegistry', { text, select: 'all' });
    assert.equal(r, undefined);
    assert.equal(vscode.workspace.getConfiguration('chainEndpoints').get<unknown[]>('providers')!.length, before);
  });
});

describe('walkthrough', function () {
  this.timeout(30_000);
  it('opens the Get Started walkthrough with its steps', async () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON;
    const walkthrough = pkg.contributes.walkthroughs.find((w: { id: string }) => w.id === 'gettingStarted');
    assert.deepEqual(
      walkthrough.steps.map((s: { id: string }) => s.id),
      ['providers', 'firstRequest', 'lookUp', 'receipt', 'watchEvents', 'queryFiles', 'contracts', 'statusBar', 'health'],
    );
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#gettingStarted`, false);
    const tab = await waitFor('the walkthrough tab', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => /Welcome|Walkthrough|Get started/i.test(t.label)),
    );
    assert.ok(tab);
    const ui = (await import('./uiDriver')).ui;
    if (ui.available) {
      await sleep(1500);
      await ui.screenshot('walkthrough.png');
    }
    await closeAllEditors();
  });
});
