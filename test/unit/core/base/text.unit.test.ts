import * as assert from 'node:assert/strict';
import { hexQuantityDecimal, hexText, isEvmAddress, lowerEvmAddress } from '../../../../src/core/base/text';

describe("text: hex checks of a node's fields and of input", () => {
  it('isEvmAddress: 0x and exactly 40 hex digits, either case; anything else is not', () => {
    const ok = '0x' + 'aB'.repeat(20);
    assert.equal(isEvmAddress(ok), true);
    assert.equal(isEvmAddress('0x' + '0'.repeat(40)), true);
    for (const bad of [
      undefined,
      null,
      42,
      ['0x' + '1'.repeat(40)],
      '',
      '0x',
      '0X' + '1'.repeat(40),
      '0x' + '1'.repeat(39),
      '0x' + '1'.repeat(41),
      '0x' + '1'.repeat(39) + 'g',
      '0x' + '1'.repeat(39) + ' ',
      ' 0x' + '1'.repeat(39),
      '1x' + '1'.repeat(40),
      '0x' + '1'.repeat(39) + '\u0661', // an Arabic-Indic digit
      '0x' + '1'.repeat(39) + '/', // the characters just below 0 and after 9, F, f
      '0x' + '1'.repeat(39) + ':',
      '0x' + '1'.repeat(39) + 'G',
      '0x' + '1'.repeat(39) + '@',
      '0x' + '1'.repeat(39) + '`',
      '0x' + '1'.repeat(39) + '\n', // a regular expression's $ must not let a line end through
    ])
      assert.equal(isEvmAddress(bad), false, JSON.stringify(bad));
  });

  it("a node's fields: quantities as decimal (1 to 64 digits, as BigInt reads them), hex data within a bound, addresses in lower case", () => {
    for (const q of ['0x0', '0x5208', '0xFFFFFFFFFFFFF', '0x10000000000000', '0x' + 'f'.repeat(64), '0x00ff', '0xaBcD'])
      assert.equal(hexQuantityDecimal(q), BigInt(q).toString(), q);
    for (const bad of ['0x', '0x' + '1'.repeat(65), '5208', '0xg', ' 0x1', '0x1\n', '0X1', 21000, undefined])
      assert.equal(hexQuantityDecimal(bad), undefined, String(bad));
    assert.equal(hexText('0x'), '0x');
    assert.equal(hexText('0xabCD'), '0xabCD');
    assert.equal(hexText('0xabc', 4), undefined, 'longer than the bound');
    assert.equal(hexText('0xzz'), undefined);
    assert.equal(hexText(1), undefined);
    assert.equal(lowerEvmAddress('0x' + 'AB'.repeat(20)), '0x' + 'ab'.repeat(20));
    assert.equal(lowerEvmAddress('0x' + 'AB'.repeat(19)), undefined);
  });
});
