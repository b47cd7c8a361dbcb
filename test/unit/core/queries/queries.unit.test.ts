// Query files (src/core/queries): the parser and its located diagnostics, the checks, the
// assertions' comparisons, and the CLI on every file of examples/ against the devnet (exit 0), a
// failing assertion (exit 1), a malformed file (exit 2 with line:col), secrets from the environment.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { compare, heightOf } from '../../../../src/core/queries/assert';
import { checkQueryFile } from '../../../../src/core/queries/check';
import { runCli, secretEnvName } from '../../../../src/core/queries/cli';
import { parseQueryFile } from '../../../../src/core/queries/parse';
import { runQueryFile } from '../../../../src/core/queries/run';
import { HttpClient } from '../../../../src/core/transport/http';
import type { Provider } from '../../../../src/core/config/providers';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { builtCli } from '../../helpers/builtCli';
import { REPO_ROOT } from '../../helpers/repoRoot';
import { readAccountForQuery } from '../../../../src/core/explorer/account/accountFields';
import { receiptRunner } from '../../../../src/core/explorer/receipt/queryRunner';

const ROOT = REPO_ROOT;
const EXAMPLES = path.join(ROOT, 'examples', 'workspace');

function messages(source: string): string[] {
  return parseQueryFile(source).diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`);
}

describe('query files: parser', () => {
  it('reads requests, arguments, providers, assertions and variables without diagnostics', () => {
    const f = parseQueryFile(
      [
        '# a comment',
        '@who = Local node',
        'request latest = consensusRpc.status',
        'provider: ${who}',
        'assert result.sync_info.latest_block_height > 10',
        '',
        'request older = consensusHttp.block',
        'height: {{latest.result.sync_info.latest_block_height - 10}}',
        'timeout: 5s',
        'assert status == 200',
        'assert latency < 2s',
        'request all = evmRpc eth_blockNumber',
        'provider: *',
        'assert heights within 2',
        'assert result matches /^0x/',
        "request sub = consensusWs subscribe tm.event='NewBlock'",
        'count: 2',
        'request page = rest GET /cosmos/base/tendermint/v1beta1/syncing',
        'assert result.syncing exists',
      ].join('\n'),
    );
    assert.deepEqual(f.diagnostics, []);
    assert.deepEqual(
      f.requests.map((r) => [r.name, r.op?.id, r.line]),
      [
        ['latest', 'consensusRpc.status', 3],
        ['older', 'consensusHttp.block', 7],
        ['all', 'evm.custom', 12],
        ['sub', 'consensusWs.subscribe', 16],
        ['page', 'rest.custom', 18],
      ],
    );
    assert.equal(f.requests[1].timeoutMs, 5000);
    assert.equal(f.requests[2].fixedArgs.method, 'eth_blockNumber');
    assert.equal(f.requests[4].fixedArgs.path, '/cosmos/base/tendermint/v1beta1/syncing');
    assert.equal(f.variables.get('who')?.text, 'Local node');
  });

  it("parses the query-files guide's example without a diagnostic", () => {
    const readme = readFileSync(path.join(ROOT, 'docs', 'query-files.md'), 'utf8');
    const at = readme.indexOf('## Query files');
    const start = readme.indexOf('```\n', at) + 4;
    const f = parseQueryFile(readme.slice(start, readme.indexOf('```', start)));
    assert.deepEqual(f.diagnostics, []);
    assert.equal(f.requests.length, 7);
  });

  it('locates every error by line and column', () => {
    assert.deepEqual(messages('request a = evm.nope'), [
      '1:13 Unknown operation "evm.nope": use an operation id such as consensusRpc.status, or "<interface> <method>".',
    ]);
    const bad = messages('request b = consensusHttp.block\n  height: twelve');
    assert.equal(bad.length, 1);
    assert.match(bad[0], /^2:11 /);
    assert.match(messages('request c = evm.blockNumber\nfoo: 1')[0], /^2:1 "foo" is not a parameter of evm.blockNumber/);
    assert.match(messages('request d = consensusHttp.block')[0], /^1:13 consensusHttp.block needs "height: …"/);
    assert.match(messages('request e = evm.sendRawTransaction\ntx: 0x02f86c01')[0], /confirm: broadcast/);
    assert.match(messages('request f = evm.blockNumber\nassert nonsense here')[0], /^2:8 A path starts with one of result/);
    assert.match(messages('request g = evm.blockNumber\nassert result matches /(/')[0], /^2:15 Bad regular expression/);
    assert.match(messages('request h = consensusHttp.block\nheight: {{oops')[0], /^2:9 "\{\{" is not closed/);
    assert.match(messages('stray line')[0], /^1:1 Expected "request <name> = <operation>"/);
    assert.match(messages('request x = evm.chainId\nrequest x = evm.chainId')[0], /^2:9 A request named "x" is already/);
  });

  it('checks providers, variables and references against the context', () => {
    const providers: Provider[] = [{ name: 'Local node', endpoints: { consensusRpc: 'http://127.0.0.1:1' } }];
    const f = parseQueryFile(
      [
        'request a = consensusRpc.status',
        'provider: Elsewhere',
        'request b = consensusHttp.block',
        'provider: Local node',
        'height: {{c.result.x}}',
        'request c = evm.chainId',
        'provider: ${nope}',
      ].join('\n'),
    );
    const found = checkQueryFile(f, { providers }).map((d) => `${d.line}:${d.col} ${d.message}`);
    assert.deepEqual(found, [
      '2:11 No provider named "Elsewhere". Configured providers: "Local node".',
      '4:11 Provider "Local node" has no consensusHttp address.',
      '5:9 Request "c" comes later in the file: a reference reads an earlier request.',
      '7:11 Variable "nope" is not defined: add "@nope = …" at the top of the file.',
    ]);
  });
});

