// Simulations on the devnet with each engine switched on or off (test/devnet/evm.ts `engines`): the
// engine chosen by what the provider serves (probed method by method), the refusals before sending
// (one sentence naming a provider of the same network that can), the decoding (return, revert, logs,
// call tree, balance changes), bundles sharing state, and `evm.simulate` in query files.
import * as assert from 'node:assert/strict';
import os from 'node:os';
import { type Hex, encodeAbiParameters, encodeFunctionData, keccak256 } from 'viem';
import type { Provider } from '../../../../src/core/config/providers';
import { ContractRegistry } from '../../../../src/core/contracts/registry';
import { EndpointError } from '../../../../src/core/base/errors';
import * as l10n from '../../../../src/core/base/l10n';
import { chooseEngine, checkCallOverrides, engineFor } from '../../../../src/core/contracts/engines';
import { type EngineSupport, type SimulationSpec, codeReader, compareReplay, evmCaller, replaySpec, simulate } from '../../../../src/core/contracts/simulate';
import { renderSimulation } from '../../../../src/core/explorer/renderSimulation';
import { simulationBlockText } from '../../../../src/core/queries/simulateBlock';
import { specFromArgs } from '../../../../src/core/queries/simulateRequest';
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

  it('a provider that refuses the engine its capabilities claim: the next engine that can, said in the result; else one sentence naming a provider that can', async () => {
    // evmd-like serves neither eth_simulateV1 nor debug_traceCall (-32601), whatever stale capabilities say.
    const stale: EngineSupport = { simulateV1: true, traceCall: true, callOverrides: false };
    const { evm, methods } = counted('evmd-like');
    const refused: string[] = [];
    const result = await simulate(
      evm,
      transfer(7n),
      registry,
      { network: 'devnet' },
      { provider: 'evmd-like', support: stale, onRefused: (e) => refused.push(e) },
    );
    // Each refusal reported, for the caller to record (the editor's capabilities, a query run's cache).
    assert.deepEqual(refused, ['eth_simulateV1', 'debug_traceCall']);
    assert.equal(result.engine, 'eth_call');
    assert.equal(result.result, true);
    assert.deepEqual(methods.slice(0, 2), ['eth_simulateV1', 'debug_traceCall']);
    assert.ok(methods.includes('eth_call'));
    assert.match(
      result.notes[0],
      /^evmd-like refused eth_simulateV1 \(method not found\), though its capabilities said it serves it: simulated through debug_traceCall instead/,
    );
    assert.match(result.notes[1], /refused debug_traceCall .* simulated through eth_call instead/);
    // A bundle needs eth_simulateV1: nothing else can run it.
    const bundle: SimulationSpec = { steps: [transfer(1n), transfer(2n)] };
    const asked = counted('evmd-like');
    await assert.rejects(
      simulate(
        asked.evm,
        bundle,
        registry,
        { network: 'devnet' },
        { provider: 'evmd-like', support: stale, alternatives: [{ name: 'anvil-like', support: ALL_ENGINES }] },
      ),
      /^Error: evmd-like refused eth_simulateV1 \(method not found\), though its capabilities said it serves it, and nothing else it serves can run this simulation; anvil-like, on the same network, can\. Probe its capabilities again\.$/,
    );
    assert.deepEqual(asked.methods, ['eth_simulateV1']);
  });

  it('a call whose ABI needs nothing read goes out at once (no turn waited); one whose ABI is asked for gives the same result', async () => {
    const to = '0x7777777777777777777777777777777777777777';
    const sent: string[] = [];
    const evm = async (method: string, params: readonly unknown[]) => {
      sent.push(`${method} ${JSON.stringify(params)}`);
      return method === 'eth_call' ? encodeAbiParameters([{ type: 'uint256' }], [750n]) : '0x5208';
    };
    const spec: SimulationSpec = { address: to, function: 'balanceOf', args: [bob] };
    const known = Object.freeze([{ address: to, abi: TOKEN_ABI, name: 'Inline' }]);
    const inline = new ContractRegistry({ settings: () => known });
    const pending = simulate(evm, spec, inline, { network: 'devnet' }, { provider: 'p', support: {} });
    assert.deepEqual(
      sent.map((x) => x.split(' ')[0]),
      ['eth_call', 'eth_estimateGas'],
      'both requests sent before simulate() returned',
    );
    const now = await pending;
    // The same ABI from a file: read first (a turn waited), the same requests and result.
    const fromFile = new ContractRegistry({
      settings: () => [{ address: to, abi: 'token.json', name: 'Inline' }],
      fileSize: async () => 100,
      readFile: async () => new TextEncoder().encode(JSON.stringify(TOKEN_ABI)),
    });
    const before = sent.length;
    const later = simulate(evm, spec, fromFile, { network: 'devnet' }, { provider: 'p', support: {} });
    assert.equal(sent.length, before, 'nothing sent before the file is read');
    const read = await later;
    assert.deepEqual(sent.slice(before), sent.slice(0, before), 'the same requests');
    assert.equal(now.result, '750');
    assert.equal(read.result, now.result);
    assert.equal(read.steps[0].gasUsed, '21000');
    assert.equal(now.steps[0].contract, 'Inline');
    assert.deepEqual({ ...read, steps: undefined }, { ...now, steps: undefined });
  });

  it('eth_call engine: the estimate failing before eth_call answers is kept as gasError (never an unhandled rejection); eth_call failing with the estimate answered is the revert', async () => {
    const to = '0x7777777777777777777777777777777777777777';
    const known = Object.freeze([{ address: to, abi: TOKEN_ABI, name: 'Inline' }]);
    const inline = new ContractRegistry({ settings: () => known });
    const spec: SimulationSpec = { address: to, function: 'balanceOf', args: [bob] };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // The estimate fails at once; eth_call answers 30 ms later.
      const slowCall = async (method: string) => {
        if (method === 'eth_estimateGas') throw new Error('out of gas: estimate refused');
        await new Promise((r) => setTimeout(r, 30));
        return encodeAbiParameters([{ type: 'uint256' }], [5n]);
      };
      const r = await simulate(slowCall, spec, inline, { network: 'devnet' }, { provider: 'p', support: {} });
      assert.equal(r.result, '5');
      assert.equal(r.steps[0].gasUsed, undefined);
      assert.match(r.steps[0].gasError ?? '', /estimate refused/);
      // eth_call reverts while the estimate answers.
      const reverting = async (method: string) => {
        if (method === 'eth_call') throw new EndpointError('rpc', 'execution reverted', { code: 3 });
        return '0x5208';
      };
      const failed = await simulate(reverting, spec, inline, { network: 'devnet' }, { provider: 'p', support: {} });
      assert.equal(failed.ok, false);
      assert.equal(failed.steps[0].gasUsed, '21000');
      await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('the eth_call note follows the language: a translator installed after a simulation changes the next one', async () => {
    const to = '0x7777777777777777777777777777777777777777';
    const known = Object.freeze([{ address: to, abi: TOKEN_ABI, name: 'Inline' }]);
    const inline = new ContractRegistry({ settings: () => known });
    const evm = async (method: string) => (method === 'eth_call' ? encodeAbiParameters([{ type: 'uint256' }], [1n]) : '0x5208');
    const go = (provider: string) => simulate(evm, { address: to, function: 'balanceOf', args: [bob] }, inline, {}, { provider, support: {} });
    assert.match((await go('first')).notes.join(' '), /^first simulates through eth_call/);
    assert.match((await go('second')).notes.join(' '), /^second simulates through eth_call/);
    l10n.setTranslator((m, ...a) => `[fr] ${l10n.format(m, ...a)}`);
    try {
      assert.match((await go('second')).notes.join(' '), /^\[fr\] second simulates through eth_call/);
    } finally {
      l10n.setTranslator(undefined);
    }
    assert.match((await go('second')).notes.join(' '), /^second simulates/);
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

  it('replay: a mined transfer opens as a query-file block (function and args decoded, sender, nonce, parent block) that runs beside the original', async () => {
    const { evm } = counted('anvil-like');
    const ctx = { network: 'devnet', getCode: codeReader(evm) };
    const { spec, original } = await replaySpec(evm, d.txs.transfer, registry, ctx);
    assert.equal(spec.function, 'transfer(address,uint256)');
    assert.equal(spec.data, undefined, 'the input written as its function and arguments');
    const [to, amount] = spec.args as string[];
    assert.equal(to.toLowerCase(), net.chain.ledger.keys[2].hex.toLowerCase());
    assert.equal(amount, (100n * TOKEN).toString());
    assert.equal(spec.from?.toLowerCase(), d.deployer.toLowerCase());
    assert.match(spec.nonce ?? '', /^\d+$/);
    assert.equal(spec.replayOf, d.txs.transfer);
    assert.equal(original.status, 'success');
    assert.deepEqual(original.logEvents, ['Transfer']);
    // Without the ABI the input stays data.
    const bare = await replaySpec(evm, d.txs.transfer, new ContractRegistry(), ctx);
    assert.equal(bare.spec.function, 'transfer(address,uint256)', 'the standard ERC-20 ABI knows transfer');
    const unknown = await replaySpec(evm, d.txs.route, new ContractRegistry(), ctx);
    assert.match(unknown.spec.data ?? '', /^0x[0-9a-f]{8}/);
    assert.equal(unknown.spec.function, undefined);

    // The block reads back as the same spec (the file's own reader).
    const block = simulationBlockText('anvil-like', spec, 'replay');
    const parsed = parseQueryFile(block);
    assert.deepEqual(parsed.diagnostics, []);
    const back = specFromArgs(Object.fromEntries(parsed.requests[0].args.map((a) => [a.key, a.value.text])));
    const defined = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
    assert.deepEqual(defined({ ...back, args: JSON.parse(String(back.args)) }), defined(spec));

    // Run as is: the result beside the original; then the amount changed past the balance: it reverts, and says what changed.
    const changedBlock =
      block.replace((100n * TOKEN).toString(), (10n ** 30n).toString()) + 'assert revert.name == InsufficientBalance\nassert changed[0] == status\n';
    const runOf = async (text: string) =>
      runQueryFile(parseQueryFile(text), { providers, execute, env: {}, resolveProvider: (p) => p, secretValue: () => undefined, contracts: registry });
    const same = (await runOf(block)).requests[0].runs[0];
    assert.ok(
      same.assertions.every((a) => a.passed),
      JSON.stringify(same.assertions),
    );
    assert.equal((same.record as unknown as { original: { hash: string } }).original.hash, d.txs.transfer);
    assert.ok(!(same.record as unknown as { changed: string[] }).changed.includes('status'));
    assert.match(same.record.summary ?? '', /eth_simulateV1: succeeded · changed from the original: gas used|as the original/);
    const changed = (await runOf(changedBlock)).requests[0].runs[0];
    assert.ok(
      changed.assertions.every((a) => a.passed),
      JSON.stringify(changed.assertions),
    );
    assert.deepEqual((changed.record as unknown as { changed: string[] }).changed.slice(0, 2), ['status', 'revert']);
    // The comparison itself: an eth_call engine cannot compare logs.
    const viaCall = await run('evmd-like', { ...spec, replayOf: undefined });
    const rows = compareReplay(original, viaCall.result);
    assert.equal(rows.find((r) => r.what === 'logs')?.changed, false);
    assert.equal(rows.find((r) => r.what === 'logs')?.simulated, 'not available (eth_call)');
    // Nor gas: its figure is eth_estimateGas's, what a transaction needs, not what the original used.
    const gas = rows.find((r) => r.what === 'gas used');
    assert.equal(gas?.changed, false);
    assert.match(gas?.simulated ?? '', /^[0-9]+ \(an estimate: eth_estimateGas\)$/);
    const shown = renderSimulation(viaCall.result, original);
    assert.match(shown, /^- gas \(estimate\): [0-9]+$/m);
    assert.match(shown, /^\| gas used \| [0-9]+ \| `[0-9]+ \(an estimate: eth_estimateGas\)` \| +\|$/m);
  });

  it('the devnet applies state overrides on each engine that takes them: a balance slot makes a transfer that reverts succeed; code makes an address a token', async () => {
    const dave = net.chain.ledger.keys[3].hex as Hex;
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [dave, 1n]));
    const spend: SimulationSpec = { address: d.token, function: 'transfer(address,uint256)', args: [bob, (7n * TOKEN).toString()], from: dave };
    const funded: SimulationSpec = { ...spend, overrides: { [d.token]: { stateDiff: { [slot]: `0x${(7n * TOKEN).toString(16).padStart(64, '0')}` } } } };
    for (const name of ['anvil-like', 'trace-only', 'call-overrides']) {
      assert.equal((await run(name, spend)).result.ok, false, `${name}: dave holds no token`);
      const { result } = await run(name, funded);
      assert.equal(result.ok, true, `${name}: ${JSON.stringify(result.steps[0].revert ?? result.steps[0].error)}`);
      assert.equal(result.result, true, name);
    }
    // Nothing stays: the same call without the override reverts again.
    assert.equal((await run('anvil-like', spend)).result.revert?.name, 'InsufficientBalance');
    // `state` replaces the storage: the deployer's balance is gone for that call.
    const emptied = await run('trace-only', { ...transfer(1n), overrides: { [d.token]: { state: {} } } });
    assert.equal(emptied.result.revert?.name, 'InsufficientBalance');
    // code: the token's runtime at a fresh address makes it a token (empty storage), read through balanceOf.
    const fresh = '0x00000000000000000000000000000000000c0de1';
    const code = (await counted('anvil-like').evm('eth_getCode', [d.token, 'latest'])) as string;
    const asToken = await run('call-overrides', { address: fresh, function: 'balanceOf(address)(uint256)', args: [bob], overrides: { [fresh]: { code } } });
    assert.equal(asToken.result.ok, true);
    assert.equal(asToken.result.result, '0');
    // A slot the devnet does not model is refused in the node's words, never ignored.
    await assert.rejects(
      run('trace-only', { ...spend, overrides: { [d.token]: { stateDiff: { [`0x${'0'.repeat(63)}9`]: `0x${'0'.repeat(64)}` } } } }),
      /cannot override these storage slots/,
    );
  });

  it('never sends anything but read methods', async () => {
    const { evm } = counted('anvil-like');
    await assert.rejects(evm('eth_sendRawTransaction', ['0x00']), /only read methods/);
    await assert.rejects(evm('eth_sendTransaction', [{}]), /only read methods/);
    assert.equal(encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [bob, 1n] }).slice(0, 10), '0xa9059cbb');
  });
});
