// Issue #38 on real nodes: `chain-endpoints serve` (the built CLI) over a CometBFT node, anvil and
// evmd, plus a provider whose port refuses connections, and a real Prometheus (Debian's binary,
// scripts/real/ensurePrometheus.cjs) scraping it every second. Prometheus' HTTP API shows
// chain_endpoints_up 1 for every interface of the live nodes and 0 for the refusing port; a query
// file that fails shows chain_endpoints_query_passed 0 (one that passes, 1); stopping anvil turns
// its series to 0 within two scrapes.

import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { builtCli } from '../unit/helpers/builtCli';
import { ensurePrometheus } from '../unit/helpers/prometheus';
import { EvmdNode } from './helpers/evmd';
import { AnvilNode, CometNode, freePort, listening, register, removeOnExit, terminate, waitFor } from './helpers/nodes';

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

describe('the Prometheus exporter on real nodes, scraped by a real Prometheus', function () {
  this.timeout(180_000);
  let comet: CometNode;
  let anvil: AnvilNode;
  let evmd: EvmdNode;
  let dir: string;
  let exporter: ChildProcess | undefined;
  let prometheus: ChildProcess | undefined;
  let promUrl: string;
  let exporterLog = '';

  async function query(q: string): Promise<Sample[]> {
    const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(q)}`, { signal: AbortSignal.timeout(5000) });
    const body = (await res.json()) as { status: string; data: { result: Sample[] } };
    assert.equal(body.status, 'success');
    return body.data.result;
  }

  before(async function () {
    this.timeout(300_000);
    const { prometheus: promBin } = ensurePrometheus();
    const cli = builtCli();
    comet = await CometNode.create();
    await comet.start();
    anvil = await AnvilNode.start();
    evmd = await EvmdNode.create();
    await evmd.start();
    await waitFor('the EVM WebSocket listening', () => listening(evmd.evmWs), 30_000);
    dir = mkdtempSync(path.join(tmpdir(), 'exporter-real-'));
    removeOnExit(dir);
    const refusing = await freePort();
    writeFileSync(
      path.join(dir, 'providers.json'),
      JSON.stringify([
        { name: 'cometbft', network: 'kvstore', consensusHttp: comet.http, consensusRpc: comet.http, consensusWs: comet.ws },
        { name: 'refusing', network: 'kvstore', consensusHttp: `http://127.0.0.1:${refusing}` },
        { name: 'anvil', network: 'anvil', evmRpc: anvil.url },
        { name: 'evmd', network: 'evmd', evmRpc: evmd.evmRpc, evmWs: evmd.evmWs, consensusHttp: evmd.cometHttp, consensusWs: evmd.cometWs, rest: evmd.rest },
      ]),
    );
    mkdirSync(path.join(dir, 'queries'));
    writeFileSync(path.join(dir, 'queries', 'passing.chainq'), 'request status = consensusHttp.status\nprovider: cometbft\nassert success\n');
    writeFileSync(path.join(dir, 'queries', 'failing.chainq'), 'request chain = evm.chainId\nprovider: evmd\nassert result == "0x1234"\n');
    const exporterPort = await freePort();
    exporter = spawn(
      process.execPath,
      [
        cli,
        'serve',
        '--providers',
        'providers.json',
        '--queries',
        'queries',
        '--listen',
        `127.0.0.1:${exporterPort}`,
        '--interval',
        '500ms',
        '--timeout',
        '2s',
      ],
      {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    register(exporter);
    exporter.stderr!.on('data', (d: Buffer) => (exporterLog = (exporterLog + d.toString()).slice(-20_000)));
    await waitFor('the exporter listening', () => listening(`http://127.0.0.1:${exporterPort}`), 20_000);

    const promPort = await freePort();
    writeFileSync(
      path.join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\nscrape_configs:\n  - job_name: chain-endpoints\n    static_configs:\n      - targets: ['127.0.0.1:${exporterPort}']\n`,
    );
    prometheus = spawn(
      promBin,
      [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${promPort}`],
      {
        cwd: dir,
        stdio: 'ignore',
      },
    );
    register(prometheus);
    promUrl = `http://127.0.0.1:${promPort}`;
    await waitFor('Prometheus ready', async () => ((await fetch(`${promUrl}/-/ready`).catch(() => undefined))?.ok ? true : undefined), 60_000, 250);
  });

  after(async () => {
    await terminate(prometheus);
    await terminate(exporter);
    await anvil?.stop();
    await comet?.dispose();
    await evmd?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows chain_endpoints_up 1 for every live interface and 0 for the refusing port, and the query files', async () => {
    const expected: Record<string, number> = {
      'cometbft consensusHttp': 1,
      'cometbft consensusRpc': 1,
      'cometbft consensusWs': 1,
      'refusing consensusHttp': 0,
      'anvil evmRpc': 1,
      'evmd evmRpc': 1,
      'evmd evmWs': 1,
      'evmd consensusHttp': 1,
      'evmd consensusWs': 1,
      'evmd rest': 1,
    };
    let seen: Record<string, number> = {};
    await waitFor(
      'the expected chain_endpoints_up in Prometheus',
      async () => {
        seen = Object.fromEntries((await query('chain_endpoints_up')).map((s) => [`${s.metric.provider} ${s.metric.interface}`, Number(s.value[1])]));
        return JSON.stringify(seen, Object.keys(expected).sort()) === JSON.stringify(expected, Object.keys(expected).sort()) ? true : undefined;
      },
      60_000,
      500,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\nseen: ${JSON.stringify(seen)}\nexporter log:\n${exporterLog}`);
    });
    console.log(`      chain_endpoints_up: ${JSON.stringify(seen)}`);
    const passed = await waitFor(
      'both query files run',
      async () => {
        const r = await query('chain_endpoints_query_passed');
        return r.length >= 2 ? r : undefined;
      },
      30_000,
      500,
    );
    const byFile = Object.fromEntries(passed.map((s) => [s.metric.file, Number(s.value[1])]));
    assert.deepEqual(byFile, { 'passing.chainq': 1, 'failing.chainq': 0 });
    // Real heights and the issue's other series are there for the live nodes.
    const heights = await query('chain_endpoints_height{provider="evmd"}');
    assert.ok(heights.length >= 4 && heights.every((s) => Number(s.value[1]) >= 1), JSON.stringify(heights));
    assert.ok((await query('chain_endpoints_request_duration_seconds_count{provider="anvil",method="eth_chainId"}')).length === 1);
    assert.ok((await query('chain_endpoints_errors_total{provider="refusing",kind="refused"} > 0')).length === 1);
    const caps = await query('chain_endpoints_capability{provider="evmd"}');
    assert.ok(
      caps.some((s) => s.metric.capability === 'txpool' && s.value[1] === '1'),
      JSON.stringify(caps.map((s) => s.metric.capability)),
    );
  });

  it('stopping a node turns its series to 0 within two scrapes', async () => {
    const stoppedAt = Date.now() / 1000;
    await anvil.stop();
    // The samples Prometheus stored since: the first 0 comes at the first or second scrape after the stop.
    const samples = await waitFor(
      'anvil evmRpc at 0',
      async () => {
        const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent('chain_endpoints_up{provider="anvil"}[30s]')}`);
        const body = (await res.json()) as { data: { result: { values: [number, string][] }[] } };
        const after = (body.data.result[0]?.values ?? []).filter(([t]) => t > stoppedAt);
        return after.some(([, v]) => v === '0') ? after : undefined;
      },
      20_000,
      250,
    );
    const firstZero = samples.findIndex(([, v]) => v === '0');
    console.log(`      anvil up after its stop: ${samples.map(([t, v]) => `${v}@+${(t - stoppedAt).toFixed(2)}s`).join(' ')}`);
    assert.ok(firstZero <= 1, `the first 0 came at scrape ${firstZero + 1} after the stop`);
  });
});
