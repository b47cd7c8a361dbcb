// Call Contract (src/ui/contracts/callContract.ts) through the runner, on the devnet's fixture contracts
// (test/devnet/fixtureContracts.ts, deployed in block 1), with the vscode stub: the API's
// callContract() decoding a result and a revert (a custom error with its arguments, a Panic) with the
// ABI of `chainEndpoints.contracts`, its refusals before anything is sent, and the command's document.
// The devnet answers a reverted eth_call as evmd does, without the revert data; `geth` is a provider
// in front of it that answers as geth and anvil do (error 3 with `data`: the revert's bytes, read
// from the devnet's own callTracer frame of the same call), so the decoding has data to decode.
import { runningProgress, vscodeStub } from '../../helpers/vscodeStub'; // first: answers require('vscode')
import * as assert from 'node:assert/strict';
import { LocalizedError } from '../../../../src/core/base/errors';
import { HttpClient } from '../../../../src/core/transport/http';
import { callContractCommand, callContractForApi } from '../../../../src/ui/contracts/callContract';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { TOKEN_ABI } from '../../../devnet/fixtureContracts';
import { FIXTURE_SUPPLY, type FixtureDeployment } from '../../../devnet/fixtureTxs';
import { type TestDeps, commandDeps } from '../../helpers/commandDeps';
import { type TestServer, startServer } from '../../helpers/httpServer';
import { ALL_ENGINES } from '../../../devnet/evm';

/** A JSON-RPC request to `url`: the whole answer. */
async function rpc(url: string, body: unknown): Promise<{ id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return (await r.json()) as never;
}

