// Networks (src/core/config/networks.ts) and health judged within a network (classify.ts): grouping
// by declared and discovered chain identity, and per-network lag, wrong chain, ranking and failover.
import { strict as assert } from 'node:assert';
import type { Provider } from '../../../../src/core/config/providers';
import { parseProviders } from '../../../../src/core/config/providers';
import { groupNetworks, sameNetwork } from '../../../../src/core/config/networks';
import { classify, summarize } from '../../../../src/core/health/classify';
import type { InterfaceHealth, ProbeResult } from '../../../../src/core/health/model';
import type { Capabilities } from '../../../../src/core/health/capabilities';
import type { RouteInput } from '../../../../src/core/health/routeCommand';
import { networkOfPrimary } from '../../../../src/core/health/heightFollower';
import { ranked } from '../../../../src/core/health/rank';
import { summarizeNetworks } from '../../../../src/core/health/networkSummary';
import { toCsv, toRecords } from '../../../../src/core/health/healthExport';
import { scriptedPrompts } from '../../helpers/prompts';

const p = (name: string, extra: Partial<Provider> = {}): Provider => ({
  name,
  endpoints: { consensusHttp: `http://${name}.invalid`, evmRpc: `http://${name}.invalid:8545` },
  ...extra,
});

/** Rows as the monitor makes them: one probe per interface, `height` and `chainId` per family. */
function rows(spec: Record<string, { chain: string; evm: string; height: bigint; latency?: number } | 'down'>): InterfaceHealth[] {
  const out: InterfaceHealth[] = [];
  for (const [name, s] of Object.entries(spec)) {
    for (const iface of ['consensusHttp', 'evmRpc'] as const) {
      const probe: ProbeResult =
        s === 'down'
          ? { at: 1, ok: false, error: 'refused', failure: { kind: 'network', code: 'ECONNREFUSED' } }
          : { at: 1, ok: true, latencyMs: s.latency ?? 10, height: s.height, chainId: iface === 'evmRpc' ? s.evm : s.chain };
      out.push(summarize(name, iface, [probe], 2));
    }
  }
  return out;
}
const find = (list: InterfaceHealth[], provider: string, iface = 'consensusHttp') => list.find((r) => r.provider === provider && r.iface === iface)!;

/** A health ranking for consensusHttp: main-b first of Mainnet (but it keeps no block below 1000), then main-a; test-a alone. */
function bestRanking(providers: readonly Provider[]): RouteInput {
  const row = (provider: string, rank: number) => ({ provider, iface: 'consensusHttp', state: 'healthy', rank }) as unknown as InterfaceHealth;
  const caps: Record<string, Capabilities> = { 'main-b': { provider: 'main-b', probedAt: 1, notes: [], consensus: { earliestHeight: '1000', txIndex: true } } };
  return { providers, capabilities: (n) => caps[n], rows: () => [row('main-b', 1), row('main-a', 2), row('test-a', 1)] };
}

