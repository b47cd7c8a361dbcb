// Devnet fidelity against a real Cosmos EVM chain (evmd v0.3.2): the devnet's REST gateway, EVM
// JSON-RPC and CometBFT cache headers answer with evmd's shapes (same keys recursively, same JSON
// types and string encodings), HTTP statuses, redirects and error codes/messages. The devnet's
// chain is a kvstore, evmd's a Cosmos SDK app: what a tx *contains* differs by nature (listed in
// APP_CONTENT, not compared), how it is served does not. Any other difference fails; the devnet
// is then fixed to match (test/real/README.md keeps the list).
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { LocalAccount } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { bech32Encode, keccak256 } from '../devnet/encoding';
import { DEV0, EvmdNode, VALIDATOR } from './helpers/evmd';
import { raw, type Raw, rawPost, waitFor } from './helpers/nodes';
import { shapeDiff, type ShapeOptions } from './helpers/shape';

interface Side {
  name: 'devnet' | 'evmd';
  rest: string;
  evm: string;
  comet: string;
  /** A committed Cosmos tx (kvstore bytes on the devnet, a bank send on evmd). */
  tx: { hash: string; height: string };
  evmTx: { hash: string; height: string; blockHash: string };
  /** An account with a balance. */
  funded: string;
}

/**
 * Subtrees whose content is the application's, not the server's: a kvstore tx has no messages,
 * signers or fees, a bank send's events are the SDK modules'. Their presence and type are still
 * compared where both sides have them.
 */
const APP_CONTENT: ShapeOptions = {
  labelB: 'evmd',
  ignore: [
    '$.tx.body.messages',
    '$.tx.auth_info.signer_infos',
    '$.tx.auth_info.fee.amount',
    '$.tx.signatures',
    '$.tx_response.tx',
    '$.tx_response.events',
    '$.tx_response.data',
    '$.balances',
    '$.result.logs',
  ],
};

/** Headers of the REST gateway: these present or absent alike, the content type's value equal. */
const REST_PRESENT = ['x-cosmos-block-height', 'grpc-metadata-x-cosmos-block-height'];
function restHeaders(route: string, d: Raw, r: Raw): void {
  for (const h of REST_PRESENT) {
    if ((d.headers.get(h) === null) !== (r.headers.get(h) === null))
      note(route, [`header ${h}: devnet ${JSON.stringify(d.headers.get(h))}, evmd ${JSON.stringify(r.headers.get(h))}`]);
  }
  for (const h of ['grpc-metadata-content-type', 'content-type']) {
    if (d.headers.get(h) !== r.headers.get(h))
      note(route, [`header ${h}: devnet ${JSON.stringify(d.headers.get(h))}, evmd ${JSON.stringify(r.headers.get(h))}`]);
  }
}

const diffs: string[] = [];
function note(route: string, lines: string[]): void {
  for (const l of lines) diffs.push(`${route}: ${l}`);
}
const wording = (s: unknown): string | undefined =>
  typeof s === 'string'
    ? s
        .replace(/0x[0-9a-f]{64}/g, 'HASH')
        .replace(/[0-9A-F]{64}/g, 'HASH')
        .replace(/\d+/g, 'N')
    : undefined;

function compare(route: string, d: Raw, r: Raw, options: ShapeOptions = APP_CONTENT, headers: string[] = []): void {
  if (d.status !== r.status) note(route, [`HTTP status: devnet ${d.status}, evmd ${r.status}`]);
  for (const h of headers) {
    if (d.headers.get(h) !== r.headers.get(h))
      note(route, [`header ${h}: devnet ${JSON.stringify(d.headers.get(h))}, evmd ${JSON.stringify(r.headers.get(h))}`]);
  }
  if ((d.json === undefined) !== (r.json === undefined)) {
    note(route, [`body: devnet ${JSON.stringify(d.text.slice(0, 80))}, evmd ${JSON.stringify(r.text.slice(0, 80))}`]);
    return;
  }
  if (d.json === undefined) {
    if (d.text.trim() !== r.text.trim()) note(route, [`text body: devnet ${JSON.stringify(d.text.slice(0, 80))}, evmd ${JSON.stringify(r.text.slice(0, 80))}`]);
    return;
  }
  note(route, shapeDiff(d.json, r.json, options));
  // Error members: gRPC {code,message} (REST) or JSON-RPC {error:{code,message}} (EVM, CometBFT).
  const de = d.json?.error ?? (typeof d.json?.code === 'number' && d.json?.message !== undefined ? d.json : undefined);
  const re = r.json?.error ?? (typeof r.json?.code === 'number' && r.json?.message !== undefined ? r.json : undefined);
  if (de && re) {
    if (de.code !== re.code) note(route, [`error code: devnet ${de.code}, evmd ${re.code}`]);
    if (wording(de.message) !== wording(re.message)) note(route, [`error message: devnet ${JSON.stringify(de.message)}, evmd ${JSON.stringify(re.message)}`]);
  }
}

