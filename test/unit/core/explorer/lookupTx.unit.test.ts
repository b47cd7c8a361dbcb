// The explorer's transaction lookups (core/explorer/lookupTx.ts), on the recorded evmd answers: the
// Cosmos transaction of an EVM hash through REST's search alone (its `tx_responses`), through
// CometBFT's tx_search when there is one, both views naming each other, and the readers of events.

import * as assert from 'node:assert/strict';
import { forgetContext, ChainContext } from '../../../../src/core/explorer/context';
import {
  cometCalls,
  cosmosTxOfEvmHash,
  evmHashesOf,
  evmView,
  groupEvents,
  hexToBase64,
  lookUpCosmosTx,
  readEvents,
} from '../../../../src/core/explorer/lookupTx';
import { type ExplorerSource, NotFound } from '../../../../src/core/explorer/source';
import { fixture } from './decode.unit.test';
import { fakeSource } from './lookup.unit.test';

const ETH_COSMOS = '5BD19B2385E7D682AAB45A7210E8C52CFD09A409D1DF58E4159A1A1C9ED39E1C';
const ETH = '0xb1095b1c91b8b316069293d6ecb98b262306416902b888bda4f4ab44d1250163';
const SEARCH = `/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(`ethereum_tx.ethereumTxHash='${ETH}'`)}&pagination.limit=1`;

/** The fake evmd with REST's tx search: `txs` (the Tx objects) and `tx_responses`, as the node answers. */
function withRestSearch(has: Partial<ExplorerSource['has']>): ReturnType<typeof fakeSource> {
  const src = fakeSource(has);
  const rest = src.rest.bind(src);
  return {
    ...src,
    async rest(path: string) {
      if (path === SEARCH) {
        src.asked.push(`rest ${path}`);
        const r = fixture('rest-tx-ethereum.json');
        return { txs: [r.tx], tx_responses: [r.tx_response], pagination: { total: '1' } };
      }
      return rest(path);
    },
  };
}

describe('explorer: the Cosmos transaction of an EVM hash', () => {
  beforeEach(() => forgetContext());

  it('with REST only: read from the search answer`s tx_responses, decoded by the node', async () => {
    const src = withRestSearch({ comet: false, evm: false });
    const notes: string[] = [];
    const tried: string[] = [];
    const tx = await cosmosTxOfEvmHash(src, new ChainContext(src, notes), ETH, notes, tried);
    assert.ok(tx, `not found; notes: ${notes.join('; ')}`);
    assert.equal(tx.hash, ETH_COSMOS);
    assert.equal(tx.height, '4');
    assert.equal(tx.code, 0);
    assert.equal(tx.decodedBy, 'rest');
    assert.match(tx.messages[0].typeUrl, /MsgEthereumTx$/);
    assert.equal(tx.messages[0].evmHash, ETH);
    assert.equal(tx.evm.length, 1);
    assert.equal(tx.evm[0].hash, ETH);
    assert.equal(tx.evm[0].cosmosHash, ETH_COSMOS);
    assert.equal(tx.evm[0].source, 'events');
    assert.equal(tx.evm[0].status, 'success');
    assert.deepEqual(tried, ['REST /cosmos/tx/v1beta1/txs?query=']);
    assert.ok(src.asked.includes(`rest ${SEARCH}`));
  });

  it('with CometBFT: tx_search, decoded here; REST`s search is not asked', async () => {
    const src = withRestSearch({ evm: false });
    const notes: string[] = [];
    const tried: string[] = [];
    const tx = await cosmosTxOfEvmHash(src, new ChainContext(src, notes), ETH, notes, tried);
    assert.ok(tx);
    assert.equal(tx.hash, ETH_COSMOS);
    assert.equal(tx.decodedBy, 'local');
    assert.equal(tx.evm[0].source, 'decoded');
    assert.deepEqual(tried, ['CometBFT tx_search']);
    assert.ok(!src.asked.includes(`rest ${SEARCH}`));
  });

  it('found nowhere: undefined, with what was tried', async () => {
    const src = fakeSource({ evm: false });
    const other = '0x' + 'ab'.repeat(32);
    const notes: string[] = [];
    const tried: string[] = [];
    const none = await cosmosTxOfEvmHash({ ...src, comet: async () => ({ txs: [], total_count: '0' }) }, new ChainContext(src, notes), other, notes, tried);
    assert.equal(none, undefined);
    assert.deepEqual(tried, ['CometBFT tx_search', 'REST /cosmos/tx/v1beta1/txs?query=']);
  });
});

