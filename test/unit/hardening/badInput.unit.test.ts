// Part 3 of the hardening run: what a user types. Every bad value is refused by the validators
// the input boxes and the tree use (validate.ts through the catalogue, validateAddress and
// parseProviders), with a message that says what to type, and no request leaves: the provider
// points at a counting server that counts every TCP connection (HTTP and WebSocket upgrades).

import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describeRequest, execute } from '../../../src/core/chain/execute';
import { readOpenApi } from '../../../src/core/chain/catalogue/imported';
import { routeOperation } from '../../../src/core/chain/catalogue/modules';
import { resolveTarget } from '../../../src/core/queries/parse';
import { json, startServer } from '../helpers/httpServer';
import { HttpClient } from '../../../src/core/transport/http';
import { OPERATIONS, type Operation, validateArgs } from '../../../src/core/chain/operations';
import { INTERFACES, type InterfaceId, parseProviders, type Provider, schemesFor, validateAddress } from '../../../src/core/config/providers';

/**
 * "Says what to type": an instruction (type/put/remove/use/encode), an example, or the
 * catalogue's "<Param> is required: <what the value is>" for an empty required value.
 */
const SAYS_WHAT_TO_TYPE = /\b(type|put|remove|use|encode|add|set)\b|such as|e\.g\.|for example|is required: \S/i;

/** Paths that climb out of the interface's base path (REST at /rest and the RPC at /rpc on one host reach each other). */
const DOT_PATHS = [
  '/../rpc/broadcast_tx_sync?tx=AAAA',
  '../rpc/status',
  '/%2e%2e/rpc/broadcast_tx_sync?tx=AAAA',
  '/%2E%2E/rpc/status',
  '/.%2E/rpc/status',
  '/%2e./rpc/status',
  '\\..\\rpc\\broadcast_tx_sync?tx=AAAA',
  '/cosmos/..\\..\\rpc/status',
  '/cosmos/./bank/v1beta1/supply',
  '/cosmos/%2e/bank',
  '/a/%252e%252e/rpc/status',
  '/a/%2F..%2F/rpc/status',
  '/..',
  '.',
];

const BAD: Record<string, string[]> = {
  height: ['', '   ', '-1', '0', '00', '1.5', 'abc', '1e3', '+5', '0x10', '9223372036854775808', '1'.repeat(30), '12 13', '１２', '5;rm -rf'],
  tx: ['', '   ', 'not base64!', 'abc', 'a2V5PXZhbHVl!', '====', 'a2V5 PXZh', '0x123', '0x', '0xZZ', '0x 12'],
  evmTx: ['', 'a2V5PXZhbHVl', '0x', '0x123', '0xgg'],
  evmHash: ['', '0x1234', 'ab'.repeat(32), '0x' + 'zz'.repeat(32)],
  cometHash: ['', '1234', 'g'.repeat(64), '0x' + 'ab'.repeat(31)],
  evmAddress: ['', '0x1234', '12'.repeat(20), 'cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu'],
  bech32: ['', 'cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xa', 'Cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu', '0x' + '12'.repeat(20), 'cosmos'],
  method: ['', '1abc', 'eth blockNumber', 'status;', '{"method":"x"}'],
  params: ['{', "['a']", 'undefined', '5', '"a string"', 'null', 'true', '{"a":1,}', '[1,2', 'height=5'],
  path: [
    '',
    'https://evil.example/status',
    'javascript:alert(1)',
    '/status with spaces',
    '/status#frag',
    // Dot segments, plain or encoded, or after a backslash: the URL join would resolve them into another route of the host.
    ...DOT_PATHS,
  ],
  count: ['0', '-1', '101', 'three', '1.5'],
};

