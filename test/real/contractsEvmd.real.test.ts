// The test contracts on a real evmd (helpers/contracts.ts: a trace node with `debug` on and the
// static precompiles active): deployed from their Foundry artifacts, a routed payment through the
// bank precompile, a transfer and a failing transfer. Checks what evmd answers about them (code =
// the artifact with its immutables, logs, the revert in the trace's output, the STATICCALL frame to
// 0x…0804, evmd's tracerConfig and eth_call quirks) and that the devnet answers the same requests
// about its own fixture traffic with the same shapes and errors. With CHAIN_ENDPOINTS_RECORD=1
// (`npm run record:evmd:contracts`) the answers are written to test/fixtures/evmd/contracts/.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { type Hex, decodeErrorResult, encodeFunctionData, getAddress } from 'viem';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { BANK_PRECOMPILE, TOKEN_ABI } from '../devnet/fixtureContracts';
import { type ContractsChain, startContractsChain } from './helpers/contracts';
import { REPO_ROOT, raw, rawPost } from './helpers/nodes';
import { shapeDiff } from './helpers/shape';

const OUT = path.join(REPO_ROOT, 'test', 'fixtures', 'evmd', 'contracts');
const CALL_TRACER = { tracer: 'callTracer', tracerConfig: '{"withLog":true}' };
const INSUFFICIENT_BALANCE = '0xcf479181';

type Answer = { result?: any; error?: { code: number; message: string; data?: unknown } };
type Side = { rpc: (method: string, params: unknown[]) => Promise<Answer>; token: Hex; router: Hex; deployer: Hex; txs: ContractsChain['txs'] };

/** The requests both sides answer (and the recording keeps), by file name. */
function requests(s: Side): Array<[string, string, string, unknown[]]> {
  const t = s.txs;
  const transferTooMuch = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: ['0x00000000000000000000000000000000000c0ffe', 10n ** 40n] });
  const balanceOf = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [s.deployer] });
  const bankBalances = '0x8b1681a6' + s.deployer.slice(2).toLowerCase().padStart(64, '0');
  return [
    ['receipt-deployToken.json', 'receipt of the token deployment (its Transfer from 0x0)', 'eth_getTransactionReceipt', [t.deployToken]],
    ['receipt-approve.json', 'receipt of approve(router, 1000e18) (Approval)', 'eth_getTransactionReceipt', [t.approve]],
    ['receipt-route.json', 'receipt of route(other, 250e18): the token Transfer and the router Routed', 'eth_getTransactionReceipt', [t.route]],
    ['receipt-transfer.json', 'receipt of transfer(0x…c0ffe, 100e18)', 'eth_getTransactionReceipt', [t.transfer]],
    ['receipt-failedTransfer.json', 'receipt of the failing transfer: status 0x0, no logs', 'eth_getTransactionReceipt', [t.failedTransfer]],
    ['tx-route.json', 'eth_getTransactionByHash of the route call', 'eth_getTransactionByHash', [t.route]],
    ['tx-failedTransfer.json', 'eth_getTransactionByHash of the failing transfer', 'eth_getTransactionByHash', [t.failedTransfer]],
    [
      'trace-route.json',
      'callTracer of the route call: STATICCALL to the bank precompile, CALL to the token',
      'debug_traceTransaction',
      [t.route, CALL_TRACER],
    ],
    [
      'trace-failedTransfer.json',
      'callTracer of the failing transfer: InsufficientBalance in `output`',
      'debug_traceTransaction',
      [t.failedTransfer, CALL_TRACER],
    ],
    ['trace-transfer.json', 'callTracer of the transfer', 'debug_traceTransaction', [t.transfer, CALL_TRACER]],
    ['trace-deployToken.json', 'callTracer of the token deployment (CREATE)', 'debug_traceTransaction', [t.deployToken, CALL_TRACER]],
    [
      'trace-route-onlyTopCall.json',
      'callTracer with tracerConfig {"onlyTopCall":true}',
      'debug_traceTransaction',
      [t.route, { tracer: 'callTracer', tracerConfig: '{"onlyTopCall":true}' }],
    ],
    [
      'trace-error-tracerConfig-object.json',
      'tracerConfig as an object (geth style): evmd refuses it',
      'debug_traceTransaction',
      [t.route, { tracer: 'callTracer', tracerConfig: { withLog: true } }],
    ],
    ['code-token.json', 'eth_getCode of the token (immutables filled)', 'eth_getCode', [s.token, 'latest']],
    ['code-router.json', 'eth_getCode of the router', 'eth_getCode', [s.router, 'latest']],
    ['call-balanceOf.json', 'eth_call balanceOf(deployer)', 'eth_call', [{ to: s.token, data: balanceOf }, 'latest']],
    [
      'call-bankBalances.json',
      "eth_call router.bankBalances(deployer): the bank precompile's answer",
      'eth_call',
      [{ to: s.router, data: bankBalances }, 'latest'],
    ],
    [
      'call-revert.json',
      'eth_call of a transfer beyond the balance: code 3, data ""',
      'eth_call',
      [{ from: s.deployer, to: s.token, data: transferTooMuch }, 'latest'],
    ],
    ['estimateGas-revert.json', 'eth_estimateGas of the same transfer', 'eth_estimateGas', [{ from: s.deployer, to: s.token, data: transferTooMuch }]],
    ['logs-token.json', 'eth_getLogs of the token from block 1', 'eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest', address: s.token }]],
  ];
}

