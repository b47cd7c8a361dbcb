// The status bar's failover policy (src/core/health/heightFollower.ts) with fake feeds and fake
// health rows: no sockets, no editor.
import { strict as assert } from 'node:assert';
import type { HeightSnapshot } from '../../../../src/core/chain/heightTracker';
import type { Provider } from '../../../../src/core/config/providers';
import type { InterfaceHealth } from '../../../../src/core/health/model';
import { type FollowView, type HeightFeed, HeightFollower, chooseStatusProvider } from '../../../../src/core/health/heightFollower';

class FakeFeed implements HeightFeed {
  disposed = false;
  reconnects = 0;
  constructor(
    readonly provider: Provider,
    readonly pollOnly: boolean,
    private readonly onChange: (s: HeightSnapshot) => void,
    public state: HeightSnapshot = { state: 'connecting' },
  ) {}
  snapshot(): HeightSnapshot {
    return this.state;
  }
  set(s: HeightSnapshot): void {
    this.state = s;
    this.onChange(s);
  }
  reconnect(): void {
    this.reconnects++;
  }
  dispose(): void {
    this.disposed = true;
  }
}

const ws = (name: string): Provider => ({ name, endpoints: { consensusWs: `ws://${name}.invalid/websocket`, consensusHttp: `http://${name}.invalid` } });
const httpOnly = (name: string): Provider => ({ name, endpoints: { consensusHttp: `http://${name}.invalid` } });

function row(
  provider: string,
  iface: InterfaceHealth['iface'],
  state: InterfaceHealth['state'],
  rank?: number,
  extra: Partial<InterfaceHealth> = {},
): InterfaceHealth {
  return { provider, iface, state, rank, ...extra } as InterfaceHealth;
}

