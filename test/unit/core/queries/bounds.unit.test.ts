// Query files bounded by work, not only size (issue 34, items 3, 6, 7, 9 and 13): variables expanded
// once, a bound on the expansion's steps, every regular expression within the request's deadline
// and off the calling thread, the CLI's --timeout an upper bound, another provider's secret found
// in the request as assembled (split across references, hex-encoded), `page: all` on huge pages.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fetchAllPages } from '../../../../src/core/chain/pages';
import { findOperation } from '../../../../src/core/chain/operations';
import type { Provider } from '../../../../src/core/config/providers';
import { runCli, secretEnvName } from '../../../../src/core/queries/cli';
import { MAX_EXPANSION_STEPS, ValueError, interpolate } from '../../../../src/core/queries/interpolate';
import type { QueryFile } from '../../../../src/core/queries/model';
import { parseQueryFile } from '../../../../src/core/queries/parse';
import { type RunContext, runQueryFile } from '../../../../src/core/queries/run';
import { MAX_INLINE_STEPS, inlineSteps, matchWithin } from '../../../../src/core/queries/regex';
import { SecretMasker, maskedForms } from '../../../../src/core/secrets/mask';
import { HttpClient } from '../../../../src/core/transport/http';
import { type TestServer, json, startServer } from '../../helpers/httpServer';

/** A file whose variables count how often they are looked up (the work an expansion does). */
function counted(file: QueryFile): { file: QueryFile; gets: () => number } {
  let n = 0;
  class Counting extends Map<string, QueryFile['variables'] extends Map<string, infer V> ? V : never> {
    override get(key: string) {
      n++;
      return super.get(key);
    }
  }
  return { file: { ...file, variables: new Counting(file.variables) }, gets: () => n };
}

const ctx = { env: {}, secretValue: () => undefined };

