// Issue #36 against real nodes: simulations on anvil 1.7.1 (eth_simulateV1, debug_traceCall with
// overrides, eth_call with overrides: each engine's wire format checked by forcing it), and on evmd
// v0.3.2 (eth_call only: overrides refused before sending, naming the anvil provider declared in
// the same network; a staking `delegate` through the precompile decoded, with no call tree).
import * as assert from 'node:assert/strict';
import os from 'node:os';
import { type Hex, encodeAbiParameters, encodeDeployData, encodeFunctionData, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Provider } from '../../src/core/config/providers';
import { ContractRegistry } from '../../src/core/contracts/registry';
import { type EngineSupport, type SimulationSpec, codeReader, evmCaller, replaySpec, simulate } from '../../src/core/contracts/simulate';
import { probeEngineSupport } from '../../src/core/health/capabilities';
import { parseQueryFile } from '../../src/core/queries/parse';
import { runQueryFile } from '../../src/core/queries/run';
import { HttpClient } from '../../src/core/transport/http';
import { TOKEN_ABI, TOKEN_ARTIFACT } from '../devnet/fixtureContracts';
import { type ContractsChain, startContractsChain } from './helpers/contracts';
import { ANVIL_DEV_KEY } from './helpers/evm';
import { VALIDATOR } from './helpers/evmd';
import { AnvilNode, rawPost, waitFor } from './helpers/nodes';

const TOKEN = 10n ** 18n;
const BOB = '0x00000000000000000000000000000000000b0b00' as Hex;
const CAROL = '0x000000000000000000000000000000000000ca01' as Hex;

