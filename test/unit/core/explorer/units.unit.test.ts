// One rule per unit (src/core/explorer/units.ts), in documents and hovers; log words not linked.
import * as assert from 'node:assert/strict';
import { hoverAt, scanBudget, scanLinks } from '../../../../src/core/explorer/links';
import { summarize } from '../../../../src/core/explorer/lookupBlock';
import { amountText, chainIdText, evmAddress, timeText, weiWithGwei, withDisplayAmounts } from '../../../../src/core/explorer/units';
import type { TxView } from '../../../../src/core/explorer/views';

const ctx = { prefix: 'cosmos', unit: (d: string) => (d === 'atest' ? { display: 'test', exponent: 18 } : undefined), now: Date.parse('2026-11-23T19:05:28Z') };
const HASH = `0x${'ab'.repeat(32)}`;

describe('explorer: units', () => {
  it('gas prices in wei with gwei beside; EVM chain ids in hex and decimal; addresses EIP-55; amounts in display units', () => {
    assert.equal(weiWithGwei('123456800'), '123456800 wei (0.1234568 gwei)');
    assert.equal(weiWithGwei('0x3b9aca00'), '1000000000 wei (1 gwei)');
    assert.equal(weiWithGwei('n/a'), 'n/a');
    assert.equal(chainIdText('0x2328'), '0x2328 = 9000');
    assert.equal(chainIdText('9000'), '0x2328 = 9000');
    assert.equal(evmAddress('0xc6fe5d33615a1c52c08018c47e8bc53646a0e101'), '0xC6Fe5D33615a1C52c08018c47E8Bc53646A0E101');
    assert.equal(amountText('1000000000000', 'atest', { display: 'test', exponent: 18 }), '0.000001 test');
    assert.equal(amountText('1000011', 'uatom', undefined), '1000011uatom');
    assert.match(timeText(Date.parse('2026-11-23T19:03:28Z'), ctx.now), /\(2 min ago\)$/);
  });

  it('hovers: gas prices and base fees add gwei, a hex timestamp is a local time with its age, a chain id both ways', () => {
    assert.deepEqual(hoverAt(`"baseFeePerGas": "0x3b9aca00"`, 22, ctx)!.lines, ['1000000000 wei (1 gwei)']);
    assert.deepEqual(hoverAt(`- gas price: \`123456800\``, 16, ctx)!.lines, ['123456800 wei (0.1234568 gwei)']);
    const ts = (Date.parse('2026-11-23T19:00:28Z') / 1000).toString(16);
    assert.match(hoverAt(`"timestamp": "0x${ts}"`, 18, ctx)!.lines[0], /\(5 min ago\)$/);
    assert.deepEqual(hoverAt(`"chainId": "0x2328"`, 14, ctx)!.lines, ['EVM chain id 0x2328 = 9000']);
  });

  it("a log's topics and data words are not linked (no lookup finds them); a transaction hash still is", () => {
    assert.deepEqual(
      scanLinks(`- log 0: \`0x${'11'.repeat(20)}\` topics \`${HASH}\`, \`${HASH}\` data \`${HASH}\``).map((l) => l.query),
      [`0x${'11'.repeat(20)}`],
    );
    assert.deepEqual(scanLinks(`    "${HASH}",`, 10, scanBudget(), `  "logs": [{\n    "topics": [`), []);
    assert.deepEqual(scanLinks(`"data": "${HASH}"`), []);
    assert.deepEqual(
      scanLinks(`"transactionHash": "${HASH}"`, 10, scanBudget(), `"topics": ["0x01"],`).map((l) => l.query),
      [HASH],
    );
  });

  it('message amounts get the display form fees have; a block line says "0.000001 test", not "1000000000000atest"', async () => {
    const fields = (await withDisplayAmounts({ fromAddress: 'cosmos1x', amount: [{ denom: 'atest', amount: '1000000000000' }] }, async (denom, amount) => ({
      denom,
      amount,
      display: '0.000001 test',
    }))) as { amount: { display: string }[] };
    assert.equal(fields.amount[0].display, '0.000001 test');
    const tx = {
      messages: [
        {
          typeUrl: '/cosmos.bank.v1beta1.MsgSend',
          fields: { fromAddress: 'cosmos1a', toAddress: 'cosmos1b', amount: [{ denom: 'atest', amount: '1000000000000' }] },
        },
      ],
      evm: [],
    } as unknown as TxView;
    assert.equal(summarize(tx, new Map([['atest', { display: 'test', exponent: 18 }]])), 'MsgSend cosmos1a → cosmos1b 0.000001 test');
    const evm = {
      messages: [{ typeUrl: '/cosmos.evm.vm.v1.MsgEthereumTx' }],
      evm: [
        {
          hash: HASH,
          from: '0xc6fe5d33615a1c52c08018c47e8bc53646a0e101',
          to: '0xc6fe5d33615a1c52c08018c47e8bc53646a0e101',
          value: { denom: 'atest', amount: '1', display: '0.000000000000000001 test' },
        },
      ],
    } as unknown as TxView;
    assert.equal(
      summarize(evm),
      `MsgEthereumTx ${HASH} 0xC6Fe5D33615a1C52c08018c47E8Bc53646A0E101 → 0xC6Fe5D33615a1C52c08018c47E8Bc53646A0E101 0.000000000000000001 test`,
    );
  });
});