describe('explorer: a Cosmos transaction by its hash', () => {
  beforeEach(() => forgetContext());

  it('REST and CometBFT: the node`s decoding kept, the signed Ethereum bytes and the index from CometBFT', async () => {
    const src = fakeSource({ evm: false });
    const notes: string[] = [];
    const tried: string[] = [];
    const tx = await lookUpCosmosTx(src, new ChainContext(src, notes), ETH_COSMOS, notes, tried);
    assert.ok(tx);
    assert.equal(tx.decodedBy, 'rest');
    assert.ok(tx.messages[0].ethereum?.raw, 'the Ethereum transaction`s bytes come from the local decoding');
    assert.equal(tx.index, fixture('cometbft-tx-ethereum.json').result.index);
    assert.equal(tx.evm[0].source, 'decoded');
    assert.deepEqual(tried, ['REST /cosmos/tx/v1beta1/txs', 'CometBFT /tx']);
  });

  it('unknown everywhere: undefined, a 404 not noted', async () => {
    const src = fakeSource({ evm: false, comet: false });
    const notes: string[] = [];
    const tx = await lookUpCosmosTx(src, new ChainContext(src, notes), 'AB'.repeat(32), notes, []);
    assert.equal(tx, undefined);
    assert.ok(!notes.some((n) => n.startsWith('REST tx')), notes.join('; '));
  });
});