describe('networks', () => {
  it('groups providers by discovered chain id, in settings order, with their chain ids', () => {
    const providers = [p('local'), p('test-a'), p('test-b'), p('main')];
    const discovered: Record<string, { chainId: string; evmChainId: string }> = {
      local: { chainId: 'local-1', evmChainId: '0x1' },
      'test-a': { chainId: 'evmos_9000-4', evmChainId: '0x2328' },
      'test-b': { chainId: 'evmos_9000-4', evmChainId: '0x2328' },
      main: { chainId: 'evmos_9001-2', evmChainId: '0x2329' },
    };
    const nets = groupNetworks(providers, (n) => discovered[n]);
    assert.deepEqual(
      nets.map((n) => [n.key, n.label, n.evmChainId, n.providers.map((x) => x.name)]),
      [
        ['cosmos:local-1', 'local-1', '0x1', ['local']],
        ['cosmos:evmos_9000-4', 'evmos_9000-4', '0x2328', ['test-a', 'test-b']],
        ['cosmos:evmos_9001-2', 'evmos_9001-2', '0x2329', ['main']],
      ],
    );
    assert.deepEqual(
      sameNetwork(providers, nets, 'test-b').map((x) => x.name),
      ['test-a', 'test-b'],
    );
  });

  it('a declaration wins over discovery, an EVM-only provider joins its Cosmos network, a display name labels it', () => {
    const providers = [
      p('declared', { chainId: 'evmos_9000-4', network: 'Evmos testnet' }),
      p('evm only', { endpoints: { evmRpc: 'http://e.invalid' } }),
      p('not probed'),
    ];
    const nets = groupNetworks(providers, (n) =>
      n === 'declared' ? { chainId: 'other-1', evmChainId: '0x2328' } : n === 'evm only' ? { evmChainId: '0x2328' } : undefined,
    );
    assert.equal(nets.length, 1, 'a provider not identified yet joins the only network there is');
    assert.equal(nets[0].label, 'Evmos testnet');
    assert.equal(nets[0].chainId, 'evmos_9000-4');
    assert.deepEqual(
      nets[0].providers.map((x) => x.name),
      ['declared', 'evm only', 'not probed'],
    );
    const two = groupNetworks([...providers, p('main', { chainId: 'evmos_9001-2' })], (n) => (n === 'evm only' ? { evmChainId: '0x2329' } : undefined));
    assert.deepEqual(
      two.map((n) => [n.key, n.unidentified]),
      [
        ['cosmos:evmos_9000-4', false],
        ['evm:0x2329', false],
        ['unknown:not probed', true],
        ['cosmos:evmos_9001-2', false],
      ],
    );
    assert.deepEqual(
      groupNetworks([p('x'), p('y')]).map((n) => [n.key, n.providers.length]),
      [['unknown', 2]],
    );
  });

  it('reads the network display name from settings and refuses a non-text one', () => {
    const parsed = parseProviders([
      { name: 'a', consensusHttp: 'http://a.invalid', network: ' Local ' },
      { name: 'b', consensusHttp: 'http://b.invalid', network: 7 },
    ]);
    assert.equal(parsed.providers[0].network, 'Local');
    assert.equal(parsed.providers.length, 1);
    assert.match(parsed.problems[0].message, /network must be a name/);
  });
});

