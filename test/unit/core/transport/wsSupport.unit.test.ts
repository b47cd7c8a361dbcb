// A subscription's JSON-RPC error in one bounded sentence (src/core/transport/wsSupport.ts).
import * as assert from 'node:assert/strict';
import { describeRpcError } from '../../../../src/core/transport/wsSupport';

describe('transport: a subscription error in one sentence', () => {
  it("CometBFT's cancellation and its client limit, as they come", () => {
    assert.equal(
      describeRpcError({ code: -32000, message: 'Server error', data: 'subscription was cancelled (reason: CometBFT exited)' }),
      'subscription cancelled: CometBFT exited',
    );
    assert.equal(
      describeRpcError({ code: -32603, message: 'Internal error', data: 'max_subscription_clients 100 reached' }),
      'max_subscription_clients 100 reached',
    );
    assert.equal(describeRpcError({ code: -32601, message: 'Method not found' }), 'subscription failed: Method not found (-32601)');
  });

  it('16 MB of "subscription was cancelled (reason: " without its ")": one short line, at once (the pattern ran for hours)', () => {
    const data = 'subscription was cancelled (reason: '.repeat(450_000);
    const sentence = describeRpcError({ code: -32000, message: 'x'.repeat(1 << 20), data });
    assert.ok(sentence.length <= 400, `${sentence.length} characters`);
    assert.match(sentence, /… \(16200000 characters\)$/);
  });
});
