// The devnet refuses what evmd refuses, in evmd's words: every case of refusalCases.ts run on the
// devnet and compared with the answers recorded from evmd v0.3.2 (test/fixtures/evmd/evm-refusals.json,
// `npm run record:evmd:refusals`): same error code, same message once hashes, addresses and numbers
// are set aside; accepted requests accepted, with the same result where it does not depend on the chain.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Hex, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { readEthereumMsg } from '../../src/core/explorer/ethereumMsg';
import { type Devnet, startDevnet } from './devnet';
import { REFUSAL_CASES, type RefusalAnswer, runRefusals, wording } from './refusalCases';

const FIXTURE = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'evmd', 'evm-refusals.json');

describe('devnet: eth_sendRawTransaction refuses what evmd refuses (recorded answers)', function () {
  this.timeout(30_000);
  let net: Devnet;
  let answers: RefusalAnswer[];
  const recorded = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as { cases: RefusalAnswer[] };

  before(async () => {
    net = await startDevnet({ blockIntervalMs: 0 });
    const url = net.providers[0].evmRpc;
    const rpc = async (method: string, params: unknown[]) => {
      const r = (await (
        await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
      ).json()) as { result?: unknown; error?: { code: number; message: string } };
      return r.error ? { error: r.error } : { result: r.result };
    };
    const dave = net.chain.ledger.keys[3];
    const funded = privateKeyToAccount(`0x${Buffer.from(dave.privateKey).toString('hex')}`);
    const nonce = Number(net.chain.ledger.nonce(dave.address));
    answers = await runRefusals({ chainId: Number(net.evmChainId), gasPrice: 1_000_000_000n, funded, nonce }, rpc);
  });
  after(async () => net?.stop());

  it('the recording covers every case', () => {
    assert.deepEqual(
      recorded.cases.map((c) => c.name),
      REFUSAL_CASES.map((c) => c.name),
    );
  });

  for (const k of REFUSAL_CASES) {
    it(`${k.name}: ${k.what}`, () => {
      const evmd = recorded.cases.find((c) => c.name === k.name)?.response;
      const devnet = answers.find((a) => a.name === k.name);
      assert.ok(evmd && devnet);
      if (evmd.error) {
        assert.ok(devnet.response.error, `evmd refused (${evmd.error.message}), the devnet answered ${JSON.stringify(devnet.response)}`);
        assert.equal(devnet.response.error.code, evmd.error.code);
        assert.equal(wording(devnet.response.error.message), wording(evmd.error.message), `devnet: ${devnet.response.error.message}`);
      } else {
        assert.equal(devnet.response.error, undefined, `evmd accepted, the devnet answered ${JSON.stringify(devnet.response.error)}`);
        if (k.accepted) assert.equal(devnet.response.result, keccak256(devnet.request.params[0] as Hex));
        else assert.deepEqual(devnet.response.result, evmd.result);
      }
    });
  }

  it('the accepted tx is mined with a receipt; an unknown account still holds nothing', async () => {
    const valid = answers.find((a) => a.name === 'valid')?.response.result as string;
    net.produceBlock();
    assert.equal(net.chain.txByEvmHash(valid)?.exec?.status, 1);
    for (const [name, type] of [
      ['valid legacy', '0x0'],
      ['valid access list', '0x1'],
    ]) {
      const hash = answers.find((a) => a.name === name)?.response.result as string;
      assert.equal(net.chain.txByEvmHash(hash)?.exec?.status, 1, name);
      const tx = (await (
        await fetch(net.providers[0].evmRpc, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [hash] }),
        })
      ).json()) as { result: { type: string; from: string } };
      assert.equal(tx.result.type, type);
      // The explorer reads the signed bytes back out of the MsgEthereumTx (LegacyTx / AccessListTx).
      const record = net.chain.txByEvmHash(hash);
      const msg = readEthereumMsg(TxBody.decode(TxRaw.decode(record?.bytes ?? Buffer.alloc(0)).bodyBytes).messages[0].value);
      assert.equal(msg.raw, answers.find((a) => a.name === name)?.request.params[0]);
      assert.equal(tx.result.from, net.chain.ledger.keys[3].hex.toLowerCase());
    }
    assert.equal(net.chain.balanceOf(Buffer.from('00000000000000000000000000000000c0ffee00', 'hex')), 3n, 'three accepted transfers of 1 wei');
  });
});
