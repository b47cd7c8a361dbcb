// A megabyte "number" from a server, a settings file, a chain.json or a query file never reaches
// BigInt: reading and printing one costs BigInt time that grows faster than its length (about a
// second for 1 MB), and a block of such transactions would hold the extension host for minutes.
// Every place below gets a 1 MB number (and a 1 MB run of leading zeros) while BigInt is watched:
// no text longer than MAX_INTEGER_TEXT (80 characters) may be given to it, and each says what it
// does with such input (refused, not a transfer, shown shortened).

import * as assert from 'node:assert/strict';
import { BinaryWriter } from 'cosmjs-types/binary';
import { coerceArg } from '../../../src/core/chain/abiCall';
import { findOperation } from '../../../src/core/chain/operations';
import { normalizeHeight, validateHeight } from '../../../src/core/chain/validate';
import { parseChainJson } from '../../../src/core/config/chainRegistry';
import { parseProviders } from '../../../src/core/config/providers';
import { MAX_INTEGER_TEXT } from '../../../src/core/base/limits';
import { ContractRegistry } from '../../../src/core/contracts/registry';
import { simulate } from '../../../src/core/contracts/simulate';
import { decimalDelta } from '../../../src/core/explorer/account/compare';
import { displayAmount } from '../../../src/core/explorer/decodeEvm';
import { readEthereumMsg } from '../../../src/core/explorer/ethereumMsg';
import { chainIdText, weiWithGwei } from '../../../src/core/explorer/units';

const HUGE = '9'.repeat(1024 * 1024);
const ZEROS = '0'.repeat(1024 * 1024);

/** Runs `work` with BigInt watched; returns what it gave back and the longest text BigInt was given. */
async function watched<T>(work: () => T | Promise<T>): Promise<{ value: T | Error; longest: number }> {
  const real = globalThis.BigInt;
  let longest = 0;
  const spy = Object.assign(
    function BigInt(v: string | number | bigint | boolean) {
      if (typeof v === 'string') longest = Math.max(longest, v.length);
      return real(v);
    },
    { asIntN: real.asIntN, asUintN: real.asUintN, prototype: real.prototype },
  ) as unknown as BigIntConstructor;
  globalThis.BigInt = spy;
  try {
    return { value: await work(), longest };
  } catch (err) {
    return { value: err as Error, longest };
  } finally {
    globalThis.BigInt = real;
  }
}

function assertBounded(r: { longest: number }, where: string): void {
  assert.ok(r.longest <= MAX_INTEGER_TEXT, `${where}: BigInt was given ${r.longest} characters`);
}