describe('query files: bounded by work (issue 34)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let dir: string;
  let http: HttpClient;
  let pageItems = 0;

  before(async () => {
    server = await startServer((req, res) => {
      if (req.url.startsWith('/cosmos/staking/v1beta1/validators')) {
        // The first page: one item and a next key; the second: pageItems items (issue 34 item 13).
        const second = req.url.includes('pagination.key');
        const validators = second ? Array.from({ length: pageItems }, (_, i) => ({ operator_address: `v${i}` })) : [{ operator_address: 'first' }];
        return json(res, 200, { validators, pagination: { next_key: second ? null : 'AQ==', total: '0' } });
      }
      let method = '';
      let id: unknown = 1;
      let params: unknown[] = [];
      try {
        ({ method, id, params = [] } = JSON.parse(req.body) as { method: string; id: unknown; params?: unknown[] });
      } catch {
        // a GET
      }
      const key = new URL(req.url, 'http://x').searchParams.get('key') ?? '';
      if (method === 'echo_halves') return json(res, 200, { jsonrpc: '2.0', id, result: { a: key.slice(0, 7), b: key.slice(7) } });
      if (method === 'echo_hex') return json(res, 200, { jsonrpc: '2.0', id, result: '0x' + Buffer.from(key).toString('hex') });
      if (method === 'echo_hex_upper') return json(res, 200, { jsonrpc: '2.0', id, result: Buffer.from(key).toString('hex').toUpperCase() });
      if (method === 'long') return json(res, 200, { jsonrpc: '2.0', id, result: `${'a'.repeat(10_000)}!` });
      if (method === 'slow') {
        setTimeout(() => json(res, 200, { jsonrpc: '2.0', id, result: 'late' }), 2500);
        return;
      }
      return json(res, 200, { jsonrpc: '2.0', id, result: params[0] ?? 'ok' });
    });
    dir = mkdtempSync(path.join(tmpdir(), 'ce-qbounds-'));
    http = new HttpClient();
  });
  after(async () => {
    await http.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const provider = (name: string, extra: Partial<Provider['endpoints']> = {}): Provider => ({
    name,
    endpoints: { evmRpc: `${server.url}/`, rest: server.url, ...extra },
  });
  const runCtx = (over: Partial<RunContext> = {}): RunContext => ({
    providers: [provider('One')],
    execute: { http, timeoutMs: 5000, maxBufferBytes: 32 << 20, spillDir: dir },
    env: {},
    resolveProvider: (p) => p,
    secretValue: () => undefined,
    ...over,
  });

  describe('item 3: each variable expanded once, the work bounded', () => {
    /** Variables v1..vN, each using the one below `fan` times; v0 expands to "". */
    const tower = (depth: number, fan: number) => {
      const lines = ['@v0 ='];
      for (let i = 1; i <= depth; i++) lines.push(`@v${i} = ${`\${v${i - 1}}`.repeat(fan)}`);
      return lines;
    };

    it('a tower of variables expanding to "" (10 uses, 5 deep) looks each variable up once, not 111,110 times', () => {
      const lines = tower(5, 10);
      lines.push('request a = evmRpc web3_clientVersion', 'params: ["${v5}"]');
      const { file, gets } = counted(parseQueryFile(lines.join('\n')));
      assert.deepEqual(file.diagnostics, []);
      const value = file.requests[0].args[0].value;
      assert.equal(interpolate(value, { file, ctx, done: new Map() }, undefined), '[""]');
      assert.ok(gets() <= 6, `${gets()} look-ups for 6 variables`);
    });

    it('a value needing more than MAX_EXPANSION_STEPS steps: a located error, not a run', () => {
      // Four variables of 3,000 uses each of an empty one: 12,004 steps even expanded once each.
      const uses = 3000;
      const lines = ['@e ='];
      for (let i = 1; i <= 4; i++) lines.push(`@a${i} = ${'${e}'.repeat(uses)}`);
      lines.push('request a = evmRpc web3_clientVersion', 'params: ["${a1}${a2}${a3}${a4}"]');
      assert.ok(4 * uses > MAX_EXPANSION_STEPS);
      const file = parseQueryFile(lines.join('\n'));
      const value = file.requests[0].args[0].value;
      assert.throws(
        () => interpolate(value, { file, ctx, done: new Map() }, undefined),
        (e: unknown) => e instanceof ValueError && /^line 7:\d+: .*more than 10000 steps/.test(e.message),
      );
    });

    it('depth is still bounded with memoised variables (a variable used again deeper)', () => {
      const lines = ['@d0 = x'];
      for (let i = 1; i <= 8; i++) lines.push(`@d${i} = \${d${i - 1}}`);
      lines.push('@top = ${d1}${d8}', 'request a = evmRpc web3_clientVersion', 'params: ["${top}"]');
      const file = parseQueryFile(lines.join('\n'));
      assert.throws(() => interpolate(file.requests[0].args[0].value, { file, ctx, done: new Map() }, undefined), /nest too deeply/);
    });

    it('in a run, a file of 20 requests reusing a tower expands each variable once per provider', async () => {
      const lines = tower(4, 10);
      for (let i = 0; i < 20; i++) lines.push(`request r${i} = evmRpc echo`, 'provider: One', 'params: ["${v4}"]', '');
      const { file, gets } = counted(parseQueryFile(lines.join('\n')));
      const run = await runQueryFile(file, runCtx());
      assert.ok(run.passed, JSON.stringify(run.requests.map((r) => r.error ?? r.runs[0].record.error)));
      assert.ok(gets() <= 5 + 20, `${gets()} look-ups`);
    });
  });

  describe('item 6: every regular expression within the request deadline, off the calling thread', () => {
    it('an expression without a small proven cost (quadratic, alternations) never runs on the calling thread', async () => {
      const lines = ['request e = evmRpc long', 'provider: One', 'timeout: 2s', `assert result matches /a*b/`, `assert result matches /${'(a|a)'.repeat(4)}b/`];
      const file = parseQueryFile(lines.join('\n'));
      const test = RegExp.prototype.test;
      const exec = RegExp.prototype.exec;
      let onThread = 0;
      const watched = new Set(file.requests[0].assertions.map((a) => (a as { regex?: RegExp }).regex));
      RegExp.prototype.test = function (this: RegExp, s: string) {
        if (watched.has(this)) onThread++;
        return test.call(this, s);
      };
      RegExp.prototype.exec = function (this: RegExp, s: string) {
        if (watched.has(this)) onThread++;
        return exec.call(this, s);
      };
      let run;
      try {
        run = await runQueryFile(file, runCtx());
      } finally {
        RegExp.prototype.test = test;
        RegExp.prototype.exec = exec;
      }
      assert.equal(onThread, 0, 'a regular expression ran on the calling thread');
      assert.deepEqual(
        run.requests[0].runs[0].assertions.map((a) => a.passed),
        [false, false],
      );
    });

    it('only a provably small one runs inline, and only before the deadline', async () => {
      // No group, alternation or backreference, one quantifier: at most source x text steps per start.
      assert.ok(inlineSteps('^0x[0-9a-f]+$', '', 66)! <= MAX_INLINE_STEPS);
      assert.ok(inlineSteps('a*b', '', 10_001)! > MAX_INLINE_STEPS, 'quadratic on 10,000 characters');
      assert.ok(inlineSteps('^a*b', 'm', 10_001)! > MAX_INLINE_STEPS, '^ with the m flag anchors every line');
      for (const shape of ['(a|a)(a|a)b', 'a|b', '(a)\\1', 'a+b+', '(?=a)a', 'x{2}y*']) assert.equal(inlineSteps(shape, '', 10), undefined, shape);
      assert.deepEqual(await matchWithin(/^0x[0-9a-f]+$/, `0x${'ab'.repeat(32)}`, Date.now() + 1000), { matched: true });
      const late = await matchWithin(/^0x/, '0x1', Date.now() - 1);
      assert.ok('error' in late && /deadline passed/.test(late.error));
    });

    it('100 quadratic and exponential assertions under "timeout: 1s" end with the request deadline, not 100 deadlines', async () => {
      const lines = ['request e = evmRpc long', 'provider: One', 'timeout: 1s'];
      for (let i = 0; i < 50; i++) lines.push('assert result matches /a*b/', 'assert result matches /^(a|a)*$/');
      const started = Date.now();
      const run = await runQueryFile(parseQueryFile(lines.join('\n')), runCtx());
      const ms = Date.now() - started;
      const results = run.requests[0].runs[0].assertions;
      assert.equal(results.length, 100);
      assert.ok(results.every((a) => !a.passed) && results.filter((a) => /deadline/.test(a.message)).length >= 90, results.map((a) => a.message).join('\n'));
      assert.ok(ms < 3000, `took ${ms} ms (the deadline is 1 s)`);
    });
  });

  describe("item 7: the CLI's --timeout is an upper bound on a file's timeout:", () => {
    it('"timeout: 3600s" in a file does not outlive --timeout 1', async () => {
      const providers = path.join(dir, 'p7.json');
      writeFileSync(providers, JSON.stringify([{ name: 'One', evmRpc: `${server.url}/` }]));
      const file = path.join(dir, 'slow.chainq');
      writeFileSync(file, 'request s = evmRpc slow\nprovider: One\ntimeout: 3600s\n');
      let out = '';
      const started = Date.now();
      const code = await runCli(['run', file, '--providers', providers, '--timeout', '1'], {
        cwd: dir,
        env: {},
        out: (t) => (out += t),
        err: (t) => (out += t),
      });
      const ms = Date.now() - started;
      assert.equal(code, 1, out);
      assert.match(out, /within 1 s/);
      assert.ok(ms < 2400, `took ${ms} ms: the file's 3600 s replaced --timeout 1`);
      // A file's shorter timeout still applies.
      writeFileSync(file, 'request s = evmRpc slow\nprovider: One\ntimeout: 1s\n');
      assert.equal(await runCli(['run', file, '--providers', providers, '--timeout', '30'], { cwd: dir, env: {}, out: () => {}, err: () => {} }), 1);
    });
  });

  describe("item 9: another provider's secret, in the request as assembled", () => {
    const KEY = 'echo-key-7f3a9c2b1d';
    const OTHER = 'other-key-31e4aa90';
    let providersFile: string;
    before(() => {
      providersFile = path.join(dir, 'p9.json');
      writeFileSync(
        providersFile,
        JSON.stringify([
          { name: 'Echo', evmRpc: `${server.url}/?key=\${secret:k}` },
          { name: 'Plain', evmRpc: `${server.url}/plain` },
        ]),
      );
    });
    const cli = async (source: string, extra: string[] = []) => {
      const file = path.join(dir, `f${Math.random().toString(36).slice(2)}.chainq`);
      writeFileSync(file, source);
      let out = '';
      const code = await runCli(['run', file, '--providers', providersFile, ...extra], {
        cwd: dir,
        env: { [secretEnvName('Echo', 'k')]: KEY, [secretEnvName('Plain', 'x')]: OTHER },
        out: (t) => (out += t),
        err: (t) => (out += t),
      });
      return { code, out };
    };
    const sentToPlain = () =>
      server.requests
        .filter((r) => r.url.startsWith('/plain'))
        .map((r) => r.url + ' ' + r.body)
        .join('\n');

    for (const [name, echo, params] of [
      ['split across two references', 'echo_halves', '["{{a.result.a}}{{a.result.b}}"]'],
      ['hex-encoded (0x, lower case)', 'echo_hex', '["{{a.result}}"]'],
      ['hex-encoded (upper case)', 'echo_hex_upper', '["{{a.result}}"]'],
    ] as const) {
      it(`${name}: not sent to the other provider, and masked in the report`, async () => {
        const before = sentToPlain();
        const src = `request a = evmRpc ${echo}\nprovider: Echo\n\nrequest b = evmRpc echo\nprovider: Plain\nparams: ${params}\n`;
        const r = await cli(src, ['--reporter', 'json']);
        assert.equal(r.code, 1, r.out);
        assert.match(r.out, /secret of another provider/);
        assert.equal(sentToPlain(), before, 'the other provider received a request');
        const hex = Buffer.from(KEY).toString('hex');
        assert.doesNotMatch(r.out, new RegExp(`${KEY}|${hex}|${hex.toUpperCase()}`));
      });
    }

    it('to its own provider the assembled value may go back', async () => {
      const r = await cli(
        'request a = evmRpc echo_halves\nprovider: Echo\n\nrequest b = evmRpc echo\nprovider: Echo\nparams: ["{{a.result.a}}{{a.result.b}}"]\n',
      );
      assert.equal(r.code, 0, r.out);
    });

    it('the masker knows hex forms, both cases, and leaves short ones alone', () => {
      const forms = maskedForms(KEY);
      const hex = Buffer.from(KEY).toString('hex');
      assert.ok(forms.includes(hex) && forms.includes(hex.toUpperCase()));
      const m = new SecretMasker();
      m.set([KEY]);
      assert.equal(m.mask(`0x${hex} and ${hex.toUpperCase()}`), '0x*** and ***');
      assert.ok(!maskedForms('abc').includes('616263'), 'a 3-byte value would mask ordinary hex');
    });
  });

  describe('item 13: page: all with a huge page', () => {
    it('a 200,000-item page is merged up to the item bound, no stack overflow', async () => {
      pageItems = 200_000;
      const op = findOperation('staking.Validators')!;
      const all = await fetchAllPages(
        provider('One'),
        op,
        { 'pagination.limit': '1' },
        { http, timeoutMs: 10_000, maxBufferBytes: 64 << 20, spillDir: dir },
        5,
      );
      assert.equal(all.outcome.error, undefined, all.outcome.error?.message);
      assert.equal(all.items, 10_000);
      assert.equal(all.truncated, true);
      const list = (all.result as { validators: { operator_address: string }[] }).validators;
      assert.equal(list.length, 10_000);
      assert.equal(list[0].operator_address, 'first');
      assert.equal(list[1].operator_address, 'v0');
      assert.match(all.summary, /stopped/);
    });
  });
});
