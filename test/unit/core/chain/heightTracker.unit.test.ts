import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { type HeightSnapshot, HeightTracker, type HeightTrackerOptions } from '../../../../src/core/chain/heightTracker';
import { joinUrl } from '../../../../src/core/config/providers';
import { startDevnet } from '../../../devnet/devnet';
import { FakeCometWs, waitFor } from '../../helpers/fakeCometWs';

// Small timings so every path runs in well under a second; the assertions only wait for
// conditions (generously), they never assert how long something took.
const FAST: HeightTrackerOptions = {
  pingIntervalMs: 50,
  connectTimeoutMs: 1_000,
  minStallMs: 400,
  maxBackoffMs: 100,
  defaultBlockIntervalMs: 50,
};

/**
 * Baseline for `resources()`, taken after a turn of the event loop so that mocha's own
 * per-test timeout timer (armed after the test function starts) is counted in it.
 */
async function baselineResources(): Promise<Record<string, number>> {
  await new Promise((r) => setImmediate(r));
  return resources();
}

/** Counts of the handles and requests that keep the process alive, by type. */
function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) counts[r] = (counts[r] ?? 0) + 1;
  return counts;
}

/** Timers are cleared synchronously by dispose(); sockets close a moment later. */
function assertNoExtraTimers(baseline: Record<string, number>): void {
  const now = resources().Timeout ?? 0;
  assert.ok(now <= (baseline.Timeout ?? 0), `timers left after dispose: ${now} > ${baseline.Timeout ?? 0}`);
}

function noMoreThan(now: Record<string, number>, baseline: Record<string, number>): boolean {
  return Object.entries(now).every(([k, n]) => n <= (baseline[k] ?? 0));
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** A fetchStatus fake: height goes up by one per call; can be made to hang until aborted. */
function fakeStatus(start = 1000n) {
  const state = { calls: 0, height: start, hang: false, aborted: 0, fail: undefined as string | undefined };
  const fetchStatus = (signal: AbortSignal): Promise<{ height: bigint; time?: string }> => {
    state.calls++;
    if (state.hang) {
      return new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          state.aborted++;
          reject(new Error('aborted'));
        });
      });
    }
    if (state.fail) return Promise.reject(new Error(state.fail));
    state.height++;
    return Promise.resolve({ height: state.height, time: new Date().toISOString() });
  };
  return { state, fetchStatus };
}

