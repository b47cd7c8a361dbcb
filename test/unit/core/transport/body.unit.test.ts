// collect() of core/transport/body.ts with a body made by hand: what is kept in memory, spilled to a
// file or kept as a head, and the download cap (chainEndpoints.maxDownloadMegabytes) enforced in
// every mode, including while the answer is still in memory.

import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { EndpointError, errorMessage } from '../../../../src/core/base/errors';
import { DEFAULT_MAX_DOWNLOAD_BYTES, HEAD_BYTES, KEEP_RAW_BYTES, capOf, collect, drain, headOf } from '../../../../src/core/transport/body';
import type { BodyReader } from '../../../../src/core/transport/exchange';

/** A body of these pieces, read as an Exchange hands them over. */
function bodyOf(pieces: Buffer[]): BodyReader & { taken: number } {
  let i = 0;
  const reader = {
    taken: 0,
    async readWhile(take: (piece: Buffer) => boolean): Promise<boolean> {
      while (i < pieces.length) {
        reader.taken++;
        if (!take(pieces[i++])) return false;
      }
      return true;
    },
    rest() {
      const left = pieces.slice(i);
      i = pieces.length;
      return Readable.from(left);
    },
  };
  return reader;
}

const piece = (n: number, fill = 'a') => Buffer.alloc(n, fill);
const isCapError = (e: unknown) =>
  e instanceof EndpointError && e.kind === 'protocol' && /maxDownloadMegabytes/.test(errorMessage(e)) && /node-x/.test(errorMessage(e));
const cap = (max: number) => capOf(max, () => 'node-x');

