// @ts-check
// Case "activation", in the real extension host: code-server + headless Chromium (scripts/vscode)
// run a copy of the manifest whose main is a shim (activation/shim.template.js) that requires the
// release bundle dist/extension.js and calls its activate(); the shim times both and records every
// socket opened. Loopback servers on the default provider's ports (8545, 26657, 1317) count what
// reaches them, with timestamps. Each launch is one sample (a fresh extension host).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { BENCH_DIR, ROOT, childMain, summary } from './lib.mjs';

const DEFAULT_PORTS = [8545, 26657, 1317];

/** Counting servers on the default ports; a port already taken is reported, not counted. */
async function countingServers() {
  const hits = [];
  const servers = [];
  const busy = [];
  for (const port of DEFAULT_PORTS) {
    const server = http.createServer((req, res) => {
      hits.push({ at: Date.now(), port, what: `${req.method} ${req.url}` });
      res.writeHead(503).end();
    });
    server.on('upgrade', (req, socket) => {
      hits.push({ at: Date.now(), port, what: `upgrade ${req.url}` });
      socket.destroy();
    });
    server.on('connection', () => hits.push({ at: Date.now(), port, what: 'connection' }));
    try {
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen({ host: '127.0.0.1', port }, () => resolve(undefined));
      });
      servers.push(server);
    } catch {
      busy.push(port);
    }
  }
  return { hits, busy, close: () => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))) };
}

function extensionCopy(bundle, activateAfterMs) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-activation-ext-'));
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  manifest.main = './shim.js';
  if (activateAfterMs) manifest.activationEvents = [];
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  // The placeholder is the argument of the one require(__BUNDLE__): the name also appears in comments.
  const template = fs.readFileSync(path.join(BENCH_DIR, 'activation', 'shim.template.js'), 'utf8');
  const placeholder = 'require(__BUNDLE__)';
  if (template.split(placeholder).length !== 2) throw new Error(`activation/shim.template.js must contain ${placeholder} exactly once`);
  const shim = template.replace(placeholder, () => `require(${JSON.stringify(bundle)})`);
  fs.writeFileSync(path.join(dir, 'shim.js'), shim);
  fs.symlinkSync(path.join(ROOT, 'media'), path.join(dir, 'media'));
  return dir;
}

// activateAfterMs: activated by the probe that long after the workbench started, instead of at
// onStartupFinished (when the workbench is still loading on the same cores).
childMain(async ({ launches, observeMs, bundle, activateAfterMs = 0 }) => {
  const { runInCodeServer } = await import(path.join(ROOT, 'scripts', 'vscode', 'runCodeServer.mjs'));
  const samples = [];
  const extDir = extensionCopy(bundle, activateAfterMs);
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-activation-ws-'));
  try {
    for (let i = 0; i < launches; i++) {
      const out = path.join(os.tmpdir(), `bench-activation-${process.pid}-${i}.json`);
      fs.rmSync(out, { force: true });
      const counting = await countingServers();
      const code = await runInCodeServer({
        extensionPath: extDir,
        testsPath: path.join(BENCH_DIR, 'activation', 'probe.js'),
        workspacePath: workspace,
        env: {
          CE_BENCH_ACTIVATION_OUT: out,
          CE_BENCH_OBSERVE_MS: String(observeMs),
          CE_BENCH_ACTIVATE_AFTER_MS: activateAfterMs ? String(activateAfterMs) : '',
        },
        timeoutMs: 180_000,
        onLine: () => undefined,
      });
      await counting.close();
      if (!fs.existsSync(out)) throw new Error(`activation run ${i + 1}: no result (exit code ${code})`);
      const r = JSON.parse(fs.readFileSync(out, 'utf8'));
      fs.rmSync(out, { force: true });
      samples.push({ ...r, serverHits: counting.hits, busyPorts: counting.busy });
    }
  } finally {
    fs.rmSync(extDir, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  const last = samples.at(-1);
  return {
    ownMs: summary(samples.map((s) => s.loadMs + s.activateCallMs)),
    toResolvedMs: summary(samples.map((s) => s.toResolvedMs)),
    hostGapMs: summary(samples.map((s) => s.hostGapMs)),
    loadMs: summary(samples.map((s) => s.loadMs)),
    activateCallMs: summary(samples.map((s) => s.activateCallMs)),
    ownCpuMs: summary(samples.map((s) => s.loadCpuMs + s.activateCpuMs)),
    socketsDuringActivation: samples.map((s) => s.connects.filter((c) => c.phase !== 'after activate').length),
    socketsAfter: last.connects.filter((c) => c.phase === 'after activate').map((c) => ({ atMs: Math.round(c.atMs - last.syncEndMs), target: c.target })),
    serverHits: last.serverHits.length,
    serverHitKinds: [...new Set(last.serverHits.map((h) => `${h.port} ${h.what}`))],
    busyPorts: last.busyPorts,
    host: last.host,
  };
});
