import * as assert from 'node:assert/strict';
import {
  clean,
  endSentence,
  hexQuantityDecimal,
  hexText,
  isEvmAddress,
  jsonTextOf,
  lowerEvmAddress,
  scalarText,
  withoutLeadingZeros,
} from '../../../../src/core/base/text';

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

  it('withoutLeadingZeros(): decimal or hex digits without their leading zeros, one zero kept; a megabyte of zeros in one step', () => {
    assert.equal(withoutLeadingZeros('000120'), '120');
    assert.equal(withoutLeadingZeros('0000'), '0');
    assert.equal(withoutLeadingZeros(''), '');
    assert.equal(withoutLeadingZeros('00ff', true), 'ff');
    assert.equal(withoutLeadingZeros('000', true), '0');
    assert.equal(withoutLeadingZeros(`${'0'.repeat(1 << 20)}7`), '7');
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

describe("text: a server's text in a sentence", () => {
  it('clean(): one line without control or direction characters, cut with its length', () => {
    assert.equal(clean('a\nb\u2028c\u001b[31md', 100), 'a b cd');
    assert.equal(clean('evil\u202Etxt.exe\u2066x\u2069', 100), 'eviltxt.exex');
    assert.equal(clean('x'.repeat(50), 10), 'xxxxxxxxxx… (50 characters)');
  });

  it('endSentence(): exactly one closing mark', () => {
    assert.deepEqual(['done', 'done.', 'why?', 'stop!', '', 'x…', 'a.b '].map(endSentence), ['done.', 'done.', 'why?', 'stop!', '.', 'x….', 'a.b .']);
  });

  it('scalarText() and jsonTextOf(): scalars as text, anything else the fallback; a list too deep to print is undefined', () => {
    assert.deepEqual(
      [scalarText('a'), scalarText(5), scalarText(5n), scalarText(true), scalarText(null), scalarText({}, '?'), scalarText([1])],
      ['a', '5', '5', 'true', '', '?', ''],
    );
    const deep = JSON.parse(`${'['.repeat(100_000)}1${']'.repeat(100_000)}`);
    assert.equal(scalarText(deep), '');
    assert.equal(jsonTextOf(deep), undefined);
    assert.equal(jsonTextOf({ a: [1] }), '{"a":[1]}');
  });
});
