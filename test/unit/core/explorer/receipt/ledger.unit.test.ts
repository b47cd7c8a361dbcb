// The ledger compares a balance only where both heights were read the same way and in full: the bank
// at one height and eth_getBalance at the other, a denom past the pages read, or an amount that is no
// whole number is "not measured" with why, never a measured change of the whole balance.

import * as assert from 'node:assert/strict';
import { ledger } from '../../../../../src/core/explorer/receipt/ledger';
import type { Cause, StateSnapshot } from '../../../../../src/core/explorer/receipt/types';

const HEX = '0xc6fe5d33615a1c52c08018c47e8bc53646a0e101';
const B32 = 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm';

function run(before: StateSnapshot, after: StateSnapshot, causes: Cause[] = []) {
  return ledger({
    causes,
    accounts: [{ account: HEX, bech32: B32, before, after }],
    modules: new Map(),
    bech32Of: () => B32,
    evmDenom: 'atest',
    display: () => undefined,
  });
}

const cause = (denom: string, amount: string): Cause => ({ kind: 'bankTransfer', sentence: 's', moves: [{ account: HEX, denom, amount }], events: [] });

describe('receipt: the ledger', () => {
  it('the bank at N−1, only eth_getBalance at N: not compared (was: the bank`s other denoms "changed" to 0, unexplained)', () => {
    const r = run(
      {
        height: '9',
        balances: [
          { denom: 'atest', amount: '100' },
          { denom: 'uatom', amount: '7' },
        ],
        missing: [],
      },
      { height: '10', evmBalance: '100', missing: ['bank balances: failed'] },
      [cause('uatom', '-2')],
    );
    assert.equal(r.changes.length, 1, JSON.stringify(r.changes));
    const c = r.changes[0];
    assert.equal(c.denom, 'uatom');
    assert.equal(c.status, 'unmeasured');
    assert.equal(c.measured, undefined);
    assert.match(c.why!, /read through the bank balances, at 10 through eth_getBalance/);
    assert.doesNotMatch(r.summary, /not fully explained/);
  });

  it('a denom past the pages read, or an amount that is no whole number: not measured, with why', () => {
    const r = run(
      {
        height: '9',
        balances: [
          { denom: 'aaa', amount: '5' },
          { denom: 'zzz', amount: '3' },
          { denom: 'frac', amount: '1' },
        ],
        missing: [],
      },
      {
        height: '10',
        balances: [
          { denom: 'aaa', amount: '5' },
          { denom: 'frac', amount: '1.5' },
        ],
        balancesTruncated: true,
        missing: [],
      },
      [cause('zzz', '-1'), cause('frac', '1')],
    );
    const zzz = r.changes.find((c) => c.denom === 'zzz')!;
    assert.equal(zzz.status, 'unmeasured');
    assert.match(zzz.why!, /not among the first denoms read at 10/);
    const frac = r.changes.find((c) => c.denom === 'frac')!;
    assert.equal(frac.status, 'unmeasured');
    assert.match(frac.why!, /not a whole number/);
    assert.equal(
      r.changes.some((c) => c.status === 'unexplained'),
      false,
      JSON.stringify(r.changes),
    );
  });

  it('both heights read through the bank in full: a denom gone is a change to 0', () => {
    const r = run({ height: '9', balances: [{ denom: 'uatom', amount: '7' }], missing: [] }, { height: '10', balances: [], missing: [] }, [
      cause('uatom', '-7'),
    ]);
    assert.equal(r.changes[0].status, 'explained');
    assert.equal(r.changes[0].measured, '-7');
  });
});