/** Which bad list applies to a parameter of an operation. */
function listFor(op: Operation, key: string): string[] {
  switch (key) {
    case 'height':
      return BAD.height.filter((v) => !(op.params.find((p) => p.key === 'height')?.optional && v.trim() === ''));
    case 'tx':
      return op.iface === 'evmRpc' ? BAD.evmTx : BAD.tx;
    case 'hash':
      return op.iface === 'evmRpc' ? BAD.evmHash : BAD.cometHash;
    case 'address': {
      // An optional address (evm.simulate: `steps` may replace it) may be left empty.
      const optional = op.params.find((p) => p.key === 'address')?.optional;
      return (op.iface === 'evmRpc' ? BAD.evmAddress : BAD.bech32).filter((v) => !(optional && v.trim() === ''));
    }
    default:
      return BAD[key] ?? [];
  }
}

const GOOD: Record<string, string> = {
  height: '5',
  hash: 'AB'.repeat(32),
  address: '0x' + '12'.repeat(20),
  tx: 'AAAA',
  method: 'status',
  params: '[]',
  path: '/status',
  count: '2',
};
function goodArgs(op: Operation): Record<string, string> {
  const a: Record<string, string> = {};
  for (const p of op.params) {
    if (p.key === 'hash' && op.iface === 'evmRpc') a.hash = '0x' + 'ab'.repeat(32);
    else if (p.key === 'address' && op.iface === 'rest') a.address = 'cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu';
    else if (p.key === 'tx' && op.iface === 'evmRpc') a.tx = '0x02f86c';
    else a[p.key] = GOOD[p.key];
  }
  return a;
}

const BAD_ADDRESSES = (iface: InterfaceId): string[] => {
  const http = schemesFor(iface)[0] === 'http:';
  return [
    '',
    '   ',
    'ftp://rpc.example.org',
    'javascript:alert(1)',
    'rpc.example.org',
    'rpc.example.org:26657',
    'https://rpc example.org',
    ' https://rpc.example.org/ path',
    http ? 'wss://rpc.example.org/websocket' : 'https://rpc.example.org',
    http ? 'ws://127.0.0.1:26657/websocket' : 'http://127.0.0.1:26657/websocket',
    'https://user:s3cr3t@rpc.example.org',
    'https://k3y@rpc.example.org',
    (http ? 'https' : 'wss') + '://:t0ken@rpc.example.org/websocket',
    'http://',
    'file:///etc/passwd',
    'data:text/plain,hello',
  ];
};

