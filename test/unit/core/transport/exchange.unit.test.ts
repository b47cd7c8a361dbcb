// The Exchange (src/core/transport/exchange.ts) as undici drives it: its handler methods called in the
// orders undici may call them, and the reader's two ways in (pieces, then a stream). Then through
// HttpClient against real sockets: a request still waiting for a connection meets its deadline,
// repeated headers are joined, an informational 1xx before the answer is skipped.

import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { Exchange } from '../../../../src/core/transport/exchange';
import { HttpClient } from '../../../../src/core/transport/http';
import { listen, startServer } from '../../helpers/httpServer';

/** An Exchange with undici's side simulated: `resumed` counts resume() calls, `aborted` what abort got. */
function simulated() {
  const exchange = new Exchange();
  const state = { resumed: 0, aborted: [] as Error[] };
  exchange.onConnect((err) => void state.aborted.push(err ?? new Error('no reason')));
  const headers = [Buffer.from('Content-Type'), Buffer.from('application/json'), Buffer.from('X-A'), Buffer.from('1'), Buffer.from('x-a'), Buffer.from('2')];
  assert.equal(
    exchange.onHeaders(200, headers, () => state.resumed++),
    true,
  );
  return { exchange, state };
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const piece of stream) parts.push(piece);
  return Buffer.concat(parts).toString();
}

