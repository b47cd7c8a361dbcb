// The sample workspace `npm start` can open (examples/workspace): its Foundry artifacts are the
// fixture contracts' (scripts/contracts.mjs --check covers them), and its query file runs green
// against a fresh devnet with the CLI: the contracts' addresses and the first block's
// transactions are the same on every devnet start, and so is the second block's delegation
// through the staking precompile (receipt.chainq, issue #35).
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { receiptRunner } from '../../src/core/explorer/receipt/queryRunner';
import { runCli } from '../../src/core/queries/cli';
import { readAccountForQuery } from '../../src/core/explorer/account/accountFields';
import { type Devnet, PRUNED_NODE, localProviders, startDevnet } from './devnet';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const WORKSPACE = path.join(ROOT, 'examples', 'workspace');

describe('sample workspace (examples/workspace): the contracts query file against the devnet', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let dir: string;

  before(async () => {
    // The providers `npm run devnet` serves (on free ports): Local node (evmd-like), Local node v0.5 and
    // Pruned node (the last 10 heights), past that many blocks.
    devnet = await startDevnet({ realTxs: true, blockIntervalMs: 0, providers: localProviders(true) });
    while (devnet.height() < PRUNED_NODE.capabilities.keepRecent + 5n) devnet.produceBlock();
    dir = mkdtempSync(path.join(tmpdir(), 'ce-sample-'));
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ 'chainEndpoints.providers': devnet.providers }));
  });
  after(async () => {
    await devnet?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the addresses and hashes it names are the devnet fixtures', () => {
    const text = readFileSync(path.join(WORKSPACE, 'contracts.chainq'), 'utf8');
    const d = devnet.chain.ledger.fixtureDeployment;
    assert.ok(d);
    for (const v of [d.token, d.router, d.txs.route, d.txs.failedTransfer]) assert.ok(text.includes(v), `${v} in contracts.chainq`);
  });

  it("account.chainq names the devnet's dev keys (alice and bob)", async () => {
    const text = readFileSync(path.join(WORKSPACE, 'account.chainq'), 'utf8');
    for (const k of devnet.chain.ledger.keys.slice(0, 2)) assert.ok(text.includes(k.hex) || text.includes(k.bech32), `${k.name} in account.chainq`);
  });

  it("receipt.chainq names the devnet's precompile delegation (block 2) and its delegator", () => {
    const text = readFileSync(path.join(WORKSPACE, 'receipt.chainq'), 'utf8');
    const s = devnet.chain.ledger.receiptSample;
    assert.ok(s);
    const t = devnet.chain.txByEvmHash(s.evmHash);
    assert.ok(t);
    assert.equal(t.height, 2n);
    for (const v of [s.evmHash, t.hash, s.delegator.hex]) assert.ok(text.includes(v), `${v} in receipt.chainq`);
  });

  it('its settings list the providers `npm run devnet` serves: Local node, Local node v0.5 and Pruned node, on their ports, one chain', () => {
    const text = readFileSync(path.join(WORKSPACE, '.vscode', 'settings.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const providers = (JSON.parse(text) as Record<string, Array<Record<string, string>>>)['chainEndpoints.providers'];
    assert.deepEqual(
      providers.map((p) => p.name),
      ['Local node', 'Local node v0.5', 'Pruned node'],
    );
    const pruned = providers[2];
    assert.equal(pruned.evmRpc, `http://127.0.0.1:${PRUNED_NODE.ports.evmRpc}`);
    assert.equal(pruned.consensusHttp, `http://127.0.0.1:${PRUNED_NODE.ports.consensus}`);
    assert.equal(pruned.rest, `http://127.0.0.1:${PRUNED_NODE.ports.rest}`);
    assert.equal(providers[0].rest, 'http://127.0.0.1:1317');
    for (const p of providers) assert.equal(p.chainId, devnet.chainId);
  });

  it("simulate.chainq names the devnet's token, dev keys and both providers; the workspace settings declare them on the devnet's ports", () => {
    const text = readFileSync(path.join(WORKSPACE, 'simulate.chainq'), 'utf8');
    const d = devnet.chain.ledger.fixtureDeployment;
    assert.ok(d);
    for (const v of [d.token, devnet.chain.ledger.keys[0].hex, devnet.chain.ledger.keys[1].hex]) assert.ok(text.includes(v), `${v} in simulate.chainq`);
    for (const name of ['provider: Local node\n', 'provider: Local node v0.5\n']) assert.ok(text.includes(name), name);
    // The settings (JSON with comments) name the providers on the ports localProviders() gives them.
    const settings = readFileSync(path.join(WORKSPACE, '.vscode', 'settings.json'), 'utf8');
    const withoutComments = settings.replace(/^\s*\/\/.*$/gm, '');
    const declared = (
      JSON.parse(withoutComments) as { 'chainEndpoints.providers': Array<{ name: string; evmRpc: string; consensusRpc: string; rest: string }> }
    )['chainEndpoints.providers'];
    const fixed = localProviders();
    assert.deepEqual(
      declared.map((p) => [p.name, p.evmRpc, p.consensusRpc, p.rest]),
      fixed.map((p) => [p.name, `http://127.0.0.1:${p.ports?.evmRpc}`, `http://127.0.0.1:${p.ports?.consensus}`, `http://127.0.0.1:${p.ports?.rest}`]),
    );
  });

  for (const file of ['contracts.chainq', 'receipt.chainq', 'account.chainq', 'simulate.chainq'])
    it(`${file} passes (exit 0)`, async () => {
      await runFile(file);
    });

  async function runFile(file: string): Promise<void> {
    let out = '';
    const code = await runCli(['run', path.join('examples', 'workspace', file), '--provider', 'Local node', '--providers', path.join(dir, 'settings.json')], {
      cwd: ROOT,
      env: {},
      // explorer.receipt's builder and explorer.account's reader, as src/cli.ts passes them.
      receipt: receiptRunner,
      account: readAccountForQuery,
      out: (t) => (out += t),
      err: (t) => (out += t),
    });
    assert.equal(code, 0, out);
    assert.match(out, /PASSED: \d+ passed, 0 failed/);
  }
});
