// Contracts in the editor against a small loopback EVM node: Call Contract… to its document, the
// API's callContract() and decode(), and Look Up of a transaction whose logs, revert and call trace
// are decoded with the built-in ABIs (no workspace artifacts). Then the devnet's failed fixture
// transfer, looked up with the sample workspace's artifacts (examples/workspace/out).
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import * as vscode from 'vscode';
import { encodeAbiParameters, encodeFunctionData, erc20Abi } from 'viem';
import type { ChainEndpointsApi } from '../../src/api';
import { ALICE, BOB, ROUTER, TOKEN, TOKEN_ABI, evmdTrace } from '../unit/core/contracts/fixtures';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { EXTENSION_ID, closeAllEditors, providerSettings, runForDocument, setProviders } from './helpers';
import { ui } from './uiDriver';

const PROVIDER = 'Contracts node';
const HASH = `0x${'cd'.repeat(32)}`;
const DEVNET = 'Contracts devnet';

function answer(method: string, params: unknown[]): unknown {
  const trace = evmdTrace(true);
  switch (method) {
    case 'eth_call':
      return encodeAbiParameters([{ type: 'uint256' }], [750n]);
    case 'eth_estimateGas':
      return '0x5e4d';
    case 'eth_getCode':
      return '0x';
    case 'eth_getTransactionByHash':
      return params[0] === HASH
        ? { hash: HASH, from: ALICE, to: ROUTER, value: '0x0', input: trace.input, nonce: '0x1', gas: '0x2dc6c0', blockNumber: '0x5', type: '0x2' }
        : null;
    case 'eth_getTransactionReceipt':
      return { status: '0x0', gasUsed: '0x16e360', logs: [] };
    case 'debug_traceTransaction':
      return trace;
    default:
      return null;
  }
}

