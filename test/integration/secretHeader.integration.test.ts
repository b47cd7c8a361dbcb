// Set Secret can put the reference where it is sent: `{ provider, name, value, header }` stores the
// value and writes `${secret:NAME}` into that header of the provider (user settings), then requests
// carry it. Interactively the same is offered by the message that ends Set Secret.

import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { activateExtension, closeAllEditors, runForDocument, setProviders, sleep, waitFor } from './helpers';
import { ui } from './uiDriver';

const VALUE = 'sk_test_header_0ffee';

describe('secrets: Set Secret puts the reference into a header', function () {
  this.timeout(60_000);
  let server: http.Server;
  const seen: (string | undefined)[] = [];
  const authorizations: (string | undefined)[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers['x-api-key'] as string | undefined);
      authorizations.push(req.headers.authorization);
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
    await vscode.commands.executeCommand('chainEndpoints.deleteSecret', { name: 'offered-key' });
    await vscode.commands.executeCommand('notifications.clearAll');
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

  it('Set Secret does not end silently: for a name the provider does not use yet, its message offers to put the reference into a header', async () => {
    assert.ok(ui.available, 'this test clicks the notification through the UI driver (npm test runs it)');
    const OFFERED = 'sk_test_offered_0ffee';
    const name = await vscode.commands.executeCommand('chainEndpoints.setSecret', { provider: 'Plain', name: 'offered-key', value: OFFERED });
    assert.equal(name, 'offered-key');
    await vscode.commands.executeCommand('notifications.showList');
    const toast = '.notification-list-item:visible:has-text("does not use it yet")';
    await ui.waitFor(toast, 10_000);
    assert.match(
      await ui.text(`${toast} .notification-list-item-message`),
      /Secret "offered-key" saved for Plain, which does not use it yet: put \$\{secret:offered-key\} into one of its headers\?/,
    );
    await ui.click(`${toast} .monaco-button:has-text("Add to a header")`);
    // The input box comes pre-filled with `Authorization: Bearer ${secret:offered-key}`: accepted as is.
    await ui.waitFor('.quick-input-widget input', 10_000);
    await sleep(400);
    await ui.press('Enter');
    const entries = await waitFor('the Authorization header in settings', () => {
      const v = vscode.workspace.getConfiguration('chainEndpoints').inspect<{ name: string; headers?: Record<string, string> }[]>('providers')?.globalValue;
      return v?.[0]?.headers?.Authorization ? v : undefined;
    });
    assert.equal(entries[0].headers!.Authorization, 'Bearer ${secret:offered-key}');
    assert.ok(!JSON.stringify(entries).includes(OFFERED), 'the value never in settings');
    await waitFor('the request with the header', async () => {
      await runForDocument('chainEndpoints.evm.blockNumber', { provider: 'Plain' });
      return authorizations.at(-1) === `Bearer ${OFFERED}`;
    });
  });
});
