// @ts-check
// The loopback servers of the benchmarks, each kind in its own process (forked by lib.startChild):
//   devnet  the simulated network (test/devnet), no automatic blocks: answers stay the same
//   fanout  20 providers x (EVM, CometBFT HTTP/RPC/WebSocket, REST) plain node:http servers that
//           answer fixed bodies (captured once from the devnet) after a delay
//   wspush  a WebSocket server that answers subscribe, then pushes N NewBlockHeader events
//           (captured from the devnet, heights 1..N) as fast as the socket takes them
//   fixed   one node:http server answering one fixed body (a generated block_results-like JSON)
//   jsonrpc one node:http server answering each JSON-RPC method with a fixed result (`answers`: method -> result)
//   gauge   no server: a fixed piece of work every second, and its CPU per window (the machine's own
//           charge for the same work, beside a case measuring CPU)
//   scraper no server: a client that GETs `url` every `everyMs` (a Prometheus in its own process, so the
//           exporter's CPU case counts the exporter alone)
import http from 'node:http';
import { WebSocketServer, WebSocket } from 'ws';
import { OUT, require } from './lib.mjs';
import path from 'node:path';

const { startDevnet } = require(path.join(OUT, 'test', 'devnet', 'devnet.js'));

const listen = (server) => new Promise((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, () => resolve(server.address().port)));

