// The provider router's front door (src/core/health/routeCommand.ts): what a command's or the
// API's argument asks for (a tree node, a name, "best" of a network, nothing) becomes run here /
// ask (the candidates grouped by network) / refuse (with why), decided without the editor.

import * as assert from 'node:assert/strict';
import { findOperation } from '../../../../src/core/chain/operations';
import { groupNetworks } from '../../../../src/core/config/networks';
import type { Provider } from '../../../../src/core/config/providers';
import type { Capabilities } from '../../../../src/core/health/capabilities';
import type { InterfaceHealth } from '../../../../src/core/health/model';
import type { Route } from '../../../../src/core/health/route';
import { type RouteInput, bestRequested, routeCommand, routeTarget } from '../../../../src/core/health/routeCommand';

const http = (name: string, chainId: string, network?: string): Provider => ({
  name,
  chainId,
  ...(network ? { network } : {}),
  endpoints: { consensusHttp: `http://${name}.example` },
});
const mainA = http('main-a', 'main-1', 'Mainnet');
const testA = http('test-a', 'test-1');
const mainB = http('main-b', 'main-1');
const mainEvm: Provider = { name: 'main-evm', chainId: 'main-1', endpoints: { evmRpc: 'http://evm.example' } };
const providers = [mainA, testA, mainB, mainEvm];
const networks = groupNetworks(providers);

const caps: Record<string, Capabilities> = {
  'main-a': { provider: 'main-a', probedAt: 1, notes: [], consensus: { earliestHeight: '1000', txIndex: true } },
  'main-b': { provider: 'main-b', probedAt: 1, notes: [], consensus: { earliestHeight: '1', txIndex: true } },
};
const row = (provider: string, state: InterfaceHealth['state'], rank: number) =>
  ({ provider, iface: 'consensusHttp', state, rank }) as unknown as InterfaceHealth;
const ranked: RouteInput = {
  providers,
  capabilities: (n) => caps[n],
  rows: () => [row('main-a', 'healthy', 1), row('main-b', 'healthy', 2), row('test-a', 'healthy', 1)],
};
const unranked: RouteInput = { providers };

const block = findOperation('consensusHttp.block')!;
const evmBlockNumber = findOperation('evm.blockNumber')!;
const restBlock = findOperation('rest.blockByHeight')!;

function refused(r: Route): string {
  assert.equal(r.kind, 'refuse', `expected a refusal, got ${JSON.stringify(r)}`);
  if (r.kind !== 'refuse') return '';
  assert.equal(r.message.shown, r.reason);
  assert.ok(r.message.english.length > 0);
  return r.reason;
}

function names(ps: readonly Provider[] | undefined): string[] | undefined {
  return ps?.map((x) => x.name);
}

