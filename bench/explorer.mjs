// @ts-check
// Case "explorer": (1) a CometBFT block of 5,000 transactions (half bank sends signed by ten
// ethsecp256k1 keys, half MsgEthereumTxs holding EIP-1559 transfers signed with viem), served by a
// loopback node:http server, opened decoded (Look Up: block + block_results fetched through
// execute(), every tx a line and the first page of 100 decoded in full, the Markdown rendered) against today's raw document of the same block
// (consensusHttp.block: fetched, formatted, rendered). (2) The links of the visible part of a 50 MB
// document (60 visible lines plus the 500-line margins, scanned line by line as the editor's link
// provider does), in absolute time.
import http from 'node:http';
import { childMain, core, interleave, require, summary, time } from './lib.mjs';

const { execute } = core('chain/execute');
const { HttpClient } = core('transport/http');
const { findOperation } = core('chain/operations');
const { renderDocumentBytes } = core('documents/render');
const { lookUp } = core('explorer/lookup');
const { renderLookup } = core('explorer/render');
const { executeSource } = core('explorer/source');
const { scanLinks } = core('explorer/links');
const { TxRaw, TxBody, AuthInfo } = require('cosmjs-types/cosmos/tx/v1beta1/tx');
const { MsgSend } = require('cosmjs-types/cosmos/bank/v1beta1/tx');
const { BinaryWriter } = require('cosmjs-types/binary');
const { privateKeyToAccount } = require('viem/accounts');
const { secp256k1 } = require('@noble/curves/secp256k1');
const { createHash } = require('node:crypto');
const { keccak256 } = require('viem');
const { bech32 } = require('@scure/base');

const B64 = (b) => Buffer.from(b).toString('base64');

async function buildBlock(count) {
  const keys = Array.from({ length: 10 }, (_, i) => createHash('sha256').update(`bench key ${i}`).digest());
  const pubs = keys.map((k) => secp256k1.getPublicKey(k, true));
  const accounts = keys.map((k) => privateKeyToAccount(`0x${k.toString('hex')}`));
  const senders = accounts.map((a) => bech32.encode('cosmos', bech32.toWords(Buffer.from(a.address.slice(2), 'hex'))));
  const txs = [];
  const results = [];
  for (let i = 0; i < count; i++) {
    const k = i % keys.length;
    if (i % 2 === 0) {
      const body = TxBody.encode(
        TxBody.fromPartial({
          messages: [
            {
              typeUrl: '/cosmos.bank.v1beta1.MsgSend',
              value: MsgSend.encode(
                MsgSend.fromPartial({
                  fromAddress: `cosmos1sender${k}`,
                  toAddress: `cosmos1receiver${i}`,
                  amount: [{ denom: 'atest', amount: String(1_000_000 + i) }],
                }),
              ).finish(),
            },
          ],
          memo: `bench ${i}`,
        }),
      ).finish();
      const pubKey = new BinaryWriter().uint32(10).bytes(pubs[k]).finish();
      const authInfo = AuthInfo.encode(
        AuthInfo.fromPartial({
          signerInfos: [
            { publicKey: { typeUrl: '/cosmos.evm.crypto.v1.ethsecp256k1.PubKey', value: pubKey }, modeInfo: { single: { mode: 1 } }, sequence: BigInt(i) },
          ],
          fee: { amount: [{ denom: 'atest', amount: '2000000000000000' }], gasLimit: 200000n },
        }),
      ).finish();
      txs.push(B64(TxRaw.encode(TxRaw.fromPartial({ bodyBytes: body, authInfoBytes: authInfo, signatures: [new Uint8Array(65)] })).finish()));
      results.push({
        code: 0,
        gas_wanted: '200000',
        gas_used: '106663',
        events: [
          {
            type: 'transfer',
            attributes: [
              { key: 'recipient', value: `cosmos1receiver${i}`, index: true },
              { key: 'amount', value: `${1_000_000 + i}atest`, index: true },
              { key: 'msg_index', value: '0', index: true },
            ],
          },
        ],
      });
    } else {
      const signed = await accounts[k].signTransaction({
        type: 'eip1559',
        chainId: 262144,
        nonce: i,
        to: accounts[(k + 1) % keys.length].address,
        value: 123456789n + BigInt(i),
        gas: 21000n,
        maxFeePerGas: 2_000_000_000n,
        maxPriorityFeePerGas: 1n,
      });
      const msg = new BinaryWriter()
        .uint32(50)
        .bytes(Buffer.from(signed.slice(2), 'hex'))
        .finish(); // field 6: the signed bytes
      const body = TxBody.encode(
        TxBody.fromPartial({
          messages: [{ typeUrl: '/cosmos.evm.vm.v1.MsgEthereumTx', value: msg }],
          extensionOptions: [{ typeUrl: '/cosmos.evm.vm.v1.ExtensionOptionsEthereumTx', value: new Uint8Array() }],
        }),
      ).finish();
      const authInfo = AuthInfo.encode(AuthInfo.fromPartial({ fee: { amount: [{ denom: 'atest', amount: '42000000000000' }], gasLimit: 21000n } })).finish();
      txs.push(B64(TxRaw.encode(TxRaw.fromPartial({ bodyBytes: body, authInfoBytes: authInfo, signatures: [] })).finish()));
      results.push({
        code: 0,
        gas_wanted: '21000',
        gas_used: '21000',
        // As evmd writes them: the Ethereum hash, and the sender in the message event (the block view's `from`).
        events: [
          {
            type: 'ethereum_tx',
            attributes: [
              { key: 'ethereumTxHash', value: keccak256(signed), index: true },
              { key: 'txIndex', value: String(i >> 1), index: true },
            ],
          },
          {
            type: 'message',
            attributes: [
              { key: 'action', value: '/cosmos.evm.vm.v1.MsgEthereumTx', index: true },
              { key: 'sender', value: senders[k], index: true },
              { key: 'msg_index', value: '0', index: true },
            ],
          },
        ],
      });
    }
  }
  const header = {
    chain_id: 'bench_262144-1',
    height: '5',
    time: '2026-11-23T19:03:28.527476419Z',
    proposer_address: '6AEC738D87184FFC1B4E007D06FF93204423D76C',
    app_hash: 'AB'.repeat(32),
  };
  const block = {
    jsonrpc: '2.0',
    id: -1,
    result: {
      block_id: { hash: '7F'.repeat(32), parts: { total: 1, hash: 'CD'.repeat(32) } },
      block: { header, data: { txs }, evidence: { evidence: [] }, last_commit: { height: '4', round: 0, signatures: [] } },
    },
  };
  const blockResults = {
    jsonrpc: '2.0',
    id: -1,
    result: { height: '5', txs_results: results, finalize_block_events: [{ type: 'block_gas', attributes: [{ key: 'height', value: '5' }] }] },
  };
  return { block: Buffer.from(JSON.stringify(block)), blockResults: Buffer.from(JSON.stringify(blockResults)) };
}

