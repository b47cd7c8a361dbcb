// The sample workspace `npm start` can open (examples/workspace): its Foundry artifacts are the
// fixture contracts' (scripts/contracts.mjs --check covers them), and its query file runs green
// against a fresh devnet with the CLI: the contracts' addresses and the first block's
// transactions are the same on every devnet start.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/core/queries/cli';
import { readAccountForQuery } from '../../src/core/explorer/account/accountFields';
import { type Devnet, startDevnet } from './devnet';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const WORKSPACE = path.join(ROOT, 'examples', 'workspace');

describe('sample workspace (examples/workspace): the contracts query file against the devnet', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let dir: string;

  before(async () => {
    devnet = await startDevnet({ realTxs: true, blockIntervalMs: 0 });
    devnet.produceBlock();
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

  it('account.chainq passes (exit 0): the account page of alice and bob, through the CLI', async () => {
    const text = readFileSync(path.join(WORKSPACE, 'account.chainq'), 'utf8');
    for (const k of devnet.chain.ledger.keys.slice(0, 2)) assert.ok(text.includes(k.hex) || text.includes(k.bech32), `${k.name} in account.chainq`);
    let out = '';
    const code = await runCli(
      ['run', path.join('examples', 'workspace', 'account.chainq'), '--provider', 'Local node', '--providers', path.join(dir, 'settings.json')],
      { cwd: ROOT, env: {}, out: (t) => (out += t), err: (t) => (out += t), account: readAccountForQuery },
    );
    assert.equal(code, 0, out);
    assert.match(out, /PASSED: \d+ passed, 0 failed/);
  });

  it('contracts.chainq passes (exit 0)', async () => {
    let out = '';
    const code = await runCli(
      ['run', path.join('examples', 'workspace', 'contracts.chainq'), '--provider', 'Local node', '--providers', path.join(dir, 'settings.json')],
      {
        cwd: ROOT,
        env: {},
        out: (t) => (out += t),
        err: (t) => (out += t),
      },
    );
    assert.equal(code, 0, out);
    assert.match(out, /PASSED: \d+ passed, 0 failed/);
  });
});
