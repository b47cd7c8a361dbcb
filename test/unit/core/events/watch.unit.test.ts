import * as assert from 'node:assert/strict';
import { RingBuffer } from '../../../../src/core/events/ring';
import type { WatchEntry } from '../../../../src/core/events/entry';
import { Watch, type WatchOptions } from '../../../../src/core/events/watch';
import { TRANSFER_TOPIC } from '../../../devnet/contract';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { FakeCometWs, waitFor } from '../../helpers/fakeCometWs';

const FAST: WatchOptions = { pingIntervalMs: 200, connectTimeoutMs: 1_000, maxBackoffMs: 100, batchMs: 20 };

/** A watch whose batches are collected (and disposed after the test). */
function collect(w: Watch): WatchEntry[] {
  const got: WatchEntry[] = [];
  w.onBatch((batch) => got.push(...batch));
  return got;
}

async function post(url: string, body: unknown): Promise<unknown> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return r.json();
}

describe('events: the core Watch', function () {
  this.timeout(20_000);
  const watches: Watch[] = [];
  const track = (w: Watch): Watch => (watches.push(w), w);
  afterEach(() => {
    for (const w of watches.splice(0)) w.dispose();
  });

  describe('against the devnet', () => {
    let devnet: Devnet;
    before(async () => {
      devnet = await startDevnet({ blockIntervalMs: 100 });
    });
    after(async () => devnet.stop());

    it("CometBFT tm.event='NewBlock': one line per block with its height, in order", async () => {
      const w = track(new Watch({ kind: 'comet', url: devnet.providers[0].consensusWs, query: "tm.event='NewBlock'" }, FAST));
      const got = collect(w);
      w.start();
      await waitFor(() => got.filter((e) => e.kind === 'event').length >= 3, 5000, 'three NewBlock events');
      const events = got.filter((e) => e.kind === 'event');
      assert.equal(w.snapshot().state, 'live');
      for (const e of events) {
        assert.equal(e.type, 'NewBlock');
        assert.match(e.height ?? '', /^\d+$/);
      }
      assert.equal(BigInt(events[1].height!) - BigInt(events[0].height!), 1n);
      assert.ok(w.snapshot().received >= 3);
    });

    it('CometBFT Tx query: the transaction with its hash and the queried attribute first', async () => {
      const w = track(new Watch({ kind: 'comet', url: devnet.providers[0].consensusWs, query: "tm.event='Tx' AND app.creator='Cosmoshi'" }, FAST));
      const got = collect(w);
      w.start();
      await waitFor(() => w.snapshot().state === 'live', 5000, 'live');
      const tx = Buffer.from(`watchkey=${Date.now()}`);
      const answer = (await post(devnet.providers[0].consensusRpc, {
        jsonrpc: '2.0',
        id: 1,
        method: 'broadcast_tx_sync',
        params: { tx: tx.toString('base64') },
      })) as {
        result: { hash: string };
      };
      await waitFor(() => got.some((e) => e.kind === 'event'), 5000, 'the Tx event');
      const e = got.find((x) => x.kind === 'event')!;
      assert.equal(e.type, 'Tx');
      assert.equal(e.txHash, answer.result.hash);
      assert.equal(e.hashKind, 'comet');
      assert.match(e.summary, /^app\.creator=Cosmoshi/);
      assert.ok(e.data && typeof e.data === 'object');
    });
  });

  describe('reconnection', () => {
    let fake: FakeCometWs;
    beforeEach(async () => {
      fake = await FakeCometWs.start();
    });
    afterEach(async () => fake.stop());

    it('a dropped socket reconnects, resubscribes, and marks the gap with a line', async () => {
      const w = track(new Watch({ kind: 'comet', url: fake.url, query: "tm.event='NewBlockHeader'" }, FAST));
      const got = collect(w);
      w.start();
      await waitFor(() => w.snapshot().state === 'live', 5000, 'live');
      fake.pushBlock(10);
      await waitFor(() => got.some((e) => e.height === '10'), 5000, 'height 10');
      fake.resetAll();
      await waitFor(() => w.snapshot().state === 'reconnecting', 5000, 'reconnecting');
      assert.ok(w.snapshot().detail, 'the state says why');
      await waitFor(() => w.snapshot().state === 'live', 5000, 'live again');
      fake.pushBlock(14);
      await waitFor(() => got.some((e) => e.height === '14'), 5000, 'height 14');
      const gap = got.find((e) => e.kind === 'gap');
      assert.ok(gap, 'a gap line');
      assert.match(gap.summary, /^disconnected \d\d:\d\d:\d\d–\d\d:\d\d:\d\d, events may be missing$/);
      assert.ok(gap.gap && gap.gap.to >= gap.gap.from);
      assert.deepEqual(
        got.map((e) => (e.kind === 'gap' ? 'gap' : e.height)),
        ['10', 'gap', '14'],
      );
      assert.equal(w.snapshot().gaps, 1);
      assert.equal(fake.duplicateSubscriptions(), 0);
    });

    it('a cancelled subscription (-32000) resubscribes on a new socket with a note and a gap line', async () => {
      const w = track(new Watch({ kind: 'comet', url: fake.url, query: "tm.event='NewBlockHeader'" }, FAST));
      const got = collect(w);
      w.start();
      await waitFor(() => w.snapshot().state === 'live', 5000, 'live');
      fake.cancelSubscriptions();
      await waitFor(() => got.some((e) => e.kind === 'gap'), 5000, 'the gap line');
      assert.ok(got.some((e) => e.kind === 'note' && /subscription cancelled/.test(e.summary)));
      assert.equal(w.snapshot().state, 'live');
    });

    it('pause holds the batches, resume delivers what arrived, clear empties the buffer', async () => {
      const w = track(new Watch({ kind: 'comet', url: fake.url, query: "tm.event='NewBlockHeader'" }, FAST));
      const got = collect(w);
      w.start();
      await waitFor(() => w.snapshot().state === 'live', 5000, 'live');
      w.pause();
      fake.pushBlock(1);
      fake.pushBlock(2);
      await waitFor(() => w.snapshot().received === 2, 5000, 'two received');
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(got.length, 0, 'nothing shown while paused');
      w.resume();
      await waitFor(() => got.length === 2, 5000, 'both after resume');
      w.clear();
      assert.equal(w.snapshot().stored, 0);
      assert.equal(w.entries().length, 0);
      assert.equal(w.snapshot().received, 2);
    });

    it('dispose closes the socket and stops reconnecting', async () => {
      const w = new Watch({ kind: 'comet', url: fake.url, query: "tm.event='NewBlockHeader'" }, FAST);
      w.start();
      await waitFor(() => w.snapshot().state === 'live', 5000, 'live');
      w.dispose();
      const before = fake.totalSubscribeRequests();
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(fake.totalSubscribeRequests(), before);
      assert.equal(w.snapshot().state, 'stopped');
    });
  });

  describe('bounds', () => {
    it('the ring keeps the newest `capacity` items and counts the evicted ones', () => {
      const ring = new RingBuffer<{ bytes: number; n: number }>(100);
      for (let n = 0; n < 300; n++) ring.push({ bytes: 10, n });
      assert.equal(ring.length, 100);
      assert.equal(ring.evicted, 200);
      assert.equal(ring.bytes, 1000);
      assert.deepEqual(
        ring.toArray().map((x) => x.n),
        Array.from({ length: 100 }, (_, i) => 200 + i),
      );
      const byBytes = new RingBuffer<{ bytes: number }>(100, 250);
      for (let n = 0; n < 10; n++) byBytes.push({ bytes: 100 });
      assert.equal(byBytes.length, 2);
    });

    it('3x the buffer size through a watch: the buffer holds its capacity, counts are right, memory stays bounded', async () => {
      const fake = await FakeCometWs.start();
      try {
        const capacity = 2_000;
        const w = track(new Watch({ kind: 'comet', url: fake.url, query: "tm.event='NewBlockHeader'" }, { ...FAST, bufferSize: capacity }));
        let shown = 0;
        let missedNotes = 0;
        w.onBatch((b) => {
          shown += b.filter((e) => e.kind === 'event').length;
          missedNotes += b.filter((e) => e.kind === 'note').length;
        });
        w.start();
        await waitFor(() => w.snapshot().state === 'live', 5000, 'live');
        global.gc?.();
        const heapBefore = process.memoryUsage().heapUsed;
        for (let h = 1; h <= 3 * capacity; h++) fake.pushBlock(h);
        await waitFor(() => w.snapshot().received === 3 * capacity, 10_000, 'every event received');
        const s = w.snapshot();
        assert.equal(s.stored, capacity);
        assert.equal(s.evicted, 2 * capacity);
        assert.equal(w.entries()[0].height, String(2 * capacity + 1));
        assert.equal(w.entries().at(-1)!.height, String(3 * capacity));
        await waitFor(() => shown + missedNotes > 0 && w.entry(w.entries().at(-1)!.seq) !== undefined, 5000, 'batches');
        global.gc?.();
        const grown = process.memoryUsage().heapUsed - heapBefore;
        assert.ok(grown < 64 * 1024 * 1024, `heap grew by ${grown} bytes`);
      } finally {
        await fake.stop();
      }
    });
  });
});

