// The devnet's simulation engines honour every state override they model (test/devnet/evm.ts,
// ledger.ts simulating()): `balance` (read by the bank precompile, checked against a call's value,
// moved between the steps of a bundle), `nonce` (the address of a simulated creation; eth_simulateV1's
// validation), `code` and `state`/`stateDiff` (the fixture token), for that simulation only; and the
// extension's simulate() shows them in its result (return, call tree, balance changes).
import * as assert from 'node:assert/strict';
import os from 'node:os';
import { type Hex, decodeFunctionResult, encodeFunctionData, getAddress, getContractAddress } from 'viem';
import { ContractRegistry } from '../../src/core/contracts/registry';
import { codeReader, evmCaller, simulate } from '../../src/core/contracts/simulate';
import { HttpClient } from '../../src/core/transport/http';
import { type Devnet, startDevnet } from './devnet';
import { ALL_ENGINES } from './evm';
import { BANK_ABI, BANK_PRECOMPILE, TOKEN_ABI, TOKEN_ARTIFACT } from './fixtureContracts';
import type { FixtureDeployment } from './fixtureTxs';
import { NATIVE_ERC20 } from './ledger';

type Answer = { result?: any; error?: { code: number; message: string; data?: unknown } };
const STRANGER = '0x00000000000000000000000000000000c0ffee01' as Hex;
const ETHER = 10n ** 18n;

