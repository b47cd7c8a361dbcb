// Result document names and tab titles never show a secret (issue 25 §1): a query-file run used to
// name its document from the arguments after substitution (`eth_call [_Zk9sTq2Xw8Lp4Rv7_].json`).

import * as assert from 'node:assert/strict';
import { resultName } from '../../../../src/core/documents/resultName';
import { masker } from '../../../../src/core/secrets/mask';

describe('result document names: masked before they are shortened or hashed', () => {
  afterEach(() => masker.set([]));

  it('a secret in an argument (whole, or its first and last characters) is not in the path', () => {
    const secret = 'Zk9sTq2Xw8Lp4Rv7QQQQQQQQQQQQQQQ';
    masker.set([secret]);
    const name = resultName({
      providerName: 'Main',
      operation: { id: 'evm.custom', label: 'Custom JSON-RPC request…' },
      args: { method: 'eth_call', params: `["${secret}"]` },
    });
    assert.doesNotMatch(name.path, /Zk9sTq2X/);
    assert.doesNotMatch(name.path, /QQQQ/);
    assert.match(name.path, /^\/Main\/Custom JSON-RPC request eth_call \[_+\]\.json$/);
    // The hash is of the masked arguments: it cannot be used to test guesses of the secret.
    masker.set([secret, 'other-secret-value']);
    const again = resultName({ providerName: 'Main', operation: { id: 'evm.custom', label: 'x' }, args: { method: 'eth_call', params: '["***"]' } });
    assert.equal(again.query, name.query);
  });

  it('values read from the environment are masked the same way', () => {
    masker.setGroup('env', ['ghp_abcdefghijklmnop']);
    try {
      const name = resultName({ providerName: 'P', operation: { id: 'rest.custom', label: 'GET' }, args: { path: '/x?t=ghp_abcdefghijklmnop' } });
      assert.doesNotMatch(name.path + name.query, /ghp_/);
    } finally {
      masker.setGroup('env', []);
    }
  });
});
