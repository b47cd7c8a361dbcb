// A hostile simulation spec (a query file, the API, a settings-held block): each refused before anything
// is sent, in one short sentence, without blocking the host: 100,000 override addresses, 200,000 storage
// slots, 10 MB of code or calldata, a bytes argument of 10 MB, a signature of 160 KB.

import * as assert from 'node:assert/strict';
import { EndpointError, LocalizedError } from '../../../../src/core/base/errors';
import { ContractRegistry } from '../../../../src/core/contracts/registry';
import { type EvmCall, MAX_OVERRIDE_ADDRESSES, checkOverrides, prepareSimulation, readOriginal, simulate } from '../../../../src/core/contracts/simulate';

const TO = '0x1111111111111111111111111111111111111111';

/** The refusal of `f` (sync or async): a LocalizedError, with its message. */
async function refusal(f: () => unknown): Promise<{ message: string; ms: number }> {
  const t0 = Date.now();
  try {
    await f();
  } catch (err) {
    assert.ok(err instanceof LocalizedError, `not a sentence: ${String(err).slice(0, 200)}`);
    return { message: err.message, ms: Date.now() - t0 };
  }
  assert.fail('not refused');
}

describe('simulate: hostile specs', () => {
  const registry = new ContractRegistry();

  it('100,000 override addresses: refused at once (checksumming them blocked the host ~5 s)', async () => {
    const o: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) o[`0x${i.toString(16).padStart(40, '0')}`] = { balance: '0x1' };
    const r = await refusal(() => checkOverrides(o));
    assert.match(r.message, new RegExp(`at most ${MAX_OVERRIDE_ADDRESSES} addresses`));
    assert.ok(r.ms < 500, `${r.ms} ms`);
    const few: Record<string, unknown> = {};
    for (let i = 0; i < MAX_OVERRIDE_ADDRESSES; i++) few[`0x${i.toString(16).padStart(40, '0')}`] = { balance: '0x1' };
    assert.equal(Object.keys(checkOverrides(few)!).length, MAX_OVERRIDE_ADDRESSES);
  });

  it('200,000 storage slots: refused', async () => {
    const state: Record<string, string> = {};
    for (let i = 0; i < 200_000; i++) state[`0x${i.toString(16).padStart(64, '0')}`] = `0x${'0'.repeat(64)}`;
    const r = await refusal(() => checkOverrides({ [TO]: { state } }));
    assert.match(r.message, /storage slots/);
  });

  it('10 MB of code, of calldata, of a bytes argument: a sentence or accepted, never "Maximum call stack size exceeded"', async () => {
    const big = `0x${'60'.repeat(5 * 1024 * 1024)}`;
    assert.equal(checkOverrides({ [TO]: { code: big } })![TO].code, big);
    assert.match((await refusal(() => checkOverrides({ [TO]: { code: `${big}0` } }))).message, /code is 0x and hex bytes/);
    const data = await prepareSimulation({ address: TO, data: big }, registry, {});
    assert.equal(data.steps[0].tx.data, big);
    assert.match((await refusal(() => prepareSimulation({ address: TO, data: `${big}z` }, registry, {}))).message, /data: 0x and hex bytes/);
    const p = await prepareSimulation({ address: TO, function: 'f(bytes)', args: [big] }, registry, {});
    assert.ok(p.steps[0].tx.data.length > big.length);
    assert.match((await refusal(() => prepareSimulation({ address: TO, function: 'f(bytes)', args: [`${big}0`] }, registry, {}))).message, /even number/);
  });

  it('a 160 KB signature, or thousands of parentheses: refused in a sentence of at most a few hundred characters', async () => {
    for (const fn of [`f(${'uint256,'.repeat(20_000)}uint256)`, `f${'('.repeat(5000)}${')'.repeat(5000)}`, 'x'.repeat(100_000)]) {
      const r = await refusal(() => prepareSimulation({ address: TO, function: fn }, registry, {}));
      assert.ok(r.message.length < 400, `${r.message.length} characters: ${r.message.slice(0, 200)}`);
      assert.ok(r.ms < 1000, `${r.ms} ms`);
    }
  });

  describe('a node whose eth_call fails for a reason that is not the call`s', () => {
    const PRUNED = 'rpc error: code = NotFound desc = failed to load state at height 5; version does not exist';
    const node =
      (fail: Record<string, unknown>): EvmCall =>
      async (method) => {
        const f = fail[method];
        if (f) throw f;
        return method === 'eth_estimateGas' ? '0x5208' : '0x';
      };
    const run = (evm: EvmCall, support = {}) =>
      simulate(evm, { address: TO, data: '0x12345678', from: TO, block: '5' }, registry, {}, { provider: 'p', support });

    it('the parent block pruned: refused in a sentence naming the block (was: "reverted or failed", a replay`s status "changed")', async () => {
      for (const support of [{}, { traceCall: true }, { simulateV1: true }]) {
        const method = 'traceCall' in support ? 'debug_traceCall' : 'simulateV1' in support ? 'eth_simulateV1' : 'eth_call';
        const r = await refusal(() => run(node({ [method]: new EndpointError('rpc', PRUNED, { code: -32000 }) }), support));
        assert.match(r.message, /^Block 5 is pruned on p: its state is no longer kept there/, method);
      }
    });

    it('a 429, a timeout or the method refused: the request`s failure (rejects), not a failed call', async () => {
      for (const err of [
        new EndpointError('http', 'HTTP 429 Too Many Requests', { status: 429 }),
        new EndpointError('timeout', 'no answer within 10 s'),
        new EndpointError('rpc', 'the method eth_call does not exist/is not available', { code: -32601 }),
      ]) {
        await assert.rejects(run(node({ eth_call: err })), (e: unknown) => e === err);
      }
    });

    it('a revert or an execution error is still the call`s outcome', async () => {
      const reverted = await run(node({ eth_call: new EndpointError('rpc', 'execution reverted', { code: 3, data: '0x' }) }));
      assert.equal(reverted.ok, false);
      assert.ok(reverted.steps[0].revert);
      const oog = await run(node({ eth_call: new EndpointError('rpc', 'out of gas', { code: -32000 }) }));
      assert.equal(oog.ok, false);
      assert.equal(oog.steps[0].error, 'out of gas');
    });
  });

  it('a replay`s original: a receipt without a status is refused, never taken for a revert; 0x01 is a success', async () => {
    const hash = `0x${'ab'.repeat(32)}`;
    const node =
      (status: unknown): EvmCall =>
      async (method) =>
        method === 'eth_getTransactionByHash' ? { to: TO, from: TO, blockNumber: '0x6', input: '0x' } : { status, gasUsed: '0x5208', logs: [] };
    for (const status of [undefined, '0x2', 'garbage', null])
      assert.match((await refusal(() => readOriginal(node(status), hash))).message, /has no status/, String(status));
    assert.equal((await readOriginal(node('0x01'), hash)).original.status, 'success');
    assert.equal((await readOriginal(node('0x0'), hash)).original.status, 'reverted');
  });
});