describe('health within a network', () => {
  it('the smaller network is not "wrong chain"; lag and rank are measured against its own best height', () => {
    const providers = [p('big-1'), p('big-2'), p('big-3'), p('small-1'), p('small-2')];
    const list = rows({
      'big-1': { chain: 'big-1', evm: '0x1', height: 5000n },
      'big-2': { chain: 'big-1', evm: '0x1', height: 5000n },
      'big-3': { chain: 'big-1', evm: '0x1', height: 4990n },
      'small-1': { chain: 'small-7', evm: '0x7', height: 100n },
      'small-2': { chain: 'small-7', evm: '0x7', height: 90n, latency: 5 },
    });
    classify(list, providers, () => ({}), 2);
    assert.equal(find(list, 'small-1').state, 'healthy', find(list, 'small-1').reason);
    assert.equal(find(list, 'small-1').behind, 0n);
    assert.equal(find(list, 'small-2').state, 'lagging');
    assert.equal(find(list, 'small-2').behind, 10n);
    assert.equal(find(list, 'big-3').behind, 10n);
    assert.equal(find(list, 'small-1', 'evmRpc').state, 'healthy');
    assert.equal(find(list, 'small-1').network, 'cosmos:small-7');
    // Each network ranks its own providers from 1.
    assert.equal(find(list, 'small-1').rank, 1);
    assert.equal(find(list, 'big-1').rank, 1);
    assert.deepEqual(
      ranked(list, 'consensusHttp', 'cosmos:small-7').map((r) => r.provider),
      ['small-1'],
    );
  });

  it('a provider serving another chain than it declares is "wrong chain" in the network it declares', () => {
    const providers = [p('a', { chainId: 'test-1' }), p('b', { chainId: 'test-1' }), p('c')];
    const list = rows({
      a: { chain: 'test-1', evm: '0x1', height: 10n },
      b: { chain: 'main-1', evm: '0x1', height: 900n },
      c: { chain: 'main-1', evm: '0x2', height: 900n },
    });
    classify(list, providers, (x) => ({ chainId: x.chainId }), 2);
    assert.equal(find(list, 'b').state, 'wrongChain');
    assert.match(find(list, 'b').reason!, /main-1 \(expected test-1\)/);
    assert.equal(find(list, 'b').network, 'cosmos:test-1');
    assert.equal(find(list, 'a').state, 'healthy', 'not measured against the wrong chain height');
    assert.equal(find(list, 'c').state, 'healthy');
  });

  it('a provider keeps its network while down (the last chain id it reported)', () => {
    const providers = [p('a'), p('b')];
    const up = rows({ a: { chain: 'x-1', evm: '0x1', height: 10n }, b: { chain: 'y-1', evm: '0x2', height: 10n } });
    const down = rows({ a: 'down' });
    const history = (name: string, iface: 'consensusHttp' | 'evmRpc') => [find(up, name, iface).last!, find(down, name, iface).last!];
    const list = [
      summarize('a', 'consensusHttp', history('a', 'consensusHttp'), 2),
      summarize('a', 'evmRpc', history('a', 'evmRpc'), 2),
      find(up, 'b'),
      find(up, 'b', 'evmRpc'),
    ];
    classify(list, providers, () => ({}), 2);
    assert.equal(find(list, 'a').state, 'down');
    assert.equal(find(list, 'a').network, 'cosmos:x-1');
    assert.equal(networkOfPrimary(list, 'a'), 'cosmos:x-1');
  });

  it('a primary never identified fails over only when a single network is known', () => {
    const providers = [p('new'), p('a'), p('b')];
    const one = rows({ new: 'down', a: { chain: 'x-1', evm: '0x1', height: 10n } });
    classify(one, providers.slice(0, 2), () => ({}), 2);
    assert.equal(networkOfPrimary(one, 'new'), 'cosmos:x-1');
    const two = rows({ new: 'down', a: { chain: 'x-1', evm: '0x1', height: 10n }, b: { chain: 'y-1', evm: '0x2', height: 10n } });
    classify(two, providers, () => ({}), 2);
    assert.equal(networkOfPrimary(two, 'new'), 'unknown:new');
  });
});

describe('Compare grouped by network', () => {
  it('summarises each network (name, chain ids, best height, providers) and names the network of each record', () => {
    const providers = [p('m1', { network: 'Mainnet' }), p('t1'), p('m2'), p('t2')];
    const list = rows({
      m1: { chain: 'main-1', evm: '0x2329', height: 5000n },
      t1: { chain: 'test-1', evm: '0x2328', height: 120n },
      m2: { chain: 'main-1', evm: '0x2329', height: 4999n },
      t2: { chain: 'test-1', evm: '0x2328', height: 100n },
    });
    classify(list, providers, () => ({}), 2);
    const nets = summarizeNetworks(providers, list);
    assert.deepEqual(nets, [
      { key: 'cosmos:main-1', label: 'Mainnet', chainId: 'main-1', evmChainId: '9001', height: '5000', providers: ['m1', 'm2'] },
      { key: 'cosmos:test-1', label: 'test-1', chainId: 'test-1', evmChainId: '9000', height: '120', providers: ['t1', 't2'] },
    ]);
    const labels = new Map(nets.map((n) => [n.key, n.label]));
    const records = toRecords(list, (k) => labels.get(k)!);
    assert.equal(records.find((r) => r.provider === 't2')!.network, 'test-1');
    assert.equal(records.find((r) => r.provider === 'm2')!.network, 'Mainnet');
    assert.match(toCsv(records).split('\n')[0], /,network$/);
  });
});

