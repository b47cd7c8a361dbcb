import * as assert from 'node:assert/strict';
import { parseProviders } from '../../../../src/core/config/providers';
import { ambiguityMessage, ambiguousRequests, providerVariableEdit, requestProviderEdit } from '../../../../src/core/queries/providerChoice';
import { parseQueryFile } from '../../../../src/core/queries/parse';

const { providers } = parseProviders([
  { name: 'A', consensusRpc: 'http://127.0.0.1:1', evmRpc: 'http://127.0.0.1:2' },
  { name: 'B', consensusRpc: 'http://127.0.0.1:3' },
]);

describe('query files: which provider a request without "provider:" runs on', () => {
  it('two candidates and no choice: ambiguous, naming them; one candidate, @provider, provider: or --provider: not', () => {
    const file = parseQueryFile('request s = consensusRpc.status\n\nrequest n = evm.blockNumber\n\nrequest t = consensusRpc.status\nprovider: B\n');
    const found = ambiguousRequests(file, providers);
    assert.deepEqual(
      found.map((a) => [a.request.name, a.candidates]),
      [['s', ['A', 'B']]],
    );
    assert.match(ambiguityMessage(found[0]), /2 providers have a consensusRpc address \("A", "B"\)/);
    assert.deepEqual(ambiguousRequests(file, providers, 'A'), []);
    assert.deepEqual(ambiguousRequests(parseQueryFile('@provider = A\nrequest s = consensusRpc.status\n'), providers), []);
  });

  it('the @provider fix replaces a commented-out "# @provider" line, else goes after the opening comments', () => {
    assert.deepEqual(providerVariableEdit(['# about', '# @provider = Local node', '', 'request s = consensusRpc.status'], 'B'), {
      line: 1,
      replace: true,
      text: '@provider = B',
    });
    assert.deepEqual(providerVariableEdit(['# about', '# more', '@x = 1', 'request s = consensusRpc.status'], 'A'), {
      line: 2,
      replace: false,
      text: '@provider = A',
    });
    assert.deepEqual(providerVariableEdit(['request s = consensusRpc.status'], 'A'), { line: 0, replace: false, text: '@provider = A' });
  });

  it('the per-request fix adds "provider:" under the request line, indented like its lines', () => {
    const lines = ['request s = consensusRpc.status', '  assert success'];
    const r = parseQueryFile(lines.join('\n')).requests[0];
    assert.deepEqual(requestProviderEdit(lines, r, 'B'), { line: 1, replace: false, text: '  provider: B' });
  });
});
