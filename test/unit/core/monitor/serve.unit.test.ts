// `chain-endpoints serve`: its arguments, exit 2 for a file that cannot be read or parsed (and for
// an address with credentials, naming the provider and never the password), SIGHUP reload (a bad
// file keeps the running configuration), and the built CLI stopping within 2 s of SIGTERM with
// exit 0 while a probe hangs.

import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net = require('node:net');
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runServe } from '../../../../src/core/monitor/serve';
import { parseDuration, parseListen, parseServeArgs } from '../../../../src/core/monitor/serveArgs';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { builtCli } from '../../helpers/builtCli';

interface Started {
  code: Promise<number>;
  url: Promise<string>;
  err: string[];
  abort: AbortController;
  reload: () => void;
}

function serve(argv: string[], cwd: string, env: Record<string, string> = {}): Started {
  const err: string[] = [];
  const abort = new AbortController();
  let reloadListener: (() => void) | undefined;
  let gotUrl!: (u: string) => void;
  const url = new Promise<string>((r) => (gotUrl = r));
  const code = runServe(argv, {
    cwd,
    env,
    out: () => undefined,
    err: (t) => err.push(t),
    signal: abort.signal,
    onReload: (l) => {
      reloadListener = l;
      return () => (reloadListener = undefined);
    },
    onListening: gotUrl,
  });
  return { code, url, err, abort, reload: () => reloadListener?.() };
}

