// Secrets in the editor: set for one provider of the user's settings through the command (stored
// in SecretStorage), sent as that provider's header, never in settings nor in the result document,
// and never to a provider defined in workspace settings.

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
    await vscode.commands.executeCommand('chainEndpoints.setSecret', { provider: 'Keyed', name: 'it-key', value: VALUE });
    const { text } = await runForDocument('chainEndpoints.evm.blockNumber', { provider: 'Keyed' });
    assert.equal(seen.at(-1), VALUE);
    assert.match(text, /result: 0x2a = 42/);
    assert.ok(!text.includes(VALUE));
    const inspected = JSON.stringify(vscode.workspace.getConfiguration('chainEndpoints').inspect('providers'));
    assert.ok(!inspected.includes(VALUE), 'the value is not in any settings level');
    assert.ok(inspected.includes('${secret:it-key}'));
  });

  it('a provider from workspace settings never receives the secret, even named like the user one', async () => {
    await vscode.commands.executeCommand('chainEndpoints.setSecret', { provider: 'Keyed', name: 'it-key', value: VALUE });
    // The repository's host: whatever it receives is recorded (an untrusted workspace is not used at all).
    const theirs: (string | undefined)[] = [];
    const other = http.createServer((req, res) => {
      theirs.push(req.headers['x-api-key'] as string | undefined);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":1,"result":"0x1"}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
    const config = vscode.workspace.getConfiguration('chainEndpoints');
    await config.update('providers', [{ name: 'Keyed', evmRpc: otherUrl, headers: { 'x-api-key': '${secret:it-key}' } }], vscode.ConfigurationTarget.Workspace);
    try {
      await vscode.commands.executeCommand('chainEndpoints.evm.blockNumber', { provider: 'Keyed' });
      await new Promise((r) => setTimeout(r, 500)); // the status bar and health would connect at once
      assert.ok(!theirs.includes(VALUE), 'the secret never reached the workspace provider');
      assert.equal(theirs.length, 0, 'the request was refused before sending');
    } finally {
      await config.update('providers', undefined, vscode.ConfigurationTarget.Workspace);
      other.close();
    }
  });

  it('refuses a value shorter than 8 characters', async () => {
    await vscode.commands.executeCommand('chainEndpoints.setSecret', { provider: 'Keyed', name: 'it-key', value: VALUE });
    assert.equal(await vscode.commands.executeCommand('chainEndpoints.setSecret', { provider: 'Keyed', name: 'it-key', value: 'short' }), undefined);
    await runForDocument('chainEndpoints.evm.blockNumber', { provider: 'Keyed' });
    assert.equal(seen.at(-1), VALUE, 'the short value was not stored');
  });
});
