// The contracts decoding on REAL transactions (issue 28's proof): a trace node of evmd v0.3.2 with
// the fixture token and router deployed and their traffic mined (helpers/contracts.ts), looked up by
// the explorer with the Foundry artifacts the helper wrote into a workspace: the transfer's call and
// its Transfer log, the routed payment's call tree with the STATICCALL to the bank precompile, the
// failed transfer's InsufficientBalance from the trace's output, callContract (the API's core) on a
// view and on a reverting call (evmd's eth_call gives `data: ""`), and decode() on a real log.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { encodeAbiParameters, getAddress } from 'viem';
import type { Provider } from '../../src/core/config/providers';
import { ArtifactIndex, nodeArtifactFiles } from '../../src/core/contracts/artifacts';
import { callContract } from '../../src/core/contracts/call';
import { ContractRegistry, type ResolveContext } from '../../src/core/contracts/registry';
import { forgetContext } from '../../src/core/explorer/context';
import { lookUp } from '../../src/core/explorer/lookup';
import { renderLookup } from '../../src/core/explorer/render';
import { type ExplorerSource, executeSource } from '../../src/core/explorer/source';
import type { EvmView } from '../../src/core/explorer/views';
import { BANK_PRECOMPILE } from '../devnet/fixtureContracts';
import { type ContractsChain, startContractsChain } from './helpers/contracts';
import { Runner } from './helpers/extension';

const E18 = 10n ** 18n;
const COFFEE = '0x00000000000000000000000000000000000c0ffe';

