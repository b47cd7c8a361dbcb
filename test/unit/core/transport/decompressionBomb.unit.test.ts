// A compressed answer cannot inflate without bound (issue 25 §3): past 100:1 once 10 MB is decoded,
// every request stops, whatever the download cap, and nothing stays on disk. gzip, deflate and br.

import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import zlib = require('node:zlib');
import { HttpClient } from '../../../../src/core/transport/http';
import { MAX_DECOMPRESSION_RATIO, RATIO_FREE_BYTES } from '../../../../src/core/transport/body';
import { type TestServer, startServer } from '../../helpers/httpServer';

/** `mb` MB of zeros, compressed (a bomb: about 1000:1). */
function bomb(encoding: 'gzip' | 'deflate' | 'br', mb: number): Buffer {
  const zeros = Buffer.alloc(mb * 1024 * 1024);
  if (encoding === 'gzip') return zlib.gzipSync(zeros, { level: 9 });
  if (encoding === 'deflate') return zlib.deflateSync(zeros, { level: 9 });
  return zlib.brotliCompressSync(zeros, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
}

describe('transport: decompression bombs stop at 100:1 past 10 MB (every request)', function () {
  this.timeout(60_000);
  let server: TestServer;
  const bodies = new Map<string, Buffer>();
  let dir: string;

  before(async () => {
    // 1 GiB of zeros is about 1 MB of gzip: the bomb. Built once.
    bodies.set('gzip', bomb('gzip', 1024));
    bodies.set('deflate', bomb('deflate', 256));
    bodies.set('br', bomb('br', 256));
    bodies.set('small', zlib.gzipSync(Buffer.from(JSON.stringify({ result: 'x'.repeat(5 * 1024 * 1024) }))));
    server = await startServer((req, res) => {
      const kind = req.url.slice(1);
      const encoding = kind === 'small' ? 'gzip' : kind;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(bodies.get(kind));
    });
    dir = mkdtempSync(path.join(tmpdir(), 'ce-bomb-'));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const kind of ['gzip', 'deflate', 'br']) {
    it(`${kind}: stopped with a sentence, at most ~10 MB decoded, nothing kept on disk`, async () => {
      const http = new HttpClient();
      const started = performance.now();
      try {
        // The download cap left at its 1 GiB default, a small memory buffer: past it the body spills to disk.
        await assert.rejects(
          http.send({ method: 'GET', url: `${server.url}/${kind}`, timeoutMs: 30_000, maxBufferBytes: 1024 * 1024, spillDir: dir }),
          (err: Error) => {
            assert.match(err.message, new RegExp(`decompresses to more than ${MAX_DECOMPRESSION_RATIO} times its size`));
            return true;
          },
        );
      } finally {
        await http.close();
      }
      const ms = performance.now() - started;
      assert.ok(ms < 5000, `took ${Math.round(ms)} ms`);
      assert.deepEqual(readdirSync(dir), []);
    });
  }

  it('a digest (the document formatter) sees at most ~10 MB of a bomb', async () => {
    const http = new HttpClient();
    let seen = 0;
    try {
      await assert.rejects(
        http.send({
          method: 'GET',
          url: `${server.url}/gzip`,
          timeoutMs: 30_000,
          maxBufferBytes: 64 * 1024 * 1024,
          spillDir: dir,
          digest: { push: (p: Buffer) => (seen += p.length) },
        }),
        /decompresses to more than/,
      );
    } finally {
      await http.close();
    }
    assert.ok(seen <= RATIO_FREE_BYTES + 1024 * 1024, `${seen} bytes decoded`);
  });

  it('an answer that compresses well but is small still reads', async () => {
    const http = new HttpClient();
    try {
      const r = await http.send({ method: 'GET', url: `${server.url}/small`, timeoutMs: 30_000, maxBufferBytes: 64 * 1024 * 1024, spillDir: dir });
      assert.equal(r.status, 200);
      assert.ok(r.bytes > 5 * 1024 * 1024);
    } finally {
      await http.close();
    }
  });
});