describe('contracts on evmd: deployed fixtures, logs, reverts and callTracer traces (and the devnet alike)', function () {
  this.timeout(180_000);
  let chain: ContractsChain;
  let devnet: Devnet;
  const evmd = new Map<string, Answer>();
  const dev = new Map<string, Answer>();

  before(async () => {
    chain = await startContractsChain();
    for (const [file, , method, params] of requests(chain)) evmd.set(file, await chain.rpc(method, params));
    devnet = await startDevnet({ realTxs: true, blockIntervalMs: 0 });
    devnet.produceBlock();
    const d = devnet.chain.ledger.fixtureDeployment;
    assert.ok(d);
    const url = devnet.providers[0].evmRpc;
    const rpc = async (method: string, params: unknown[]): Promise<Answer> => {
      const r = (await rawPost(url, { jsonrpc: '2.0', id: 1, method, params })).json;
      return r.error ? { error: r.error } : { result: r.result };
    };
    for (const [file, , method, params] of requests({ rpc, token: d.token, router: d.router, deployer: d.deployer, txs: d.txs }))
      dev.set(file, await rpc(method, params));
    if (process.env.CHAIN_ENDPOINTS_RECORD === '1') record(chain, evmd);
  });
  after(async () => {
    await devnet?.stop();
    await chain?.dispose();
  });

  it('the runtime code is the Foundry artifact with its immutables filled in', () => {
    const code = evmd.get('code-token.json')?.result as string;
    const artifact = chain.artifacts.token.deployedBytecode;
    let expected = artifact.object.toLowerCase();
    for (const slots of Object.values(artifact.immutableReferences))
      for (const s of slots)
        expected = expected.slice(0, 2 + 2 * s.start) + chain.deployer.slice(2).toLowerCase().padStart(64, '0') + expected.slice(2 + 2 * (s.start + s.length));
    assert.equal(code, expected);
  });

  it('receipts: the deployment, the routed payment with two logs, the failed transfer with status 0x0 and none', () => {
    const deploy = evmd.get('receipt-deployToken.json')?.result;
    assert.equal(getAddress(deploy.contractAddress), chain.token);
    const route = evmd.get('receipt-route.json')?.result;
    assert.equal(route.status, '0x1');
    assert.deepEqual(
      route.logs.map((l: { address: string }) => getAddress(l.address)),
      [chain.token, chain.router],
    );
    const failed = evmd.get('receipt-failedTransfer.json')?.result;
    assert.equal(failed.status, '0x0');
    assert.deepEqual(failed.logs, []);
  });

  it('the failed transfer: its trace carries InsufficientBalance(250e18, 1000e18) in the top frame', () => {
    const trace = evmd.get('trace-failedTransfer.json')?.result;
    assert.equal(trace.error, 'execution reverted');
    assert.ok(String(trace.output).startsWith(INSUFFICIENT_BALANCE), trace.output);
    const e = decodeErrorResult({ abi: TOKEN_ABI, data: trace.output });
    assert.equal(e.errorName, 'InsufficientBalance');
    assert.deepEqual(e.args, [250n * 10n ** 18n, 1000n * 10n ** 18n]);
  });

  it('the routed payment: a STATICCALL frame to the bank precompile balances(address), then the token CALL', () => {
    const trace = evmd.get('trace-route.json')?.result;
    const [bank, token] = trace.calls;
    assert.equal(bank.type, 'STATICCALL');
    assert.equal(bank.to, BANK_PRECOMPILE);
    assert.ok(String(bank.input).startsWith('0x27e235e3'));
    assert.equal(token.type, 'CALL');
    assert.equal(getAddress(token.to), chain.token);
    assert.ok(String(token.input).startsWith('0x23b872dd'), 'transferFrom');
    assert.equal(evmd.get('trace-route-onlyTopCall.json')?.result.calls, undefined);
  });

  it("evmd's quirks: tracerConfig must be a string; eth_call of a revert has no data", () => {
    const bad = evmd.get('trace-error-tracerConfig-object.json')?.error;
    assert.equal(bad?.code, -32602);
    assert.match(bad?.message ?? '', /cannot unmarshal object into Go struct field TraceConfig.tracerConfig of type string/);
    assert.deepEqual(evmd.get('call-revert.json')?.error, { code: 3, message: 'execution reverted', data: '' });
  });

  it("the failed transfer's Cosmos events (block_results): the devnet's ethereum_tx events have evmd's attributes", async () => {
    const eventsOf = async (comet: string, height: string, hash: string): Promise<string[]> => {
      const r = (await raw(`${comet}/block_results?height=${BigInt(height)}`)).json.result;
      const tx = (r.txs_results as Array<{ events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }> }>).find((t) =>
        t.events.some((e) => e.attributes.some((a) => a.key === 'ethereumTxHash' && a.value === hash)),
      );
      assert.ok(tx, `the tx ${hash} in block ${height}`);
      return tx.events.filter((e) => e.type === 'ethereum_tx').map((e) => e.attributes.map((a) => a.key).join(','));
    };
    const e = evmd.get('receipt-failedTransfer.json')?.result;
    const d = dev.get('receipt-failedTransfer.json')?.result;
    const evmdEvents = await eventsOf(chain.node.cometHttp, e.blockNumber, e.transactionHash);
    const devEvents = await eventsOf(devnet.providers[0].consensusHttp, d.blockNumber, d.transactionHash);
    assert.ok(
      evmdEvents.some((k) => k.split(',').includes('ethereumTxFailed')),
      evmdEvents.join(' | '),
    );
    assert.deepEqual(devEvents, evmdEvents);
  });

  it('the devnet answers every one of these requests about its own fixture traffic with the same shapes and errors', () => {
    const diffs: string[] = [];
    for (const [file] of requests(chain)) {
      const a = dev.get(file) as Answer;
      const b = evmd.get(file) as Answer;
      if (!!a.error !== !!b.error) {
        diffs.push(`${file}: devnet ${JSON.stringify(a).slice(0, 160)}, evmd ${JSON.stringify(b).slice(0, 160)}`);
        continue;
      }
      if (a.error && b.error) {
        if (a.error.code !== b.error.code || a.error.message !== b.error.message || a.error.data !== b.error.data)
          diffs.push(`${file}: error devnet ${JSON.stringify(a.error)}, evmd ${JSON.stringify(b.error)}`);
        continue;
      }
      for (const l of shapeDiff(a.result, b.result, { labelB: 'evmd' })) diffs.push(`${file}: ${l}`);
    }
    assert.deepEqual(diffs, []);
  });
});