describe('hardening 3: bad input from the user is refused with a message, nothing is sent', function () {
  this.timeout(30_000);

  it('refuses every bad height, tx, hash, address, method, params, path, count and settings address', async () => {
    let connections = 0;
    const counter = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
    const port = (counter.address() as net.AddressInfo).port;
    const provider: Provider = {
      name: 'counting',
      endpoints: {
        evmRpc: `http://127.0.0.1:${port}`,
        consensusHttp: `http://127.0.0.1:${port}`,
        consensusRpc: `http://127.0.0.1:${port}`,
        consensusWs: `ws://127.0.0.1:${port}/websocket`,
        rest: `http://127.0.0.1:${port}`,
      },
    };
    const http = new HttpClient();
    const spillDir = mkdtempSync(path.join(tmpdir(), 'ce-input-'));
    const options = { http, timeoutMs: 1_000, maxBufferBytes: 1024 * 1024, spillDir };

    let tried = 0;
    let refused = 0;
    let refusedByExecute = 0;
    const problems: string[] = [];
    const byKind: Record<string, { tried: number; refused: number }> = {};
    const count = (kind: string, ok: boolean) => {
      const k = (byKind[kind] ??= { tried: 0, refused: 0 });
      k.tried++;
      tried++;
      if (ok) {
        k.refused++;
        refused++;
      }
    };

    // Parameters: the validator an input box uses, then execute() with the same value.
    for (const op of OPERATIONS) {
      for (const p of op.params) {
        for (const value of listFor(op, p.key)) {
          const args = { ...goodArgs(op), [p.key]: value };
          // What the command refuses with, and what the input box shows while typing.
          const shown = validateArgs(op, args);
          const inputBox = value.trim() === '' ? shown : p.validate(value);
          const ok = !!shown && SAYS_WHAT_TO_TYPE.test(shown) && !!inputBox && SAYS_WHAT_TO_TYPE.test(inputBox);
          if (!shown) problems.push(`${op.id} ${p.key}=${JSON.stringify(value)}: accepted`);
          else if (!ok) problems.push(`${op.id} ${p.key}=${JSON.stringify(value)}: "${shown}" does not say what to type`);
          const before = connections;
          const o = await execute(provider, op, args, options);
          if (o.error?.kind === 'input') refusedByExecute++;
          else problems.push(`${op.id} ${p.key}=${JSON.stringify(value)}: execute() did not refuse it (${o.error?.kind ?? 'no error'})`);
          if (connections !== before) problems.push(`${op.id} ${p.key}=${JSON.stringify(value)}: a connection was made`);
          count(p.key, ok && o.error?.kind === 'input');
        }
      }
    }
    const sentForInvalid = connections;

    // Settings and Add Provider: validateAddress (the input box) and parseProviders (the tree).
    for (const iface of INTERFACES) {
      for (const value of BAD_ADDRESSES(iface)) {
        const message = validateAddress(iface, value);
        const parsed = parseProviders([
          { name: 'P', [iface]: value, ...(iface === 'evmRpc' ? { rest: 'https://rest.example.org' } : { evmRpc: 'https://evm.example.org' }) },
        ]);
        const settingsRefused = parsed.providers.length === 0 || parsed.providers[0].endpoints[iface] === undefined;
        const empty = value.trim() === '';
        // An empty address means "not published": settings skip it, the input box asks for one.
        const ok = !!message && SAYS_WHAT_TO_TYPE.test(message) && (empty || (settingsRefused && parsed.problems.length === 1));
        if (!message) problems.push(`address ${iface}=${JSON.stringify(value)}: accepted`);
        else if (!SAYS_WHAT_TO_TYPE.test(message)) problems.push(`address ${iface}=${JSON.stringify(value)}: "${message}" does not say what to type`);
        else if (!ok) problems.push(`address ${iface}=${JSON.stringify(value)}: settings did not refuse it`);
        if (/s3cr3t|k3y|t0ken/.test(parsed.problems[0]?.message ?? '') || /s3cr3t|k3y|t0ken/.test(message ?? '')) {
          problems.push(`address ${iface}: the refusal repeats the credentials: ${message}`);
        }
        count('address', ok);
      }
    }

    // The trimmed height is valid and sent once, as 12.
    const echo = await import('../helpers/httpServer');
    const srv = await echo.startServer((_q, res) => echo.json(res, 200, { jsonrpc: '2.0', id: -1, result: {} }));
    const trimmed = await execute(
      { name: 'echo', endpoints: { consensusHttp: srv.url } },
      OPERATIONS.find((o) => o.id === 'consensusHttp.block')!,
      { height: ' 12 ' },
      options,
    );
    const trimmedSent = srv.requests.map((r) => r.url);
    await srv.close();

    await http.close();
    await new Promise<void>((r) => counter.close(() => r()));
    rmSync(spillDir, { recursive: true, force: true });

    console.log(
      `      [input] inputs tried: ${tried}; refused with a message that says what to type: ${refused}; refused by execute() before sending: ${refusedByExecute}`,
    );
    console.log(
      `      [input] by kind: ${Object.entries(byKind)
        .map(([k, s]) => `${k} ${s.refused}/${s.tried}`)
        .join(', ')}`,
    );
    console.log(`      [input] requests sent for invalid input: ${sentForInvalid}; " 12 " accepted and sent as ${trimmedSent.join(', ')}`);
    if (problems.length) console.log(`      [input] problems:\n        ${problems.slice(0, 40).join('\n        ')}`);

    assert.equal(refused, tried, 'every bad input refused with a message that says what to type');
    assert.equal(sentForInvalid, 0, 'requests sent for invalid input');
    assert.equal(trimmed.error, undefined);
    assert.deepEqual(trimmedSent, ['/block?height=12']);
  });

  it('a path never reaches another route of a shared host: REST at /rest, the RPC at /rpc (custom, query-file and imported paths)', async () => {
    const srv = await startServer((_q, res) => json(res, 200, { jsonrpc: '2.0', id: -1, result: {} }));
    const provider: Provider = { name: 'gateway', endpoints: { rest: `${srv.url}/rest`, consensusHttp: `${srv.url}/rpc` } };
    const http = new HttpClient();
    const options = { http, timeoutMs: 1_000, maxBufferBytes: 1024 * 1024 };
    const problems: string[] = [];
    let tried = 0;
    for (const id of ['rest.custom', 'consensusHttp.custom']) {
      const op = OPERATIONS.find((o) => o.id === id)!;
      for (const path of DOT_PATHS) {
        tried++;
        const o = await execute(provider, op, { path }, options);
        if (o.error?.kind !== 'input') problems.push(`${id} ${JSON.stringify(path)}: ${o.error?.kind ?? 'sent'}`);
        assert.throws(() => describeRequest(provider, op, { path }), /dot segment/, `${id} ${path}: copy as curl`);
      }
    }
    // A query file's raw request (`rest GET <path>`) resolves to the same custom operation and its check.
    for (const path of DOT_PATHS) {
      tried++;
      const target = resolveTarget(`rest GET ${path}`);
      if (typeof target === 'string') continue; // refused at parse time: fine
      const o = await execute(provider, target.op, target.fixed, options);
      if (o.error?.kind !== 'input') problems.push(`query file rest GET ${JSON.stringify(path)}: ${o.error?.kind ?? 'sent'}`);
    }
    // An imported route (OpenAPI document) with such a path is left out as invalid.
    const paths = Object.fromEntries(DOT_PATHS.filter((p) => p.startsWith('/')).map((p) => [p.split('?')[0], { get: { operationId: 'Climb' } }]));
    const imported = readOpenApi({ swagger: '2.0', paths }, new Set());
    tried += Object.keys(paths).length;
    if (imported.routes.length) problems.push(`imported: ${imported.routes.map((r) => r.path).join(', ')}`);
    // A route's path parameter of "." or ".." (the value is encoded, but a dot segment stays one).
    const route = routeOperation({
      id: 'chain.x.Y',
      module: 'x',
      rpc: 'Y',
      path: '/x/{name}/y',
      summary: '',
      params: [{ name: 'name', in: 'path', kind: 'string', required: true }],
      fields: [],
      src: 'import:n',
    });
    for (const name of ['..', '.', ' .. ']) {
      tried++;
      const o = await execute(provider, route, { name }, options);
      if (o.error?.kind !== 'input') problems.push(`route parameter ${JSON.stringify(name)}: ${o.error?.kind ?? 'sent'}`);
    }
    // And the honest paths still go where they should.
    const ok = await execute(
      provider,
      OPERATIONS.find((o) => o.id === 'rest.custom')!,
      { path: '/cosmos/base/tendermint/v1beta1/node_info' },
      options,
    );
    const sent = srv.requests.map((r) => r.url);
    await http.close();
    await srv.close();
    console.log(
      `      [input] dot segments tried: ${tried}; refused before sending: ${tried - problems.length}; requests that reached /rpc: ${sent.filter((u) => u.startsWith('/rpc')).length}`,
    );
    assert.deepEqual(problems, []);
    assert.equal(ok.error, undefined);
    assert.deepEqual(sent, ['/rest/cosmos/base/tendermint/v1beta1/node_info']);
  });

  it('refuses credentials in an address and says where the key goes, without repeating it', () => {
    for (const iface of INTERFACES) {
      const scheme = schemesFor(iface)[0] === 'ws:' ? 'wss' : 'https';
      const message = validateAddress(iface, `${scheme}://user:s3cr3t@rpc.example.org/websocket`);
      assert.ok(message, iface);
      assert.match(message!, /headers/);
      assert.doesNotMatch(message!, /s3cr3t/);
    }
    const parsed = parseProviders([{ name: 'Keyed', rest: 'https://key123@rest.example.org' }]);
    assert.equal(parsed.providers.length, 0);
    assert.match(parsed.problems[0].message, /headers/);
    assert.doesNotMatch(parsed.problems[0].message, /key123/);
  });
});