function harness(providers: Provider[], rows: InterfaceHealth[] = [], pinned = false) {
  const feeds: FakeFeed[] = [];
  const views: FollowView[] = [];
  const heights: bigint[] = [];
  const logs: string[] = [];
  let health = rows;
  const refreshed: string[][] = [];
  const follower = new HeightFollower(
    {
      startFeed: (p, pollOnly, onChange) => {
        const f = new FakeFeed(p, pollOnly, onChange);
        feeds.push(f);
        return f;
      },
      providers: () => providers,
      healthOf: (name, iface) => health.find((r) => r.provider === name && r.iface === iface),
      refreshHealth: async (names) => {
        refreshed.push([...names]);
        return health;
      },
      pinned: () => pinned,
      log: (_level, m) => logs.push(m),
      recheckMs: 60_000,
    },
    (view, newHeight) => {
      views.push(view);
      if (newHeight) heights.push(view.height!);
    },
  );
  return { follower, feeds, views, heights, logs, refreshed, setHealth: (r: InterfaceHealth[]) => (health = r) };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('HeightFollower (status bar policy)', () => {
  it('chooses the named provider, else the first with a WebSocket, else one with HTTP', () => {
    const list = [httpOnly('h'), ws('a'), ws('b')];
    assert.equal(chooseStatusProvider(list, 'B')?.name, 'b');
    assert.equal(chooseStatusProvider(list, '')?.name, 'a');
    assert.equal(chooseStatusProvider(list, 'missing')?.name, 'a');
    assert.equal(chooseStatusProvider([httpOnly('h')], '')?.name, 'h');
    assert.equal(chooseStatusProvider([{ name: 'e', endpoints: { evmRpc: 'http://e.invalid' } }], ''), undefined);
  });

  it('follows the configured provider and reports each new, higher height once', () => {
    const h = harness([ws('a')]);
    h.follower.follow(ws('a'));
    h.feeds[0].set({ state: 'live', height: 10n });
    h.feeds[0].set({ state: 'live', height: 11n });
    h.feeds[0].set({ state: 'live', height: 11n });
    assert.deepEqual(h.heights, [10n, 11n]);
    assert.equal(h.views.at(-1)!.following.name, 'a');
    assert.equal(h.views.at(-1)!.reason, undefined);
    h.follower.stop();
  });

  it('fails over to the best-ranked healthy WebSocket provider when the configured one is unreachable, and comes back', async () => {
    const rows = [row('b', 'consensusWs', 'healthy', 2), row('c', 'consensusWs', 'healthy', 1), row('c', 'consensusHttp', 'healthy', 1)];
    const h = harness([ws('a'), ws('b'), ws('c')], rows);
    h.follower.follow(ws('a'));
    h.feeds[0].set({ state: 'live', height: 100n });
    h.feeds[0].set({ state: 'reconnecting', height: 100n, detail: 'connection refused' });
    await settle();
    assert.equal(h.feeds.length, 2);
    assert.equal(h.feeds[1].provider.name, 'c', 'rank 1 wins');
    assert.equal(h.feeds[1].pollOnly, false);
    assert.deepEqual(h.refreshed[0], ['b', 'c']);
    const view = h.follower.view!;
    assert.equal(view.following.name, 'c');
    assert.equal(view.reason!.english, 'a is unreachable (connection refused)');
    // The fallback's lower height is never shown below what was shown.
    h.feeds[1].set({ state: 'live', height: 99n });
    assert.equal(h.views.at(-1)!.height, 100n);
    h.feeds[1].set({ state: 'live', height: 101n });
    assert.equal(h.views.at(-1)!.height, 101n);
    // The configured provider is live again: back to it, the fallback disposed.
    h.feeds[0].set({ state: 'live', height: 102n });
    await settle();
    assert.equal(h.feeds[1].disposed, true);
    assert.equal(h.follower.view!.following.name, 'a');
    assert.equal(h.follower.view!.reason, undefined);
    assert.ok(h.logs.some((l) => /^back to a: a is healthy again/.test(l)));
    h.follower.stop();
    assert.equal(h.feeds[0].disposed, true);
  });

  it('falls back to polling a healthy HTTP-only provider when no WebSocket one is healthy', async () => {
    const h = harness([ws('a'), httpOnly('h')], [row('h', 'consensusHttp', 'healthy', 1)]);
    h.follower.follow(ws('a'));
    h.feeds[0].set({ state: 'stalled', height: 5n });
    await settle();
    assert.equal(h.feeds[1].provider.name, 'h');
    assert.equal(h.feeds[1].pollOnly, true);
    assert.equal(h.follower.view!.reason!.english, 'no new block from a');
    h.follower.stop();
  });

  it('stays when pinned, and when nothing healthy is left (saying so in the log)', async () => {
    const pinned = harness([ws('a'), ws('b')], [row('b', 'consensusWs', 'healthy', 1)], true);
    pinned.follower.follow(ws('a'));
    pinned.feeds[0].set({ state: 'reconnecting' });
    await settle();
    assert.equal(pinned.feeds.length, 1);
    pinned.follower.stop();

    const none = harness([ws('a'), ws('b')], [row('b', 'consensusWs', 'down', 1)]);
    none.follower.follow(ws('a'));
    none.feeds[0].set({ state: 'reconnecting' });
    await settle();
    assert.equal(none.feeds.length, 1);
    assert.ok(none.logs.some((l) => /no healthy provider to fail over to/.test(l)));
    none.follower.stop();
  });

  it('fails over from a provider on another chain or lagging more than 2 blocks, not from one 2 behind', async () => {
    const healthy = row('b', 'consensusWs', 'healthy', 1);
    const h = harness([ws('a'), ws('b')], [row('a', 'consensusWs', 'lagging', 2, { behind: 2n }), healthy]);
    h.follower.follow(ws('a'));
    h.feeds[0].set({ state: 'live', height: 8n });
    await settle();
    assert.equal(h.feeds.length, 1, '2 blocks behind is within tolerance');
    h.setHealth([row('a', 'consensusWs', 'wrongChain', 2, { last: { chainId: 'other-1' } as InterfaceHealth['last'] }), healthy]);
    await h.follower.evaluate();
    assert.equal(h.follower.view!.following.name, 'b');
    assert.equal(h.follower.view!.reason!.english, 'a serves another chain (other-1)');
    h.follower.stop();
  });

  it('fails over from a provider whose height is suspect (implausibly far ahead), never to it', async () => {
    const h = harness(
      [ws('a'), ws('b'), ws('c')],
      [row('a', 'consensusWs', 'suspect', undefined, { reason: 'far ahead' }), row('b', 'consensusWs', 'healthy', 1), row('c', 'consensusWs', 'suspect')],
    );
    h.follower.follow(ws('a'));
    h.feeds[0].set({ state: 'live', height: 10n ** 30n });
    await settle();
    assert.equal(h.follower.view!.following.name, 'b', 'the suspect c is never chosen');
    assert.equal(h.follower.view!.reason!.english, 'a reports a suspect height (far ahead)');
    // The suspect's height is forgotten: the bar shows the fallback's own.
    h.feeds[1].set({ state: 'live', height: 12n });
    assert.equal(h.views.at(-1)!.height, 12n);
    h.follower.stop();
  });

  it('forgets the shown height and every feed when following another provider', () => {
    const h = harness([ws('a'), ws('b')]);
    h.follower.follow(ws('a'));
    h.feeds[0].set({ state: 'live', height: 50n });
    h.follower.follow(ws('b'));
    assert.equal(h.feeds[0].disposed, true);
    h.feeds[1].set({ state: 'live', height: 3n });
    assert.equal(h.follower.view!.height, 3n);
    h.follower.reconnect();
    assert.equal(h.feeds[1].reconnects, 1);
    h.follower.stop();
  });
  it("with two networks, fails over only within the configured provider's network, never to the larger one", async () => {
    const net = (n: string) => ({ network: n });
    const rows = [
      row('big1', 'consensusWs', 'healthy', 1, net('cosmos:big-1')),
      row('big2', 'consensusWs', 'healthy', 2, net('cosmos:big-1')),
      row('small1', 'consensusWs', 'down', undefined, net('cosmos:small-7')),
      row('small2', 'consensusWs', 'healthy', 1, net('cosmos:small-7')),
    ];
    const h = harness([ws('big1'), ws('big2'), ws('small1'), ws('small2')], rows);
    h.follower.follow(ws('small1'));
    h.feeds[0].set({ state: 'reconnecting', detail: 'connection refused' });
    await settle();
    assert.equal(h.feeds.at(-1)!.provider.name, 'small2', 'the other provider of the same network');
    assert.equal(h.views.at(-1)!.following.name, 'small2');
    h.follower.stop();
    // The same network's other provider down too: no failover at all, never to the larger network.
    const alone = harness([ws('big1'), ws('small1'), ws('small2')], [rows[0], rows[2], row('small2', 'consensusWs', 'down', undefined, net('cosmos:small-7'))]);
    alone.follower.follow(ws('small1'));
    alone.feeds[0].set({ state: 'reconnecting', detail: 'connection refused' });
    await settle();
    assert.equal(alone.feeds.length, 1, alone.feeds.map((f) => f.provider.name).join());
    assert.match(alone.logs.join('\n'), /no healthy provider/);
    alone.follower.stop();
  });
});
