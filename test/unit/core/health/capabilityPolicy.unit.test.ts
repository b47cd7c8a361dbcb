// chainEndpoints.capabilities.probe (issue 25 §5): what goes on the wire, read by a server that
// records every JSON-RPC method it is sent. A node without `rpc_modules`, so the namespace calls
// would be needed. The timer (every CAPABILITY_TTL_MS) never sends a costly probe
// (debug_traceTransaction, txpool_status, eth_getBalance at block 1); asking sends them; onDemand
// sends nothing until asked; off sends nothing at all. Also the setting's reading (a workspace can
// only lower it) and the list of probes in docs/capabilities.md.

import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { probeCapabilities } from '../../../../src/core/health/capabilities';
import { CapabilityBook, type ProbeMode } from '../../../../src/core/health/capabilityPolicy';
import { probeModeOf } from '../../../../src/core/config/probeMode';
import { probeOptions } from '../../../../src/core/chain/requestOptions';
import { allProbes } from '../../../../src/core/chain/probes';
import { canServe } from '../../../../src/core/health/serves';
import { findOperation } from '../../../../src/core/chain/operations';
import type { Provider } from '../../../../src/core/config/providers';
import { HttpClient } from '../../../../src/core/transport/http';
import { listen } from '../../helpers/httpServer';
import { REPO_ROOT } from '../../helpers/repoRoot';

const COSTLY = ['debug_traceTransaction', 'txpool_status', 'eth_getBalance'];