describe('events: EVM watches on the devnet', function () {
  this.timeout(20_000);
  let devnet: Devnet;
  const watches: Watch[] = [];
  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 100 });
  });
  after(async () => {
    for (const w of watches.splice(0)) w.dispose();
    await devnet.stop();
  });

  it('eth_subscribe newHeads: one line per block with its decimal height and hash', async () => {
    const w = new Watch({ kind: 'evm', url: devnet.providers[0].evmWs, subscription: 'newHeads' }, FAST);
    watches.push(w);
    const got = collect(w);
    w.start();
    await waitFor(() => got.filter((e) => e.kind === 'event').length >= 2, 5000, 'two heads');
    const [a, b] = got.filter((e) => e.kind === 'event');
    assert.equal(a.type, 'newHeads');
    assert.equal(BigInt(b.height!) - BigInt(a.height!), 1n);
    assert.match(a.summary, /^hash=0x[0-9a-f]{64}/);
    assert.equal(w.snapshot().state, 'live');
  });

  it('eth_subscribe logs on a devnet with real transactions: the Transfer logs, decoded into lines', async () => {
    const real = await startDevnet({ blockIntervalMs: 100, realTxs: true });
    try {
      const w = new Watch({ kind: 'evm', url: real.providers[0].evmWs, subscription: 'logs', topics: [TRANSFER_TOPIC] }, FAST);
      watches.push(w);
      const got = collect(w);
      w.start();
      await waitFor(() => got.filter((e) => e.kind === 'event').length >= 2, 10_000, 'two Transfer logs');
      const logs = got.filter((e) => e.kind === 'event');
      assert.ok(logs.length > 0);
      for (const e of logs) {
        assert.equal(e.type, 'log');
        assert.match(e.height ?? '', /^\d+$/);
        assert.equal(e.hashKind, 'evm');
        assert.match(e.summary, /address=0x[0-9a-f]/i);
        assert.match(e.summary, /topic0=0xddf252ad/);
        assert.match(e.summary, /\+2 topic\(s\)/, 'Transfer(from, to, value): two indexed topics after topic0');
        const data = e.data as { address: string; topics: string[]; transactionHash: string };
        assert.equal(data.topics[0], TRANSFER_TOPIC);
        assert.equal(data.address.toLowerCase(), (logs[0].data as { address: string }).address.toLowerCase(), 'one emitting contract');
      }
      // Heights only go up.
      assert.ok(BigInt(logs.at(-1)!.height!) >= BigInt(logs[0].height!));
      w.dispose();
    } finally {
      await real.stop();
    }
  });

  it('eth_subscribe logs with an address filter is accepted (the devnet has no logs: live, no events)', async () => {
    const w = new Watch({ kind: 'evm', url: devnet.providers[0].evmWs, subscription: 'logs', address: '0x' + '11'.repeat(20), topics: [null] }, FAST);
    watches.push(w);
    w.start();
    await waitFor(() => w.snapshot().state === 'live', 5000, 'live');
    assert.equal(w.snapshot().received, 0);
  });
});