const kinds = {
  async devnet(opts) {
    const devnet = await startDevnet({ blockIntervalMs: 0, providers: [{ name: 'bench' }], ...opts });
    for (let i = 0; i < (opts.blocks ?? 5); i++) devnet.produceBlock();
    return {
      info: { providers: devnet.providers, height: devnet.height().toString(), genesisBytes: devnet.genesisBytes().length },
      commands: {
        produceBlock: () => {
          devnet.produceBlock();
          return { height: devnet.height().toString() };
        },
        requests: () => ({ n: devnet.lastRequests('bench').length }),
      },
    };
  },

  async fanout({ providers = 20, delayMs = 100 }) {
    const bodies = await captureFromDevnet();
    const rpc = (id, resultText) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultText}}`;
    const later = (fn) => setTimeout(fn, delayMs);
    const counts = { connections: 0, requests: 0, upgrades: 0 };
    const reply = (res, text) =>
      later(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      });
    const readBody = (req) =>
      new Promise((resolve) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => resolve(Buffer.concat(chunks).toString()));
      });
    const serve = (handler) => {
      const server = http.createServer({ keepAliveTimeout: 60_000 }, async (req, res) => {
        counts.requests++;
        const body = await readBody(req);
        handler(req, res, body);
      });
      server.on('connection', () => counts.connections++);
      return server;
    };
    const out = [];
    for (let p = 0; p < providers; p++) {
      const evm = serve((req, res, body) => {
        const m = JSON.parse(body);
        reply(res, rpc(m.id, m.method === 'eth_chainId' ? bodies.chainId : m.method === 'eth_getBlockByNumber' ? bodies.latestEvmBlock : bodies.blockNumber));
      });
      const consensus = serve((req, res, body) => {
        reply(res, rpc(req.method === 'GET' ? -1 : JSON.parse(body).id, bodies.status));
      });
      const wss = new WebSocketServer({ noServer: true });
      consensus.on('upgrade', (req, socket, head) => {
        counts.upgrades++;
        wss.handleUpgrade(req, socket, head, (ws) => {
          ws.on('message', (data) => {
            const m = JSON.parse(data.toString());
            later(() => ws.readyState === WebSocket.OPEN && ws.send(rpc(m.id, m.method === 'status' ? bodies.status : '{}')));
          });
        });
      });
      const rest = serve((req, res) => reply(res, bodies.latestBlock));
      const [e, c, r] = [await listen(evm), await listen(consensus), await listen(rest)];
      out.push({
        name: `Provider ${p + 1}`,
        endpoints: {
          evmRpc: `http://127.0.0.1:${e}`,
          consensusHttp: `http://127.0.0.1:${c}`,
          consensusRpc: `http://127.0.0.1:${c}`,
          consensusWs: `ws://127.0.0.1:${c}/websocket`,
          rest: `http://127.0.0.1:${r}`,
        },
      });
    }
    return { info: { providers: out }, commands: { counts: () => ({ ...counts }) } };
  },

  async wspush({ events }) {
    const { event } = await captureFromDevnet();
    const template = JSON.parse(event);
    const frames = [];
    for (let h = 1; h <= events; h++) {
      template.result.data.value.header.height = String(h);
      frames.push(JSON.stringify(template));
    }
    const server = http.createServer();
    const wss = new WebSocketServer({ server });
    wss.on('connection', (ws) => {
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString());
        if (m.method !== 'subscribe') return;
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
        let i = 0;
        const push = () => {
          // As fast as the socket drains: keep ~1 MB queued.
          while (i < frames.length && ws.readyState === WebSocket.OPEN) {
            ws.send(frames[i++].replace('"id":1,', `"id":${m.id},`));
            if (ws.bufferedAmount > 1 << 20) return void setImmediate(push);
          }
        };
        push();
      });
    });
    const port = await listen(server);
    return { info: { url: `ws://127.0.0.1:${port}/websocket`, frameBytes: frames[0].length }, commands: {} };
  },

  // wsrate: answers subscribe, then sends `rate` Tx events per second (each its own seq in tx.height)
  // for `seconds`, on a schedule kept against the clock (catching up after a late tick).
  async wsrate({ rate, seconds }) {
    const frame = (id, n) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        result: {
          query: "tm.event='Tx'",
          data: {
            type: 'tendermint/event/Tx',
            value: {
              TxResult: { height: String(n), index: 0, tx: 'CpIBCo8BChwvY29zbW9zLmJhbmsudjFiZXRhMS5Nc2dTZW5k', result: { code: 0, gas_used: '81234' } },
            },
          },
          events: {
            'tm.event': ['Tx'],
            'tx.hash': [n.toString(16).toUpperCase().padStart(64, '0')],
            'tx.height': [String(n)],
            'message.sender': [`cosmos1${n.toString(36).padStart(38, 'p')}`],
            'transfer.recipient': [`cosmos1${(n * 7919).toString(36).padStart(38, 'q')}`],
            'transfer.amount': [`${n % 100000}uatom`],
          },
        },
      });
    const counts = { sent: 0 };
    const server = http.createServer();
    const wss = new WebSocketServer({ server });
    wss.on('connection', (ws) => {
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString());
        if (m.method !== 'subscribe') return;
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
        const total = rate * seconds;
        const t0 = performance.now();
        const timer = setInterval(() => {
          const due = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000));
          while (counts.sent < due && ws.readyState === WebSocket.OPEN) ws.send(frame(m.id, ++counts.sent));
          if (counts.sent >= total) clearInterval(timer);
        }, 10);
      });
    });
    const port = await listen(server);
    return { info: { url: `ws://127.0.0.1:${port}/websocket`, frameBytes: frame(1, 1).length }, commands: { sent: () => ({ sent: counts.sent }) } };
  },

  async jsonrpc({ answers }) {
    // Each answer serialised per request, as a node does (and as this server did inside the case's process before).
    const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const m = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: answers[m.method] ?? null }));
      });
    });
    const port = await listen(server);
    return { info: { url: `http://127.0.0.1:${port}` }, commands: {} };
  },

  async scraper({ url, everyMs }) {
    const counts = { scrapes: 0, failed: 0, bytes: 0 };
    const scrape = async () => {
      try {
        const res = await fetch(url);
        counts.bytes += (await res.text()).length;
        counts.scrapes++;
      } catch {
        counts.failed++;
      }
    };
    const timer = setInterval(() => void scrape(), everyMs);
    return { info: { started: true }, commands: { stop: () => (clearInterval(timer), counts) } };
  },

  // A fixed piece of work every second (a JSON document written and read back): its CPU per window,
  // measured beside a case's, shows how much the machine itself charged for the same work then.
  async gauge({ everyMs = 1000, copies = 20 }) {
    const doc = { rows: Array.from({ length: 200 }, (_, i) => ({ i, hash: `0x${i.toString(16).padStart(64, '0')}`, ok: i % 2 === 0 })) };
    const timer = setInterval(() => {
      for (let i = 0; i < copies; i++) JSON.parse(JSON.stringify(doc));
    }, everyMs);
    let last = process.cpuUsage();
    return {
      info: { started: true },
      commands: {
        mark: () => {
          const now = process.cpuUsage();
          const cpuMs = (now.user - last.user + now.system - last.system) / 1000;
          last = now;
          return { cpuMs };
        },
        stop: () => (clearInterval(timer), {}),
      },
    };
  },

  async fixed({ megabytes }) {
    const body = generateBlockResults(megabytes * 1024 * 1024);
    const server = http.createServer({ keepAliveTimeout: 600_000 }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
    const port = await listen(server);
    return { info: { url: `http://127.0.0.1:${port}`, bytes: body.length }, commands: {} };
  },
};

