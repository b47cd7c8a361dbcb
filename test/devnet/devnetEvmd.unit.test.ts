// What the devnet learned from a real evmd v0.3.2 chain (test/real/README.md lists each
// difference; test/real/evmdFidelity.real.test.ts compares the two). Pinned here so that the
// devnet keeps them on machines without Go.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Devnet, startDevnet } from './devnet';
import { devTransfer } from './devSign';

type Json = any;

async function req(url: string, init: RequestInit = {}): Promise<{ status: number; text: string; json: Json; headers: Headers }> {
  const res = await fetch(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, headers: res.headers };
}
const post = (url: string, body: unknown) => req(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('devnet: the answers of a real evmd chain', () => {
  let net: Devnet;
  let P: Devnet['providers'][number];
  const B = '/cosmos/base/tendermint/v1beta1';

  before(async () => {
    net = await startDevnet({ blockIntervalMs: 0, providers: [{ name: 'A' }] });
    for (let i = 0; i < 3; i++) net.produceBlock();
    P = net.providers[0];
  });
  after(() => net.stop());

  it('CometBFT: Cache-Control on cacheable routes with a height, POST errors of cacheable calls included', async () => {
    const cached = 'public, max-age=86400';
    assert.equal((await req(`${P.consensusHttp}/block?height=2`)).headers.get('cache-control'), cached);
    assert.equal((await req(`${P.consensusHttp}/block`)).headers.get('cache-control'), null);
    assert.equal((await req(`${P.consensusHttp}/block?height=999`)).headers.get('cache-control'), null, 'GET errors: no header');
    assert.equal((await req(`${P.consensusHttp}/status`)).headers.get('cache-control'), null);
    assert.equal((await req(`${P.consensusHttp}/genesis`)).headers.get('cache-control'), cached);
    const past = await post(P.consensusRpc, { jsonrpc: '2.0', id: 1, method: 'block', params: ['999'] });
    assert.equal(past.status, 200);
    assert.equal(past.json.error.code, -32603);
    assert.equal(past.headers.get('cache-control'), cached, 'POST: a handler error is cacheable');
    const bad = await post(P.consensusRpc, { jsonrpc: '2.0', id: 1, method: 'block', params: [5] });
    assert.equal(bad.headers.get('cache-control'), null, 'parameter errors are not');
    const mixed = await post(P.consensusRpc, [
      { jsonrpc: '2.0', id: 1, method: 'status' },
      { jsonrpc: '2.0', id: 2, method: 'block', params: ['1'] },
    ]);
    assert.equal(mixed.headers.get('cache-control'), null, 'a batch is cacheable only when every call is');
  });

  it('CometBFT: POST without params for a method with arguments is HTTP 500 (the handler panics), // is a 307', async () => {
    for (const body of [
      { jsonrpc: '2.0', id: 1, method: 'block' },
      [
        { jsonrpc: '2.0', id: 1, method: 'health' },
        { jsonrpc: '2.0', id: 2, method: 'validators' },
      ],
    ]) {
      const r = await post(P.consensusRpc, body);
      assert.equal(r.status, 500);
      assert.deepEqual(r.json, {
        jsonrpc: '2.0',
        id: -1,
        error: { code: -32603, message: 'Internal error', data: 'reflect: Call with too few input arguments' },
      });
    }
    assert.equal((await post(P.consensusRpc, { jsonrpc: '2.0', id: 1, method: 'status' })).status, 200);
    assert.equal((await post(P.consensusRpc, { jsonrpc: '2.0', id: 1, method: 'block', params: {} })).json.result.block.header.height, net.height().toString());
    const r = await req(`${P.consensusHttp}//status`);
    assert.equal(r.status, 307);
    assert.equal(r.headers.get('location'), '/status');
    assert.equal(r.text, '<a href="/status">Temporary Redirect</a>.\n\n');
  });

  it('REST: gRPC headers as the gateway sends them, nil hashes null, a 301 without a body for //', async () => {
    const ok = await req(`${P.rest}${B}/blocks/1`);
    const tip = net.height().toString();
    assert.equal(ok.headers.get('x-cosmos-block-height'), tip);
    assert.equal(ok.headers.get('grpc-metadata-x-cosmos-block-height'), tip);
    assert.equal(ok.headers.get('grpc-metadata-content-type'), 'application/grpc+cosmos-sdk-grpc-codec');
    assert.equal(ok.json.block.header.last_block_id.hash, null);
    assert.equal(ok.json.block.header.last_block_id.part_set_header.hash, null);
    const past = await req(`${P.rest}${B}/blocks/99`);
    assert.equal(past.status, 400);
    assert.equal(past.headers.get('x-cosmos-block-height'), null, 'errors: no x-cosmos-block-height');
    assert.equal(past.headers.get('grpc-metadata-x-cosmos-block-height'), tip);
    for (const path of [`${B}/blocks/abc`, `${B}/blocks/latest/`, '/cosmos/nothing']) {
      const r = await req(`${P.rest}${path}`);
      assert.equal(r.headers.get('grpc-metadata-content-type'), null, `${path}: the gateway's own refusal`);
    }
    const dbl = await req(`${P.rest}//cosmos/base/tendermint/v1beta1/syncing`);
    assert.equal(dbl.status, 301);
    assert.equal(dbl.headers.get('location'), '/cosmos/base/tendermint/v1beta1/syncing');
    assert.equal(dbl.text, '');
  });

  it('REST: tx hashes decoded as hex (code 2), short ones not found (code 5); an empty broadcast is CheckTx code 18', async () => {
    const x = await req(`${P.rest}/cosmos/tx/v1beta1/txs/xyz`);
    assert.equal(x.status, 500);
    assert.deepEqual(x.json, { code: 2, message: "encoding/hex: invalid byte: U+0078 'x'", details: [] });
    assert.equal((await req(`${P.rest}/cosmos/tx/v1beta1/txs/abc`)).json.message, 'encoding/hex: odd length hex string');
    const short = await req(`${P.rest}/cosmos/tx/v1beta1/txs/abcd`);
    assert.equal(short.status, 404);
    assert.deepEqual(short.json, { code: 5, message: 'tx not found: abcd', details: [] });
    const empty = await post(`${P.rest}/cosmos/tx/v1beta1/txs`, { tx_bytes: '', mode: 'BROADCAST_MODE_SYNC' });
    assert.equal(empty.status, 200);
    assert.equal(empty.json.tx_response.code, 18);
    assert.equal(empty.json.tx_response.raw_log, 'must contain at least one message: invalid request');
    assert.equal(empty.headers.get('x-cosmos-block-height'), null, 'broadcasts carry no height header');
  });

  it('EVM: the receipt of an unknown tx is -32000, transactions have no yParity, a transfer has the events of Cosmos EVM', async () => {
    const hash = '0x' + 'ab'.repeat(32);
    const r = await post(P.evmRpc, { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] });
    assert.deepEqual(r.json.error, { code: -32000, message: `GetTxByEthHash ${hash}: ethereum tx not found` });
    const { raw } = devTransfer(net.chain, 2);
    const sent = await post(P.evmRpc, { jsonrpc: '2.0', id: 2, method: 'eth_sendRawTransaction', params: [raw] });
    net.produceBlock();
    const tx = await post(P.evmRpc, { jsonrpc: '2.0', id: 3, method: 'eth_getTransactionByHash', params: [sent.json.result] });
    assert.equal(tx.json.result.hash, sent.json.result);
    assert.equal('yParity' in tx.json.result, false);
    const results = (await req(`${P.consensusHttp}/block_results?height=${net.height()}`)).json.result;
    // Without the bank module's coin events (coin_spent, coin_received, transfer, message(sender)) and the fee's tx event.
    const kinds = (results.txs_results[0].events as Json[])
      .map((e) => `${e.type}(${(e.attributes as Json[]).map((a) => a.key).join(',')})`)
      .filter((k) => /^(ethereum_tx|tx_log)\(/.test(k) || /^message\((action|module)/.test(k));
    assert.deepEqual(kinds, [
      'ethereum_tx(ethereumTxHash,txIndex)',
      'message(action,sender,msg_index)',
      'ethereum_tx(amount,ethereumTxHash,txIndex,txGasUsed,txHash,recipient,msg_index)',
      'tx_log(msg_index)',
      'message(module,sender,txType,msg_index)',
    ]);
  });

  describe('real transactions have the shapes of the recorded evmd ones', () => {
    let real: Devnet;
    let R: Devnet['providers'][number];
    const fixture = (name: string): Json => JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'evmd', name), 'utf8'));
    /** The JSON's shape: object keys (in order) and value kinds, arrays by their first element. */
    const shape = (v: Json): Json => {
      if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]));
      return v === null ? 'null' : typeof v;
    };
    const eventKeys = (events: Json[]): string[] => events.map((e) => `${e.type}(${(e.attributes as Json[]).map((a) => a.key).join(',')})`);
    const txOf = (kind: 'bank' | 'transfer' | 'call') =>
      [...real.chain.allTxs()].find((t) =>
        kind === 'bank'
          ? t.real?.kind === 'bank'
          : t.real?.kind === 'evm' && t.real.tx.to !== null && (kind === 'transfer' ? t.real.tx.input === '0x' : t.real.tx.input !== '0x'),
      ) as NonNullable<ReturnType<Devnet['chain']['tx']>>;

    before(async () => {
      real = await startDevnet({ blockIntervalMs: 0, realTxs: true, providers: [{ name: 'R' }] });
      real.produceBlock();
      R = real.providers[0];
    });
    after(() => real.stop());

    it('CometBFT /tx of a bank send: the events of evmd, in its order', async () => {
      const ours = (await req(`${R.consensusHttp}/tx?hash=0x${txOf('bank').hash}`)).json.result;
      const theirs = fixture('cometbft-tx-bank-send.json').result;
      assert.deepEqual(shape(ours), shape(theirs));
      assert.deepEqual(eventKeys(ours.tx_result.events), eventKeys(theirs.tx_result.events));
      assert.equal(
        Buffer.from(ours.tx_result.data, 'base64').toString('hex'),
        Buffer.from(theirs.tx_result.data, 'base64').toString('hex'),
        'TxMsgData{MsgSendResponse}',
      );
    });

    it("CometBFT /tx of an EVM transfer: evmd's ethereum_tx, message, tx_log events and attribute keys", async () => {
      const ours = (await req(`${R.consensusHttp}/tx?hash=0x${txOf('transfer').hash}`)).json.result;
      const theirs = fixture('cometbft-tx-ethereum.json').result;
      assert.deepEqual(shape(ours), shape(theirs));
      const pick = (events: Json[]) => eventKeys(events).filter((k) => /^(ethereum_tx|tx_log|tx\(|message\((action|module))/.test(k));
      assert.deepEqual(pick(ours.tx_result.events), pick(theirs.tx_result.events));
      const typeUrl = (b64: string) => /\/cosmos[\w.]+/.exec(Buffer.from(b64, 'base64').toString('latin1'))?.[0];
      assert.equal(typeUrl(ours.tx_result.data), typeUrl(theirs.tx_result.data));
      const call = (await req(`${R.consensusHttp}/tx?hash=0x${txOf('call').hash}`)).json.result;
      const log = (call.tx_result.events as Json[]).find((e) => e.type === 'tx_log');
      assert.deepEqual(
        (log.attributes as Json[]).map((a) => a.key),
        ['txLog', 'msg_index'],
      );
      assert.deepEqual(Object.keys(JSON.parse(log.attributes[0].value)), [
        'address',
        'topics',
        'data',
        'blockNumber',
        'transactionHash',
        'transactionIndex',
        'blockHash',
        'logIndex',
      ]);
    });

    it('REST txs, account and balances: the JSON shapes of evmd', async () => {
      for (const [kind, file] of [
        ['bank', 'rest-tx-bank-send.json'],
        ['transfer', 'rest-tx-ethereum.json'],
      ] as const) {
        const ours = (await req(`${R.rest}/cosmos/tx/v1beta1/txs/${txOf(kind).hash}`)).json;
        const theirs = fixture(file);
        // v is null when the signature's y parity is 0 (as in the recorded tx), base64 when it is 1.
        const strip = (j: Json) => {
          for (const m of [...j.tx.body.messages, ...j.tx_response.tx.body.messages]) if (m.data) m.data.v = null;
          return { ...j, tx_response: { ...j.tx_response, events: [] } };
        };
        assert.deepEqual(shape(strip(ours)), shape(strip(theirs)), file);
      }
      const alice = real.chain.ledger.keys[0].bech32;
      assert.deepEqual(shape((await req(`${R.rest}/cosmos/auth/v1beta1/accounts/${alice}`)).json), shape(fixture('rest-account.json')));
      assert.deepEqual(shape((await req(`${R.rest}/cosmos/bank/v1beta1/balances/${alice}`)).json), shape(fixture('rest-balances.json')));
      const missing = await req(`${R.rest}/cosmos/auth/v1beta1/accounts/cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a`);
      assert.equal(missing.status, 404);
      assert.equal(missing.json.code, 5);
    });

    it("EVM transaction, receipt and block: the members of evmd's", async () => {
      const t = txOf('transfer');
      const rpc = async (method: string, params: unknown[]) => (await post(R.evmRpc, { jsonrpc: '2.0', id: 1, method, params })).json;
      assert.deepEqual(shape(await rpc('eth_getTransactionByHash', [t.evmHash])), shape(fixture('evm-eth_getTransactionByHash.json')));
      assert.deepEqual(shape(await rpc('eth_getTransactionReceipt', [t.evmHash])), shape(fixture('evm-eth_getTransactionReceipt.json')));
      const block = await rpc('eth_getBlockByNumber', ['0x' + t.height.toString(16), true]);
      const theirs = fixture('evm-eth_getBlockByNumber.json');
      assert.deepEqual(Object.keys(block.result), Object.keys(theirs.result));
      assert.deepEqual(shape((block.result.transactions as Json[]).find((x) => x.hash === t.evmHash)), shape(theirs.result.transactions[0]));
    });
  });
});
