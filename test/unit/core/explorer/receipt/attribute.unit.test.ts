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

describe('receipt: tx_log copies of the EVM logs', () => {
  const A = `0x${'1'.repeat(40)}`;
  const logs = Array.from({ length: 1000 }, (_, i) => ({ address: A, topics: [`0x${i.toString(16).padStart(64, '0')}`], data: '0x' }));
  const copy = (l: { address: string; topics: string[]; data: string }) => ({
    type: 'tx_log',
    attributes: [{ key: 'txLog', value: JSON.stringify({ ...l, address: l.address.toUpperCase().replace('0X', '0x') }) }],
    msgIndex: 0,
  });
  const run = (events: ReturnType<typeof copy>[]) =>
    attribute({ events, messages: [], prefix: 'cosmos', evmDenom: 'atest', unit: () => undefined, evm: { hash: '0x', message: 0, from: A, to: A, logs } });

  it('each copy names its log, in order, each log once (a second copy of one log is no copy)', () => {
    const r = run([copy(logs[7]), copy(logs[3]), copy(logs[7]), copy({ address: A, topics: [logs[1].topics[0], logs[2].topics[0]], data: '0x' })]);
    assert.deepEqual(
      r.events.map((e) => e.copyOfLog),
      [7, 3, undefined, undefined],
    );
    assert.equal(r.logCopies, 2);
  });

  it('5,000 tx_log events that copy none of 1,000 logs: read in well under a second (was 1.5 s of comparisons)', () => {
    const none = copy({ address: A, topics: [`0x${'f'.repeat(64)}`], data: '0x' });
    const t0 = Date.now();
    const r = run(Array.from({ length: 5000 }, () => none));
    assert.equal(r.logCopies, 0);
    assert.ok(Date.now() - t0 < 400, `${Date.now() - t0} ms`);
  });
});
