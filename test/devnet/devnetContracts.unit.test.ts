// The test contracts on the devnet (fixtureContracts.ts, fixtureTxs.ts): their code is the
// checked-in Foundry artifact (itself what a fresh solc compile gives), their first-block traffic
// has the logs, statuses, reverts and callTracer frames a real chain gives, eth_call and
// debug_traceTransaction answer with evmd's quirks, and every answer has the shape evmd gave for
// the same request (test/fixtures/evmd/contracts, recorded by contractsEvmd.real.test.ts).
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { type Hex, decodeErrorResult, decodeEventLog, decodeFunctionResult, encodeFunctionData, getAddress } from 'viem';
import { shapeDiff } from '../real/helpers/shape';
import { type Devnet, startDevnet } from './devnet';
import { devTransfer } from './devSign';
import { BANK_PRECOMPILE, ROUTER_ABI, TOKEN_ABI, TOKEN_ARTIFACT } from './fixtureContracts';
import type { FixtureDeployment } from './fixtureTxs';
import { NATIVE_ERC20 } from './ledger';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const RECORDED = path.join(ROOT, 'test', 'fixtures', 'evmd', 'contracts');
const TOKEN = 10n ** 18n;
type Answer = { result?: any; error?: { code: number; message: string; data?: unknown } };

