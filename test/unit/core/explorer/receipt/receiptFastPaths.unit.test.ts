// The receipt's fast paths (issue #35's figure: a receipt of 1,000 frames and 2,000 events within 2x
// its raw documents) against the slow paths they stand in for: esc()/id() deciding the common case in
// one test, words() deciding the common sentence with two tests and exec(), signed amounts, the
// per-document memo (bounded), coins parsed once per text, the ledger's parts merged without a search
// and their amount texts kept, bech32Of() remembered, the trace's escapes remembered.
// Each fuzz compares both on the same inputs: any disagreement fails.
import * as assert from 'node:assert/strict';
import { Doc, esc, escSlow, id, idSlow, memo, memoEscapes } from '../../../../../src/core/explorer/mdDoc';
import { frameLine, renderTrace } from '../../../../../src/core/explorer/renderEvm';
import { bech32 } from '@scure/base';
import { bech32Of, canonical, coinsKeyOf, parseCoins } from '../../../../../src/core/explorer/receipt/attribute';
import { ledger } from '../../../../../src/core/explorer/receipt/ledger';
import { signedAmount, words, wordsSlow } from '../../../../../src/core/explorer/receipt/renderReceipt';
import type { Cause } from '../../../../../src/core/explorer/receipt/types';
import type { TraceFrame } from '../../../../../src/core/contracts/trace';
import { seededRandom as rng } from '../../../helpers/seededRandom';

const VALOPER = 'cosmosvaloper10jmp6sgh4cc6zt3e8gw05wavvejgr5pw4xyrql';
const ACCOUNT = 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm';
const HEX = '0xc6fe5d33615a1c52c08018c47e8bc53646a0e101';
/** Pieces sentences are made of, plain and hostile: addresses, almost-addresses, marks, whitespace, markup. */
const PIECES = [
  'rewards of',
  '5450000000000000000atest',
  'withdrawn automatically because the delegation to',
  VALOPER,
  ACCOUNT,
  HEX,
  '0x0000000000000000000000000000000000000800',
  '0xabc',
  '0x12345g',
  'cosmos1',
  'abc1qqqqqq',
  'abc1qqqqqb',
  'a1qqqqqq',
  '0xabcdef',
  '0xabcde',
  'ABC1QQQQQQ',
  'x_y1qqqqqqqq',
  'qqqqqqqqqqqqqqqqqqqq1qqqqqq',
  'qqqqqqqqqqqqqqqqqqqqq1qqqqqq',
  'Abc1qqqqqq',
  'aBc1qqqqqq',
  'abc1qqqqq',
  'abc1qqqqqq1',
  'abc1qqqqqqB',
  '0X123456',
  '0x123456',
  '0x12345',
  '0xABCDEF0',
  '0x0x123456',
  '90x123456',
  'a.b',
  '1.5',
  'e.g.',
  '(frame 3 of the call tree)',
  '−1000',
  '×2',
  '+7',
  'ibc/ABCD',
  '`tick`',
  '[link](http://x)',
  '<b>',
  'über',
  '·',
  '\t',
  '  ',
  '\n',
  '\u00a0',
  '',
  ',',
  ':',
  ';',
  '.',
];

function sentence(r: () => number): string {
  const n = 1 + Math.floor(r() * 12);
  let s = '';
  for (let i = 0; i < n; i++) {
    const p = PIECES[Math.floor(r() * PIECES.length)];
    const sep = r() < 0.8 ? ' ' : r() < 0.5 ? '' : PIECES[Math.floor(r() * PIECES.length)];
    s += `${i === 0 ? '' : sep}${p}`;
  }
  return s;
}