describe('capabilities: what a probe sends, by chainEndpoints.capabilities.probe', function () {
  this.timeout(15_000);
  let server: http.Server;
  let url: string;
  let client: HttpClient;
  const methods: string[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const msg = JSON.parse(body) as { method: string; id: number };
        methods.push(msg.method);
        const answer = (result: unknown) => res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
        res.setHeader('content-type', 'application/json');
        switch (msg.method) {
          case 'eth_chainId':
            return answer('0x1');
          case 'web3_clientVersion':
            return answer('recorder/1.0');
          case 'net_version':
            return answer('1');
          case 'txpool_status':
            return answer({ pending: '0x0', queued: '0x0' });
          case 'eth_getBalance':
            return answer('0x0');
          case 'debug_traceTransaction':
            return res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'missing value for required argument 0' } }));
          default:
            return res.end(
              JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `the method ${msg.method} does not exist/is not available` } }),
            );
        }
      });
    });
    url = `http://127.0.0.1:${await listen(server)}`;
    client = new HttpClient();
  });
  after(async () => {
    await client.close();
    server.closeAllConnections();
    server.close();
  });

  const provider = (): Provider => ({ name: 'paid', endpoints: { evmRpc: url } });
  const book = (mode: ProbeMode, now = () => Date.now()) =>
    new CapabilityBook({ mode: () => mode, now, probe: (p, costly) => probeCapabilities(p, { execute: probeOptions(client, 3000), costly }) });
  const costlySent = () => methods.filter((m) => COSTLY.includes(m));

  it('auto: the timer probes cheaply (no trace, no txpool, no archive balance), first sight and after the TTL', async () => {
    methods.length = 0;
    let now = Date.parse('2026-01-01T00:00:00Z');
    const b = book('auto', () => now);
    assert.equal((await b.update([provider()], 'timer')).length, 1);
    assert.ok(methods.includes('eth_chainId') && methods.includes('rpc_modules'), methods.join(','));
    assert.deepEqual(costlySent(), [], `the timer sent ${costlySent().join(', ')}`);
    const c = b.get('paid')!;
    assert.deepEqual(c.evm?.namespaces, ['eth', 'net', 'web3']);
    assert.deepEqual(c.evm?.unprobedNamespaces, ['txpool', 'debug']);
    assert.equal(c.evm?.archive, undefined);
    // Not probed: unknown, never "not served" (the editor does not refuse a debug_* request on a guess).
    assert.equal(canServe(findOperation('evm.custom')!, { method: 'debug_traceTransaction', params: '[]' }, c).served, undefined);
    // Within the TTL the timer sends nothing; after it, cheap probes again.
    methods.length = 0;
    assert.equal((await b.update([provider()], 'timer')).length, 0);
    assert.deepEqual(methods, []);
    now += 31 * 60_000;
    await b.update([provider()], 'timer');
    assert.ok(methods.length > 0);
    assert.deepEqual(costlySent(), []);
  });

  it('auto: asking (Refresh, Compare, the API) or needing it sends the costly probes, and a later cheap re-probe keeps what they learnt', async () => {
    methods.length = 0;
    let now = Date.parse('2026-01-01T00:00:00Z');
    const b = book('auto', () => now);
    await b.update([provider()], 'asked');
    assert.deepEqual([...new Set(costlySent())].sort(), [...COSTLY].sort());
    const c = b.get('paid')!;
    assert.deepEqual(c.evm?.namespaces, ['debug', 'eth', 'net', 'txpool', 'web3']);
    assert.equal(c.evm?.archive, true);
    now += 31 * 60_000;
    methods.length = 0;
    await b.update([provider()], 'timer');
    assert.deepEqual(costlySent(), []);
    assert.deepEqual(b.get('paid')!.evm?.namespaces, ['debug', 'eth', 'net', 'txpool', 'web3']);
    assert.equal(b.get('paid')!.evm?.archive, true);
    methods.length = 0;
    await b.update([provider()], 'needed');
    assert.ok(costlySent().includes('debug_traceTransaction'));
  });

  it('onDemand: the timer sends nothing at all; asking probes everything', async () => {
    methods.length = 0;
    const b = book('onDemand');
    assert.equal((await b.update([provider()], 'timer')).length, 0);
    assert.deepEqual(methods, []);
    await b.update([provider()], 'asked');
    assert.ok(costlySent().length === 3, methods.join(','));
  });

  it('off: nothing is ever sent, asked or not', async () => {
    methods.length = 0;
    const b = book('off');
    for (const trigger of ['timer', 'asked', 'needed'] as const) await b.update([provider()], trigger);
    assert.deepEqual(methods, []);
    assert.equal(b.get('paid'), undefined);
  });

  it('the setting: user or machine value; a workspace or folder value only when it probes less', () => {
    assert.equal(probeModeOf(undefined), 'auto');
    assert.equal(probeModeOf({ defaultValue: 'auto' }), 'auto');
    assert.equal(probeModeOf({ defaultValue: 'auto', globalValue: 'onDemand' }), 'onDemand');
    assert.equal(probeModeOf({ defaultValue: 'auto', globalValue: 'off', workspaceValue: 'auto' }), 'off', 'a workspace cannot force probes on');
    assert.equal(probeModeOf({ defaultValue: 'auto', globalValue: 'onDemand', workspaceFolderValue: 'auto' }), 'onDemand');
    assert.equal(probeModeOf({ defaultValue: 'auto', workspaceValue: 'off' }), 'off', 'a workspace may turn probes down');
    assert.equal(probeModeOf({ defaultValue: 'auto', globalValue: 'sometimes' }), 'auto', 'an unknown value is the default');
  });

  it('docs/capabilities.md lists every probe request (method or path) with its cost', () => {
    const doc = readFileSync(path.join(REPO_ROOT, 'docs', 'capabilities.md'), 'utf8');
    for (const op of allProbes()) {
      const wire = op.build({});
      const what = 'method' in wire ? wire.method : 'path' in wire ? wire.path : wire.kind === 'ws-subscribe' ? 'subscribe' : op.id;
      assert.ok(doc.includes(`\`${op.id.replace(/^probe\./, '')}\``) || doc.includes(`\`${op.id}\``), `docs/capabilities.md does not name ${op.id}`);
      assert.ok(doc.includes(what), `docs/capabilities.md does not show ${what} (${op.id})`);
      if (op.cost === 'costly')
        assert.ok(new RegExp(`${op.id.replace(/^probe\./, '').replace(/\./g, '\\.')}\`[^\\n]*costly`).test(doc), `${op.id} not marked costly`);
    }
  });
});
