// The runner every request a person starts goes through (src/ui/requests/run.ts), against a loopback
// server that records what reaches it: the state-changing check (issue #34 item 1: raw
// eth_sendRawTransaction / personal_sendTransaction / broadcast_tx_sync went out unconfirmed from
// the commands and the API), the masked confirmation, secrets awaited before anything is sent, one
// log line per request, and the API's host (refused unless `confirmed`, cancelled by its token).
import { strict as assert } from 'node:assert';
import { findOperation } from '../../../../src/core/chain/operations';
import type { Provider } from '../../../../src/core/config/providers';
import { HttpClient } from '../../../../src/core/transport/http';
import { DECLINED, type HostBase, type RunHost, Unconfirmed, apiHost, runOnProvider, unconfirmedRefusal } from '../../../../src/ui/requests/run';
import { type TestServer, startServer } from '../../helpers/httpServer';
import { scriptedPrompts } from '../../helpers/prompts';

const SECRET = 'sekret-value-4711';

describe('ui/requests/run: one provider run', () => {
  let server: TestServer;
  let http: HttpClient;
  let provider: Provider;
  let lines: string[];

  before(async () => {
    server = await startServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST') {
        const id = (JSON.parse(req.body) as { id: number }).id;
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x10' }));
      } else res.end(JSON.stringify({ jsonrpc: '2.0', id: -1, result: { code: 0, hash: 'AB' } }));
    });
    http = new HttpClient();
  });
  after(async () => {
    await http.close();
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    lines = [];
    provider = {
      name: 'Local node',
      endpoints: { evmRpc: server.url, consensusHttp: server.url },
      headers: { authorization: `Bearer \${secret:key}` },
    };
  });

  /** A host over the loopback server: secrets substituted after `ready`, the masker hiding SECRET. */
  function base(ready: Promise<void> = Promise.resolve()): HostBase {
    return {
      log: { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) },
      http,
      storageDir: '/nonexistent-spill-dir',
      secrets: {
        resolved: async (p) => {
          await ready;
          return { ...p, headers: { authorization: `Bearer ${SECRET}` } };
        },
      },
      settings: () => ({ requestTimeoutMs: 5000, maxDocumentBytes: 1 << 20, maxDownloadBytes: 1 << 20 }),
      mask: (t) => t.split(SECRET).join('***'),
    };
  }

  function editor(confirm: boolean): { host: RunHost; confirms: ReturnType<typeof scriptedPrompts>['confirms'] } {
    const { prompts, confirms } = scriptedPrompts({ confirm });
    return {
      host: { ...base(), confirm: prompts.confirm, progress: (_t, work) => work(() => undefined, new AbortController().signal) },
      confirms,
    };
  }

  const custom = findOperation('evm.custom')!;
  const get = findOperation('consensusHttp.custom')!;
  const stateChanging: [string, ReturnType<typeof findOperation>, Record<string, string>][] = [
    ['evm.custom eth_sendRawTransaction', custom, { method: 'eth_sendRawTransaction', params: '["0x02f86c01"]' }],
    ['evm.custom personal_sendTransaction', custom, { method: 'personal_sendTransaction', params: `[{"from":"0x${'11'.repeat(20)}"}, "pw"]` }],
    ['consensusHttp.custom /broadcast_tx_sync', get, { path: '/broadcast_tx_sync?tx=0x00' }],
    ['consensusHttp.custom /%62roadcast_tx_commit (encoded)', get, { path: '/%62roadcast_tx_commit?tx=0x00' }],
    ['the catalogue broadcast evm.sendRawTransaction', findOperation('evm.sendRawTransaction'), { tx: '0x02f86c01' }],
  ];

  for (const [name, op, args] of stateChanging) {
    it(`${name}: the command asks first; declined, nothing reaches the server`, async () => {
      const { host, confirms } = editor(false);
      const r = await runOnProvider(host, { provider, title: 't', request: { op: op!, args } }, (run) => run.execute(op!, args));
      assert.equal(r, DECLINED);
      assert.equal(confirms.length, 1, 'asked once');
      assert.match(confirms[0].message, /Local node/);
      assert.equal(server.requests.length, 0, 'nothing sent');
    });

    it(`${name}: the command, confirmed, sends it once`, async () => {
      const { host, confirms } = editor(true);
      const r = await runOnProvider(host, { provider, title: 't', request: { op: op!, args } }, (run) => run.execute(op!, args));
      assert.notEqual(r, DECLINED);
      assert.equal(confirms.length, 1);
      assert.equal(server.requests.length, 1);
    });

    it(`${name}: the API refuses it without { confirmed: true }, nothing sent; with it, sends without asking`, async () => {
      const refused = apiHost(base(), undefined, () => {
        throw unconfirmedRefusal(op!, args);
      });
      await assert.rejects(
        runOnProvider(refused, { provider, title: 't', request: { op: op!, args, confirmed: false } }, (run) => run.execute(op!, args)),
        (err: unknown) => err instanceof Unconfirmed && /confirmed: true/.test(err.message),
      );
      assert.equal(server.requests.length, 0, 'nothing sent');
      const r = await runOnProvider(refused, { provider, title: 't', request: { op: op!, args, confirmed: true } }, (run) => run.execute(op!, args));
      assert.notEqual(r, DECLINED);
      assert.equal(server.requests.length, 1);
    });
  }

  it('a read is sent without a question; its log line is the one format, masked', async () => {
    const { host, confirms } = editor(false);
    const args = { method: 'eth_blockNumber', params: '[]' };
    const o = await runOnProvider(host, { provider, title: 't', request: { op: custom, args } }, (run) => run.execute(custom, args));
    assert.notEqual(o, DECLINED);
    assert.equal(confirms.length, 0);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0].headers.authorization, `Bearer ${SECRET}`, 'the secret goes on the wire');
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^info \[request\] evm\.custom POST http:\/\/127\.0\.0\.1:\d+\/? -> 200 \d+ ms \d+ B$/);
  });

  it('the confirmation shows the request masked: a secret in the body never reaches the modal', async () => {
    const { host, confirms } = editor(false);
    const args = { method: 'personal_sendTransaction', params: `[{"from":"0x${'11'.repeat(20)}"}, "${SECRET}"]` };
    await runOnProvider(host, { provider, title: 't', request: { op: custom, args } }, (run) => run.execute(custom, args));
    assert.equal(confirms.length, 1);
    assert.ok(!confirms[0].detail.includes(SECRET), confirms[0].detail);
    assert.match(confirms[0].detail, /personal_sendTransaction/);
    assert.match(confirms[0].detail, /\*\*\*/);
  });

  it("Look Up's and Call Contract's source: silent options from requestOptions(), each request one log line under the feature's tag", async () => {
    const { host } = editor(false);
    const seen: unknown[] = [];
    const r = await runOnProvider(host, { provider, title: 'Looking up', preset: 'silent', tag: 'lookUp' }, async (run) => {
      seen.push(run.options.formatWhileReceiving, run.options.timeoutMs, run.options.headers?.authorization);
      return run.source().evm('eth_blockNumber', []);
    });
    assert.equal(r, '0x10');
    assert.deepEqual(seen, [false, 5000, `Bearer ${SECRET}`]);
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^info \[lookUp\] explorer\.evmRpc POST http:\/\/127\.0\.0\.1:\d+\/? -> 200 \d+ ms \d+ B$/);
  });

  it('secrets are awaited before anything is sent', async () => {
    let open!: () => void;
    const ready = new Promise<void>((r) => (open = r));
    const host: RunHost = { ...base(ready), confirm: async () => true, progress: (_t, work) => work(() => undefined, new AbortController().signal) };
    const args = { method: 'eth_blockNumber', params: '[]' };
    const running = runOnProvider(host, { provider, title: 't' }, (run) => run.execute(custom, args));
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(server.requests.length, 0, 'nothing before the secrets are loaded');
    open();
    await running;
    assert.equal(server.requests[0].headers.authorization, `Bearer ${SECRET}`);
  });

  it("the API's token cancels the run", async () => {
    let cancel!: () => void;
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: (l: () => void) => {
        cancel = l;
        return { dispose: () => undefined };
      },
    };
    const host = apiHost(base(), token, () => assert.fail('a read is never refused'));
    const r = await runOnProvider(host, { provider, title: 't' }, async (run) => {
      cancel();
      return run.signal.aborted;
    });
    assert.equal(r, true);
  });
});
