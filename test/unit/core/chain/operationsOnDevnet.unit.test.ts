// Every operation of the catalogue through the extension's client against the devnet, plus
// chunked genesis (byte for byte, and cancelled halfway) and WebSocket exchanges.

import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execute, type ExecuteOptions } from '../../../../src/core/chain/execute';
import { HttpClient } from '../../../../src/core/transport/http';
import { OPERATIONS, findOperation } from '../../../../src/core/chain/operations';
import { type Provider } from '../../../../src/core/config/providers';
import { renderDocument, stripHeader } from '../../../../src/core/documents/render';
import { bech32Encode } from '../../../../src/core/chain/validate';
import { type Devnet, startDevnet } from '../../../devnet/devnet';

describe('operations against the devnet', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  let dir: string;
  let provider: Provider;

  before(async () => {
    // Real txs: block 1 deploys the fixture token and router (ledger.fixtureDeployment), which evm.callContract calls.
    devnet = await startDevnet({ blockIntervalMs: 200, realTxs: true, providers: [{ name: 'D', restTrailingSlash: true }] });
    http = new HttpClient();
    dir = mkdtempSync(path.join(tmpdir(), 'ce-devnet-'));
    const { name, ...endpoints } = devnet.providers[0];
    provider = { name, endpoints };
    while (devnet.height() < 3n) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => {
    await devnet.stop();
    await http.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const opts = (extra: Partial<ExecuteOptions> = {}): ExecuteOptions => ({
    http,
    timeoutMs: 10_000,
    maxBufferBytes: 20 * 1024 * 1024,
    spillDir: dir,
    ...extra,
  });

  it('runs every read operation successfully, and each document parses', async () => {
    const h = String(devnet.height() - 1n);
    const fixture = devnet.chain.ledger.fixtureDeployment;
    assert.ok(fixture, 'the devnet deployed the fixture contracts in block 1');
    const args: Record<string, Record<string, string>> = {
      'evm.getBlockByNumber': { height: h },
      'evm.getTransactionByHash': { hash: '0x' + '11'.repeat(32) },
      'evm.getBalance': { address: '0x' + '22'.repeat(20) },
      'evm.custom': { method: 'net_version' },
      'evm.callContract': { address: fixture.token, function: 'balanceOf(address)(uint256)', args: fixture.deployer },
      'evm.simulate': { address: fixture.token, function: 'balanceOf(address)(uint256)', args: fixture.deployer },
      'consensusHttp.block': { height: h },
      'consensusHttp.validators': { height: h },
      'consensusHttp.custom': { path: '/health' },
      'consensus.block': { height: h },
      'consensusRpc.custom': { method: 'abci_info', params: '{}' },
      'consensusWs.subscribeNewBlocks': { count: '2' },
      'consensusWs.custom': { method: 'status', params: '{}' },
      'rest.blockByHeight': { height: h },
      'rest.balances': { address: bech32Encode('cosmos', new Uint8Array(20).fill(3)) },
      'rest.custom': { path: 'cosmos/base/tendermint/v1beta1/node_info' },
    };
    // consensusHttp.tx, rest.tx need a real tx: covered below.
    const skip = new Set(['consensusHttp.tx', 'rest.tx']);
    let called = false;
    for (const op of OPERATIONS) {
      if (op.broadcast || skip.has(op.id)) continue;
      if (op.id === 'evm.getTransactionReceipt') {
        // No such tx: Cosmos EVM (and the devnet) answer -32000, not null.
        const o = await execute(provider, op, { hash: '0x' + '11'.repeat(32) }, opts());
        assert.equal(o.error?.detail.code, -32000, op.id);
        continue;
      }
      const o = await execute(provider, op, args[op.id] ?? {}, opts());
      assert.equal(o.error, undefined, `${op.id}: ${o.error?.message}`);
      if (op.id === 'evm.callContract') {
        // The deployer's balance of the fixture token, decoded as a decimal string (not the hex, not 0).
        assert.match(String(o.result), /^[1-9]\d*$/, `evm.callContract: ${JSON.stringify(o.result)}`);
        called = true;
      }
      const text = renderDocument(o);
      assert.doesNotThrow(() => JSON.parse(stripHeader(text)), op.id);
    }
    assert.ok(called, 'evm.callContract ran');
  });

  it('a null answer gets its line (no such block, transaction or receipt); a found one none, formatted or not', async () => {
    const far = String(devnet.height() + 1000n);
    const unknown = '0x' + '11'.repeat(32);
    for (const formatWhileReceiving of [true, false]) {
      const run = (id: string, args: Record<string, string>) => execute(provider, findOperation(id)!, args, opts({ formatWhileReceiving }));
      const missing = await run('evm.getBlockByNumber', { height: far });
      assert.equal(missing.error, undefined);
      assert.equal(missing.summary, 'null: no such block (past the tip, or pruned)');
      assert.equal(missing.result, null);
      assert.equal((await run('evm.getTransactionByHash', { hash: unknown })).summary, 'null: no transaction with that hash');
      const found = await run('evm.getBlockByNumber', { height: '1' });
      assert.equal(found.error, undefined);
      assert.equal(found.summary, undefined);
      assert.equal((found.result as { number?: string }).number, '0x1');
    }
  });

  it('WebSocket subscription: events carry the subscribe id and increasing heights', async () => {
    const o = await execute(provider, findOperation('consensusWs.subscribeNewBlocks')!, { count: '3' }, opts());
    assert.equal(o.error, undefined);
    const messages = JSON.parse(o.body!.toString()) as { id: number; result: any }[];
    assert.equal(messages.length, 4);
    assert.ok(messages.every((m) => m.id === messages[0].id));
    const heights = messages.slice(1).map((m) => BigInt(m.result.data.value.header.height));
    assert.ok(heights[1] > heights[0] && heights[2] > heights[1]);
  });

  it('broadcasts once over JSON-RPC and REST, then finds the tx by hash on both', async () => {
    const tx = Buffer.from(`unit-${Date.now()}=1`).toString('base64');
    const before = devnet.lastRequests('D').filter((r) => r.body.includes('broadcast_tx_sync')).length;
    const o = await execute(provider, findOperation('consensusRpc.broadcastTxSync')!, { tx }, opts());
    assert.equal(o.error, undefined, o.error?.message);
    assert.match(o.summary ?? '', /accepted by CheckTx/);
    assert.equal(devnet.lastRequests('D').filter((r) => r.body.includes('broadcast_tx_sync')).length, before + 1);
    const hash = (o.result as { hash: string }).hash;
    const start = devnet.height();
    while (devnet.height() < start + 2n) await new Promise((r) => setTimeout(r, 50));
    const found = await execute(provider, findOperation('consensusHttp.tx')!, { hash }, opts());
    assert.equal(found.error, undefined, found.error?.message);
    const rest = await execute(provider, findOperation('rest.tx')!, { hash }, opts());
    assert.equal(rest.error, undefined, rest.error?.message);
    const r2 = await execute(provider, findOperation('rest.broadcast')!, { tx: Buffer.from(`rest-${Date.now()}=2`).toString('base64') }, opts());
    assert.equal(r2.error, undefined, r2.error?.message);
    assert.match(r2.summary ?? '', /accepted by CheckTx/);
  });

  it('the documented errors come back as clear sentences', async () => {
    const past = String(devnet.height() + 1000n);
    let o = await execute(provider, findOperation('consensus.block')!, { height: past }, opts());
    assert.match(o.error!.message, /^JSON-RPC error -32603 Internal error: height \d+ must be less than or equal to the current blockchain height \d+/);
    o = await execute(provider, findOperation('consensusHttp.block')!, { height: past }, opts());
    assert.match(o.error!.message, /HTTP 500/);
    o = await execute(provider, findOperation('rest.blockByHeight')!, { height: past }, opts());
    assert.match(o.error!.message, /requested block height is bigger then the chain length/);
    o = await execute(provider, findOperation('evm.custom')!, { method: 'eth_nope' }, opts());
    assert.match(o.error!.message, /^JSON-RPC error -32601/);
    o = await execute(provider, findOperation('consensusWs.custom')!, { method: 'nope' }, opts());
    assert.match(o.error!.message, /^JSON-RPC error -32601/);
  });

  describe('chunked genesis', () => {
    let big: Devnet;
    let bigProvider: Provider;
    before(async () => {
      big = await startDevnet({ blockIntervalMs: 0, genesisAppStateBytes: 6 * 1024 * 1024, genesisChunkBytes: 1024 * 1024, providers: [{ name: 'G' }] });
      const { name, ...endpoints } = big.providers[0];
      bigProvider = { name, endpoints };
    });
    after(() => big.stop());

    it('reassembles every chunk on disk, byte for byte', async () => {
      const o = await execute(bigProvider, findOperation('consensus.genesis')!, {}, opts());
      assert.equal(o.error, undefined, o.error?.message);
      assert.ok(o.file);
      assert.ok(readFileSync(o.file!).equals(big.genesisBytes()));
      const chunks = Math.ceil(big.genesisBytes().length / (1024 * 1024));
      assert.ok(chunks > 1);
      assert.match(o.summary ?? '', new RegExp(`reassembled from ${chunks} chunk`));
      assert.ok(o.notes.some((n) => /genesis response is large/.test(n)));
    });

    it('cancelled halfway, it leaves no file behind', async () => {
      const cancelDir = mkdtempSync(path.join(tmpdir(), 'ce-genesis-cancel-'));
      const abort = new AbortController();
      const o = await execute(
        bigProvider,
        findOperation('consensus.genesis')!,
        {},
        opts({
          spillDir: cancelDir,
          signal: abort.signal,
          onProgress: (m) => {
            if (/chunk 3 of/.test(m)) abort.abort();
          },
        }),
      );
      assert.equal(o.error?.kind, 'cancelled');
      assert.deepEqual(readdirSync(cancelDir), []);
      rmSync(cancelDir, { recursive: true, force: true });
    });
  });
});
