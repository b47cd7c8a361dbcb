// The bech32 fast path (src/core/chain/bech32.ts) against @scure/base, which it stands in for in the
// common case: the same address for the same bytes, the same bytes for every string it accepts, and
// nothing accepted that @scure/base refuses (mutated, mixed-case, padded and cut strings).
import * as assert from 'node:assert/strict';
import { bech32 } from '@scure/base';
import { decodeBech32, encodeBech32 } from '../../../../src/core/chain/bech32';
import { bech32Encode } from '../../../../src/core/chain/validate';
import { bytesOf } from '../../../../src/core/explorer/addresses';

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What @scure/base says a string is (the slow path of bytesOf). */
function library(text: string): { hrp: string; bytes: Uint8Array } | undefined {
  const d = bech32.decodeUnsafe(text, 90);
  if (!d) return undefined;
  const bytes = bech32.fromWordsUnsafe(d.words);
  return bytes ? { hrp: d.prefix, bytes } : undefined;
}

const PREFIXES = ['cosmos', 'cosmosvaloper', 'cosmosvalcons', 'evmos', 'a', 'osmo1x', 'bc', 'x9'];

describe('core/chain: bech32 fast path vs @scure/base', () => {
  it('encodes the same address as @scure/base for 2,000 random byte strings (0 to 40 bytes) and prefixes', () => {
    const r = rng(35);
    for (let n = 0; n < 2000; n++) {
      const bytes = Uint8Array.from({ length: Math.floor(r() * 41) }, () => Math.floor(r() * 256));
      const hrp = PREFIXES[n % PREFIXES.length];
      const want = bech32.encode(hrp, bech32.toWords(bytes), false);
      assert.equal(encodeBech32(hrp, bytes), want, `${hrp} ${Buffer.from(bytes).toString('hex')}`);
      assert.equal(bech32Encode(hrp, bytes), want);
    }
    // Known vectors: the fee collector and a dev account of evmd.
    assert.equal(bech32Encode('cosmos', Buffer.from('c6fe5d33615a1c52c08018c47e8bc53646a0e101', 'hex')), 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm');
  });

  it('leaves prefixes that are not plain lowercase to @scure/base (same result either way)', () => {
    const bytes = Uint8Array.from([1, 2, 3, 4, 5]);
    for (const hrp of ['Cosmos', 'a-b', 'x_y', 'a'.repeat(84), '~!']) {
      assert.equal(encodeBech32(hrp, bytes), undefined, hrp);
      assert.equal(bech32Encode(hrp, bytes), bech32.encode(hrp, bech32.toWords(bytes), false));
    }
    assert.throws(() => bech32Encode('', bytes));
  });

  it('decodes every valid address as @scure/base does, and accepts nothing it refuses (20,000 mutated strings)', () => {
    const r = rng(2000);
    const chars = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l1bioQPZ-_ ';
    let accepted = 0;
    for (let n = 0; n < 20_000; n++) {
      const bytes = Uint8Array.from({ length: Math.floor(r() * 41) }, () => Math.floor(r() * 256));
      let s: string = bech32.encode(PREFIXES[n % PREFIXES.length], bech32.toWords(bytes), false);
      // Most strings changed: a character replaced, one cut or added, the case changed, made longer than 90.
      const how = Math.floor(r() * 6);
      const at = Math.floor(r() * s.length);
      if (how === 1) s = `${s.slice(0, at)}${chars[Math.floor(r() * chars.length)]}${s.slice(at + 1)}`;
      else if (how === 2) s = `${s.slice(0, at)}${s.slice(at + 1)}`;
      else if (how === 3) s = `${s.slice(0, at)}${chars[Math.floor(r() * chars.length)]}${s.slice(at)}`;
      else if (how === 4) s = r() < 0.5 ? s.toUpperCase() : `${s.slice(0, at)}${s.slice(at).toUpperCase()}`;
      else if (how === 5) s = `${s}${'q'.repeat(Math.floor(r() * 40))}`;
      const fast = decodeBech32(s);
      const slow = library(s);
      if (fast) {
        accepted++;
        assert.ok(slow, `accepted by the fast path only: ${s}`);
        assert.equal(fast.hrp, slow.hrp, s);
        assert.deepEqual(Buffer.from(fast.bytes), Buffer.from(slow.bytes), s);
      } else if (slow && s === s.toLowerCase() && /^[a-z0-9]+$/.test(slow.hrp) && s.length <= 90) {
        assert.fail(`a plain lowercase address the fast path did not take: ${s}`);
      }
      // bytesOf (fast path first, then @scure/base) agrees with @scure/base alone.
      const b = bytesOf(s);
      assert.deepEqual(b && Buffer.from(b), slow && Buffer.from(slow.bytes), s);
    }
    assert.ok(accepted > 3000, `only ${accepted} valid strings tried`);
  });

  it('refuses a wrong checksum, non-zero padding and excess padding (as @scure/base does)', () => {
    const good = 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm';
    assert.deepEqual(Buffer.from(decodeBech32(good)!.bytes).toString('hex'), 'c6fe5d33615a1c52c08018c47e8bc53646a0e101');
    assert.equal(decodeBech32(`${good.slice(0, -1)}n`), undefined);
    // 1 byte = 8 bits = 2 words (10 bits, 2 of padding): the padding bits set.
    const words = bech32.toWords(Uint8Array.from([0xff]));
    const padded = bech32.encode('a', [words[0], words[1] | 1], false);
    assert.equal(decodeBech32(padded), undefined);
    assert.equal(library(padded), undefined);
    // 3 words = 15 bits: a whole byte and 7 bits left over (excess padding).
    const excess = bech32.encode('a', [0, 0, 0], false);
    assert.equal(decodeBech32(excess), undefined);
    assert.equal(library(excess), undefined);
    assert.equal(bytesOf(excess), undefined);
  });
});
