// ChainContext (core/explorer/context.ts): what a lookup learns of the chain once per provider (the
// bech32 prefix, the EVM denom, each denom's display unit). A failure that may pass (a timeout, a
// rate limit) is not remembered as "no metadata"; cancellation ends the lookup instead of becoming
// an answer.
import * as assert from 'node:assert/strict';
import { EndpointError } from '../../../../src/core/base/errors';
import { ChainContext, forgetContext } from '../../../../src/core/explorer/context';
import { type ExplorerSource, NotFound } from '../../../../src/core/explorer/source';

function source(answers: Array<() => unknown>): ExplorerSource & { asked: number } {
  const src = {
    asked: 0,
    provider: 'p',
    has: { rest: true, comet: false, evm: false },
    async rest() {
      return answers[src.asked++]();
    },
    comet: () => Promise.reject(new Error('no comet')),
    evm: () => Promise.reject(new Error('no evm')),
  };
  return src;
}

const METADATA = {
  metadata: {
    display: 'test',
    denom_units: [
      { denom: 'atest', exponent: 0 },
      { denom: 'test', exponent: 18 },
    ],
  },
};

describe('explorer: the chain context', () => {
  beforeEach(() => forgetContext());

  it("a denom's unit after a timeout is asked again (it was remembered as none for the provider's life)", async () => {
    const src = source([
      () => {
        throw new EndpointError('timeout', 'REST timed out after 10 s');
      },
      () => METADATA,
    ]);
    assert.equal(await new ChainContext(src, []).unit('atest'), undefined);
    assert.deepEqual(await new ChainContext(src, []).unit('atest'), { display: 'test', exponent: 18 });
    assert.equal(src.asked, 2);
  });

  it('a denom without metadata (not found) is remembered: asked once', async () => {
    const src = source([
      () => {
        throw new NotFound('metadata for denom x not found');
      },
    ]);
    assert.equal(await new ChainContext(src, []).unit('x'), undefined);
    assert.equal(await new ChainContext(src, []).unit('x'), undefined);
    assert.equal(src.asked, 1);
  });

  it('cancellation ends the lookup (it was swallowed as "no metadata" and "no prefix")', async () => {
    const cancelled = () => {
      throw new EndpointError('cancelled', 'Cancelled.');
    };
    await assert.rejects(new ChainContext(source([cancelled]), []).unit('atest'), /Cancelled/);
    await assert.rejects(new ChainContext(source([cancelled]), []).prefix(), /Cancelled/);
    await assert.rejects(new ChainContext(source([cancelled, cancelled]), []).evmDenom(), /Cancelled/);
  });
});
