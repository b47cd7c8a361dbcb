import * as assert from 'node:assert/strict';
import { LocalizedError } from '../../../../src/core/base/errors';
import { forgetContext } from '../../../../src/core/explorer/context';
import { lookUp } from '../../../../src/core/explorer/lookup';
import { renderLookup } from '../../../../src/core/explorer/render';
import { type CometCall, type ExplorerSource, NotFound } from '../../../../src/core/explorer/source';
import { fixture } from './decode.unit.test';

const BANK = '05DD664CA50845EF5652766A971FE81C10BCB76F601DCE52CF56C23B775E8EB1';
const ETH_COSMOS = '5BD19B2385E7D682AAB45A7210E8C52CFD09A409D1DF58E4159A1A1C9ED39E1C';
const ETH = '0xb1095b1c91b8b316069293d6ecb98b262306416902b888bda4f4ab44d1250163';
const VALIDATOR = 'cosmos10jmp6sgh4cc6zt3e8gw05wavvejgr5pwsjskvv';

/** A provider answering from the recorded evmd answers; records what was asked. */
export function fakeSource(has: Partial<ExplorerSource['has']> = {}): ExplorerSource & { asked: string[] } {
  const asked: string[] = [];
  const comet = (name: string) => fixture(name).result;
  const ethTx = comet('cometbft-tx-ethereum.json');
  return {
    asked,
    provider: 'evmd',
    chainId: 'chain-endpoints-evmd-1',
    has: { rest: true, comet: true, evm: true, ...has },
    async rest(path) {
      asked.push(`rest ${path}`);
      if (path === '/cosmos/auth/v1beta1/bech32') return { bech32_prefix: 'cosmos' };
      if (path === '/cosmos/evm/vm/v1/params') return { params: { evm_denom: 'atest' } };
      if (path === '/cosmos/bank/v1beta1/denoms_metadata/atest')
        return {
          metadata: {
            display: 'test',
            denom_units: [
              { denom: 'atest', exponent: 0 },
              { denom: 'test', exponent: 18 },
            ],
          },
        };
      if (path === `/cosmos/tx/v1beta1/txs/${BANK}`) return fixture('rest-tx-bank-send.json');
      if (path === `/cosmos/tx/v1beta1/txs/${ETH_COSMOS}`) return fixture('rest-tx-ethereum.json');
      if (path.startsWith(`/cosmos/bank/v1beta1/balances/${VALIDATOR}`)) return fixture('rest-balances.json');
      if (path === `/cosmos/auth/v1beta1/accounts/${VALIDATOR}`) return fixture('rest-account.json');
      throw new NotFound(`no ${path}`);
    },
    async comet(call: CometCall) {
      asked.push(`comet ${call.method} ${JSON.stringify(call.uri)}`);
      if (call.method === 'block' && call.uri.height === '4') return comet('cometbft-block.json');
      if (call.method === 'block_results' && call.uri.height === '4') return comet('cometbft-block_results.json');
      if (call.method === 'tx' && call.uri.hash === `0x${BANK}`) return comet('cometbft-tx-bank-send.json');
      if (call.method === 'tx' && call.uri.hash === `0x${ETH_COSMOS}`) return ethTx;
      if (call.method === 'tx_search' && call.uri.query === JSON.stringify(`ethereum_tx.ethereumTxHash='${ETH}'`)) return { txs: [ethTx], total_count: '1' };
      throw new LocalizedError(`tx (${call.method}) not found`);
    },
    async evm(method, params) {
      asked.push(`evm ${method} ${JSON.stringify(params)}`);
      if (method === 'eth_getTransactionByHash' && params[0] === ETH) return fixture('evm-eth_getTransactionByHash.json').result;
      if (method === 'eth_getTransactionReceipt' && params[0] === ETH) return fixture('evm-eth_getTransactionReceipt.json').result;
      if (method === 'eth_getBlockByNumber' && params[0] === '0x4') return fixture('evm-eth_getBlockByNumber.json').result;
      if (method === 'eth_getBalance') return '0xde0b6b3a7640000';
      if (method === 'eth_getTransactionCount') return '0x2';
      if (method === 'eth_getCode') return '0x';
      return null;
    },
  };
}