/** Real answers of the devnet: status, eth_blockNumber, eth_getBlockByNumber("latest", false), eth_chainId, REST blocks/latest, a NewBlockHeader event. */
async function captureFromDevnet() {
  const devnet = await startDevnet({ blockIntervalMs: 0, providers: [{ name: 'capture' }] });
  try {
    for (let i = 0; i < 5; i++) devnet.produceBlock();
    const p = devnet.providers[0];
    const result = async (url, init) => JSON.stringify((await (await fetch(url, init)).json()).result);
    const post = (method, params = []) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const status = await result(`${p.consensusHttp}/status`);
    const blockNumber = await result(p.evmRpc, post('eth_blockNumber'));
    const latestEvmBlock = await result(p.evmRpc, post('eth_getBlockByNumber', ['latest', false]));
    const chainId = await result(p.evmRpc, post('eth_chainId'));
    const latestBlock = await (await fetch(`${p.rest}/cosmos/base/tendermint/v1beta1/blocks/latest`)).text();
    const event = await new Promise((resolve, reject) => {
      const ws = new WebSocket(p.consensusWs);
      ws.on('error', reject);
      ws.on('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { query: "tm.event='NewBlockHeader'" } })));
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString());
        if (m.result && m.result.data === undefined) return void devnet.produceBlock();
        ws.close();
        resolve(JSON.stringify(m));
      });
    });
    return { status, blockNumber, latestEvmBlock, chainId, latestBlock, event };
  } finally {
    await devnet.stop();
  }
}

/** A CometBFT block_results-like answer of about `size` bytes (deterministic). */
function generateBlockResults(size) {
  const parts = [];
  let bytes = 0;
  for (let i = 0; bytes < size; i++) {
    const tx = {
      code: 0,
      data: Buffer.from(`tx-${i}-`.repeat(6)).toString('base64'),
      log: '',
      info: '',
      gas_wanted: String(200000 + (i % 977)),
      gas_used: String(81234 + ((i * 37) % 10007)),
      events: [
        {
          type: 'transfer',
          attributes: [
            { key: 'recipient', value: `cosmos1${(i * 7919).toString(36).padStart(38, 'q')}`, index: true },
            { key: 'sender', value: `cosmos1${(i * 104729).toString(36).padStart(38, 'p')}`, index: true },
            { key: 'amount', value: `${(i * 31) % 100000}uatom`, index: true },
          ],
        },
        {
          type: 'tx',
          attributes: [
            { key: 'fee', value: `${5000 + (i % 13)}uatom`, index: true },
            { key: 'acc_seq', value: `cosmos1abc/${i}`, index: true },
          ],
        },
      ],
      codespace: '',
    };
    const text = JSON.stringify(tx);
    parts.push(text);
    bytes += text.length + 1;
  }
  return Buffer.from(
    `{"jsonrpc":"2.0","id":1,"result":{"height":"1234567","txs_results":[${parts.join(',')}],"finalize_block_events":[],"validator_updates":[],"consensus_param_updates":null,"app_hash":"AAAA"}}`,
  );
}

process.once('message', async (/** @type {any} */ config) => {
  const { info, commands } = await kinds[config.kind](config);
  process.on('message', (/** @type {any} */ m) => process.send(commands[m.cmd]?.(m) ?? { error: `unknown command ${m.cmd}` }));
  process.send(info);
});
process.on('SIGTERM', () => process.exit(0));
