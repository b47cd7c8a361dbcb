// bech32 through @scure/base, remembered (bech32Encode in validate.ts, bytesOf in addresses.ts): the
// same address for the same bytes and the same bytes for every string as @scure/base alone, however
// often asked; nothing accepted that @scure/base refuses (mutated, mixed-case, padded and cut
// strings); a caller changing what it was given changes nothing for the next.
import * as assert from 'node:assert/strict';
import { bech32 } from '@scure/base';
import { bech32Encode } from '../../../../src/core/chain/validate';
import { bytesOf } from '../../../../src/core/explorer/addresses';
import { seededRandom as rng } from '../../helpers/seededRandom';

/** What @scure/base alone says a string is. */
function library(text: string): Uint8Array | undefined {
  const d = bech32.decodeUnsafe(text, 90);
  return (d && bech32.fromWordsUnsafe(d.words)) || undefined;
}

const PREFIXES = ['cosmos', 'cosmosvaloper', 'cosmosvalcons', 'evmos', 'a', 'osmo1x', 'bc', 'x9'];

describe('core/chain: bech32 remembered, against @scure/base', () => {
  it('encodes the same address as @scure/base for 2,000 random byte strings, asked twice (the second from memory)', () => {
    const r = rng(35);
    for (let n = 0; n < 2000; n++) {
      const bytes = Uint8Array.from({ length: Math.floor(r() * 41) }, () => Math.floor(r() * 256));
      const hrp = PREFIXES[n % PREFIXES.length];
      const want = bech32.encode(hrp, bech32.toWords(bytes), false);
      assert.equal(bech32Encode(hrp, bytes), want, `${hrp} ${Buffer.from(bytes).toString('hex')}`);
      assert.equal(bech32Encode(hrp, bytes), want);
      // A view into a larger buffer is keyed by its own bytes only.
      const wide = new Uint8Array(bytes.length + 8);
      wide.set(bytes, 4);
      assert.equal(bech32Encode(hrp, wide.subarray(4, 4 + bytes.length)), want);
    }
    assert.equal(bech32Encode('cosmos', Buffer.from('c6fe5d33615a1c52c08018c47e8bc53646a0e101', 'hex')), 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm');
    assert.throws(() => bech32Encode('', Uint8Array.from([1, 2, 3])));
  });

  it('decodes every string as @scure/base does and accepts nothing it refuses (20,000 mutated strings, each asked twice)', () => {
    const r = rng(2000);
    const chars = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l1bioQPZ-_ ';
    let accepted = 0;
    for (let n = 0; n < 20_000; n++) {
      const bytes = Uint8Array.from({ length: Math.floor(r() * 41) }, () => Math.floor(r() * 256));
      let s: string = bech32.encode(PREFIXES[n % PREFIXES.length], bech32.toWords(bytes), false);
      const how = Math.floor(r() * 6);
      const at = Math.floor(r() * s.length);
      if (how === 1) s = `${s.slice(0, at)}${chars[Math.floor(r() * chars.length)]}${s.slice(at + 1)}`;
      else if (how === 2) s = `${s.slice(0, at)}${s.slice(at + 1)}`;
      else if (how === 3) s = `${s.slice(0, at)}${chars[Math.floor(r() * chars.length)]}${s.slice(at)}`;
      else if (how === 4) s = r() < 0.5 ? s.toUpperCase() : `${s.slice(0, at)}${s.slice(at).toUpperCase()}`;
      else if (how === 5) s = `${s}${'q'.repeat(Math.floor(r() * 40))}`;
      const slow = library(s.trim());
      for (let twice = 0; twice < 2; twice++) {
        const b = bytesOf(s);
        assert.deepEqual(b && Buffer.from(b), slow && Buffer.from(slow), s);
      }
      if (slow) accepted++;
    }
    assert.ok(accepted > 3000, `only ${accepted} valid strings tried`);
  });

  it('hands each caller its own bytes: changing them does not change what the next caller reads', () => {
    const good = 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm';
    const first = bytesOf(good)!;
    first.fill(0);
    assert.equal(Buffer.from(bytesOf(good)!).toString('hex'), 'c6fe5d33615a1c52c08018c47e8bc53646a0e101');
  });

  it('refuses a wrong checksum, non-zero padding and excess padding (as @scure/base does)', () => {
    const good = 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm';
    assert.equal(bytesOf(`${good.slice(0, -1)}n`), undefined);
    const words = bech32.toWords(Uint8Array.from([0xff]));
    const padded = bech32.encode('a', [words[0], words[1] | 1], false);
    assert.equal(library(padded), undefined);
    assert.equal(bytesOf(padded), undefined);
    const excess = bech32.encode('a', [0, 0, 0], false);
    assert.equal(library(excess), undefined);
    assert.equal(bytesOf(excess), undefined);
    assert.equal(bytesOf('x'.repeat(91)), undefined);
  });
});
