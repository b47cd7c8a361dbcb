// Capabilities against devnet providers that each serve less (pruned, no indexer, no debug or
// txpool, no rpc_modules, a REST module answering 501, WebSocket refused): the probes report
// each, the checks predict what the requests then really do, and the best provider for a request
// is one that can serve it.

import * as assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { type Capabilities, probeCapabilities } from '../../../../src/core/health/capabilities';
import { probeOptions } from '../../../../src/core/chain/requestOptions';
import { bestProvidersFor, canServe, looksUnserved, restModuleOf } from '../../../../src/core/health/serves';
import { execute } from '../../../../src/core/chain/execute';
import { findOperation } from '../../../../src/core/chain/operations';
import type { Provider } from '../../../../src/core/config/providers';
import { HttpClient } from '../../../../src/core/transport/http';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { checkBeforeRun, suggestAfterFailure } from '../../../../src/ui/health/capabilityCheck';

const PRUNED_BELOW = 6n;

describe('provider capabilities', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  let providers: Provider[];
  const caps = new Map<string, Capabilities>();
  const op = (id: string) => findOperation(id)!;
  const provider = (name: string) => providers.find((p) => p.name === name)!;

  before(async () => {
    devnet = await startDevnet({
      blockIntervalMs: 50,
      providers: [
        { name: 'full' },
        { name: 'pruned', capabilities: { prunedBelow: PRUNED_BELOW } },
        { name: 'noindex', capabilities: { txIndex: false } },
        { name: 'plain', capabilities: { evmNamespaces: ['eth', 'net', 'web3'], rpcModules: false } },
        { name: 'nobank', capabilities: { restModulesOff: ['bank'] } },
        { name: 'nows', capabilities: { wsRefused: true } },
      ],
    });
    http = new HttpClient();
    providers = devnet.providers.map(({ name, ...endpoints }) => ({ name, endpoints }));
    while (devnet.height() < PRUNED_BELOW + 4n) await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    for (const c of await Promise.all(providers.map((p) => probeCapabilities(p, { execute: probeOptions(http, 5000), costly: true })))) caps.set(c.provider, c);
    console.log(`      (capabilities of ${providers.length} providers probed in ${Date.now() - started} ms)`);
  });
  after(async () => {
    await devnet.stop();
    await http.close();
  });

  it('stops at once when cancelled, each part a note', async () => {
    const abort = new AbortController();
    abort.abort();
    const started = Date.now();
    const c = await probeCapabilities(provider('full'), { execute: probeOptions(http, 5000, abort.signal), costly: true });
    assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
    assert.equal(c.evm, undefined);
    assert.equal(c.consensus, undefined);
    assert.equal(c.rest, undefined);
    assert.ok(c.notes.length >= 4, c.notes.join(' | '));
  });

  it('reports everything a full node serves', () => {
    const c = caps.get('full')!;
    assert.deepEqual(c.notes, []);
    assert.deepEqual(c.evm?.namespaces, ['debug', 'eth', 'net', 'txpool', 'web3']);
    assert.equal(c.evm?.namespacesFrom, 'rpc_modules');
    assert.equal(c.evm?.chainId, '0x' + devnet.evmChainId.toString(16));
    assert.match(c.evm?.clientVersion ?? '', /devnet/);
    assert.equal(c.evm?.archive, true);
    assert.equal(c.consensus?.txIndex, true);
    assert.equal(c.consensus?.earliestHeight, '1');
    assert.equal(c.consensus?.nodeVersion, '0.38.12');
    assert.deepEqual(c.websocket, { consensus: true, evm: true });
    for (const m of ['tendermint', 'auth', 'bank', 'staking', 'gov', 'tx', 'evm']) assert.equal(c.rest?.modules[m], true, m);
    assert.ok(c.probedAt <= Date.now());
  });

  it('reports a pruned node: its earliest block, and old EVM state refused', () => {
    const c = caps.get('pruned')!;
    assert.equal(c.consensus?.earliestHeight, PRUNED_BELOW.toString());
    assert.equal(c.evm?.archive, false);
    assert.equal(c.evm?.oldStateBlock, '1');
  });

  it('reports the indexer off, namespaces found by calls, a REST module not served, WebSockets refused', () => {
    assert.equal(caps.get('noindex')!.consensus?.txIndex, false);
    const plain = caps.get('plain')!;
    assert.equal(plain.evm?.namespacesFrom, 'calls');
    assert.deepEqual(plain.evm?.namespaces, ['eth', 'net', 'web3']);
    assert.equal(caps.get('nobank')!.rest?.modules.bank, false);
    assert.equal(caps.get('nobank')!.rest?.modules.staking, true);
    assert.deepEqual(caps.get('nows')!.websocket, { consensus: false, evm: false });
  });

  it('marks what a provider cannot serve before any argument is typed', () => {
    const notServed = (id: string, name: string) => canServe(op(id), undefined, caps.get(name)).served === false;
    assert.ok(notServed('consensusHttp.tx', 'noindex'));
    assert.ok(!notServed('consensusHttp.tx', 'full'));
    assert.ok(notServed('rest.balances', 'nobank'));
    assert.ok(!notServed('rest.latestBlock', 'nobank'));
    assert.ok(notServed('consensusWs.subscribeNewBlocks', 'nows'));
    assert.ok(!notServed('consensus.block', 'pruned'), 'a height-dependent refusal needs the height');
    assert.equal(canServe(op('consensusHttp.tx'), undefined, undefined).served, undefined);
  });

  it('predicts each refusal, and the request really is refused that way', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['consensus.block', 'pruned', { height: '2' }],
      ['rest.blockByHeight', 'pruned', { height: '2' }],
      ['evm.getBlockByNumber', 'pruned', { height: '2' }],
      ['consensusHttp.tx', 'noindex', { hash: 'AB'.repeat(32) }],
      ['evm.custom', 'plain', { method: 'debug_traceTransaction', params: '["0x' + '11'.repeat(32) + '"]' }],
      ['evm.custom', 'plain', { method: 'txpool_status', params: '' }],
      ['rest.balances', 'nobank', { address: 'cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a' }],
    ];
    for (const [id, name, args] of cases) {
      const v = canServe(op(id), args, caps.get(name));
      assert.equal(v.served, false, `${id} on ${name}`);
      const o = await execute(provider(name), op(id), args, { http, timeoutMs: 5000, maxBufferBytes: 1 << 20, spillDir: tmpdir() });
      if (id === 'evm.getBlockByNumber') {
        assert.equal(o.result, null, 'Cosmos EVM answers null for a pruned block');
        continue;
      }
      assert.ok(o.error, `${id} on ${name} failed`);
      assert.ok(
        looksUnserved({ kind: o.error.kind, message: o.error.message, status: o.error.detail.status, code: o.error.detail.code }),
        `${id}: ${o.error.message}`,
      );
      // The same request is served by the full node.
      const full = await execute(provider('full'), op(id), args, { http, timeoutMs: 5000, maxBufferBytes: 1 << 20, spillDir: tmpdir() });
      if (id !== 'consensusHttp.tx' && id !== 'evm.custom') assert.equal(full.error, undefined, `${id} on full: ${full.error?.message}`);
    }
    const v = canServe(op('consensus.block'), { height: '2' }, caps.get('pruned'));
    assert.equal(v.served === false && v.reason, "Height 2 is below pruned's earliest block 6");
    assert.equal(canServe(op('consensus.block'), { height: String(PRUNED_BELOW) }, caps.get('pruned')).served, true);
  });

  it('the best provider for a request is one that can serve it', () => {
    const rows = [
      { provider: 'pruned', iface: 'consensusRpc' as const, state: 'healthy' as const, samples: 1, rank: 1 },
      { provider: 'full', iface: 'consensusRpc' as const, state: 'healthy' as const, samples: 1, rank: 2 },
    ];
    const best = (id: string, args: Record<string, string> | undefined) => bestProvidersFor(op(id), args, providers, (n) => caps.get(n), rows)[0]?.name;
    assert.equal(best('consensus.block', { height: '9' }), 'pruned', 'ranked first and serves it');
    assert.equal(best('consensus.block', { height: '2' }), 'full', 'the pruned one cannot');
    assert.notEqual(best('consensusHttp.tx', { hash: 'AB'.repeat(32) }), 'noindex');
    assert.equal(restModuleOf('/cosmos/base/tendermint/v1beta1/blocks/1'), 'tendermint');
    assert.equal(restModuleOf('/cosmos/bank/v1beta1/balances/x'), 'bank');
  });

  it('says why before sending and runs where chosen; after a refusal names another provider', async () => {
    const source = { capabilities: (n: string) => caps.get(n), rows: () => [] };
    const asked: string[] = [];
    const choose = (answer: number | undefined) => (message: string, actions: readonly string[]) => {
      asked.push(message);
      return Promise.resolve(answer === undefined ? undefined : actions[answer]);
    };
    const onlyTwo = [provider('pruned'), provider('full')];
    const there = await checkBeforeRun(source, op('consensus.block'), { height: '2' }, provider('pruned'), onlyTwo, choose(0));
    assert.equal('run' in there && there.run.name, 'full');
    assert.equal(asked.pop(), "Height 2 is below pruned's earliest block 6. full has it: run there?");
    const anyway = await checkBeforeRun(source, op('consensus.block'), { height: '2' }, provider('pruned'), onlyTwo, choose(1));
    assert.equal('run' in anyway && anyway.run.name, 'pruned');
    assert.deepEqual(await checkBeforeRun(source, op('consensus.block'), { height: '2' }, provider('pruned'), onlyTwo, choose(undefined)), { cancel: true });
    const served = await checkBeforeRun(source, op('consensus.block'), { height: '9' }, provider('pruned'), onlyTwo, choose(0));
    assert.equal('run' in served && served.run.name, 'pruned');
    assert.equal(asked.length, 2, 'no question when the provider serves it');
    const error = { kind: 'rpc', message: 'height 2 is not available, lowest height is 6', code: -32603 };
    const alt = await suggestAfterFailure(
      { capabilities: () => undefined, rows: () => [] },
      op('consensus.block'),
      { height: '2' },
      provider('pruned'),
      onlyTwo,
      error,
      choose(0),
    );
    assert.equal(alt?.name, 'full');
    assert.match(asked.pop()!, /pruned could not serve this request\. full may have it: run there\?/);
    const other = { kind: 'rpc', message: 'invalid height', code: -32602 };
    assert.equal(await suggestAfterFailure(source, op('consensus.block'), { height: '2' }, provider('pruned'), onlyTwo, other, choose(0)), undefined);
  });
});