/** geth's answer to a reverted eth_call in front of the devnet's EVM RPC (evmd's, without data): the data from callTracer. */
function gethLike(evmRpc: string): Promise<TestServer> {
  return startServer((req, res) => {
    void (async () => {
      const call = JSON.parse(req.body) as { id: unknown; method: string; params: unknown[] };
      let answer = await rpc(evmRpc, call);
      if (call.method === 'eth_call' && answer.error?.code === 3) {
        const trace = await rpc(evmRpc, {
          jsonrpc: '2.0',
          id: 1,
          method: 'debug_traceCall',
          params: [call.params[0], call.params[1] ?? 'latest', { tracer: 'callTracer' }],
        });
        const output = (trace.result as { output?: string } | undefined)?.output;
        assert.ok(output, `the devnet traced the call: ${JSON.stringify(trace)}`);
        answer = { ...answer, error: { ...answer.error, data: output } };
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer));
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
}

describe('ui/contracts/callContract: callContract() and the command through the runner (devnet)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  let t: TestDeps;
  let d: FixtureDeployment;
  const entry = (name: string) => {
    const u = devnet.providers.find((p) => p.name === name)!;
    return { name, network: 'devnet', evmRpc: u.evmRpc, rest: u.rest };
  };
  let geth: TestServer;
  let mark: Record<string, number>;
  const received = (name: string) =>
    devnet
      .lastRequests(name)
      .slice(mark[name])
      .map((r) => (r.iface === 'evmRpc' ? (JSON.parse(r.body) as { method: string }).method : r.path));

  before(async () => {
    devnet = await startDevnet({
      realTxs: true,
      blockIntervalMs: 0,
      providers: [{ name: 'alpha' }, { name: 'beta' }, { name: 'traced', capabilities: { engines: ALL_ENGINES } }],
    });
    devnet.produceBlock();
    geth = await gethLike(devnet.providers.find((p) => p.name === 'traced')!.evmRpc);
    d = devnet.chain.ledger.fixtureDeployment as FixtureDeployment;
    http = new HttpClient();
  });
  after(async () => {
    await geth.close();
    await http.close();
    await devnet.stop();
  });
  beforeEach(() => {
    vscodeStub.reset({
      user: {
        providers: [entry('alpha'), entry('beta'), { name: 'geth', network: 'devnet', evmRpc: geth.url }],
        contracts: [{ address: d.token, abi: TOKEN_ABI, name: 'FixtureToken' }],
      },
    });
    t = commandDeps(http);
    mark = { alpha: devnet.lastRequests('alpha').length, beta: devnet.lastRequests('beta').length };
  });
  afterEach(() => t.dispose()); // the session's registry goes with its disposable: the next test reads the settings afresh

  it('a decoded result: a function by name, with the ABI of the settings', async () => {
    const r = await callContractForApi(t.deps, { provider: 'alpha', address: d.token, function: 'totalSupply' });
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.function, 'totalSupply()');
    assert.equal(r.contract, 'FixtureToken');
    assert.equal(r.result, FIXTURE_SUPPLY.toString());
    assert.deepEqual(
      r.outputs?.map((o) => o.type),
      ['uint256'],
    );
    assert.ok(received('alpha').includes('eth_call'), received('alpha').join());
    assert.deepEqual(received('beta'), []);
    assert.ok(
      t.lines.some((l) => /^info \[callContract\] explorer\.evmRpc POST http:\/\/127\.0\.0\.1:\d+\/? -> 200 /.test(l)),
      t.lines.join('\n'),
    );
  });

  it('a decoded revert: the custom error with its arguments, and a Panic with its meaning', async () => {
    const held = await callContractForApi(t.deps, { provider: 'geth', address: d.token, function: 'balanceOf', args: [d.deployer] });
    const balance = String(held.result);
    assert.notEqual(balance, '0');
    const more = (BigInt(balance) + 5n).toString();
    const bob = devnet.chain.ledger.keys[1].hex;
    const r = await callContractForApi(t.deps, {
      provider: 'geth',
      address: d.token,
      function: 'transfer(address,uint256)',
      args: [bob, more],
      from: d.deployer,
    });
    assert.equal(r.result, undefined);
    assert.equal(r.revert?.kind, 'error', JSON.stringify(r));
    assert.match(r.error ?? '', /execution reverted/);
    assert.equal(r.revert?.name, 'InsufficientBalance');
    assert.equal(r.revert?.contract, 'FixtureToken');
    assert.deepEqual(
      r.revert?.args?.map((a) => [a.name, a.value]),
      [
        ['available', balance],
        ['required', more],
      ],
    );
    const p = await callContractForApi(t.deps, { provider: 'geth', address: d.token, function: 'ratio', args: ['10', '0'] });
    assert.equal(p.revert?.name, 'Panic');
    assert.match(p.revert?.meaning ?? '', /division/i);
    // evmd's answer (alpha): a revert without data, said so rather than guessed.
    const e = await callContractForApi(t.deps, { provider: 'alpha', address: d.token, function: 'ratio', args: ['10', '0'] });
    assert.equal(e.revert?.kind, 'unknown');
    assert.match(e.revert?.note ?? '', /no revert data/);
  });

  it('refusals before anything is sent: an unknown provider, several EVM providers and none named', async () => {
    await assert.rejects(callContractForApi(t.deps, { provider: 'gamma', address: d.token, function: 'totalSupply' }), (err: unknown) => {
      assert.ok(err instanceof LocalizedError);
      assert.equal(err.message, 'No provider named "gamma". Configured providers: "alpha", "beta", "geth".');
      return true;
    });
    await assert.rejects(callContractForApi(t.deps, { address: d.token, function: 'totalSupply' }), /^Error: callContract needs \{ provider \}/);
    assert.deepEqual([...received('alpha'), ...received('beta')], []);
  });

  it('bad input is answered as `error`, not sent', async () => {
    const r = await callContractForApi(t.deps, { provider: 'alpha', address: d.token, function: 'transfer(address,uint256)', args: ['not an address', '1'] });
    assert.match(r.error ?? '', /address/i);
    assert.equal(received('alpha').includes('eth_call'), false);
  });

  it('the command: the decoded result as a Markdown document', async () => {
    vscodeStub.script({ withProgress: runningProgress() });
    const uri = await callContractCommand(t.deps, { provider: 'beta', address: d.token, function: 'balanceOf(address)', args: [d.deployer] });
    assert.ok(uri);
    assert.equal(t.shown.length, 1);
    assert.equal(t.shown[0].language, 'markdown');
    assert.match(t.shown[0].uri.path, /^\/beta\/Call balanceOf 0x/);
    assert.match(t.shown[0].text, /FixtureToken/);
    assert.ok(received('beta').includes('eth_call'));
  });
});