describe('provider router: a command or API argument (core/health/routeCommand.ts)', () => {
  it('a name (trimmed, any case; a number is a name too) runs there with no "among"', () => {
    assert.deepEqual(routeCommand(block, { provider: '  MAIN-B ', height: '5' }, networks, ranked), { kind: 'run', provider: mainB });
    const numbered = http('42', 'main-1');
    assert.deepEqual(routeCommand(block, { provider: 42 }, networks, { providers: [...providers, numbered] }), { kind: 'run', provider: numbered });
    assert.deepEqual(routeCommand(block, { provider: 42n }, networks, { providers: [...providers, numbered] }), { kind: 'run', provider: numbered });
    // A provider actually named "best" is that provider, not the ranked best.
    const named = http('Best', 'test-1');
    assert.deepEqual(routeCommand(block, { provider: 'best' }, networks, { providers: [...providers, named] }), { kind: 'run', provider: named });
  });

  it('an unknown name is refused, listing the providers (or "none"); a provider without the interface is refused', () => {
    assert.equal(
      refused(routeCommand(block, { provider: 'Nope' }, networks, ranked)),
      'No provider named "Nope". Configured providers: "main-a", "test-a", "main-b", "main-evm".',
    );
    assert.equal(refused(routeCommand(block, { provider: 'Nope' }, [], { providers: [] })), 'No provider named "Nope". Configured providers: none.');
    assert.equal(refused(routeCommand(block, { provider: 'main-evm' }, networks, ranked)), 'Provider "main-evm" has no Consensus HTTP address.');
    // Refused even when other providers have the interface: a name is never replaced.
    assert.equal(refused(routeCommand(evmBlockNumber, { provider: 'main-a' }, networks, ranked)), 'Provider "main-a" has no EVM RPC address.');
  });

  it("a name with a network: run when the provider is one of that network's; refused when it is not, or the network is unknown", () => {
    const main = networks.find((n) => n.providers.some((p) => p.name === 'main-a'))!;
    assert.deepEqual(routeCommand(block, { provider: 'main-b', network: 'main-1' }, networks, ranked), { kind: 'run', provider: mainB });
    assert.equal(
      refused(routeCommand(block, { provider: 'test-a', network: 'main-1' }, networks, ranked)),
      `Provider "test-a" is not a provider of the network "${main.label}".`,
    );
    assert.match(refused(routeCommand(block, { provider: 'main-b', network: 'nowhere' }, networks, ranked)), /^No network named "nowhere"\. Networks: ".+"/);
    // The name is checked first: an unknown name is refused as such, whatever the network.
    assert.match(refused(routeCommand(block, { provider: 'ghost', network: 'main-1' }, networks, ranked)), /^No provider named "ghost"/);
  });

  it('a tree node runs on its provider by exact name (its own object when not in the settings); refused without the interface', () => {
    const copy = { ...mainB, endpoints: { consensusHttp: 'http://stale.example' } };
    assert.deepEqual(routeCommand(block, { kind: 'operation', provider: copy, operation: block }, networks, ranked), { kind: 'run', provider: mainB });
    const gone = http('gone', 'main-1');
    assert.deepEqual(routeCommand(block, { kind: 'operation', provider: gone, operation: block }, networks, ranked), { kind: 'run', provider: gone });
    assert.equal(
      refused(routeCommand(evmBlockNumber, { kind: 'operation', provider: mainA, operation: evmBlockNumber }, networks, ranked)),
      'Provider "main-a" has no EVM RPC address.',
    );
  });

  it('an argument that is neither a tree item nor an object is refused, saying what to pass', () => {
    assert.match(refused(routeCommand(block, 'main-a', networks, ranked)), /must be a tree item or an object such as \{"provider": "Local node"\}/);
    assert.match(refused(routeCommand(block, 7, networks, ranked)), /must be a tree item/);
  });

  it('"best" of a network named (display name or chain id, any case): the ranked best for the arguments, among that network\'s providers with the interface', () => {
    const fresh = routeCommand(block, { provider: 'BEST', network: 'mainnet' }, networks, ranked, { height: '5000' });
    assert.equal(fresh.kind, 'run');
    assert.equal(fresh.kind === 'run' && fresh.provider.name, 'main-a');
    assert.deepEqual(fresh.kind === 'run' && names(fresh.among), ['main-a', 'main-b']);
    // Height 120 is below main-a's earliest block: the archive runs it.
    const old = routeCommand(block, { provider: 'best', network: 'Mainnet' }, networks, ranked, { height: '120' });
    assert.equal(old.kind === 'run' && old.provider.name, 'main-b');
    const test = routeCommand(block, { provider: ' Best ', network: 'TEST-1' }, networks, ranked, { height: '5' });
    assert.deepEqual(test, { kind: 'run', provider: testA, among: [testA] });
  });

  it('"best" without health is the first of the network; with health but none known able, the first too', () => {
    const r = routeCommand(block, { provider: 'best', network: 'Mainnet' }, networks, unranked, { height: '120' });
    assert.equal(r.kind === 'run' && r.provider.name, 'main-a');
    const allDown: RouteInput = { ...ranked, rows: () => [row('main-a', 'down', 1), row('main-b', 'down', 2)] };
    const down = routeCommand(block, { provider: 'best', network: 'Mainnet' }, networks, allDown, { height: '5000' });
    assert.equal(down.kind === 'run' && down.provider.name, 'main-a');
    assert.deepEqual(down.kind === 'run' && names(down.among), ['main-a', 'main-b']);
  });

  it('"best" with several networks serving it and none named is refused with what to pass; one serving network needs no name', () => {
    assert.equal(
      refused(routeCommand(block, { provider: 'best' }, networks, ranked)),
      '"best" needs the network too, such as {"provider": "best", "network": "Mainnet"}: 2 networks are configured.',
    );
    // Only Mainnet has an EVM RPC address: no need to name it.
    assert.deepEqual(routeCommand(evmBlockNumber, { provider: 'best' }, networks, unranked), { kind: 'run', provider: mainEvm, among: [mainEvm] });
    // The one network serving it need not be the first.
    const testEvm: Provider = { name: 'test-evm', chainId: 'test-1', endpoints: { evmRpc: 'http://test-evm.example' } };
    const mixed = [mainA, testEvm];
    assert.deepEqual(routeCommand(evmBlockNumber, { provider: 'best' }, groupNetworks(mixed), { providers: mixed }), {
      kind: 'run',
      provider: testEvm,
      among: [testEvm],
    });
    // No networks given: every provider is one network (with no name to list).
    const r = routeCommand(block, { provider: 'best' }, [], unranked);
    assert.deepEqual(r.kind === 'run' && names(r.among), ['main-a', 'test-a', 'main-b']);
    assert.equal(refused(routeCommand(block, { provider: 'best', network: 'x' }, [], unranked)), 'No network named "x". Networks: none.');
  });

  it('"best" of an unknown network names the networks; of a network without the interface, or when no provider has it, says so', () => {
    assert.equal(
      refused(routeCommand(block, { provider: 'best', network: 'nope' }, networks, ranked)),
      'No network named "nope". Networks: "Mainnet", "test-1".',
    );
    assert.equal(
      refused(routeCommand(evmBlockNumber, { provider: 'best', network: 'test-1' }, networks, ranked)),
      'No provider of that network has a EVM RPC address.',
    );
    assert.match(refused(routeCommand(restBlock, { provider: 'best', network: 'test-1' }, networks, ranked)), /^No configured provider has a REST address/);
  });

  it('nothing named: ask among the providers with the interface, grouped by network as the pick shows them', () => {
    const many = routeCommand(block, undefined, networks, ranked);
    assert.equal(many.kind, 'ask');
    if (many.kind !== 'ask') return;
    assert.deepEqual(names(many.candidates), ['main-a', 'main-b', 'test-a']);
    assert.deepEqual(
      many.groups?.map((g) => [g.label, names(g.providers)]),
      [
        ['Mainnet', ['main-a', 'main-b']],
        ['test-1', ['test-a']],
      ],
    );
    // An object without a provider asks too; one network: one group without a name, settings order.
    const one = routeCommand(block, { height: '5' }, [], ranked);
    assert.deepEqual(one.kind === 'ask' && one.groups, [{ providers: [mainA, testA, mainB] }]);
    // One candidate is still asked (the pick shows it), never chosen silently.
    const single = routeCommand(evmBlockNumber, null, networks, ranked);
    assert.deepEqual(single.kind === 'ask' && names(single.candidates), ['main-evm']);
  });

  it('nothing named and no provider with the interface: refused, saying how to add one', () => {
    assert.equal(
      refused(routeCommand(restBlock, undefined, networks, ranked)),
      'No configured provider has a REST address: add one with "Chain Endpoints: Add Provider".',
    );
    assert.match(refused(routeCommand(block, undefined, [], { providers: [] })), /^No configured provider has a Consensus HTTP address/);
  });

  it('bestRequested (Look Up\'s "best"): the providers to rank, with its own notion of usable', () => {
    const any = () => true;
    assert.equal(bestRequested({ provider: 'main-a' }, providers, networks, any), undefined);
    assert.equal(bestRequested(undefined, providers, networks, any), undefined);
    assert.deepEqual(names((bestRequested({ provider: 'best', network: 'main-1' }, providers, networks, any) as { among: Provider[] }).among), [
      'main-a',
      'main-b',
      'main-evm',
    ]);
    const r = bestRequested({ provider: 'best', network: 'x' }, providers, networks, any);
    assert.ok(r && 'refuse' in r && /No network named "x"/.test(r.refuse.reason));
  });
});