describe('monitor: chain-endpoints serve', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let dir: string;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 200, providers: [{ name: 'one' }, { name: 'two' }] });
    dir = mkdtempSync(path.join(tmpdir(), 'serve-test-'));
    const [one, two] = devnet.providers;
    writeFileSync(path.join(dir, 'providers.json'), JSON.stringify([one, two]));
    writeFileSync(path.join(dir, 'one-only.json'), JSON.stringify([one]));
    mkdirSync(path.join(dir, 'queries', 'nested'), { recursive: true });
    writeFileSync(path.join(dir, 'queries', 'nested', 'ok.chainq'), 'request s = consensusHttp.status\nprovider: one\nassert success\n');
  });

  after(async () => {
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads its arguments, with defaults on loopback', () => {
    const o = parseServeArgs(['--providers', 'p.json', '--queries', 'a', '--queries=b']);
    assert.deepEqual([o.host, o.port, o.intervalMs, o.queries], ['127.0.0.1', 9464, 30_000, ['a', 'b']]);
    assert.deepEqual(parseListen('[::1]:0'), { host: '::1', port: 0 });
    assert.equal(parseDuration('--interval', '500ms'), 500);
    assert.equal(parseDuration('--interval', '2m'), 120_000);
    assert.throws(() => parseServeArgs(['--providers', 'p', '--interval', '10ms']), /at least 100ms/);
    assert.throws(() => parseServeArgs(['--providers', 'p', '--listen', '9464']), /HOST:PORT/);
    assert.throws(() => parseServeArgs(['--providres', 'p']), /unknown option --providres\. Did you mean "?--providers/i);
    assert.throws(() => parseServeArgs([]), /--providers FILE is required/);
  });

  it('exits 2 with a clear error for an unreadable providers file or query file', async () => {
    const missing = serve(['--providers', 'nope.json', '--listen', '127.0.0.1:0'], dir);
    assert.equal(await missing.code, 2);
    assert.match(missing.err.join(''), /nope\.json: no such file/);

    const noQuery = serve(['--providers', 'providers.json', '--queries', 'missing.chainq', '--listen', '127.0.0.1:0'], dir);
    assert.equal(await noQuery.code, 2);
    assert.match(noQuery.err.join(''), /missing\.chainq: no such file/);

    writeFileSync(path.join(dir, 'locked.chainq'), 'request s = consensusHttp.status\n');
    chmodSync(path.join(dir, 'locked.chainq'), 0o000);
    const locked = serve(['--providers', 'providers.json', '--queries', 'locked.chainq', '--listen', '127.0.0.1:0'], dir);
    const lockedCode = await locked.code;
    chmodSync(path.join(dir, 'locked.chainq'), 0o600);
    if (process.getuid?.() !== 0) {
      assert.equal(lockedCode, 2);
      assert.match(locked.err.join(''), /locked\.chainq: not readable/);
    }

    // (As root, permissions do not stop a read: a folder named as the providers file stands for an unreadable one.)
    const folder = serve(['--providers', 'queries', '--listen', '127.0.0.1:0'], dir);
    assert.equal(await folder.code, 2);
    assert.match(folder.err.join(''), /queries: is a folder, not a file/);
    mkdirSync(path.join(dir, 'empty'), { recursive: true });
    const empty = serve(['--providers', 'providers.json', '--queries', 'empty', '--listen', '127.0.0.1:0'], dir);
    assert.equal(await empty.code, 2);
    assert.match(empty.err.join(''), /empty: no \*\.chainq file/);

    writeFileSync(path.join(dir, 'broken.chainq'), 'request s = nosuch.operation\n');
    const broken = serve(['--providers', 'providers.json', '--queries', 'broken.chainq', '--listen', '127.0.0.1:0'], dir);
    assert.equal(await broken.code, 2);
    assert.match(broken.err.join(''), /broken\.chainq:1:\d+:/);

    writeFileSync(path.join(dir, 'bad.json'), '[{"name": "x", "evmRpc": ');
    const badJson = serve(['--providers', 'bad.json', '--listen', '127.0.0.1:0'], dir);
    assert.equal(await badJson.code, 2);
    assert.match(badJson.err.join(''), /bad\.json:1:\d+:/);
  });

  it('refuses an address with user:password@, naming the provider, never the password', async () => {
    writeFileSync(path.join(dir, 'creds.json'), JSON.stringify([{ name: 'leaky', evmRpc: 'http://alice:hunter2-pass@127.0.0.1:1/' }]));
    const s = serve(['--providers', 'creds.json', '--listen', '127.0.0.1:0'], dir);
    assert.equal(await s.code, 2);
    const text = s.err.join('');
    assert.match(text, /leaky/);
    assert.match(text, /credentials/);
    assert.ok(!text.includes('hunter2') && !text.includes('alice'), text);
  });

  it('serves, reloads on SIGHUP (a bad file keeps the running configuration), and stops on abort with 0', async () => {
    const providers = path.join(dir, 'live.json');
    writeFileSync(providers, JSON.stringify(devnet.providers));
    const s = serve(['--providers', 'live.json', '--queries', 'queries', '--listen', '127.0.0.1:0', '--interval', '200ms'], dir);
    const url = await Promise.race([s.url, s.code.then((c) => Promise.reject(new Error(`exited ${c}: ${s.err.join('')}`)))]);
    const until = async (pred: (t: string) => boolean) => {
      for (let i = 0; i < 100; i++) {
        const t = await (await fetch(`${url}/metrics`)).text();
        if (pred(t)) return t;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`metrics never matched:\n${await (await fetch(`${url}/metrics`)).text()}`);
    };
    await until((t) => t.includes('provider="two"') && /chain_endpoints_query_passed\{file="nested\/ok.chainq",request="s",provider="one"\} 1/.test(t));
    // A broken file: refused, the running configuration kept.
    writeFileSync(providers, '[{"name": ');
    s.reload();
    assert.match(s.err.join(''), /reload refused, keeping the running configuration: \S*live\.json:1:\d+/);
    assert.ok((await (await fetch(`${url}/metrics`)).text()).includes('provider="two"'));
    // A good one: provider "two" is gone.
    writeFileSync(providers, JSON.stringify([devnet.providers[0]]));
    s.reload();
    await until((t) => !t.includes('provider="two"') && t.includes('provider="one"'));
    const t0 = performance.now();
    s.abort.abort();
    assert.equal(await s.code, 0);
    assert.ok(performance.now() - t0 < 2000);
    await assert.rejects(fetch(`${url}/-/healthy`));
  });

  it('the built CLI stops within 2 s of SIGTERM with exit 0 while a probe hangs, and reloads on SIGHUP', async function () {
    this.timeout(120_000);
    const cli = builtCli();
    // A node that accepts and never answers: the probe is in flight when the signal comes.
    const sockets = new Set<net.Socket>();
    const hang = net.createServer((c) => void sockets.add(c.on('error', () => undefined)));
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    const hangUrl = `http://127.0.0.1:${(hang.address() as AddressInfo).port}`;
    writeFileSync(path.join(dir, 'hang.json'), JSON.stringify([{ name: 'hangs', evmRpc: hangUrl }, devnet.providers[0]]));
    const child = spawn(process.execPath, [cli, 'serve', '--providers', 'hang.json', '--listen', '127.0.0.1:0', '--interval', '1s', '--timeout', '30s'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
    try {
      for (let i = 0; i < 200 && !/serving http/.test(err); i++) await new Promise((r) => setTimeout(r, 50));
      const url = /serving (http:\/\/[^\s]+)\/metrics/.exec(err)?.[1];
      assert.ok(url, err);
      await new Promise((r) => setTimeout(r, 500)); // the hanging probe is in flight
      assert.equal((await fetch(`${url}/-/healthy`)).status, 200);
      child.kill('SIGHUP');
      for (let i = 0; i < 100 && !/reloaded/.test(err); i++) await new Promise((r) => setTimeout(r, 50));
      assert.match(err, /reloaded: 2 provider\(s\)/);
      const t0 = performance.now();
      child.kill('SIGTERM');
      const { code } = await exited;
      const ms = performance.now() - t0;
      assert.equal(code, 0, err);
      assert.ok(ms < 2000, `stopped in ${ms} ms`);
      assert.ok(!err.includes(hangUrl.replace('http://', 'http://x')) && !/http:\/\/127/.test(err.replace(url, '')), 'logs name hosts, not addresses');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      for (const c of sockets) c.destroy();
      await new Promise<void>((r) => hang.close(() => r()));
    }
  });
});
