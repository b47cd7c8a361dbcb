// The CLI keeps its word (issue 27): exit 2 for a usage or parse error before any request is sent,
// --help on stdout with exit 0, plain sentences for a missing file or providers file, "did you
// mean" for a mistyped operation, key or option, JUnit names that show the request as sent; and
// the package built with `npm pack`, installed in another folder, runs `npx chain-endpoints run`.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../../src/core/queries/cli';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { builtCli } from '../../helpers/builtCli';
import { REPO_ROOT } from '../../helpers/repoRoot';

const ROOT = REPO_ROOT;

function exec(cmd: string, args: string[], cwd: string, timeout = 180_000): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, timeout, env: { ...process.env, npm_config_update_notifier: 'false' } }, (error, out, err) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

describe('the CLI keeps its word (issue 27)', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let dir: string;
  let providersFile: string;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 200, providers: [{ name: 'Local node' }, { name: 'Second' }] });
    dir = mkdtempSync(path.join(tmpdir(), 'ce-cli27-'));
    providersFile = path.join(dir, 'providers.json');
    writeFileSync(providersFile, JSON.stringify(devnet.providers));
    while (devnet.height() < 5n) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => {
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const requests = () => devnet.lastRequests('Local node').length + devnet.lastRequests('Second').length;
  const cli = async (argv: string[], cwd = dir) => {
    let out = '';
    let err = '';
    const code = await runCli(argv, { cwd, env: {}, out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err };
  };
  const file = (source: string) => {
    const f = path.join(dir, `f${Math.random().toString(36).slice(2)}.chainq`);
    writeFileSync(f, source);
    return f;
  };

  it('--help and -h print the usage on stdout and exit 0', async () => {
    for (const argv of [['--help'], ['-h'], ['run', '--help'], ['help']]) {
      const r = await cli(argv);
      assert.equal(r.code, 0, argv.join(' '));
      assert.match(r.out, /^usage: chain-endpoints run/);
      assert.match(r.out, /--allow-env NAME/);
      assert.match(r.out, /CHAIN_ENDPOINTS_SECRET_<P>__<NAME>/);
      assert.equal(r.err, '');
    }
  });

  it('an assertion ">> 5" is a parse error (exit 2), nothing sent', async () => {
    const before = requests();
    const r = await cli(['run', file('request a = evm.blockNumber\nprovider: Local node\nassert result >> 5\n'), '--providers', providersFile]);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, /:3:15: error: ">>" is not a comparison/);
    assert.equal(requests(), before);
  });

  it('two providers and no @provider: exit 2 before any request, naming the candidates', async () => {
    const before = requests();
    const r = await cli(['run', file('request a = consensusRpc.status\n\nrequest b = evm.blockNumber\n'), '--providers', providersFile]);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, /:1:13: error: Name a provider: 2 providers have a consensusRpc address \("Local node", "Second"\)/);
    assert.match(r.err, /:3:13: error: Name a provider/);
    assert.equal(requests(), before);
    // With a choice, it runs.
    assert.equal((await cli(['run', file('request a = consensusRpc.status\n'), '--providers', providersFile, '--provider', 'Second'])).code, 0);
  });

  it('no providers file and no --providers: exit 2, saying where it looked', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'ce-cli27-empty-'));
    try {
      const r = await cli(['run', file('request a = consensusRpc.status\n')], empty);
      assert.equal(r.code, 2, r.out + r.err);
      assert.match(r.err, /no providers file found at .*\.vscode[\\/]settings\.json; pass --providers/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('a missing query file or providers file: a plain sentence (no ENOENT), exit 2', async () => {
    const r = await cli(['run', 'nowhere.chainq', '--providers', providersFile]);
    assert.equal(r.code, 2);
    assert.match(r.err, /nowhere\.chainq: no such file/);
    assert.doesNotMatch(r.err, /ENOENT/);
    const p = await cli(['run', file('request a = consensusRpc.status\n'), '--providers', 'missing.json']);
    assert.equal(p.code, 2);
    assert.match(p.err, /missing\.json: no such file/);
    assert.doesNotMatch(p.err, /ENOENT/);
  });

  it('"did you mean" for a mistyped operation, key, option or command', async () => {
    const r = await cli([
      'run',
      file('request a = consensusRpc.stauts\nprovider: Local node\n\nrequest b = consensusHttp.block\nprovider: Local node\nheigth: 3\n'),
      '--providers',
      providersFile,
    ]);
    assert.equal(r.code, 2);
    assert.match(r.err, /Unknown operation "consensusRpc.stauts": Did you mean "consensusRpc.status"\?/);
    assert.match(r.err, /"heigth" is not a parameter of consensusHttp.block: Did you mean "height"\?/);
    const o = await cli(['run', 'x.chainq', '--reportr', 'tap']);
    assert.equal(o.code, 2);
    assert.match(o.err, /unknown option --reportr\. Did you mean "--reporter"\?/);
    assert.match((await cli(['rnu', 'x.chainq'])).err, /Did you mean "run"\?/);
  });

  it('JUnit test names show the request as sent (references resolved), not the raw {{…}}', async () => {
    const f = file(
      [
        'request latest = consensusRpc.status',
        'provider: Local node',
        '',
        'request older = consensusHttp.block',
        'provider: Local node',
        'height: {{latest.result.sync_info.latest_block_height - 2}}',
        'assert result.block.header.height == {{latest.result.sync_info.latest_block_height - 2}}',
      ].join('\n'),
    );
    const r = await cli(['run', f, '--providers', providersFile, '--reporter', 'junit']);
    assert.equal(r.code, 0, r.out + r.err);
    const names = [...r.out.matchAll(/<testcase [^>]*name="([^"]*)"/g)].map((m) => m[1]);
    const older = names.find((n) => n.startsWith('older'));
    assert.ok(older, names.join('\n'));
    assert.doesNotMatch(older, /\{\{/);
    assert.match(older, /^older \(consensusHttp\.block height=\d+\) on Local node: result\.block\.header\.height == \d+$/);
  });

  it('npm pack, installed in another folder: npx chain-endpoints run works against a local devnet', async function () {
    this.timeout(300_000);
    builtCli();
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'ce-ci-user-'));
    try {
      const packed = await exec('npm', ['pack', '--ignore-scripts', '--pack-destination', elsewhere], ROOT);
      assert.equal(packed.code, 0, packed.err);
      const tgz = packed.out.trim().split('\n').pop()!;
      writeFileSync(path.join(elsewhere, 'package.json'), '{ "name": "ci-user", "private": true }');
      const installed = await exec('npm', ['install', `./${tgz}`, '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--omit=dev'], elsewhere);
      assert.equal(installed.code, 0, installed.err);
      writeFileSync(path.join(elsewhere, 'p.json'), JSON.stringify([devnet.providers[0]]));
      writeFileSync(path.join(elsewhere, 'file.chainq'), 'request tip = consensusRpc.status\nassert result.sync_info.latest_block_height > 0\n');
      const run = await exec('npx', ['--no-install', 'chain-endpoints', 'run', 'file.chainq', '--providers', 'p.json', '--reporter', 'tap'], elsewhere);
      assert.equal(run.code, 0, run.out + run.err);
      assert.match(run.out, /^TAP version 13\n1\.\.1\nok 1 /);
      const help = await exec('npx', ['--no-install', 'chain-endpoints', '--help'], elsewhere);
      assert.equal(help.code, 0);
      assert.match(help.out, /^usage: chain-endpoints run/);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
