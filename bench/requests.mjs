// @ts-check
// Cases "request overhead" and "anchors": every documented HTTP request through our client
// (execute: build, send, parse; then renderDocumentBytes, the bytes the editor reads) against the devnet (in its own process),
// interleaved with the same request through a bare undici.request + JSON.parse, and the anchor
// libraries (@cosmjs/tendermint-rpc, viem) for block/status and eth_blockNumber.
import { childMain, core, interleave, require, startChild, summary } from './lib.mjs';

const { execute } = core('chain/execute');
const { describeRequest } = core('chain/execute');
const { HttpClient } = core('transport/http');
const { OPERATIONS, findOperation } = core('chain/operations');
const { renderDocumentBytes } = core('documents/render');
const { bech32Encode } = core('chain/validate');
const { request } = require('undici');

childMain(async ({ warmup, n, anchorWarmup, anchorN }) => {
  const server = startChild('server.mjs', { kind: 'devnet', blocks: 5 });
  const info = await server.ready;
  try {
    const { name, ...endpoints } = info.providers[0];
    const provider = { name, endpoints };
    const http = new HttpClient();
    const opts = { http, timeoutMs: 10_000, maxBufferBytes: 20 * 1024 * 1024, spillDir: '/tmp' };
    const ours = async (op, args) => {
      const o = await execute(provider, op, args, opts);
      if (o.error && !expectedError(op)) throw new Error(`${op.id}: ${o.error.message}`);
      return renderDocumentBytes(o);
    };

    // A transaction in a block, for the tx-by-hash requests.
    const tx = Buffer.from('bench=1').toString('base64');
    const sent = await execute(provider, findOperation('consensusRpc.broadcastTxSync'), { tx }, opts);
    await server.ask({ cmd: 'produceBlock' });
    const hash = sent.result.hash;
    const h = String(BigInt(info.height) - 1n);
    const args = {
      'evm.getBlockByNumber': { height: h },
      'evm.getTransactionByHash': { hash: '0x' + '11'.repeat(32) },
      'evm.getTransactionReceipt': { hash: '0x' + '11'.repeat(32) },
      'evm.getBalance': { address: '0x' + '22'.repeat(20) },
      'evm.sendRawTransaction': { tx: '0x02f86c0180843b9aca00847735940082520894' + '33'.repeat(20) + '8080c0' },
      'evm.custom': { method: 'net_version' },
      // eth_call of balanceOf on an address with no code: the devnet answers 0x (decoded as an error
      // document), the same bytes for both sides.
      'evm.callContract': { address: '0x' + '22'.repeat(20), function: 'balanceOf(address)(uint256)', args: '0x' + '22'.repeat(20) },
      'evm.simulate': { address: '0x' + '22'.repeat(20), function: 'balanceOf(address)(uint256)', args: '0x' + '22'.repeat(20) },
      'consensusHttp.block': { height: h },
      'consensusHttp.validators': { height: h },
      'consensusHttp.tx': { hash },
      'consensusHttp.custom': { path: '/health' },
      'consensus.block': { height: h },
      'consensusRpc.custom': { method: 'abci_info', params: '{}' },
      'consensusRpc.broadcastTxSync': { tx, confirmed: 'true' },
      'rest.blockByHeight': { height: h },
      'rest.balances': { address: bech32Encode('cosmos', new Uint8Array(20).fill(3)) },
      'rest.tx': { hash },
      'rest.broadcast': { tx },
      'rest.custom': { path: 'cosmos/base/tendermint/v1beta1/node_info' },
    };
    const bare = async ({ method, url, body }) => {
      const res = await request(url, { method, body, headers: body !== undefined ? { 'content-type': 'application/json' } : undefined });
      return JSON.parse(await res.body.text());
    };

    const rows = [];
    const http_ops = OPERATIONS.filter((op) => !op.iface.startsWith('consensusWs') && op.id !== 'consensus.genesis');
    for (const op of http_ops) {
      const a = args[op.id] ?? {};
      const wire = describeRequest(provider, op, a);
      const r = await interleave({ ours: () => ours(op, a), baseline: () => bare(wire), warmup, n });
      rows.push({ id: op.id, ours: summary(r.ours), baseline: summary(r.baseline), samples: r });
    }

    // Anchors.
    const { Comet38Client, HttpClient: CosmHttp } = require('@cosmjs/tendermint-rpc');
    const { createPublicClient, http: viemHttp } = require('viem');
    const comet = Comet38Client.create(new CosmHttp(endpoints.consensusRpc));
    const viem = createPublicClient({ transport: viemHttp(endpoints.evmRpc) });
    const height = Number(h);
    const anchors = [];
    const anchor = async (id, oursFn, baseFn, lib) => {
      const r = await interleave({ ours: oursFn, baseline: baseFn, warmup: anchorWarmup, n: anchorN });
      anchors.push({ id, lib, ours: summary(r.ours), baseline: summary(r.baseline) });
    };
    const before = (await server.ask({ cmd: 'requests' })).n;
    await anchor(
      'block',
      () => ours(findOperation('consensus.block'), { height: h }),
      () => comet.block(height),
      'cosmjs Comet38Client.block',
    );
    await anchor(
      'status',
      () => ours(findOperation('consensusRpc.status'), {}),
      () => comet.status(),
      'cosmjs Comet38Client.status',
    );
    await anchor(
      'eth_blockNumber',
      () => ours(findOperation('evm.blockNumber'), {}),
      () => viem.getBlockNumber({ cacheTime: 0 }),
      'viem getBlockNumber (http)',
    );
    void before;
    comet.disconnect();
    await http.close();
    return { rows: rows.map(({ samples: _samples, ...r }) => r), anchors };
  } finally {
    await server.stop();
  }
});

function expectedError(op) {
  // Repeated broadcasts are refused (already in the cache), and the receipt of an unknown tx is
  // error -32000 on Cosmos EVM and the devnet: the same answer for both clients.
  return op.broadcast === true || op.id === 'evm.getTransactionReceipt';
}
