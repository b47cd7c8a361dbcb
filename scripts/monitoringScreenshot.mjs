// The picture of docs/monitoring.md (docs/images/monitoring-prometheus.png): Prometheus' own graph
// page (Debian's Prometheus 2.42 and its classic web UI) over `chain-endpoints serve` probing the
// test devnet (test/devnet: simulated CometBFT, EVM and REST nodes in this process) with one
// provider 5 blocks behind and one whose port refuses connections, scraped every second.
// Nothing is drawn by hand: the picture is what Prometheus' page shows, taken by headless Chromium
// (playwright-core, /usr/bin/chromium or $CHROMIUM).
//
// Debian's binary reads its page templates and scripts from --web.local-assets (by default
// /usr/share/prometheus/web/, which an unpacked package does not have), and those scripts are
// symbolic links to Debian's libjs-* packages: unpack them all into one folder and give it here.
//   apt-get download prometheus libjs-bootstrap4 libjs-jquery libjs-jquery-hotkeys libjs-moment \
//     libjs-moment-timezone libjs-mustache libjs-popper.js libjs-rickshaw libjs-d3 \
//     libjs-eonasdan-bootstrap-datetimepicker fonts-glyphicons-halflings
//   for d in *.deb; do dpkg -x "$d" ROOT; done
//   npm run test:file -- serve   # compiles the devnet and the exporter into out/
//   node scripts/monitoringScreenshot.mjs ROOT [seconds of data, default 90]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.resolve(process.argv[2] ?? '');
const seconds = Number(process.argv[3] ?? 90);
const prometheusBin = path.join(root, 'usr/bin/prometheus');
const assets = path.join(root, 'usr/share/prometheus/web/');
if (!process.argv[2] || !fs.existsSync(prometheusBin) || !fs.existsSync(path.join(assets, 'templates/graph.html')))
  throw new Error('usage: node scripts/monitoringScreenshot.mjs ROOT (Debian prometheus and libjs-* unpacked into ROOT)');
// Paths computed, not literal: the scripts' type-check (tsconfig.scripts.json) would otherwise follow them into out/ and check the compiled JavaScript.
const compiled = (/** @type {string} */ rel) => require(path.join('..', 'out', rel));
const { startDevnet } = compiled('test/devnet/devnet.js');
const { runServe } = compiled('src/core/monitor/serve.js');

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'monitoring-shot-'));
const devnet = await startDevnet({ blockIntervalMs: 1000, providers: [{ name: 'alpha' }, { name: 'beta', lagBlocks: 5 }] });
const refused = await freePort();
const [alpha, beta] = devnet.providers;
fs.writeFileSync(
  path.join(dir, 'providers.json'),
  JSON.stringify([
    { ...alpha, network: 'Devnet' },
    { ...beta, network: 'Devnet' },
    { name: 'gamma', network: 'Devnet', evmRpc: `http://127.0.0.1:${refused}`, consensusHttp: `http://127.0.0.1:${refused}` },
  ]),
);
const abort = new AbortController();
let exporterUrl;
const served = runServe(['--providers', 'providers.json', '--listen', '127.0.0.1:0', '--interval', '1s'], {
  cwd: dir,
  env: {},
  out: () => undefined,
  err: (t) => process.stderr.write(t),
  signal: abort.signal,
  onListening: (u) => (exporterUrl = u),
});
while (!exporterUrl) await new Promise((r) => setTimeout(r, 50));

const promPort = await freePort();
fs.writeFileSync(
  path.join(dir, 'prometheus.yml'),
  `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: chain-endpoints\n    static_configs:\n      - targets: ['${new URL(exporterUrl).host}']\n`,
);
const prom = spawn(
  prometheusBin,
  [
    `--config.file=${path.join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${promPort}`,
    `--web.local-assets=${assets}`,
    `--web.console.templates=${path.join(root, 'etc/prometheus/consoles')}`,
    `--web.console.libraries=${path.join(root, 'etc/prometheus/console_libraries')}`,
  ],
  { stdio: ['ignore', 'ignore', 'pipe'] },
);
let promLog = '';
prom.stderr.on('data', (d) => (promLog = (promLog + d).slice(-4000)));
const promUrl = `http://127.0.0.1:${promPort}`;
try {
  process.stderr.write(`collecting ${seconds} s of data at ${promUrl}\n`);
  // Halfway through, beta stops: its series turn to 0.
  await new Promise((r) => setTimeout(r, (seconds * 1000) / 2));
  await devnet.stopProvider('beta');
  await new Promise((r) => setTimeout(r, (seconds * 1000) / 2));
  const panels = [
    'chain_endpoints_up',
    'chain_endpoints_lag_blocks{interface="consensusHttp"}',
    'histogram_quantile(0.9, sum by (le, provider, interface) (rate(chain_endpoints_request_duration_seconds_bucket[15s])))',
  ];
  const query = panels.map((e, i) => `g${i}.expr=${encodeURIComponent(e)}&g${i}.tab=0&g${i}.range_input=${seconds + 10}s`).join('&');
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${promUrl}/graph?${query}`, { waitUntil: 'networkidle' });
    await page.waitForSelector('.graph svg path', { state: 'attached', timeout: 15_000 });
    // The page's fixed navigation bar would be drawn over the middle of a full-page picture.
    await page.addStyleTag({ content: '.navbar { position: static !important; } body { padding-top: 0 !important; }' });
    await page.waitForTimeout(1500);
    const out = path.resolve('docs/images/monitoring-prometheus.png');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    await page.screenshot({ path: out, fullPage: true });
    process.stderr.write(`wrote ${out}\n`);
  } finally {
    await browser.close();
  }
} catch (err) {
  process.stderr.write(`${promLog}\n`);
  throw err;
} finally {
  prom.kill('SIGTERM');
  abort.abort();
  await served;
  await devnet.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
