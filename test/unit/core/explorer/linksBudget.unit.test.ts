// Links and hovers of result documents stay within a work budget (issue 25 §3): a 20 MB document of
// bech32-looking text (every checksum wrong) never holds the editor more than ~50 ms per call, and
// the windowed scan finds exactly what a whole-text scan finds.

import * as assert from 'node:assert/strict';
import { bech32 } from '@scure/base';
import { hoverAt, scanBudget, scanLinks } from '../../../../src/core/explorer/links';
import { seededRandom } from '../../helpers/seededRandom';

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function fakeBech32(rand: () => number): string {
  let s = 'cosmos1';
  for (let i = 0; i < 38; i++) s += CHARSET[Math.floor(rand() * 32)];
  return s; // a checksum that (almost surely) fails
}

describe('explorer links: a work budget per call', function () {
  this.timeout(60_000);
  const rand = seededRandom(25);
  const words: string[] = [];
  for (let i = 0; i < 2000; i++) words.push(fakeBech32(rand));
  const line = Array.from({ length: 22 }, (_, i) => words[i % words.length]).join(' ');
  const lines = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? line : words.slice(i % 1900, (i % 1900) + 22).join(' ')));
  const doc = lines.join('\n');

  // Deterministic: the work count stops a call by itself (deadline far away), and the deadline
  // stops it by itself (work unbounded). How long a default call takes is a benchmark figure
  // (BENCHMARKS.md, "Links within a budget"), never a timed unit test: the machines are shared.
  const FAR = 1e9;

  it('a 20 MB document of failing bech32 candidates: the work count alone stops the call', () => {
    assert.ok(doc.length > 19 * 1024 * 1024, String(doc.length));
    const budget = scanBudget(FAR, 100_000);
    assert.equal(scanLinks(doc, 2000, budget).length, 0);
    assert.ok(budget.exhausted, 'the default work count ran out before the end of 20 MB');
    // It stopped as soon as it ran out: at most one charge (a decode = 20, a window = 33) past zero.
    assert.ok(budget.work >= -40, String(budget.work));
    // A larger count does more of the same document, so the count is what bounds the work.
    const small = scanBudget(FAR, 1_000);
    scanLinks(doc, 2000, small);
    assert.ok(small.exhausted);
  });

  it('the deadline alone stops a call, whatever work is left', () => {
    const budget = scanBudget(0, Number.MAX_SAFE_INTEGER);
    assert.equal(scanLinks(doc, 2000, budget).length, 0);
    assert.ok(budget.exhausted);
    assert.ok(budget.work > Number.MAX_SAFE_INTEGER - 10_000, 'stopped within the first window');
  });

  it('the editor loop (a line at a time, one budget) stops when the budget does', () => {
    const budget = scanBudget(FAR, 100_000);
    let scanned = 0;
    for (let i = 0; i < lines.length && !budget.exhausted; i++, scanned++) scanLinks(lines[i], 2000, budget);
    assert.ok(budget.exhausted);
    assert.ok(scanned < lines.length, `${scanned} of ${lines.length} lines`);
  });

  it('the windowed scan finds what a whole scan finds, across window edges', () => {
    const valid = bech32.encode('cosmos', bech32.toWords(new Uint8Array(20).fill(7)));
    const hash = `0x${'ab'.repeat(32)}`;
    for (const pad of [32 * 1024 - 10, 32 * 1024 - 1, 32 * 1024, 32 * 1024 + 3]) {
      const text = `${'-'.repeat(pad)} ${valid} "height": "12" ${hash} x`;
      const found = scanLinks(text, 2000, scanBudget(1000, 1e9)).map((l) => l.query);
      assert.deepEqual(found, [valid, '12', hash], String(pad));
      const at = text.indexOf(valid);
      assert.equal(text.slice(scanLinks(text)[0].start, scanLinks(text)[0].end), valid);
      assert.ok(at > 0);
    }
    // An identifier glued to the window edge is not cut into a shorter one.
    const glued = `${'a'.repeat(32 * 1024 - 30)}${hash}`;
    assert.deepEqual(
      scanLinks(glued).map((l) => l.query),
      [],
    );
  });

  it('a hover reads only around its position, even on a 20 MB line', () => {
    const long = `${'x '.repeat(5_000_000)}0x1f ${'y '.repeat(5_000_000)}`;
    const at = long.indexOf('0x1f') + 1;
    const info = hoverAt(long, at, { unit: () => undefined });
    assert.equal(info?.start, at - 1);
    assert.deepEqual(info?.lines, ['0x1f = 31 (decimal)']);
  });
});