function record(chain: ContractsChain, answers: Map<string, Answer>): void {
  mkdirSync(OUT, { recursive: true });
  const rows: string[] = [];
  for (const [file, what, method, params] of requests(chain)) {
    writeFileSync(path.join(OUT, file), JSON.stringify({ request: { method, params }, response: answers.get(file) }, null, 2) + '\n');
    rows.push(`| \`${file}\` | ${what} |`);
  }
  const deployment = { token: chain.token, router: chain.router, deployer: chain.deployer, other: chain.other, txs: chain.txs };
  writeFileSync(path.join(OUT, 'deployment.json'), JSON.stringify(deployment, null, 2) + '\n');
  const readme = [
    '# Real evmd answers about the test contracts (fixtures)',
    '',
    'Recorded by `npm run record:evmd:contracts` (test/real/contractsEvmd.real.test.ts with',
    '`CHAIN_ENDPOINTS_RECORD=1`) from a fresh evmd v0.3.2 trace node (`debug` in the JSON-RPC api, static',
    `precompiles 0x…0100, 0x…0400, 0x…0800-0x…0807 active, native token pair) on ${new Date().toISOString().slice(0, 10)}.`,
    'The contracts are test/fixtures/contracts (FixtureToken, FixtureRouter; Foundry artifacts in its `out/`),',
    'deployed by dev0; `deployment.json` has their addresses and the hashes of the traffic. Each file is',
    '`{ request, response }`: the JSON-RPC request sent and the `result` or `error` evmd answered.',
    '',
    '| file | what |',
    '|---|---|',
    '| `deployment.json` | addresses (token, router, deployer, other) and transaction hashes |',
    ...rows,
    '',
  ].join('\n');
  writeFileSync(path.join(OUT, 'README.md'), readme);
  console.log(`      recorded ${rows.length + 1} files into ${path.relative(REPO_ROOT, OUT)}`);
}