describe('explorer: the receipt`s fast paths agree with the slow ones', () => {
  it('words() and the regular-expression words() give the same Markdown for 20,000 generated sentences', () => {
    const r = rng(35);
    const fixed = [
      `rewards of 5450000000000000000atest withdrawn automatically because the delegation to ${VALOPER} changed`,
      `bank transfer of 7atest from ${ACCOUNT} to ${HEX} by the bank precompile`,
      `EVM value transfer of 321atest from ${HEX} to 0x0000000000000000000000000000000000000016 (frame 321 of the call tree)`,
      'the fee listed again (not a movement of its own)',
      '',
      ' leading and trailing ',
      `${HEX}`,
      `${'a'.repeat(5000)} ${HEX}`,
    ];
    for (const s of fixed) assert.equal(words(s), wordsSlow(s), s);
    for (let n = 0; n < 20_000; n++) {
      const s = sentence(r);
      assert.equal(words(s), wordsSlow(s), JSON.stringify(s));
    }
    // Character by character: words, marks and addresses run together in every way.
    const chars = ['a', 'q', 'z', 'b', 'x', 'A', '0', '1', '7', ' ', '.', ',', '(', ')', '−', '×', '-', '_', '`', '\u00e9'];
    for (let n = 0; n < 20_000; n++) {
      let s = r() < 0.5 ? 'cosmos1' : '0x';
      const len = Math.floor(r() * 30);
      for (let k = 0; k < len; k++) s += r() < 0.6 ? 'q' : chars[Math.floor(r() * chars.length)];
      s = r() < 0.5 ? `to ${s}` : s;
      assert.equal(words(s), wordsSlow(s), JSON.stringify(s));
    }
    // And the addresses of a sentence are in code spans (the link provider finds them there).
    assert.equal(words(`moved to ${ACCOUNT}.`), `moved to \`${ACCOUNT}\`.`);
  });

  it('esc() and id() give what their slow paths give, for generated text and for values that are not text', () => {
    const r = rng(7);
    const chars = [
      'a',
      'Z',
      '0',
      ' ',
      '_',
      ',',
      '(',
      ')',
      '+',
      '-',
      '.',
      '`',
      '``',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u0085',
      '\u2028',
      '−',
      '·',
      '/',
      ':',
      '<',
      '[',
      'é',
      '\u202E',
      '\u2066',
      '\u200F',
    ];
    const values: unknown[] = [
      undefined,
      null,
      0,
      12,
      -1.5,
      true,
      { a: 1 },
      [1, '`'],
      '',
      ' ',
      '  ',
      ' a ',
      '`',
      ' ` ',
      'x'.repeat(2000),
      'x'.repeat(2001),
      `${' '.repeat(3)}`,
    ];
    for (let n = 0; n < 20_000; n++) {
      let s = '';
      const len = Math.floor(r() * 12);
      for (let i = 0; i < len; i++) s += chars[Math.floor(r() * chars.length)];
      values.push(s);
    }
    for (const v of values) {
      assert.equal(esc(v), escSlow(v), JSON.stringify(v));
      assert.equal(id(v), idSlow(v), JSON.stringify(v));
    }
  });

  it('drops direction marks and overrides from values and identifiers (a right-to-left override turned the rest of a line around)', () => {
    for (const v of ['moni\u202Eker', '\u2066evil\u2069', 'a\u200Fb', '\u061C']) {
      assert.ok(!/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/.test(esc(v)), JSON.stringify(esc(v)));
      assert.ok(!/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/.test(id(v)), JSON.stringify(id(v)));
    }
    assert.equal(esc('moni\u202Eker'), 'moniker');
    assert.equal(id('0xab\u202Ecd'), '`0xabcd`');
  });

  it('signed amounts: whole numbers decided without esc(), the same text esc() gives; anything else through esc()', () => {
    for (const a of ['0', '7', '-7', '5450000000000000000', '-5450000000000000000', '1'.repeat(200), '-', '', '1.5', '-x', `-${'9'.repeat(201)}`, '`1`']) {
      const shown = a.startsWith('-') ? `−${a.slice(1)}` : `+${a}`;
      assert.equal(signedAmount(a), esc(shown), a);
    }
  });

  it('the per-document memo: one computation per text, the same results, and at most 20,000 texts kept', () => {
    let calls = 0;
    const f = memo((s) => {
      calls++;
      return `<${s}>`;
    });
    assert.equal(f('a'), '<a>');
    assert.equal(f('a'), '<a>');
    assert.equal(calls, 1);
    for (let i = 0; i < 20_000; i++) f(`k${i}`);
    assert.equal(calls, 20_001);
    // Full: a new text is worked out each time it comes, never kept.
    assert.equal(f('new'), '<new>');
    assert.equal(f('new'), '<new>');
    assert.equal(calls, 20_003);
    // Kept texts still answered from the memo.
    assert.equal(f('k5'), '<k5>');
    assert.equal(calls, 20_003);
    const x = memoEscapes();
    for (const v of ['plain', 'cosmos1x', '`', ' a ', '']) {
      assert.equal(x.esc(v), esc(v));
      assert.equal(x.id(v), id(v));
    }
  });

  it('a call tree rendered with the remembered escapes is line for line what frameLine() gives alone', () => {
    const frames: TraceFrame[] = Array.from({ length: 60 }, (_, i) => ({
      index: i,
      depth: i === 0 ? 0 : 1 + (i % 30),
      type: ['CALL', 'STATICCALL', 'DELEGATECALL', 'CREATE', 'CALL'][i % 5],
      from: i % 7 === 0 ? '`odd` from' : `0x${(i % 5).toString(16).padStart(40, '0')}`,
      ...(i % 11 === 0 ? {} : { to: `0x${((i + 1) % 5).toString(16).padStart(40, '0')}` }),
      ...(i % 3 === 0 ? { toName: 'staking' } : {}),
      value: i % 4 === 0 ? '0' : String(i),
      gas: '300000',
      gasUsed: i % 6 === 0 ? '' : '21000',
      input: i % 9 === 0 ? '0x' : `0x53266bbb${'00'.repeat(8)}`,
      output: '0x',
      ...(i % 13 === 0 ? { error: 'execution reverted' } : {}),
    }));
    const d = new Doc();
    renderTrace(d, `0x${'ab'.repeat(32)}`, { frames, total: frames.length, depthCut: false, page: 1, pages: 1, configAs: 'string' }, 2);
    const lines = d.lines.filter((l) => /^\d+\. /.test(l));
    assert.deepEqual(
      lines,
      frames.map((f) => frameLine(f)),
    );
  });

  it('coins: amounts made canonical as BigInt would, one coin parsed without splitting, the key sorted', () => {
    for (const d of ['0', '00', '007', '1', '10', '5450000000000000000', '0'.repeat(78), `0${'9'.repeat(77)}`])
      assert.equal(canonical(d), BigInt(d).toString(), d);
    assert.deepEqual(parseCoins('007atest'), [{ amount: '7', denom: 'atest' }]);
    assert.deepEqual(parseCoins(' 5atest , 3uatom,bad, 2'), [
      { amount: '5', denom: 'atest' },
      { amount: '3', denom: 'uatom' },
    ]);
    assert.deepEqual(parseCoins(' 12 ', 'atest'), [{ amount: '12', denom: 'atest' }]);
    assert.deepEqual(parseCoins('x'), []);
    assert.deepEqual(parseCoins(Array.from({ length: 40 }, (_, i) => `${i}a${i}`).join(',')).length, 32);
    assert.equal(coinsKeyOf([{ denom: 'uatom', amount: '3' }]), '3uatom');
    assert.equal(
      coinsKeyOf([
        { denom: 'uatom', amount: '3' },
        { denom: 'atest', amount: '5' },
      ]),
      '3uatom,5atest',
    );
    assert.equal(coinsKeyOf([]), '');
  });

  it('the ledger merges a cause`s movements of one account and denom (in order, without a search), not two causes`', () => {
    const A = `0x${'a'.repeat(40)}`;
    const cause = (moves: Cause['moves']): Cause => ({ kind: 'bankTransfer', sentence: '', moves, events: [] });
    const causes = [
      cause([
        { account: A, denom: 'atest', amount: '5' },
        { account: A, denom: 'atest', amount: '-2' },
        { account: A, denom: 'uatom', amount: '1' },
      ]),
      cause([{ account: A, denom: 'atest', amount: '10' }]),
      cause([
        { account: A, denom: 'atest', amount: '1' },
        { account: A, denom: 'atest', amount: '-1' },
      ]),
    ];
    const { changes } = ledger({ causes, accounts: [], modules: new Map(), bech32Of: (h) => `b32${h}`, evmDenom: 'atest', display: () => undefined });
    const atest = changes.find((c) => c.denom === 'atest')!;
    assert.deepEqual(
      atest.parts.map((p) => [p.cause, p.amount]),
      [
        [0, '3'],
        [1, '10'],
      ],
    );
    assert.equal(atest.explained, '13');
  });

  it('the ledger`s parts say their amounts as BigInt prints them, whether a cause wrote them so or not', () => {
    const A = `0x${'a'.repeat(40)}`;
    const amounts = ['5', '-5', '0', '-0', '007', '-007', '00', '1'.repeat(80), `-${'9'.repeat(80)}`];
    const causes: Cause[] = amounts.map((amount) => ({ kind: 'bankTransfer', sentence: '', moves: [{ account: A, denom: 'atest', amount }], events: [] }));
    const shown: string[] = [];
    const { changes } = ledger({
      causes,
      accounts: [],
      modules: new Map(),
      bech32Of: (h) => `b32${h}`,
      evmDenom: 'atest',
      display: (amount) => {
        shown.push(amount);
        return undefined;
      },
    });
    const expected = amounts.map((a) => BigInt(a)).filter((v) => v !== 0n);
    assert.deepEqual(
      changes[0].parts.map((p) => p.amount),
      expected.map((v) => v.toString()),
    );
    // display() is asked with the same text.
    assert.deepEqual(
      shown,
      expected.map((v) => v.toString()),
    );
    assert.equal(changes[0].explained, expected.reduce((x, y) => x + y, 0n).toString());
  });

  it('bech32Of() remembered: the same address as @scure/base makes, for each prefix, asked twice', () => {
    const hexes = Array.from({ length: 300 }, (_, i) => `0x${(i * 7919).toString(16).padStart(40, '0')}`);
    // Several prefixes for the same bytes (one memo for all); the second round answers from the memo.
    const prefixes = ['cosmos', 'cosmos0', 'c', 'cosmosvaloper', 'evmos'];
    for (let round = 0; round < 2; round++)
      for (const p of prefixes)
        for (const h of hexes) assert.equal(bech32Of(h, p), bech32.encode(p, bech32.toWords(Buffer.from(h.slice(2), 'hex')), false), `${p} ${h}`);
  });
});
