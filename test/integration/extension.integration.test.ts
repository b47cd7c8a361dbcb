// The product in the editor: tree, every command, result documents and their failures, the
// palette path, against a devnet started on free ports by this suite.

import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { bech32Encode } from '../../src/core/chain/validate';
import type { ActivatedApi as ChainEndpointsApi } from '../../src/extension';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { ui } from './uiDriver';
import { activateExtension, bodyOf, closeAllEditors, getJson, headerOf, runForDocument, setProviders, sleep, waitFor, providerSettings } from './helpers';

const BECH32_ADDRESS = bech32Encode('cosmos', new Uint8Array(20).fill(1));

describe('Chain Endpoints in VS Code', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;
  let A: Devnet['providers'][number];

  before(async () => {
    devnet = await startDevnet({
      blockIntervalMs: 500,
      providers: [{ name: 'Devnet A' }, { name: 'Devnet B', lagBlocks: 2, restTrailingSlash: true }],
    });
    A = devnet.providers[0];
    await setProviders([
      ...providerSettings(devnet.providers),
      { name: 'Broken', rest: 'ftp://rest.example.org' },
      { name: 'Refused', evmRpc: 'http://127.0.0.1:1', rest: 'http://127.0.0.1:1' },
    ]);
    api = await activateExtension();
    await waitFor('three blocks', () => devnet.height() >= 3n);
  });

  after(async () => {
    await closeAllEditors();
    await devnet?.stop();
  });

  describe('the Providers tree', () => {
    it('shows providers, their interfaces with addresses, and the operations of each', async () => {
      const tree = await waitFor('the tree to show Devnet A', async () => {
        const t = await api.testing.treeSnapshot();
        return t.some((n) => n.label === 'Devnet A') ? t : undefined;
      });
      assert.deepEqual(
        tree.map((n) => n.label),
        ['Devnet A', 'Devnet B', 'Refused', 'Broken: invalid'],
      );
      const a = tree[0];
      const expected = [
        ['EVM RPC', A.evmRpc],
        ['Consensus HTTP', A.consensusHttp],
        ['Consensus RPC', A.consensusRpc],
        ['Consensus WebSocket', A.consensusWs],
        ['REST', A.rest],
      ];
      assert.deepEqual(
        a.children.map((c) => c.label),
        expected.map(([l]) => l),
      );
      // The description is the address, after the health summary once probed.
      a.children.forEach((c, i) => assert.ok(c.description?.endsWith(new URL(expected[i][1]).toString()), `${c.label}: ${c.description}`));
      const evm = a.children[0].children.map((c) => c.label);
      assert.ok(evm.includes('eth_blockNumber') && evm.includes('eth_sendRawTransaction'), evm.join(','));
      const op = a.children[2].children.find((c) => c.label === 'block')!;
      assert.equal(op.command, 'chainEndpoints.consensus.block');
      assert.equal(op.contextValue, 'operation');
      assert.deepEqual(
        tree[2].children.map((c) => c.label),
        ['EVM RPC', 'REST'],
      );
      const broken = tree[3];
      assert.equal(broken.contextValue, 'problem');
      assert.match(broken.description ?? '', /REST address must start with http:\/\/ or https:\/\//);
    });

    it('refreshes when the setting changes', async () => {
      const config = vscode.workspace.getConfiguration('chainEndpoints');
      const before = config.get<unknown[]>('providers')!;
      await setProviders([...before, { name: 'Added later', rest: A.rest }]);
      await waitFor('the new provider in the tree', async () => (await api.testing.treeSnapshot()).some((n) => n.label === 'Added later'));
      await setProviders(before);
      await waitFor('the provider to go away', async () => !(await api.testing.treeSnapshot()).some((n) => n.label === 'Added later'));
    });
  });

  describe('commands open read-only JSON documents', () => {
    afterEach(closeAllEditors);

    async function checkDocument(command: string, arg: unknown) {
      const r = await runForDocument(command, arg);
      assert.equal(r.uri.scheme, 'chain-endpoints', `${command}: ${r.uri.toString()}`);
      assert.equal(r.doc.languageId, 'json');
      assert.equal(r.doc.isUntitled, false);
      assert.equal(vscode.workspace.fs.isWritableFileSystem(r.uri.scheme), false, 'the scheme must be read-only');
      const header = headerOf(r.text);
      assert.ok(
        header.some((l) => /^\/\/ (GET|POST|WS) /.test(l)),
        `no request line in ${header.join('\n')}`,
      );
      assert.ok(
        header.some((l) => /\d+ ms/.test(l)),
        'no latency',
      );
      return { ...r, header, body: bodyOf(r.text) as Record<string, any> };
    }

    it('evm.blockNumber: the hex quantity and its decimal value; typing in it changes nothing', async () => {
      const { body, header, doc, text } = await checkDocument('chainEndpoints.evm.blockNumber', { provider: 'Devnet A' });
      if (ui.available) {
        await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
        await ui.type('typed by a user');
        await sleep(300);
        assert.equal(doc.getText(), text, 'the editor must refuse typing');
        assert.equal(doc.isDirty, false);
      }
      assert.match(body.result, /^0x[0-9a-f]+$/);
      assert.ok(header.includes(`// result: ${body.result} = ${BigInt(body.result)} (decimal)`), header.join('\n'));
      const req = devnet
        .lastRequests('Devnet A')
        .filter((r) => r.iface === 'evmRpc')
        .at(-1)!;
      assert.deepEqual(Object.keys(JSON.parse(req.body)), ['jsonrpc', 'method', 'params', 'id']);
    });

    it('consensus.block at a height equals what the node serves', async () => {
      const { body } = await checkDocument('chainEndpoints.consensus.block', { provider: 'Devnet A', height: '2' });
      const direct = (await getJson(`${A.consensusHttp.replace(/\/$/, '')}/block?height=2`)) as any;
      assert.deepEqual(body.result, direct.result);
      const req = devnet
        .lastRequests('Devnet A')
        .filter((r) => r.method === 'POST' && r.iface === 'consensus')
        .at(-1)!;
      const sent = JSON.parse(req.body);
      assert.equal(sent.method, 'block');
      assert.deepEqual(sent.params, ['2']);
      assert.equal(sent.jsonrpc, '2.0');
      assert.ok(Number.isInteger(sent.id));
    });

    it('consensus.genesis and rest.latestBlock', async () => {
      const g = await checkDocument('chainEndpoints.consensus.genesis', { provider: 'Devnet A' });
      assert.deepEqual(g.body.result.genesis, JSON.parse(devnet.genesisBytes().toString('utf8')));
      const b = await checkDocument('chainEndpoints.rest.latestBlock', { provider: 'Devnet B' });
      assert.ok(b.body.block?.header?.height, 'REST block with a header height');
      const req = devnet
        .lastRequests('Devnet B')
        .filter((r) => r.iface === 'rest')
        .at(-1)!;
      assert.equal(req.path, '/cosmos/base/tendermint/v1beta1/blocks/latest');
    });

    it('every other read-only operation, with its arguments', async () => {
      const height = String(devnet.height() - 1n);
      const cases: [string, Record<string, string>][] = [
        ['evm.chainId', {}],
        ['evm.getBlockByNumber', { height }],
        ['evm.getBlockByNumber', {}],
        ['evm.getTransactionByHash', { hash: '0x' + 'ab'.repeat(32) }],
        ['evm.getBalance', { address: '0x' + '12'.repeat(20) }],
        ['evm.custom', { method: 'net_version', params: '[]' }],
        ['consensusHttp.status', {}],
        ['consensusHttp.validators', {}],
        ['consensusHttp.validators', { height }],
        ['consensusHttp.block', { height }],
        ['consensusHttp.custom', { path: '/abci_info' }],
        ['consensusRpc.status', {}],
        ['consensusRpc.validators', { height }],
        ['consensusRpc.custom', { method: 'header', params: `["${height}"]` }],
        ['consensusWs.subscribeNewBlocks', { count: '2' }],
        ['consensusWs.custom', { method: 'status', params: '{}' }],
        ['rest.blockByHeight', { height }],
        ['rest.nodeInfo', {}],
        ['rest.syncing', {}],
        ['rest.validatorSetsLatest', {}],
        ['rest.balances', { address: BECH32_ADDRESS }],
        ['rest.custom', { path: '/cosmos/base/tendermint/v1beta1/syncing' }],
      ];
      for (const [id, args] of cases) {
        const { body, header } = await checkDocument(`chainEndpoints.${id}`, { provider: 'Devnet A', ...args });
        assert.ok(!header.some((l) => l.startsWith('// ERROR')), `${id} failed: ${header.join('\n')}`);
        assert.ok(body !== undefined, id);
      }
      // The receipt of an unknown tx is an error on Cosmos EVM (and the devnet), not null.
      const receipt = await checkDocument('chainEndpoints.evm.getTransactionReceipt', { provider: 'Devnet A', hash: '0x' + 'ab'.repeat(32) });
      assert.ok(
        receipt.header.some((l) => l.startsWith('// ERROR')),
        receipt.header.join('\n'),
      );
    });

    it('broadcast_tx_sync sends once, and the tx lands in a block', async () => {
      const tx = Buffer.from(`it-key-${Date.now()}=value`).toString('base64');
      const { body } = await checkDocument('chainEndpoints.consensusRpc.broadcastTxSync', { provider: 'Devnet A', tx, confirmed: true });
      assert.equal(body.result.code, 0);
      const hash = body.result.hash as string;
      const found = await waitFor('the tx in a block', async () => {
        const r = (await getJson(`${A.consensusHttp.replace(/\/$/, '')}/tx?hash=0x${hash}`)) as any;
        return r.result?.height ? r.result : undefined;
      });
      assert.ok(BigInt(found.height) > 0n);
      const rest = await checkDocument('chainEndpoints.rest.tx', { provider: 'Devnet A', hash });
      assert.ok(rest.body.tx_response || rest.body.tx, 'REST finds the tx');
    });
  });

  describe('failures open a document led by one clear sentence', () => {
    afterEach(closeAllEditors);

    it('a height past the tip', async () => {
      const { text } = await runForDocument('chainEndpoints.consensus.block', { provider: 'Devnet A', height: String(devnet.height() + 1000n) });
      assert.match(
        text.split('\n')[0],
        /^\/\/ ERROR: JSON-RPC error -32603 Internal error: height \d+ must be less than or equal to the current blockchain height \d+/,
      );
      assert.doesNotThrow(() => bodyOf(text));
    });

    it('an unknown method', async () => {
      const { text } = await runForDocument('chainEndpoints.evm.custom', { provider: 'Devnet A', method: 'eth_doesNotExist' });
      assert.match(text.split('\n')[0], /^\/\/ ERROR: JSON-RPC error -32601/);
    });

    it('a server that answers an HTML 502 page', async () => {
      await devnet.setFault('Devnet A', 'rest', {
        kind: 'status',
        status: 502,
        contentType: 'text/html',
        body: '<html><body><h1>502 Bad Gateway</h1>nginx</body></html>',
      });
      try {
        const { text } = await runForDocument('chainEndpoints.rest.latestBlock', { provider: 'Devnet A' });
        assert.match(text.split('\n')[0], /^\/\/ ERROR: HTTP 502 Bad Gateway from .*: the server answered with an HTML page\./);
        const body = bodyOf(text) as Record<string, unknown>;
        assert.equal(body.status, 502);
        assert.match(String(body.bodyPreview), /502 Bad Gateway/);
      } finally {
        await devnet.setFault('Devnet A', 'rest', undefined);
      }
    });

    it('a refused connection', async () => {
      const { text } = await runForDocument('chainEndpoints.evm.blockNumber', { provider: 'Refused' });
      assert.match(text.split('\n')[0], /^\/\/ ERROR: Could not reach http:\/\/127\.0\.0\.1:1\/?: connection refused/);
    });

    it('invalid input is refused and nothing is sent', async () => {
      const before = devnet.lastRequests('Devnet A').length;
      for (const height of ['abc', '0', '-1', '1.5', '9223372036854775808']) {
        const uri = await vscode.commands.executeCommand('chainEndpoints.consensus.block', { provider: 'Devnet A', height });
        assert.equal(uri, undefined, `height ${height} should be refused`);
      }
      const unknown = await vscode.commands.executeCommand('chainEndpoints.evm.blockNumber', { provider: 'Nobody' });
      assert.equal(unknown, undefined);
      assert.equal(devnet.lastRequests('Devnet A').length, before);
    });
  });

  describe('the palette path', () => {
    afterEach(closeAllEditors);

    it('asks for the provider when run without an argument', async () => {
      const pending = vscode.commands.executeCommand<vscode.Uri | undefined>('chainEndpoints.evm.blockNumber');
      await sleep(800);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const uri = await pending;
      assert.ok(uri instanceof vscode.Uri, 'a document after picking the first provider');
      const text = (await vscode.workspace.openTextDocument(uri)).getText();
      // The first item is the network's best provider or the one used last (ui/providers/providerPicks.ts): a devnet provider.
      assert.match(text, /EVM RPC · eth_blockNumber · Devnet [AB]\n/);
    });

    it('cancelling the pick returns undefined and opens nothing', async () => {
      const pending = vscode.commands.executeCommand<vscode.Uri | undefined>('chainEndpoints.rest.latestBlock');
      await sleep(800);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(await pending, undefined);
    });
  });

  describe("behind a proxy (the editor's http.proxy setting)", () => {
    // A forward proxy that alone knows the name `devnet.invalid` (Devnet A's EVM port): an answer
    // proves the request went through it.
    let proxy: import('node:http').Server;
    const seen: string[] = [];

    before(async () => {
      const http = await import('node:http');
      const evmPort = Number(new URL(A.evmRpc).port);
      proxy = http.createServer((req, res) => {
        seen.push(`${req.method} ${req.url}`);
        const target = new URL(req.url ?? '/');
        if (target.hostname !== 'devnet.invalid') {
          res.writeHead(502);
          res.end();
          return;
        }
        const upstream = http.request({ host: '127.0.0.1', port: evmPort, method: req.method, path: target.pathname, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        req.pipe(upstream);
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const current = vscode.workspace.getConfiguration('chainEndpoints').get<unknown[]>('providers')!;
      await setProviders([...current, { name: 'Behind proxy', evmRpc: 'http://devnet.invalid:8545' }]);
    });
    after(async () => {
      await vscode.workspace.getConfiguration('http').update('proxy', undefined, vscode.ConfigurationTarget.Global);
      proxy?.close();
      await closeAllEditors();
    });

    it('requests go through http.proxy as soon as it is set, and directly again once it is cleared', async () => {
      const port = (proxy.address() as import('node:net').AddressInfo).port;
      await vscode.workspace.getConfiguration('http').update('proxy', `http://127.0.0.1:${port}`, vscode.ConfigurationTarget.Global);
      const { text } = await runForDocument('chainEndpoints.evm.blockNumber', { provider: 'Behind proxy' });
      assert.match(headerOf(text).join('\n'), /HTTP 200 OK/);
      assert.match(String((bodyOf(text) as { result?: unknown }).result), /^0x[0-9a-f]+$/);
      assert.deepEqual(seen, ['POST http://devnet.invalid:8545/']);

      await vscode.workspace.getConfiguration('http').update('proxy', undefined, vscode.ConfigurationTarget.Global);
      const direct = await runForDocument('chainEndpoints.evm.blockNumber', { provider: 'Behind proxy' });
      assert.match(direct.text, /^\/\/ ERROR: Could not reach http:\/\/devnet\.invalid:8545\/: DNS lookup failed/);
      assert.equal(seen.length, 1, 'nothing more went through the proxy');
    });
  });

  describe('large answers', () => {
    // A plain server streaming fixed bodies without a content-length, as CometBFT does for large
    // answers: one of about 8 MB (a 17 MB document) and one of about 30 MB (a 64 MB document,
    // past the 50 MB the editor syncs to extensions).
    let server: import('node:http').Server;
    let url = '';
    const bodies = new Map<string, Buffer>();
    const answer = (size: number) => {
      const txs: string[] = [];
      for (let i = 0, n = 0; n < size; i++) {
        const tx = JSON.stringify({ code: 0, gas_used: String(1000 + i), events: [{ type: 'transfer', attributes: [{ key: 'amount', value: `${i}uatom` }] }] });
        txs.push(tx);
        n += tx.length + 1;
      }
      return Buffer.from(`{"jsonrpc":"2.0","id":-1,"result":{"height":"7","txs_results":[${txs.join(',')}]}}`);
    };

    before(async () => {
      const http = await import('node:http');
      bodies.set('/medium', answer(8 * 1024 * 1024));
      bodies.set('/huge', answer(30 * 1024 * 1024));
      server = http.createServer((req, res) => {
        const body = bodies.get(req.url ?? '') ?? Buffer.from('{}');
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let at = 0; at < body.length; at += 256 * 1024) res.write(body.subarray(at, at + 256 * 1024));
        res.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
      const current = vscode.workspace.getConfiguration('chainEndpoints').get<unknown[]>('providers')!;
      await setProviders([...current, { name: 'Large', rest: url }]);
      await vscode.workspace.getConfiguration('chainEndpoints').update('maxDocumentMegabytes', 64, vscode.ConfigurationTarget.Global);
    });
    after(async () => {
      await vscode.workspace.getConfiguration('chainEndpoints').update('maxDocumentMegabytes', undefined, vscode.ConfigurationTarget.Global);
      server?.close();
      await closeAllEditors();
    });

    const expected = (path: string) => JSON.stringify(JSON.parse(bodies.get(path)!.toString('utf8')), null, 2);

    it('an 8 MB answer opens as a document, formatted', async () => {
      const { text } = await runForDocument('chainEndpoints.rest.custom', { provider: 'Large', path: '/medium' });
      assert.equal(text.replace(/^(\/\/[^\n]*\n)+/, ''), expected('/medium') + '\n');
      assert.match(headerOf(text).join('\n'), /HTTP 200 OK · \d+ ms · 8\.\d MB/);
    });

    it('a 30 MB answer (a 64 MB document) opens in an editor, though the editor gives extensions no text past 50 MB', async () => {
      const uri = await vscode.commands.executeCommand<vscode.Uri>('chainEndpoints.rest.custom', { provider: 'Large', path: '/huge' });
      assert.ok(uri instanceof vscode.Uri, 'the command returns the document it opened');
      const tab = await waitFor('the editor of the result', () => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return input instanceof vscode.TabInputText && input.uri.toString() === uri.toString() ? input : undefined;
      });
      assert.ok(tab);
      const data = Buffer.from(await vscode.workspace.fs.readFile(uri));
      assert.ok(data.length > 50 * 1024 * 1024, `${data.length} bytes`);
      const text = data.toString('utf8');
      assert.equal(text.replace(/^(\/\/[^\n]*\n)+/, ''), expected('/huge') + '\n');
      if (ui.available) await ui.screenshot('large-document.png');
    });
  });

  describe('chunked genesis', () => {
    it('reassembles genesis_chunked on disk, byte for byte', async () => {
      const big = await startDevnet({
        blockIntervalMs: 0,
        genesisAppStateBytes: 3 * 1024 * 1024,
        genesisChunkBytes: 512 * 1024,
        providers: [{ name: 'Big genesis' }],
      });
      try {
        const p = big.providers[0];
        const current = vscode.workspace.getConfiguration('chainEndpoints').get<unknown[]>('providers')!;
        await setProviders([...current, { name: 'Big genesis', consensusHttp: p.consensusHttp }]);
        const uri = await vscode.commands.executeCommand<vscode.Uri>('chainEndpoints.consensus.genesis', { provider: 'Big genesis' });
        assert.ok(uri instanceof vscode.Uri);
        assert.equal(uri.scheme, 'file');
        assert.ok(readFileSync(uri.fsPath).equals(big.genesisBytes()), 'the reassembled file equals the served genesis');
        await setProviders(current);
      } finally {
        await closeAllEditors();
        await big.stop();
      }
    });
  });
});
