// Running an operation (src/ui/requests/runOperation.ts) through the runner, on the devnet, with the
// vscode stub: the API's run() (an answer as plain data; a state-changing request refused unless
// `confirmed: true`, and sent once it is; an unknown provider or operation, or no provider among
// several, refused before anything is sent) and the command (the result document and its History
// record; the broadcast's modal declined: nothing sent, nothing shown).
import { runningProgress, vscodeStub } from '../../helpers/vscodeStub'; // first: answers require('vscode')
import * as assert from 'node:assert/strict';
import { LocalizedError } from '../../../../src/core/base/errors';
import { findOperation } from '../../../../src/core/chain/operations';
import { HttpClient } from '../../../../src/core/transport/http';
import { Unconfirmed } from '../../../../src/ui/requests/run';
import { runForApi, runOperation } from '../../../../src/ui/requests/runOperation';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { type TestDeps, commandDeps } from '../../helpers/commandDeps';

const RAW_TX = '0x02f86c0180843b9aca00847735940082520894000000000000000000000000000000000000000180c0';

describe('ui/requests/runOperation: run() and the command through the runner (devnet)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  let t: TestDeps;
  const entry = (name: string) => {
    const u = devnet.providers.find((p) => p.name === name)!;
    return { name, network: 'devnet', evmRpc: u.evmRpc, consensusHttp: u.consensusHttp, rest: u.rest };
  };
  /** The JSON-RPC methods and paths a provider received since the test began. */
  let mark: Record<string, number>;
  const received = (name: string) =>
    devnet
      .lastRequests(name)
      .slice(mark[name])
      .map((r) => (r.iface === 'evmRpc' ? (JSON.parse(r.body) as { method: string }).method : r.path));

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 0, providers: [{ name: 'alpha' }, { name: 'beta' }] });
    devnet.produceBlock();
    devnet.produceBlock();
    devnet.produceBlock();
    http = new HttpClient();
  });
  after(async () => {
    await http.close();
    await devnet.stop();
  });
  beforeEach(() => {
    vscodeStub.reset({ user: { providers: [entry('alpha'), entry('beta')] } });
    t = commandDeps(http);
    mark = { alpha: devnet.lastRequests('alpha').length, beta: devnet.lastRequests('beta').length };
  });
  afterEach(() => t.dispose());

  it('run(): the answer as data, on the provider named, logged by the runner', async () => {
    const r = await runForApi(t.deps, 'evm.blockNumber', { provider: 'beta' });
    assert.equal(r.error, undefined);
    assert.equal(r.status, 200);
    assert.equal(r.result, `0x${devnet.height().toString(16)}`);
    assert.equal(r.request.method, 'POST');
    assert.deepEqual(received('beta'), ['eth_blockNumber']);
    assert.deepEqual(received('alpha'), []);
    assert.ok(
      t.lines.some((l) => /^info \[request\] evm\.blockNumber POST http:\/\/127\.0\.0\.1:\d+\/? -> 200 /.test(l)),
      t.lines.join('\n'),
    );
  });

  it('run(): parameters by name (a block at a height)', async () => {
    const r = await runForApi(t.deps, 'consensusHttp.block', { provider: 'alpha', params: { height: '2' } });
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal((r.result as { block: { header: { height: string } } }).block.header.height, '2');
    assert.deepEqual(received('alpha'), ['/block?height=2']);
  });

  it('run(): a state-changing request is refused without confirmed: true (nothing sent), sent with it', async () => {
    await assert.rejects(runForApi(t.deps, 'evm.sendRawTransaction', { provider: 'alpha', params: { tx: RAW_TX } }), (err: unknown) => {
      assert.ok(err instanceof Unconfirmed);
      assert.match(err.message, /pass \{ confirmed: true \} to send it\.$/);
      return true;
    });
    await assert.rejects(runForApi(t.deps, 'evm.sendRawTransaction', { provider: 'alpha', params: { tx: RAW_TX }, confirmed: 'yes' as never }), Unconfirmed);
    assert.deepEqual(received('alpha'), [], 'nothing was sent');
    const sent = await runForApi(t.deps, 'evm.sendRawTransaction', { provider: 'alpha', params: { tx: RAW_TX }, confirmed: true });
    assert.deepEqual(received('alpha'), ['eth_sendRawTransaction']);
    assert.equal(sent.request.method, 'POST');
    assert.ok(sent.request.body?.includes(RAW_TX));
  });

  it('run(): an unknown provider, an unknown operation, no provider among several: refused, nothing sent', async () => {
    await assert.rejects(runForApi(t.deps, 'evm.blockNumber', { provider: 'gamma' }), (err: unknown) => {
      assert.ok(err instanceof LocalizedError);
      assert.equal(err.message, 'No provider named "gamma". Configured providers: "alpha", "beta".');
      return true;
    });
    await assert.rejects(runForApi(t.deps, 'evm.noSuchThing', { provider: 'alpha' }), /^Error: Unknown operation "evm\.noSuchThing": see operations\(\)\.$/);
    await assert.rejects(runForApi(t.deps, 'evm.blockNumber', {} as never), /^Error: run\(\) needs \{ provider \}/);
    assert.deepEqual([...received('alpha'), ...received('beta')], []);
  });

  it('run(): "best" of a network runs on one of its providers', async () => {
    const elsewhere = { name: 'elsewhere', network: 'other', evmRpc: 'http://127.0.0.1:9' };
    vscodeStub.reset({ user: { providers: [elsewhere, entry('alpha')] } });
    const r = await runForApi(t.deps, 'evm.blockNumber', { provider: 'best', network: 'devnet' });
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(received('alpha'), ['eth_blockNumber']);
  });

  it('the command: the result document (named after the operation) and its History record', async () => {
    vscodeStub.script({ withProgress: runningProgress() });
    const uri = await runOperation(t.deps, findOperation('evm.blockNumber')!, { provider: 'alpha' });
    assert.ok(uri);
    assert.equal(t.shown.length, 1);
    assert.match(t.shown[0].uri.path, /^\/alpha\//);
    assert.ok(t.shown[0].text.includes(`0x${devnet.height().toString(16)}`), t.shown[0].text);
    assert.deepEqual(t.history, ['record evm.blockNumber']);
    assert.deepEqual(received('alpha'), ['eth_blockNumber']);
  });

  it('the command: a broadcast asks first (masked modal); declined, nothing is sent or shown', async () => {
    const asked: string[] = [];
    vscodeStub.script({
      withProgress: runningProgress(),
      showWarningMessage: ((message: string, options: { modal?: boolean; detail?: string }) => {
        asked.push(`${options.modal ? 'modal ' : ''}${message}\n${options.detail}`);
        return Promise.resolve(undefined); // dismissed
      }) as never,
    });
    const uri = await runOperation(t.deps, findOperation('evm.sendRawTransaction')!, { provider: 'alpha', tx: RAW_TX });
    assert.equal(uri, undefined);
    assert.equal(asked.length, 1);
    assert.match(asked[0], /^modal Send this transaction to alpha\?\nPOST http:\/\/127\.0\.0\.1:\d+/);
    assert.ok(asked[0].includes(RAW_TX), 'the request as it would be sent');
    assert.deepEqual(received('alpha'), []);
    assert.equal(t.shown.length, 0);
    assert.deepEqual(t.history, []);
  });
});
