// The client activation hands out (src/core/transport/lazyHttp.ts): built on the first request with
// the options it was given, one client for every request, and closing before any request is a no-op.

import * as assert from 'node:assert/strict';
import { lazyHttp } from '../../../../src/core/transport/lazyHttp';
import type { HttpRequest, HttpResponse } from '../../../../src/core/transport/http';
import { startServer, type TestServer } from '../../helpers/httpServer';

describe('lazyHttp: the transport built on the first request', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer((req, res) => res.end(JSON.stringify({ path: req.url })));
  });
  after(() => server.close());

  it('sends with the options it was given: user agent and the response hook, for every request', async () => {
    const seen: [HttpRequest, HttpResponse][] = [];
    const http = lazyHttp({ userAgent: 'lazy-test/1', onResponse: (req, res) => seen.push([req, res]) });
    try {
      // Two first requests at once: both wait for the same load.
      const [a, b] = await Promise.all([
        http.send({ method: 'GET', url: `${server.url}/a`, timeoutMs: 2000 }),
        http.send({ method: 'GET', url: `${server.url}/b`, timeoutMs: 2000 }),
      ]);
      assert.deepEqual(JSON.parse(a.body!.toString()), { path: '/a' });
      assert.deepEqual(JSON.parse(b.body!.toString()), { path: '/b' });
      const third = await http.send({ method: 'POST', url: `${server.url}/c`, body: '{}', timeoutMs: 2000 });
      assert.equal(third.status, 200);
      // The two concurrent ones may finish in either order.
      assert.deepEqual(seen.map(([req, res]) => `${req.url.slice(server.url.length)} ${res.status}`).sort(), ['/a 200', '/b 200', '/c 200']);
      const agents = server.requests.slice(-3).map((r) => r.headers['user-agent']);
      assert.deepEqual(agents, ['lazy-test/1', 'lazy-test/1', 'lazy-test/1']);
    } finally {
      await http.close();
    }
  });

  it('a cancelled first request fails as cancelled, and the client still serves the next one', async () => {
    const http = lazyHttp({});
    try {
      const stop = new AbortController();
      stop.abort();
      await assert.rejects(http.send({ method: 'GET', url: `${server.url}/x`, timeoutMs: 2000, signal: stop.signal }), /cancel/i);
      const ok = await http.send({ method: 'GET', url: `${server.url}/y`, timeoutMs: 2000 });
      assert.equal(ok.status, 200);
    } finally {
      await http.close();
    }
  });

  it('closing before any request resolves at once and sends nothing', async () => {
    const before = server.requests.length;
    await lazyHttp({}).close();
    assert.equal(server.requests.length, before);
  });
});
