// Look Up (src/ui/explorer/lookUp.ts) through the runner, on the devnet, with the vscode stub: the API's
// lookUp() for a height, a transaction hash and an address; its refusals (an unknown provider, several
// providers and none named, "best" without a network across two) before anything is sent; "best" of
// a network; a cancelled token stopping a lookup the provider never answers; and the command showing
// the result as a document and recording it in History.
import { vscodeStub, CancellationTokenSource, runningProgress } from '../../helpers/vscodeStub'; // first: answers require('vscode')
import * as assert from 'node:assert/strict';
import { LocalizedError } from '../../../../src/core/base/errors';
import { forgetContext } from '../../../../src/core/explorer/context';
import { HttpClient } from '../../../../src/core/transport/http';
import { lookUpCommand, lookUpForApi } from '../../../../src/ui/explorer/lookUp';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import type { FixtureDeployment } from '../../../devnet/fixtureTxs';
import { type TestDeps, commandDeps } from '../../helpers/commandDeps';

describe('ui/explorer/lookUp: Look Up through the runner (devnet)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  let t: TestDeps;
  let d: FixtureDeployment;
  /** Settings entries of the devnet's providers (all of network "devnet"). */
  const entry = (name: string) => {
    const u = devnet.providers.find((p) => p.name === name)!;
    return { name, network: 'devnet', evmRpc: u.evmRpc, consensusHttp: u.consensusHttp, rest: u.rest };
  };
  const sent = (name: string) => devnet.lastRequests(name).length;

  before(async () => {
    devnet = await startDevnet({ realTxs: true, blockIntervalMs: 0, providers: [{ name: 'alpha' }, { name: 'beta' }] });
    devnet.produceBlock();
    devnet.produceBlock();
    d = devnet.chain.ledger.fixtureDeployment as FixtureDeployment;
    http = new HttpClient();
  });
  after(async () => {
    await http.close();
    await devnet.stop();
  });
  beforeEach(() => {
    forgetContext();
    vscodeStub.reset({ user: { providers: [entry('alpha')] } });
    t = commandDeps(http);
  });
  afterEach(() => t.dispose());

  it('a height: the block, on the one provider configured, one log line for the lookup', async () => {
    const before = sent('beta');
    const r = await lookUpForApi(t.deps, '1');
    assert.equal(r.kind, 'block');
    assert.equal(r.provider, 'alpha');
    assert.equal((r as Extract<typeof r, { kind: 'block' }>).block.height, '1');
    assert.ok((r as Extract<typeof r, { kind: 'block' }>).block.txs.length >= 4, 'block 1 carries the fixture deployment');
    assert.equal(sent('beta'), before, 'nothing went to the provider not configured');
    assert.ok(
      t.lines.some((l) => /^info \[lookUp\] alpha 1: block in \d+ ms$/.test(l)),
      t.lines.join('\n'),
    );
    assert.ok(
      t.lines.some((l) => /^info \[lookUp\] \S+ \S+ http:\/\/127\.0\.0\.1:\d+\S* -> 200 /.test(l)),
      'each request logged by the runner',
    );
  });

  it('an EVM transaction hash: the transaction', async () => {
    const r = await lookUpForApi(t.deps, d.txs.transfer, { provider: 'alpha' });
    assert.equal(r.kind, 'tx', r.found);
    const tx = (r as Extract<typeof r, { kind: 'tx' }>).tx;
    assert.equal(tx.height, '1');
    assert.deepEqual(
      tx.evm.map((e) => e.hash.toLowerCase()),
      [d.txs.transfer.toLowerCase()],
      'read as the Cosmos transaction carrying that EVM transaction',
    );
  });

  it('an address: its balances', async () => {
    const alice = devnet.chain.ledger.keys[0];
    const r = await lookUpForApi(t.deps, alice.bech32, { provider: 'ALPHA' }); // a name in any case
    assert.equal(r.kind, 'address', r.found);
    const a = (r as Extract<typeof r, { kind: 'address' }>).address;
    assert.equal(a.forms.hex?.toLowerCase(), alice.hex.toLowerCase());
    assert.ok((a.balances ?? []).length > 0, 'the bank balances were read');
  });

  it('an unknown provider: the one sentence, nothing sent', async () => {
    vscodeStub.configure({ user: { providers: [entry('alpha'), entry('beta')] } });
    const before = sent('alpha') + sent('beta');
    await assert.rejects(lookUpForApi(t.deps, '1', { provider: 'gamma' }), (err: unknown) => {
      assert.ok(err instanceof LocalizedError);
      assert.equal(err.message, 'No provider named "gamma". Configured providers: "alpha", "beta".');
      return true;
    });
    assert.equal(sent('alpha') + sent('beta'), before);
  });

  it('several providers and none named: refused, nothing sent', async () => {
    vscodeStub.configure({ user: { providers: [entry('alpha'), entry('beta')] } });
    const before = sent('alpha') + sent('beta');
    await assert.rejects(lookUpForApi(t.deps, '1'), /^Error: lookUp needs \{ provider \} when several providers are configured/);
    assert.equal(sent('alpha') + sent('beta'), before);
  });

  it('"best" with a network: one of that network; "best" across two networks without one: refused', async () => {
    const elsewhere = { name: 'elsewhere', network: 'other', evmRpc: 'http://127.0.0.1:9', consensusHttp: 'http://127.0.0.1:9', rest: 'http://127.0.0.1:9' };
    vscodeStub.configure({ user: { providers: [elsewhere, entry('beta'), entry('alpha')] } });
    const r = await lookUpForApi(t.deps, '2', { provider: 'best', network: 'devnet' });
    assert.equal(r.kind, 'block');
    assert.ok(['alpha', 'beta'].includes(r.provider), r.provider);
    assert.ok(!t.lines.some((l) => l.includes('127.0.0.1:9')), 'nothing went to the other network');
    await assert.rejects(lookUpForApi(t.deps, '2', { provider: 'best' }), /network/);
  });

  it('a cancelled token stops a lookup the provider never answers', async function () {
    this.timeout(15_000);
    vscodeStub.configure({ user: { requestTimeoutSeconds: 600 } }); // only the cancellation can end it
    for (const iface of ['evmRpc', 'consensus', 'rest'] as const) await devnet.setFault('alpha', iface, { kind: 'hang' });
    try {
      const source = new CancellationTokenSource();
      const pending = lookUpForApi(t.deps, '1', { provider: 'alpha', token: source.token as never });
      let settled = false;
      pending.then(
        () => (settled = true),
        () => (settled = true),
      );
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(settled, false, 'still waiting for the provider');
      source.cancel();
      await assert.rejects(pending, (err: unknown) => {
        assert.ok(err instanceof LocalizedError);
        assert.match(err.message, /^Request to http:\/\/127\.0\.0\.1:\d+\/\S+ was cancelled\.$/);
        return true;
      });
    } finally {
      for (const iface of ['evmRpc', 'consensus', 'rest'] as const) await devnet.setFault('alpha', iface, undefined);
    }
  });

  it('the command: the result as a Markdown document, recorded in History', async () => {
    const reports: string[] = [];
    vscodeStub.script({ withProgress: runningProgress(reports) });
    const uri = await lookUpCommand(t.deps, { provider: 'alpha', query: '1' });
    assert.ok(uri);
    assert.equal(t.shown.length, 1);
    assert.equal(t.shown[0].language, 'markdown');
    assert.equal(t.shown[0].uri.path, '/alpha/Look Up 1.md');
    assert.match(t.shown[0].text, /\b1\b/);
    assert.deepEqual(t.history, ['lookUp alpha 1 found']);
  });

  it('bad input (the API and the command): its sentence, before anything is sent or shown', async () => {
    const before = sent('alpha');
    await assert.rejects(lookUpForApi(t.deps, 'not a query', { provider: 'alpha' }), LocalizedError);
    await assert.rejects(lookUpCommand(t.deps, { provider: 'alpha', query: 'not a query' }), LocalizedError);
    assert.equal(sent('alpha'), before);
    assert.equal(t.shown.length, 0);
  });
});
