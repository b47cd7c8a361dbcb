// firstErrorOfEachRequest(): where a run the checks stopped reports each error (the Testing view's
// stop report, src/ui/queries/queryTests.ts).
import * as assert from 'node:assert/strict';
import { firstErrorOfEachRequest } from '../../../../src/core/queries/check';
import { parseQueryFile } from '../../../../src/core/queries/parse';
import type { Diagnostic } from '../../../../src/core/queries/syntax';

const error = (line: number, message = `at ${line}`): Diagnostic => ({ line, col: 1, endCol: 2, severity: 'error', message });

describe('queries/check: the first error of each request', () => {
  const file = parseQueryFile(
    ['# a file', 'request a = evm.blockNumber', 'assert result > 0', '', 'request b = consensusRpc.status', 'assert result.node_info.network == x', ''].join(
      '\n',
    ),
  );

  it('gives each request the first error in the list within its lines, not the lowest line', () => {
    const [a, b] = file.requests;
    assert.deepEqual([a.line, a.endLine, b.line], [2, 3, 5]);
    // The checks' diagnostics come after the parse's, so a later line can come first in the list.
    const errors = [error(3, 'first of a'), error(2, 'second of a'), error(6, 'first of b'), error(1, 'before any request'), error(5)];
    const first = firstErrorOfEachRequest(file.requests, errors);
    assert.equal(first.get(a)?.message, 'first of a');
    assert.equal(first.get(b)?.message, 'first of b');
    assert.equal(first.size, 2);
  });

  it('places an error between two requests, or past the last, in none', () => {
    const first = firstErrorOfEachRequest(file.requests, [error(4), error(99)]);
    assert.equal(first.size, 0);
    assert.equal(firstErrorOfEachRequest([], [error(1)]).size, 0);
  });

  it('places 100,000 errors among 20,000 requests (the most a file has) (the search before was requests × errors)', () => {
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) lines.push(`request r${i} = evm.blockNumber`);
    const big = parseQueryFile(lines.join('\n'));
    assert.equal(big.requests.length, 20_000);
    const errors = Array.from({ length: 100_000 }, (_, k) => error(20_000 - (k % 20_000), `e${k}`));
    const first = firstErrorOfEachRequest(big.requests, errors);
    assert.equal(first.size, 20_000);
    assert.equal(first.get(big.requests[19_999])?.message, 'e0');
    assert.equal(first.get(big.requests[0])?.message, 'e19999');
  });
});
