// Issue 14, part 1: a secret belongs to one provider of the user's settings. A provider defined in
// workspace settings never receives a secret value (refused before sending, naming the secret);
// a chain.json cannot bring `${secret:` into settings; secrets set before the rule are bound to
// the user providers that referenced them; short values are refused; and every encoding the
// extension itself produces (the URL parser's %27 for a quote in a query, JSON escapes, base64 of
// Basic credentials) is masked in documents, addresses and the API's result.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ChainRegistryError, parseChainJson } from '../../../src/core/config/chainRegistry';
import { execute } from '../../../src/core/chain/execute';
import { HttpClient } from '../../../src/core/transport/http';
import { masker, maskDeep } from '../../../src/core/secrets/mask';
import { findOperation } from '../../../src/core/chain/operations';
import { parseProviders, type Provider } from '../../../src/core/config/providers';
import { redactUrl } from '../../../src/core/secrets/redact';
import { renderDocument } from '../../../src/core/documents/render';
import { bindingKey, migrationPlan, providersOrigin, resolveScoped, secretValueProblem } from '../../../src/core/config/secretScope';
import { json, startServer, type TestServer } from '../helpers/httpServer';

const VALUE = 'user-key-0123456789';

describe('issue 14 / 1: a secret belongs to one provider', () => {
  let server: TestServer;
  let http: HttpClient;
  let dir: string;
  before(async () => {
    server = await startServer((req, res) => json(res, 200, { jsonrpc: '2.0', id: 1, result: `0x10`, echo: req.url, key: req.headers['x-api-key'] ?? null }));
    http = new HttpClient();
    dir = mkdtempSync(path.join(tmpdir(), 'ce-scope-'));
  });
  after(async () => {
    masker.set([]);
    await server.close();
    await http.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const options = (p: Provider) => ({ http, timeoutMs: 3000, maxBufferBytes: 1 << 20, spillDir: dir, headers: p.headers ? { ...p.headers } : undefined });

  it('a provider from workspace settings never receives a secret: refused before sending, naming the secret and why', async () => {
    // The repository's .vscode/settings.json names a provider like the user's own, pointing elsewhere.
    const inspected = {
      globalValue: [{ name: 'Mine', evmRpc: 'https://rpc.example.org', headers: { 'x-api-key': '${secret:apikey}' } }],
      workspaceValue: [{ name: 'Mine', evmRpc: server.url, headers: { 'x-api-key': '${secret:apikey}' } }],
    };
    assert.equal(providersOrigin(inspected, true), 'workspace', 'a trusted workspace level makes every provider a workspace provider');
    assert.equal(providersOrigin(inspected, false), 'user', 'untrusted: the workspace level is not used at all');
    assert.equal(providersOrigin({ globalValue: inspected.globalValue }, true), 'user');
    const hostile = parseProviders(inspected.workspaceValue).providers[0];
    const values = new Map([[bindingKey('Mine', 'apikey'), VALUE]]);
    const before = server.requests.length;
    assert.throws(
      () => resolveScoped(hostile, 'workspace', (n) => values.get(bindingKey(hostile.name, n))),
      (err: Error) => /workspace settings/.test(err.message) && err.message.includes('${secret:apikey}') && !err.message.includes(VALUE),
    );
    assert.throws(() => resolveScoped(hostile, undefined, () => VALUE), /workspace settings/, 'no origin: refused (fail closed)');
    assert.equal(server.requests.length, before, 'nothing was sent');
  });

  it("a secret is substituted only into its own provider's requests", async () => {
    const [a, b] = parseProviders([
      { name: 'A', evmRpc: server.url, headers: { 'x-api-key': '${secret:apikey}' } },
      { name: 'B', evmRpc: server.url, headers: { 'x-api-key': '${secret:apikey}' } },
    ]).providers;
    const values = new Map([[bindingKey('A', 'apikey'), VALUE]]);
    const lookup = (p: Provider) => (n: string) => values.get(bindingKey(p.name, n));
    const wire = resolveScoped(a, 'user', lookup(a));
    const o = await execute(wire, findOperation('evm.blockNumber')!, {}, options(wire));
    assert.equal(o.error, undefined);
    assert.equal(server.requests.at(-1)!.headers['x-api-key'], VALUE);
    assert.throws(() => resolveScoped(b, 'user', lookup(b)), /Secret "apikey" is not set for provider "B"/);
  });

  it('chain.json import refuses any ${secret: reference, naming the field', () => {
    const file = (address: string) =>
      JSON.stringify({
        chain_name: 'x',
        chain_id: 'x-1',
        apis: {
          rpc: [
            { address: 'https://ok.example.org', provider: 'P' },
            { address, provider: 'Q' },
          ],
        },
      });
    for (const address of ['https://q.example.org/?key=${secret:apikey}', 'https://q.example.org/$%7Bsecret:apikey%7D']) {
      assert.throws(
        () => parseChainJson(file(address)),
        (err: unknown) => err instanceof ChainRegistryError && err.field === 'apis.rpc[1].address' && /secret/.test(err.message),
      );
    }
  });

  it('secrets set before the rule are bound to the user providers that referenced them', () => {
    const users = parseProviders([
      { name: 'A', rest: 'https://a.example.org', headers: { k: '${secret:one}' } },
      { name: 'B', rest: 'https://b.example.org/${secret:one}/${secret:two}' },
    ]).providers;
    assert.deepEqual(migrationPlan(['one', 'two', 'orphan'], users), {
      bind: [
        { provider: 'A', name: 'one' },
        { provider: 'B', name: 'one' },
        { provider: 'B', name: 'two' },
      ],
      unbound: ['orphan'],
    });
  });

  it('refuses secrets shorter than 8 characters', () => {
    assert.match(String(secretValueProblem('1234567')), /at least 8 characters/);
    assert.equal(secretValueProblem('12345678'), undefined);
  });

  it("masks every encoding the extension produces: the URL parser's %27, JSON escapes, base64 (Basic)", async () => {
    const secret = `it's a "key"\\/ü+1`;
    const [p] = parseProviders([
      { name: 'Q', evmRpc: `${server.url}/rpc?key=\${secret:k}`, consensusHttp: server.url, headers: { Authorization: '${secret:basic}' } },
    ]).providers;
    const basic = `Basic ${Buffer.from(`alice:${secret}`).toString('base64')}`;
    const wire = resolveScoped(p, 'user', (n) => (n === 'k' ? secret : basic));
    masker.set([secret, basic]);
    const o = await execute(wire, findOperation('evm.blockNumber')!, {}, options(wire));
    assert.equal(o.error, undefined, o.error?.message);
    const sentUrl = server.requests.at(-1)!.url; // as the server saw it: the quote as %27
    assert.match(sentUrl, /%27/);
    const keyOnWire = sentUrl.slice(sentUrl.indexOf('key=') + 4);
    const doc = masker.mask(renderDocument(o));
    const shown = [doc, redactUrl(wire.endpoints.evmRpc!), redactUrl(`http://h${sentUrl}`)];
    for (const text of shown) {
      assert.ok(!text.includes(keyOnWire), `the query form is masked: ${text.slice(0, 300)}`);
      assert.ok(!text.includes(encodeURIComponent(secret)));
    }
    // The answer echoes the URL (JSON-escaped) and the header; both masked.
    assert.ok(!doc.includes(JSON.stringify(secret).slice(1, -1)), 'JSON-escaped');
    // Basic credentials: the base64 of user:secret, and a server echoing just the secret's base64.
    assert.ok(
      !masker
        .mask(`Authorization: Basic ${Buffer.from(`bob:${secret}`).toString('base64')}`)
        .includes(Buffer.from(`bob:${secret}`).toString('base64').slice(8, 24)),
    );
    assert.ok(!masker.mask(Buffer.from(secret).toString('base64')).includes(Buffer.from(secret).toString('base64').slice(0, 12)));
    // The API's run(): result and error data masked.
    assert.deepEqual(maskDeep({ result: [secret, { [secret]: keyOnWire }] }), { result: ['***', { '***': '***' }] });
  });
});
