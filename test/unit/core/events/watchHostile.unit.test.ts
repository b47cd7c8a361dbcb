// The hostile-WebSocket battery's ideas applied to a watch: whatever the server does, the watch
// reports a clear state (and a line in the stream where it helps) and never throws.
import * as assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import * as http from 'node:http';
import { WebSocketServer } from 'ws';
import type WebSocket from 'ws';
import { Watch } from '../../../../src/core/events/watch';
import type { WatchEntry } from '../../../../src/core/events/entry';
import { waitFor } from '../../helpers/fakeCometWs';

type Behaviour = (ws: WebSocket, subscribe: { id: number }) => void;

async function hostile(behaviour: Behaviour, autoPong = true): Promise<{ url: string; stop(): Promise<void>; connections: () => number }> {
  const server = http.createServer();
  const wss = new WebSocketServer({ server, autoPong });
  let connections = 0;
  wss.on('connection', (ws) => {
    connections++;
    ws.on('error', () => undefined);
    ws.on('message', (data) => {
      let msg: { id: number };
      try {
        msg = JSON.parse(data.toString()) as { id: number };
      } catch {
        return;
      }
      behaviour(ws, msg);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/websocket`,
    connections: () => connections,
    stop: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const event = (id: number, height: number, pad = 0): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: {
      query: "tm.event='NewBlockHeader'",
      data: { type: 'tendermint/event/NewBlockHeader', value: { header: { height: String(height), pad: 'x'.repeat(pad) } } },
      events: {},
    },
  });

describe('events: a watch against hostile WebSocket servers', function () {
  this.timeout(15_000);
  const opts = { pingIntervalMs: 200, connectTimeoutMs: 500, maxBackoffMs: 200, batchMs: 20 };
  let stop: (() => Promise<void>) | undefined;
  let watch: Watch | undefined;
  afterEach(async () => {
    watch?.dispose();
    await stop?.();
  });

  async function run(behaviour: Behaviour, extra: Partial<typeof opts> & { maxEventBytes?: number; maxFrameBytes?: number } = {}) {
    const server = await hostile(behaviour);
    stop = server.stop;
    const got: WatchEntry[] = [];
    watch = new Watch({ kind: 'comet', url: server.url, query: "tm.event='NewBlockHeader'" }, { ...opts, ...extra });
    watch.onBatch((b) => got.push(...b));
    assert.doesNotThrow(() => watch!.start());
    return { got, w: watch, server };
  }

  it('garbage frames: ignored and counted, one note line, the valid events still arrive', async () => {
    const { got, w } = await run((ws, m) => {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
      ws.send('not json at all');
      ws.send(Buffer.from([0xff, 0x00, 0x13]), { binary: true });
      ws.send('[1,2,3]');
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 999, result: { data: {} } }));
      ws.send(event(m.id, 7));
    });
    await waitFor(() => got.some((e) => e.height === '7'), 5000, 'the valid event');
    const s = w.snapshot();
    assert.equal(s.state, 'live');
    assert.equal(s.ignored, 4);
    assert.equal(got.filter((e) => e.kind === 'note').length, 1, 'one note line per connection');
  });

  it('an event over the per-event cap is kept as a truncated preview with a note', async () => {
    const { got, w } = await run(
      (ws, m) => {
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
        ws.send(event(m.id, 8, 200_000));
      },
      { maxEventBytes: 10_000 },
    );
    await waitFor(() => got.some((e) => e.kind === 'event'), 5000, 'the event');
    const e = got.find((x) => x.kind === 'event')!;
    assert.equal(e.truncated, true);
    assert.match(e.summary, /detail truncated/);
    assert.ok(JSON.stringify(e.data).length < 10_000);
    assert.equal(w.snapshot().oversize, 1);
  });

  it('a frame over the per-frame cap drops the socket with a note and reconnects', async () => {
    const { got, w, server } = await run(
      (ws, m) => {
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
        ws.send(event(m.id, 9, 3_000_000));
      },
      { maxFrameBytes: 1024 * 1024 },
    );
    await waitFor(() => server.connections() >= 2, 5000, 'a second connection');
    await waitFor(() => got.some((e) => e.kind === 'note' && /larger than 1/.test(e.summary)), 5000, 'the note');
    assert.ok(w.snapshot().oversize >= 1);
    assert.ok(['live', 'reconnecting', 'connecting'].includes(w.snapshot().state));
  });

  it('an error answer to subscribe: reconnecting with the node sentence, one note line, no throw', async () => {
    const { got, w, server } = await run((ws, m) => {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: 'Internal error', data: 'max_subscription_clients 100 reached' } }));
    });
    await waitFor(() => server.connections() >= 3, 5000, 'retries');
    const s = w.snapshot();
    assert.equal(s.state === 'reconnecting' || s.state === 'connecting', true);
    await waitFor(() => got.length > 0, 2000, 'the note');
    const notes = got.filter((e) => e.kind === 'note');
    assert.equal(notes.length, 1, 'the same refusal is noted once');
    assert.match(notes[0].summary, /subscribe refused: max_subscription_clients 100 reached/);
    assert.match(w.snapshot().detail ?? '', /max_subscription_clients/);
  });

  it('a server that never answers: reconnecting with "no answer to subscribe", never live', async () => {
    const { w } = await run(() => undefined);
    await waitFor(() => w.snapshot().state === 'reconnecting', 5000, 'reconnecting');
    assert.match(w.snapshot().detail ?? '', /no answer to subscribe within 500 ms/);
    assert.equal(w.snapshot().received, 0);
  });

  it('a half-open socket (subscribed, then no message and no pong): the watchdog reconnects', async () => {
    const server = await hostile((ws, m) => ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} })), false);
    stop = server.stop;
    watch = new Watch({ kind: 'comet', url: server.url, query: "tm.event='NewBlockHeader'" }, opts);
    const details: string[] = [];
    watch.onState((s) => s.detail && details.push(s.detail));
    watch.start();
    await waitFor(() => watch!.snapshot().state === 'live', 5000, 'live');
    await waitFor(() => server.connections() >= 2, 5000, 'a new connection after the watchdog');
    assert.ok(
      details.some((d) => /no message or pong from the server for 500 ms/.test(d)),
      details.join('; '),
    );
  });

  it('EVM: an error answer to eth_subscribe is noted once; notifications for another subscription are ignored', async () => {
    const server = await hostile((ws, m) => {
      if (m.id === 1) {
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32602, message: 'no "newHeads" subscription in eth namespace' } }));
        return;
      }
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: '0xabc' }));
      ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: '0xother', result: { number: '0x1' } } }));
      ws.send(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'eth_subscription',
          params: { subscription: '0xabc', result: { number: '0x2', hash: '0x' + '1'.repeat(64) } },
        }),
      );
    });
    stop = server.stop;
    const got: WatchEntry[] = [];
    watch = new Watch({ kind: 'evm', url: server.url, subscription: 'newHeads' }, opts);
    watch.onBatch((b) => got.push(...b));
    watch.start();
    await waitFor(() => got.some((e) => e.kind === 'event'), 5000, 'the head after the retry');
    assert.match(got[0].summary, /subscribe refused: subscription failed: no "newHeads" subscription in eth namespace \(-32602\)/);
    const heads = got.filter((e) => e.kind === 'event');
    assert.deepEqual(
      heads.map((e) => e.height),
      ['2'],
    );
    assert.equal(watch.snapshot().ignored, 1);
  });

  it('nothing listening: reconnecting with "connection refused"', async () => {
    const server = await hostile(() => undefined);
    const url = server.url;
    await server.stop();
    watch = new Watch({ kind: 'comet', url, query: "tm.event='NewBlockHeader'" }, opts);
    watch.start();
    await waitFor(() => watch!.snapshot().state === 'reconnecting', 5000, 'reconnecting');
    assert.match(watch.snapshot().detail ?? '', /connection refused/);
  });
});