describe('query files: comparisons', () => {
  it('compares integers as BigInt (decimal, 0x-hex), other numbers as numbers, text as text', () => {
    assert.equal(compare('18446744073709551617', '>', '18446744073709551616').passed, true);
    assert.equal(compare('0x10', '==', '16').passed, true);
    assert.equal(compare(1.5, '<', '2').passed, true);
    assert.equal(compare('abc', '==', 'abc').passed, true);
    assert.equal(compare('abc', '==', '"abc"').passed, true);
    assert.equal(compare({ a: 1 }, '==', '{"a":1}').passed, true);
    assert.equal(compare('abc', '<', '5').passed, false);
    assert.equal(compare(false, '==', 'false').passed, true);
    assert.equal(heightOf({ sync_info: { latest_block_height: '42' } }), 42n);
    assert.equal(heightOf('0x2a'), 42n);
  });
});

describe('query files: the CLI against the devnet', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let dir: string;
  let providersFile: string;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 100, realTxs: true, providers: [{ name: 'Local node' }, { name: 'Second', lagBlocks: 1 }] });
    dir = mkdtempSync(path.join(tmpdir(), 'ce-queries-'));
    providersFile = path.join(dir, 'settings.json');
    const entries = devnet.providers.map((p) => ({ ...p, ...(p.name === 'Second' ? { headers: { 'x-api-key': '${secret:apiKey}' } } : {}) }));
    // The settings' shape, with a comment, as in a workspace's .vscode/settings.json.
    writeFileSync(providersFile, `// the devnet\n{ "chainEndpoints.providers": ${JSON.stringify(entries, null, 2)}, }\n`);
    while (devnet.height() < 14n) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => {
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = async (args: string[], env: Record<string, string | undefined> = {}) => {
    let out = '';
    let err = '';
    const code = await runCli(['run', ...args, '--providers', providersFile], {
      cwd: ROOT,
      env: { [secretEnvName('Second', 'apiKey')]: 'sekret-value-123', ...env },
      out: (t) => (out += t),
      err: (t) => (err += t),
      // explorer.account (account.chainq): the explorer's reader, as src/cli.ts passes it.
      account: readAccountForQuery,
      receipt: receiptRunner,
    });
    return { code, out, err };
  };

  // contracts.chainq needs the devnet's fixture contracts (startDevnet({ realTxs: true })),
  // simulate.chainq also the devnet's "Local node v0.5" and account.chainq its "Pruned node": they
  // run in test/devnet/sampleWorkspace.unit.test.ts, with every provider `npm run devnet` serves.
  // Every other sample file runs here.
  const elsewhere = new Set(['contracts.chainq', 'simulate.chainq', 'account.chainq']);
  const samples = readdirSync(EXAMPLES).filter((f) => f.endsWith('.chainq') && !elsewhere.has(f));
  it('the sample workspace has its query files', () => assert.ok(samples.length >= 3, samples.join(', ')));
  for (const name of samples) {
    it(`examples/workspace/${name} passes (exit 0)`, async () => {
      const r = await cli([path.join('examples', 'workspace', name), '--provider', 'Local node']);
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(r.out, /PASSED: \d+ passed, 0 failed/);
    });
  }

  it('a failing assertion exits 1 and says what was found', async () => {
    const file = path.join(dir, 'failing.chainq');
    writeFileSync(file, 'request tip = evm.blockNumber\nprovider: Local node\nassert result < 3\n');
    const r = await cli([file]);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /✗ result < 3 — found "0x[0-9a-f]+", expected < 3/);
    assert.match(r.out, /FAILED: 0 passed, 1 failed/);
    const junit = await cli([file, '--reporter', 'junit']);
    assert.match(junit.out, /<failure message="found/);
    const tap = await cli([file, '--reporter', 'tap']);
    assert.match(tap.out, /^TAP version 13\n1\.\.1\nnot ok 1 /);
    const json = JSON.parse((await cli([file, '--reporter', 'json'])).out);
    assert.equal(json.passed, false);
  });

  it('a malformed file exits 2 naming file, line and column, before any request', async () => {
    const file = path.join(dir, 'broken.chainq');
    writeFileSync(file, 'request ok = consensusRpc.status\n\nrequest bad = consensusHttp.block\n  height: -4\n');
    const before = devnet.lastRequests('Local node').length;
    const r = await cli([file]);
    assert.equal(r.code, 2);
    assert.match(r.err, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:11: error: `));
    assert.equal(devnet.lastRequests('Local node').length, before);
    assert.equal((await cli(['--nope'])).code, 2);
    assert.match((await cli([file, '--provider', 'Nobody'])).err, /--provider: no provider named "Nobody"/);
    assert.equal((await cli(['x.chainq', '--reporter', 'html'])).code, 2);
  });

  it('a parse error in one request errors only that request, located; the others run (the editor runner)', async () => {
    const source = [
      'request ok = consensusRpc.status',
      'provider: Local node',
      '',
      'request bad = consensusHttp.block',
      'provider: Local node',
      '  height: -4',
      '',
      'request = nothing',
      'height: 3',
      '',
      'request ok2 = evm.blockNumber',
      'provider: Local node',
      'assert result matches /^0x/',
    ].join('\n');
    const file = parseQueryFile(source);
    // The lines after an unreadable request line belong to no request (not to "bad").
    assert.deepEqual(
      file.diagnostics.map((d) => `${d.line}:${d.col}`),
      ['6:11', '8:9'],
    );
    assert.equal(file.requests.find((r) => r.name === 'bad')?.endLine, 6);
    const http = new HttpClient();
    try {
      const run = await runQueryFile(file, {
        providers: devnet.providers.map(({ name, ...endpoints }) => ({ name, endpoints: endpoints as Provider['endpoints'] })),
        execute: { http, timeoutMs: 10_000, maxBufferBytes: 1 << 20, spillDir: dir, formatWhileReceiving: false },
        env: {},
        resolveProvider: (p) => p,
        secretValue: () => undefined,
      });
      assert.deepEqual(
        run.requests.map((r) => [r.request.name, r.error?.slice(0, 11)]),
        [
          ['ok', undefined],
          ['bad', 'line 6:11: '],
          ['ok2', undefined],
        ],
      );
      assert.ok(run.requests[2].runs[0].assertions.every((a) => a.passed));
    } finally {
      await http.close();
    }
  });

  it('"provider: *" stays within one network: that of @provider, else it says which networks it would mix', async () => {
    const twoNetworks = path.join(dir, 'two-networks.json');
    const local = devnet.providers[0];
    const entries = [
      ...devnet.providers.map((p) => ({ ...p, chainId: devnet.chainId })),
      { name: 'Mainnet', consensusRpc: local.consensusRpc, chainId: 'mainnet-1', network: 'Main' },
    ];
    writeFileSync(twoNetworks, JSON.stringify(entries));
    const file = path.join(dir, 'fan-out.chainq');
    writeFileSync(file, 'request s = consensusRpc.status\nprovider: *\nassert heights within 2\n');
    const run = async (extra: string[]) => {
      let out = '';
      let err = '';
      const code = await runCli(['run', file, '--reporter', 'json', '--providers', twoNetworks, ...extra], {
        cwd: ROOT,
        env: { [secretEnvName('Second', 'apiKey')]: 'x' },
        out: (t) => (out += t),
        err: (t) => (err += t),
      });
      return { code, out, err };
    };
    const within = await run(['--provider', 'Second']);
    assert.equal(within.code, 0, within.out + within.err);
    assert.deepEqual(
      JSON.parse(within.out)
        .files[0].requests[0].providers.map((p: { provider: string }) => p.provider)
        .sort(),
      ['Local node', 'Second'],
    );
    const main = await run(['--provider', 'Mainnet']);
    assert.deepEqual(
      JSON.parse(main.out).files[0].requests[0].providers.map((p: { provider: string }) => p.provider),
      ['Mainnet'],
    );
    const mixed = await run([]);
    assert.equal(mixed.code, 1, mixed.out + mixed.err);
    assert.match(mixed.out + mixed.err, /would compare 2 networks \(chain-endpoints-devnet-1, Main\)/);
  });

  it('dist/cli.js, the package bin, runs files with the same exit codes (after npm run build)', async function () {
    this.timeout(120_000);
    const cliJs = builtCli();
    assert.match(readFileSync(cliJs, 'utf8').split('\n')[0], /^#!\/usr\/bin\/env node/);
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        execFile(process.execPath, [cliJs, 'run', ...args, '--providers', providersFile], { cwd: ROOT }, (error, out, err) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, out, err }),
        );
      });
    const ok = await run([path.join('examples', 'workspace', 'tx-lookup.chainq'), '--provider', 'Local node', '--reporter', 'tap']);
    assert.equal(ok.code, 0, ok.out + ok.err);
    assert.match(ok.out, /^TAP version 13/);
    const broken = path.join(dir, 'broken-bin.chainq');
    writeFileSync(broken, 'request x = evm.blockNumber\nassert result <\n');
    const bad = await run([broken]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /broken-bin\.chainq:2:15: error: /);
  });

  it('fans out with * and resolves a provider secret from the environment, masked in the output', async () => {
    const file = path.join(dir, 'secret.chainq');
    writeFileSync(file, 'request s = consensusRpc.status\nprovider: *\nassert heights within 2\nassert result.node_info.network same\n');
    const ok = await cli([file, '--reporter', 'json']);
    assert.equal(ok.code, 0, ok.out + ok.err);
    assert.equal(JSON.parse(ok.out).files[0].requests[0].providers.length, 2);
    const missing = await cli([file], { [secretEnvName('Second', 'apiKey')]: undefined });
    assert.equal(missing.code, 1);
    assert.match(missing.out, /CHAIN_ENDPOINTS_SECRET_SECOND__APIKEY/);
    const echo = path.join(dir, 'echo.chainq');
    writeFileSync(echo, 'request e = evmRpc eth_nope\nprovider: Second\nparams: ["${secret:apiKey}"]\nassert success\n');
    const r = await cli([echo]);
    assert.doesNotMatch(r.out + r.err, /sekret-value-123/);
  });
});
