import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_PROVIDERS, MAX_PROVIDERS, dotSegmentOf, joinUrl, parseProviders, validateAddress } from '../../../../src/core/config/providers';
import { EndpointError } from '../../../../src/core/base/errors';
import { redactUrl } from '../../../../src/core/secrets/redact';
import { REPO_ROOT } from '../../helpers/repoRoot';

describe('providers: settings validation', () => {
  it('accepts the default Local node with its six interfaces (the devnet serves the EVM WebSocket on 8545, like anvil)', () => {
    const { providers, problems } = parseProviders(DEFAULT_PROVIDERS);
    assert.equal(problems.length, 0);
    assert.equal(providers[0].name, 'Local node');
    assert.deepEqual(Object.keys(providers[0].endpoints).sort(), ['consensusHttp', 'consensusRpc', 'consensusWs', 'evmRpc', 'evmWs', 'rest']);
  });

  it('package.json declares the same default providers as the code', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    assert.deepEqual(pkg.contributes.configuration.properties['chainEndpoints.providers'].default, DEFAULT_PROVIDERS);
    // The settings editor warns at the bound the reader applies.
    assert.equal(pkg.contributes.configuration.properties['chainEndpoints.providers'].maxItems, MAX_PROVIDERS);
  });

  it('reports each invalid entry and keeps the valid ones', () => {
    const { providers, problems } = parseProviders([
      { name: 'good', rest: 'https://rest.example.org/' },
      { name: 'ftp', rest: 'ftp://x.example.org' },
      { name: 'noscheme', evmRpc: 'evm.example.org:8545' },
      { name: 'wsForHttp', consensusHttp: 'wss://rpc.example.org' },
      { name: 'httpForWs', consensusWs: 'https://rpc.example.org/websocket' },
      { name: 'spaces', rest: 'https://rest example.org' },
      { name: 'GOOD', rest: 'https://other.example.org' },
      { name: '  ', rest: 'https://x.example.org' },
      { rest: 'https://x.example.org' },
      'not an object',
      { name: 'empty' },
      { name: 'js', rest: 'javascript:alert(1)' },
    ]);
    assert.deepEqual(
      providers.map((p) => p.name),
      ['good'],
    );
    assert.equal(problems.length, 11);
    const byName = (n: string) => problems.find((p) => p.name === n)!.message;
    assert.match(byName('ftp'), /must start with http:\/\/ or https:\/\//);
    assert.match(byName('noscheme'), /must start with http:\/\/ or https:\/\//);
    assert.match(byName('wsForHttp'), /Consensus HTTP address must start with http/);
    assert.match(byName('httpForWs'), /Consensus WebSocket address must start with ws:\/\/ or wss:\/\//);
    assert.match(byName('spaces'), /contains spaces/);
    assert.match(byName('GOOD'), /Duplicate provider name/);
    assert.match(byName('empty'), /no addresses/);
    assert.match(byName('js'), /must start with http/);
    assert.ok(problems.some((p) => /has no name/.test(p.message)));
    assert.ok(problems.some((p) => /not an object/.test(p.message)));
  });

  it('refuses a setting that is not an array', () => {
    const { providers, problems } = parseProviders({ name: 'x' });
    assert.equal(providers.length, 0);
    assert.match(problems[0].message, /must be an array/);
  });

  it('reads at most MAX_PROVIDERS providers, and says how many it left out', () => {
    const many = Array.from({ length: MAX_PROVIDERS + 5000 }, (_, i) => ({ name: `p${i}`, rest: `https://r${i}.example.org` }));
    const { providers, problems } = parseProviders(many);
    assert.equal(providers.length, MAX_PROVIDERS);
    assert.equal(providers.at(-1)!.name, `p${MAX_PROVIDERS - 1}`);
    assert.equal(problems.length, 1);
    assert.match(problems[0].message, new RegExp(`first ${MAX_PROVIDERS} providers .* 5000 after them`));
  });

  it('refuses a huge name, chain-id or header set with a short sentence (never the text itself)', () => {
    const huge = 'x'.repeat(100_000);
    const { providers, problems } = parseProviders([
      { name: huge, rest: 'https://a.example.org' },
      { name: 'chain', rest: 'https://b.example.org', chainId: huge },
      { name: 'headers', rest: 'https://c.example.org', headers: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`h${i}`, 'v'])) },
      { name: 'value', rest: 'https://d.example.org', headers: { 'x-api-key': huge } },
      { name: 'key', rest: 'https://e.example.org', headers: { [huge]: 'v' } },
      { name: 'fine', rest: 'https://f.example.org', chainId: 'evmos_9000-4', headers: { 'x-api-key': 'k' } },
    ]);
    assert.deepEqual(
      providers.map((p) => p.name),
      ['fine'],
    );
    assert.equal(problems.length, 5);
    for (const p of problems) assert.ok(p.message.length < 300, p.message.slice(0, 300));
    assert.match(problems[0].message, /at most 100 characters \(this one has 100000\)/);
    assert.match(problems[1].message, /chainId must be a chain-id/);
    assert.match(problems[2].message, /at most 32 headers \(this provider has 1000\)/);
    assert.match(problems[3].message, /longer than 8192 characters/);
    assert.match(problems[4].message, /not a valid header name/);
  });

  it('explains what to type for an unparsable address', () => {
    assert.match(validateAddress('rest', 'http://')!, /not a URL/);
    assert.equal(validateAddress('consensusWs', ' wss://rpc.example.org/websocket '), undefined);
  });
});

