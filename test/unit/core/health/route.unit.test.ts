// The provider router (src/core/health/route.ts) and the one lookup by name (providerNamed,
// networkNamed): run here, ask (best first, with why) or refuse (with why), from capabilities
// and health rows alone.

import * as assert from 'node:assert/strict';
import { findOperation } from '../../../../src/core/chain/operations';
import { networkNamed } from '../../../../src/core/config/networks';
import { type Provider, providerNamed } from '../../../../src/core/config/providers';
import type { Capabilities } from '../../../../src/core/health/capabilities';
import type { InterfaceHealth } from '../../../../src/core/health/model';
import { type RouteContext, bestOnInterface, routeAfterFailure, routeBest, routeChosen, routeNamed } from '../../../../src/core/health/route';

const p = (name: string): Provider => ({ name, endpoints: { consensusHttp: `http://${name}.example`, consensusRpc: `http://${name}.example` } });
const providers = [p('Pruned'), p('Archive'), p('Down'), { name: 'EvmOnly', endpoints: { evmRpc: 'http://evm.example' } }];
const caps: Record<string, Capabilities> = {
  Pruned: { provider: 'Pruned', probedAt: 1, notes: [], consensus: { earliestHeight: '1000', txIndex: true } },
  Archive: { provider: 'Archive', probedAt: 1, notes: [], consensus: { earliestHeight: '1', txIndex: true } },
  Down: { provider: 'Down', probedAt: 1, notes: [], consensus: { earliestHeight: '1', txIndex: true } },
};
const row = (provider: string, state: InterfaceHealth['state'], rank: number) =>
  ({ provider, iface: 'consensusHttp', state, rank }) as unknown as InterfaceHealth;
const ctx: RouteContext = {
  providers,
  capabilities: (n) => caps[n],
  rows: () => [row('Pruned', 'healthy', 1), row('Archive', 'healthy', 2), row('Down', 'down', 3)],
};
const block = findOperation('consensusHttp.block')!;

describe('provider router (core/health/route.ts)', () => {
  it('runs on the chosen provider when nothing says it cannot serve the request', () => {
    assert.deepEqual(routeChosen(block, { height: '5000' }, providers[0], ctx), { kind: 'run', provider: providers[0] });
  });

  it('asks, with why and the providers that can (best first, never one that is down), when the chosen one cannot', () => {
    const r = routeChosen(block, { height: '120' }, providers[0], ctx);
    assert.equal(r.kind, 'ask');
    if (r.kind !== 'ask') return;
    assert.match(r.reason ?? '', /Height 120 is below Pruned's earliest block 1,000/);
    assert.deepEqual(
      r.candidates.map((x) => x.name),
      ['Archive'],
    );
    assert.equal(r.chosen?.name, 'Pruned');
  });

  it('best: the ranked best able to serve it; refuse when no provider has the interface', () => {
    assert.deepEqual(routeBest(block, { height: '120' }, providers, ctx), { kind: 'run', provider: providers[1] });
    assert.deepEqual(routeBest(block, { height: '5000' }, providers, ctx), { kind: 'run', provider: providers[0] });
    const r = routeBest(block, { height: '1' }, [providers[3]], ctx);
    assert.equal(r.kind, 'refuse');
    assert.match(r.kind === 'refuse' ? r.reason : '', /No provider of that network has a Consensus HTTP address/i);
  });

  it('a name: run there, or refuse with why (unknown, or no such interface)', () => {
    assert.deepEqual(routeNamed(block, '  archive ', ctx), { kind: 'run', provider: providers[1] });
    const unknown = routeNamed(block, 'Nope', ctx);
    assert.equal(unknown.kind, 'refuse');
    assert.match(unknown.kind === 'refuse' ? unknown.reason : '', /No provider named "Nope". Configured providers: "Pruned", "Archive"/);
    const noIface = routeNamed(block, 'EvmOnly', ctx);
    assert.match(noIface.kind === 'refuse' ? noIface.reason : '', /has no Consensus HTTP address/i);
  });

  it('after a "not served here" failure: ask with the best other provider; never for a broadcast or another failure', () => {
    const unserved = { kind: 'rpc', message: 'height 120 is not available, lowest height is 1000' };
    const r = routeAfterFailure(block, { height: '120' }, providers[0], unserved, ctx);
    assert.equal(r?.kind, 'ask');
    assert.deepEqual(r?.kind === 'ask' && r.candidates.map((x) => x.name), ['Archive']);
    assert.equal(routeAfterFailure(block, { height: '120' }, providers[0], { kind: 'network', message: 'connection refused' }, ctx), undefined);
    const broadcast = findOperation('consensusRpc.broadcastTxSync')!;
    assert.equal(routeAfterFailure(broadcast, { tx: 'AA==' }, providers[0], { kind: 'http', message: 'x', status: 501 }, ctx), undefined);
  });

  it('providerNamed and networkNamed: trimmed, any case; a network by name, chain id, EVM chain id or key', () => {
    assert.equal(providerNamed(providers, ' ARCHIVE ')?.name, 'Archive');
    assert.equal(providerNamed(providers, ''), undefined);
    assert.equal(providerNamed(providers, 42), undefined);
    const networks = [{ key: 'cosmos:evmd-1', label: 'Testnet', chainId: 'evmd-1', evmChainId: '0x40000' }];
    for (const n of ['testnet', 'EVMD-1', '0x40000', 'cosmos:evmd-1']) assert.equal(networkNamed(networks, n)?.label, 'Testnet', n);
    assert.equal(networkNamed(networks, 'mainnet'), undefined);
  });
});

describe("provider router: the best on a stream's interface (Watch Events)", () => {
  const p = (name: string): Provider => ({ name, endpoints: { consensusWs: `ws://${name}.example` } });
  const [a, b, c] = [p('a'), p('b'), p('c')];
  const r = (provider: string, iface: string, state: InterfaceHealth['state'], rank: number) =>
    ({ provider, iface, state, rank }) as unknown as InterfaceHealth;

  it('the healthy one ranked first on that interface; ranks of other interfaces and unhealthy rows do not count', () => {
    const rows = [r('a', 'consensusWs', 'down', 1), r('b', 'consensusWs', 'healthy', 3), r('c', 'consensusWs', 'healthy', 2), r('a', 'evmWs', 'healthy', 0)];
    assert.equal(bestOnInterface([a, b, c], rows, 'consensusWs'), c);
    assert.equal(bestOnInterface([a, b], rows, 'consensusWs'), b);
  });

  it('the first candidate when none is ranked healthy; none without candidates', () => {
    assert.equal(bestOnInterface([b, a], [], 'consensusWs'), b);
    assert.equal(bestOnInterface([], [], 'consensusWs'), undefined);
  });
});
