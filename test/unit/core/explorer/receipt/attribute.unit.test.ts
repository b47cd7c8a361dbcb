// Attribution of events whose amounts lie: a negative amount, one past a uint256, a word, a list of
// 10,000 coins. What cannot be read is said so in the cause's sentence; never a 0, never "no rewards",
// never a list silently cut; and nothing is moved for it (the ledger then shows the change unexplained).

import * as assert from 'node:assert/strict';
import { attribute, unreadCoins } from '../../../../../src/core/explorer/receipt/attribute';

const D = 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm';
const V = 'cosmosvaloper10jmp6sgh4cc6zt3e8gw05wavvejgr5pw4xyrql';

function causesOf(amount: string) {
  const ev = (type: string) => ({
    type,
    attributes: [
      { key: 'amount', value: amount },
      { key: 'validator', value: V },
      { key: 'delegator', value: D },
    ],
    msgIndex: 0,
  });
  return attribute({
    events: [ev('withdraw_rewards'), ev('delegate'), ev('unbond')],
    messages: [{ typeUrl: '/cosmos.staking.v1beta1.MsgDelegate' }],
    prefix: 'cosmos',
    evmDenom: 'atest',
    unit: () => undefined,
    signer: D,
  }).causes;
}

describe('receipt: amounts that cannot be read', () => {
  it('a negative, a 100-digit and a garbage amount: said unreadable, never 0 or "no rewards", nothing moved', () => {
    for (const amount of ['-5atest', `${'1'.repeat(100)}atest`, 'garbage']) {
      const causes = causesOf(amount);
      assert.equal(causes.length, 3);
      for (const c of causes) {
        assert.match(c.sentence, /an amount that could not be read/, c.sentence);
        assert.doesNotMatch(c.sentence, /^0 |no rewards| 0 /, c.sentence);
        assert.deepEqual(c.moves, []);
      }
    }
  });

  it('an empty amount is no rewards (as a chain writes it), said so', () => {
    const [w] = causesOf('');
    assert.equal(w.sentence, `no rewards to withdraw from the delegation to ${V}`);
  });

  it('a list of 10,000 coins: the first read, the rest counted as not read', () => {
    const causes = causesOf('5atest,'.repeat(10_000));
    for (const c of causes) assert.match(c.sentence, /and 9968 more coin\(s\) that could not be read/, c.sentence.slice(0, 200));
    assert.equal(unreadCoins('5atest, 6uatom', 2), 0);
    assert.equal(unreadCoins('5atest,,-1x, ', 1), 1);
    assert.equal(unreadCoins(undefined, 0), 0);
  });
});
