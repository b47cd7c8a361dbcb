// Work that grew faster than its input, found by a review of the code (session 17): each case is an
// input on which the code before ran for seconds to hours (measured then), and must now finish with
// the right answer. Each would hang this file on the code before.

import * as assert from 'node:assert/strict';
import { MAX_IMPORTED_ROUTES, MAX_PATHS_READ, readOpenApi } from '../../../src/core/chain/catalogue/imported';
import { parseChainJson } from '../../../src/core/config/chainRegistry';
import { parseJsonText } from '../../../src/core/config/jsonText';
import { withoutTrailingSlashes } from '../../../src/core/config/providers';
import { checkQueryFile } from '../../../src/core/queries/check';
import { parseQueryFile } from '../../../src/core/queries/parse';

describe('hardening: work that grew faster than its input', function () {
  this.timeout(60_000);

  it('a query-file line of 50,000 spaces with a U+2028 in it (3 s before: .*$ failed and every split of the spaces was tried)', () => {
    for (const keyword of ['request', 'assert', '@v =', 'height:']) {
      const file = parseQueryFile(`request a = evm.blockNumber\n${keyword}${' '.repeat(50_000)}x\u2028y\n`);
      assert.ok(file.requests.length >= 1, keyword);
    }
  });

  it('100,000 references to a request that does not exist, in a file of 20,000 requests (13 s before: each reference searched every request)', () => {
    const lines = [`request r0 = evm.blockNumber`, `assert result == ${'{{z.result}}'.repeat(100_000)}`];
    for (let i = 1; i < 20_000; i++) lines.push(`request r${i} = evm.blockNumber`);
    const file = parseQueryFile(lines.join('\n'));
    const diagnostics = checkQueryFile(file, {});
    assert.ok(diagnostics.some((d) => /z/.test(d.message)));
  });

  it('an address with 100,000 slashes in its path (11 s before: /\\/+$/ retried from every slash)', () => {
    assert.equal(withoutTrailingSlashes(`https://a.io/${'/'.repeat(100_000)}x//`), `https://a.io/${'/'.repeat(100_000)}x`);
    assert.equal(withoutTrailingSlashes('/'), '');
    assert.equal(withoutTrailingSlashes('/a'), '/a');
    const result = parseChainJson(
      JSON.stringify({ chain_name: 'slashes', chain_id: 'slashes-1', apis: { rpc: [{ address: `https://a.io/${'/'.repeat(60_000)}x` }] } }),
    );
    assert.ok(result);
  });

  it('a chain.json of 100,000 "[": a sentence, not "Maximum call stack size exceeded"', () => {
    const r = parseJsonText('['.repeat(100_000));
    assert.ok('error' in r);
    assert.match(r.error.english, /not valid JSON/);
  });

  it('an OpenAPI document whose 5,000 paths share one enum of 100,000 values (15 s before); 100,000 invalid paths are counted, not read', () => {
    const huge = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    const param = { name: 'kind', in: 'query', type: 'string', enum: huge };
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) paths[`/chain/p${i}`] = { get: { operationId: `Op${i}`, parameters: [param], responses: {} } };
    const r = readOpenApi({ swagger: '2.0', paths }, new Set());
    assert.equal(r.routes.length, MAX_IMPORTED_ROUTES);
    assert.equal(r.routes[0].params?.find((p) => p.name === 'kind')?.enum?.length, 64);
    assert.equal(r.skipped.overLimit, 5000 - MAX_IMPORTED_ROUTES);
    const invalid: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) invalid[`/chain/q${i}`] = { get: { parameters: [{ name: 'not a name', in: 'query', enum: huge }], responses: {} } };
    const bad = readOpenApi({ swagger: '2.0', paths: invalid }, new Set());
    assert.deepEqual([bad.routes.length, bad.skipped.invalid, bad.skipped.overLimit], [0, MAX_PATHS_READ, 100_000 - MAX_PATHS_READ]);
  });
});
