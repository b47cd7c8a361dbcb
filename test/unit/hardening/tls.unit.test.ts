// TLS mistakes a public endpoint (or a person typing its address) makes, each one clear sentence:
// a self-signed certificate (HTTPS and WSS), a certificate for another name, https:// to a plain
// HTTP port, a server that offers only an old TLS version; and the health probe's short reason.
// The certificates are made for the run with the openssl command line (.ci/run installs it).

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WebSocketServer } from 'ws';
import { execute } from '../../../src/core/chain/execute';
import { HealthMonitor } from '../../../src/core/health/health';
import { HttpClient } from '../../../src/core/transport/http';
import { findOperation } from '../../../src/core/chain/operations';
import { listen } from '../helpers/httpServer';
import { selfSigned } from '../helpers/selfSigned';

const STATUS = JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x10' });

describe('hardening: TLS mistakes get one clear sentence', function () {
  this.timeout(20_000);
  let dir: string;
  let client: HttpClient;
  const servers: (http.Server | https.Server)[] = [];
  let selfSignedPort: number;
  let otherNamePort: number;
  let plainPort: number;
  let oldTlsPort: number;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ce-tls-'));
    const local = selfSigned(dir, 'local', 'IP:127.0.0.1,DNS:localhost');
    const other = selfSigned(dir, 'other', 'DNS:node.example.org');
    const answer = (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(STATUS);
    };
    const tlsServer = https.createServer(local, answer);
    new WebSocketServer({ server: tlsServer });
    const others = https.createServer(other, answer);
    const plain = http.createServer(answer);
    const old = https.createServer({ ...local, minVersion: 'TLSv1', maxVersion: 'TLSv1.1' }, answer);
    servers.push(tlsServer, others, plain, old);
    [selfSignedPort, otherNamePort, plainPort, oldTlsPort] = await Promise.all(servers.map(listen));
    client = new HttpClient();
  });

  after(async () => {
    await client.close();
    for (const s of servers) {
      s.closeAllConnections?.();
      s.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const blockNumber = (url: string) =>
    execute(
      { name: 'T', endpoints: { evmRpc: url } },
      findOperation('evm.blockNumber')!,
      {},
      { http: client, timeoutMs: 5000, maxBufferBytes: 1 << 20, spillDir: dir },
    );

  it('a self-signed certificate (HTTPS)', async () => {
    const o = await blockNumber(`https://127.0.0.1:${selfSignedPort}/`);
    assert.equal(o.error?.kind, 'network');
    assert.equal(o.error?.message, `Could not reach https://127.0.0.1:${selfSignedPort}/: TLS error: self-signed certificate.`);
  });

  it('a self-signed certificate (WSS)', async () => {
    const o = await execute(
      { name: 'T', endpoints: { consensusWs: `wss://127.0.0.1:${selfSignedPort}/websocket` } },
      findOperation('consensusWs.custom')!,
      { method: 'status', params: '{}' },
      { http: client, timeoutMs: 5000, maxBufferBytes: 1 << 20, spillDir: dir },
    );
    assert.equal(o.error?.kind, 'network');
    assert.match(o.error!.message, /^Could not reach wss:\/\/127\.0\.0\.1:\d+\/websocket: TLS error: self-signed certificate\.$/);
  });

  it('a certificate for another name', async () => {
    const o = await blockNumber(`https://127.0.0.1:${otherNamePort}/`);
    assert.equal(o.error?.kind, 'network');
    // Self-signed is what fails first; the name is checked against a trusted certificate only.
    assert.match(
      o.error!.message,
      /^Could not reach https:\/\/127\.0\.0\.1:\d+\/: TLS error: (self-signed certificate|the certificate does not match the host name)\.$/,
    );
  });

  it('https:// to a plain HTTP port says so, not an OpenSSL trace', async () => {
    const o = await blockNumber(`https://127.0.0.1:${plainPort}/`);
    assert.equal(o.error?.kind, 'network');
    assert.equal(
      o.error?.message,
      `Could not reach https://127.0.0.1:${plainPort}/: TLS error: the server does not speak TLS on this port (is the address http://?).`,
    );
  });

  it('a server offering only TLS 1.0/1.1: the reason in a few words, one line', async () => {
    const o = await blockNumber(`https://127.0.0.1:${oldTlsPort}/`);
    assert.equal(o.error?.kind, 'network');
    assert.match(o.error!.message, /^Could not reach https:\/\/127\.0\.0\.1:\d+\/: TLS error: [a-z0-9 ]+\.$/i);
    assert.doesNotMatch(o.error!.message, /\n|ssl3_|\.c:\d+/);
  });

  it('the health probe names it "TLS error"', async () => {
    const monitor = new HealthMonitor({ http: client, timeoutMs: 5000 });
    const providers = [
      { name: 'self-signed', endpoints: { evmRpc: `https://127.0.0.1:${selfSignedPort}/` } },
      { name: 'wrong scheme', endpoints: { evmRpc: `https://127.0.0.1:${plainPort}/` } },
    ];
    await monitor.refresh(providers);
    const rows = monitor.assess(providers);
    assert.deepEqual(
      rows.map((r) => [r.provider, r.state, r.reason]),
      [
        ['self-signed', 'down', 'TLS error'],
        ['wrong scheme', 'down', 'TLS error'],
      ],
    );
  });
});
