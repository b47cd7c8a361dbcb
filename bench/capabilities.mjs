// @ts-check
// Probe cost of the capabilities (issue 19), standalone: `node bench/capabilities.mjs` (after
// `npm run compile:tests`). One provider of the devnet with all six interfaces on loopback:
// probeCapabilities() (ours) interleaved with one HealthMonitor.refresh of the same provider
// (baseline: what every health tick already costs), medians of 30 after 5 warm-ups; HTTP requests
// counted from HttpClient's onResponse (the WebSocket probes add one socket each). A second row
// for a node hiding `rpc_modules` (one call per EVM namespace).
import path from 'node:path';
import { OUT, core, interleave, require, summary } from './lib.mjs';

const { probeCapabilities } = core('health/capabilities');
const { HealthMonitor } = core('health/health');
const { HttpClient } = core('transport/http');
const { startDevnet } = require(path.join(OUT, 'test', 'devnet', 'devnet.js'));

const devnet = await startDevnet({ blockIntervalMs: 500, providers: [{ name: 'full' }, { name: 'hidden', capabilities: { rpcModules: false } }] });
try {
  for (const [i, label] of [
    [0, 'rpc_modules served'],
    [1, 'rpc_modules hidden'],
  ]) {
    const { name, ...endpoints } = devnet.providers[i];
    const provider = { name, endpoints };
    let requests = 0;
    const http = new HttpClient({ onResponse: () => requests++ });
    const baseHttp = new HttpClient();
    const monitor = new HealthMonitor({ http: baseHttp, timeoutMs: 5000, keepAliveMs: 3_600_000 });
    const perProbe = [];
    const r = await interleave({
      ours: async () => {
        const before = requests;
        await probeCapabilities(provider, { http, timeoutMs: 5000 });
        perProbe.push(requests - before);
      },
      baseline: () => monitor.refresh([provider]),
      warmup: 5,
      n: 30,
    });
    const a = summary(r.ours);
    const b = summary(r.baseline);
    console.log(
      `capabilities (${label}): median ${a.median.toFixed(2)} ms (p90 ${a.p90.toFixed(2)}), ${perProbe[0]} HTTP requests + 2 WebSocket subscribes; one health refresh of the same provider ${b.median.toFixed(2)} ms (p90 ${b.p90.toFixed(2)}); ratio ${(a.median / b.median).toFixed(2)}x`,
    );
    await http.close();
    await baseHttp.close();
  }
} finally {
  await devnet.stop();
}
