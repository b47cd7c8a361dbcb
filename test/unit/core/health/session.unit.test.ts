// The session's health memory: the `stale` state (no new block for many block intervals, or 30
// minutes), the error streak and its cooldown (fewer probes, and when the next one is), and the
// bounded per-interface history the Compare charts draw. A fake clock: no waiting.

import * as assert from 'node:assert/strict';
import type { InterfaceHealth, ProbeResult } from '../../../../src/core/health/model';
import { COOLDOWN_BASE_MS, HealthSession, STALE_MAX_MS } from '../../../../src/core/health/session';

const row = (provider: string, last: ProbeResult | undefined, state: InterfaceHealth['state'] = last?.ok ? 'healthy' : 'down'): InterfaceHealth => ({
  provider,
  iface: 'consensusRpc',
  state,
  last,
  samples: 1,
  rank: 1,
});
const ok = (at: number, height: bigint): ProbeResult => ({ at, ok: true, height, latencyMs: 40 });
const failed = (at: number): ProbeResult => ({ at, ok: false, error: 'refused' });

describe('health session: stale, cooldown, history', () => {
  it("judges staleness from the node's own block time at the first probe (a block two hours old is stale at once)", () => {
    const session = new HealthSession();
    const now = 10 * 3_600_000;
    const old: ProbeResult = { at: now, ok: true, height: 100n, latencyMs: 40, blockTime: now - 2 * 3_600_000 };
    const fresh: ProbeResult = { at: now, ok: true, height: 129n, latencyMs: 40, blockTime: now - 1000 };
    const rows = [row('frozen', old, 'lagging'), row('live', fresh)];
    session.apply(rows, now);
    assert.equal(rows[0].state, 'stale');
    assert.match(rows[0].reason ?? '', /no new block for 120 min|2 h/);
    assert.equal(rows[1].state, 'healthy');
    // A clock ahead of ours never makes a node look fresher than its probe.
    const ahead = [row('ahead', { ...fresh, blockTime: now + 60_000 })];
    new HealthSession().apply(ahead, now);
    assert.equal(ahead[0].heightSince, now);
  });

  it('calls a provider stale when its height stops while blocks go on (20 block intervals, at least a minute)', () => {
    const s = new HealthSession();
    let t = 1_000_000;
    // Two providers, one block a second; "frozen" stops at 110 after 10 s.
    for (let i = 0; i <= 100; i++, t += 1000) {
      const rows = [row('moving', ok(t, 100n + BigInt(i))), row('frozen', ok(t, 100n + BigInt(Math.min(i, 10))))];
      s.apply(rows, t);
      if (i === 60) assert.equal(rows[1].state, 'healthy', 'not stale within a minute');
      if (i === 100) {
        assert.equal(rows[0].state, 'healthy');
        assert.equal(rows[1].state, 'stale');
        assert.match(rows[1].reason!, /no new block for 1 min/);
        assert.equal(rows[1].rank, undefined, 'a stale provider is not ranked');
        assert.equal(rows[1].heightSince, 1_000_000 + 10_000);
      }
    }
  });

  it('calls a provider stale after 30 minutes when nothing shows the block interval', () => {
    const s = new HealthSession();
    const r1 = [row('only', ok(0, 5n))];
    s.apply(r1, 0);
    const r2 = [row('only', ok(STALE_MAX_MS - 1000, 5n))];
    s.apply(r2, STALE_MAX_MS - 1000);
    assert.equal(r2[0].state, 'healthy');
    const r3 = [row('only', ok(STALE_MAX_MS + 1000, 5n))];
    s.apply(r3, STALE_MAX_MS + 1000);
    assert.equal(r3[0].state, 'stale');
  });

  it('cools a failing interface down, doubling the wait, and forgets it on the first success', () => {
    const s = new HealthSession();
    s.apply([row('f', failed(0))], 0);
    assert.ok(s.shouldProbe('f', 'consensusRpc', 1), 'one failure: probed as usual');
    const r = [row('f', failed(10))];
    s.apply(r, 10);
    assert.equal(r[0].errorStreak, 2);
    assert.equal(r[0].retryAt, 10 + COOLDOWN_BASE_MS);
    assert.ok(!s.shouldProbe('f', 'consensusRpc', 20));
    assert.ok(s.shouldProbe('f', 'consensusRpc', 10 + COOLDOWN_BASE_MS));
    const r3 = [row('f', failed(COOLDOWN_BASE_MS + 20))];
    s.apply(r3, COOLDOWN_BASE_MS + 20);
    assert.equal(r3[0].retryAt, COOLDOWN_BASE_MS + 20 + 2 * COOLDOWN_BASE_MS);
    // The same (old) result read again does not lengthen the streak.
    s.apply(r3, COOLDOWN_BASE_MS + 30);
    assert.equal(r3[0].errorStreak, 3);
    const back = [row('f', ok(10 * COOLDOWN_BASE_MS, 9n))];
    s.apply(back, 10 * COOLDOWN_BASE_MS);
    assert.equal(back[0].errorStreak, undefined);
    assert.equal(back[0].retryAt, undefined);
    assert.ok(s.shouldProbe('f', 'consensusRpc', 10 * COOLDOWN_BASE_MS + 1));
  });

  it('keeps a bounded history of height, latency and state per interface', () => {
    const s = new HealthSession(5);
    for (let i = 0; i < 12; i++) s.apply([row('h', i % 4 === 3 ? failed(i) : ok(i, BigInt(i)))], i);
    const h = s.history('h', 'consensusRpc');
    assert.equal(h.length, 5);
    assert.deepEqual(
      h.map((p) => [p.at, p.height, p.state]),
      [
        [7, undefined, 'down'],
        [8, '8', 'healthy'],
        [9, '9', 'healthy'],
        [10, '10', 'healthy'],
        [11, undefined, 'down'],
      ],
    );
    assert.equal(h[1].latencyMs, 40);
    s.retain(new Set());
    assert.equal(s.history('h', 'consensusRpc').length, 0);
  });
});
