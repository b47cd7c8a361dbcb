// Simulations on the devnet with each engine switched on or off (test/devnet/evm.ts `engines`): the
// engine chosen by what the provider serves (probed method by method), the refusals before sending
// (one sentence naming a provider of the same network that can), the decoding (return, revert, logs,
// call tree, balance changes), bundles sharing state, and `evm.simulate` in query files.
import * as assert from 'node:assert/strict';
import os from 'node:os';
import { type Hex, encodeFunctionData } from 'viem';
import type { Provider } from '../../../../src/core/config/providers';
import { ContractRegistry } from '../../../../src/core/contracts/registry';
import { chooseEngine, checkCallOverrides, engineFor } from '../../../../src/core/contracts/engines';
import { type EngineSupport, type SimulationSpec, codeReader, evmCaller, simulate } from '../../../../src/core/contracts/simulate';
import { callContract } from '../../../../src/core/contracts/call';
import { probeEngineSupport } from '../../../../src/core/health/capabilities';
import { mergeCapabilities } from '../../../../src/core/health/capabilityPolicy';
import { parseQueryFile } from '../../../../src/core/queries/parse';
import { runQueryFile } from '../../../../src/core/queries/run';
import { HttpClient } from '../../../../src/core/transport/http';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { ALL_ENGINES } from '../../../devnet/evm';
import { TOKEN_ABI } from '../../../devnet/fixtureContracts';
import type { FixtureDeployment } from '../../../devnet/fixtureTxs';

const TOKEN = 10n ** 18n;

