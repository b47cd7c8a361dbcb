// A real CometBFT node whose genesis is far past 16 MiB (a 40 MiB app_state padding that the
// kvstore app ignores): `/genesis` refuses, and the extension's genesis operation fetches every
// genesis_chunked chunk and reassembles the node's bytes exactly, with bounded memory.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { printRecorded, record, Runner } from './helpers/extension';
import { CometNode, raw, rawPost } from './helpers/nodes';

const PADDING_BYTES = 40 * 1024 * 1024;
const CHUNK = 16 * 1024 * 1024;
const MEMORY_BUDGET = 100 * 1024 * 1024;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

describe('CometBFT (real node): a genesis larger than 16 MiB', function () {
  this.timeout(180_000);
  let node: CometNode;
  let runner: Runner;
  let written: Buffer;

  before(async function () {
    this.timeout(240_000);
    node = await CometNode.create({
      genesis: (initial) => {
        const head = { ...initial, initial_height: '1' };
        const prefix = JSON.stringify(head, null, 2).replace(
          /\n}$/,
          ',\n  "app_state": {\n    "note": "chain-endpoints padding, ignored by kvstore",\n    "padding": "',
        );
        written = Buffer.concat([Buffer.from(prefix), Buffer.alloc(PADDING_BYTES, 'a'), Buffer.from('"\n  }\n}\n')]);
        return written;
      },
    });
    const t0 = Date.now();
    await node.start(120_000);
    record('start-up with a 40 MiB genesis', `first block after ${Date.now() - t0} ms`);
    runner = new Runner({ name: 'real cometbft large genesis', endpoints: { consensusHttp: node.http } });
  });

  after(async () => {
    await runner?.dispose();
    await node?.dispose();
    printRecorded('CometBFT');
  });

  it('the node started with the large genesis and /genesis refuses it (GET 500, POST 200)', async () => {
    assert.ok(statSync(node.genesisFile).size > 40 * 1024 * 1024);
    const get = await raw(`${node.http}/genesis`);
    assert.equal(get.status, 500);
    assert.equal(get.json.error.code, -32603);
    assert.equal(get.json.error.data, 'genesis response is large, please use the genesis_chunked API instead');
    record('/genesis too large (GET, HTTP 500, -32603)', get.json.error.data);
    const post = await rawPost(node.http, { jsonrpc: '2.0', id: 1, method: 'genesis', params: {} });
    assert.equal(post.status, 200);
    assert.equal(post.json.error.data, get.json.error.data);
    const bad = await raw(`${node.http}/genesis_chunked?chunk=99`);
    record('genesis_chunked bad index (3 chunks)', bad.json.error.data);
    assert.equal(bad.json.error.data, 'there are 2 chunks, 99 is invalid');
  });

  it('the genesis operation reassembles the chunks byte for byte with memory bounded', async () => {
    gc();
    await new Promise((r) => setTimeout(r, 50));
    gc();
    const base = process.memoryUsage();
    let peak = { rss: base.rss, heap: base.heapUsed, external: base.external + base.arrayBuffers };
    const sample = () => {
      const m = process.memoryUsage();
      peak = { rss: Math.max(peak.rss, m.rss), heap: Math.max(peak.heap, m.heapUsed), external: Math.max(peak.external, m.external + m.arrayBuffers) };
    };
    const timer = setInterval(sample, 5);
    const progress: string[] = [];
    let o;
    try {
      o = await runner.run('consensus.genesis', {}, { onProgress: (m) => progress.push(m), timeoutMs: 60_000 });
    } finally {
      clearInterval(timer);
      sample();
    }
    const growth = {
      rss: peak.rss - base.rss,
      heap: peak.heap - base.heapUsed,
      external: peak.external - (base.external + base.arrayBuffers),
    };
    const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
    record(
      'memory growth during the chunked fetch',
      `RSS +${mb(growth.rss)}, heap +${mb(growth.heap)}, external+arrayBuffers +${mb(growth.external)} (budget ${mb(MEMORY_BUDGET)})`,
    );
    assert.equal(o.error, undefined, o.error?.message);
    assert.ok(o.file, 'reassembled into a file');
    assert.deepEqual(progress, ['genesis chunk 1 of ?', 'genesis chunk 2 of 3', 'genesis chunk 3 of 3']);
    assert.match(o.summary ?? '', /^genesis reassembled from 3 chunk\(s\)/);

    // Byte for byte: the same bytes as the node's chunks, fetched independently and concatenated.
    const parts: Buffer[] = [];
    for (let i = 0, total = 1; i < total; i++) {
      const c = await raw(`${node.http}/genesis_chunked?chunk=${i}`, {}, 60_000);
      assert.equal(c.json.result.chunk, String(i));
      total = Number(c.json.result.total);
      assert.equal(c.json.result.total, '3');
      const bytes = Buffer.from(c.json.result.data as string, 'base64');
      if (i < 2) assert.equal(bytes.length, CHUNK, 'chunks are 16 MiB but the last');
      parts.push(bytes);
    }
    const served = Buffer.concat(parts);
    const fetched = readFileSync(o.file as string);
    assert.equal(fetched.length, served.length);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    assert.equal(sha(fetched), sha(served));
    record(
      'served genesis vs the file written',
      `${served.length} bytes served (compact JSON: ${served.equals(written) ? 'identical to' : 'a re-serialisation of'} the ${written.length}-byte file written)`,
    );
    // ... and the JSON is the file we wrote.
    assert.deepEqual(JSON.parse(fetched.toString('utf8')), JSON.parse(written.toString('utf8')));

    // Memory last, so a failure here comes after the byte-for-byte checks passed.
    assert.ok(
      growth.rss < MEMORY_BUDGET,
      `RSS grew by ${mb(growth.rss)} while fetching a ${mb(served.length)} genesis in 3 chunks (budget ${mb(MEMORY_BUDGET)})`,
    );
    assert.ok(growth.heap + growth.external < MEMORY_BUDGET, `heap+external grew by ${mb(growth.heap + growth.external)}`);
  });
});
