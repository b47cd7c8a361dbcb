import * as assert from 'node:assert/strict';
import { isEvmAddress, isHexDigits } from '../../../../src/core/base/text';

describe('text: hex checks without regular expressions', () => {
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
    ])
      assert.equal(isEvmAddress(bad), false, JSON.stringify(bad));
  });

  it('isHexDigits: every character from `from` on, at least one', () => {
    assert.equal(isHexDigits('0x00ffAA', 2), true);
    assert.equal(isHexDigits('0x', 2), false, 'nothing after 0x');
    assert.equal(isHexDigits('0x0g', 2), false);
    assert.equal(isHexDigits('zz12', 2), true, 'what comes before `from` is not looked at');
    assert.equal(isHexDigits('0123456789abcdefABCDEF', 0), true);
  });
});