describe('devnet: the test contracts (deployed, run, traced like on evmd)', function () {
  this.timeout(60_000);
  let net: Devnet;
  let d: FixtureDeployment;
  let rpc: (method: string, params: unknown[]) => Promise<Answer>;

  before(async () => {
    net = await startDevnet({ realTxs: true, blockIntervalMs: 0 });
    d = net.chain.ledger.fixtureDeployment as FixtureDeployment;
    const url = net.providers[0].evmRpc;
    rpc = async (method, params) => {
      const r = (await (
        await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
      ).json()) as Answer;
      return r.error ? { error: r.error } : { result: r.result };
    };
  });
  after(async () => net?.stop());

  it('the checked-in artifacts are what solc compiles from the sources (scripts/contracts.mjs --check)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts', 'contracts.mjs'), '--check'], { timeout: 50_000 });
    assert.match(stdout, /artifacts match a fresh compile/);
  });

  it('eth_getCode: the Foundry artifact with the owner immutable filled in', async () => {
    const code = (await rpc('eth_getCode', [d.token, 'latest'])).result as string;
    const a = TOKEN_ARTIFACT.deployedBytecode;
    assert.equal(code.length, a.object.length);
    let expected = a.object.toLowerCase();
    for (const slots of Object.values(a.immutableReferences))
      for (const s of slots)
        expected = expected.slice(0, 2 + 2 * s.start) + d.deployer.slice(2).toLowerCase().padStart(64, '0') + expected.slice(2 + 2 * (s.start + s.length));
    assert.equal(code, expected);
    assert.notEqual((await rpc('eth_getCode', [d.router, 'latest'])).result, '0x');
  });

  it('receipts: logs that viem decodes with the ABI, the failed transfer with status 0x0 and none', async () => {
    const receipt = async (h: Hex) => (await rpc('eth_getTransactionReceipt', [h])).result;
    const route = await receipt(d.txs.route);
    assert.equal(route.status, '0x1');
    const [transfer, routed] = route.logs;
    const t = decodeEventLog({ abi: TOKEN_ABI, data: transfer.data, topics: transfer.topics });
    assert.equal(t.eventName, 'Transfer');
    assert.deepEqual(t.args, { from: d.deployer, to: net.chain.ledger.keys[1].hex, value: 250n * TOKEN });
    const r = decodeEventLog({ abi: ROUTER_ABI, data: routed.data, topics: routed.topics });
    assert.deepEqual(r.args, { from: d.deployer, to: net.chain.ledger.keys[1].hex, amount: 250n * TOKEN, bankBalances: 1n });
    assert.equal(getAddress(routed.address), d.router);
    const failed = await receipt(d.txs.failedTransfer);
    assert.equal(failed.status, '0x0');
    assert.deepEqual(failed.logs, []);
    assert.equal(failed.gasUsed, '0xc350', 'evmd charges half the gas limit at least');
    assert.equal((await receipt(d.txs.deployToken)).contractAddress, d.token.toLowerCase());
  });

  it('callTracer: the STATICCALL to the bank precompile, the revert data of the failed transfer; evmd wants tracerConfig as a string', async () => {
    const route = (await rpc('debug_traceTransaction', [d.txs.route, { tracer: 'callTracer', tracerConfig: '{"withLog":true}' }])).result;
    assert.deepEqual(
      route.calls.map((c: { type: string; to: string }) => [c.type, c.to]),
      [
        ['STATICCALL', BANK_PRECOMPILE],
        ['CALL', d.token.toLowerCase()],
      ],
    );
    const held = decodeFunctionResult({ abi: ROUTER_ABI, functionName: 'bankBalances', data: route.calls[0].output });
    assert.equal(getAddress((held as Array<{ contractAddress: Hex }>)[0].contractAddress), NATIVE_ERC20);
    const failed = (await rpc('debug_traceTransaction', [d.txs.failedTransfer, { tracer: 'callTracer' }])).result;
    assert.equal(failed.error, 'execution reverted');
    assert.equal(failed.gasUsed, '0x0');
    const e = decodeErrorResult({ abi: TOKEN_ABI, data: failed.output });
    assert.equal(e.errorName, 'InsufficientBalance');
    assert.deepEqual(e.args, [250n * TOKEN, 1000n * TOKEN]);
    const top = (await rpc('debug_traceTransaction', [d.txs.route, { tracer: 'callTracer', tracerConfig: '{"onlyTopCall":true}' }])).result;
    assert.equal(top.calls, undefined);
    const bad = await rpc('debug_traceTransaction', [d.txs.route, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
    assert.deepEqual(bad.error, {
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal object into Go struct field TraceConfig.tracerConfig of type string',
    });
  });

  it('eth_call: values decoded, every revert (custom error, Error(string), Panic) is code 3 without data, as evmd', async () => {
    const call = (to: Hex, data: Hex, from?: Hex) => rpc('eth_call', [{ to, data, ...(from ? { from } : {}) }, 'latest']);
    const [alice, bob] = net.chain.ledger.keys;
    const bal = await call(d.token, encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [bob.hex] }));
    assert.equal(BigInt(bal.result), 250n * TOKEN);
    const reverted = { code: 3, message: 'execution reverted', data: '' };
    const tooMuch = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [alice.hex, 10n ** 40n] });
    assert.deepEqual((await call(d.token, tooMuch, bob.hex)).error, reverted);
    const noAllowance = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transferFrom', args: [alice.hex, bob.hex, 1n] });
    assert.deepEqual((await call(d.token, noAllowance, bob.hex)).error, reverted);
    assert.deepEqual((await call(d.token, encodeFunctionData({ abi: TOKEN_ABI, functionName: 'ratio', args: [1n, 0n] }))).error, reverted);
    assert.equal(BigInt((await call(d.token, encodeFunctionData({ abi: TOKEN_ABI, functionName: 'ratio', args: [10n, 3n] }))).result), 3n);
    assert.equal(
      BigInt((await rpc('eth_estimateGas', [{ from: alice.hex, to: d.token, data: tooMuch.replace(/.{64}$/, '1'.padStart(64, '0')) }])).result) > 21_000n,
      true,
    );
  });

  it('a signed call sent with eth_sendRawTransaction runs the token: a mint by someone else fails with Error(string) in its trace', async () => {
    const data = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'mint', args: [net.chain.ledger.keys[2].hex, 5n] });
    const { raw, hash } = devTransfer(net.chain, 2, { to: d.token, value: 0n, input: data, gas: 100_000n });
    assert.equal((await rpc('eth_sendRawTransaction', [raw])).result, hash);
    net.produceBlock();
    assert.equal((await rpc('eth_getTransactionReceipt', [hash])).result.status, '0x0');
    const trace = (await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer' }])).result;
    assert.equal(trace.revertReason, 'FixtureToken: only the owner mints');
    assert.equal(decodeErrorResult({ abi: TOKEN_ABI, data: trace.output }).args?.[0], 'FixtureToken: only the owner mints');
  });

  it('every answer has the shape evmd gave for the same request (test/fixtures/evmd/contracts)', async () => {
    const files = fs.readdirSync(RECORDED).filter((f) => f.endsWith('.json') && f !== 'deployment.json');
    assert.ok(files.length >= 15, 'recorded answers present');
    const recordedDeployment = JSON.parse(fs.readFileSync(path.join(RECORDED, 'deployment.json'), 'utf8'));
    // The recorded requests, with evmd's addresses and hashes swapped for the devnet's.
    const swaps: Array<[string, string]> = [
      [recordedDeployment.token, d.token],
      [recordedDeployment.router, d.router],
      [recordedDeployment.deployer, d.deployer],
      ...Object.entries(recordedDeployment.txs as Record<string, string>).map(([k, h]): [string, string] => [h, d.txs[k as keyof FixtureDeployment['txs']]]),
    ];
    const diffs: string[] = [];
    for (const f of files) {
      const { request, response } = JSON.parse(fs.readFileSync(path.join(RECORDED, f), 'utf8')) as {
        request: { method: string; params: unknown[] };
        response: Answer;
      };
      let params = JSON.stringify(request.params);
      for (const [from, to] of swaps) params = params.split(from.slice(2).toLowerCase()).join(to.slice(2).toLowerCase()).split(from.slice(2)).join(to.slice(2));
      const mine = await rpc(request.method, JSON.parse(params));
      if (!!mine.error !== !!response.error) diffs.push(`${f}: devnet ${JSON.stringify(mine).slice(0, 120)}, evmd ${JSON.stringify(response).slice(0, 120)}`);
      else if (mine.error) assert.deepEqual(mine.error, response.error, f);
      else diffs.push(...shapeDiff(mine.result, response.result, { labelB: 'evmd' }).map((l) => `${f}: ${l}`));
    }
    assert.deepEqual(diffs, []);
  });
});
