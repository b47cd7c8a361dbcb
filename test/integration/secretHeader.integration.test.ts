// Set Secret can put the reference where it is sent: `{ provider, name, value, header }` stores the
// value and writes `${secret:NAME}` into that header of the provider (user settings), then requests
// carry it. Interactively the same is offered by the message that ends Set Secret.

import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { activateExtension, closeAllEditors, runForDocument, setProviders, waitFor } from './helpers';

const VALUE = 'sk_test_header_0ffee';

describe('secrets: Set Secret puts the reference into a header', function () {
  this.timeout(60_000);
  let server: http.Server;
  const seen: (string | undefined)[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers['x-api-key'] as string | undefined);
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"jsonrpc":"2.0","id":1,"result":"0x2a"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    await activateExtension();
    await setProviders([{ name: 'Plain', evmRpc: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }]);
  });
  after(async () => {
    await vscode.commands.executeCommand('chainEndpoints.deleteSecret', { name: 'plain-key' });
    await closeAllEditors();
    server.close();
  });

  it('writes ${secret:NAME} into the header, never the value, and the next request sends it', async () => {
    const name = await vscode.commands.executeCommand('chainEndpoints.setSecret', { provider: 'Plain', name: 'plain-key', value: VALUE, header: 'x-api-key' });
    assert.equal(name, 'plain-key');
    const entries = await waitFor('the header in settings', () => {
      const v = vscode.workspace.getConfiguration('chainEndpoints').inspect<{ name: string; headers?: Record<string, string> }[]>('providers')?.globalValue;
      return v?.[0]?.headers?.['x-api-key'] ? v : undefined;
    });
    assert.equal(entries[0].headers!['x-api-key'], '${secret:plain-key}');
    assert.ok(!JSON.stringify(entries).includes(VALUE));
    await waitFor('the provider with its header', async () => {
      await runForDocument('chainEndpoints.evm.blockNumber', { provider: 'Plain' });
      return seen.at(-1) === VALUE;
    });
  });
});
