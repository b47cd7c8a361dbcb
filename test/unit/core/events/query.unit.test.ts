import * as assert from 'node:assert/strict';
import { MAX_QUERY_LENGTH, queryTemplates, validateQuery } from '../../../../src/core/events/query';

describe('events: the CometBFT query validator', () => {
  const valid = [
    "tm.event='NewBlock'",
    "tm.event='Tx' AND message.sender='cosmos1abc'",
    "tm.event = 'Tx' AND transfer.recipient = 'cosmos1xyz'",
    "tm.event='Tx' AND tx.height>5",
    'tx.height >= 10 AND tx.height <= 20',
    "tm.event='Tx' AND transfer.amount EXISTS",
    "message.action CONTAINS 'Send'",
    "ethereum_tx.ethereumTxHash='0xabc'",
    "tm.event!='NewBlockHeader'",
    "tx.fee > 1.5 AND tm.event='Tx'",
    'block.time >= TIME 2024-01-02T15:04:05Z',
    'block.date < DATE 2024-01-02',
    "app.key='a b = c AND d'",
  ];
  for (const q of valid) it(`accepts ${q}`, () => assert.equal(validateQuery(q), undefined));

  const invalid: Array<[string, RegExp]> = [
    ['', /Type a query such as/],
    ["tm.event='Tx' AND message.sender='…'", /Replace … with a value/],
    ["tm.event='Tx' OR tm.event='NewBlock'", /no OR/],
    ["tm.event='Tx", /never closed/],
    ['tm.event=Tx', /must be quoted: 'Tx'/],
    ["tm.event='Tx' AND", /ends after AND/],
    ["tm.event='Tx' message.sender='x'", /Join conditions with AND/],
    ["tm.event 'Tx'", /Expected an operator/],
    ['tm.event =', /needs a value/],
    ["'Tx' = tm.event", /Expected a key/],
    ["tx.height > 'five'", /compares numbers or dates/],
    ['message.action CONTAINS 5', /CONTAINS takes a quoted string/],
    ['block.time > TIME yesterday', /needs a value such as TIME 2024-01-02T15:04:05Z/],
    ['tm.event', /needs an operator and a value/],
    ["tm.event='Tx' AND €='x'", /"€" at character 19 is neither a key nor a value/],
    [`tm.event='${'x'.repeat(MAX_QUERY_LENGTH)}'`, /at most 512/],
  ];
  for (const [q, sentence] of invalid) {
    it(`refuses ${JSON.stringify(q.slice(0, 60))} with a sentence that says what to fix`, () => {
      const error = validateQuery(q);
      assert.ok(error, 'expected an error');
      assert.match(error, sentence);
    });
  }

  it('every template is valid once its … is filled in', () => {
    const templates = queryTemplates();
    assert.ok(templates.length >= 5);
    for (const t of templates) assert.equal(validateQuery(t.query.replace('…', 'cosmos1abc')), undefined, t.query);
  });
});
