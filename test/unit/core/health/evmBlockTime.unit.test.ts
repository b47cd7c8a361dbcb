// EVM staleness at the first probe: the EVM health probe reads the latest block (number and
// `timestamp` in one eth_getBlockByNumber("latest", false)), so a node whose own latest block is two
// hours old is stale from its first probe, on EVM JSON-RPC and on the EVM WebSocket, as CometBFT
// (sync_info.latest_block_time) and REST (the header's time) already were.

import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Provider } from '../../../../src/core/config/providers';
import { HealthMonitor } from '../../../../src/core/health/health';
import { HealthSession } from '../../../../src/core/health/session';
import { HttpClient } from '../../../../src/core/transport/http';
import { startDevnet } from '../../../devnet/devnet';

interface FakeEvm {
  url: string;
  ws: string;
  /** Every JSON-RPC call received: method and params. */
  calls: { method: string; params: unknown }[];
  close(): Promise<void>;
}

/** A fake EVM node at height `height` whose latest block was made `ageMs` ago (HTTP and WebSocket). */
async function fakeEvm(height: number, ageMs: number, refuseBlocks = false): Promise<FakeEvm> {
  const calls: FakeEvm['calls'] = [];
  const answer = (raw: string): string => {
    const m = JSON.parse(raw) as { id: number; method: string; params: unknown };
    calls.push({ method: m.method, params: m.params });
    const block = {
      number: `0x${height.toString(16)}`,
      hash: `0x${'ab'.repeat(32)}`,
      timestamp: `0x${Math.floor((Date.now() - ageMs) / 1000).toString(16)}`,
      transactions: [],
    };
    if (refuseBlocks && m.method === 'eth_getBlockByNumber')
      return JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'the method eth_getBlockByNumber does not exist/is not available' } });
    const result = m.method === 'eth_getBlockByNumber' ? block : m.method === 'eth_chainId' ? '0x40000' : m.method === 'eth_blockNumber' ? block.number : null;
    return JSON.stringify({ jsonrpc: '2.0', id: m.id, result });
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer(Buffer.concat(chunks).toString()));
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => ws.on('message', (m) => ws.send(answer(m.toString()))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    ws: `ws://127.0.0.1:${port}/`,
    calls,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The rows of one first probe of `providers`, judged as the extension judges them. */
async function probeOnce(client: HttpClient, providers: Provider[]) {
  const monitor = new HealthMonitor({ http: client, timeoutMs: 5000 });
  await monitor.refresh(providers);
  const rows = monitor.assess(providers);
  new HealthSession().apply(rows, Date.now());
  return rows;
}

describe('health: EVM staleness from the block time the node reports, at the first probe', function () {
  this.timeout(20_000);
  let old: FakeEvm;
  let fresh: FakeEvm;
  let client: HttpClient;

  before(async () => {
    old = await fakeEvm(100, 2 * 3_600_000);
    fresh = await fakeEvm(129, 2000);
    client = new HttpClient();
  });
  after(async () => {
    await old.close();
    await fresh.close();
    await client.close();
  });

  it('a node whose latest block is 2 h old is stale on EVM JSON-RPC and WebSocket at once; a fresh one is healthy', async () => {
    const providers: Provider[] = [
      { name: 'frozen', endpoints: { evmRpc: old.url, evmWs: old.ws } },
      { name: 'live', endpoints: { evmRpc: fresh.url, evmWs: fresh.ws } },
    ];
    const rows = await probeOnce(client, providers);
    const of = (p: string, i: string) => rows.find((r) => r.provider === p && r.iface === i)!;
    for (const iface of ['evmRpc', 'evmWs']) {
      const frozen = of('frozen', iface);
      assert.equal(frozen.state, 'stale', `${iface}: ${frozen.state} ${frozen.reason}`);
      assert.match(frozen.reason ?? '', /no new block for 120 min|2 h/);
      assert.equal(frozen.last?.height, 100n);
      const live = of('live', iface);
      assert.equal(live.state, 'healthy', `${iface}: ${live.state} ${live.reason}`);
      assert.equal(live.last?.height, 129n);
      const blockTime = live.last?.blockTime ?? 0;
      assert.ok(Math.abs(Date.now() - 2000 - blockTime) < 5000, `the block time read from the timestamp (${blockTime})`);
    }
  });

  it('the probe stays two calls: eth_getBlockByNumber("latest", false) (hashes, not transactions) and eth_chainId', async () => {
    // Its own probe: the test holds when run alone (--grep) as well as after the one above.
    fresh.calls.length = 0;
    await probeOnce(client, [{ name: 'live', endpoints: { evmRpc: fresh.url } }]);
    assert.ok(fresh.calls.length > 0, 'probed');
    const methods = new Set(fresh.calls.map((c) => c.method));
    assert.deepEqual([...methods].sort(), ['eth_chainId', 'eth_getBlockByNumber']);
    for (const c of fresh.calls.filter((x) => x.method === 'eth_getBlockByNumber')) assert.deepEqual(c.params, ['latest', false]);
  });

  it("the devnet's EVM blocks carry the real time: its EVM JSON-RPC and WebSocket are healthy with a current block time", async () => {
    const devnet = await startDevnet({ blockIntervalMs: 200, providers: [{ name: 'devnet' }] });
    try {
      while (devnet.height() < 3n) await new Promise((r) => setTimeout(r, 50));
      const { evmRpc, evmWs } = devnet.providers[0];
      const p: Provider = { name: 'devnet', endpoints: { evmRpc, evmWs } };
      const rows = await probeOnce(client, [p]);
      assert.equal(rows.length, 2);
      for (const r of rows) {
        assert.equal(r.state, 'healthy', `${r.iface}: ${r.state} ${r.reason}`);
        assert.ok(Math.abs(Date.now() - (r.last?.blockTime ?? 0)) < 5000, `${r.iface}: block time ${r.last?.blockTime}`);
      }
    } finally {
      await devnet.stop();
    }
  });

  it('a block without a usable timestamp still gives the height (no block time: judged as before)', async () => {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const m = JSON.parse(Buffer.concat(chunks).toString()) as { id: number; method: string };
        const result = m.method === 'eth_chainId' ? '0x1' : { number: '0x7', timestamp: 'yesterday' };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const p: Provider = { name: 'odd', endpoints: { evmRpc: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` } };
      const monitor = new HealthMonitor({ http: client, timeoutMs: 5000 });
      await monitor.refresh([p]);
      const [row] = monitor.assess([p]);
      assert.equal(row.last?.height, 7n);
      assert.equal(row.last?.blockTime, undefined);
      assert.equal(row.state, 'healthy');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('a gateway that refuses eth_getBlockByNumber (method not found) is judged by eth_blockNumber, not reported down', async () => {
    const gateway = await fakeEvm(55, 0, true);
    try {
      const p: Provider = { name: 'gateway', endpoints: { evmRpc: gateway.url, evmWs: gateway.ws } };
      const rows = await probeOnce(client, [p]);
      assert.equal(rows.length, 2);
      for (const r of rows) {
        assert.equal(r.state, 'healthy', `${r.iface}: ${r.state} ${r.reason}`);
        assert.equal(r.last?.height, 55n);
        assert.equal(r.last?.blockTime, undefined, 'no block time without the block');
      }
      assert.ok(
        gateway.calls.some((c) => c.method === 'eth_blockNumber'),
        'eth_blockNumber asked after the refusal',
      );
    } finally {
      await gateway.close();
    }
  });
});
