// Provider health against the devnet: each state (healthy, lagging, down, wrong chain,
// rate-limited), the cross-check, ranking and recovery, and one pool per origin.

import * as assert from 'node:assert/strict';
import { HealthMonitor } from '../../../../src/core/health/health';
import { classify } from '../../../../src/core/health/classify';
import { type InterfaceHealth } from '../../../../src/core/health/model';
import { ranked } from '../../../../src/core/health/rank';
import { HttpClient } from '../../../../src/core/transport/http';
import { type Provider } from '../../../../src/core/config/providers';
import { type Devnet, startDevnet } from '../../../devnet/devnet';

const asProvider = (u: Devnet['providers'][number]): Provider => {
  const { name, ...endpoints } = u;
  return { name, endpoints };
};

describe('provider health', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let other: Devnet;
  let http: HttpClient;
  let providers: Provider[];

  before(async () => {
    devnet = await startDevnet({
      blockIntervalMs: 200,
      providers: [{ name: 'good' }, { name: 'lagging', lagBlocks: 5 }, { name: 'stopped' }, { name: 'limited' }],
    });
    other = await startDevnet({ blockIntervalMs: 200, chainId: 'another-chain-7', evmChainId: 7n, providers: [{ name: 'other chain' }] });
    http = new HttpClient();
    providers = [...devnet.providers, ...other.providers].map(asProvider);
    while (devnet.height() < 8n) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => {
    await devnet.stop();
    await other.stop();
    await http.close();
  });

  const find = (rows: InterfaceHealth[], provider: string, iface: string) => rows.find((r) => r.provider === provider && r.iface === iface)!;

  it('classifies every interface of every provider', async () => {
    await devnet.stopProvider('stopped');
    await devnet.setFault('limited', 'rest', {
      kind: 'status',
      status: 429,
      body: '<html>slow down</html>',
      contentType: 'text/html',
      headers: { 'retry-after': '120' },
    });
    const monitor = new HealthMonitor({ http, timeoutMs: 3000 });
    await monitor.refresh(providers);
    const rows = monitor.assess(providers);
    for (const iface of ['evmRpc', 'consensusHttp', 'consensusRpc', 'consensusWs', 'rest', 'evmWs']) {
      const good = find(rows, 'good', iface);
      assert.equal(good.state, 'healthy', `good ${iface}: ${good.reason} ${good.last?.error}`);
      assert.ok(good.last!.latencyMs! >= 0);
      assert.equal(find(rows, 'stopped', iface).state, 'down', iface);
      // Another chain is another network, judged on its own (not "wrong chain" against the majority).
      assert.equal(find(rows, 'other chain', iface).state, 'healthy', iface);
      assert.equal(find(rows, 'other chain', iface).network, 'cosmos:another-chain-7', iface);
    }
    for (const iface of ['consensusHttp', 'consensusRpc', 'consensusWs', 'rest', 'evmRpc', 'evmWs']) {
      const lag = find(rows, 'lagging', iface);
      assert.equal(lag.state, 'lagging', `lagging ${iface}: ${lag.reason}`);
      assert.ok(lag.behind! >= 3n, `${iface} behind ${lag.behind}`);
      assert.match(lag.reason!, /behind/);
    }
    assert.equal(find(rows, 'stopped', 'consensusHttp').reason, 'refused');
    assert.equal(find(rows, 'other chain', 'consensusRpc').behind, 0n, 'measured against its own chain, not the devnet');
    const limited = find(rows, 'limited', 'rest');
    assert.equal(limited.state, 'rateLimited');
    assert.ok(limited.last!.rateLimitedUntil! > Date.now() + 100_000);
    assert.equal(find(rows, 'good', 'consensusWs').last!.setupMs !== undefined, true, 'WebSocket set-up measured apart');
  });

  it('honours Retry-After: a rate-limited interface is not probed again before it', async () => {
    const monitor = new HealthMonitor({ http, timeoutMs: 3000 });
    await monitor.refresh(providers);
    const before = devnet.lastRequests('limited').filter((r) => r.iface === 'rest').length;
    await monitor.refresh(providers);
    assert.equal(devnet.lastRequests('limited').filter((r) => r.iface === 'rest').length, before);
    await devnet.setFault('limited', 'rest', undefined);
  });

  it('a provider serving another chain than it declares is wrong chain against its declaration', async () => {
    const monitor = new HealthMonitor({ http, timeoutMs: 3000 });
    const subset = providers.filter((p) => p.name === 'good' || p.name === 'other chain');
    await monitor.refresh(subset);
    const rows = monitor.assess(subset, (p) =>
      p.name === 'other chain' ? { chainId: 'another-chain-7', evmChainId: '0x7' } : { chainId: 'another-chain-7', evmChainId: '0x7' },
    );
    assert.equal(find(rows, 'good', 'consensusHttp').state, 'wrongChain');
    assert.equal(find(rows, 'other chain', 'consensusHttp').state, 'healthy');
  });

  it('ranks by stability and latency, and a failed provider recovers its rank', async () => {
    await devnet.startProvider('stopped');
    const subset = providers.filter((p) => p.name === 'good' || p.name === 'stopped');
    const monitor = new HealthMonitor({ http, timeoutMs: 3000, window: 4 });
    await devnet.stopProvider('stopped');
    await monitor.refresh(subset);
    let r = ranked(monitor.assess(subset), 'consensusWs');
    assert.deepEqual(
      r.map((x) => x.provider),
      ['good'],
    );
    await devnet.startProvider('stopped');
    await monitor.refresh(subset);
    r = ranked(monitor.assess(subset), 'consensusWs');
    assert.deepEqual(
      r.map((x) => x.provider),
      ['good', 'stopped'],
      'back in the ranking, below the stable one',
    );
    assert.ok(r[0].score! > r[1].score!);
  });

  it("flags an interface that lags the provider's other interfaces", () => {
    const p: Provider = { name: 'mixed', endpoints: { evmRpc: 'http://e', consensusHttp: 'http://c' } };
    const rows: InterfaceHealth[] = [
      { provider: 'mixed', iface: 'evmRpc', state: 'unknown', samples: 1, last: { at: 0, ok: true, latencyMs: 5, height: 90n } },
      { provider: 'mixed', iface: 'consensusHttp', state: 'unknown', samples: 1, last: { at: 0, ok: true, latencyMs: 5, height: 100n } },
    ];
    classify(rows, [p], () => ({}), 0);
    assert.match(rows[0].crossCheck!, /10 blocks behind this provider's other interfaces/);
    assert.equal(rows[1].crossCheck, undefined);
  });

  it('a slow interface is lagging even at the tip', () => {
    const ps: Provider[] = ['a', 'b'].map((name) => ({ name, endpoints: { consensusHttp: `http://${name}` } }));
    const rows: InterfaceHealth[] = [
      {
        provider: 'a',
        iface: 'consensusHttp',
        state: 'unknown',
        samples: 1,
        medianMs: 10,
        successRate: 1,
        last: { at: 0, ok: true, latencyMs: 10, height: 5n },
      },
      {
        provider: 'b',
        iface: 'consensusHttp',
        state: 'unknown',
        samples: 1,
        medianMs: 900,
        successRate: 1,
        last: { at: 0, ok: true, latencyMs: 900, height: 5n },
      },
    ];
    classify(rows, ps, () => ({}), 0);
    assert.equal(rows[0].state, 'healthy');
    assert.equal(rows[1].state, 'lagging');
    assert.equal(rows[1].reason, '890 ms slower');
    assert.deepEqual(
      ranked(rows, 'consensusHttp').map((r) => r.provider),
      ['a', 'b'],
    );
  });
});
