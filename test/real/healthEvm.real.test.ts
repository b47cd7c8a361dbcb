// The EVM health probe (src/core/health/health.ts: eth_getBlockByNumber("latest", false) and
// eth_chainId) against real nodes: evmd v0.3.2 and anvil answer the latest block with its number and
// `timestamp`, so the block time the node reports is read at the first probe, on EVM JSON-RPC and on
// the EVM WebSocket. An anvil whose chain runs two hours behind (`--timestamp`, still mining a block
// a second) is stale at its first probe; a current one is healthy.
import * as assert from 'node:assert/strict';
import type { Provider } from '../../src/core/config/providers';
import { HealthMonitor } from '../../src/core/health/health';
import type { InterfaceHealth } from '../../src/core/health/model';
import { HealthSession } from '../../src/core/health/session';
import { HttpClient } from '../../src/core/transport/http';
import { EvmdNode } from './helpers/evmd';
import { AnvilNode, listening, waitFor } from './helpers/nodes';

describe('EVM health probe on real nodes: the block time at the first probe', function () {
  this.timeout(120_000);
  let http: HttpClient;
  let evmd: EvmdNode;
  let anvil: AnvilNode;
  let behind: AnvilNode;

  before(async function () {
    this.timeout(240_000);
    http = new HttpClient();
    evmd = await EvmdNode.create();
    await evmd.start();
    await waitFor('the EVM WebSocket listening', () => listening(evmd.evmWs), 30_000);
    anvil = await AnvilNode.start();
    behind = await AnvilNode.start(['--timestamp', String(Math.floor(Date.now() / 1000) - 2 * 3600)]);
    await new Promise((r) => setTimeout(r, 2500)); // a block or two on each anvil
  });
  after(async () => {
    await http?.close();
    await evmd?.dispose();
    await anvil?.stop();
    await behind?.stop();
  });

  /** One refresh of a fresh monitor, its rows through a fresh session (the first probe). */
  async function firstProbe(providers: Provider[]): Promise<InterfaceHealth[]> {
    const monitor = new HealthMonitor({ http, timeoutMs: 5000 });
    await monitor.refresh(providers);
    const rows = monitor.assess(providers);
    new HealthSession().apply(rows, Date.now());
    for (const r of rows)
      console.log(
        `      ${r.provider} ${r.iface}: ${r.state} #${r.last?.height} block time ${r.last?.blockTime ? new Date(r.last.blockTime).toISOString() : '-'}`,
      );
    return rows;
  }

  it('evmd: EVM JSON-RPC and WebSocket give the height and a current block time', async () => {
    const rows = await firstProbe([{ name: 'evmd', endpoints: { evmRpc: evmd.evmRpc, evmWs: evmd.evmWs } }]);
    assert.equal(rows.length, 2);
    for (const r of rows) {
      assert.equal(r.state, 'healthy', `${r.iface}: ${r.state} ${r.reason}`);
      assert.ok((r.last?.height ?? 0n) >= 1n);
      assert.ok(Math.abs(Date.now() - (r.last?.blockTime ?? 0)) < 60_000, `${r.iface}: block time ${r.last?.blockTime}`);
    }
  });

  it('anvil two hours behind is stale at its first probe (JSON-RPC and WebSocket); a current anvil is healthy', async () => {
    const ws = (url: string) => url.replace(/^http/, 'ws');
    const rows = await firstProbe([
      { name: 'anvil behind', endpoints: { evmRpc: behind.url, evmWs: ws(behind.url) } },
      { name: 'anvil', endpoints: { evmRpc: anvil.url, evmWs: ws(anvil.url) } },
    ]);
    for (const r of rows.filter((x) => x.provider === 'anvil behind')) {
      assert.equal(r.state, 'stale', `${r.iface}: ${r.state} ${r.reason}`);
      assert.match(r.reason ?? '', /no new block for (1[12]\d min|2 h)/);
    }
    for (const r of rows.filter((x) => x.provider === 'anvil')) {
      assert.equal(r.state, 'healthy', `${r.iface}: ${r.state} ${r.reason}`);
      assert.ok(Math.abs(Date.now() - (r.last?.blockTime ?? 0)) < 10_000);
    }
  });
});