describe('simulate (issue #36) on anvil and evmd', function () {
  this.timeout(180_000);
  const http = new HttpClient();
  const execute = { http, timeoutMs: 20_000, maxBufferBytes: 8 << 20, spillDir: os.tmpdir(), formatWhileReceiving: false };
  let anvil: AnvilNode;
  let chain: ContractsChain;
  let token: Hex;
  let dev: Hex;
  let transferHash: Hex;
  let anvilP: Provider;
  let evmdP: Provider;
  let registry: ContractRegistry;

  before(async () => {
    anvil = await AnvilNode.start();
    anvilP = { name: 'anvil', endpoints: { evmRpc: anvil.url }, network: 'shared' };
    const account = privateKeyToAccount(ANVIL_DEV_KEY);
    dev = account.address;
    const rpc = async (method: string, params: unknown[]) => (await rawPost(anvil.url, { jsonrpc: '2.0', id: 1, method, params })).json;
    let nonce = Number(BigInt((await rpc('eth_getTransactionCount', [dev, 'latest'])).result));
    const send = async (to: Hex | undefined, data: Hex, gas: bigint): Promise<Hex> => {
      const raw = await account.signTransaction({
        type: 'eip1559',
        chainId: 31337,
        nonce: nonce++,
        to,
        data,
        gas,
        maxFeePerGas: 20_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
      });
      return (await rpc('eth_sendRawTransaction', [raw])).result as Hex;
    };
    const mined = (h: Hex) => waitFor(`receipt ${h}`, async () => (await rpc('eth_getTransactionReceipt', [h])).result ?? undefined, 30_000);
    const deploy = await send(
      undefined,
      encodeDeployData({ abi: TOKEN_ABI, bytecode: TOKEN_ARTIFACT.bytecode.object as Hex, args: [1_000n * TOKEN] }),
      2_000_000n,
    );
    token = (await mined(deploy)).contractAddress as Hex;
    transferHash = await send(token, encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [BOB, 100n * TOKEN] }), 100_000n);
    await mined(transferHash);
    registry = new ContractRegistry({ settings: () => [{ address: token, abi: TOKEN_ABI, name: 'FixtureToken' }] });
    chain = await startContractsChain();
    evmdP = { name: 'evmd', endpoints: { evmRpc: chain.evmRpc }, network: 'shared' };
  });

  after(async () => {
    await anvil?.stop();
    await chain?.dispose();
  });

  const balanceSlot = (who: Hex) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [who, 1n]));
  const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;

  function on(p: Provider) {
    const methods: string[] = [];
    const evm = evmCaller(p, execute, (m) => methods.push(m));
    return { evm, methods, ctx: { network: 'shared', getCode: codeReader(evm) } };
  }

  it('the probes learn anvil serves all three engines (no rpc_modules) and evmd only eth_call without overrides', async () => {
    assert.deepEqual(await probeEngineSupport(anvilP, execute, true), { simulateV1: true, traceCall: true, callOverrides: true });
    assert.deepEqual(await probeEngineSupport(evmdP, execute, true), { simulateV1: false, traceCall: false, callOverrides: false });
  });

  it('anvil: a state override changes a return value on each engine (eth_simulateV1, debug_traceCall, eth_call)', async () => {
    const spec: SimulationSpec = {
      address: token,
      function: 'balanceOf(address)',
      args: [CAROL],
      overrides: { [token]: { stateDiff: { [balanceSlot(CAROL)]: word(750n) } } },
    };
    const engines: Array<[EngineSupport, string]> = [
      [{ simulateV1: true }, 'eth_simulateV1'],
      [{ traceCall: true }, 'debug_traceCall'],
      [{ callOverrides: true }, 'eth_call'],
    ];
    for (const [support, engine] of engines) {
      const { evm, ctx } = on(anvilP);
      const plain = await simulate(evm, { ...spec, overrides: undefined }, registry, ctx, { provider: 'anvil', support });
      assert.equal(plain.result, '0', engine);
      const r = await simulate(evm, spec, registry, ctx, { provider: 'anvil', support });
      assert.equal(r.engine, engine);
      assert.equal(r.result, '750', engine);
    }
  });

  it('anvil: a revert decoded on each engine (InsufficientBalance with its arguments)', async () => {
    const spec: SimulationSpec = { address: token, function: 'transfer(address,uint256)', args: [dev, '1'], from: CAROL };
    for (const support of [{ simulateV1: true }, { traceCall: true }, { callOverrides: true }] as EngineSupport[]) {
      const { evm, ctx } = on(anvilP);
      const r = await simulate(evm, spec, registry, ctx, { provider: 'anvil', support });
      assert.equal(r.ok, false, r.engine);
      assert.equal(r.revert?.name, 'InsufficientBalance', r.engine);
      assert.deepEqual(r.revert?.values, { available: '0', required: '1' }, r.engine);
    }
  });

  it('anvil: a two-step bundle (approve then transferFrom) shares state; a third step past the allowance reverts with its message', async () => {
    const { evm, ctx } = on(anvilP);
    const r = await simulate(
      evm,
      {
        steps: [
          { address: token, function: 'approve(address,uint256)', args: [BOB, '1000'], from: dev },
          { address: token, function: 'transferFrom(address,address,uint256)', args: [dev, CAROL, '600'], from: BOB },
          { address: token, function: 'transferFrom(address,address,uint256)', args: [dev, CAROL, '600'], from: BOB },
        ],
      },
      registry,
      ctx,
      { provider: 'anvil', support: { simulateV1: true, traceCall: true, callOverrides: true } },
    );
    assert.equal(r.engine, 'eth_simulateV1');
    assert.equal(r.steps[0].result, true);
    assert.equal(r.steps[0].logs[0].name, 'Approval');
    assert.equal(r.steps[1].result, true);
    assert.equal(r.steps[1].logs[0].name, 'Transfer');
    assert.equal(r.steps[2].ok, false);
    assert.equal(r.steps[2].revert?.message, 'FixtureToken: allowance too low');
    assert.ok(r.balanceChanges.some((c) => c.account === CAROL.toLowerCase() && c.delta === '600'));
  });

  it('anvil: a replay of a mined transfer at its parent block, then with a larger amount that reverts', async () => {
    const { evm, ctx } = on(anvilP);
    const { spec, original } = await replaySpec(evm, transferHash);
    assert.equal(original.status, 'success');
    const support = { simulateV1: true, traceCall: true, callOverrides: true };
    const same = await simulate(evm, spec, registry, ctx, { provider: 'anvil', support });
    assert.equal(same.ok, true, 'at the parent block the transfer succeeds as it did');
    assert.equal(same.result, true);
    assert.equal(same.logs.length, original.logs);
    const larger = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [BOB, 10_000n * TOKEN] });
    const changed = await simulate(evm, { ...spec, data: larger }, registry, ctx, { provider: 'anvil', support });
    assert.equal(changed.ok, false);
    assert.equal(changed.revert?.name, 'InsufficientBalance');
    assert.deepEqual(changed.revert?.values, { available: (1_000n * TOKEN).toString(), required: (10_000n * TOKEN).toString() });
  });

  it('evmd: without overrides the simulation runs (eth_call); with overrides it is refused in one sentence naming anvil, nothing sent', async () => {
    const evmdRegistry = new ContractRegistry({ settings: () => [{ address: chain.token, abi: TOKEN_ABI, name: 'FixtureToken' }] });
    const spec: SimulationSpec = { address: chain.token, function: 'balanceOf(address)', args: [chain.other] };
    const support = await probeEngineSupport(evmdP, execute, true);
    const { evm, ctx, methods } = on(evmdP);
    const plain = await simulate(evm, spec, evmdRegistry, ctx, { provider: 'evmd', support });
    assert.equal(plain.engine, 'eth_call');
    assert.equal(plain.result, (250n * TOKEN).toString());
    methods.length = 0;
    const alternatives = [{ name: 'anvil', support: await probeEngineSupport(anvilP, execute, true) }];
    await assert.rejects(
      simulate(evm, { ...spec, overrides: { [chain.other]: { balance: '0x1' } } }, evmdRegistry, ctx, { provider: 'evmd', support, alternatives }),
      (err: Error) => {
        assert.match(
          err.message,
          /^evmd cannot simulate with overrides: it serves neither eth_simulateV1 nor debug_traceCall, and its eth_call refuses overrides; anvil, on the same network, can \(nothing was sent\)\.$/,
        );
        return true;
      },
    );
    assert.deepEqual(
      methods.filter((m) => m !== 'eth_getCode'),
      [],
      'nothing but code reads sent',
    );
    // The same through a query file: the request fails with the sentence (the CLI exits 1).
    const file = parseQueryFile(
      [
        `request refused = evm.simulate`,
        `provider: evmd`,
        `address: ${chain.token}`,
        `function: balanceOf(address)`,
        `args: ${chain.other}`,
        `overrides: {"${chain.other}": {"balance": "0x1"}}`,
        `request plain = evm.simulate`,
        `provider: evmd`,
        `address: ${chain.token}`,
        `function: balanceOf(address)`,
        `args: ${chain.other}`,
        `assert engine == eth_call`,
        `assert result == ${250n * TOKEN}`,
      ].join('\n'),
    );
    const run = await runQueryFile(file, { providers: [evmdP, anvilP], execute, env: {}, resolveProvider: (p) => p, secretValue: () => undefined });
    assert.match(
      run.requests[0].runs[0].record.error ?? '',
      /^evmd cannot simulate with overrides: .*; anvil, on the same network, can \(nothing was sent\)\.$/,
    );
    assert.ok(
      run.requests[1].runs[0].assertions.every((a) => a.passed),
      JSON.stringify(run.requests[1].runs[0].assertions),
    );
  });

  it('evmd: a simulated staking delegate through eth_call decodes its return and says no call tree is available', async () => {
    const valoper = chain.node.cli(['keys', 'show', VALIDATOR.name, '--bech', 'val', '-a', '--keyring-backend', 'test']).trim();
    assert.match(valoper, /^cosmosvaloper1/);
    const { evm, ctx } = on(evmdP);
    const r = await simulate(
      evm,
      {
        address: '0x0000000000000000000000000000000000000800',
        function: 'delegate(address,string,uint256)',
        args: [chain.deployer, valoper, TOKEN.toString()],
        from: chain.deployer,
      },
      new ContractRegistry(),
      ctx,
      { provider: 'evmd', support: await probeEngineSupport(evmdP, execute, true) },
    );
    assert.equal(r.engine, 'eth_call');
    assert.equal(r.ok, true, JSON.stringify(r.steps[0]));
    assert.equal(r.result, true);
    assert.equal(r.steps[0].function, 'delegate(address,string,uint256)');
    assert.equal(r.callTree, false);
    assert.match(r.notes.join(' '), /no call tree/);
  });
});
