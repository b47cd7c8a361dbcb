// The one reconnecting subscription (src/core/transport/subscription.ts) on its own, against the
// fake CometBFT socket: subscribe once per socket, live on the answer, backoff and resubscribe
// after a close, the watchdog on a silent server, a refusal as a 'subscription' failure, a
// reconnect() that resets the backoff, and dispose() that leaves no timer and calls no handler.

import * as assert from 'node:assert/strict';
import type WebSocket from 'ws';
import { type FailureKind, Subscription, type SubscriptionHandler, type SubscriptionOptions } from '../../../../src/core/transport/subscription';
import { cometSubscribe } from '../../../../src/core/transport/jsonRpc';
import { rawToString } from '../../../../src/core/transport/wsSupport';
import { FakeCometWs, waitFor } from '../../helpers/fakeCometWs';

interface Recorded {
  sub: Subscription;
  calls: string[];
  failures: { reason: string; kind: FailureKind; wasLive: boolean }[];
  events: number;
}

/** A subscription to new blocks whose handler records every call (and reads the fake's messages). */
function subscribe(url: string, overrides: Partial<SubscriptionOptions> = {}): Recorded {
  const r: Recorded = { calls: [], failures: [], events: 0 } as unknown as Recorded;
  const handler: SubscriptionHandler = {
    subscribeMessage: (id) => cometSubscribe("tm.event='NewBlockHeader'", id),
    message: (data: WebSocket.RawData, id: number) => {
      const msg = JSON.parse(rawToString(data)) as { id?: unknown; error?: { data?: string }; result?: { data?: unknown } };
      if (msg.id !== id) return;
      if (msg.error) return r.sub.fail(msg.error.data ?? 'refused', 'subscription');
      r.sub.markSubscribed();
      if (msg.result?.data !== undefined) r.events++;
    },
    connecting: (reconnecting) => void r.calls.push(reconnecting ? 'reconnecting' : 'connecting'),
    live: () => void r.calls.push('live'),
    failed: (reason, kind, wasLive) => {
      r.calls.push(`failed:${kind}`);
      r.failures.push({ reason, kind, wasLive });
    },
    openFailed: (reason) => void r.calls.push(`openFailed:${reason}`),
  };
  r.sub = new Subscription(
    { url, maxPayload: 1024 * 1024, connectTimeoutMs: 1000, pingIntervalMs: 50, maxBackoffMs: 100, watchdogMs: () => 300, log: () => undefined, ...overrides },
    handler,
  );
  return r;
}

function timeouts(): number {
  return process.getActiveResourcesInfo().filter((x) => x === 'Timeout').length;
}

