// eventDetail() (src/ui/events/eventDetail.ts): the text of an expanded event console line. It never
// throws: an event nested deeper than JSON.stringify can print (JSON.parse reads it) is a sentence.
import * as assert from 'node:assert/strict';
import { eventDetail, txOfEvent } from '../../../../src/ui/events/eventDetail';

const labels = { decoded: 'Decoded', ethereum: 'Ethereum', event: 'Event' };

describe('ui/events/eventDetail', () => {
  it('shows an event as received when it carries no transaction', async () => {
    const text = await eventDetail({ query: "tm.event='NewBlock'", data: { type: 'tendermint/event/NewBlock' } }, labels);
    assert.match(text, /"tendermint\/event\/NewBlock"/);
    assert.equal(txOfEvent({ data: {} }), undefined);
  });

  it('says an event 100,000 levels deep cannot be shown, and does not throw (a RangeError before)', async () => {
    const deep = JSON.parse(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    const text = await eventDetail(deep, labels);
    assert.match(text, /^The event cannot be shown: /);
    assert.ok(text.length < 500);
  });
});
