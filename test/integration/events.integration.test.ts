// Watch Events… in the editor: the API's watch() and the command's console panel against the devnet.

import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChainEndpointsApi, WatchEvent } from '../../src/api';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { EXTENSION_ID, closeAllEditors, providerSettings, setProviders, sleep, waitFor } from './helpers';
import { ui } from './uiDriver';

describe('Watch Events', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 300, realTxs: true, providers: [{ name: 'Events node' }] });
    const [p] = providerSettings(devnet.providers);
    await setProviders([{ ...p, evmWs: devnet.providers[0].evmWs }]);
    api = (await vscode.extensions.getExtension<ChainEndpointsApi>(EXTENSION_ID)!.activate())!;
  });
  after(async () => {
    await closeAllEditors();
    await devnet.stop();
  });

  it('api.watch() streams CometBFT NewBlock events and EVM newHeads as plain data until disposed', async () => {
    const comet: WatchEvent[] = [];
    const evm: WatchEvent[] = [];
    // A Disposable at once (not a Promise).
    const a = api.watch({ provider: 'Events node', query: "tm.event='NewBlock'" }, (e) => comet.push(e));
    const b = api.watch({ provider: 'Events node', evm: { subscription: 'newHeads' } }, (e) => evm.push(e));
    assert.equal(typeof a.dispose, 'function');
    assert.ok(!(a instanceof Promise));
    try {
      await waitFor('three NewBlock events', () => comet.filter((e) => e.kind === 'event').length >= 3, 20_000);
      await waitFor('two newHeads', () => evm.filter((e) => e.kind === 'event').length >= 2, 20_000);
    } finally {
      a.dispose();
      b.dispose();
    }
    const blocks = comet.filter((e) => e.kind === 'event');
    assert.ok(blocks.every((e) => e.type === 'NewBlock' && /^\d+$/.test(e.height ?? '')));
    assert.equal(BigInt(blocks[1].height!) - BigInt(blocks[0].height!), 1n);
    assert.ok(evm.every((e) => e.kind !== 'event' || e.type === 'newHeads'));
    const count = comet.length;
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(comet.length, count, 'no event after dispose');
    // A refused spec: one `note` event, no rejection.
    const refused: WatchEvent[] = [];
    const c = api.watch({ provider: 'Events node', query: "tm.event='Tx" }, (e) => refused.push(e));
    await waitFor('the refusal as a note', () => refused.length > 0, 10_000);
    c.dispose();
    assert.equal(refused[0].kind, 'note');
    assert.match(refused[0].summary, /never closed/);
    // Disposed before it started: it never starts.
    const early: WatchEvent[] = [];
    api.watch({ provider: 'Events node', query: "tm.event='NewBlock'" }, (e) => early.push(e)).dispose();
    await sleep(1500);
    assert.deepEqual(early, []);
  });

  it('the command opens one console panel per watch', async () => {
    await vscode.commands.executeCommand('chainEndpoints.watchEvents', { provider: 'Events node', query: "tm.event='Tx' AND app.creator='Cosmoshi'" });
    await vscode.commands.executeCommand('chainEndpoints.watchEvents', { provider: 'Events node', evm: { subscription: 'newHeads' } });
    const titles = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
    await waitFor('two console tabs', () => titles().filter((t) => t.startsWith('Events node:')).length === 2, 10_000);
    assert.ok(titles().includes("Events node: tm.event='Tx' AND app.creator='Cosmoshi'"));
    for (let i = 0; i < 3; i++) {
      const tx = Buffer.from(`console${i}=${Date.now()}`).toString('base64');
      await fetch(devnet.providers[0].consensusRpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'broadcast_tx_sync', params: { tx } }),
      });
      await sleep(400);
    }
    assert.ok(titles().includes('Events node: eth_subscribe newHeads'));
    if (ui.available) {
      await vscode.commands.executeCommand('workbench.action.previousEditor'); // the CometBFT console
      await sleep(2500);
      await ui.screenshot('event-console.png');
    }
  });
  it('start a watch, see events arrive, pause, filter, export, and open a transaction', async () => {
    type Handle = {
      testing: {
        watch(): { snapshot(): { received: number; paused: boolean }; entries(): { kind: string; seq: number; txHash?: string; summary: string }[] };
        lastPageState?: { shown: number; total: number; paused: boolean; filter: string };
        page(action: { filter: string } | { click: 'pause' | 'clear' }): Thenable<boolean>;
        exportTo(uri: vscode.Uri): Promise<number | undefined>;
        openTx(seq: number): Promise<string>;
        detail(seq: number): Promise<string>;
      };
    };
    const view = await vscode.commands.executeCommand<Handle>('chainEndpoints.watchEvents', { provider: 'Events node', query: "tm.event='Tx'" });
    assert.ok(view?.testing, 'the command returned its console');
    const t = view.testing;
    await waitFor('live', () => (t.watch().snapshot() as { state?: string }).state === 'live', 10_000);
    const send = async (i: number, tag: string) => {
      const tx = Buffer.from(`${tag}${i}=${Date.now()}`).toString('base64');
      await fetch(devnet.providers[0].consensusRpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'broadcast_tx_sync', params: { tx } }),
      });
    };
    for (let i = 0; i < 3; i++) await send(i, 'watched');
    await waitFor('three Tx events', () => t.watch().snapshot().received >= 3, 15_000);
    // The page has the lines: an empty filter shows them all.
    const pageState = async (action: Parameters<Handle['testing']['page']>[0]) => {
      t.lastPageState = undefined;
      await t.page(action);
      return waitFor('the page state', () => t.lastPageState, 5000);
    };
    const all = await pageState({ filter: '' });
    assert.ok(all.total >= 3, JSON.stringify(all));
    // Pause: the button of the page pauses the watch.
    await pageState({ click: 'pause' });
    await waitFor('paused', () => t.watch().snapshot().paused, 5000);
    await pageState({ click: 'pause' });
    await waitFor('resumed', () => !t.watch().snapshot().paused, 5000);
    // Filter: a text no line has hides every line; a tx hash shows its line.
    const none = await pageState({ filter: 'no-line-has-this-text' });
    assert.equal(none.shown, 0);
    const withHash = t
      .watch()
      .entries()
      .find((e) => e.kind === 'event' && e.txHash);
    assert.ok(withHash, 'an event with a tx hash');
    const one = await pageState({ filter: withHash.txHash!.toLowerCase() });
    assert.equal(one.shown, 1, JSON.stringify(one));
    // Export: JSON Lines, one record per entry of the buffer.
    const file = vscode.Uri.file(path.join(mkdtempSync(path.join(tmpdir(), 'ce-events-')), 'events.jsonl'));
    // Events keep arriving: compare with what the export saw, not with the buffer read after it.
    const exported = await t.exportTo(file);
    const lines = readFileSync(file.fsPath, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, exported);
    const records = lines.map((l) => JSON.parse(l) as { seq: number; kind: string; txHash?: string; data?: unknown });
    // The buffer's entries in order, each once, none of them missing between the first and the last.
    assert.deepEqual(
      records.map((r) => r.seq),
      t
        .watch()
        .entries()
        .map((e) => e.seq)
        .filter((seq) => seq >= records[0].seq && seq <= records.at(-1)!.seq),
    );
    assert.ok(records.some((r) => r.kind === 'event' && r.txHash === withHash.txHash && r.data !== undefined));
    // The hash's link: the explorer's lookup.
    assert.equal(await t.openTx(withHash.seq), 'chainEndpoints.lookUp');
    // An expanded line: the devnet's real transactions decoded (a bank send, an Ethereum transaction inside MsgEthereumTx).
    const details = await Promise.all(
      t
        .watch()
        .entries()
        .filter((e) => e.kind === 'event' && e.txHash)
        .slice(0, 30)
        .map((e) => t.detail(e.seq)),
    );
    assert.ok(
      details.some((d) => d.includes('/cosmos.bank.v1beta1.MsgSend') && d.includes('Transaction (decoded)')),
      'a bank send decoded',
    );
    assert.ok(
      details.some((d) => d.includes('Ethereum transaction (decoded)') && /"from": "0x[0-9a-fA-F]{40}"/.test(d)),
      'an Ethereum transaction decoded with its sender',
    );
  });
});
