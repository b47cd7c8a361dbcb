// @ts-check
// Case "explorer": (1) a CometBFT block of 5,000 transactions (half bank sends signed by ten
// ethsecp256k1 keys, half MsgEthereumTxs holding EIP-1559 transfers signed with viem), served by a
// loopback node:http server, opened decoded (Look Up: block + block_results fetched through
// execute(), every tx a line and the first page of 100 decoded in full, the Markdown rendered) against today's raw document of the same block
// (consensusHttp.block: fetched, formatted, rendered). (2) The links of the visible part of a 50 MB
// document (60 visible lines plus the 500-line margins, scanned line by line as the editor's link
// provider does), in absolute time.
import http from 'node:http';
import { buildBlock } from './explorerBlock.mjs';
import { childMain, core, interleave, summary, time } from './lib.mjs';

const { execute } = core('chain/execute');
const { HttpClient } = core('transport/http');
const { findOperation } = core('chain/operations');
const { renderDocumentBytes } = core('documents/render');
const { lookUp } = core('explorer/lookup');
const { renderLookup } = core('explorer/render');
const { executeSource } = core('explorer/source');
const { scanLinks } = core('explorer/links');

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

childMain(async ({ count, warmup, n, docMegabytes = 50 }) => {
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
    const { lines, bytes } = bigLines(docMegabytes);
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
