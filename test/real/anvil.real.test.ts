// Every EVM RPC operation of the extension's catalogue against anvil (one block per second):
// block number, chain id, blocks, and a transaction signed here with anvil's first dev key, sent
// with eth_sendRawTransaction and then found in a block through its receipt.
import * as assert from 'node:assert/strict';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_DEV_KEY, RECIPIENT, signTransfer } from './helpers/evm';
import { keccak256 } from '../devnet/encoding';
import { operationsFor } from '../../src/core/chain/operations';
import { printRecorded, record, Runner } from './helpers/extension';
import { AnvilNode, rawPost, waitFor } from './helpers/nodes';

type Json = any;

describe('anvil (real EVM node): every EVM RPC operation of the catalogue', function () {
  this.timeout(60_000);
  let anvil: AnvilNode;
  let runner: Runner;

  before(async () => {
    anvil = await AnvilNode.start();
    runner = new Runner({ name: 'anvil', endpoints: { evmRpc: anvil.url } });
    await waitFor('block 2', async () =>
      BigInt((await rawPost(anvil.url, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })).json.result) >= 2n ? true : undefined,
    );
  });

  after(async () => {
    await runner?.dispose();
    await anvil?.stop();
    printRecorded('anvil');
  });

  it('eth_blockNumber and eth_chainId (hex quantities, decimal in the summary)', async () => {
    const n = await runner.ok('evm.blockNumber');
    assert.match(n.result as string, /^0x[1-9a-f][0-9a-f]*$/);
    assert.equal(n.summary, `${n.result} = ${BigInt(n.result as string)} (decimal)`);
    const c = await runner.ok('evm.chainId');
    assert.equal(c.result, '0x7a69');
    assert.equal(c.summary, '0x7a69 = 31337 (decimal)');
  });

  it('eth_getBlockByNumber: latest, a height, and past the tip (null)', async () => {
    const latest = await runner.ok('evm.getBlockByNumber');
    const lb = latest.result as Json;
    assert.match(lb.number, /^0x[0-9a-f]+$/);
    assert.match(lb.hash, /^0x[0-9a-f]{64}$/);
    const one = await runner.ok('evm.getBlockByNumber', { height: '1' });
    assert.equal((one.result as Json).number, '0x1');
    const far = await runner.ok('evm.getBlockByNumber', { height: '999999' });
    assert.equal(far.result, null);
    assert.equal(far.summary, 'null: no such block (past the tip, or pruned)');
  });

  it('eth_sendRawTransaction of a tx signed with the dev key, found in a block by its receipt', async () => {
    const before = BigInt((await runner.ok('evm.getBalance', { address: RECIPIENT })).result as string);
    const tx = await signTransfer(anvil.url, 12345n);
    const expected = '0x' + keccak256(Buffer.from(tx.slice(2), 'hex')).toString('hex');
    const sent = await runner.ok('evm.sendRawTransaction', { tx, confirmed: 'true' });
    assert.equal(sent.result, expected);
    const receipt = await waitFor('the receipt', async () => {
      const r = await runner.ok('evm.getTransactionReceipt', { hash: expected });
      return r.result === null ? undefined : (r.result as Json);
    });
    assert.equal(receipt.status, '0x1');
    assert.equal(receipt.transactionHash, expected);
    const block = await runner.ok('evm.getBlockByNumber', { height: BigInt(receipt.blockNumber).toString() });
    assert.ok(((block.result as Json).transactions as string[]).includes(expected));
    const byHash = await runner.ok('evm.getTransactionByHash', { hash: expected.toUpperCase().replace('0X', '0x') });
    assert.equal((byHash.result as Json).hash, expected);
    assert.equal((byHash.result as Json).blockNumber, receipt.blockNumber);
    const after = BigInt((await runner.ok('evm.getBalance', { address: RECIPIENT })).result as string);
    assert.equal(after - before, 12345n);
    // The same raw tx again, and a custom call.
    const again = await runner.run('evm.sendRawTransaction', { tx, confirmed: 'true' });
    record('the same raw tx again', again.error ? again.error.message : JSON.stringify(again.result));
    assert.ok(again.error);
    const count = await runner.ok('evm.custom', {
      method: 'eth_getTransactionCount',
      params: JSON.stringify([privateKeyToAccount(ANVIL_DEV_KEY).address, 'latest']),
    });
    assert.ok(BigInt(count.result as string) >= 1n);
    const unknown = await runner.run('evm.custom', { method: 'no_such_method', params: '' });
    assert.equal(unknown.error?.detail.code, -32601);
    record('unknown EVM method', unknown.error?.message ?? '');
    // Call Contract on an address without code: anvil answers 0x, which no uint256 decodes: left raw, never a 0.
    const noCode = await runner.run('evm.callContract', { address: RECIPIENT, function: 'balanceOf(address)(uint256)', args: RECIPIENT });
    record('callContract on an address without code', noCode.error?.message ?? JSON.stringify(noCode.result));
    assert.equal(noCode.error, undefined);
    assert.equal(noCode.result, '0x', 'the raw answer, not a value decoded from nothing');
    // evm.simulate run as a plain operation is its eth_call (simulate.real.test.ts runs the simulation itself).
    const sim = await runner.run('evm.simulate', { address: RECIPIENT, function: 'balanceOf(address)(uint256)', args: RECIPIENT });
    record('simulate as a plain operation on an address without code', sim.error?.message ?? JSON.stringify(sim.result));
    assert.equal(sim.error, undefined);
    assert.equal(sim.result, '0x');
  });

  it('covered every EVM RPC operation of the catalogue', () => {
    const missing = operationsFor('evmRpc')
      .map((o) => o.id)
      .filter((id) => !runner.exercised.has(id));
    assert.deepEqual(missing, []);
  });
});
