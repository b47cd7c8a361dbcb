// @ts-check
// Case "genesis": a 256 MB genesis through genesis_chunked (16 MiB chunks, base64 in JSON) from the
// devnet (its own process) to a file on disk: execute(consensus.genesis) decodes every chunk into
// the file; the baseline is one `curl` fetching the same chunk URLs (one connection) into a file,
// without decoding. Two modes: 'time' (interleaved runs) and 'memory' (one run of ours only, in a
// fresh process: peak RSS growth).
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childMain, core, interleave, maxRss, startChild, summary } from './lib.mjs';

const { execute } = core('chain/execute');
const { HttpClient } = core('transport/http');
const { findOperation } = core('chain/operations');

childMain(async ({ mode, megabytes, chunkMegabytes, warmup, n, devnet }) => {
  const ownServer = !devnet;
  const server = ownServer
    ? startChild('server.mjs', { kind: 'devnet', blocks: 1, genesisAppStateBytes: megabytes * 1024 * 1024, genesisChunkBytes: chunkMegabytes * 1024 * 1024 })
    : undefined;
  const info = devnet ?? (await server.ready);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-genesis-'));
  try {
    const { name, ...endpoints } = info.providers[0];
    const provider = { name, endpoints };
    const chunks = Math.ceil(info.genesisBytes / (chunkMegabytes * 1024 * 1024));
    const http = new HttpClient();
    const opts = { http, timeoutMs: 600_000, maxBufferBytes: 20 * 1024 * 1024, spillDir: dir };
    const ours = async () => {
      const o = await execute(provider, findOperation('consensus.genesis'), {}, opts);
      if (o.error || !o.file) throw new Error(`genesis failed: ${o.error?.message}`);
      if (statSync(o.file).size !== info.genesisBytes) throw new Error('genesis file has the wrong size');
      rmSync(o.file);
    };
    if (mode === 'memory') {
      const rssBefore = process.memoryUsage().rss;
      await ours();
      return { rssBefore, peakRss: maxRss(), growth: maxRss() - rssBefore };
    }
    const urls = Array.from({ length: chunks }, (_, i) => `${endpoints.consensusHttp}/genesis_chunked?chunk=${i}`);
    const curlFile = path.join(dir, 'curl.out');
    let curlBytes = 0;
    const curl = () =>
      new Promise((resolve, reject) => {
        const fd = openSync(curlFile, 'w');
        const p = spawn('curl', ['-sS', '--fail', ...urls], { stdio: ['ignore', fd, 'inherit'] });
        p.on('error', reject);
        p.on('exit', (code) => {
          closeSync(fd);
          curlBytes = statSync(curlFile).size;
          rmSync(curlFile);
          if (code === 0) resolve();
          else reject(new Error(`curl exited with ${code}`));
        });
      });
    const r = await interleave({ ours, baseline: curl, warmup, n });
    await http.close();
    return { ours: summary(r.ours), baseline: summary(r.baseline), genesisBytes: info.genesisBytes, chunks, curlBytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server?.stop();
  }
});