describe('two networks served by the devnet, probed', function () {
  this.timeout(30_000);
  it('each network is judged on its own: heights, lag and rank within it; the tree groups them', async () => {
    const { startNetworks, SECOND_NETWORK } = await import('../../../devnet/devnet');
    const { HealthMonitor } = await import('../../../../src/core/health/health');
    const { HttpClient } = await import('../../../../src/core/transport/http');
    const nets = await startNetworks([
      { blockIntervalMs: 100, initialHeight: 5000n, providers: [{ name: 'A one' }, { name: 'A two' }, { name: 'A lagging', lagBlocks: 5 }] },
      { ...SECOND_NETWORK, initialHeight: 1n, blockIntervalMs: 100, providers: [{ name: 'B one' }, { name: 'B lagging', lagBlocks: 5 }] },
    ]);
    const http = new HttpClient();
    try {
      // The first network (3 providers) is ~5000 blocks ahead: the old majority called B "wrong chain".
      while (nets.devnets[1].height() < 8n) await new Promise((r) => setTimeout(r, 50));
      const providers: Provider[] = nets.providers.map(({ name, evmWs: _ws, ...endpoints }) => ({ name, endpoints }));
      const monitor = new HealthMonitor({ http, timeoutMs: 3000 });
      await monitor.refresh(providers);
      const list = monitor.assess(providers);
      assert.equal(find(list, 'B one').state, 'healthy', find(list, 'B one').reason);
      assert.equal(find(list, 'B one', 'evmRpc').state, 'healthy', find(list, 'B one', 'evmRpc').reason);
      assert.equal(find(list, 'B lagging').state, 'lagging');
      assert.ok(find(list, 'B lagging').behind! >= 3n && find(list, 'B lagging').behind! < 10n, `behind ${find(list, 'B lagging').behind}`);
      assert.equal(find(list, 'A lagging').state, 'lagging');
      assert.equal(find(list, 'B one').rank, 1);
      assert.equal(find(list, 'B one').network, 'cosmos:chain-endpoints-devnet-2');
      assert.equal(find(list, 'A one').network, 'cosmos:chain-endpoints-devnet-1');
      assert.deepEqual(
        summarizeNetworks(providers, list).map((n) => [n.label, n.evmChainId, n.providers]),
        [
          ['chain-endpoints-devnet-1', '262144', ['A one', 'A two', 'A lagging']],
          ['chain-endpoints-devnet-2', '262145', ['B one', 'B lagging']],
        ],
      );
    } finally {
      await http.close();
      await nets.stop();
    }
  });
});