describe('the router for features that are not one operation (routeTarget: Look Up, Watch Events)', () => {
  const ws: Provider = { name: 'ws-only', chainId: 'test-1', endpoints: { consensusWs: 'ws://ws.example/websocket' } };
  const evmWs: Provider = { name: 'evm-ws', chainId: 'main-1', endpoints: { evmRpc: 'http://evm.example', evmWs: 'ws://evm.example' } };
  const all = [...providers, ws, evmWs];
  const nets = groupNetworks(all);
  const refused = (r: Route) => (r.kind === 'refuse' ? r.reason : assert.fail(`not refused: ${r.kind}`));

  it('Look Up: a name, "best" of a network, or ask; the same unknown-provider sentence as every command', async () => {
    const { lookUpTarget } = await import('../../../../src/core/explorer/bestProvider');
    const t = lookUpTarget();
    const named = routeTarget(t, { provider: 'MAIN-B' }, nets, all);
    assert.equal(named.kind === 'run' && named.provider.name, 'main-b');
    assert.equal(
      refused(routeTarget(t, { provider: 'Nope' }, nets, all)),
      refused(routeCommand(block, { provider: 'Nope' }, nets, { providers: all })),
      'one sentence for an unknown provider',
    );
    assert.match(refused(routeTarget(t, { provider: 'ws-only' }, nets, all)), /^Provider "ws-only" has no REST, Consensus or EVM RPC address\.$/);
    const best = routeTarget({ ...t, best: (among) => among[among.length - 1] }, { provider: 'best', network: 'main-1' }, nets, all);
    assert.ok(best.kind === 'run');
    assert.deepEqual(
      best.among?.map((p) => p.name),
      ['main-a', 'main-b', 'main-evm', 'evm-ws'],
      'the candidates of that network only',
    );
    assert.equal(best.provider.name, 'evm-ws', 'the ranking chooses');
    assert.match(refused(routeTarget(t, { provider: 'best' }, nets, all)), /"best" needs the network too/);
    assert.match(refused(routeTarget(t, { provider: 'main-a', network: 'test-1' }, nets, all)), /is not a provider of the network/);
    assert.match(refused(routeTarget(t, { provider: 'best', network: 'nowhere' }, nets, all)), /^No network named "nowhere"/);
    const ask = routeTarget(t, undefined, nets, all);
    assert.equal(ask.kind, 'ask');
    assert.ok(ask.kind === 'ask' && !ask.candidates.some((p) => p.name === 'ws-only'), 'only providers Look Up can read');
  });

  it('Watch Events: the stream decides the candidates, a named provider is taken as is, an EVM watch without evmWs says so', async () => {
    const { watchTarget } = await import('../../../../src/ui/events/chooseWatch');
    const evm = watchTarget(true, false, nets);
    const only = routeTarget(evm, {}, nets, all);
    assert.ok(only.kind === 'ask');
    assert.deepEqual(
      only.candidates.map((p) => p.name),
      ['evm-ws'],
    );
    assert.match(refused(routeTarget(evm, { provider: 'best', network: 'test-1' }, nets, all)), /No provider of test-1 publishes an EVM WebSocket address/);
    const named = routeTarget(evm, { provider: 'ws-only' }, nets, all);
    assert.equal(named.kind === 'run' && named.provider.name, 'ws-only', 'the family pick says what it lacks');
    const comet = watchTarget(false, true, nets, (among) => among[0]);
    const best = routeTarget(comet, { provider: 'best', network: 'test-1' }, nets, all);
    assert.equal(best.kind === 'run' && best.provider.name, 'ws-only');
    // `network` without a provider narrows the pick.
    const narrowed = routeTarget(watchTarget(false, false, nets), { network: 'main-1' }, nets, all);
    assert.deepEqual(narrowed.kind === 'ask' && narrowed.candidates.map((p) => p.name), ['evm-ws']);
    assert.equal(refused(routeTarget(comet, { provider: 'Nope' }, nets, all)), refused(routeCommand(block, { provider: 'Nope' }, nets, { providers: all })));
  });
});