describe('contracts: simulate (engines on the devnet)', function () {
  this.timeout(60_000);
  let net: Devnet;
  let d: FixtureDeployment;
  let providers: Provider[];
  let registry: ContractRegistry;
  const http = new HttpClient();
  const execute = { http, timeoutMs: 10_000, maxBufferBytes: 4 << 20, spillDir: os.tmpdir(), formatWhileReceiving: false };
  const byName = (n: string) => providers.find((p) => p.name === n)!;
  let bob: Hex;

  before(async () => {
    net = await startDevnet({
      realTxs: true,
      blockIntervalMs: 0,
      providers: [
        { name: 'anvil-like', capabilities: { engines: ALL_ENGINES } },
        { name: 'evmd-like' },
        { name: 'trace-only', capabilities: { engines: { traceCall: true } } },
        { name: 'call-overrides', capabilities: { engines: { callOverrides: true } } },
      ],
    });
    await net.produceBlock();
    d = net.chain.ledger.fixtureDeployment as FixtureDeployment;
    bob = net.chain.ledger.keys[1].hex as Hex;
    providers = net.providers.map((u) => ({ name: u.name, endpoints: { evmRpc: u.evmRpc }, network: 'devnet' }));
    registry = new ContractRegistry({ settings: () => [{ address: d.token, abi: TOKEN_ABI, name: 'FixtureToken' }] });
  });
  after(async () => net?.stop());

  /** The engines of each provider as the capability probes learn them (cheap and costly). */
  async function support(name: string): Promise<EngineSupport> {
    return probeEngineSupport(byName(name), execute, true);
  }

  function counted(name: string): { evm: ReturnType<typeof evmCaller>; methods: string[] } {
    const methods: string[] = [];
    return { evm: evmCaller(byName(name), execute, (m) => methods.push(m)), methods };
  }

  async function run(name: string, spec: SimulationSpec, alternatives?: { name: string; support: EngineSupport }[]) {
    const { evm, methods } = counted(name);
    const s = await support(name);
    const result = await simulate(evm, spec, registry, { network: 'devnet', getCode: codeReader(evm) }, { provider: name, support: s, alternatives });
    return { result, methods };
  }

  const transfer = (amount: bigint): SimulationSpec => ({
    address: d.token,
    function: 'transfer(address,uint256)',
    args: [bob, amount.toString()],
    from: d.deployer,
  });

  it('the capability probes learn the three engines method by method (no rpc_modules needed)', async () => {
    assert.deepEqual(await support('anvil-like'), { simulateV1: true, traceCall: true, callOverrides: true });
    assert.deepEqual(await support('evmd-like'), { simulateV1: false, traceCall: false, callOverrides: false });
    assert.deepEqual(await support('trace-only'), { simulateV1: false, traceCall: true, callOverrides: false });
    // The cheap probes alone leave debug_traceCall unknown; a cheap re-probe keeps what the costly one learnt.
    const cheap = await probeEngineSupport(byName('anvil-like'), execute, false);
    assert.equal(cheap.traceCall, undefined);
    const merged = mergeCapabilities(
      { provider: 'a', probedAt: 1, notes: [], costly: true, evm: { engines: { simulateV1: true, traceCall: true, callOverrides: true } } },
      { provider: 'a', probedAt: 2, notes: [], costly: false, evm: { engines: cheap } },
    );
    assert.equal(merged.evm?.engines?.traceCall, true);
  });

  it('chooses eth_simulateV1, else debug_traceCall, else eth_call, and says so in the result', async () => {
    const sim = await run('anvil-like', transfer(5n * TOKEN));
    assert.equal(sim.result.engine, 'eth_simulateV1');
    assert.deepEqual(
      sim.methods.filter((m) => m !== 'eth_getCode'),
      ['eth_simulateV1'],
    );
    assert.equal(sim.result.result, true);
    assert.equal(sim.result.logs[0].name, 'Transfer');
    assert.equal(sim.result.logs[0].args?.value, (5n * TOKEN).toString());
    const trace = await run('trace-only', transfer(5n * TOKEN));
    assert.equal(trace.result.engine, 'debug_traceCall');
    assert.equal(trace.result.callTree, true);
    assert.equal(trace.result.steps[0].trace?.frames[0].call?.name, 'transfer');
    assert.equal(trace.result.logs[0].name, 'Transfer', 'callTracer withLog');
    const call = await run('evmd-like', transfer(5n * TOKEN));
    assert.equal(call.result.engine, 'eth_call');
    assert.deepEqual(call.methods.filter((m) => m !== 'eth_getCode').sort(), ['eth_call', 'eth_estimateGas']);
    assert.equal(call.result.result, true);
    assert.equal(call.result.callTree, false);
    assert.match(call.result.notes.join(' '), /no call tree/);
    assert.ok(Number(call.result.steps[0].gasUsed) > 21_000);
    // Token balance changes from the Transfer log (not on eth_call: no logs there).
    const changes = sim.result.balanceChanges.filter((c) => c.asset === d.token.toLowerCase());
    assert.deepEqual(changes.map((c) => c.delta).sort(), [(-5n * TOKEN).toString(), (5n * TOKEN).toString()].sort());
  });

  it('decodes a revert (a custom error with its arguments) where the engine gives the data', async () => {
    const huge = 10n ** 30n;
    for (const name of ['anvil-like', 'trace-only']) {
      const { result } = await run(name, transfer(huge));
      assert.equal(result.ok, false, name);
      assert.equal(result.revert?.name, 'InsufficientBalance', name);
      assert.equal(result.revert?.values?.required, huge.toString(), name);
      assert.deepEqual(result.logs, []);
    }
    // evmd's eth_call gives no revert data: said, never a raw node error.
    const { result } = await run('evmd-like', transfer(huge));
    assert.equal(result.ok, false);
    assert.equal(result.revert?.kind, 'unknown');
    assert.match(result.revert?.note ?? '', /no revert data/);
  });

  it('refuses overrides before sending where no engine takes them, naming a provider of the same network that can', async () => {
    const spec: SimulationSpec = { ...transfer(1n), overrides: { [bob]: { balance: '0x1' } } };
    const alternatives = [
      { name: 'evmd-like', support: await support('evmd-like') },
      { name: 'anvil-like', support: await support('anvil-like') },
    ];
    const { evm, methods } = counted('evmd-like');
    await assert.rejects(
      simulate(evm, spec, registry, { network: 'devnet' }, { provider: 'evmd-like', support: await support('evmd-like'), alternatives }),
      (err: Error) => {
        assert.match(err.message, /^evmd-like cannot simulate with overrides: .*; anvil-like, on the same network, can \(nothing was sent\)\.$/);
        assert.doesNotMatch(err.message, /unsupported in call queries/);
        return true;
      },
    );
    assert.deepEqual(methods, [], 'nothing sent');
    // eth_call with overrides where it takes them (the third parameter), and debug_traceCall with stateOverrides.
    assert.equal((await run('call-overrides', spec)).result.engine, 'eth_call');
    assert.equal((await run('trace-only', spec)).result.engine, 'debug_traceCall');
    // Call Contract's overrides: the same check.
    assert.throws(
      () => checkCallOverrides('evmd-like', { callOverrides: false }, alternatives),
      /evmd-like cannot call with state overrides: .*anvil-like, on the same network, can/,
    );
    const c = counted('evmd-like');
    await assert.rejects(
      callContract(
        c.evm,
        { ...transfer(1n), address: d.token, function: 'transfer(address,uint256)', overrides: { [bob]: { balance: '0x1' } } },
        registry,
        {},
        {
          provider: 'evmd-like',
          support: { callOverrides: false },
          alternatives,
        },
      ),
      /nothing was sent/,
    );
    assert.deepEqual(c.methods, []);
  });

  it('a bundle: approve then transferFrom share state on eth_simulateV1; refused without it', async () => {
    const carol = net.chain.ledger.keys[2].hex as Hex;
    const spec: SimulationSpec = {
      steps: [
        { address: d.token, function: 'approve(address,uint256)', args: [bob, '1000'], from: d.deployer },
        { address: d.token, function: 'transferFrom(address,address,uint256)', args: [d.deployer, carol, '600'], from: bob },
        { address: d.token, function: 'transferFrom(address,address,uint256)', args: [d.deployer, carol, '600'], from: bob },
      ],
    };
    const { result } = await run('anvil-like', spec);
    assert.equal(result.engine, 'eth_simulateV1');
    assert.equal(result.steps[0].result, true);
    assert.equal(result.steps[1].result, true, 'the allowance of step 0 is seen by step 1');
    assert.equal(result.steps[2].ok, false, 'only 400 left of the allowance');
    assert.equal(result.steps[1].logs[0].name, 'Transfer');
    // Nothing stayed: the allowance is 0 again.
    const allowance = await callContract(
      counted('evmd-like').evm,
      { address: d.token, function: 'allowance(address,address)', args: [d.deployer, bob] },
      registry,
      {},
    );
    assert.equal(allowance.result, '0');
    assert.throws(
      () =>
        chooseEngine('trace-only', { bundle: true, overrides: false, blockOverrides: false }, { simulateV1: false, traceCall: true }, [
          { name: 'anvil-like', support: ALL_ENGINES },
        ]),
      /^Error: trace-only cannot simulate a bundle of calls: it does not serve eth_simulateV1; anvil-like, on the same network, can/,
    );
    assert.deepEqual(engineFor({ bundle: false, overrides: true, blockOverrides: false }, {}), { missing: 'overrides' });
  });

  it('refuses bad input before sending: an unknown override key, data and function together, a non-address', async () => {
    const { evm, methods } = counted('anvil-like');
    const s = ALL_ENGINES;
    const go = (spec: SimulationSpec) => simulate(evm, spec, registry, {}, { provider: 'anvil-like', support: s });
    await assert.rejects(go({ ...transfer(1n), overrides: { [bob]: { balances: '0x1' } } }), /balances is not one of balance, nonce, code, state, stateDiff/);
    await assert.rejects(go({ ...transfer(1n), data: '0x' }), /function \(with args\) or data, not both/);
    await assert.rejects(go({ address: 'nope', function: 'f()' }), /address: 0x and 40 hex digits/);
    await assert.rejects(go({ ...transfer(1n), blockOverrides: { height: 1 } }), /height is not one of number, time, baseFee/);
    assert.deepEqual(methods, []);
  });

  it('query files: evm.simulate with assertions on engine, result, revert and steps; a refusal fails the request with its sentence', async () => {
    const file = parseQueryFile(
      [
        `request plain = evm.simulate`,
        `provider: evmd-like`,
        `address: ${d.token}`,
        `function: transfer(address,uint256)`,
        `args: ${bob}, 5`,
        `from: ${d.deployer}`,
        `assert engine == eth_call`,
        `assert result == true`,
        ``,
        `request reverts = evm.simulate`,
        `provider: anvil-like`,
        `address: ${d.token}`,
        `function: transfer(address,uint256)`,
        `args: ${bob}, ${10n ** 30n}`,
        `from: ${d.deployer}`,
        `assert engine == eth_simulateV1`,
        `assert revert.name == InsufficientBalance`,
        ``,
        `request bundle = evm.simulate`,
        `provider: anvil-like`,
        `steps: [{"address": "${d.token}", "function": "approve(address,uint256)", "args": ["${bob}", "10"], "from": "${d.deployer}"}, {"address": "${d.token}", "function": "transferFrom(address,address,uint256)", "args": ["${d.deployer}", "${bob}", "10"], "from": "${bob}"}]`,
        `assert steps[1].result == true`,
        `assert steps[1].logs[0].name == Transfer`,
        ``,
        `request refused = evm.simulate`,
        `provider: evmd-like`,
        `address: ${d.token}`,
        `function: balanceOf(address)`,
        `args: ${bob}`,
        `overrides: {"${bob}": {"balance": "0x10"}}`,
      ].join('\n'),
    );
    assert.deepEqual(file.diagnostics, []);
    const run = await runQueryFile(file, { providers, execute, env: {}, resolveProvider: (p) => p, secretValue: () => undefined, contracts: registry });
    const [plain, reverts, bundle, refused] = run.requests;
    for (const r of [plain, reverts, bundle])
      assert.ok(
        r.runs[0].assertions.every((a) => a.passed),
        JSON.stringify(r.runs[0].assertions),
      );
    assert.equal(refused.runs[0].assertions[0].passed, false);
    assert.match(
      refused.runs[0].record.error ?? '',
      /^evmd-like cannot simulate with overrides: .*; anvil-like, on the same network, can \(nothing was sent\)\.$/,
    );
    assert.equal(run.passed, false);
  });

  it('never sends anything but read methods', async () => {
    const { evm } = counted('anvil-like');
    await assert.rejects(evm('eth_sendRawTransaction', ['0x00']), /only read methods/);
    await assert.rejects(evm('eth_sendTransaction', [{}]), /only read methods/);
    assert.equal(encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [bob, 1n] }).slice(0, 10), '0xa9059cbb');
  });
});
