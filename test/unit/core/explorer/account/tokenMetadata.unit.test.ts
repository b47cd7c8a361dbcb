// Token metadata on the account page (src/core/explorer/account/tokens.ts): name(), symbol() and
// decimals() are read once per token and remembered, unless a read failed for a reason that may pass
// (a timeout, a 429, a dropped connection): then the next page asks again. A revert is an answer.
import * as assert from 'node:assert/strict';
import { encodeAbiParameters } from 'viem';
import { EndpointError } from '../../../../../src/core/base/errors';
import { forgetTokenMetadata, readTokens } from '../../../../../src/core/explorer/account/tokens';
import type { ExplorerSource } from '../../../../../src/core/explorer/source';

const TOKEN = '0x00000000000000000000000000000000000000aa';
const HOLDER = '0x00000000000000000000000000000000000000bb';
const SELECTOR = { balanceOf: '0x70a08231', name: '0x06fdde03', symbol: '0x95d89b41', decimals: '0x313ce567' };

/** A source whose eth_call answers by selector; `fail(selector, round)` may throw instead. */
function source(fail: (selector: string) => Error | undefined): ExplorerSource & { calls: string[] } {
  const calls: string[] = [];
  return {
    provider: 'p',
    chainId: 'c',
    has: { rest: false, comet: false, evm: true },
    rest: async () => undefined,
    comet: async () => undefined,
    calls,
    evm: async (_method, params) => {
      const data = (params[0] as { data: string }).data;
      const selector = data.slice(0, 10);
      calls.push(selector);
      const err = fail(selector);
      if (err) throw err;
      if (selector === SELECTOR.balanceOf) return encodeAbiParameters([{ type: 'uint256' }], [5n]);
      if (selector === SELECTOR.name) return encodeAbiParameters([{ type: 'string' }], ['Token']);
      if (selector === SELECTOR.symbol) return encodeAbiParameters([{ type: 'string' }], ['TKN']);
      return encodeAbiParameters([{ type: 'uint8' }], [6]);
    },
  };
}

describe('account page: token metadata remembered only from answers', () => {
  beforeEach(() => forgetTokenMetadata());
  const candidates = [{ address: TOKEN, source: 'test' }];

  it('a name() that timed out is not remembered: the next read asks again and shows the name', async () => {
    let first = true;
    const timedOut = source((sel) => (first && sel === SELECTOR.name ? new EndpointError('timeout', 'timed out after 10 s') : undefined));
    const a = await readTokens(timedOut, HOLDER, candidates, undefined);
    assert.equal(a.tokens[0].balance, '5');
    assert.equal(a.tokens[0].name, undefined);
    assert.equal(a.tokens[0].symbol, 'TKN');
    first = false;
    const b = await readTokens(timedOut, HOLDER, candidates, undefined);
    assert.equal(b.tokens[0].name, 'Token');
    assert.ok(timedOut.calls.filter((s) => s === SELECTOR.name).length === 2, 'name() asked again');
    // Now remembered: a third read asks only for the balance.
    const before = timedOut.calls.length;
    const c = await readTokens(timedOut, HOLDER, candidates, undefined);
    assert.deepEqual(timedOut.calls.slice(before), [SELECTOR.balanceOf]);
    assert.equal(c.tokens[0].display, '0.000005');
  });

  it('a 429 or a dropped connection is not remembered either; a revert is (the token has no name())', async () => {
    for (const err of [new EndpointError('http', 'HTTP 429 Too Many Requests', { status: 429 }), new EndpointError('network', 'socket hang up')]) {
      forgetTokenMetadata();
      const src = source((sel) => (sel === SELECTOR.symbol ? err : undefined));
      await readTokens(src, HOLDER, candidates, undefined);
      await readTokens(src, HOLDER, candidates, undefined);
      assert.equal(src.calls.filter((s) => s === SELECTOR.symbol).length, 2, `${err.message}: symbol() asked again`);
    }
    forgetTokenMetadata();
    const reverts = source((sel) => (sel === SELECTOR.name ? new EndpointError('rpc', 'JSON-RPC error 3 execution reverted.', { code: 3 }) : undefined));
    await readTokens(reverts, HOLDER, candidates, undefined);
    const before = reverts.calls.length;
    const again = await readTokens(reverts, HOLDER, candidates, undefined);
    assert.deepEqual(reverts.calls.slice(before), [SELECTOR.balanceOf], 'remembered: only the balance is asked');
    assert.equal(again.tokens[0].name, undefined);
    assert.equal(again.tokens[0].symbol, 'TKN');
  });
});
