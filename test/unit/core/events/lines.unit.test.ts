// The console's lines and the export's records (core/events/lines.ts): what each entry becomes, the
// cut of a long summary, the newest MAX_LINES_PER_BATCH lines of a large batch, and one JSON Lines
// record per entry with the event's data.

import * as assert from 'node:assert/strict';
import type { WatchEntry } from '../../../../src/core/events/entry';
import { MAX_LINES_PER_BATCH, batchMessage, toJsonLine, toLine } from '../../../../src/core/events/lines';

const entry = (seq: number, extra: Partial<WatchEntry> = {}): WatchEntry => ({
  seq,
  at: Date.UTC(2026, 10, 25, 12, 0, 0, seq),
  kind: 'event',
  type: 'Tx',
  height: '12',
  txHash: 'AB'.repeat(32),
  summary: `event ${seq}`,
  bytes: 100,
  ...extra,
});

describe('event console lines', () => {
  it('a line carries what the page shows, not the data', () => {
    const line = toLine(entry(3, { data: { big: 'x'.repeat(1000) } }));
    assert.deepEqual(line, {
      seq: 3,
      at: Date.UTC(2026, 10, 25, 12, 0, 0, 3),
      kind: 'event',
      type: 'Tx',
      height: '12',
      txHash: 'AB'.repeat(32),
      summary: 'event 3',
      hasDetail: true,
    });
    assert.equal(toLine(entry(4)).hasDetail, false);
    assert.equal(toLine(entry(5, { kind: 'gap', type: undefined, summary: 'lost 2 s' })).kind, 'gap');
  });

  it('a summary longer than 400 characters is cut to 400 with an ellipsis; 400 is kept whole', () => {
    assert.equal(toLine(entry(1, { summary: 'y'.repeat(400) })).summary, 'y'.repeat(400));
    const cut = toLine(entry(1, { summary: 'z'.repeat(401) })).summary;
    assert.equal(cut.length, 400);
    assert.equal(cut, 'z'.repeat(399) + '…');
  });

  it('a batch is its newest lines, in order, and how many were skipped', () => {
    const small = batchMessage([entry(1), entry(2)]);
    assert.deepEqual(
      small.lines.map((l) => l.seq),
      [1, 2],
    );
    assert.equal(small.skipped, 0);
    assert.equal(small.type, 'lines');
    const exact = batchMessage(Array.from({ length: MAX_LINES_PER_BATCH }, (_, i) => entry(i + 1)));
    assert.equal(exact.lines.length, MAX_LINES_PER_BATCH);
    assert.equal(exact.skipped, 0);
    const big = batchMessage(Array.from({ length: MAX_LINES_PER_BATCH + 7 }, (_, i) => entry(i + 1)));
    assert.equal(big.skipped, 7);
    assert.equal(big.lines.length, MAX_LINES_PER_BATCH);
    assert.equal(big.lines[0].seq, 8);
    assert.equal(big.lines.at(-1)?.seq, MAX_LINES_PER_BATCH + 7);
    assert.deepEqual(batchMessage([]), { type: 'lines', lines: [], skipped: 0 });
  });

  it('an export record is one JSON line with the ISO time and the data', () => {
    const text = toJsonLine(entry(9, { data: { events: { 'tx.height': ['12'] } }, truncated: true }));
    assert.ok(!text.includes('\n'));
    assert.deepEqual(JSON.parse(text), {
      seq: 9,
      at: '2026-11-25T12:00:00.009Z',
      kind: 'event',
      type: 'Tx',
      height: '12',
      txHash: 'AB'.repeat(32),
      summary: 'event 9',
      data: { events: { 'tx.height': ['12'] } },
      truncated: true,
    });
    const gap = JSON.parse(toJsonLine(entry(10, { kind: 'gap', summary: 'reconnected', gap: { from: 1, to: 2 } })));
    assert.deepEqual(gap.gap, { from: 1, to: 2 });
    assert.equal('bytes' in gap, false, 'the frame size is not part of the record');
  });
});