describe('transport/subscription: one reconnecting subscription', function () {
  this.timeout(15_000);
  let fake: FakeCometWs;
  let r: Recorded | undefined;

  beforeEach(async () => {
    fake = await FakeCometWs.start();
  });
  afterEach(async () => {
    r?.sub.dispose();
    r = undefined;
    await fake.stop();
  });

  it('subscribes once per socket and is live on the answer; events reach the handler', async () => {
    r = subscribe(fake.url);
    const states: string[] = [];
    r.sub.onState((s) => states.push(s));
    r.sub.start();
    await waitFor(() => r!.sub.state === 'live');
    assert.deepEqual(r.calls, ['connecting', 'live']);
    assert.deepEqual(states, ['connecting', 'live']);
    assert.equal(r.sub.subscribed, true);
    fake.pushBlock(10);
    fake.pushBlock(11);
    await waitFor(() => r!.events === 2);
    assert.equal(fake.totalSubscribeRequests(), 1);
    assert.equal(fake.duplicateSubscriptions(), 0);
  });

  it('after a close: failed (was live), waits with a reconnectAt, then resubscribes on a new socket and the backoff resets', async () => {
    r = subscribe(fake.url);
    r.sub.start();
    await waitFor(() => r!.sub.state === 'live');
    fake.closeAll(1001, 'going away');
    await waitFor(() => r!.failures.length === 1);
    assert.equal(r.failures[0].kind, 'connection');
    assert.equal(r.failures[0].wasLive, true);
    assert.match(r.failures[0].reason, /closed by the server \(1001: going away\)/);
    assert.equal(r.sub.failures, 1);
    await waitFor(() => r!.sub.state === 'live' && fake.subscribed().length === 1);
    assert.deepEqual(r.calls, ['connecting', 'live', 'failed:connection', 'reconnecting', 'live']);
    assert.equal(r.sub.failures, 0, 'a new subscription resets the backoff');
    assert.equal(r.sub.reconnectAt, undefined);
    assert.equal(fake.connections.length, 2);
    assert.equal(fake.duplicateSubscriptions(), 0);
  });

  it('a silent server (no message, no pong) is dropped by the watchdog', async () => {
    r = subscribe(fake.url);
    r.sub.start();
    await waitFor(() => r!.sub.state === 'live');
    fake.silent = true;
    await waitFor(() => r!.failures.length >= 1, 5000);
    assert.match(r.failures[0].reason, /no message or pong from the server for 300 ms/);
  });

  it('a refused subscribe is a subscription failure, retried with growing backoff', async () => {
    fake.refuseSubscriptions = 'max_subscription_clients 100 reached';
    r = subscribe(fake.url);
    r.sub.start();
    await waitFor(() => r!.failures.length >= 2);
    assert.equal(r.failures[0].kind, 'subscription');
    assert.equal(r.failures[0].wasLive, false);
    assert.equal(r.failures[0].reason, 'max_subscription_clients 100 reached');
    assert.ok(r.sub.failures >= 2);
    assert.ok(!r.calls.includes('live'));
    fake.refuseSubscriptions = undefined;
    await waitFor(() => r!.sub.state === 'live', 5000);
  });

  it('an unanswered connect fails after connectTimeoutMs with the sentence for where it stopped', async () => {
    // A TCP listener that accepts and never answers the upgrade.
    const net = await import('node:net');
    const server = net.createServer(() => undefined);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    try {
      r = subscribe(`ws://127.0.0.1:${port}/websocket`, { connectTimeoutMs: 200 });
      r.sub.start();
      await waitFor(() => r!.failures.length >= 1);
      assert.match(r.failures[0].reason, /handshake timed out|connection timed out after 200 ms/);
    } finally {
      r?.sub.dispose();
      server.close();
    }
  });

  it('reconnect() drops the socket, resets the backoff and subscribes again at once', async () => {
    r = subscribe(fake.url, { maxBackoffMs: 60_000 });
    r.sub.start();
    await waitFor(() => r!.sub.state === 'live');
    r.sub.reconnect();
    await waitFor(() => r!.sub.state === 'live' && fake.connections.length === 2);
    assert.deepEqual(r.calls, ['connecting', 'live', 'connecting', 'live']);
    assert.equal(r.failures.length, 0, 'a requested reconnect is not a failure');
  });

  it('an address that cannot be opened is reported once, nothing scheduled', () => {
    r = subscribe('not a url');
    r.sub.start();
    assert.equal(r.calls.length, 1);
    assert.match(r.calls[0], /^openFailed:/);
    assert.equal(r.sub.state, 'stopped');
    assert.equal(r.sub.reconnectAt, undefined);
  });

  it('dispose() closes the socket, clears every timer and calls no handler afterwards', async () => {
    await new Promise((ok) => setImmediate(ok)); // mocha's own timer for this test is armed by now
    const before = timeouts();
    r = subscribe(fake.url);
    r.sub.start();
    await waitFor(() => r!.sub.state === 'live');
    const calls = r.calls.length;
    r.sub.dispose();
    assert.equal(r.sub.state, 'stopped');
    await waitFor(() => fake.open().length === 0);
    await new Promise((ok) => setImmediate(ok)); // ws's own close timer ends with the socket
    const after = timeouts();
    assert.ok(after <= before, `timers left: ${after} > ${before}`);
    await new Promise((ok) => setTimeout(ok, 200));
    assert.equal(r.calls.length, calls, 'no handler call after dispose');
  });
});
