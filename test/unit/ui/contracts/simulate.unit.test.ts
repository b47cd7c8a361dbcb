// Simulate (src/ui/contracts/simulate.ts) through the runner, on the devnet's fixture token, with the
// vscode stub: the API's simulate() on the engine each provider serves as its probed capabilities say
// (eth_simulateV1 on an anvil-like provider, eth_call on an evmd-like one, eth_call when nothing is
// known), decoded with the ABI of `chainEndpoints.contracts`, nothing mined; its refusals before
// anything is sent; a cancelled token.
import { CancellationTokenSource, vscodeStub } from '../../helpers/vscodeStub'; // first: answers require('vscode')
import * as assert from 'node:assert/strict';
import { LocalizedError } from '../../../../src/core/base/errors';
import { HttpClient } from '../../../../src/core/transport/http';
import { functionNameOf, simulateForApi } from '../../../../src/ui/contracts/simulate';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { ALL_ENGINES } from '../../../devnet/evm';
import { TOKEN_ABI } from '../../../devnet/fixtureContracts';
import type { FixtureDeployment } from '../../../devnet/fixtureTxs';
import type { Capabilities } from '../../../../src/core/health/capabilities';
import { type TestDeps, commandDeps } from '../../helpers/commandDeps';
import type { CommandDeps } from '../../../../src/ui/base/deps';

describe('ui/contracts/simulate: simulate() through the runner (devnet)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  let t: TestDeps;
  let d: FixtureDeployment;
  const entry = (name: string) => ({ name, network: 'devnet', evmRpc: devnet.providers.find((p) => p.name === name)!.evmRpc });
  let mark: Record<string, number>;
  const received = (name: string) =>
    devnet
      .lastRequests(name)
      .slice(mark[name])
      .map((r) => (JSON.parse(r.body) as { method: string }).method);

  before(async () => {
    devnet = await startDevnet({
      realTxs: true,
      blockIntervalMs: 0,
      providers: [{ name: 'anvil', capabilities: { engines: ALL_ENGINES } }, { name: 'evmd' }],
    });
    devnet.produceBlock();
    d = devnet.chain.ledger.fixtureDeployment as FixtureDeployment;
    http = new HttpClient();
  });
  after(async () => {
    await http.close();
    await devnet.stop();
  });
  beforeEach(() => {
    vscodeStub.reset({ user: { providers: [entry('anvil'), entry('evmd')], contracts: [{ address: d.token, abi: TOKEN_ABI, name: 'FixtureToken' }] } });
    mark = { anvil: devnet.lastRequests('anvil').length, evmd: devnet.lastRequests('evmd').length };
  });
  afterEach(() => t.dispose());

  const bob = () => devnet.chain.ledger.keys[1].hex;
  /** What the capability probes learnt (test/unit/core/contracts/simulate.unit.test.ts probes the same devnet). */
  const probed: Record<string, Capabilities> = {
    anvil: { provider: 'anvil', probedAt: 1, notes: [], costly: true, evm: { engines: { simulateV1: true, traceCall: true, callOverrides: true } } },
    evmd: { provider: 'evmd', probedAt: 1, notes: [], costly: true, evm: { engines: { simulateV1: false, traceCall: false, callOverrides: false } } },
  };
  let health: CommandDeps['health'];
  beforeEach(() => {
    health = { capabilities: (name) => probed[name], rows: () => [] };
    t = commandDeps(http, health);
  });

  const transfer = () => ({ address: d.token, function: 'transfer(address,uint256)', args: [bob(), '7'], from: d.deployer });

  it('eth_simulateV1 where served: the transfer decoded with its log, nothing mined', async () => {
    const height = devnet.height();
    const r = await simulateForApi(t.deps, { provider: 'anvil', ...transfer() });
    assert.equal(r.engine, 'eth_simulateV1');
    assert.equal(r.provider, 'anvil');
    assert.equal(r.ok, true);
    assert.equal(r.result, true);
    assert.equal(r.steps[0].contract, 'FixtureToken');
    assert.deepEqual(
      r.logs.map((l) => l.name),
      ['Transfer'],
    );
    assert.equal(devnet.height(), height);
    assert.deepEqual(received('anvil'), ['eth_simulateV1']);
    assert.deepEqual(received('evmd'), []);
    assert.ok(
      t.lines.some((l) => /^info \[simulate\] \S+ POST http:\/\/127\.0\.0\.1:\d+\/? -> 200 /.test(l)),
      t.lines.join('\n'),
    );
  });

  it('eth_call where no engine is served (or nothing is known): the result, and a note that logs are not available', async () => {
    const r = await simulateForApi(t.deps, { provider: 'evmd', ...transfer() });
    assert.equal(r.engine, 'eth_call');
    assert.equal(r.result, true);
    assert.match(r.notes.join(' '), /no call tree and no logs/);
    assert.ok(received('evmd').includes('eth_call'));
    const unknown = await simulateForApi(commandDeps(http).deps, { provider: 'anvil', ...transfer() });
    assert.equal(unknown.engine, 'eth_call');
  });

  it('a revert decoded with the ABI of the settings: the custom error and its arguments', async () => {
    const r = await simulateForApi(t.deps, {
      provider: 'anvil',
      address: d.token,
      function: 'transfer(address,uint256)',
      args: [bob(), '5'],
      from: devnet.chain.ledger.keys[3].hex,
    });
    assert.equal(r.ok, false, JSON.stringify(r.steps[0]));
    assert.equal(r.revert?.name, 'InsufficientBalance');
    assert.equal(r.revert?.contract, 'FixtureToken');
    assert.deepEqual(
      r.revert?.args?.map((a) => a.name),
      ['available', 'required'],
    );
    assert.equal(r.revert?.args?.[1].value, '5');
  });

  it('refusals before anything is sent: an unknown provider, several and none named', async () => {
    await assert.rejects(simulateForApi(t.deps, { provider: 'gamma', address: d.token, function: 'totalSupply()' }), (err: unknown) => {
      assert.ok(err instanceof LocalizedError);
      assert.equal(err.message, 'No provider named "gamma". Configured providers: "anvil", "evmd".');
      return true;
    });
    await assert.rejects(simulateForApi(t.deps, { address: d.token, function: 'totalSupply()' }), /^Error: simulate needs \{ provider \}/);
    assert.deepEqual([...received('anvil'), ...received('evmd')], []);
  });

  it('a cancelled token: nothing sent', async () => {
    const source = new CancellationTokenSource();
    source.cancel();
    await assert.rejects(simulateForApi(t.deps, { provider: 'anvil', ...transfer(), token: source.token as never }), /was cancelled\.$/);
    assert.deepEqual(received('anvil'), []);
  });
});

describe('ui/contracts/simulate: a document title', () => {
  it('names a function by what comes before its first "(" (a hostile ABI name of 100,000 "(" costs one scan)', () => {
    assert.equal(functionNameOf('transfer(address,uint256)'), 'transfer');
    assert.equal(functionNameOf('call'), 'call');
    assert.equal(functionNameOf(`x${'('.repeat(100_000)}`), 'x');
  });
});