describe('devnet: state overrides on the simulation engines (balance, nonce, code, state)', function () {
  this.timeout(60_000);
  let net: Devnet;
  let d: FixtureDeployment;
  let alice: Hex;
  let bob: Hex;
  const rpcs: Record<string, (method: string, params: unknown[]) => Promise<Answer>> = {};

  before(async () => {
    net = await startDevnet({
      realTxs: true,
      blockIntervalMs: 0,
      providers: [
        { name: 'anvil-like', capabilities: { engines: ALL_ENGINES } },
        { name: 'v0.5-like', capabilities: { engines: { traceCall: true, callOverrides: true } } },
        { name: 'evmd-like' },
      ],
    });
    await net.produceBlock();
    d = net.chain.ledger.fixtureDeployment as FixtureDeployment;
    alice = net.chain.ledger.keys[0].hex as Hex;
    bob = net.chain.ledger.keys[1].hex as Hex;
    for (const p of net.providers)
      rpcs[p.name] = async (method, params) => {
        const r = (await (
          await fetch(p.evmRpc, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
          })
        ).json()) as Answer;
        return r.error ? { error: r.error } : { result: r.result };
      };
  });
  after(async () => net?.stop());

  const bankCall = (account: Hex) => ({ to: BANK_PRECOMPILE, data: encodeFunctionData({ abi: BANK_ABI, functionName: 'balances', args: [account] }) });
  const bankAmount = (output: Hex): bigint => {
    const [coins] = [decodeFunctionResult({ abi: BANK_ABI, functionName: 'balances', data: output })] as unknown as [
      Array<{ contractAddress: Hex; amount: bigint }>,
    ];
    return coins.find((c) => c.contractAddress.toLowerCase() === NATIVE_ERC20.toLowerCase())?.amount ?? 0n;
  };
  const balanceOf = async (a: Hex) => BigInt((await rpcs['anvil-like']('eth_getBalance', [a, 'latest'])).result as string);

  it('balance: the bank precompile reads the overridden balance on eth_call and debug_traceCall; nothing stays', async () => {
    const before = await balanceOf(alice);
    const plain = await rpcs['anvil-like']('eth_call', [bankCall(alice), 'latest']);
    assert.equal(bankAmount(plain.result), before);
    const over = { [alice]: { balance: `0x${(7n * ETHER).toString(16)}` }, [STRANGER]: { balance: '0x2a' } };
    const called = await rpcs['anvil-like']('eth_call', [bankCall(alice), 'latest', over]);
    assert.equal(bankAmount(called.result), 7n * ETHER);
    const stranger = await rpcs['v0.5-like']('eth_call', [bankCall(STRANGER), 'latest', over]);
    assert.equal(bankAmount(stranger.result), 42n);
    const traced = await rpcs['v0.5-like']('debug_traceCall', [bankCall(alice), 'latest', { tracer: 'callTracer', stateOverrides: over }]);
    assert.equal(bankAmount(traced.result.output), 7n * ETHER);
    // Only for that call.
    assert.equal(await balanceOf(alice), before);
    assert.equal(bankAmount((await rpcs['anvil-like']('eth_call', [bankCall(alice), 'latest'])).result), before);
  });

  it("balance: a call's value needs it (go-ethereum's insufficient funds); an override makes the transfer go through", async () => {
    const send = { from: STRANGER, to: bob, value: `0x${ETHER.toString(16)}` };
    for (const name of ['anvil-like', 'v0.5-like', 'evmd-like']) {
      const refused = await rpcs[name]('eth_call', [send, 'latest']);
      assert.equal(refused.error?.code, -32000, name);
      assert.equal(refused.error?.message, `insufficient funds for gas * price + value: address ${getAddress(STRANGER)} have 0 want 1000000000000000000`, name);
    }
    assert.equal((await rpcs['evmd-like']('eth_estimateGas', [send, 'latest'])).error?.message, 'insufficient funds for transfer');
    const rich = { [STRANGER]: { balance: `0x${(2n * ETHER).toString(16)}` } };
    assert.equal((await rpcs['v0.5-like']('eth_estimateGas', [send, 'latest', rich])).result, '0x5208');
    assert.equal((await rpcs['v0.5-like']('eth_call', [send, 'latest', rich])).result, '0x');
    const traced = await rpcs['v0.5-like']('debug_traceCall', [send, 'latest', { tracer: 'callTracer', stateOverrides: rich }]);
    assert.equal(traced.error, undefined);
    assert.equal(traced.result.value, `0x${ETHER.toString(16)}`);
    assert.equal((await rpcs['v0.5-like']('debug_traceCall', [send, 'latest', { tracer: 'callTracer' }])).error?.code, -32000);
  });

  it('balance: eth_simulateV1 moves the value between steps (the second transfer past the overridden balance fails, -38014)', async () => {
    const step = { from: STRANGER, to: bob, value: `0x${ETHER.toString(16)}` };
    const sim = (balance: bigint, calls: unknown[]) =>
      rpcs['anvil-like']('eth_simulateV1', [
        { blockStateCalls: [{ calls, stateOverrides: { [STRANGER]: { balance: `0x${balance.toString(16)}` } } }], traceTransfers: true },
        'latest',
      ]);
    const two = await sim(2n * ETHER, [step, step, bankCall(STRANGER)]);
    assert.equal(two.error, undefined);
    assert.deepEqual(
      two.result[0].calls.map((c: { status: string }) => c.status),
      ['0x1', '0x1', '0x1'],
    );
    assert.equal(bankAmount(two.result[0].calls[2].returnData), 0n, 'both ether moved to bob inside the simulation');
    const short = await sim(ETHER + 1n, [step, step]);
    assert.equal(short.error?.code, -38014);
    assert.match(short.error?.message ?? '', /insufficient funds .* have 1 want 1000000000000000000/);
  });

  it("nonce: a simulated creation's address is the sender's at the overridden nonce; eth_simulateV1 validation checks it", async () => {
    const init = `${TOKEN_ARTIFACT.bytecode.object}${1000n.toString(16).padStart(64, '0')}` as Hex;
    const create = { from: alice, data: init };
    const nonce = net.chain.ledger.nonce(Buffer.from(alice.slice(2), 'hex'));
    const plain = await rpcs['v0.5-like']('debug_traceCall', [create, 'latest', { tracer: 'callTracer' }]);
    assert.equal(plain.result.type, 'CREATE');
    assert.equal(plain.result.to, getContractAddress({ from: alice, nonce }).toLowerCase());
    const over = await rpcs['v0.5-like']('debug_traceCall', [create, 'latest', { tracer: 'callTracer', stateOverrides: { [alice]: { nonce: '0x2a' } } }]);
    assert.equal(over.result.to, getContractAddress({ from: alice, nonce: 42n }).toLowerCase());
    assert.match(over.result.output, /^0x6080/, "the fixture token's runtime code");
    // eth_simulateV1 with validation: the nonce must be the sender's; each step uses the next one.
    const simulated = (n: bigint, calls: unknown[]) =>
      rpcs['anvil-like']('eth_simulateV1', [
        { blockStateCalls: [{ calls, stateOverrides: { [alice]: { nonce: `0x${n.toString(16)}` } } }], validation: true },
        'latest',
      ]);
    const ok = await simulated(9n, [
      { from: alice, to: bob, nonce: '0x9' },
      { from: alice, to: bob, nonce: '0xa' },
    ]);
    assert.equal(ok.error, undefined);
    const low = await simulated(9n, [{ from: alice, to: bob, nonce: '0x8' }]);
    assert.equal(low.error?.code, -38010);
    assert.match(low.error?.message ?? '', /^nonce too low: address 0x[0-9a-fA-F]{40}, tx: 8 state: 9$/);
    assert.equal((await simulated(9n, [{ from: alice, to: bob, nonce: '0xb' }])).error?.code, -38011);
    // Nothing stays.
    assert.equal(net.chain.ledger.nonce(Buffer.from(alice.slice(2), 'hex')), nonce);
  });

  it('code and state: still applied with balance and nonce in one override (the token at a new address, a balance slot)', async () => {
    const token = `0x${'77'.repeat(20)}` as Hex;
    const code = (await rpcs['anvil-like']('eth_getCode', [d.token, 'latest'])).result as string;
    const over = { [token]: { code, balance: '0x1', nonce: '0x1' } };
    const supply = await rpcs['anvil-like']('eth_call', [
      { to: token, data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'totalSupply' }) },
      'latest',
      over,
    ]);
    assert.equal(BigInt(supply.result), 0n);
    assert.equal(bankAmount((await rpcs['anvil-like']('eth_call', [bankCall(token), 'latest', over])).result), 1n);
  });

  it("simulate() shows a balance override in its result: the bank precompile's answer and the native transfer's balance changes", async () => {
    const http = new HttpClient();
    const execute = { http, timeoutMs: 10_000, maxBufferBytes: 4 << 20, spillDir: os.tmpdir(), formatWhileReceiving: false };
    const provider = { name: 'v0.5-like', endpoints: { evmRpc: net.providers.find((p) => p.name === 'v0.5-like')!.evmRpc } };
    const evm = evmCaller(provider, execute);
    const registry = new ContractRegistry();
    const ctx = { network: 'devnet', getCode: codeReader(evm) };
    const o = { provider: 'v0.5-like', support: { traceCall: true, callOverrides: true, simulateV1: false } };
    const read = await simulate(
      evm,
      { address: BANK_PRECOMPILE, function: 'balances(address)', args: [STRANGER], overrides: { [STRANGER]: { balance: '5000' } } },
      registry,
      ctx,
      o,
    );
    assert.equal(read.engine, 'debug_traceCall');
    assert.deepEqual(read.result, [{ contractAddress: NATIVE_ERC20, amount: '5000' }]);
    assert.equal(read.steps[0].trace?.frames[0].toName, 'bank');
    const sent = await simulate(
      evm,
      { address: bob, data: '0x', from: STRANGER, value: '3000', overrides: { [STRANGER]: { balance: '5000' } } },
      registry,
      ctx,
      o,
    );
    assert.equal(sent.ok, true);
    assert.deepEqual(
      sent.balanceChanges.map((c) => [c.account, c.asset, c.delta]),
      [
        [STRANGER, 'native', '-3000'],
        [bob.toLowerCase(), 'native', '3000'],
      ],
    );
    await assert.rejects(
      simulate(evm, { address: bob, data: '0x', from: STRANGER, value: '3000' }, registry, ctx, o),
      /insufficient funds for gas \* price \+ value/,
    );
  });
});
