// Secrets referenced as ${secret:NAME}: substituted on the wire, masked everywhere shown
// (documents, errors, addresses, copied commands), and the workspace-trust rule for providers.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { toShellCommand } from '../../../../src/core/documents/curl';
import { describeRequest, execute } from '../../../../src/core/chain/execute';
import { HttpClient } from '../../../../src/core/transport/http';
import { masker } from '../../../../src/core/secrets/mask';
import { findOperation } from '../../../../src/core/chain/operations';
import { effectiveProvidersSetting, parseProviders } from '../../../../src/core/config/providers';
import { redactUrl } from '../../../../src/core/secrets/redact';
import { renderDocument } from '../../../../src/core/documents/render';
import { resolveProvider, secretNames, substitute } from '../../../../src/core/config/secrets';
import { json, startServer, type TestServer } from '../../helpers/httpServer';

const KEY = 'sk_live_9f8e7d6c5b4a';
const PATH_KEY = 'pathkey/with space';

describe('secrets', () => {
  let server: TestServer;
  let http: HttpClient;
  let dir: string;
  before(async () => {
    // A server that echoes the key back in its error, as some gateways do.
    server = await startServer((req, res) => {
      if (req.headers['x-api-key'] !== KEY) return json(res, 401, { error: `invalid key ${String(req.headers['x-api-key'])}` });
      if (req.url?.includes('nope')) return json(res, 404, { code: 5, message: `no route ${req.url} for key ${KEY}`, details: [] });
      json(res, 200, { jsonrpc: '2.0', id: 1, result: `0x10` });
    });
    http = new HttpClient();
    dir = mkdtempSync(path.join(tmpdir(), 'ce-secrets-'));
  });
  after(async () => {
    masker.set([]);
    await server.close();
    await http.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const settings = () => [{ name: 'Keyed', evmRpc: `${server.url}/\${secret:pathkey}/`, rest: server.url, headers: { 'x-api-key': '${secret:apikey}' } }];
  const values = new Map([
    ['apikey', KEY],
    ['pathkey', PATH_KEY],
  ]);

  it('parses headers and finds the referenced secret names', () => {
    const { providers, problems } = parseProviders(settings());
    assert.deepEqual(problems, []);
    assert.deepEqual(secretNames(providers[0]).sort(), ['apikey', 'pathkey']);
    assert.match(parseProviders([{ name: 'x', rest: 'http://h', headers: { 'bad name': 'v' } }]).problems[0].message, /not a valid header name/);
    assert.match(parseProviders([{ name: 'x', rest: 'http://h', headers: { a: 1 } }]).problems[0].message, /must be a string/);
  });

  it('a missing secret is an error that names it', () => {
    assert.throws(() => substitute('${secret:nope}', new Map()), /Secret "nope" is not set/);
  });

  it('sends the values and shows none of them', async () => {
    const template = parseProviders(settings()).providers[0];
    const wire = resolveProvider(template, values);
    masker.set(values.values());
    const ok = await execute(
      wire,
      findOperation('evm.blockNumber')!,
      {},
      { http, timeoutMs: 3000, maxBufferBytes: 1 << 20, spillDir: dir, headers: wire.headers },
    );
    assert.equal(ok.error, undefined, ok.error?.message);
    const seen = server.requests.at(-1)!;
    assert.equal(seen.headers['x-api-key'], KEY);
    assert.equal(seen.url, `/${encodeURIComponent(PATH_KEY)}/`);
    const doc = masker.mask(renderDocument(ok));
    assert.ok(!doc.includes(KEY) && !doc.includes(encodeURIComponent(PATH_KEY)), doc);
    assert.match(doc, /POST http:\/\/127\.0\.0\.1:\d+\/\*\*\*\//);

    const bad = await execute(
      wire,
      findOperation('rest.custom')!,
      { path: '/nope' },
      { http, timeoutMs: 3000, maxBufferBytes: 1 << 20, spillDir: dir, headers: wire.headers },
    );
    assert.ok(bad.error);
    const shown = masker.mask(renderDocument(bad));
    assert.ok(!shown.includes(KEY), 'the echoed key is masked in the document');
    assert.ok(!redactUrl(wire.endpoints.evmRpc!).includes(encodeURIComponent(PATH_KEY)));
  });

  it('copy as curl: references by default, values only when asked', () => {
    const template = parseProviders(settings()).providers[0];
    const wire = resolveProvider(template, values);
    masker.set(values.values());
    const masked = toShellCommand(describeRequest(template, findOperation('evm.blockNumber')!, {}), template.headers);
    assert.ok(!masked.includes(KEY));
    assert.match(masked, /-H 'x-api-key: \$\{secret:apikey\}'/);
    assert.match(masked, /\/\$\{secret:pathkey\}\//);
    const maskedWire = toShellCommand(describeRequest(wire, findOperation('evm.blockNumber')!, {}), wire.headers);
    assert.ok(!maskedWire.includes(KEY) && !maskedWire.includes(encodeURIComponent(PATH_KEY)), maskedWire);
    const revealed = toShellCommand(describeRequest(wire, findOperation('evm.blockNumber')!, {}), wire.headers, { reveal: true });
    assert.ok(revealed.includes(KEY));
  });

  it('masks credentials embedded in a URL', () => {
    assert.equal(redactUrl('https://user:pw@h.example.org/'), 'https://***:***@h.example.org/');
  });
});

describe('workspace trust', () => {
  const inspected = {
    defaultValue: [{ name: 'Local node' }],
    globalValue: [{ name: 'Mine' }],
    workspaceValue: [{ name: 'From the repository' }],
  };
  it('an untrusted workspace cannot choose the providers', () => {
    assert.deepEqual(effectiveProvidersSetting(inspected, false), { value: [{ name: 'Mine' }], ignoredWorkspace: true });
    assert.deepEqual(effectiveProvidersSetting({ ...inspected, globalValue: undefined }, false), { value: [{ name: 'Local node' }], ignoredWorkspace: true });
    assert.deepEqual(effectiveProvidersSetting({ defaultValue: [] }, false), { value: [], ignoredWorkspace: false });
  });
  it('a trusted one can', () => {
    assert.deepEqual(effectiveProvidersSetting(inspected, true), { value: [{ name: 'From the repository' }], ignoredWorkspace: false });
    assert.deepEqual(effectiveProvidersSetting({ ...inspected, workspaceFolderValue: [{ name: 'Folder' }] }, true).value, [{ name: 'Folder' }]);
  });
});