describe('explorer: lookups composed from recorded evmd answers', () => {
  beforeEach(() => forgetContext());

  it('a Cosmos hash (any case) of a bank send: decoded by the node, events grouped by message', async () => {
    const r = await lookUp(fakeSource(), BANK.toLowerCase());
    assert.equal(r.kind, 'tx');
    if (r.kind !== 'tx') return;
    assert.equal(r.tx.hash, BANK);
    assert.equal(r.tx.decodedBy, 'rest');
    assert.equal(r.tx.messages[0].typeUrl, '/cosmos.bank.v1beta1.MsgSend');
    assert.equal(r.tx.height, '4');
    assert.equal(r.tx.code, 0);
    assert.ok(r.tx.events.some((g) => g.msgIndex === '0'));
    assert.equal(r.tx.signers[0].address, (r.tx.messages[0].fields as any).from_address);
    assert.deepEqual(r.tx.evm, []);
    const doc = renderLookup(r);
    assert.match(doc, /Cosmos transaction `05DD664C/);
    assert.match(doc, /MsgSend/);
  });

  it('the same bank send with only CometBFT: decoded locally', async () => {
    const r = await lookUp(fakeSource({ rest: false, evm: false }), BANK);
    assert.equal(r.kind, 'tx');
    if (r.kind !== 'tx') return;
    assert.equal(r.tx.decodedBy, 'local');
    assert.equal(r.tx.messages[0].typeUrl, '/cosmos.bank.v1beta1.MsgSend');
    assert.ok(r.tx.fee?.amount[0].amount);
  });

  it('an EVM hash: the EVM view and the Cosmos transaction that carries it, each naming the other', async () => {
    const src = fakeSource();
    const r = await lookUp(src, ETH);
    assert.equal(r.kind, 'tx');
    if (r.kind !== 'tx') return;
    assert.equal(r.tx.hash, ETH_COSMOS);
    assert.equal(r.tx.messages[0].evmHash, ETH);
    const e = r.tx.evm[0];
    assert.equal(e.hash, ETH);
    assert.equal(e.cosmosHash, ETH_COSMOS);
    assert.equal(e.source, 'evmRpc');
    assert.equal(e.status, 'success');
    assert.equal(e.value?.amount, '123456789');
    assert.match(e.value?.display ?? '', /test$/);
    assert.ok(src.asked.some((a) => a.startsWith('comet tx_search')));
    const doc = renderLookup(r);
    assert.match(doc, new RegExp(`EVM transaction \`${ETH}\``));
    assert.match(doc, new RegExp(`Cosmos transaction: \`${ETH_COSMOS}\``));
  });

  it('an EVM hash without an EVM RPC: the Ethereum transaction decoded from the Cosmos bytes', async () => {
    const r = await lookUp(fakeSource({ evm: false, rest: false }), ETH);
    assert.equal(r.kind, 'tx');
    if (r.kind !== 'tx') return;
    const e = r.tx.evm[0];
    assert.equal(e.source, 'decoded');
    assert.equal(e.hash, ETH);
    assert.equal(e.from?.toLowerCase(), fixture('evm-eth_getTransactionByHash.json').result.from.toLowerCase());
  });

  it('a block: header, proposer in both forms, each tx as a line then decoded, events, the EVM block', async () => {
    const r = await lookUp(fakeSource(), '4');
    assert.equal(r.kind, 'block');
    if (r.kind !== 'block') return;
    const b = r.block;
    assert.equal(b.height, '4');
    assert.match(b.proposer?.valcons ?? '', /^cosmosvalcons1/);
    assert.match(b.proposer?.cometHex ?? '', /^[0-9A-F]{40}$/);
    assert.deepEqual(
      b.txs.map((t) => t.hash),
      [BANK, ETH_COSMOS],
    );
    assert.match(b.txs[0].summary, /^MsgSend cosmos1/);
    assert.match(b.txs[1].summary, /^MsgEthereumTx 0xb1095b1c/);
    assert.equal(b.txs[1].tx?.evm[0].hash, ETH);
    assert.equal(b.page, undefined, 'a block of up to a page is decoded whole');
    assert.ok(b.events.length > 0);
    assert.equal(b.evm?.hash, fixture('evm-eth_getBlockByNumber.json').result.hash);
    assert.equal(b.evm?.txCount, 1);
    assert.match(renderLookup(r), /### Transactions\n\n0\. `05DD664C/);
  });

  it('an address: both forms, balances with display units, account, EVM balance, nonce, not a contract', async () => {
    const r = await lookUp(fakeSource(), VALIDATOR);
    assert.equal(r.kind, 'address');
    if (r.kind !== 'address') return;
    const a = r.address;
    assert.equal(a.forms.account, VALIDATOR);
    assert.match(a.forms.hex ?? '', /^0x[0-9a-fA-F]{40}$/);
    assert.ok(a.balances?.length);
    assert.match(a.balances?.[0].display ?? '', / test$/);
    assert.equal(
      a.account?.accountNumber,
      fixture('rest-account.json').account.base_account?.account_number ?? fixture('rest-account.json').account.account_number,
    );
    assert.equal(a.evmBalance?.display, '1 test');
    assert.equal(a.nonce, '2');
    assert.equal(a.isContract, false);
    // The 0x form finds the same account.
    forgetContext();
    const again = await lookUp(fakeSource(), a.forms.hex!);
    assert.equal(again.kind === 'address' && again.address.forms.account, VALIDATOR);
  });

  it('nothing found: says what was tried; bad input: a sentence and nothing sent', async () => {
    const src = fakeSource();
    const r = await lookUp(src, '99');
    assert.equal(r.kind, 'notFound');
    const none = fakeSource();
    await assert.rejects(lookUp(none, 'hello'), /not a block height, a hash or an address/);
    assert.deepEqual(none.asked, []);
  });

  it('a height above the tip says so, with the tip, and no raw node errors', async () => {
    const src = fakeSource();
    const comet = src.comet.bind(src);
    src.comet = async (call: CometCall) => (call.method === 'status' ? { sync_info: { latest_block_height: '10' } } : comet(call));
    const r = await lookUp(src, '99');
    assert.equal(r.kind, 'notFound');
    assert.equal(r.found, 'nothing: above the tip 10');
    assert.deepEqual(r.notes, []);
    const text = renderLookup(r);
    assert.match(text, /Height 99 is above the tip 10: the chain has not produced it yet\./);
    assert.doesNotMatch(text, /not found/);
  });
});