/** About `megabytes` of formatted JSON lines, as a result document of block_results would hold. */
function bigLines(megabytes) {
  const sample = JSON.stringify(
    {
      height: '123456',
      hash: 'AB'.repeat(32),
      evm: '0x' + 'cd'.repeat(32),
      sender: 'cosmos10jmp6sgh4cc6zt3e8gw05wavvejgr5pwsjskvv',
      to: '0xc6fe5d33615a1c52c08018c47e8bc53646a0e101',
      amount: '2059747737813409606atest',
      time: '2026-11-23T19:03:28Z',
      data: 'x'.repeat(40),
    },
    null,
    2,
  ).split('\n');
  const lines = [];
  let bytes = 0;
  while (bytes < megabytes * 1024 * 1024) {
    for (const l of sample) {
      lines.push(l);
      bytes += l.length + 1;
    }
  }
  return { lines, bytes };
}

export { buildBlock };

childMain(async ({ count, warmup, n }) => {
  const { block, blockResults } = await buildBlock(count);
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(req.url?.startsWith('/block_results') ? blockResults : block);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
  const url = `http://127.0.0.1:${/** @type {any} */ (server.address()).port}`;
  const provider = { name: 'bench', chainId: 'bench_262144-1', endpoints: { consensusHttp: url } };
  const httpClient = new HttpClient();
  const opts = { http: httpClient, timeoutMs: 120_000, maxBufferBytes: 256 * 1024 * 1024, spillDir: '/tmp' };
  const op = findOperation('consensusHttp.block');
  let decodedBytes = 0;
  const ours = async () => {
    const r = await lookUp(executeSource(provider, opts), '5');
    if (r.kind !== 'block' || r.block.txs.length !== count) throw new Error(`lookup: ${r.kind} ${JSON.stringify(r.notes).slice(0, 300)}`);
    decodedBytes = Buffer.byteLength(renderLookup(r));
  };
  let rawBytes = 0;
  const baseline = async () => {
    const o = await execute(provider, op, { height: '5' }, opts);
    if (o.error) throw new Error(o.error.message);
    rawBytes = renderDocumentBytes(o).length;
  };
  try {
    const t = await interleave({ ours, baseline, warmup, n });
    // Links: the visible part of a 50 MB document.
    const { lines, bytes } = bigLines(50);
    const mid = Math.floor(lines.length / 2);
    const scanVisible = () => {
      let links = 0;
      for (let l = Math.max(0, mid - 500); l <= Math.min(lines.length - 1, mid + 60 + 500) && links < 2000; l++)
        links += scanLinks(lines[l], 2000 - links).length;
      return links;
    };
    const linkTimes = [];
    let linkCount = 0;
    for (let i = 0; i < 2 + n; i++) {
      const ms = await time(() => {
        linkCount = scanVisible();
      });
      if (i >= 2) linkTimes.push(ms);
    }
    return {
      ours: summary(t.ours),
      baseline: summary(t.baseline),
      blockBytes: block.length,
      blockResultsBytes: blockResults.length,
      decodedBytes,
      rawBytes,
      links: summary(linkTimes),
      linkCount,
      docBytes: bytes,
      docLines: lines.length,
    };
  } finally {
    await httpClient.close();
    server.close();
  }
});