describe('Contracts: Call Contract… and decoded transactions', function () {
  this.timeout(60_000);
  let server: http.Server;
  let api: ChainEndpointsApi;

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const m = JSON.parse(body) as { id: number; method: string; params: unknown[] };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: answer(m.method, m.params) }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await setProviders([{ name: PROVIDER, evmRpc: url }]);
    api = (await vscode.extensions.getExtension<ChainEndpointsApi>(EXTENSION_ID)!.activate())!;
  });
  after(async () => {
    await closeAllEditors();
    server.close();
  });

  it('Call Contract… opens the decoded outputs and the gas estimate; the API returns the same result', async () => {
    const doc = await runForDocument('chainEndpoints.evm.callContract', {
      provider: PROVIDER,
      address: TOKEN,
      function: 'balanceOf(address)(uint256)',
      args: [BOB],
    });
    assert.equal(doc.doc.languageId, 'markdown');
    assert.match(doc.text, /## Result\n\n- output 0 \(uint256\): `750`/);
    assert.match(doc.text, /- eth_estimateGas: 24141/);
    const r = await api.callContract({ provider: PROVIDER, address: TOKEN, function: 'balanceOf', args: [BOB] });
    assert.equal(r.result, undefined, 'a name needs a known ABI');
    assert.match(r.error ?? '', /give the signature/);
    const ok = await api.callContract({ provider: PROVIDER, address: TOKEN, function: 'balanceOf(address)', args: [BOB] });
    assert.equal(ok.raw, encodeAbiParameters([{ type: 'uint256' }], [750n]));
  });

  it('Call Contract chooses its provider as every operation does: "best", any case, and the router\'s refusals', async () => {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await setProviders([
      { name: PROVIDER, evmRpc: url },
      { name: 'No EVM here', consensusRpc: 'http://127.0.0.1:9' },
    ]);
    try {
      const call = { address: TOKEN, function: 'balanceOf(address)', args: [BOB] };
      // "best" and a name in another case reach the only EVM provider; nothing named too (the only one).
      for (const provider of ['best', PROVIDER.toUpperCase(), undefined]) {
        const r = await api.callContract({ provider, ...call });
        assert.equal(r.raw, encodeAbiParameters([{ type: 'uint256' }], [750n]), String(provider));
      }
      await assert.rejects(api.callContract({ provider: 'Nobody', ...call }), /No provider named "Nobody"\. Configured providers: .*"No EVM here"/);
      await assert.rejects(api.callContract({ provider: 'no evm here', ...call }), /Provider "No EVM here" has no EVM RPC address\./);
      await assert.rejects(api.decode({ data: '0x', provider: 'no evm here' }), /has no EVM RPC address/);
      // The command refuses the same way, before any prompt: nothing opens, the notification says why.
      assert.ok(ui.available, 'this test reads the notification through the UI driver (npm test runs it)');
      await vscode.commands.executeCommand('notifications.clearAll');
      assert.equal(await vscode.commands.executeCommand('chainEndpoints.evm.callContract', { provider: 'no evm here', ...call }), undefined);
      await vscode.commands.executeCommand('notifications.showList');
      const toast = '.notification-list-item:visible:has-text("has no EVM RPC address")';
      await ui.waitFor(toast, 10_000);
      assert.match(await ui.text(`${toast} .notification-list-item-message`), /Provider "No EVM here" has no EVM RPC address\./);
      await vscode.commands.executeCommand('notifications.clearAll');
    } finally {
      await setProviders([{ name: PROVIDER, evmRpc: url }]);
    }
  });

  it('decode(): a standard call, and a custom error from the bundled table marked guessed', async () => {
    const d = await api.decode({ data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [BOB, 5n] }) });
    assert.equal(d.kind, 'function');
    assert.equal(d.signature, 'transfer(address,uint256)');
    assert.equal(d.source, 'standard ERC-20 ABI');
    const e = await api.decode({ data: evmdTrace(true).output });
    assert.equal(e.kind, 'error');
    assert.equal(e.guessed, true);
    assert.deepEqual(
      e.args?.map((a) => a.value),
      ['100', '250'],
    );
    void TOKEN_ABI;
  });

  it('Look Up of a failed transaction: its revert from the trace, and its call tree', async () => {
    const doc = await runForDocument('chainEndpoints.lookUp', { provider: PROVIDER, query: HASH });
    assert.match(doc.text, /- revert: InsufficientBalance\(balance=`100`, needed=`250`\)/);
    assert.match(doc.text, /Call trace \(2 frame\(s\)\)/);
    assert.match(doc.text, /transfer\(recipient=`0xbBbB/);
  });
});

describe("Contracts: the devnet's failed fixture transaction with the sample workspace's artifacts", function () {
  this.timeout(120_000);
  let devnet: Devnet;
  // examples/workspace/out copied into the test workspace (under a folder of its own, removed after).
  const copy = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'workspace', 'sample-artifacts');

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 300, realTxs: true, providers: [{ name: DEVNET }] });
    await setProviders(providerSettings(devnet.providers));
    fs.cpSync(path.join(__dirname, '..', '..', '..', 'examples', 'workspace', 'out'), path.join(copy, 'out'), { recursive: true });
    // The session's registry re-reads the artifacts on a file event or on a change of chainEndpoints.contracts;
    // file events are not certain to arrive in time in code-server, so the setting is touched as well.
    await vscode.workspace.getConfiguration('chainEndpoints').update('contracts', [], vscode.ConfigurationTarget.Global);
    while (devnet.height() < 2n) await new Promise((r) => setTimeout(r, 100));
  });
  after(async () => {
    await closeAllEditors();
    fs.rmSync(copy, { recursive: true, force: true });
    await vscode.workspace.getConfiguration('chainEndpoints').update('contracts', undefined, vscode.ConfigurationTarget.Global);
    await devnet?.stop();
  });

  it('Look Up of the failed transfer: InsufficientBalance(available, required) by the FixtureToken artifact, from the trace', async () => {
    const f = devnet.chain.ledger.fixtureDeployment;
    assert.ok(f, 'the devnet deployed the fixture contracts');
    // In case the registry re-read before the copy was visible: look up again until the contract is named, for at most 20 s.
    const deadline = Date.now() + 20_000;
    let doc = await runForDocument('chainEndpoints.lookUp', { provider: DEVNET, query: f.txs.failedTransfer });
    while (!/- contract: FixtureToken/.test(doc.text) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      doc = await runForDocument('chainEndpoints.lookUp', { provider: DEVNET, query: f.txs.failedTransfer });
    }
    assert.match(doc.text, /- status: failed/);
    assert.match(doc.text, /- contract: FixtureToken \(ABI: `workspace artifact [^`]*out\/FixtureToken\.sol\/FixtureToken\.json \(runtime code matched\)`\)/);
    assert.match(doc.text, /- call: `transfer\(address,uint256\)` · FixtureToken/);
    assert.match(doc.text, /- revert: InsufficientBalance\(available=`250000000000000000000`.*required=`1000000000000000000000`.*FixtureToken\.json/);
  });
});
