// Every Consensus HTTP, Consensus RPC and Consensus WebSocket operation of the extension's
// catalogue against a real CometBFT v0.38 node (kvstore app, single validator, fast blocks),
// with the node's real error messages, a kvstore broadcast read back, live heights through the
// HeightTracker, and a restart of the node that the tracker survives.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describeRequest } from '../../src/core/chain/execute';
import { type HeightSnapshot, HeightTracker } from '../../src/core/chain/heightTracker';
import { operationsFor } from '../../src/core/chain/operations';
import { printRecorded, record, Runner } from './helpers/extension';
import { CometNode, raw, rawPost, sleep, waitFor } from './helpers/nodes';

type Json = any;

describe('CometBFT (real node): every consensus operation of the catalogue', function () {
  this.timeout(120_000);
  let node: CometNode;
  let runner: Runner;
  let chainId: string;

  before(async function () {
    this.timeout(180_000);
    node = await CometNode.create();
    chainId = (JSON.parse(readFileSync(node.genesisFile, 'utf8')) as { chain_id: string }).chain_id;
    await node.start();
    runner = new Runner({ name: 'real cometbft', endpoints: { consensusHttp: node.http, consensusRpc: node.http, consensusWs: node.ws } });
    await waitFor('height 3', async () => ((await latest()) >= 3n ? true : undefined));
  });

  after(async () => {
    await runner?.dispose();
    await node?.dispose();
    printRecorded('CometBFT');
  });

  async function latest(): Promise<bigint> {
    const r = await raw(`${node.http}/status`);
    return BigInt(r.json.result.sync_info.latest_block_height);
  }

  it('status over HTTP and JSON-RPC', async () => {
    for (const id of ['consensusHttp.status', 'consensusRpc.status']) {
      const o = await runner.ok(id);
      const r = o.result as Json;
      assert.equal(o.status, 200);
      assert.equal(r.node_info.network, chainId);
      assert.match(r.sync_info.latest_block_height, /^\d+$/);
      assert.equal(r.sync_info.catching_up, false);
      assert.match(r.validator_info.address, /^[0-9A-F]{40}$/);
      assert.equal(r.validator_info.pub_key.type, 'tendermint/PubKeyEd25519');
      assert.match(o.summary ?? '', new RegExp(`^height \\d+ · chain ${chainId}$`));
    }
  });

  it('block at a height over HTTP and JSON-RPC equals the raw answer; the body is accepted with and without "jsonrpc"', async () => {
    const reference = await raw(`${node.http}/block?height=2`);
    assert.equal(reference.status, 200);
    const http = await runner.ok('consensusHttp.block', { height: '2' });
    const rpc = await runner.ok('consensus.block', { height: ' 2 ' });
    assert.deepEqual(http.result, reference.json.result);
    assert.deepEqual(rpc.result, reference.json.result);
    assert.equal((rpc.result as Json).block.header.height, '2');
    assert.deepEqual((rpc.result as Json).block.data.txs, []);
    // The extension sends "jsonrpc":"2.0" and the height as a string.
    const sent = JSON.parse(describeRequest(runner.provider, rpc.operation, { height: '2' }).body ?? '{}');
    assert.equal(sent.jsonrpc, '2.0');
    assert.deepEqual(sent.params, ['2']);
    // Without the member: the node answers all the same (and puts "jsonrpc":"2.0" in the answer).
    const without = await rawPost(node.http, { method: 'block', params: ['2'], id: 7 });
    assert.equal(without.status, 200);
    assert.equal(without.json.jsonrpc, '2.0');
    assert.equal(without.json.id, 7);
    assert.deepEqual(without.json.result, reference.json.result);
    record('POST block without "jsonrpc"', `HTTP ${without.status}, answer starts ${without.text.slice(0, 40)}`);
  });

  it('validators, latest and at a height, over HTTP and JSON-RPC', async () => {
    for (const id of ['consensusHttp.validators', 'consensusRpc.validators']) {
      const latestOne = await runner.ok(id);
      const at2 = await runner.ok(id, { height: '2' });
      for (const o of [latestOne, at2]) {
        const r = o.result as Json;
        assert.equal(r.count, '1');
        assert.equal(r.total, '1');
        assert.equal(r.validators[0].voting_power, '10');
        assert.equal(r.validators[0].proposer_priority, '0');
      }
      assert.equal((at2.result as Json).block_height, '2');
    }
  });

  it("genesis (small: /genesis answers directly) matches the file, bar the node's normalisation", async () => {
    const o = await runner.ok('consensus.genesis');
    assert.equal(o.file, undefined, 'a small genesis is not chunked');
    const served = (o.result as Json).genesis;
    const file = JSON.parse(readFileSync(node.genesisFile, 'utf8'));
    assert.equal(file.initial_height, '0', 'cometbft init writes initial_height "0"');
    assert.equal(served.initial_height, '1', 'the node serves the completed genesis: initial_height "1"');
    record(
      'genesis normalisation',
      'a genesis file with "initial_height":"0" is served with "initial_height":"1" (GenesisDoc.ValidateAndComplete); no app_state key when the file has none',
    );
    assert.deepEqual({ ...served, initial_height: '0' }, file);
    // One chunk for a small genesis; its bytes are the node's own serialisation.
    const c = await raw(`${node.http}/genesis_chunked?chunk=0`);
    assert.equal(c.json.result.chunk, '0');
    assert.equal(c.json.result.total, '1');
    assert.deepEqual(JSON.parse(Buffer.from(c.json.result.data, 'base64').toString('utf8')), served);
  });

  it("errors carry the node's real messages (block past the tip, height 0, bad params, unknown method, tx not found)", async () => {
    const tip = await latest();
    const far = (tip + 1000n).toString();
    const overHttp = await runner.run('consensusHttp.block', { height: far });
    assert.equal(overHttp.status, 500);
    assert.equal(overHttp.error?.kind, 'rpc');
    assert.equal(overHttp.error?.detail.code, -32603);
    assert.match(overHttp.error?.detail.data ?? '', new RegExp(`^height ${far} must be less than or equal to the current blockchain height \\d+$`));
    record('block past the tip (GET, HTTP 500, -32603 Internal error)', overHttp.error?.detail.data ?? '');
    record('extension sentence for it', overHttp.error?.message ?? '');

    const overRpc = await runner.run('consensus.block', { height: far });
    assert.equal(overRpc.status, 200);
    assert.equal(overRpc.error?.detail.code, -32603);
    assert.match(overRpc.error?.detail.data ?? '', /must be less than or equal to the current blockchain height/);

    const overWs = await runner.run('consensusWs.custom', { method: 'block', params: JSON.stringify({ height: far }) });
    assert.equal(overWs.error?.detail.code, -32603);
    assert.match(overWs.error?.detail.data ?? '', /must be less than or equal to the current blockchain height/);

    const zero = await runner.run('consensusHttp.custom', { path: '/block?height=0' });
    assert.equal(zero.status, 500);
    assert.equal(zero.error?.detail.data, 'height must be greater than 0, but got 0');
    record('block height 0', zero.error?.detail.data ?? '');

    const intParam = await runner.run('consensusRpc.custom', { method: 'block', params: '[5]' });
    assert.equal(intParam.status, 200);
    assert.equal(intParam.error?.detail.code, -32602);
    record('block with a JSON number height (-32602)', intParam.error?.detail.data ?? '');
    assert.match(intParam.error?.detail.data ?? '', /invalid 64-bit integer encoding/);

    const unknown = await runner.run('consensusRpc.custom', { method: 'no_such_method', params: '' });
    assert.equal(unknown.status, 200);
    assert.equal(unknown.error?.detail.code, -32601);
    record('unknown method (-32601)', unknown.error?.message ?? '');

    const hash = randomBytes(32).toString('hex').toUpperCase();
    const missing = await runner.run('consensusHttp.tx', { hash });
    assert.equal(missing.status, 500);
    assert.equal(missing.error?.detail.code, -32603);
    assert.equal(missing.error?.detail.data, `tx (${hash}) not found`);
    record('tx not found', missing.error?.detail.data ?? '');

    const badChunk = await runner.run('consensusHttp.custom', { path: '/genesis_chunked?chunk=5' });
    assert.equal(badChunk.status, 500);
    record('genesis_chunked bad index (one chunk)', badChunk.error?.detail.data ?? '');
    // Sic: v0.38 prints the last valid index (len(chunks)-1), not the number of chunks.
    assert.equal(badChunk.error?.detail.data, 'there are 0 chunks, 5 is invalid');

    const notFound = await runner.run('consensusHttp.custom', { path: '/no_such_route' });
    assert.equal(notFound.status, 404);
    assert.equal(notFound.body?.toString('utf8'), '404 page not found\n');

    const subscribeOverHttp = await rawPost(node.http, { jsonrpc: '2.0', id: 3, method: 'subscribe', params: { query: "tm.event='NewBlockHeader'" } });
    record('subscribe over HTTP POST', `HTTP ${subscribeOverHttp.status} ${subscribeOverHttp.text.trim()}`);
    assert.equal(subscribeOverHttp.json?.error?.code, -32601);
  });

  it('WebSocket: a JSON-RPC call, and NewBlockHeader events collected', async () => {
    const st = await runner.ok('consensusWs.custom', { method: 'status', params: '{}' });
    assert.equal((st.result as Json).node_info.network, chainId);
    const o = await runner.ok('consensusWs.subscribeNewBlocks', { count: '3' });
    const events = o.result as Json[];
    assert.equal(events.length, 3);
    const heights = events.map((e) => BigInt(e.data.value.header.height));
    for (const e of events) {
      assert.equal(e.query, "tm.event='NewBlockHeader'");
      assert.equal(e.data.type, 'tendermint/event/NewBlockHeader');
      assert.deepEqual(e.events['tm.event'], ['NewBlockHeader']);
    }
    assert.equal(heights[1], heights[0] + 1n);
    assert.equal(heights[2], heights[1] + 1n);
  });

  it('broadcast_tx_sync of a kvstore tx: accepted, lands in a block, read back with abci_query and tx by hash', async () => {
    const key = `ce-${randomBytes(4).toString('hex')}`;
    const value = `value-${randomBytes(4).toString('hex')}`;
    const tx = Buffer.from(`${key}=${value}`);
    const expectedHash = createHash('sha256').update(tx).digest('hex').toUpperCase();
    const o = await runner.ok('consensusRpc.broadcastTxSync', { tx: tx.toString('base64'), confirmed: 'true' });
    const r = o.result as Json;
    assert.equal(r.code, 0);
    assert.equal(r.hash, expectedHash);
    assert.equal(o.summary, `accepted by CheckTx · hash ${expectedHash}`);
    // Lands in a block: the extension's tx-by-hash operation finds it.
    const found = await waitFor('the tx in a block', async () => {
      const t = await runner.run('consensusHttp.tx', { hash: expectedHash.toLowerCase() });
      return t.error ? undefined : (t.result as Json);
    });
    assert.equal(found.hash, expectedHash);
    assert.equal(found.tx, tx.toString('base64'));
    assert.equal(found.tx_result.code, 0);
    const block = await runner.ok('consensusHttp.block', { height: found.height });
    assert.ok(((block.result as Json).block.data.txs as string[]).includes(tx.toString('base64')));
    // abci_query with data = hex(key): over JSON-RPC (hex without 0x) and the URI form (0x hex).
    const q = await runner.ok('consensusRpc.custom', { method: 'abci_query', params: JSON.stringify({ path: '', data: Buffer.from(key).toString('hex') }) });
    const resp = (q.result as Json).response;
    assert.equal(resp.code, 0);
    assert.equal(Buffer.from(resp.key, 'base64').toString(), key);
    assert.equal(Buffer.from(resp.value, 'base64').toString(), value);
    record('abci_query log for a stored key', JSON.stringify(resp.log));
    const q2 = await runner.ok('consensusHttp.custom', { path: `/abci_query?data=0x${Buffer.from(key).toString('hex')}` });
    assert.equal(Buffer.from((q2.result as Json).response.value, 'base64').toString(), value);
    // The same tx again: refused by the mempool cache.
    const again = await runner.run('consensusRpc.broadcastTxSync', { tx: tx.toString('base64'), confirmed: 'true' });
    record(
      'broadcast of a tx already committed',
      again.error ? `${again.error.detail.code} ${again.error.detail.data ?? again.error.message}` : JSON.stringify(again.result),
    );
    // A tx kvstore cannot parse: CheckTx refuses it with code != 0 in a successful answer.
    const bad = await runner.ok('consensusRpc.broadcastTxSync', {
      tx: Buffer.from(`a=b=c-${randomBytes(3).toString('hex')}`).toString('base64'),
      confirmed: 'true',
    });
    assert.notEqual((bad.result as Json).code, 0);
    record('kvstore CheckTx refusal', `${o.operation.id}: ${bad.summary}`);
  });

  it('HeightTracker follows NewBlockHeader heights, and recovers from a restart of the node (live again, height never lower)', async function () {
    this.timeout(150_000);
    const snaps: HeightSnapshot[] = [];
    const tracker = new HeightTracker({
      wsUrl: node.ws,
      fetchStatus: async (signal) => {
        const res = await fetch(`${node.http}/status`, { signal });
        const body = (await res.json()) as Json;
        return { height: BigInt(body.result.sync_info.latest_block_height), time: body.result.sync_info.latest_block_time };
      },
      connectTimeoutMs: 3000,
      maxBackoffMs: 2000,
      pingIntervalMs: 5000,
      minStallMs: 10_000,
      defaultBlockIntervalMs: 1000,
    });
    tracker.onDidChange((s) => snaps.push(s));
    try {
      tracker.start();
      await waitFor('tracker live', async () => (tracker.snapshot().state === 'live' ? true : undefined));
      const first = tracker.snapshot().height ?? 0n;
      await waitFor('4 more blocks', async () => ((tracker.snapshot().height ?? 0n) >= first + 4n ? true : undefined));
      const wsHeights = snaps.filter((s) => s.source === 'websocket' && s.height !== undefined).map((s) => s.height as bigint);
      const distinct = [...new Set(wsHeights)];
      for (let i = 1; i < distinct.length; i++) assert.equal(distinct[i], distinct[i - 1] + 1n, `consecutive NewBlockHeader heights: ${distinct.join(',')}`);
      const nodeTip = await latest();
      assert.ok((tracker.snapshot().height ?? 0n) >= nodeTip - 2n, 'tracker follows the tip');

      // Restart the node.
      const before = tracker.snapshot().height as bigint;
      const mark = snaps.length;
      await node.stop();
      await waitFor('tracker leaves live', async () => (tracker.snapshot().state !== 'live' ? tracker.snapshot().state : undefined), 20_000, 50);
      const during = tracker.snapshot();
      record('tracker while the node is down', `${during.state}: ${during.detail ?? ''}`);
      await sleep(1500);
      await node.start();
      await waitFor(
        'tracker live again above the old height',
        async () => {
          const s = tracker.snapshot();
          return s.state === 'live' && (s.height ?? 0n) > before ? s : undefined;
        },
        60_000,
      );
      const states = snaps.slice(mark).map((s) => s.state);
      assert.ok(
        states.some((s) => s === 'reconnecting' || s === 'polling'),
        `went through reconnecting/polling: ${[...new Set(states)].join(' -> ')}`,
      );
      let max = 0n;
      for (const s of snaps) {
        if (s.height === undefined) continue;
        assert.ok(s.height >= max, `height went down from ${max} to ${s.height}`);
        max = s.height;
      }
      assert.equal(tracker.snapshot().source, 'websocket');
    } finally {
      tracker.dispose();
    }
  });

  it('covered every Consensus HTTP, RPC and WebSocket operation of the catalogue', () => {
    const all = [...operationsFor('consensusHttp'), ...operationsFor('consensusRpc'), ...operationsFor('consensusWs')].map((o) => o.id);
    const missing = all.filter((id) => !runner.exercised.has(id));
    assert.deepEqual(missing, [], `operations not exercised against the real node: ${missing.join(', ')}`);
  });
});