describe('explorer: a block larger than a page', () => {
  beforeEach(() => forgetContext());

  /** The recorded block's two transactions (a bank send, an Ethereum transfer) repeated to `count`, with their results. */
  function bigBlockSource(count: number): ExplorerSource & { asked: string[] } {
    const src = fakeSource({ evm: false });
    const block = fixture('cometbft-block.json').result;
    const results = fixture('cometbft-block_results.json').result;
    const txs = Array.from({ length: count }, (_, i) => block.block.data.txs[i % 2]);
    const txsResults = Array.from({ length: count }, (_, i) => results.txs_results[i % 2]);
    const comet = src.comet.bind(src);
    return {
      ...src,
      async comet(call: CometCall) {
        if (call.method === 'block' && call.uri.height === '7')
          return { ...block, block: { ...block.block, header: { ...block.block.header, height: '7' }, data: { txs } } };
        if (call.method === 'block_results' && call.uri.height === '7') return { ...results, height: '7', txs_results: txsResults };
        return comet(call);
      },
    };
  }

  it('every transaction a line, one page decoded, links to the others; the sender from the events', async () => {
    const r = await lookUp(bigBlockSource(250), '7');
    assert.equal(r.kind, 'block');
    if (r.kind !== 'block') return;
    const b = r.block;
    assert.equal(b.txs.length, 250);
    assert.deepEqual(b.page, { number: 1, pages: 3, size: 100, first: 0, last: 99 });
    assert.deepEqual(
      b.txs.map((t) => t.tx !== undefined),
      Array.from({ length: 250 }, (_, i) => i < 100),
    );
    // A line outside the page: the same hash, message type and EVM hash as the decoded one.
    assert.equal(b.txs[201].hash, ETH_COSMOS);
    assert.deepEqual(b.txs[201].evmHashes, [ETH]);
    assert.equal(b.txs[201].summary, `MsgEthereumTx ${ETH}`);
    assert.equal(b.txs[200].summary, 'MsgSend');
    // More than 100 transactions: the sender is the events' (not recovered), and it is the signer's address.
    const evm = b.txs[1].tx?.evm[0];
    assert.equal(evm?.fromEvents, true);
    const small = await lookUp(fakeSource({ evm: false }), '4');
    const recovered = small.kind === 'block' ? small.block.txs[1].tx?.evm[0] : undefined;
    assert.ok(recovered?.from && !recovered.fromEvents);
    assert.equal(evm?.from, recovered.from);
    const text = renderLookup(r);
    assert.match(text, /- decoded: transactions 0 to 99 \(page 1 of 3, 100 a page\) · next `7 page 2` · last `7 page 3`/);
    assert.match(text, /### Decoded: transactions 0 to 99 \(page 1 of 3\)/);
    assert.match(text, /as the events name it/);
  });

  it('page N decodes its transactions; a page past the end shows the last and says so', async () => {
    const r = await lookUp(bigBlockSource(250), '7 page 3');
    assert.ok(r.kind === 'block' && r.block.page);
    assert.deepEqual(r.block.page, { number: 3, pages: 3, size: 100, first: 200, last: 249 });
    assert.equal(r.block.txs.filter((t) => t.tx).length, 50);
    assert.match(r.found, /page 3/);
    const past = await lookUp(bigBlockSource(250), '7 page 9');
    assert.ok(past.kind === 'block' && past.block.page?.number === 3);
    assert.ok(past.notes.some((n) => /3 page\(s\)/.test(n)));
    // A block of up to a page is decoded whole, even when a page is asked.
    const small = await lookUp(fakeSource(), '4 page 1');
    assert.ok(small.kind === 'block' && small.block.page === undefined && small.block.txs.every((t) => t.tx));
  });

  it('a line of bytes that are no transaction says so, and the block is still shown', async () => {
    const src = bigBlockSource(150);
    const comet = src.comet.bind(src);
    const r = await lookUp(
      {
        ...src,
        async comet(call: CometCall) {
          const v = (await comet(call)) as any;
          if (call.method === 'block') v.block.data.txs = [...v.block.data.txs.slice(0, 149), Buffer.from('garbage').toString('base64')];
          return v;
        },
      },
      '7',
    );
    assert.ok(r.kind === 'block');
    assert.match(r.block.txs[149].summary, /^not a Cosmos transaction/);
  });
});

describe('explorer: rendering server text', () => {
  it('puts markup in a code span no content can close, drops control characters, cuts long values, keeps words plain', async () => {
    const { esc } = await import('../../../../src/core/explorer/render');
    assert.equal(esc('cosmos1abc'), 'cosmos1abc');
    assert.equal(esc('<img src=x onerror=alert(1)> `x` [a](command:evil) *b*'), '``<img src=x onerror=alert(1)> `x` [a](command:evil) *b*``');
    assert.equal(esc('``x'), '``` ``x ```');
    assert.equal(esc('evil.io'), '`evil.io`');
    assert.equal(esc('a\u0000\u001b[31mb\nc'), '`a [31mb c`');
    assert.match(esc('x'.repeat(5000)), /… \(5000 characters\)`$/);
  });
});