describe('hardening: no megabyte number reaches BigInt', function () {
  this.timeout(60_000);

  it('the watch itself sees what BigInt is given (a test that could not fail would prove nothing)', async () => {
    const r = await watched(() => BigInt(HUGE.slice(0, 5000)));
    assert.equal(r.longest, 5000);
  });

  it('a contract argument (uint256, int8): refused as out of range; leading zeros are no reason to refuse', async () => {
    const big = await watched(() => coerceArg({ type: 'uint256', name: 'amount' }, HUGE));
    assertBounded(big, 'uint256 of 1 MB');
    assert.match(String(big.value), /amount \(uint256\): out of range/);
    const hex = await watched(() => coerceArg({ type: 'int8', name: 'n' }, `0x${'f'.repeat(1024 * 1024)}`));
    assertBounded(hex, 'int8 of 1 MB hex');
    assert.match(String(hex.value), /out of range/);
    const zeros = await watched(() => coerceArg({ type: 'uint256', name: 'amount' }, `${ZEROS}750`));
    assertBounded(zeros, 'leading zeros');
    assert.equal(zeros.value, 750n);
    const negative = await watched(() => coerceArg({ type: 'int256', name: 'd' }, `-${ZEROS}5`));
    assert.equal(negative.value, -5n);
  });

  it('a height typed or pasted into a prompt', async () => {
    const r = await watched(() => validateHeight(HUGE));
    assertBounded(r, 'validateHeight');
    assert.match(String(r.value), /larger than the largest int64/);
    const z = await watched(() => [validateHeight(`${ZEROS}12`), normalizeHeight(`${ZEROS}12`)]);
    assertBounded(z, 'a height with a megabyte of leading zeros');
    assert.deepEqual(z.value, [undefined, '12']);
  });

  it("a settings file's evmChainId and a chain.json's chain ids are invalid, not read", async () => {
    const settings = await watched(() => parseProviders([{ name: 'p', evmChainId: HUGE, endpoints: { evmRpc: 'http://127.0.0.1:8545' } }]));
    assertBounded(settings, 'settings evmChainId');
    const chainJson = await watched(() =>
      parseChainJson(
        JSON.stringify({
          chain_name: 'hostile',
          chain_id: `hostile_${HUGE}-1`,
          chain_type: 'cosmos',
          key_algos: ['ethsecp256k1'],
          apis: { 'evm-http-jsonrpc': [{ address: 'http://127.0.0.1:8545' }] },
        }),
      ),
    );
    assertBounded(chainJson, 'chain.json chain_id');
    const eip155 = await watched(() => parseChainJson(JSON.stringify({ chain_name: 'h', chain_id: HUGE, chain_type: 'eip155' })));
    assertBounded(eip155, 'chain.json eip155 chain_id');
  });

  it("a node's numbers shown in documents and hovers: shortened, not computed", async () => {
    const r = await watched(() => [weiWithGwei(HUGE), chainIdText(HUGE), displayAmount(HUGE, 18), decimalDelta(HUGE, '1')]);
    assertBounded(r, 'weiWithGwei, chainIdText, displayAmount, decimalDelta');
    const [wei, id, amount, delta] = r.value as string[];
    for (const s of [wei, id, amount]) assert.match(s, /… \(1048576 characters\)$/);
    assert.equal(delta, undefined);
    // Ordinary numbers are unchanged.
    assert.equal(weiWithGwei('1000000000'), '1000000000 wei (1 gwei)');
    assert.equal(chainIdText('9000'), '0x2328 = 9000');
  });

  it('a MsgEthereumTx with a megabyte value, chain id and signature v (a hostile block)', async () => {
    const dynamic = new BinaryWriter()
      .uint32(10)
      .string(HUGE) // 1 chain_id
      .uint32(58)
      .string(HUGE) // 7 value
      .uint32(82)
      .bytes(new Uint8Array(1024 * 1024).fill(0xff)) // 10 v
      .finish();
    const any = new BinaryWriter().uint32(10).string('/ethermint.evm.v1.DynamicFeeTx').uint32(18).bytes(dynamic).finish();
    const msg = new BinaryWriter().uint32(10).bytes(any).finish();
    const r = await watched(() => readEthereumMsg(msg));
    assertBounded(r, 'readEthereumMsg');
  });

  it("eth_simulateV1's native transfer log with megabyte data is no transfer", async () => {
    const TOKEN = '0x00000000000000000000000000000000000000aa';
    const topic = (a: string) => `0x${'0'.repeat(24)}${a.slice(2)}`;
    const evm = async (method: string) => {
      assert.equal(method, 'eth_simulateV1');
      return [
        {
          calls: [
            {
              status: '0x1',
              returnData: '0x',
              gasUsed: '0x5208',
              logs: [
                {
                  address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
                  topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', topic(TOKEN), topic('0x' + 'bb'.repeat(20))],
                  data: `0x${'f'.repeat(1024 * 1024)}`,
                },
              ],
            },
          ],
        },
      ];
    };
    const registry = new ContractRegistry({});
    const r = await watched(() =>
      simulate(
        evm,
        { address: TOKEN, data: '0x' },
        registry,
        { network: 'n' },
        { provider: 'p', support: { simulateV1: true, traceCall: false, callOverrides: true } },
      ),
    );
    assertBounded(r, 'simulate (eth_simulateV1)');
    assert.ok(!(r.value instanceof Error), String(r.value));
    const result = r.value as Awaited<ReturnType<typeof simulate>>;
    assert.deepEqual(result.steps[0].transfers, []);
    assert.deepEqual(result.balanceChanges, []);
  });

  it('evm.simulate run as an operation: value, gas and nonce of a megabyte are refused with a sentence', async () => {
    const op = findOperation('evm.simulate')!;
    const r = await watched(() =>
      op.build({ address: '0x' + '22'.repeat(20), function: 'balanceOf(address)(uint256)', args: '0x' + '22'.repeat(20), value: HUGE }),
    );
    assertBounded(r, 'evm.simulate build');
    assert.match(String(r.value), /value: an integer/);
  });
});
