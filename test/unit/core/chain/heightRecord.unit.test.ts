// The heights a tracker has seen (core/chain/heightRecord.ts), on a clock driven by hand: only ever
// higher, a jump covered and counted, the median block interval, the snapshot; and the reading of
// each message of the NewBlockHeader subscription.

import * as assert from 'node:assert/strict';
import { HeightRecord, readSubscriptionMessage } from '../../../../src/core/chain/heightRecord';

describe('height record', () => {
  const realNow = Date.now;
  let now = 1_000_000;
  beforeEach(() => {
    now = 1_000_000;
    Date.now = () => now;
  });
  afterEach(() => {
    Date.now = realNow;
  });

  it('takes only higher heights; a lower one is logged, an equal one silently ignored', () => {
    const logs: string[] = [];
    const r = new HeightRecord((m) => logs.push(m));
    assert.equal(r.accept(10n, 't10', 'websocket'), true);
    assert.equal(r.accept(10n, 'again', 'polling'), false);
    assert.equal(logs.length, 0);
    assert.equal(r.accept(9n, 't9', 'polling'), false);
    assert.deepEqual(logs, ['ignored lower height 9 (have 10) from polling']);
    assert.equal(r.height, 10n);
    assert.equal(r.blockTime, 't10');
    assert.equal(r.source, 'websocket');
    assert.equal(r.accept(11n, undefined, 'polling'), true);
    assert.equal(r.blockTime, undefined);
    assert.equal(r.source, 'polling');
  });

  it('a jump of more than one block is a gap, covered by the new height and counted', () => {
    const logs: string[] = [];
    const r = new HeightRecord((m) => logs.push(m));
    r.accept(5n, undefined, 'websocket');
    r.accept(6n, undefined, 'websocket');
    assert.equal(r.lastGap, undefined);
    assert.equal(r.gapsCovered, 0);
    now += 10;
    r.accept(10n, undefined, 'websocket');
    assert.deepEqual(r.lastGap, { from: 7n, to: 9n, count: 3n, at: now });
    assert.equal(r.gapsCovered, 1);
    assert.match(logs.join('\n'), /height jumped from 6 to 10: 3 block\(s\) covered/);
    r.accept(12n, undefined, 'websocket');
    assert.deepEqual(r.lastGap, { from: 11n, to: 11n, count: 1n, at: now });
    assert.equal(r.gapsCovered, 2);
  });

  it('the block interval is the median time per block of the last 9 arrivals', () => {
    const r = new HeightRecord(() => undefined);
    assert.equal(r.observedIntervalMs(), undefined);
    r.accept(1n, undefined, 'websocket');
    assert.equal(r.observedIntervalMs(), undefined);
    now += 1000;
    r.accept(2n, undefined, 'websocket');
    assert.equal(r.observedIntervalMs(), 1000);
    now += 3000;
    r.accept(3n, undefined, 'websocket');
    assert.equal(r.observedIntervalMs(), 2000, 'the median of two is their mean');
    now += 6000;
    r.accept(5n, undefined, 'websocket'); // two blocks in 6 s: 3 s per block
    assert.equal(r.observedIntervalMs(), 3000);
    // No time passed: no sample.
    r.accept(6n, undefined, 'websocket');
    assert.equal(r.observedIntervalMs(), 3000);
    // Ten fast blocks push the slow ones out of the window of 9.
    for (let h = 7n; h < 17n; h++) {
      now += 100;
      r.accept(h, undefined, 'websocket');
    }
    assert.equal(r.observedIntervalMs(), 100);
    now += 333;
    r.accept(17n, undefined, 'websocket');
    assert.equal(r.observedIntervalMs(), 100);
  });

  it('the median is rounded', () => {
    const r = new HeightRecord(() => undefined);
    r.accept(1n, undefined, 'websocket');
    now += 1001;
    r.accept(3n, undefined, 'websocket'); // 500.5 ms per block
    assert.equal(r.observedIntervalMs(), 501);
  });

  it('the snapshot holds only what is known', () => {
    const r = new HeightRecord(() => undefined);
    assert.deepEqual(r.snapshot('connecting'), { state: 'connecting' });
    r.accept(4n, 'T', 'polling');
    assert.deepEqual(r.snapshot('polling'), { state: 'polling', height: 4n, blockTime: 'T', receivedAt: now, source: 'polling' });
    now += 500;
    r.accept(6n, 'U', 'websocket');
    const s = r.snapshot('live');
    assert.deepEqual(s, {
      state: 'live',
      height: 6n,
      blockTime: 'U',
      receivedAt: now,
      blockIntervalMs: 250,
      source: 'websocket',
      lastGap: { from: 5n, to: 5n, count: 1n, at: now },
      gapsCovered: 1,
    });
    // A copy: changing the snapshot does not change the record.
    s.lastGap!.count = 99n;
    assert.equal(r.lastGap?.count, 1n);
  });
});

describe('height record: reading the subscription', () => {
  const header = (height: unknown, time?: unknown) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      result: { query: "tm.event='NewBlockHeader'", data: { type: 'tendermint/event/NewBlockHeader', value: { header: { height, time } } } },
    });

  it('a header with its height and time', () => {
    assert.deepEqual(readSubscriptionMessage(header('42', '2026-01-01T00:00:00Z'), 7), { kind: 'header', height: 42n, time: '2026-01-01T00:00:00Z' });
    assert.deepEqual(readSubscriptionMessage(header('42', 5), 7), { kind: 'header', height: 42n, time: undefined });
  });

  it('the acknowledgement, an error, and what is ignored', () => {
    assert.deepEqual(readSubscriptionMessage(JSON.stringify({ id: 7, result: {} }), 7), { kind: 'ack' });
    assert.deepEqual(readSubscriptionMessage(JSON.stringify({ id: 7, error: { code: -32603 } }), 7), { kind: 'error', error: { code: -32603 } });
    assert.equal(readSubscriptionMessage('not json', 7).kind, 'ignored');
    assert.equal(readSubscriptionMessage(header('42'), 8).kind, 'ignored', 'another id');
    assert.equal(readSubscriptionMessage(header('42'), undefined).kind, 'ignored');
    assert.equal(readSubscriptionMessage('[1]', 7).kind, 'ignored');
    assert.equal(readSubscriptionMessage(JSON.stringify({ id: 7, result: 5 }), 7).kind, 'ignored');
    assert.equal(readSubscriptionMessage(JSON.stringify({ id: 7, result: { data: {} } }), 7).kind, 'ignored');
    assert.equal(readSubscriptionMessage(header('-1'), 7).kind, 'ignored');
    assert.equal(readSubscriptionMessage(header('1e3'), 7).kind, 'ignored');
    assert.equal(readSubscriptionMessage(header('99999999999999999999'), 7).kind, 'ignored', 'above int64');
    assert.equal(readSubscriptionMessage(header(42), 7).kind, 'ignored', 'a number, not the decimal text CometBFT sends');
    assert.match((readSubscriptionMessage(header(undefined), 7) as { what: string }).what, /usable header height/);
  });
});
