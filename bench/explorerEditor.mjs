// @ts-check
// Case "explorer in the editor": what a user waits for. In a real VS Code (code-server + headless
// Chromium, scripts/vscode) with the release build, a loopback node serves a 5,000-transaction block
// (bench/explorerBlock.mjs); the probe (explorerEditor/probe.js, in the extension host) times, from
// the command to its document shown, Look Up of the block (decoded) against today's raw document of
// the same block (chainEndpoints.consensusHttp.block), interleaved, every editor closed in between.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildBlock } from './explorerBlock.mjs';
import { BENCH_DIR, ROOT, childMain } from './lib.mjs';

childMain(async ({ count, warmup, n }) => {
  const { runInCodeServer } = await import(path.join(ROOT, 'scripts', 'vscode', 'runCodeServer.mjs'));
  const { block, blockResults } = await buildBlock(count);
  const server = http.createServer((req, res) => {
    // Only what the two commands ask for; anything else (health probes) is a quick 404.
    const body = req.url?.startsWith('/block_results') ? blockResults : req.url?.startsWith('/block?') ? block : undefined;
    if (!body) return void res.writeHead(404).end();
    res.setHeader('content-type', 'application/json');
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
  const url = `http://127.0.0.1:${/** @type {any} */ (server.address()).port}`;
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-explorer-ws-'));
  const out = path.join(os.tmpdir(), `bench-explorer-editor-${process.pid}.json`);
  try {
    const code = await runInCodeServer({
      extensionPath: ROOT,
      testsPath: path.join(BENCH_DIR, 'explorerEditor', 'probe.js'),
      workspacePath: workspace,
      env: { CE_BENCH_URL: url, CE_BENCH_OUT: out, CE_BENCH_WARMUP: String(warmup), CE_BENCH_N: String(n) },
      timeoutMs: 600_000,
      onLine: () => undefined,
    });
    if (!fs.existsSync(out)) throw new Error(`explorer in the editor: no result (exit code ${code})`);
    return JSON.parse(fs.readFileSync(out, 'utf8'));
  } finally {
    server.close();
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(out, { force: true });
  }
});