describe('Exchange', () => {
  it('gives the status and the headers (names in lower case, repeats joined)', async () => {
    const { exchange } = simulated();
    assert.deepEqual(await exchange.head, { status: 200, headers: { 'content-type': 'application/json', 'x-a': '1, 2' } });
  });

  it('a body that came whole before the reader is read without waiting', async () => {
    const { exchange } = simulated();
    assert.equal(exchange.onData(Buffer.from('{"a":')), true);
    assert.equal(exchange.onData(Buffer.from('1}')), true);
    exchange.onComplete();
    const seen: string[] = [];
    assert.equal(await exchange.readWhile((p) => (seen.push(p.toString()), true)), true);
    assert.deepEqual(seen, ['{"a":', '1}']);
  });

  it('holds at most 64 KB before a reader comes, then asks undici to wait, and resumes it for the reader', async () => {
    const { exchange, state } = simulated();
    assert.equal(exchange.onData(Buffer.alloc(40 * 1024, 0x61)), true);
    assert.equal(exchange.onData(Buffer.alloc(40 * 1024, 0x62)), false, 'past 64 KB undici must wait');
    let bytes = 0;
    const done = exchange.readWhile((p) => ((bytes += p.length), true));
    assert.equal(state.resumed, 1, 'the reader resumes undici');
    assert.equal(exchange.onData(Buffer.alloc(10, 0x63)), true);
    exchange.onComplete();
    assert.equal(await done, true);
    assert.equal(bytes, 80 * 1024 + 10);
  });

  it('a reader that stops gets the rest, in order, as a stream with flow control', async () => {
    const { exchange, state } = simulated();
    exchange.onData(Buffer.from('a'));
    exchange.onData(Buffer.from('b'));
    exchange.onData(Buffer.from('c'));
    // Stops after the second queued piece: "c" is left for the stream.
    let n = 0;
    assert.equal(await exchange.readWhile(() => ++n < 2), false);
    const rest = exchange.rest();
    // More arrives for the stream; a full stream tells undici to wait, reading resumes it.
    const big = Buffer.alloc(64 * 1024, 0x64);
    assert.equal(exchange.onData(big), false);
    const before = state.resumed;
    const text = readAll(rest);
    await new Promise((r) => setImmediate(r));
    assert.ok(state.resumed > before, 'reading the stream resumes undici');
    exchange.onData(Buffer.from('e'));
    exchange.onComplete();
    assert.equal(await text, 'c' + big.toString() + 'e');
  });

  it('a reader that stops while pieces still come: the piece it refused was its last, the next go to the stream', async () => {
    const { exchange } = simulated();
    const taken: string[] = [];
    const done = exchange.readWhile((p) => (taken.push(p.toString()), p.toString() !== 'stop'));
    assert.equal(exchange.onData(Buffer.from('x')), true);
    assert.equal(exchange.onData(Buffer.from('stop')), false, 'undici waits once the reader stopped');
    assert.equal(await done, false);
    assert.equal(exchange.onData(Buffer.from('y')), true, 'a piece undici still had is kept for the stream');
    exchange.onComplete();
    assert.deepEqual(taken, ['x', 'stop']);
    assert.equal(await readAll(exchange.rest()), 'y');
  });

  it('a failure before the answer rejects the head; after it, the reader gets it', async () => {
    const early = new Exchange();
    early.onError(new Error('connect ECONNREFUSED'));
    await assert.rejects(early.head, /ECONNREFUSED/);

    const { exchange } = simulated();
    exchange.onData(Buffer.from('{"a"'));
    const reading = exchange.readWhile(() => true);
    exchange.onError(new Error('socket hang up'));
    await assert.rejects(reading, /hang up/);

    const { exchange: later } = simulated();
    later.onData(Buffer.from('x'));
    later.onError(new Error('reset'));
    await assert.rejects(
      later.readWhile(() => true),
      /reset/,
      'a failure that came before the reader is not lost',
    );
    await assert.rejects(readAll(later.rest()), /reset/);
  });

  it('abort: before undici connects, the head rejects and undici is told when it connects; after the end, a stream still being read stops', async () => {
    const queued = new Exchange();
    queued.abort(new Error('deadline'));
    await assert.rejects(queued.head, /deadline/);
    const told: Error[] = [];
    queued.onConnect((err) => void told.push(err!));
    assert.equal(told[0]?.message, 'deadline');

    const { exchange, state } = simulated();
    exchange.onData(Buffer.alloc(100 * 1024));
    exchange.onComplete();
    const rest = exchange.rest();
    exchange.abort(new Error('cancelled'));
    assert.equal(state.aborted[0]?.message, 'cancelled', 'undici is asked to stop (a no-op once it is done)');
    await assert.rejects(readAll(rest), /cancelled/);
  });

  describe('through HttpClient', () => {
    it('a request waiting for a connection (the pool is busy) still meets its deadline', async () => {
      // One connection per origin, held by a request the server never answers.
      const silent = await startServer(() => undefined);
      const http = new HttpClient({ connectionsPerOrigin: 1 });
      try {
        const first = http.send({ method: 'GET', url: silent.url, timeoutMs: 3000 }).catch((e: Error) => e);
        await new Promise((r) => setTimeout(r, 100));
        const started = Date.now();
        const second = await http.send({ method: 'GET', url: silent.url, timeoutMs: 300 }).catch((e: Error) => e);
        const took = Date.now() - started;
        assert.match(String(second), /No complete answer .* within 0\.3 s/);
        assert.ok(took < 2500, `the queued request gave up after ${took} ms, not at its deadline`);
        assert.match(String(await first), /within 3 s/);
      } finally {
        await http.close().catch(() => undefined);
        await silent.close();
      }
    });

    it('skips an informational 103 before the answer, and joins repeated headers', async () => {
      const server = net.createServer((socket) => {
        socket.once('data', () => {
          socket.write('HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n');
          const body = '{"ok":true}';
          socket.end(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Note: a\r\nX-Note: b\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
          );
        });
      });
      const port = await listen(server);
      const http = new HttpClient();
      try {
        const res = await http.send({ method: 'GET', url: `http://127.0.0.1:${port}/`, timeoutMs: 2000 });
        assert.equal(res.status, 200);
        assert.equal(res.headers['x-note'], 'a, b');
        assert.equal(res.body?.toString(), '{"ok":true}');
      } finally {
        await http.close();
        server.close();
      }
    });

    it('refuses an address that is not http(s) with a clear sentence', async () => {
      const http = new HttpClient();
      await assert.rejects(
        http.send({ method: 'GET', url: 'ftp://127.0.0.1/x', timeoutMs: 500 }),
        /Could not reach ftp:\/\/127\.0\.0\.1\/x: the address must start with http:\/\/ or https:\/\//,
      );
      await http.close();
    });
  });
});