describe('HeightTracker', function () {
  this.timeout(15_000);

  let fake: FakeCometWs;
  let tracker: HeightTracker | undefined;
  let events: HeightSnapshot[];
  let logs: string[];

  function track(options: Partial<HeightTrackerOptions> = {}): HeightTracker {
    logs = [];
    tracker = new HeightTracker({
      ...FAST,
      wsUrl: fake.url,
      log: (level, message) => logs.push(`${level}: ${message}`),
      ...options,
    });
    tracker.onDidChange((s) => events.push(s));
    tracker.start();
    return tracker;
  }

  const snap = () => tracker!.snapshot();
  const waitState = (state: HeightSnapshot['state'], ms = 5_000) =>
    waitFor(() => snap().state === state, ms, `state ${state} (now ${snap().state}: ${snap().detail ?? ''})`);
  const waitHeight = (h: bigint, ms = 5_000) => waitFor(() => snap().height === h, ms, `height ${h} (now ${snap().height})`);

  beforeEach(async () => {
    events = [];
    fake = await FakeCometWs.start();
  });

  afterEach(async () => {
    tracker?.dispose();
    tracker = undefined;
    // Whatever happened in the test: never more than one subscribe request per socket.
    for (const c of fake.connections) assert.ok(c.subscribeRequests <= 1, 'two subscribe requests on one socket');
    await fake.stop();
  });

  it('goes live, reports increasing heights and keeps heights above 2^53 exact', async () => {
    track();
    assert.equal(events[0]?.state, 'connecting');
    await waitState('live');
    assert.equal(fake.subscribed().length, 1);
    fake.pushBlock(10, '2024-05-01T12:00:00.123456789Z');
    await waitHeight(10n);
    assert.equal(snap().blockTime, '2024-05-01T12:00:00.123456789Z');
    assert.equal(snap().source, 'websocket');
    assert.ok(typeof snap().receivedAt === 'number');
    fake.pushBlock(11);
    await waitHeight(11n);
    fake.pushBlock(12);
    await waitHeight(12n);
    assert.ok(typeof snap().blockIntervalMs === 'number', 'an interval is observed after a few blocks');
    const big = '9007199254740993'; // 2^53 + 1: Number() would round it
    fake.pushBlock(big);
    await waitHeight(BigInt(big));
    assert.equal(snap().height!.toString(), big);
    assert.equal(snap().state, 'live');
    const heights = events.filter((e) => e.height !== undefined).map((e) => e.height!);
    for (let i = 1; i < heights.length; i++) assert.ok(heights[i] >= heights[i - 1]);
  });

  it('reconnects and resubscribes after a close frame', async () => {
    track();
    await waitState('live');
    fake.pushBlock(5);
    await waitHeight(5n);
    fake.closeAll(1001, 'going away');
    await waitFor(() => events.some((e) => e.state === 'reconnecting'), 5_000, 'reconnecting');
    const r = events.find((e) => e.state === 'reconnecting')!;
    assert.match(r.detail ?? '', /closed by the server \(1001: going away\)/);
    assert.ok(typeof r.reconnectAt === 'number');
    await waitFor(() => fake.subscribed().length === 1 && fake.connections.length === 2, 5_000, 'second subscription');
    await waitState('live');
    assert.equal(snap().detail, undefined);
    fake.pushBlock(6);
    await waitHeight(6n);
  });

  it('reconnects and resubscribes after an abrupt reset', async () => {
    track();
    await waitState('live');
    fake.resetAll();
    await waitFor(() => events.some((e) => e.state === 'reconnecting'), 5_000, 'reconnecting');
    assert.match(events.find((e) => e.state === 'reconnecting')!.detail ?? '', /connection lost|reset/);
    await waitFor(() => fake.subscribed().length === 1 && fake.connections.length === 2, 5_000, 'second subscription');
    await waitState('live');
    fake.pushBlock(7);
    await waitHeight(7n);
  });

  it('detects a silent socket with the watchdog and replaces it', async () => {
    track();
    await waitState('live');
    fake.pushBlock(1);
    await waitHeight(1n);
    fake.silent = true; // no pongs, no events; the TCP connection stays up
    await waitFor(() => fake.connections[0].closed, 5_000, 'tracker to drop the silent socket');
    assert.ok(
      events.some((e) => /no message or pong/.test(e.detail ?? '')),
      `watchdog detail, got: ${events.map((e) => e.detail).join(' | ')}`,
    );
    fake.silent = false;
    await waitFor(() => fake.subscribed().length === 1, 5_000, 'new subscription');
    await waitState('live');
    fake.pushBlock(2);
    await waitHeight(2n);
  });

  it('reports stalled while the socket is open but blocks stop, then forces a reconnect', async () => {
    track();
    await waitState('live');
    fake.pushBlock(3);
    await waitHeight(3n);
    await waitState('stalled');
    assert.equal(fake.connections.length, 1, 'the socket is kept while stalled');
    assert.equal(fake.open().length, 1);
    assert.match(snap().detail ?? '', /no new block/);
    assert.equal(snap().height, 3n);
    // A block on the same socket brings it back to live.
    fake.pushBlock(4);
    await waitState('live');
    assert.equal(snap().height, 4n);
    assert.equal(fake.connections.length, 1);
    // Nothing again: stalled, then (after a further period) a forced reconnect.
    await waitState('stalled');
    await waitFor(() => fake.connections[0].closed, 5_000, 'forced reconnect');
    await waitFor(() => fake.subscribed().length === 1 && fake.connections.length === 2, 5_000, 'resubscribed');
    await waitState('live');
  });

  it('falls back to polling when subscriptions are refused and returns to the socket', async () => {
    const status = fakeStatus(1000n);
    fake.refuseSubscriptions = 'max_subscription_clients 100 reached';
    track({ fetchStatus: status.fetchStatus });
    await waitState('polling');
    assert.match(snap().detail ?? '', /max_subscription_clients 100 reached/);
    await waitFor(() => (snap().height ?? 0n) > 1000n, 5_000, 'a polled height');
    assert.equal(snap().source, 'polling');
    // The socket keeps being retried in the background on the backoff schedule.
    await waitFor(() => fake.connections.length >= 3, 5_000, 'background retries');
    assert.equal(snap().state, 'polling');
    assert.ok(events.some((e) => e.state === 'polling' && typeof e.reconnectAt === 'number'));
    fake.refuseSubscriptions = undefined;
    await waitState('live');
    assert.equal(snap().source, 'websocket');
    const calls = status.state.calls;
    const polled = snap().height!;
    fake.pushBlock(polled + 1n);
    await waitHeight(polled + 1n);
    assert.equal(snap().source, 'websocket');
    await new Promise((r) => setTimeout(r, 1_300)); // longer than the 1 s minimum poll period
    assert.equal(status.state.calls, calls, 'polling stops once the socket is live');
  });

  it('falls back to polling after a -32000 subscription cancellation and comes back', async () => {
    const status = fakeStatus(50n);
    track({ fetchStatus: status.fetchStatus });
    await waitState('live');
    fake.pushBlock(40);
    await waitHeight(40n);
    fake.cancelSubscriptions();
    await waitFor(() => events.some((e) => e.state === 'polling'), 5_000, 'polling');
    const p = events.find((e) => e.state === 'polling')!;
    assert.match(p.detail ?? '', /subscription cancelled: internal subscription event buffer is out of capacity/);
    await waitFor(() => fake.connections[0].closed, 5_000, 'the cancelled socket to be closed');
    await waitFor(() => fake.subscribed().length === 1, 5_000, 'resubscribed on a new socket');
    await waitState('live');
    assert.ok(snap().height! >= 51n, 'the polled height was kept');
  });

  it('polls after repeated refused connections and returns to live when the node is back', async () => {
    const status = fakeStatus(7n);
    const port = fake.port;
    await fake.stop();
    track({ fetchStatus: status.fetchStatus });
    await waitFor(() => events.some((e) => e.state === 'reconnecting'), 5_000, 'reconnecting after the first refusal');
    assert.equal(events.find((e) => e.state === 'reconnecting')!.detail, 'connection refused');
    await waitState('polling');
    assert.match(snap().detail ?? '', /connection refused/);
    await waitHeight(8n);
    await fake.listen(port);
    await waitState('live');
    fake.pushBlock(100);
    await waitHeight(100n);
  });

  it('stays reconnecting (no polling) without fetchStatus', async () => {
    await fake.stop();
    track({ wsUrl: `ws://127.0.0.1:${await freePort()}/websocket` });
    await waitFor(() => events.filter((e) => e.state === 'reconnecting').length >= 3, 5_000, 'several attempts');
    assert.ok(!events.some((e) => e.state === 'polling'));
    assert.equal(snap().state, 'reconnecting');
    assert.ok(events.every((e) => e.reconnectAt === undefined || e.reconnectAt >= 0));
  });

  it('never goes backwards: a restarted node with lower heights leaves the maximum', async () => {
    track();
    await waitState('live');
    fake.pushBlock(100);
    await waitHeight(100n);
    fake.pushBlock(90); // a lagging node
    fake.pushBlock(101);
    await waitHeight(101n);
    await fake.restart();
    await waitFor(() => fake.subscribed().length === 1, 5_000, 'resubscribed after the restart');
    await waitState('live');
    fake.pushBlock(1);
    fake.pushBlock(2);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(snap().height, 101n);
    assert.equal(snap().state, 'live');
    fake.pushBlock(102);
    await waitHeight(102n);
    const heights = events.filter((e) => e.height !== undefined).map((e) => e.height!);
    for (let i = 1; i < heights.length; i++) assert.ok(heights[i] >= heights[i - 1], `went from ${heights[i - 1]} to ${heights[i]}`);
  });

  it('ignores malformed messages and survives throwing listeners', async () => {
    track();
    const seen: bigint[] = [];
    tracker!.onDidChange(() => {
      throw new Error('listener bug');
    });
    tracker!.onDidChange((s) => s.height !== undefined && seen.push(s.height));
    await waitState('live');
    const id = fake.subscribed()[0].subscriptions[0];
    fake.sendRaw('not json');
    fake.sendRaw('null');
    fake.sendRaw('[1,2,3]');
    fake.sendRaw(JSON.stringify({ jsonrpc: '2.0', id, result: { data: { value: { header: { height: 'abc' } } } } }));
    fake.sendRaw(JSON.stringify({ jsonrpc: '2.0', id, result: { data: { value: { header: { height: 12 } } } } }));
    fake.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: 'other', result: {} }));
    fake.sendRaw(JSON.stringify({ jsonrpc: '2.0', id, result: { data: null } }));
    fake.pushBlock(20);
    await waitHeight(20n);
    assert.equal(snap().state, 'live');
    assert.deepEqual(seen, [20n]);
    assert.ok(logs.some((l) => l.startsWith('debug: ignored a non-JSON')));
    assert.ok(logs.some((l) => l.startsWith('error: height listener threw')));
    assert.equal(fake.connections.length, 1, 'no reconnect because of bad messages');
  });

  it('reconnect() drops the socket and subscribes again at once', async () => {
    track();
    await waitState('live');
    tracker!.reconnect();
    assert.equal(snap().state, 'connecting');
    await waitFor(() => fake.connections[0].closed, 5_000, 'old socket closed');
    await waitFor(() => fake.subscribed().length === 1 && fake.connections.length === 2, 5_000, 'new subscription');
    await waitState('live');
  });

  it('polls only when there is no WebSocket address', async () => {
    const status = fakeStatus(1n);
    track({ wsUrl: undefined, fetchStatus: status.fetchStatus });
    assert.equal(snap().state, 'polling');
    await waitHeight(2n);
    assert.equal(snap().source, 'polling');
    await waitHeight(3n, 5_000); // polls again after about a block interval (min 1 s)
    assert.equal(fake.connections.length, 0);
  });

  it('does not retry a malformed address: stops, or polls when it can', async () => {
    track({ wsUrl: 'ftp://user:secret@example.invalid/websocket' });
    assert.equal(snap().state, 'stopped');
    assert.match(snap().detail ?? '', /^invalid WebSocket address/);
    assert.ok(!/secret/.test(snap().detail ?? ''), 'credentials are redacted');
    tracker!.dispose();
    const status = fakeStatus(1n);
    track({ wsUrl: 'not a url', fetchStatus: status.fetchStatus });
    assert.equal(snap().state, 'polling');
    await waitHeight(2n);
  });

  describe('dispose', () => {
    it('closes a live socket, clears every timer and emits nothing more', async () => {
      const baseline = await baselineResources();
      track();
      await waitState('live');
      fake.pushBlock(1);
      await waitHeight(1n);
      tracker!.dispose();
      assert.equal(snap().state, 'stopped');
      const count = events.length;
      await waitFor(() => fake.connections[0].closed, 5_000, 'server to see the socket closed');
      fake.pushBlock(2);
      await waitFor(() => noMoreThan(resources(), baseline), 5_000, `resources back to ${JSON.stringify(baseline)}, now ${JSON.stringify(resources())}`);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(events.length, count, 'no events after dispose');
      assert.equal(snap().height, 1n);
    });

    it('leaves nothing open when disposed mid-handshake', async () => {
      // Accepts TCP but never answers the HTTP upgrade.
      const held: net.Socket[] = [];
      let clientClosed = false;
      const blackhole = net.createServer((s) => {
        held.push(s);
        s.resume();
        s.on('close', () => (clientClosed = true));
      });
      await new Promise<void>((r) => blackhole.listen(0, '127.0.0.1', r));
      const port = (blackhole.address() as net.AddressInfo).port;
      try {
        const baseline = await baselineResources();
        track({ wsUrl: `ws://127.0.0.1:${port}/websocket` });
        await waitFor(() => held.length === 1, 5_000, 'the TCP connection');
        tracker!.dispose();
        await waitFor(() => clientClosed, 5_000, 'the client side to close');
        await waitFor(() => noMoreThan(resources(), baseline), 5_000, `resources back to baseline, now ${JSON.stringify(resources())}`);
      } finally {
        for (const s of held) s.destroy();
        await new Promise<void>((r) => blackhole.close(() => r()));
      }
    });

    it('clears the reconnect timer while reconnecting', async () => {
      await fake.stop();
      const baseline = await baselineResources();
      track({ wsUrl: `ws://127.0.0.1:${await freePort()}/websocket`, maxBackoffMs: 60_000 });
      await waitFor(() => snap().state === 'reconnecting' && snap().reconnectAt !== undefined, 5_000, 'reconnecting');
      tracker!.dispose();
      assertNoExtraTimers(baseline);
      await waitFor(() => noMoreThan(resources(), baseline), 5_000, `resources back to baseline, now ${JSON.stringify(resources())}`);
    });

    it('aborts a poll in flight', async () => {
      const status = fakeStatus();
      status.state.hang = true;
      const baseline = await baselineResources();
      track({ wsUrl: undefined, fetchStatus: status.fetchStatus, connectTimeoutMs: 60_000 });
      await waitFor(() => status.state.calls === 1, 5_000, 'the poll');
      tracker!.dispose();
      assertNoExtraTimers(baseline);
      assert.equal(status.state.aborted, 1, 'the poll signal was aborted');
      await waitFor(() => noMoreThan(resources(), baseline), 5_000, `resources back to baseline, now ${JSON.stringify(resources())}`);
      await new Promise((r) => setTimeout(r, 1_200));
      assert.equal(status.state.calls, 1, 'no poll after dispose');
    });
  });
});

