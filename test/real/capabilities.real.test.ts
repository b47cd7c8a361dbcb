// The capability probes (src/core/health/capabilities.ts) against real nodes: what a CometBFT
// v0.38 node (kvstore) and evmd v0.3.2 (configured as helpers/evmd.ts does: json-rpc api
// "eth,txpool,net,web3", REST enabled) really report, and that the checks agree with what the
// nodes then do.
import * as assert from 'node:assert/strict';
import { type Capabilities, probeCapabilities } from '../../src/core/health/capabilities';
import { probeOptions } from '../../src/core/chain/requestOptions';
import { canServe } from '../../src/core/health/serves';
import { findOperation } from '../../src/core/chain/operations';
import { HttpClient } from '../../src/core/transport/http';
import { EvmdNode } from './helpers/evmd';
import { CometNode, listening, raw, waitFor } from './helpers/nodes';

describe('capabilities of real nodes', function () {
  this.timeout(120_000);
  let comet: CometNode;
  let evmd: EvmdNode;
  let http: HttpClient;

  before(async function () {
    this.timeout(240_000);
    http = new HttpClient();
    comet = await CometNode.create();
    await comet.start();
    evmd = await EvmdNode.create();
    await evmd.start();
    // evmd opens its EVM WebSocket a moment after the HTTP server: wait for it to accept connections.
    await waitFor('the EVM WebSocket listening', () => listening(evmd.evmWs), 30_000);
    await waitFor('CometBFT height 2', async () =>
      BigInt((await raw(`${comet.http}/status`)).json.result.sync_info.latest_block_height) >= 2n ? true : undefined,
    );
  });

  after(async () => {
    await http?.close();
    await comet?.dispose();
    await evmd?.dispose();
  });

  const show = (c: Capabilities) => console.log(`      ${c.provider}: ${JSON.stringify({ ...c, probedAt: undefined })}`);

  it('CometBFT: the indexer on, the earliest block, its version, subscriptions allowed', async () => {
    const started = Date.now();
    const c = await probeCapabilities(
      { name: 'real cometbft', endpoints: { consensusHttp: comet.http, consensusRpc: comet.http, consensusWs: comet.ws } },
      { execute: probeOptions(http, 5000), costly: true },
    );
    console.log(`      (probed in ${Date.now() - started} ms)`);
    show(c);
    assert.deepEqual(c.notes, []);
    assert.equal(c.consensus?.txIndex, true);
    assert.equal(c.consensus?.earliestHeight, '1');
    assert.match(c.consensus?.nodeVersion ?? '', /^0\.38\./);
    assert.equal(c.websocket?.consensus, true);
    assert.equal(canServe(findOperation('consensusHttp.tx')!, undefined, c).served, true);
  });

  it('evmd: the namespaces its config serves (txpool, no debug), the chain id, old state, REST modules and versions', async () => {
    const started = Date.now();
    const c = await probeCapabilities(
      {
        name: 'real evmd',
        endpoints: {
          evmRpc: evmd.evmRpc,
          evmWs: evmd.evmWs,
          consensusHttp: evmd.cometHttp,
          consensusRpc: evmd.cometHttp,
          consensusWs: evmd.cometWs,
          rest: evmd.rest,
        },
      },
      { execute: probeOptions(http, 5000), costly: true },
    );
    console.log(`      (probed in ${Date.now() - started} ms)`);
    show(c);
    assert.deepEqual(c.notes, []);
    assert.deepEqual(c.evm?.namespaces, ['eth', 'net', 'txpool', 'web3'], 'app.toml json-rpc.api: no debug');
    assert.equal(c.evm?.namespacesFrom, 'rpc_modules');
    assert.equal(c.evm?.chainId, '0x40000');
    assert.equal(c.evm?.archive, true, 'a fresh chain keeps the state of block 1');
    assert.equal(c.consensus?.txIndex, true);
    assert.equal(c.consensus?.earliestHeight, '1');
    assert.equal(c.websocket?.consensus, true);
    assert.equal(c.websocket?.evm, true);
    for (const m of ['tendermint', 'auth', 'bank', 'staking', 'distribution', 'gov', 'tx', 'evm']) assert.equal(c.rest?.modules[m], true, `REST ${m}`);
    assert.match(c.rest?.cosmosSdkVersion ?? '', /0\.53/);
    // The checks agree with the node: debug_* is refused as "does not exist".
    const debug = findOperation('evm.custom')!;
    const verdict = canServe(debug, { method: 'debug_traceTransaction', params: '["0x' + '11'.repeat(32) + '"]' }, c);
    assert.equal(verdict.served, false);
    const r = await raw(evmd.evmRpc, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: ['0x' + '11'.repeat(32)] }),
    });
    assert.equal(r.json.error.code, -32601);
  });
});
