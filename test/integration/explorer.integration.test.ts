// The explorer in the editor against the devnet's real transactions: Look Up… from the command (a
// block, then an EVM hash reached by following a link of the block's document), the API's lookUp(),
// the links of an ordinary result document and a hover, and the hover of an address in any document
// (its balances and the link to its account page).

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChainEndpointsApi } from '../../src/api';
import { displayAmount } from '../../src/core/explorer/decodeEvm';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { EXTENSION_ID, closeAllEditors, getJson, providerSettings, runForDocument, setProviders, waitFor } from './helpers';
import { ui } from './uiDriver';

const PROVIDER = 'Explorer node';

/** The command and its argument behind a link's command URI. */
function commandOf(link: vscode.DocumentLink): { command: string; arg: { provider?: string; query: string } } {
  assert.ok(link.target, 'the link has a target');
  assert.equal(link.target.scheme, 'command');
  const [arg] = JSON.parse(decodeURIComponent(link.target.query)) as Array<{ provider?: string; query: string }>;
  return { command: link.target.path, arg };
}

describe('Explorer: Look Up…', function () {
  this.timeout(90_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;
  let height: bigint;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 300, realTxs: true, providers: [{ name: PROVIDER }] });
    await setProviders(providerSettings(devnet.providers));
    api = (await vscode.extensions.getExtension<ChainEndpointsApi>(EXTENSION_ID)!.activate())!;
    const status = await waitFor('a few blocks', async () => {
      const s = (await getJson(`${devnet.providers[0].consensusHttp}/status`)) as { result: { sync_info: { latest_block_height: string } } };
      return BigInt(s.result.sync_info.latest_block_height) >= 4n ? s : undefined;
    });
    height = BigInt(status.result.sync_info.latest_block_height) - 1n;
  });
  after(async () => {
    await closeAllEditors();
    await devnet.stop();
  });

  it('looks up a block from the command, and a followed link opens the EVM transaction with its Cosmos transaction', async () => {
    const block = await runForDocument('chainEndpoints.lookUp', { provider: PROVIDER, query: String(height) });
    assert.equal(block.doc.languageId, 'markdown');
    assert.match(block.text, new RegExp(`## Block \`${height}\``));
    assert.match(block.text, /MsgSend cosmos1/);
    assert.match(block.text, /MsgEthereumTx 0x[0-9a-f]{64}/);
    assert.match(block.text, /proposer: `[0-9A-F]{40}` = `cosmosvalcons1/);
    const evmHash = /MsgEthereumTx (0x[0-9a-f]{64})/.exec(block.text)![1];

    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', block.uri);
    const link = links.find((l) => l.target?.scheme === 'command' && commandOf(l).arg.query === evmHash);
    assert.ok(link, `a link to ${evmHash} among ${links.length}`);
    const { command, arg } = commandOf(link);
    assert.equal(command, 'chainEndpoints.lookUp');
    assert.equal(arg.provider, PROVIDER);
    assert.equal(block.doc.getText(link.range), evmHash);
    if (ui.available) await ui.screenshot('explorer-block.png');

    // Following it: what the editor runs for a command link.
    const tx = await runForDocument(command, arg);
    assert.match(tx.text, /Found: an EVM transaction hash\./);
    assert.match(tx.text, new RegExp(`## EVM transaction \`${evmHash}\``));
    assert.match(tx.text, /## Cosmos transaction `[0-9A-F]{64}`/);
    assert.match(tx.text, /Cosmos transaction: `[0-9A-F]{64}`/);
    assert.match(tx.text, /status: success/);
    if (ui.available) await ui.screenshot('explorer-tx.png');
  });

  it('api.lookUp() gives plain data: an address in both forms, with balances and its EVM nonce', async () => {
    const r = await api.lookUp(String(height), { provider: PROVIDER });
    assert.equal(r.kind, 'block');
    if (r.kind !== 'block') return;
    const send = r.block.txs.find((t) => t.tx?.messages[0]?.typeUrl === '/cosmos.bank.v1beta1.MsgSend')?.tx;
    assert.ok(send, 'a decoded bank send in the block');
    const from = send.signers[0].address!;
    const a = await api.lookUp(from, { provider: PROVIDER });
    assert.equal(a.kind, 'address');
    if (a.kind !== 'address') return;
    assert.equal(a.address.forms.account, from);
    assert.match(a.address.forms.hex ?? '', /^0x[0-9a-fA-F]{40}$/);
    assert.ok(a.address.balances?.some((c) => c.denom === 'atest'));
    assert.match(a.address.nonce ?? '', /^\d+$/);
    // The same account from the command: its document has both forms, balances and nonce.
    const doc = await runForDocument('chainEndpoints.lookUp', { provider: PROVIDER, query: a.address.forms.hex! });
    assert.match(doc.text, /## Address `0x[0-9a-fA-F]{40}`/);
    assert.ok(doc.text.includes(`- account: \`${from}\``), 'the bech32 form');
    assert.match(doc.text, /- bank balances: \d+ atest/);
    assert.match(doc.text, /- EVM nonce: \d+/);
    if (ui.available) await ui.screenshot('explorer-address.png');
    await assert.rejects(api.lookUp('not an identifier', { provider: PROVIDER }), /not a block height, a hash or an address/);
    // { height }: the account page at that height (as `<address>@<height>` typed in Look Up).
    const at = await api.lookUp(from, { provider: PROVIDER, height: String(height) });
    assert.equal(at.kind === 'address' && at.address.height, String(height));
    assert.equal(at.kind === 'address' && at.address.state?.reconciliation?.equal, true);
    assert.equal(at.kind === 'address' && at.found, `an account address at height ${height}`);
    await assert.rejects(api.lookUp(from, { provider: PROVIDER, height: 'latest' }), /After @ comes a block height/);
  });

  it('an ordinary result document gets links and hovers too', async () => {
    const doc = await runForDocument('chainEndpoints.consensusHttp.block', { provider: PROVIDER, height: String(height) });
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', doc.uri);
    const heightLink = links.find((l) => commandOf(l).arg.query === String(height));
    assert.ok(heightLink, 'the height is a link');
    const proposer = links.find((l) => /^[0-9A-F]{40}$/.test(commandOf(l).arg.query));
    assert.ok(proposer, 'the proposer address is a link');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, proposer.range.start.translate(0, 2));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /valcons|EVM|hex/);
    // Every identifier's hover has its lookup, one click away (documents too large to link everywhere included).
    assert.ok(text.includes('command:chainEndpoints.lookUp?'), 'the hover offers Look up');
    const hash = links.find((l) => /^[0-9A-F]{64}$/.test(commandOf(l).arg.query));
    assert.ok(hash, 'a block hash is a link');
    const overHash = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, hash.range.start.translate(0, 5));
    const hashText = overHash.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.ok(hashText.includes(encodeURIComponent(commandOf(hash).arg.query)), 'the hover looks up the hash under the pointer');
  });

  it('an address in any document: its balances in one line (as the node answers them) and a link to its page', async () => {
    const key = devnet.chain.ledger.keys[3];
    const account = (await api.lookUp(key.hex, { provider: PROVIDER })) as Extract<Awaited<ReturnType<ChainEndpointsApi['lookUp']>>, { kind: 'address' }>;
    const bech32 = account.address.forms.account!;
    const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: `// pay ${bech32} tomorrow\n` });
    const at = new vscode.Position(0, 10);
    const hovers = await waitFor('the address hover with its balances', async () => {
      const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
      return h.some((x) => x.contents.some((c) => typeof c !== 'string' && /bank\\: /.test(c.value))) ? h : undefined;
    });
    const md = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).find((v) => v.includes('Open the account page'));
    assert.ok(md, 'the hover with the link');
    // What the node says: the hover read the latest state while blocks kept coming (every 300 ms), so
    // each of its two figures is the state of one of the blocks from before the hover to now (the hover's
    // two reads are not pinned to one block: it shows no reconciliation).
    const line = md.split('  \n')[0].replace(/\\(.)/g, '$1');
    const m = new RegExp(`^${PROVIDER} · bank: ([0-9]+) atest · EVM: ([0-9.]+)$`).exec(line);
    assert.ok(m, line);
    const tip = BigInt(
      ((await getJson(`${devnet.providers[0].consensusHttp}/status`)) as { result: { sync_info: { latest_block_height: string } } }).result.sync_info
        .latest_block_height,
    );
    const banks: Array<string | undefined> = [];
    const evms: string[] = [];
    for (let h = tip; h >= height && h > tip - 40n; h--) {
      const r = await fetch(`${devnet.providers[0].rest}/cosmos/bank/v1beta1/balances/${bech32}`, { headers: { 'x-cosmos-block-height': String(h) } });
      const bank = ((await r.json()) as { balances: Array<{ denom: string; amount: string }> }).balances.find((c) => c.denom === 'atest')?.amount;
      const wei = await fetch(devnet.providers[0].evmRpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [key.hex, `0x${h.toString(16)}`] }),
      });
      banks.push(bank);
      evms.push(displayAmount(BigInt(((await wei.json()) as { result: string }).result), 18));
    }
    assert.ok(banks.includes(m[1]), `bank ${m[1]} is the balance of a recent block (${banks.slice(0, 3).join(', ')} …)`);
    assert.ok(evms.includes(m[2]), `EVM ${m[2]} is the balance of a recent block (${evms.slice(0, 3).join(', ')} …)`);
    const link = /\[\$\(account\) [^\]]+\]\((command:chainEndpoints\.lookUp\?[^)]+)\)/.exec(md);
    assert.ok(link, md);
    const target = vscode.Uri.parse(link[1]);
    assert.deepEqual(JSON.parse(decodeURIComponent(target.query)), [{ provider: PROVIDER, query: bech32 }]);
    // Following it opens the account page.
    const page = await runForDocument(target.path, { provider: PROVIDER, query: bech32 });
    assert.match(page.text, new RegExp(`## Address \`${bech32}\``));
    assert.match(page.text, /- reconciliation: `bank\(atest\) = EVM balance/);
  });
});