describe('providers: joining a base and a path', () => {
  const cases: [string, string, string][] = [
    ['https://h/rest/', '/cosmos/x', 'https://h/rest/cosmos/x'],
    ['https://h/rest', 'cosmos/x', 'https://h/rest/cosmos/x'],
    ['https://h/rest//', '//cosmos//x', 'https://h/rest/cosmos/x'],
    ['https://h', '/status', 'https://h/status'],
    ['https://h/', '/status', 'https://h/status'],
    ['http://127.0.0.1:26657', '', 'http://127.0.0.1:26657/'],
    ['https://h/a/b/', '', 'https://h/a/b'],
  ];
  for (const [base, path, want] of cases) {
    it(`${base} + ${path} -> ${want}`, () => {
      const got = joinUrl(base, path);
      assert.equal(got, want);
      assert.ok(!new URL(got).pathname.includes('//'));
    });
  }

  it('appends query parameters and skips undefined ones', () => {
    assert.equal(joinUrl('http://h:1/', '/block', { height: '5', x: undefined }), 'http://h:1/block?height=5');
    assert.equal(joinUrl('http://h/p?', 'genesis_chunked', { chunk: '0' }), 'http://h/p/genesis_chunked?chunk=0');
  });

  it('remembers recent joins without mixing two that share their text (base a, path b vs base ab)', () => {
    // The memo's key must keep the base and the path apart: 'https://h/a' + 'b/c' is not 'https://h/ab' + '/c'.
    for (let round = 0; round < 2; round++) {
      assert.equal(joinUrl('https://h/a', 'b/c'), 'https://h/a/b/c');
      assert.equal(joinUrl('https://h/ab', '/c'), 'https://h/ab/c');
      assert.equal(joinUrl('https://h/a', 'b/c', { q: '1' }), 'https://h/a/b/c?q=1');
      assert.equal(joinUrl('https://h/a', 'b/c', { q: '2', r: undefined }), 'https://h/a/b/c?q=2');
      assert.equal(joinUrl('https://h/a', 'b/c', { r: '2', q: '1' }), 'https://h/a/b/c?r=2&q=1');
      assert.equal(joinUrl('https://h/a', 'b/c', {}), 'https://h/a/b/c');
    }
    // A bad base throws every time (nothing remembered for it).
    assert.throws(() => joinUrl('not a url', 'x'));
    assert.throws(() => joinUrl('not a url', 'x'));
    // More joins than the memo holds: every answer still right (it is cleared, never wrong).
    for (let i = 0; i < 1500; i++) assert.equal(joinUrl(`http://h:${1000 + (i % 700)}/`, `/p${i % 3}`), `http://h:${1000 + (i % 700)}/p${i % 3}`);
  });
});

describe('providers: a join never leaves the base path (dot segments)', () => {
  // REST under /rest and RPC under /rpc on one host (a common gateway layout): a path that climbs
  // out of /rest would reach the node's RPC (`/rpc/broadcast_tx_sync?tx=…` sends a transaction).
  const climbing = [
    '/../rpc/broadcast_tx_sync',
    '../rpc/status',
    '/%2e%2e/rpc/status',
    '/%2E%2E/rpc/status',
    '/.%2E/rpc/status',
    '/%2e./rpc/status',
    '\\..\\rpc\\status',
    '/cosmos/..\\..\\rpc',
    '/cosmos/./bank',
    '/cosmos/%2e/bank',
    '/a/%252e%252e/rpc',
    '/a/%2F..%2F/rpc',
    '/..',
    '/.',
  ];
  for (const path of climbing) {
    it(`refuses ${JSON.stringify(path)} on https://h/rest (an input error, nothing joined)`, () => {
      assert.throws(
        () => joinUrl('https://h/rest', path),
        (e: unknown) => e instanceof EndpointError && e.kind === 'input' && /dot segment/.test(e.message),
      );
    });
  }

  it('keeps names that only contain dots (a denom, a version) and the base path', () => {
    assert.equal(joinUrl('https://h/rest', '/a/.../b'), 'https://h/rest/a/.../b');
    assert.equal(joinUrl('https://h/rest', '/v1.2/x.y'), 'https://h/rest/v1.2/x.y');
    assert.equal(joinUrl('https://h/rest', '/denoms/ibc%2FABC'), 'https://h/rest/denoms/ibc%2FABC');
    assert.equal(dotSegmentOf('/status?x=../..'), undefined, 'the query is not a path');
  });
});

describe('providers: redaction', () => {
  it('masks credentials in an address', () => {
    assert.equal(redactUrl('https://user:secret@h.example.org/x'), 'https://***:***@h.example.org/x');
    assert.equal(redactUrl('https://h.example.org/x'), 'https://h.example.org/x');
  });
});
