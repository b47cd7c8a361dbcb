// The devnet's EVM WebSocket: eth_subscribe (ids, newHeads per block, pending transactions sent
// over the socket), eth_unsubscribe, and the HTTP methods over the socket.
import * as assert from 'node:assert/strict';
import WebSocket from 'ws';
import { type Devnet, startDevnet } from './devnet';
import { devTransfer } from './devSign';

function open(url: string): Promise<{ ws: WebSocket; next: (pred: (m: Record<string, unknown>) => boolean) => Promise<Record<string, unknown>> }> {
  const ws = new WebSocket(url);
  const seen: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (d) => {
    seen.push(JSON.parse(String(d)) as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  });
  const next = async (pred: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const i = seen.findIndex(pred);
      if (i >= 0) return seen.splice(i, 1)[0];
      if (Date.now() > deadline) throw new Error('no matching message');
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, next }));
    ws.once('error', reject);
  });
}

describe('devnet: EVM WebSocket (eth_subscribe)', () => {
  let devnet: Devnet;
  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 0 });
  });
  after(async () => devnet.stop());

  it('newHeads: a 0x subscription id, then one header per block; eth_unsubscribe stops them', async () => {
    const { ws, next } = await open(devnet.providers[0].evmWs);
    try {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
      const answer = await next((m) => m.id === 1);
      assert.match(String(answer.result), /^0x[0-9a-f]{32}$/);
      devnet.produceBlock();
      const note = await next((m) => m.method === 'eth_subscription');
      const params = note.params as { subscription: string; result: Record<string, unknown> };
      assert.equal(params.subscription, answer.result);
      assert.equal(BigInt(params.result.number as string), devnet.height());
      assert.match(String(params.result.hash), /^0x[0-9a-f]{64}$/);
      assert.equal(params.result.transactions, undefined);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_unsubscribe', params: [answer.result] }));
      assert.equal((await next((m) => m.id === 2)).result, true);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'eth_unsubscribe', params: [answer.result] }));
      assert.equal((await next((m) => m.id === 3)).result, false);
    } finally {
      ws.terminate();
    }
  });

  it('an unknown subscription is an error; HTTP methods work over the socket; pending transactions are announced', async () => {
    const { ws, next } = await open(devnet.providers[0].evmWs);
    try {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['syncing2'] }));
      assert.equal(((await next((m) => m.id === 1)).error as { code: number }).code, -32602);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] }));
      assert.equal(BigInt((await next((m) => m.id === 2)).result as string), devnet.height());
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'eth_subscribe', params: ['newPendingTransactions'] }));
      const sub = (await next((m) => m.id === 3)).result;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'eth_sendRawTransaction', params: [devTransfer(devnet.chain).raw] }));
      const hash = (await next((m) => m.id === 4)).result;
      const note = await next((m) => m.method === 'eth_subscription');
      assert.deepEqual(note.params, { subscription: sub, result: hash });
    } finally {
      ws.terminate();
    }
  });
});