describe('explorer: every field of a transaction view', () => {
  beforeEach(() => forgetContext());
  const BANK = '05DD664CA50845EF5652766A971FE81C10BCB76F601DCE52CF56C23B775E8EB1';

  it('from REST: result, fee with payer and granter, memo, signers, events; empty strings left out', async () => {
    const base = fakeSource({ evm: false, comet: false });
    const answer = fixture('rest-tx-bank-send.json');
    answer.tx_response = { ...answer.tx_response, code: 5, codespace: 'sdk', raw_log: 'insufficient funds' };
    answer.tx.auth_info.fee = { ...answer.tx.auth_info.fee, payer: 'cosmos1payer', granter: 'cosmos1granter' };
    const src: ExplorerSource = { ...base, rest: async (path) => (path === `/cosmos/tx/v1beta1/txs/${BANK}` ? answer : base.rest(path)) };
    const notes: string[] = [];
    const tx = await lookUpCosmosTx(src, new ChainContext(src, notes), BANK, notes, []);
    assert.ok(tx);
    assert.equal(tx.hash, BANK);
    assert.equal(tx.height, '4');
    assert.equal(tx.timestamp, '2026-11-23T19:03:28Z');
    assert.equal(tx.code, 5);
    assert.equal(tx.codespace, 'sdk');
    assert.equal(tx.log, 'insufficient funds');
    assert.equal(tx.gasWanted, '200000');
    assert.equal(tx.gasUsed, '106663');
    assert.equal(tx.memo, 'chain-endpoints fixture');
    assert.equal(tx.fee?.gasLimit, '200000');
    assert.equal(tx.fee?.payer, 'cosmos1payer');
    assert.equal(tx.fee?.granter, 'cosmos1granter');
    assert.deepEqual(
      tx.fee?.amount.map((c) => [c.denom, c.amount]),
      [['atest', '2000000000000000']],
    );
    assert.match(tx.fee?.amount[0].display ?? '', / test$/);
    assert.equal(tx.signers.length, 1);
    assert.match(tx.messages[0].typeUrl, /MsgSend$/);
    assert.equal(tx.messages[0].evmHash, undefined);
    assert.ok(tx.events.length > 0);
    assert.deepEqual(tx.evm, []);
    // The fixture's own empty codespace, raw_log, payer and granter are left out, not shown as "".
    const plain = await lookUpCosmosTx(base, new ChainContext(base, []), BANK, [], []);
    assert.equal(plain?.codespace, undefined);
    assert.equal(plain?.log, undefined);
    assert.equal(plain?.fee?.payer, undefined);
    assert.equal(plain?.fee?.granter, undefined);
  });

  it('from CometBFT: hash in upper case, index, result fields; empty strings left out', async () => {
    const base = fakeSource({ evm: false, rest: false });
    const answer = fixture('cometbft-tx-bank-send.json').result;
    answer.hash = answer.hash.toLowerCase();
    answer.tx_result = { ...answer.tx_result, code: 7, codespace: 'bank', log: 'out of gas' };
    const src: ExplorerSource = { ...base, comet: async (call) => (call.method === 'tx' ? answer : base.comet(call)) };
    const notes: string[] = [];
    const tx = await lookUpCosmosTx(src, new ChainContext(src, notes), BANK, notes, []);
    assert.ok(tx);
    assert.equal(tx.hash, BANK);
    assert.equal(tx.index, 0);
    assert.equal(tx.decodedBy, 'local');
    assert.equal(tx.code, 7);
    assert.equal(tx.codespace, 'bank');
    assert.equal(tx.log, 'out of gas');
    assert.equal(tx.gasWanted, '200000');
    assert.equal(tx.gasUsed, '106663');
    assert.equal(tx.fee?.amount[0].amount, '2000000000000000');
    assert.ok(tx.events.length > 0);
    const plain = await lookUpCosmosTx(base, new ChainContext(base, []), BANK, [], []);
    assert.equal(plain?.codespace, undefined);
    assert.equal(plain?.log, undefined);
  });

  it('a MsgEthereumTx read by REST: its stated hash first, else the events` hashes in order', async () => {
    const base = fakeSource({ evm: false, comet: false });
    const ETH_COSMOS_HASH = ETH_COSMOS;
    const answer = fixture('rest-tx-ethereum.json');
    const other = '0x' + 'cd'.repeat(32);
    answer.tx.body.messages = [
      answer.tx.body.messages[0],
      { ...answer.tx.body.messages[0], hash: other.toUpperCase().replace('0X', '0x') },
      { ...answer.tx.body.messages[0], hash: 'bad' },
    ];
    const src: ExplorerSource = { ...base, rest: async (path) => (path === `/cosmos/tx/v1beta1/txs/${ETH_COSMOS_HASH}` ? answer : base.rest(path)) };
    const tx = await lookUpCosmosTx(src, new ChainContext(src, []), ETH_COSMOS_HASH, [], []);
    assert.deepEqual(
      tx?.messages.map((m) => m.evmHash),
      // The first states its hash; the third states none that is well-formed, so it takes the events' first.
      [ETH, other, ETH],
    );
  });
});

describe('explorer: the EVM view of a hash', () => {
  beforeEach(() => forgetContext());

  it('from the EVM RPC: quantities in decimal, the receipt`s status', async () => {
    const src = fakeSource();
    const notes: string[] = [];
    const v = await evmView(src, new ChainContext(src, notes), ETH, notes);
    assert.ok(v);
    assert.equal(v.source, 'evmRpc');
    assert.equal(v.status, 'success');
    assert.equal(v.nonce, '0');
    assert.equal(v.gas, BigInt(fixture('evm-eth_getTransactionByHash.json').result.gas).toString());
    assert.equal(v.gasUsed, BigInt(fixture('evm-eth_getTransactionReceipt.json').result.gasUsed).toString());
  });

  it('a failed receipt is "failed"; a failing EVM RPC is noted and the events answer', async () => {
    const src = fakeSource();
    const failedReceipt = { ...fixture('evm-eth_getTransactionReceipt.json').result, status: '0x0' };
    const failing: ExplorerSource = {
      ...src,
      evm: async (m, p) => (m === 'eth_getTransactionReceipt' ? failedReceipt : src.evm(m, p)),
    };
    const notes: string[] = [];
    assert.equal((await evmView(failing, new ChainContext(src, notes), ETH, notes))?.status, 'failed');
    const down: ExplorerSource = { ...src, evm: async () => Promise.reject(new NotFound('down')) };
    const events = readEvents([
      {
        type: 'ethereum_tx',
        attributes: [
          { key: 'ethereumTxHash', value: ETH },
          { key: 'txGasUsed', value: '21000' },
          { key: 'ethereumTxFailed', value: 'reverted' },
        ],
      },
    ]);
    const v = await evmView(down, new ChainContext(src, notes), ETH, notes, { cosmosHash: ETH_COSMOS, events });
    assert.equal(v?.source, 'events');
    assert.equal(v?.status, 'failed');
    assert.equal(v?.gasUsed, '21000');
    assert.ok(notes.some((n) => n.startsWith('eth_getTransactionByHash: ')));
    assert.equal(await evmView({ ...down, has: { ...down.has, evm: false } }, new ChainContext(src, []), ETH, []), undefined);
  });
});