describe('devnet fidelity (REST, EVM JSON-RPC): the devnet answers with the shapes of a real evmd chain', function () {
  this.timeout(120_000);
  let node: EvmdNode;
  let devnet: Devnet;
  const sides = {} as Record<'devnet' | 'evmd', Side>;
  const dev0 = mnemonicToAccount(DEV0.mnemonic);

  const evmCall = async (url: string, method: string, params: unknown[]) => (await rawPost(url, { jsonrpc: '2.0', id: 1, method, params })).json;

  async function sendEvm(url: string, from: LocalAccount = dev0): Promise<Side['evmTx']> {
    const nonce = Number(BigInt((await evmCall(url, 'eth_getTransactionCount', [from.address, 'pending'])).result ?? '0x0'));
    const gasPrice = BigInt((await evmCall(url, 'eth_gasPrice', [])).result);
    const chainId = Number(BigInt((await evmCall(url, 'eth_chainId', [])).result));
    const tx = await from.signTransaction({
      type: 'eip1559',
      chainId,
      nonce,
      to: `0x${randomBytes(20).toString('hex')}`,
      value: 7n,
      gas: 21_000n,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: 1n,
    });
    const sent = await evmCall(url, 'eth_sendRawTransaction', [tx]);
    assert.equal(sent.result, '0x' + keccak256(Buffer.from(tx.slice(2), 'hex')).toString('hex'), `${url}: ${JSON.stringify(sent)}`);
    const receipt = await waitFor(
      `receipt on ${url}`,
      async () => (await evmCall(url, 'eth_getTransactionReceipt', [sent.result])).result ?? undefined,
      30_000,
      300,
    );
    return { hash: sent.result, height: BigInt(receipt.blockNumber).toString(), blockHash: receipt.blockHash };
  }

  async function sendCosmos(s: Pick<Side, 'rest' | 'comet'>, txBase64: string): Promise<Side['tx']> {
    const res = await rawPost(`${s.rest}/cosmos/tx/v1beta1/txs`, { tx_bytes: txBase64, mode: 'BROADCAST_MODE_SYNC' });
    assert.equal(res.json.tx_response?.code, 0, res.text);
    const hash = createHash('sha256').update(Buffer.from(txBase64, 'base64')).digest('hex').toUpperCase();
    const found = await waitFor(
      `tx ${hash}`,
      async () => {
        const t = await raw(`${s.comet}/tx?hash=0x${hash}`);
        return t.status === 200 ? t.json.result : undefined;
      },
      30_000,
      300,
    );
    return { hash, height: found.height };
  }

  before(async function () {
    this.timeout(240_000);
    node = await EvmdNode.create();
    await node.start();
    devnet = await startDevnet({ blockIntervalMs: 500, providers: [{ name: 'devnet' }] });
    const p = devnet.providers[0];
    const d = { rest: p.rest, evm: p.evmRpc, comet: p.consensusHttp };
    const e = { rest: node.rest, evm: node.evmRpc, comet: node.cometHttp };
    const validatorBech32 = node.addresses[VALIDATOR.name].bech32;
    const bankSend = node.signBankSend(validatorBech32, bech32Encode('cosmos', randomBytes(20)), 1000n);
    const devnetFunded = JSON.parse(devnet.genesisBytes().toString('utf8')).app_state.bank.balances[0].address as string;
    sides.devnet = {
      name: 'devnet',
      ...d,
      tx: await sendCosmos(d, Buffer.from(`fid-${randomBytes(4).toString('hex')}=1`).toString('base64')),
      // The devnet checks balances as a chain does: one of its funded dev keys signs there.
      evmTx: await sendEvm(d.evm, privateKeyToAccount(`0x${Buffer.from(devnet.chain.ledger.keys[0].privateKey).toString('hex')}`)),
      funded: devnetFunded,
    };
    sides.evmd = { name: 'evmd', ...e, tx: await sendCosmos(e, bankSend), evmTx: await sendEvm(e.evm), funded: validatorBech32 };
  });

  after(async () => {
    await devnet?.stop();
    await node?.dispose();
  });

  const get = (path: (s: Side) => string, init: RequestInit = {}) =>
    Promise.all([raw(sides.devnet.rest + path(sides.devnet), init), raw(sides.evmd.rest + path(sides.evmd), init)]);
  const B = '/cosmos/base/tendermint/v1beta1';

  it('REST answers: blocks, node info, syncing, validator sets, balances, a tx, a broadcast', async () => {
    const routes: Array<[string, (s: Side) => string, ShapeOptions?]> = [
      ['blocks/latest', () => `${B}/blocks/latest`],
      ['blocks with a tx', (s) => `${B}/blocks/${s.tx.height}`],
      ['blocks 1', () => `${B}/blocks/1`],
      ['node_info', () => `${B}/node_info`],
      ['syncing', () => `${B}/syncing`],
      ['validatorsets/latest', () => `${B}/validatorsets/latest`],
      ['validatorsets at a height', (s) => `${B}/validatorsets/${s.tx.height}`],
      ['balances of a funded account', (s) => `/cosmos/bank/v1beta1/balances/${s.funded}`],
      ['balances of an empty account', () => `/cosmos/bank/v1beta1/balances/${bech32Encode('cosmos', Buffer.alloc(20, 7))}`],
      ['tx by hash', (s) => `/cosmos/tx/v1beta1/txs/${s.tx.hash}`],
    ];
    for (const [name, path, options] of routes) {
      const [d, r] = await get(path);
      compare(`REST ${name}`, d, r, options);
      restHeaders(`REST ${name}`, d, r);
    }
    // A fresh broadcast each side (a kvstore tx on the devnet, a bank send on evmd) and the same tx again.
    const bankSend = node.signBankSend(node.addresses[VALIDATOR.name].bech32, bech32Encode('cosmos', randomBytes(20)), 1001n);
    const kv = Buffer.from(`fid-b-${randomBytes(4).toString('hex')}=1`).toString('base64');
    for (const name of ['broadcast', 'broadcast again']) {
      const [d, r] = await Promise.all([
        rawPost(`${sides.devnet.rest}/cosmos/tx/v1beta1/txs`, { tx_bytes: kv, mode: 'BROADCAST_MODE_SYNC' }),
        rawPost(`${sides.evmd.rest}/cosmos/tx/v1beta1/txs`, { tx_bytes: bankSend, mode: 'BROADCAST_MODE_SYNC' }),
      ]);
      compare(`REST ${name}`, d, r);
      restHeaders(`REST ${name}`, d, r);
      if (d.json?.tx_response?.code !== r.json?.tx_response?.code)
        note(`REST ${name}`, [`code devnet ${d.json?.tx_response?.code}, evmd ${r.json?.tx_response?.code}`]);
    }
  });

  it('REST errors: past the tip, bad heights, trailing slash, //, unknown routes, bad hashes and addresses', async () => {
    const cases: Array<[string, (s: Side) => string, RequestInit?]> = [
      ['block past the tip', () => `${B}/blocks/999999`],
      ['block height 0', () => `${B}/blocks/0`],
      ['block height abc', () => `${B}/blocks/abc`],
      ['trailing slash', () => `${B}/blocks/latest/`],
      ['double slash', () => `/${B}/syncing`, { redirect: 'manual' }],
      ['unknown route', () => '/cosmos/nothing/here'],
      ['POST on a GET route', () => `${B}/syncing`, { method: 'POST', body: '{}' }],
      ['tx not found', () => `/cosmos/tx/v1beta1/txs/${'AB'.repeat(32)}`],
      ['tx bad hash', () => '/cosmos/tx/v1beta1/txs/xyz'],
      ['tx odd-length hash', () => '/cosmos/tx/v1beta1/txs/abc'],
      ['tx short hash', () => '/cosmos/tx/v1beta1/txs/abcd'],
      ['balances bad address', () => '/cosmos/bank/v1beta1/balances/cosmos1abc'],
      ['validatorsets past the tip', () => `${B}/validatorsets/999999`],
    ];
    for (const [name, path, init] of cases) {
      const [d, r] = await get(path, init);
      compare(`REST error ${name}`, d, r, APP_CONTENT, ['location']);
      restHeaders(`REST error ${name}`, d, r);
    }
    const [d, r] = await Promise.all([
      rawPost(`${sides.devnet.rest}/cosmos/tx/v1beta1/txs`, { tx_bytes: '', mode: 'BROADCAST_MODE_SYNC' }),
      rawPost(`${sides.evmd.rest}/cosmos/tx/v1beta1/txs`, { tx_bytes: '', mode: 'BROADCAST_MODE_SYNC' }),
    ]);
    compare('REST error broadcast of an empty tx', d, r);
    restHeaders('REST error broadcast of an empty tx', d, r);
    if (d.json?.tx_response?.code !== r.json?.tx_response?.code)
      note('REST error broadcast of an empty tx', [`code devnet ${d.json?.tx_response?.code}, evmd ${r.json?.tx_response?.code}`]);
  });

  it('EVM JSON-RPC: answers and errors', async () => {
    const cases: Array<[string, (s: Side) => [string, unknown[]]]> = [
      ['eth_blockNumber', () => ['eth_blockNumber', []]],
      ['eth_chainId', () => ['eth_chainId', []]],
      ['net_version', () => ['net_version', []]],
      ['eth_gasPrice', () => ['eth_gasPrice', []]],
      ['eth_syncing', () => ['eth_syncing', []]],
      ['eth_getBlockByNumber latest', () => ['eth_getBlockByNumber', ['latest', false]]],
      ['eth_getBlockByNumber with the tx', (s) => ['eth_getBlockByNumber', ['0x' + BigInt(s.evmTx.height).toString(16), false]]],
      ['eth_getBlockByNumber with the tx, full', (s) => ['eth_getBlockByNumber', ['0x' + BigInt(s.evmTx.height).toString(16), true]]],
      ['eth_getBlockByNumber past the tip', () => ['eth_getBlockByNumber', ['0xfffffff', false]]],
      ['eth_getBlockByHash', (s) => ['eth_getBlockByHash', [s.evmTx.blockHash, false]]],
      ['eth_getTransactionByHash', (s) => ['eth_getTransactionByHash', [s.evmTx.hash]]],
      ['eth_getTransactionByHash unknown', () => ['eth_getTransactionByHash', ['0x' + 'ab'.repeat(32)]]],
      ['eth_getTransactionReceipt', (s) => ['eth_getTransactionReceipt', [s.evmTx.hash]]],
      ['eth_getTransactionReceipt unknown', () => ['eth_getTransactionReceipt', ['0x' + 'ab'.repeat(32)]]],
      ['eth_getBalance', () => ['eth_getBalance', [dev0.address, 'latest']]],
      ['eth_getBalance bad address', () => ['eth_getBalance', ['0x12', 'latest']]],
      ['eth_getBlockByNumber bad tag', () => ['eth_getBlockByNumber', ['0x01', false]]],
      ['eth_sendRawTransaction empty', () => ['eth_sendRawTransaction', ['0x']]],
      ['unknown method', () => ['no_such_method', []]],
    ];
    const options: ShapeOptions = { labelB: 'evmd' };
    for (const [name, make] of cases) {
      const [d, r] = await Promise.all(
        (['devnet', 'evmd'] as const).map((k) => rawPost(sides[k].evm, { jsonrpc: '2.0', id: 1, method: make(sides[k])[0], params: make(sides[k])[1] })),
      );
      compare(`EVM ${name}`, d, r, options);
    }
  });

  it('EVM JSON-RPC over HTTP: no "jsonrpc", no JSON content type, GET, //, unknown path, batches', async () => {
    const both = (path: string, init: RequestInit) => Promise.all([raw(sides.devnet.evm + path, init), raw(sides.evmd.evm + path, init)]);
    const json = { 'content-type': 'application/json' };
    const cases: Array<[string, string, RequestInit]> = [
      ['no jsonrpc member', '/', { method: 'POST', headers: json, body: '{"id":1,"method":"eth_blockNumber","params":[]}' }],
      [
        'text/plain',
        '/',
        { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' },
      ],
      ['GET', '/', { method: 'GET' }],
      ['double slash', '//', { method: 'POST', headers: json, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}', redirect: 'manual' }],
      ['unknown path', '/nothing', { method: 'POST', headers: json, body: '{}' }],
      ['not JSON', '/', { method: 'POST', headers: json, body: '{"jsonrpc":' }],
      ['batch', '/', { method: 'POST', headers: json, body: '[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"nope"}]' }],
      ['empty batch', '/', { method: 'POST', headers: json, body: '[]' }],
    ];
    for (const [name, path, init] of cases) {
      const [d, r] = await both(path, init);
      compare(`EVM HTTP ${name}`, d, r, { labelB: 'evmd' }, ['location']);
    }
  });

  it('CometBFT on evmd: cache headers of block, block_results, genesis and errors over GET and POST', async () => {
    const both = (f: (s: Side) => Promise<Raw>) => Promise.all([f(sides.devnet), f(sides.evmd)]);
    const post = (body: unknown) => (s: Side) => rawPost(s.comet, body);
    const cases: Array<[string, (s: Side) => Promise<Raw>]> = [
      ['GET block at a height', (s) => raw(`${s.comet}/block?height=${s.tx.height}`)],
      ['GET block latest', (s) => raw(`${s.comet}/block`)],
      ['GET block past the tip', (s) => raw(`${s.comet}/block?height=999999`)],
      ['GET block_results', (s) => raw(`${s.comet}/block_results?height=${s.tx.height}`)],
      ['GET tx', (s) => raw(`${s.comet}/tx?hash=0x${s.tx.hash}`)],
      ['GET status', (s) => raw(`${s.comet}/status`)],
      ['GET //status', (s) => raw(`${s.comet}//status`, { redirect: 'manual' })],
      ['POST //', (s) => raw(`${s.comet}//`, { method: 'POST', body: '{}', redirect: 'manual' })],
      ['POST validators without params', post({ jsonrpc: '2.0', id: 1, method: 'validators' })],
      [
        'POST batch health + block without params',
        post([
          { jsonrpc: '2.0', id: 1, method: 'health' },
          { jsonrpc: '2.0', id: 2, method: 'block' },
        ]),
      ],
      ['POST block at a height', (s) => post({ jsonrpc: '2.0', id: 1, method: 'block', params: [s.tx.height] })(s)],
      ['POST block past the tip', post({ jsonrpc: '2.0', id: 1, method: 'block', params: ['999999'] })],
      ['POST block without params', post({ jsonrpc: '2.0', id: 1, method: 'block' })],
      ['POST block number param', post({ jsonrpc: '2.0', id: 1, method: 'block', params: [5] })],
      ['POST status', post({ jsonrpc: '2.0', id: 1, method: 'status', params: [] })],
      ['POST abci_info', post({ jsonrpc: '2.0', id: 1, method: 'abci_info' })],
      [
        'POST batch validators + block',
        post([
          { jsonrpc: '2.0', id: 1, method: 'validators', params: { height: '1' } },
          { jsonrpc: '2.0', id: 2, method: 'block', params: ['1'] },
        ]),
      ],
      [
        'POST batch with status',
        post([
          { jsonrpc: '2.0', id: 1, method: 'status' },
          { jsonrpc: '2.0', id: 2, method: 'block', params: ['1'] },
        ]),
      ],
    ];
    for (const [name, f] of cases) {
      const [d, r] = await both(f);
      if (d.status !== r.status) note(`CometBFT ${name}`, [`HTTP status devnet ${d.status}, evmd ${r.status}`]);
      for (const h of ['cache-control', 'location', 'content-type']) {
        if (d.headers.get(h) !== r.headers.get(h))
          note(`CometBFT ${name}`, [`${h} devnet ${JSON.stringify(d.headers.get(h))}, evmd ${JSON.stringify(r.headers.get(h))}`]);
      }
      if (d.status >= 300 && d.status < 400 && d.text !== r.text)
        note(`CometBFT ${name}`, [`redirect body devnet ${JSON.stringify(d.text)}, evmd ${JSON.stringify(r.text)}`]);
      if (d.status === 500 && r.status === 500) compare(`CometBFT ${name}`, d, r, { labelB: 'evmd' });
    }
  });

  it('CometBFT block_results of an EVM transfer: the ethereum_tx, tx_log and evm message events', async () => {
    const evmEvents = async (s: Side) => {
      const r = await raw(`${s.comet}/block_results?height=${s.evmTx.height}`);
      const tx = (r.json.result.txs_results as Array<{ events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }> }>).find((t) =>
        t.events.some((e) => e.type === 'ethereum_tx' && e.attributes.some((a) => a.value === s.evmTx.hash)),
      );
      if (!tx) throw new Error(`${s.name}: no txs_results entry with ethereum_tx ${s.evmTx.hash}`);
      const kept = tx.events.filter(
        (e) => e.type === 'ethereum_tx' || e.type === 'tx_log' || (e.type === 'message' && e.attributes.some((a) => a.key === 'action' || a.key === 'module')),
      );
      return kept.map((e) => `${e.type}(${e.attributes.map((a) => a.key).join(',')})`);
    };
    const [d, r] = await Promise.all([evmEvents(sides.devnet), evmEvents(sides.evmd)]);
    if (JSON.stringify(d) !== JSON.stringify(r)) note('CometBFT block_results EVM events', [`devnet ${d.join(' ')}`, `evmd ${r.join(' ')}`]);
  });

  it('no differences', () => {
    assert.deepEqual(diffs, [], `devnet differs from evmd:\n  ${diffs.join('\n  ')}`);
  });
});
