// Issue 14, part 4: the smaller holes. The copied curl and websocat lines give the program exactly
// the intended arguments (and message) in bash, zsh, dash and fish, run for real with stand-ins
// earlier in PATH, over hostile values; server text in Markdown tooltips is escaped and bounded;
// CSV cells that a spreadsheet would run as formulas are neutralised; an untrusted workspace
// cannot raise the size and time limits; undici is at a release with the published fixes.

import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { toShellCommand } from '../../../src/core/documents/curl';
import { csvCell } from '../../../src/core/health/healthExport';
import { limitValue } from '../../../src/core/base/limits';
import { escapeMarkdown } from '../../../src/core/documents/markdown';
import { masker } from '../../../src/core/secrets/mask';

const SHELLS = ['bash', 'zsh', 'dash', 'fish'];
const root = path.resolve(__dirname, '../../../..');

describe('issue 14 / 4: copied commands, tooltips, CSV, Restricted Mode', function () {
  this.timeout(60_000);
  let dir: string;
  let marker: string;
  before(() => {
    masker.set([]);
    dir = mkdtempSync(path.join(tmpdir(), 'ce-shells-'));
    marker = path.join(dir, 'pwned');
    // Stand-ins: print their arguments (and, for websocat, what came on stdin) as JSON.
    for (const name of ['curl', 'websocat']) {
      const f = path.join(dir, name);
      writeFileSync(
        f,
        `#!${process.execPath}\nconst stdin = ${name === 'websocat' ? "require('fs').readFileSync(0, 'utf8')" : 'null'};\nprocess.stdout.write(JSON.stringify({ args: process.argv.slice(2), stdin }) + '\\n');\n`,
      );
      chmodSync(f, 0o755);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const hostile = (m: string) => [
    `\\'; touch ${m} #`,
    `'; touch ${m} #`,
    `"; touch ${m} #`,
    `$(touch ${m})`,
    '`touch ' + m + '`',
    'back\\\\slash\\ and trailing\\',
    "it's \\'quoted\\' \\\\' end",
    'line one\nline two\r\n',
    '!! !$ %s %n %% ${HOME} ~ * ? [a] {a,b} ; & | < > ( )',
    'ünïcødé ✓ 鍵 \u{1F511}',
    '',
  ];

  it('each shell is installed (the test runs the line in each: a missing shell is a failure, not a skip)', () => {
    for (const sh of SHELLS) {
      const r = spawnSync('sh', ['-c', `command -v ${sh}`], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${sh} is not installed: apt-get install -y zsh fish dash (.ci/run installs them)`);
    }
  });

  for (const sh of SHELLS) {
    it(`${sh}: curl and websocat get exactly the intended arguments and message`, () => {
      const expected: { args: string[]; stdin: string | null; value: string }[] = [];
      const lines: string[] = [];
      for (const value of hostile(marker)) {
        const headers = { 'x-evil': value };
        const body = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: [value], id: 1 }) + value;
        const cases: [Parameters<typeof toShellCommand>[0], string[], string | null][] = [
          [{ method: 'GET', url: 'http://127.0.0.1:9/a' }, ['-sS', '-H', `x-evil: ${value}`, 'http://127.0.0.1:9/a'], null],
          [
            { method: 'POST', url: 'http://127.0.0.1:9/', body },
            ['-sS', '-X', 'POST', 'http://127.0.0.1:9/', '-H', 'Content-Type: application/json', '-H', `x-evil: ${value}`, '--data-raw', body],
            null,
          ],
          [{ method: 'WS', url: 'ws://127.0.0.1:9/websocket', body }, ['-n1', '-H', `x-evil: ${value}`, 'ws://127.0.0.1:9/websocket'], body + '\n'],
        ];
        for (const [req, args, stdin] of cases) {
          lines.push(toShellCommand(req, headers, { reveal: true }));
          expected.push({ args, stdin, value });
        }
      }
      // Every copied line, one after the other, as if pasted in turn.
      const out = execFileSync(sh, ['-c', lines.join('\n')], { env: { ...process.env, PATH: `${dir}:${process.env.PATH}` }, encoding: 'utf8' });
      const got = out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { args: string[]; stdin: string | null });
      assert.equal(got.length, expected.length, `${sh}: ${got.length} of ${expected.length} commands ran as one each`);
      expected.forEach((e, i) => {
        assert.deepEqual(got[i].args, e.args, `${sh}: ${JSON.stringify(e.value)}\n${lines[i]}`);
        assert.equal(got[i].stdin, e.stdin, `${sh}: the message as sent`);
      });
      assert.ok(!existsSync(marker), `${sh} ran a command hidden in a value`);
    });
  }

  it('server text in a Markdown tooltip is escaped and bounded', () => {
    const hostileText =
      '[click](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D) ![x](https://t/x.png) <img src=x> | a | b |\n# big **bold** `code`';
    const md = escapeMarkdown(hostileText);
    assert.ok(!/(^|[^\\])[[\]()<>|`*#!]/.test(md), md);
    assert.equal(md.replace(/\\(.)/g, '$1'), hostileText.replace(/\s+/g, ' '), 'the same text, only escaped');
    assert.ok(escapeMarkdown('x'.repeat(100_000)).length < 400, 'bounded');
  });

  it('CSV cells a spreadsheet would read as formulas are neutralised', () => {
    for (const cell of ['=HYPERLINK("http://x")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx']) {
      const out = csvCell(cell);
      assert.ok(/^"?'/.test(out), `${JSON.stringify(cell)} -> ${out}`);
    }
    assert.equal(csvCell('cosmoshub-4'), 'cosmoshub-4');
    assert.equal(csvCell(12), '12');
  });

  it('Restricted Mode: an untrusted workspace cannot raise the size and time limits', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
      contributes: { configuration: { properties: Record<string, { default?: unknown }> } | { properties: Record<string, { default?: unknown }> }[] };
      dependencies: Record<string, string>;
    };
    const restricted = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const key of [
      'chainEndpoints.providers',
      'chainEndpoints.requestTimeoutSeconds',
      'chainEndpoints.maxDocumentMegabytes',
      'chainEndpoints.maxDownloadMegabytes',
    ]) {
      assert.ok(restricted.includes(key), `${key} is restricted`);
    }
    const configs = Array.isArray(pkg.contributes.configuration) ? pkg.contributes.configuration : [pkg.contributes.configuration];
    const props = Object.assign({}, ...configs.map((c) => c.properties)) as Record<string, { default?: unknown }>;
    assert.equal(props['chainEndpoints.maxDownloadMegabytes']?.default, 1024);
    const inspected = { defaultValue: 1024, globalValue: 512, workspaceValue: 65536 };
    assert.equal(limitValue(inspected, false), 512);
    assert.equal(limitValue({ defaultValue: 1024, workspaceFolderValue: 65536 }, false), 1024);
    assert.equal(limitValue(inspected, true), 65536);
  });

  it('undici is at a release carrying the published fixes (>= 6.27.0)', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const [maj, min] = pkg.dependencies.undici
      .replace(/^[\^~]/, '')
      .split('.')
      .map(Number);
    assert.ok(maj > 6 || (maj === 6 && min >= 27), pkg.dependencies.undici);
    const installed = JSON.parse(readFileSync(path.join(root, 'node_modules/undici/package.json'), 'utf8')) as { version: string };
    const [imaj, imin] = installed.version.split('.').map(Number);
    assert.ok(imaj > 6 || (imaj === 6 && imin >= 27), installed.version);
  });
});