describe('transport body: collect()', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'ce-body-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a small answer is kept in memory, whole', async () => {
    const r = await collect(bodyOf([piece(10, 'a'), piece(5, 'b')]), { cap: cap(1000), maxBuffer: 100 });
    assert.equal(r.bytes, 15);
    assert.equal(r.body?.toString(), 'aaaaaaaaaabbbbb');
    assert.equal(r.digested, false);
    assert.equal(r.file, undefined);
  });

  it('the download cap stops an answer that is still in memory (below maxBuffer)', async () => {
    const body = bodyOf([piece(60), piece(60), piece(60), piece(60)]);
    await assert.rejects(collect(body, { cap: cap(100), maxBuffer: 10_000 }), isCapError);
    assert.equal(body.taken, 2, 'it stops reading at the piece that crossed the cap');
  });

  it('the download cap stops an answer in memory also when the piece that crosses it is the last', async () => {
    await assert.rejects(collect(bodyOf([piece(60), piece(60)]), { cap: cap(100), maxBuffer: 10_000 }), isCapError);
    await assert.rejects(collect(bodyOf([piece(101)]), { cap: cap(100), maxBuffer: 10_000 }), isCapError);
  });

  it('an answer exactly at the cap is read, whole', async () => {
    const r = await collect(bodyOf([piece(50, 'a'), piece(50, 'b')]), { cap: cap(100), maxBuffer: 10_000 });
    assert.equal(r.bytes, 100);
    assert.equal(r.body?.toString(), 'a'.repeat(50) + 'b'.repeat(50));
  });

  it('an answer of exactly maxBuffer bytes stays in memory', async () => {
    const r = await collect(bodyOf([piece(50), piece(50)]), { cap: cap(1000), maxBuffer: 100, spillDir: dir });
    assert.equal(r.body?.length, 100);
    assert.equal(r.file, undefined);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('a digested body longer than its stated length, past maxBuffer: too large for a document, nothing kept', async () => {
    const mb = 1024 * 1024;
    await assert.rejects(
      collect(bodyOf([piece(3 * mb), piece(3 * mb), piece(3 * mb)]), {
        cap: cap(100 * mb),
        maxBuffer: 8 * mb,
        length: 5 * mb,
        spillDir: dir,
        digest: { push: () => undefined },
      }),
      (e: unknown) => e instanceof EndpointError && e.kind === 'parse' && /maxDocumentMegabytes/.test(errorMessage(e)),
    );
    assert.deepEqual(readdirSync(dir), []);
  });

  it('past maxBuffer without a spill directory: the sentence names maxDocumentMegabytes', async () => {
    await assert.rejects(
      collect(bodyOf([piece(60), piece(60)]), { cap: cap(10_000), maxBuffer: 100 }),
      (e: unknown) => e instanceof EndpointError && e.kind === 'parse' && /maxDocumentMegabytes/.test(errorMessage(e)),
    );
  });

  it('past maxBuffer with a spill directory: the whole body goes to a file, byte for byte, no .partial left', async () => {
    const pieces = [piece(60, 'a'), piece(60, 'b'), piece(60, 'c'), piece(7, 'd')];
    const r = await collect(bodyOf(pieces), { cap: cap(10_000), maxBuffer: 100, spillDir: dir });
    assert.equal(r.bytes, 187);
    assert.ok(r.file);
    assert.equal(r.body, undefined);
    assert.deepEqual(readFileSync(r.file), Buffer.concat(pieces));
    assert.deepEqual(readdirSync(dir), [path.basename(r.file)]);
  });

  it('the download cap stops a body being spilled, and its partial file is removed', async () => {
    await assert.rejects(collect(bodyOf([piece(60), piece(60), piece(60), piece(60)]), { cap: cap(200), maxBuffer: 100, spillDir: dir }), isCapError);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('a small digested body is kept whole, the digest sees every piece, expect() gets the stated length', async () => {
    const seen: Buffer[] = [];
    let expected: number | undefined;
    const r = await collect(bodyOf([piece(10, 'x'), piece(10, 'y')]), {
      cap: cap(1000),
      maxBuffer: 100,
      length: 20,
      digest: { expect: (n) => (expected = n), push: (p) => seen.push(p) },
    });
    assert.equal(r.digested, true);
    assert.equal(r.body?.length, 20);
    assert.equal(Buffer.concat(seen).toString(), 'x'.repeat(10) + 'y'.repeat(10));
    assert.equal(expected, 20);
  });

  it('a stated length above maxBuffer is not announced to the digest', async () => {
    let expected: number | undefined;
    await collect(bodyOf([piece(10)]), { cap: cap(1000), maxBuffer: 100, length: 101, digest: { expect: (n) => (expected = n), push: () => undefined } });
    assert.equal(expected, undefined);
  });

  it('a digested body past KEEP_RAW_BYTES keeps only its head; with a known length nothing is written to disk', async () => {
    const mb = 1024 * 1024;
    const pieces = Array.from({ length: 6 }, (_, i) => piece(mb, String.fromCharCode(97 + i)));
    let pushed = 0;
    const r = await collect(bodyOf(pieces), {
      cap: cap(100 * mb),
      maxBuffer: 64 * mb,
      length: 6 * mb,
      spillDir: dir,
      digest: { push: (p) => (pushed += p.length) },
    });
    assert.ok(6 * mb > KEEP_RAW_BYTES);
    assert.equal(r.digested, true);
    assert.equal(r.body, undefined);
    assert.equal(r.head?.length, HEAD_BYTES);
    assert.equal(r.head?.[0], 97);
    assert.equal(r.bytes, 6 * mb);
    assert.equal(pushed, 6 * mb);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('a digested body of unknown length is copied to disk as it arrives, and the copy removed when it fits', async () => {
    const mb = 1024 * 1024;
    const r = await collect(bodyOf([piece(3 * mb), piece(3 * mb), piece(mb)]), {
      cap: cap(100 * mb),
      maxBuffer: 64 * mb,
      spillDir: dir,
      digest: { push: () => undefined },
    });
    assert.equal(r.digested, true);
    assert.equal(r.head?.length, HEAD_BYTES);
    assert.equal(r.bytes, 7 * mb);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('the download cap also stops a digested body past KEEP_RAW_BYTES', async () => {
    const mb = 1024 * 1024;
    await assert.rejects(
      collect(bodyOf([piece(3 * mb), piece(3 * mb), piece(3 * mb)]), {
        cap: cap(8 * mb),
        maxBuffer: 64 * mb,
        length: 9 * mb,
        digest: { push: () => undefined },
      }),
      isCapError,
    );
  });

  it('a digested body of unknown length past maxBuffer goes to a file, whole', async () => {
    const mb = 1024 * 1024;
    const pieces = [piece(3 * mb, 'a'), piece(3 * mb, 'b'), piece(3 * mb, 'c')];
    const r = await collect(bodyOf(pieces), { cap: cap(100 * mb), maxBuffer: 8 * mb, spillDir: dir, digest: { push: () => undefined } });
    assert.ok(r.file);
    assert.equal(readFileSync(r.file).length, 9 * mb);
    assert.deepEqual(readFileSync(r.file), Buffer.concat(pieces));
  });
});

describe('transport body: headOf, drain, capOf', () => {
  it('headOf copies the first HEAD_BYTES only', () => {
    const h = headOf([piece(HEAD_BYTES - 10, 'a'), piece(100, 'b'), piece(100, 'c')]);
    assert.equal(h.length, HEAD_BYTES);
    assert.equal(h[HEAD_BYTES - 1], 98);
    assert.equal(headOf([piece(5)]).length, 5);
  });

  it('drain hands every piece to the sink and stops at the cap', async () => {
    const got: number[] = [];
    const r = await drain(Readable.from([piece(3), piece(4)]), (p) => void got.push(p.length), cap(10));
    assert.deepEqual(got, [3, 4]);
    assert.equal(r.bytes, 7);
    await assert.rejects(
      drain(Readable.from([piece(6), piece(6)]), () => undefined, cap(10)),
      isCapError,
    );
  });

  it('capOf: the default is 1 GiB, and the check throws only above the cap', () => {
    assert.equal(capOf(undefined, () => 'x').max, DEFAULT_MAX_DOWNLOAD_BYTES);
    assert.equal(DEFAULT_MAX_DOWNLOAD_BYTES, 1024 * 1024 * 1024);
    const c = cap(10);
    c(10);
    assert.throws(() => c(11), isCapError);
  });
});