describe('HeightTracker on the devnet', function () {
  this.timeout(20_000);

  it('tracks the chain live across a provider stop and start', async () => {
    const devnet = await startDevnet({ blockIntervalMs: 100, providers: [{ name: 'node-a' }] });
    const events: HeightSnapshot[] = [];
    const { consensusWs, consensusHttp } = devnet.providers[0];
    const tracker = new HeightTracker({
      ...FAST,
      minStallMs: 1_000,
      wsUrl: consensusWs,
      fetchStatus: async (signal) => {
        const res = await fetch(joinUrl(consensusHttp, 'status'), { signal });
        const body = (await res.json()) as { result: { sync_info: { latest_block_height: string; latest_block_time: string } } };
        return { height: BigInt(body.result.sync_info.latest_block_height), time: body.result.sync_info.latest_block_time };
      },
    });
    tracker.onDidChange((s) => events.push(s));
    try {
      tracker.start();
      await waitFor(() => tracker.snapshot().state === 'live', 5_000, 'live');
      const first = await waitForHeightAbove(tracker, 0n);
      await waitForHeightAbove(tracker, first + 2n);
      assert.equal(tracker.snapshot().source, 'websocket');
      await devnet.stopProvider('node-a');
      // Two failed attempts in a row: polling (which fails too while the node is down).
      await waitFor(() => tracker.snapshot().state === 'polling', 5_000, 'polling after losing the provider');
      await waitFor(() => /status poll failed/.test(tracker.snapshot().detail ?? ''), 5_000, 'the failed poll in the detail');
      const during = tracker.snapshot().height!;
      await devnet.startProvider('node-a');
      await waitFor(() => tracker.snapshot().state === 'live', 10_000, `live again (now ${tracker.snapshot().state}: ${tracker.snapshot().detail})`);
      await waitForHeightAbove(tracker, during + 2n);
      assert.equal(tracker.snapshot().source, 'websocket');
      assert.ok(devnet.height() >= tracker.snapshot().height!);
      if (process.env.DEBUG_TRACKER) console.log(events.map((e) => `${e.state}:${e.height}:${e.detail ?? ''}`).join('\n'));
      const heights = events.filter((e) => e.height !== undefined).map((e) => e.height!);
      for (let i = 1; i < heights.length; i++) assert.ok(heights[i] >= heights[i - 1]);
    } finally {
      tracker.dispose();
      await devnet.stop();
    }
  });
});

async function waitForHeightAbove(tracker: HeightTracker, h: bigint): Promise<bigint> {
  await waitFor(() => (tracker.snapshot().height ?? -1n) > h, 10_000, `height above ${h} (now ${tracker.snapshot().height})`);
  return tracker.snapshot().height!;
}