describe('provider picks grouped by network', () => {
  it('orders the candidates network by network, each under its network name; one network: no groups', async () => {
    const { resolveArgs } = await import('../../../../src/ui/requests/resolveArgs');
    const { findOperation } = await import('../../../../src/core/chain/operations');
    const { groupForPick } = await import('../../../../src/core/config/networks');
    const providers = [p('main-a', { chainId: 'main-1', network: 'Mainnet' }), p('test-a', { chainId: 'test-1' }), p('main-b', { chainId: 'main-1' })];
    const networks = groupNetworks(providers);
    let seen: { label: string; group?: string }[] = [];
    const { prompts } = scriptedPrompts({
      pick: (items) => {
        seen = items as never;
        return items[2];
      },
      inputs: () => '5',
    });
    const r = await resolveArgs(findOperation('consensusHttp.block')!, { providers }, undefined, prompts, networks);
    assert.deepEqual(
      seen.map((i) => [i.label, i.group]),
      [
        ['main-a', 'Mainnet'],
        ['main-b', 'Mainnet'],
        ['test-a', 'test-1'],
      ],
    );
    assert.equal(r!.provider.name, 'test-a');
    assert.deepEqual(
      groupForPick(providers.slice(0, 1), groupNetworks(providers.slice(0, 1))).map((x) => x.group),
      [undefined],
    );
  });

  it('offers "best provider" first in each network of more than one provider, and runs on the best of that network', async () => {
    const { resolveArgs } = await import('../../../../src/ui/requests/resolveArgs');
    const { findOperation } = await import('../../../../src/core/chain/operations');
    const providers = [p('main-a', { chainId: 'main-1', network: 'Mainnet' }), p('test-a', { chainId: 'test-1' }), p('main-b', { chainId: 'main-1' })];
    let seen: { label: string; group?: string }[] = [];
    let typed = '2000';
    const { prompts } = scriptedPrompts({
      pick: (items) => {
        seen = items as never;
        return items[0];
      },
      inputs: () => typed,
    });
    const op = findOperation('consensusHttp.block')!;
    const r = await resolveArgs(op, bestRanking(providers), undefined, prompts, groupNetworks(providers));
    assert.deepEqual(
      seen.map((i) => [i.label.includes('Best provider') ? 'best' : i.label, i.group]),
      [
        ['best', 'Mainnet'],
        ['main-a', 'Mainnet'],
        ['main-b', 'Mainnet'],
        ['test-a', 'test-1'],
      ],
    );
    // main-b is ranked first of Mainnet (main-a, first in the list, is second).
    assert.equal(r!.provider.name, 'main-b');
    // Ranked again once the height is typed: main-b keeps nothing below 1000, so height 5 goes to main-a.
    typed = '5';
    assert.equal((await resolveArgs(op, bestRanking(providers), undefined, prompts, groupNetworks(providers)))!.provider.name, 'main-a');
    // Without a ranking (no health): no "best" item.
    await resolveArgs(op, { providers }, undefined, prompts, groupNetworks(providers));
    assert.ok(!seen.some((i) => i.label.includes('Best provider')));
  });

  it('{ provider: "best" } runs on the best of the network named (or the only one), without a pick', async () => {
    const { resolveArgs } = await import('../../../../src/ui/requests/resolveArgs');
    const { findOperation } = await import('../../../../src/core/chain/operations');
    const op = findOperation('consensusHttp.block')!;
    const providers = [p('main-a', { chainId: 'main-1', network: 'Mainnet' }), p('test-a', { chainId: 'test-1' }), p('main-b', { chainId: 'main-1' })];
    const networks = groupNetworks(providers);
    const { prompts } = scriptedPrompts({
      pick: () => assert.fail('no pick when "best" is asked for'),
      inputs: () => assert.fail('the height was given'),
    });
    const ranking = bestRanking(providers);
    const r = await resolveArgs(op, ranking, { provider: 'BEST', network: 'mainnet', height: '2000' }, prompts, networks);
    assert.equal(r!.provider.name, 'main-b');
    assert.deepEqual(r!.args, { height: '2000' });
    // The height given counts: main-b keeps nothing below 1000.
    assert.equal((await resolveArgs(op, ranking, { provider: 'best', network: 'mainnet', height: '5' }, prompts, networks))!.provider.name, 'main-a');
    // By chain id too; without health, the first of the network.
    assert.equal((await resolveArgs(op, { providers }, { provider: 'best', network: 'test-1', height: '5' }, prompts, networks))!.provider.name, 'test-a');
    assert.equal((await resolveArgs(op, { providers }, { provider: 'best', network: 'mainnet', height: '2000' }, prompts, networks))!.provider.name, 'main-a');
    // Several networks and none named: the sentence says what to pass. An unknown network: which there are.
    await assert.rejects(resolveArgs(op, ranking, { provider: 'best', height: '5' }, prompts, networks), /"best" needs the network too.*2 networks/);
    await assert.rejects(resolveArgs(op, ranking, { provider: 'best', network: 'nope', height: '5' }, prompts, networks), /No network named "nope"/);
    // One network: no need to name it. A provider actually named "best" is that provider.
    const one = providers.filter((x) => x.name !== 'test-a');
    assert.equal((await resolveArgs(op, bestRanking(one), { provider: 'best', height: '2000' }, prompts, groupNetworks(one)))!.provider.name, 'main-b');
    const named = [...providers, p('best', { chainId: 'test-1' })];
    assert.equal((await resolveArgs(op, bestRanking(named), { provider: 'best', height: '5' }, prompts, groupNetworks(named)))!.provider.name, 'best');
  });
});
