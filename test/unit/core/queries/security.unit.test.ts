// Query files and the CLI run what a repository says, and no more (issue 25): the environment only
// as allowed, secrets only to their provider and only from a --providers file, no value echoed by
// one provider sent to another, no broadcast without "confirm: broadcast", no regex or expansion
// that outlives its bounds, and reports that server text cannot forge. Each test is an attack.

import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli, secretEnvName } from '../../../../src/core/queries/cli';
import { parseQueryFile } from '../../../../src/core/queries/parse';
import { runQueryFile } from '../../../../src/core/queries/run';
import { stateChangingReason } from '../../../../src/core/chain/stateChanging';
import { findOperation } from '../../../../src/core/chain/operations';
import { HttpClient } from '../../../../src/core/transport/http';
import type { Provider } from '../../../../src/core/config/providers';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { type TestServer, json, startServer } from '../../helpers/httpServer';

const ECHO_KEY = 'echo-key-7f3a9c2b1d';
const SECOND_KEY = 'second-key-55e1c0ffee';

describe('query files: what a repository cannot make the CLI do (issue 25)', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let echo: TestServer;
  let dir: string;
  let providersFile: string;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 200, providers: [{ name: 'Local node' }, { name: 'Second' }] });
    // A hostile provider: echoes its own URL (with its key), and answers text made to forge reports.
    echo = await startServer((req, res) => {
      let method = '';
      let id: unknown = 1;
      try {
        ({ method, id } = JSON.parse(req.body) as { method: string; id: unknown });
      } catch {
        // a GET
      }
      const forged = 'n\n::error::forged\n\u001b[2J\u001b[31mred\r::warning::x';
      if (method === 'echo_url') return json(res, 200, { jsonrpc: '2.0', id, result: `http://echo.example${req.url}` });
      if (method === 'echo_b64')
        return json(res, 200, { jsonrpc: '2.0', id, result: Buffer.from(`user:${new URL(req.url, 'http://x').searchParams.get('key')}`).toString('base64') });
      if (method === 'big') return json(res, 200, { jsonrpc: '2.0', id, result: 'x'.repeat(3 * 1024 * 1024) });
      if (method === 'evil_text') return json(res, 200, { jsonrpc: '2.0', id, result: { chain: forged, s: `${'a'.repeat(40)}!` } });
      if (method === 'evil_error') return json(res, 200, { jsonrpc: '2.0', id, error: { code: -32000, message: forged } });
      if (method === 'status')
        return json(res, 200, {
          jsonrpc: '2.0',
          id,
          result: { node_info: { network: forged, moniker: forged }, sync_info: { latest_block_height: '5', catching_up: false } },
        });
      return json(res, 200, { jsonrpc: '2.0', id, result: 'ok' });
    });
    dir = mkdtempSync(path.join(tmpdir(), 'ce-qsec-'));
    providersFile = path.join(dir, 'providers.json');
    const entries = [
      ...devnet.providers.map((p) => ({ ...p, ...(p.name === 'Second' ? { headers: { 'x-api-key': '${secret:apiKey}' } } : {}) })),
      { name: 'Echo', evmRpc: `${echo.url}/?key=\${secret:k}`, consensusRpc: `${echo.url}/?key=\${secret:k}` },
    ];
    writeFileSync(providersFile, JSON.stringify(entries));
  });
  after(async () => {
    await devnet.stop();
    await echo.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({ [secretEnvName('Echo', 'k')]: ECHO_KEY, [secretEnvName('Second', 'apiKey')]: SECOND_KEY });
  const cli = async (source: string, args: string[] = [], extraEnv: Record<string, string | undefined> = {}, cwd = dir) => {
    const file = path.join(dir, `f${Math.random().toString(36).slice(2)}.chainq`);
    writeFileSync(file, source);
    let out = '';
    let err = '';
    const started = performance.now();
    const code = await runCli(['run', file, ...args], {
      cwd,
      env: { ...env(), ...extraEnv },
      out: (t) => (out += t),
      err: (t) => (err += t),
    });
    return { code, out, err, ms: performance.now() - started };
  };
  const sentTo = (name: string) =>
    devnet
      .lastRequests(name)
      .map((r) => `${r.method} ${r.path} ${r.body}`)
      .join('\n');

  describe('§1 the environment and secrets', () => {
    it('${env:NAME} is read only when allowed (--allow-env), else a located error saying how, before any request', async () => {
      const src = 'request a = evmRpc web3_clientVersion\nprovider: Local node\nparams: ["${env:DEPLOY_TOKEN}"]\n';
      const before = sentTo('Local node');
      const refused = await cli(src, ['--providers', providersFile], { DEPLOY_TOKEN: 'tok-123456789' });
      assert.equal(refused.code, 2, refused.out + refused.err);
      assert.match(refused.err, /:3:11: error: .*DEPLOY_TOKEN.*--allow-env DEPLOY_TOKEN/);
      assert.equal(sentTo('Local node'), before);
      const allowed = await cli(src, ['--providers', providersFile, '--allow-env', 'OTHER,DEPLOY_TOKEN'], { DEPLOY_TOKEN: 'tok-123456789' });
      assert.equal(allowed.code, 0, allowed.out + allowed.err);
      assert.match(sentTo('Local node'), /tok-123456789/);
      // A value read from the environment is masked in every report.
      const json = await cli(src, ['--providers', providersFile, '--allow-env', 'DEPLOY_TOKEN', '--reporter', 'json'], { DEPLOY_TOKEN: 'tok-123456789' });
      assert.doesNotMatch(json.out + json.err, /tok-123456789/);
    });

    it('CHAIN_ENDPOINTS_SECRET_* is never readable through ${env:}, allowed or not', async () => {
      const name = secretEnvName('Second', 'apiKey');
      const src = `request a = evmRpc web3_clientVersion\nprovider: Echo\nparams: ["\${env:${name}}"]\n`;
      const r = await cli(src, ['--providers', providersFile, '--allow-env', name]);
      assert.equal(r.code, 2, r.out + r.err);
      assert.match(r.err, /never readable/);
      assert.ok(!echo.requests.some((q) => q.body.includes(SECOND_KEY)));
    });

    it('${env:NAME:-default} falls back only when NAME is allowed and unset', async () => {
      const src = 'request a = evmRpc web3_clientVersion\nprovider: Local node\nparams: ["${env:MAYBE_SET:-fallback-777}"]\n';
      assert.equal((await cli(src, ['--providers', providersFile], { MAYBE_SET: 'x' })).code, 2);
      assert.equal((await cli(src, ['--providers', providersFile])).code, 2);
      const ok = await cli(src, ['--providers', providersFile, '--allow-env', 'MAYBE_SET']);
      assert.equal(ok.code, 0, ok.out + ok.err);
      assert.match(sentTo('Local node'), /fallback-777/);
    });

    it("secret variables cannot collide: eth's MAIN_KEY is not eth-main's KEY", () => {
      assert.notEqual(secretEnvName('eth', 'MAIN_KEY'), secretEnvName('eth-main', 'KEY'));
      assert.notEqual(secretEnvName('a_b', 'c'), secretEnvName('a', 'b_c'));
      assert.notEqual(secretEnvName('a b', 'c'), secretEnvName('a-b', 'c'));
      // Exhaustively over short names: distinct (provider case-insensitive, name) pairs, distinct variables.
      const chars = ['a', 'B', '_', '-', '.', ' ', '1'];
      const words = [''];
      for (let len = 0; len < 3; len++) for (const w of [...words]) if (w.length === len) for (const c of chars) words.push(w + c);
      const seen = new Map<string, string>();
      for (const p of words.filter((w) => w.trim() !== '')) {
        for (const n of words.filter((w) => /^[A-Za-z0-9_.-]+$/.test(w))) {
          const v = secretEnvName(p, n);
          assert.match(v, /^CHAIN_ENDPOINTS_SECRET_[A-Z0-9_]+$/);
          const pair = `${p.toLowerCase()}\u0000${n.toLowerCase()}`;
          const other = seen.get(v);
          assert.ok(other === undefined || other === pair, `${JSON.stringify(pair)} and ${JSON.stringify(other)} share ${v}`);
          seen.set(v, pair);
        }
      }
    });

    it("providers from the repository's own .vscode/settings.json get no secret: refused, naming --providers", async () => {
      const repo = mkdtempSync(path.join(tmpdir(), 'ce-qsec-repo-'));
      try {
        mkdirSync(path.join(repo, '.vscode'));
        const entries = [{ name: 'Echo', evmRpc: `${echo.url}/?key=\${secret:k}` }];
        writeFileSync(path.join(repo, '.vscode', 'settings.json'), JSON.stringify({ 'chainEndpoints.providers': entries }));
        const before = echo.requests.length;
        const r = await cli('request a = evmRpc web3_clientVersion\nprovider: Echo\n', [], {}, repo);
        assert.notEqual(r.code, 0, r.out + r.err);
        assert.match(r.out + r.err, /--providers/);
        assert.equal(echo.requests.length, before);
        // ${secret:NAME} in the file's own arguments, to a provider of the default file: refused too.
        const r2 = await cli('request a = evmRpc web3_clientVersion\nprovider: Echo\nparams: ["${secret:k}"]\n', [], {}, repo);
        assert.notEqual(r2.code, 0);
        assert.ok(!echo.requests.slice(before).some((q) => q.url.includes(ECHO_KEY) || q.body.includes(ECHO_KEY)));
        assert.equal(echo.requests.length, before);
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });

    it('a value a provider echoed (its URL with its key) is not sent to another provider', async () => {
      const src = [
        'request a = evmRpc echo_url',
        'provider: Echo',
        '',
        'request b = evmRpc web3_clientVersion',
        'provider: Local node',
        'params: ["{{a.result}}"]',
      ].join('\n');
      const r = await cli(src, ['--providers', providersFile]);
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(r.out, /secret of another provider/);
      assert.doesNotMatch(sentTo('Local node'), new RegExp(ECHO_KEY));
      assert.doesNotMatch(r.out + r.err, new RegExp(ECHO_KEY));
      // Encoded (base64, as in a Basic header) it is recognised too.
      const b64 = await cli(src.replace('echo_url', 'echo_b64'), ['--providers', providersFile]);
      assert.equal(b64.code, 1, b64.out + b64.err);
      assert.match(b64.out, /secret of another provider/);
      // To the provider it belongs to, it may go back.
      const own = await cli(src.replace('provider: Local node', 'provider: Echo'), ['--providers', providersFile]);
      assert.equal(own.code, 0, own.out + own.err);
    });
  });

  describe('§2 a broadcast is never a side effect', () => {
    const raw = [
      'evmRpc eth_sendRawTransaction\nparams: ["0x01"]',
      'evmRpc eth_sendTransaction\nparams: [{}]',
      'evmRpc ETH_SENDRAWTRANSACTION',
      'evmRpc personal_unlockAccount',
      'evmRpc eth_signTypedData_v4',
      'evmRpc eth_sign',
      'evmRpc miner_start',
      'evmRpc admin_addPeer',
      'evmRpc debug_setHead\nparams: ["0x1"]',
      'evmRpc evm_mine',
      'evmRpc anvil_setBalance',
      'consensusRpc broadcast_tx_sync\nparams: {"tx":"AQ=="}',
      'consensusRpc broadcast_tx_async',
      'consensusRpc broadcast_tx_commit',
      'consensusRpc unsafe_flush_mempool',
      'consensusRpc dial_peers',
      'consensusHttp GET /broadcast_tx_commit?tx=0x00',
      'consensusHttp GET /%62roadcast_tx_async?tx=0x00',
      'consensusHttp GET //./broadcast_tx_sync?tx=0x00',
      'consensusWs broadcast_tx_sync',
      'evm.custom\nmethod: eth_sendRawTransaction',
      'consensusRpc.custom\nmethod: broadcast_tx_commit',
    ];
    for (const target of raw) {
      it(`"${target.split('\n')[0]}" needs "confirm: broadcast": a located parse error, nothing sent`, async () => {
        const before = sentTo('Local node');
        const r = await cli(`request tx = ${target}\nprovider: Local node\n`, ['--providers', providersFile]);
        assert.equal(r.code, 2, r.out + r.err);
        assert.match(r.err, /:1:\d+: error: .*confirm: broadcast/);
        assert.equal(sentTo('Local node'), before);
      });
    }

    it('a method chosen by a variable is checked when it is known: not sent without confirmation', async () => {
      const before = sentTo('Local node');
      const r = await cli('@m = eth_sendRawTransaction\nrequest tx = evm.custom\nprovider: Local node\nmethod: ${m}\nparams: ["0x01"]\n', [
        '--providers',
        providersFile,
      ]);
      assert.notEqual(r.code, 0);
      assert.match(r.out + r.err, /confirm: broadcast/);
      assert.equal(sentTo('Local node'), before);
    });

    it('with "confirm: broadcast" it is sent; in the editor the same modal as the catalogue asks first', async () => {
      const ok = await cli('request tx = consensusHttp GET /broadcast_tx_sync?tx=0x00\nprovider: Local node\nconfirm: broadcast\nassert status exists\n', [
        '--providers',
        providersFile,
      ]);
      assert.match(sentTo('Local node'), /broadcast_tx_sync/);
      assert.ok(ok.code === 0 || ok.code === 1, ok.err);
      const file = parseQueryFile('request tx = evmRpc eth_sendRawTransaction\nprovider: Local node\nconfirm: broadcast\nparams: ["0x02"]\n');
      assert.deepEqual(file.diagnostics, []);
      const asked: string[] = [];
      const http = new HttpClient();
      const before = sentTo('Local node');
      try {
        const run = await runQueryFile(file, {
          providers: devnet.providers.map(({ name, ...endpoints }) => ({ name, endpoints: endpoints as Provider['endpoints'] })),
          execute: { http, timeoutMs: 5000, maxBufferBytes: 1 << 20, spillDir: dir },
          env: {},
          allowEnv: new Set(),
          resolveProvider: (p) => p,
          secretValue: () => undefined,
          confirmBroadcast: async (r, p, d) => {
            asked.push(`${r.name} ${p.name} ${d.body ?? ''}`);
            return false;
          },
        });
        assert.equal(asked.length, 1);
        assert.match(asked[0], /eth_sendRawTransaction/);
        assert.match(run.requests[0].runs[0].record.error ?? '', /not confirmed/);
        assert.equal(sentTo('Local node'), before);
      } finally {
        await http.close();
      }
    });

    it('the one list in core: reads stay reads', () => {
      const evm = findOperation('evm.custom')!;
      const http = findOperation('consensusHttp.custom')!;
      for (const m of ['eth_blockNumber', 'eth_call', 'eth_getBalance', 'eth_estimateGas', 'debug_traceTransaction', 'txpool_status']) {
        assert.equal(stateChangingReason(evm, { method: m }), undefined, m);
      }
      for (const p of ['/status', '/block?height=5', '/tx_search?query="x"']) assert.equal(stateChangingReason(http, { path: p }), undefined, p);
      assert.ok(stateChangingReason(http, { path: '/rpc/broadcast_evidence?evidence=x' }));
    });
  });

  describe('§3 nothing runs longer than its bounds', () => {
    it('a catastrophic regex against a 40-character answer ends within the request timeout', async () => {
      const src = 'request e = evmRpc evil_text\nprovider: Echo\ntimeout: 1s\nassert result.s matches /^(a|a)*$/\n';
      const r = await cli(src, ['--providers', providersFile]);
      assert.equal(r.code, 1, r.out + r.err);
      assert.ok(r.ms < 4000, `took ${Math.round(r.ms)} ms`);
      assert.match(r.out, /regular expression/);
      // An ordinary one still matches.
      const ok = await cli('request e = evmRpc evil_text\nprovider: Echo\nassert result.s matches /^a+!$/\n', ['--providers', providersFile]);
      assert.equal(ok.code, 0, ok.out + ok.err);
    });

    it('variables expanding each other 10x, 8 deep (a 700-byte file): a located error, fast, memory bounded', async () => {
      const lines = ['@v0 = xxxxxxxxxx'];
      for (let i = 1; i <= 8; i++) lines.push(`@v${i} = ${`\${v${i - 1}}`.repeat(10)}`);
      lines.push('request a = evmRpc web3_clientVersion', 'provider: Local node', 'params: ["${v8}"]');
      const src = lines.join('\n') + '\n';
      assert.ok(src.length < 800, String(src.length));
      const before = sentTo('Local node');
      const heap = process.memoryUsage().heapUsed;
      const r = await cli(src, ['--providers', providersFile]);
      const grew = process.memoryUsage().heapUsed - heap;
      assert.equal(r.code, 2, r.out + r.err);
      assert.match(r.err, /:\d+:\d+: error: .*(larger|too long)/);
      assert.ok(r.ms < 1000, `took ${Math.round(r.ms)} ms`);
      assert.ok(grew < 64 * 1024 * 1024, `heap grew ${grew}`);
      assert.equal(sentTo('Local node'), before);
    });
  });

  it('§3 the CLI caps an answer (default 64 MB; --max-download-mb N)', async () => {
    const src = 'request b = evmRpc big\nprovider: Echo\n';
    const ok = await cli(src, ['--providers', providersFile]);
    assert.equal(ok.code, 0, ok.out + ok.err);
    const capped = await cli(src, ['--providers', providersFile, '--max-download-mb', '1']);
    assert.equal(capped.code, 1, capped.out + capped.err);
    assert.match(capped.out, /larger than 1(\.0)? MB/);
    assert.equal((await cli(src, ['--providers', providersFile, '--max-download-mb', '0'])).code, 2);
  });

  describe('§4 server text cannot forge a report', () => {
    for (const reporter of ['text', 'tap', 'junit', 'json']) {
      it(`${reporter}: every server string is one line without control characters`, async () => {
        const src = [
          'request e = evmRpc evil_text',
          'provider: Echo',
          'assert result.chain == "x"',
          '',
          'request f = evmRpc evil_error',
          'provider: Echo',
          '',
          'request g = evmRpc evil_text',
          'provider: Echo',
          'assert result.chain matches /^z/',
          '',
          'request h = consensusRpc.status',
          'provider: Echo',
          'assert result.node_info.network == "x"',
        ].join('\n');
        const r = await cli(src, ['--providers', providersFile, '--reporter', reporter]);
        assert.equal(r.code, 1, r.err);
        for (const line of (r.out + r.err).split('\n')) {
          assert.doesNotMatch(line, /^\s*::(error|warning)::/, line);
          assert.doesNotMatch(line, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, JSON.stringify(line));
        }
      });
    }
  });
});
