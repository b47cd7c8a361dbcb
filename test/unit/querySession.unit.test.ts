// Preparing a query file (core/queries/session.ts): parsed and checked with one set of options, the
// diagnostics in one sorted list. The CLI prints exactly these before any request (and stops on an
// error); the editor shows the same list, checked with its runner's options.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseProviders } from '../../src/core/config/providers';
import { runCli } from '../../src/core/queries/cli';
import { prepareQueryFile } from '../../src/core/queries/session';

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
