// Part 4 of the hardening run: a genesis of more than 300 MB through genesis_chunked and a single
// 100 MB JSON answer reach the disk intact (SHA-256 checked) while the client process grows by
// less than 100 MB (measured in a child process with nothing else in it), and cancelling halfway
// stops the transfer at once and leaves no partial file behind.

import * as assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ClientJob, ClientReport } from '../helpers/largeBodyClient';
import { LargeBodyServer, SyntheticJson } from '../helpers/largeBodies';

const MiB = 1024 * 1024;
const GENESIS_BYTES = 300 * MiB + 12_345;
const CHUNK_BYTES = 16 * MiB; // what a node uses
const ANSWER_BYTES = 100 * MiB;
const MAX_GROWTH = 100 * MiB;
/** After a cancel: what may still leave the server (socket buffers on loopback are a few MB). */
const MAX_AFTER_ABORT = 16 * MiB;
const MAX_STOP_MS = 500;

function runClient(job: ClientJob): Promise<ClientReport> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, '../helpers/largeBodyClient.js'), [], {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m: ClientReport | { crash: string }) => ('crash' in m ? reject(new Error(m.crash)) : resolve(m)));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`client exited with ${code}`)));
    child.send(job);
  });
}

async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const piece of createReadStream(file, { highWaterMark: 4 * MiB })) h.update(piece as Buffer);
  return h.digest('hex');
}

const mb = (n: number) => (n / MiB).toFixed(1);

describe('hardening 4: large bodies go to disk intact, in bounded memory, and stop at once when cancelled', function () {
  this.timeout(120_000);
  let server: LargeBodyServer;
  let spillDir: string;
  const genesis = SyntheticJson.genesis(GENESIS_BYTES);
  const answer = SyntheticJson.answer(ANSWER_BYTES);

  before(async () => {
    server = await LargeBodyServer.start({ genesis, chunkBytes: CHUNK_BYTES, answer });
  });
  beforeEach(() => {
    spillDir = mkdtempSync(path.join(tmpdir(), 'ce-large-'));
    server.resetLog();
  });
  afterEach(() => rmSync(spillDir, { recursive: true, force: true }));
  after(async () => server.close());

  const genesisJob = (extra: Partial<ClientJob> = {}): ClientJob => ({
    op: 'consensus.genesis',
    args: {},
    base: server.url,
    iface: 'consensusHttp',
    spillDir,
    maxBufferBytes: 20 * MiB,
    timeoutMs: 60_000,
    ...extra,
  });
  const answerJob = (extra: Partial<ClientJob> = {}): ClientJob => ({
    op: 'consensusHttp.custom',
    args: { path: '/big.json' },
    base: server.url,
    iface: 'consensusHttp',
    spillDir,
    maxBufferBytes: 20 * MiB, // chainEndpoints.maxDocumentMegabytes default
    timeoutMs: 60_000,
    ...extra,
  });

  it(`a ${mb(GENESIS_BYTES)} MB genesis through genesis_chunked: intact on disk, growth < ${mb(MAX_GROWTH)} MB`, async () => {
    const expected = genesis.sha256();
    const r = await runClient(genesisJob());
    assert.equal(r.error, undefined, r.error?.message);
    const actual = await sha256File(r.file!);
    console.log(
      `      [large] genesis ${mb(GENESIS_BYTES)} MB in ${server.chunks} chunks: ${mb(r.bytes)} MB on disk in ${(r.elapsedMs / 1000).toFixed(1)} s, sha256 ${actual === expected ? 'matches' : 'DIFFERS'}; ` +
        `growth: rss ${mb(r.growth.rss)} MB, heap ${mb(r.growth.heapUsed)} MB, external ${mb(r.growth.external)} MB, arrayBuffers ${mb(r.growth.arrayBuffers)} MB`,
    );
    assert.equal(r.bytes, GENESIS_BYTES);
    assert.equal(actual, expected, 'genesis file hash');
    assert.ok(r.growth.rss < MAX_GROWTH, `rss grew ${mb(r.growth.rss)} MB`);
    assert.deepEqual(
      readdirSync(spillDir).filter((f) => f.endsWith('.partial')),
      [],
    );
  });

  it(`a single ${mb(ANSWER_BYTES)} MB JSON answer: intact on disk, growth < ${mb(MAX_GROWTH)} MB`, async () => {
    const expected = answer.sha256();
    const r = await runClient(answerJob());
    assert.equal(r.error, undefined, r.error?.message);
    const actual = await sha256File(r.file!);
    console.log(
      `      [large] answer ${mb(ANSWER_BYTES)} MB: ${mb(r.bytes)} MB on disk in ${(r.elapsedMs / 1000).toFixed(1)} s, sha256 ${actual === expected ? 'matches' : 'DIFFERS'}; ` +
        `growth: rss ${mb(r.growth.rss)} MB, heap ${mb(r.growth.heapUsed)} MB, external ${mb(r.growth.external)} MB, arrayBuffers ${mb(r.growth.arrayBuffers)} MB`,
    );
    assert.equal(r.bytes, ANSWER_BYTES);
    assert.equal(actual, expected, 'answer file hash');
    assert.ok(r.growth.rss < MAX_GROWTH, `rss grew ${mb(r.growth.rss)} MB`);
    assert.deepEqual(
      readdirSync(spillDir).filter((f) => f.endsWith('.partial')),
      [],
    );
  });

  for (const which of ['genesis', 'answer'] as const) {
    it(`cancelling the ${which} halfway stops the transfer at once and leaves no file`, async () => {
      const half = Math.floor((which === 'genesis' ? GENESIS_BYTES : ANSWER_BYTES) / 2);
      const r = await runClient(which === 'genesis' ? genesisJob({ abortAtBytes: half }) : answerJob({ abortAtBytes: half }));
      assert.ok(r.abortAt !== undefined, 'the client cancelled');
      // Let the server notice the closed socket.
      const deadline = Date.now() + 2_000;
      while (server.log.closedAt === undefined && Date.now() < deadline) await new Promise((res) => setTimeout(res, 10));
      const after = server.bytesAfter(r.abortAt!);
      const stopMs = (server.log.closedAt ?? Infinity) - r.abortAt!;
      console.log(
        `      [large] ${which} cancelled at ${mb(half)} MB: ${mb(after)} MB left the server after the cancel, socket closed ${stopMs} ms after it, execute() returned in ${r.returnedAfterAbortMs} ms (${r.error?.kind}: ${r.error?.message}); files left: ${r.filesAfter.length ? r.filesAfter.join(', ') : 'none'}`,
      );
      assert.equal(r.error?.kind, 'cancelled');
      assert.match(r.documentFirstLine, /^\/\/ ERROR: .*cancelled/);
      assert.ok(after < MAX_AFTER_ABORT, `${mb(after)} MB after the cancel`);
      assert.ok(stopMs <= MAX_STOP_MS, `socket closed ${stopMs} ms after the cancel`);
      assert.ok(r.returnedAfterAbortMs! <= MAX_STOP_MS, `execute() returned ${r.returnedAfterAbortMs} ms after the cancel`);
      assert.deepEqual(r.filesAfter, [], 'no file, partial or complete, after a cancel');
    });
  }
});