describe('explorer: readers of calls and events', () => {
  it('hexToBase64 and the CometBFT calls (URI and JSON forms)', () => {
    assert.equal(hexToBase64('0xff00'), '/wA=');
    assert.equal(hexToBase64('ff00'), '/wA=');
    assert.deepEqual(cometCalls.tx('AB'), { method: 'tx', uri: { hash: '0xAB' }, json: { hash: 'qw==' } });
    assert.deepEqual(cometCalls.txSearch("a='b'"), {
      method: 'tx_search',
      uri: { query: `"a='b'"`, per_page: '10' },
      json: { query: "a='b'", per_page: '10' },
    });
    assert.deepEqual(cometCalls.block('5'), { method: 'block', uri: { height: '5' }, json: { height: '5' } });
    assert.deepEqual(cometCalls.blockByHash('AB'), { method: 'block_by_hash', uri: { hash: '0xAB' }, json: { hash: 'qw==' } });
    assert.deepEqual(cometCalls.blockResults('5'), { method: 'block_results', uri: { height: '5' }, json: { height: '5' } });
  });

  it('readEvents reads what is there, as text, at most 5,000', () => {
    assert.deepEqual(readEvents('no'), []);
    assert.deepEqual(readEvents([{ type: 't', attributes: [{ key: 'k', value: 1 }, {}] }, null]), [
      {
        type: 't',
        attributes: [
          { key: 'k', value: '1' },
          { key: '', value: '' },
        ],
      },
      { type: '', attributes: [] },
    ]);
    assert.equal(readEvents(Array.from({ length: 6000 }, () => ({ type: 'x' }))).length, 5000);
  });

  it('groupEvents groups by msg_index, in order of first appearance', () => {
    const e = (type: string, idx?: string) => ({ type, attributes: idx === undefined ? [] : [{ key: 'msg_index', value: idx }] });
    assert.deepEqual(
      groupEvents([e('fee'), e('a', '0'), e('b', '1'), e('c', '0')]).map((g) => [g.msgIndex, g.events.map((x) => x.type)]),
      [
        [undefined, ['fee']],
        ['0', ['a', 'c']],
        ['1', ['b']],
      ],
    );
  });

  it('evmHashesOf: 5,000 events naming 5,000 distinct hashes, in order, in linear time (each was searched in the list before)', () => {
    const hashes = Array.from({ length: 5000 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);
    const events = hashes.map((h) => ({ type: 'ethereum_tx', attributes: [{ key: 'ethereumTxHash', value: h }] }));
    assert.deepEqual(evmHashesOf([...events, ...events]), hashes);
  });

  it('evmHashesOf: ethereum_tx hashes only, well-formed, lower case, each once', () => {
    const h = '0x' + 'AB'.repeat(32);
    const ev = (type: string, value: unknown) => ({ type, attributes: [{ key: 'ethereumTxHash', value }] });
    assert.deepEqual(
      evmHashesOf([ev('ethereum_tx', h), ev('ethereum_tx', h.toLowerCase()), ev('message', ETH), ev('ethereum_tx', '0x12'), ev('ethereum_tx', ETH)]),
      [h.toLowerCase(), ETH],
    );
    assert.deepEqual(evmHashesOf(undefined), []);
    assert.deepEqual(evmHashesOf([{ type: 'ethereum_tx' }]), []);
  });
});
