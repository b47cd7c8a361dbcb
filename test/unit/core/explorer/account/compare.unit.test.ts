// Two heights of one account compared (src/core/explorer/account/compare.ts): stake matched by the
// validators' addresses whatever the monikers read at each height, pending rewards per denom,
// redelegations per pair of validators, tokens by address.
import * as assert from 'node:assert/strict';
import { compareSnapshots } from '../../../../../src/core/explorer/account/compare';
import type { AccountStateView } from '../../../../../src/core/explorer/views';

const V1 = 'cosmosvaloper1aaaa';
const V2 = 'cosmosvaloper1bbbb';
const V3 = 'cosmosvaloper1cccc';
const coin = (amount: string, denom = 'atest') => ({ denom, amount });
const state = (s: Partial<AccountStateView>): AccountStateView => ({ missing: [], ...s });

describe('explorer: the account page: comparing two heights', () => {
  it('a moniker read at one height only is the same validator: no delegation "removed" and "added"', () => {
    const c = compareSnapshots(
      '5',
      '6',
      { state: state({ delegations: [{ validator: V1, moniker: 'Alpha', shares: '10', amount: coin('10') }] }) },
      { state: state({ delegations: [{ validator: V1, shares: '10', amount: coin('10') }] }) },
    );
    assert.deepEqual(c.changes, []);
    assert.deepEqual(c.unchanged.includes('delegation'), true);
  });

  it('pending rewards in two denoms: each denom with its own before and after (the first coin of each height was compared)', () => {
    const c = compareSnapshots(
      '5',
      '6',
      { state: state({ rewards: [{ validator: V1, moniker: 'Alpha', reward: [coin('5.0')] }] }) },
      { state: state({ rewards: [{ validator: V1, reward: [coin('1', 'aaa'), coin('6.0')] }] }) },
    );
    assert.deepEqual(
      c.changes.map((x) => [x.what, x.before, x.after, x.delta]),
      [
        [`${V1} aaa`, '0', '1', '+1'],
        [`${V1} (Alpha) atest`, '5.0', '6.0', '+1'],
      ],
    );
  });

  it('redelegations per pair of validators (each pair was "[object Object] → [object Object]", all summed)', () => {
    const r = (source: string, destination: string, balance: string) => ({
      source: { validator: source },
      destination: { validator: destination },
      balance,
      initialBalance: balance,
      creationHeight: '1',
      completionTime: '',
    });
    const c = compareSnapshots(
      '5',
      '6',
      { state: state({ redelegations: [r(V1, V2, '3'), r(V2, V3, '4')] }) },
      { state: state({ redelegations: [r(V1, V2, '3'), r(V2, V3, '5')] }) },
    );
    assert.deepEqual(
      c.changes.map((x) => [x.part, x.what, x.before, x.after]),
      [['redelegation', `${V2} → ${V3}`, '4', '5']],
    );
  });

  it('a token whose symbol was read at one height only is one token', () => {
    const t = { address: '0x00000000000000000000000000000000000000aa', source: 'Transfer logs', balance: '7' };
    const c = compareSnapshots('5', '6', { tokens: [{ ...t, symbol: 'TOK' }] }, { tokens: [{ ...t, balance: '9' }] });
    assert.deepEqual(
      c.changes.map((x) => [x.what, x.before, x.after]),
      [[`TOK ${t.address}`, '7', '9']],
    );
  });
});
