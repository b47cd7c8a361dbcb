// Secrets in the editor: set through the command (stored in SecretStorage), sent as a header,
// never in settings nor in the result document.

import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { activateExtension, closeAllEditors, runForDocument, setProviders } from './helpers';

const VALUE = 'sk_test_4b1d3c0ffee5ecret';

describe('secrets', function () {
  this.timeout(60_000);
  let server: http.Server;
  let url: string;
  const seen: (string | undefined)[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers['x-api-key'] as string | undefined);
      req.resume();
      req.on('end', () => {
        res.writeHead(req.headers['x-api-key'] === VALUE ? 200 : 401, { 'content-type': 'application/json' });
        res.end(req.headers['x-api-key'] === VALUE ? '{"jsonrpc":"2.0","id":1,"result":"0x2a"}' : `{"error":"bad key ${String(req.headers['x-api-key'])}"}`);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await activateExtension();
    await setProviders([{ name: 'Keyed', evmRpc: url, headers: { 'x-api-key': '${secret:it-key}' } }]);
  });

  after(async () => {
    await vscode.commands.executeCommand('chainEndpoints.deleteSecret', { name: 'it-key' });
    await closeAllEditors();
    server.close();
  });

  it('refuses to run while the secret is not set, naming it', async () => {
    await vscode.commands.executeCommand('chainEndpoints.deleteSecret', { name: 'it-key' });
    const uri = await vscode.commands.executeCommand('chainEndpoints.evm.blockNumber', { provider: 'Keyed' });
    assert.equal(uri, undefined);
    assert.equal(seen.length, 0, 'nothing sent');
  });

  it('sends the secret as the header and shows it nowhere', async () => {
    await vscode.commands.executeCommand('chainEndpoints.setSecret', { name: 'it-key', value: VALUE });
    const { text } = await runForDocument('chainEndpoints.evm.blockNumber', { provider: 'Keyed' });
    assert.equal(seen.at(-1), VALUE);
    assert.match(text, /result: 0x2a = 42/);
    assert.ok(!text.includes(VALUE));
    const inspected = JSON.stringify(vscode.workspace.getConfiguration('chainEndpoints').inspect('providers'));
    assert.ok(!inspected.includes(VALUE), 'the value is not in any settings level');
    assert.ok(inspected.includes('${secret:it-key}'));
  });
});
