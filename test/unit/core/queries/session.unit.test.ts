// Preparing a query file (core/queries/session.ts): parsed and checked with one set of options, the
// diagnostics in one sorted list. The CLI prints exactly these before any request (and stops on an
// error); the editor shows the same list, checked with its runner's options.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseProviders } from '../../../../src/core/config/providers';
import { HttpClient } from '../../../../src/core/transport/http';
import { runCli } from '../../../../src/core/queries/cli';
import { type QueryPolicy, prepareRun, runPrepared, stopText } from '../../../../src/core/queries/pipeline';
import type { RunContext } from '../../../../src/core/queries/run';
import { prepareQueryFile } from '../../../../src/core/queries/session';

/** As in settings.json. */
const entries = [
  { name: 'One', consensusRpc: 'http://127.0.0.1:1' },
  { name: 'Two', consensusRpc: 'http://127.0.0.1:2' },
];
const providers = parseProviders(entries).providers;

const SOURCE = [
  'request a = consensusRpc.status',
  'provider: Nobody',
  'assert result.x == ${env:SECRET_THING}',
  'request b = consensus.block',
  'height: {{zzz.result}}',
  'provider: One',
  'assert bogus exists',
  '',
].join('\n');

describe('query files: prepared once, for the CLI and the editor', () => {
  it('the parser’s and the checks’ diagnostics, in one list by line and column', () => {
    const prepared = prepareQueryFile(SOURCE, { providers, allowEnv: new Set(), envHint: (n) => `allow ${n}` });
    const shown = prepared.diagnostics.map((d) => `${d.line}:${d.col} ${d.severity}`);
    assert.deepEqual(shown, ['2:11 error', '3:20 error', '5:9 error', '7:8 error']);
    assert.match(prepared.diagnostics[0].message, /No provider named "Nobody"/);
    assert.match(prepared.diagnostics[1].message, /SECRET_THING.*allow SECRET_THING/);
    assert.match(prepared.diagnostics[2].message, /No request named "zzz"/);
    assert.match(prepared.diagnostics[3].message, /A path starts with one of/);
    assert.equal(prepared.hasErrors, true);
    assert.equal(prepareQueryFile('request a = consensusRpc.status\nprovider: One\n', { providers }).hasErrors, false);
  });

  it('the options decide: without allowEnv an unset variable is a warning, not an error', () => {
    const prepared = prepareQueryFile('request a = consensusRpc.status\nprovider: One\nassert result.x == ${env:UNSET_ONE}\n', { providers, env: {} });
    assert.deepEqual(
      prepared.diagnostics.map((d) => d.severity),
      ['warning'],
    );
    assert.equal(prepared.hasErrors, false);
  });

  it('the CLI prints exactly the prepared diagnostics and runs nothing (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ce-session-'));
    try {
      writeFileSync(join(dir, 'p.json'), JSON.stringify(entries));
      writeFileSync(join(dir, 'f.chainq'), SOURCE);
      let out = '';
      let err = '';
      const code = await runCli(['run', 'f.chainq', '--providers', 'p.json'], { cwd: dir, env: {}, out: (t) => (out += t), err: (t) => (err += t) });
      assert.equal(code, 2);
      assert.equal(out, '');
      const expected = prepareQueryFile(SOURCE, { providers, allowEnv: new Set(), envHint: (n) => `pass --allow-env ${n} to let the file read it` });
      assert.equal(err, expected.diagnostics.map((d) => `f.chainq:${d.line}:${d.col}: ${d.severity}: ${d.message}\n`).join(''));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('query files: the one run pipeline (core/queries/pipeline.ts)', () => {
  const policy: QueryPolicy = { providers, env: {}, allowEnv: new Set(), envHint: (n) => `allow ${n}` };
  const http = new HttpClient({ userAgent: 'pipeline-test' });
  after(() => http.close());
  /** A run context that records every provider the run resolves (what would reach the wire). */
  const recording = () => {
    const resolved: string[] = [];
    const ctx: Omit<RunContext, keyof QueryPolicy> = {
      execute: { http, timeoutMs: 2000, maxBufferBytes: 1 << 20, formatWhileReceiving: false },
      secretValue: () => undefined,
      resolveProvider: (p) => {
        resolved.push(p.name);
        return p;
      },
    };
    return { ctx, resolved };
  };

  it('a check error in any file stops the run: the first error named file:line:col, nothing resolved or sent', async () => {
    const prepared = prepareRun(
      [
        { name: 'good.chainq', source: 'request a = consensusRpc.status\nprovider: One\n' },
        { name: 'bad.chainq', source: SOURCE },
      ],
      policy,
    );
    assert.equal(prepared.files.length, 2);
    assert.equal(prepared.files[0].hasErrors, false);
    assert.deepEqual(prepared.stop && { file: prepared.stop.file, line: prepared.stop.diagnostic.line, col: prepared.stop.diagnostic.col }, {
      file: 'bad.chainq',
      line: 2,
      col: 11,
    });
    assert.match(stopText(prepared.stop!), /^bad\.chainq:2:11: No provider named "Nobody"/);
    const { ctx, resolved } = recording();
    const result = await runPrepared(prepared, ctx);
    assert.deepEqual(resolved, [], 'a provider was resolved for a run that stopped');
    assert.deepEqual(result.reports, []);
    assert.equal(result.passed, false);
  });

  it('the checks and the run read one policy: an env name the policy refuses is an error before the run', () => {
    const source = 'request a = consensusRpc.status\nprovider: One\nassert result.x == ${env:SOME_NAME}\n';
    assert.ok(prepareRun([{ name: 'f', source }], policy).stop, 'not refused by the checks');
    assert.equal(prepareRun([{ name: 'f', source }], { ...policy, env: { SOME_NAME: 'x' }, allowEnv: new Set(['SOME_NAME']) }).stop, undefined);
  });

  it('a file without errors runs every request under the policy: the reports, the counts and the verdict', async () => {
    const prepared = prepareRun(
      [{ name: 'f.chainq', source: 'request a = consensusRpc.status\nprovider: One\nrequest b = consensusRpc.status\nprovider: Two\n' }],
      policy,
    );
    assert.equal(prepared.stop, undefined);
    const { ctx, resolved } = recording();
    // Ports 1 and 2 on loopback refuse: each request fails, and says so.
    const result = await runPrepared(prepared, ctx);
    assert.deepEqual(resolved, ['One', 'Two']);
    assert.equal(result.reports.length, 1);
    assert.equal(result.reports[0].file, 'f.chainq');
    assert.deepEqual(
      result.reports[0].run.requests.map((r) => r.request.name),
      ['a', 'b'],
    );
    assert.deepEqual(result.counts, { passed: 0, failed: 2 });
    assert.equal(result.passed, false);
  });
});
