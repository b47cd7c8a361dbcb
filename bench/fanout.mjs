// @ts-check
// Case "fan-out": HealthMonitor.refresh of 20 providers x 5 interfaces against plain node:http
// servers (another process) that answer after 100 ms, interleaved with the refresh of one probe
// (one provider, its Consensus RPC only). Also counts the connections each refresh opens
// (undici 'connect' events of the client's pool; WebSocket probes open one socket each by design).
import { childMain, core, interleave, startChild, summary } from './lib.mjs';

const { HealthMonitor } = core('health/health');
const { HttpClient } = core('transport/http');

childMain(async ({ providers, delayMs, warmup, n }) => {
  const server = startChild('server.mjs', { kind: 'fanout', providers, delayMs });
  const { providers: all } = await server.ready;
  try {
    let requests = 0;
    const http = new HttpClient({ onResponse: () => requests++ });
    let connects = 0;
    const byOrigin = new Map();
    http.dispatcher.on('connect', (origin) => {
      connects++;
      byOrigin.set(String(origin), (byOrigin.get(String(origin)) ?? 0) + 1);
    });
    const monitor = new HealthMonitor({ http, timeoutMs: 10_000 });
    const oneHttp = new HttpClient();
    const one = new HealthMonitor({ http: oneHttp, timeoutMs: 10_000 });
    const single = [{ name: all[0].name, endpoints: { consensusRpc: all[0].endpoints.consensusRpc } }];
    const perRefresh = [];
    const requestsPerRefresh = [];
    const r = await interleave({
      ours: async () => {
        const before = connects;
        const sent = requests;
        await monitor.refresh(all);
        perRefresh.push(connects - before);
        requestsPerRefresh.push(requests - sent);
      },
      baseline: () => one.refresh(single),
      warmup,
      n,
    });
    const rows = monitor.assess(all);
    const unhealthy = rows.filter((x) => x.state !== 'healthy').map((x) => `${x.provider}/${x.iface}: ${x.state} ${x.reason ?? ''}`);
    const counts = await server.ask({ cmd: 'counts' });
    await http.close();
    await oneHttp.close();
    return {
      ours: summary(r.ours),
      baseline: summary(r.baseline),
      interfaces: rows.length,
      connectsFirstRefresh: perRefresh[0],
      connectsLaterRefreshes: perRefresh.slice(1).reduce((a, b) => a + b, 0),
      requestsLaterRefreshes: requestsPerRefresh.slice(1).reduce((a, b) => a + b, 0),
      refreshes: perRefresh.length,
      origins: new Set(
        all.flatMap((p) =>
          Object.values(p.endpoints)
            .filter((u) => u.startsWith('http'))
            .map((u) => new URL(u).origin),
        ),
      ).size,
      serverCounts: counts,
      unhealthy: unhealthy.slice(0, 5),
      perOrigin: [...byOrigin].slice(0, 4),
    };
  } finally {
    await server.stop();
  }
});