describe('contracts on evmd: the explorer, callContract and decode() on real transactions', function () {
  this.timeout(300_000);
  let chain: ContractsChain;
  let runner: Runner;
  let registry: ContractRegistry;
  let provider: Provider;
  let index: ArtifactIndex;

  const source = (): ExplorerSource => {
    forgetContext();
    return { ...executeSource(provider, runner.options()), contracts: { registry, network: 'evmd-trace' } };
  };
  const ctx = (notes: string[] = []): ResolveContext => {
    const src = source();
    return {
      network: 'evmd-trace',
      notes,
      getCode: async (a, b) => {
        const c = await src.evm('eth_getCode', [a, b]);
        return typeof c === 'string' ? c : undefined;
      },
    };
  };
  const evmOf = async (hash: string): Promise<EvmView> => {
    const r = await lookUp(source(), hash);
    assert.equal(r.kind, 'tx', `the lookup of ${hash} is a transaction`);
    const e = r.kind === 'tx' ? r.tx.evm.find((x) => x.hash.toLowerCase() === hash.toLowerCase()) : undefined;
    assert.ok(e, `the EVM view of ${hash}`);
    return e;
  };

  before(async function () {
    this.timeout(300_000);
    chain = await startContractsChain();
    provider = { name: 'evmd trace node', endpoints: { evmRpc: chain.evmRpc, consensusHttp: chain.node.cometHttp, consensusRpc: chain.node.cometHttp } };
    runner = new Runner(provider);
    index = new ArtifactIndex(nodeArtifactFiles(chain.workspace));
    registry = new ContractRegistry({ artifacts: index, readFile: (p) => fs.promises.readFile(path.join(chain.workspace, p)) });
  });
  after(async () => {
    await runner?.dispose();
    await chain?.dispose();
  });

  it('the transfer: FixtureToken matched by its runtime code, transfer(address,uint256) by name, its Transfer log with indexed args', async () => {
    const e = await evmOf(chain.txs.transfer);
    assert.equal(e.status, 'success');
    const d = e.decoded;
    assert.equal(d?.contract?.name, 'FixtureToken');
    assert.match(d?.contract?.source ?? '', /out\/FixtureToken\.sol\/FixtureToken\.json \(runtime code matched\)/);
    assert.equal(d?.call?.kind, 'function');
    assert.equal(d?.call?.signature, 'transfer(address,uint256)');
    assert.equal(d?.call?.contract, 'FixtureToken');
    assert.equal(d?.call?.guessed, undefined);
    assert.deepEqual(d?.call?.args, [
      { name: 'to', type: 'address', value: getAddress(COFFEE) },
      { name: 'amount', type: 'uint256', value: (100n * E18).toString() },
    ]);
    assert.deepEqual(
      d?.returns?.map((r) => [r.type, r.value]),
      [['bool', true]],
      'the return value, from the trace',
    );
    assert.equal(e.logs?.length, 1);
    const log = e.logs?.[0].decoded;
    assert.equal(log?.kind, 'event');
    assert.equal(log?.name, 'Transfer');
    assert.equal(log?.contract, 'FixtureToken');
    assert.deepEqual(
      log?.args?.map((a) => [a.name, a.type, a.indexed ?? false, a.value]),
      [
        ['from', 'address', true, chain.deployer],
        ['to', 'address', true, getAddress(COFFEE)],
        ['value', 'uint256', false, (100n * E18).toString()],
      ],
    );
    const doc = renderLookup(await lookUp(source(), chain.txs.transfer));
    assert.match(doc, /- call: `transfer\(address,uint256\)` · FixtureToken/);
  });

  it('the routed payment: its call tree from debug_traceTransaction, the STATICCALL to 0x…0804 named bank balances(address)', async () => {
    const e = await evmOf(chain.txs.route);
    const d = e.decoded;
    assert.equal(d?.contract?.name, 'FixtureRouter');
    assert.equal(d?.call?.signature, 'route(address,uint256)');
    assert.deepEqual(
      d?.call?.args?.map((a) => [a.name, a.value]),
      [
        ['to', chain.other],
        ['amount', (250n * E18).toString()],
      ],
    );
    const t = d?.trace;
    assert.ok(t, d?.traceNote ?? 'a trace');
    assert.equal(t.configAs, 'string', 'evmd wants tracerConfig as a string');
    const [top, bank, token] = t.frames;
    assert.equal(top.toName, 'FixtureRouter');
    assert.equal(bank.type, 'STATICCALL');
    assert.equal(bank.to?.toLowerCase(), BANK_PRECOMPILE.toLowerCase());
    assert.equal(bank.toName, 'bank');
    assert.equal(bank.fromName, 'FixtureRouter');
    assert.equal(bank.call?.signature, 'balances(address)');
    assert.equal(bank.call?.args?.[0].name, 'account');
    assert.equal(String(bank.call?.args?.[0].value).toLowerCase(), chain.deployer.toLowerCase(), 'the sender of the route call');
    assert.ok(Array.isArray(bank.outputs?.[0].value), 'the bank answer decoded as its Balance[]');
    assert.equal(token.type, 'CALL');
    assert.equal(token.toName, 'FixtureToken');
    assert.equal(token.call?.signature, 'transferFrom(address,address,uint256)');
    // Both logs: the token's Transfer and the router's Routed, each by its own contract.
    assert.deepEqual(
      e.logs?.map((l) => [l.decoded?.contract, l.decoded?.name]),
      [
        ['FixtureToken', 'Transfer'],
        ['FixtureRouter', 'Routed'],
      ],
    );
    const doc = renderLookup(await lookUp(source(), chain.txs.route));
    assert.match(doc, /\*\*STATICCALL\*\* FixtureRouter `0x[0-9a-fA-F]{40}` → bank `0x0000000000000000000000000000000000000804` balances\(/);
  });

  it('the failed transfer: InsufficientBalance(available, required) decoded from the trace output', async () => {
    const e = await evmOf(chain.txs.failedTransfer);
    assert.equal(e.status, 'failed');
    const r = e.decoded?.revert;
    assert.equal(r?.kind, 'error');
    assert.equal(r?.signature, 'InsufficientBalance(uint256,uint256)');
    assert.equal(r?.contract, 'FixtureToken');
    assert.deepEqual(
      r?.args?.map((a) => [a.name, a.value]),
      [
        ['available', (250n * E18).toString()],
        ['required', (1000n * E18).toString()],
      ],
    );
    assert.equal(r?.data, e.decoded?.trace?.frames[0].output, 'the revert data is the top frame output');
    assert.equal(e.decoded?.trace?.frames[0].revert?.signature, 'InsufficientBalance(uint256,uint256)');
  });

  it('the token deployment: its CREATE frame names FixtureToken, its init code read as no selector; the mint Transfer from 0x0', async () => {
    const e = await evmOf(chain.txs.deployToken);
    assert.equal(e.decoded?.call, undefined, 'a creation has no call to decode');
    assert.equal(e.decoded?.contract?.name, 'FixtureToken', 'the created contract named by its runtime code');
    const [create] = e.decoded?.trace?.frames ?? [];
    assert.equal(create?.type, 'CREATE');
    assert.equal(create?.toName, 'FixtureToken');
    assert.deepEqual(
      e.logs?.map((l) => [l.decoded?.contract, l.decoded?.name, l.decoded?.args?.[0].value]),
      [['FixtureToken', 'Transfer', '0x0000000000000000000000000000000000000000']],
    );
    const doc = renderLookup(await lookUp(source(), chain.txs.deployToken));
    assert.match(doc, /\*\*CREATE\*\* `0x[0-9a-fA-F]{40}` → FixtureToken `0x[0-9a-fA-F]{40}` creation \(init code \d+ bytes\)/);
  });

  it('callContract: balanceOf as a decimal string; a reverting transfer honest about evmd giving no revert data', async () => {
    const src = source();
    const evm = (m: string, p: readonly unknown[]) => src.evm(m, p);
    const bal = await callContract(evm, { address: chain.token, function: 'balanceOf', args: [chain.other] }, registry, ctx());
    assert.equal(bal.contract, 'FixtureToken');
    assert.equal(bal.function, 'balanceOf(address)');
    assert.equal(bal.result, (250n * E18).toString());
    assert.equal(bal.error, undefined);
    assert.match(bal.gasEstimate ?? '', /^\d+$/);
    const bad = await callContract(
      evm,
      { address: chain.token, function: 'transfer', args: [COFFEE, (10n ** 40n).toString()], from: chain.other },
      registry,
      ctx(),
    );
    assert.equal(bad.result, undefined);
    assert.match(bad.error ?? '', /execution reverted/);
    // evmd answers eth_call's revert with { code: 3, data: "" }: nothing to decode, and said so.
    assert.equal(bad.revert?.kind, 'unknown');
    assert.match(bad.revert?.note ?? '', /no revert data/);
    assert.match(bad.gasError ?? '', /revert/);
    // The catalogue's operation (commands, api.run(), query files): its result is the decoded output.
    const op = await runner.ok('evm.callContract', { address: chain.token, function: 'balanceOf(address)(uint256)', args: chain.other });
    assert.equal(op.result, (250n * E18).toString());
  });

  it('decode() on a real log: the Transfer of the receipt by the token ABI, and by the standard ERC-20 ABI without artifacts', async () => {
    const receipt = (await chain.rpc('eth_getTransactionReceipt', [chain.txs.transfer])).result;
    const log = receipt.logs[0] as { address: string; topics: string[]; data: string };
    const d = await registry.decodeLog(log, ctx());
    assert.equal(d.contract, 'FixtureToken');
    assert.equal(d.signature, 'Transfer(address,address,uint256)');
    assert.deepEqual(
      d.args?.map((a) => [a.name, a.indexed ?? false, a.value]),
      [
        ['from', true, chain.deployer],
        ['to', true, getAddress(COFFEE)],
        ['value', false, (100n * E18).toString()],
      ],
    );
    const bare = await new ContractRegistry().decodeLog(log, {});
    assert.equal(bare.contract, 'ERC-20');
    assert.equal(bare.args?.[2].value, (100n * E18).toString());
    assert.equal(encodeAbiParameters([{ type: 'uint256' }], [100n * E18]), log.data);
    assert.ok(index.reads > 0);
  });
});
