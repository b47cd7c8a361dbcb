// `page: all` (src/core/chain/pages.ts) against a REST server whose pagination does not advance: the
// same next_key forever, or a cycle of two keys. Each page is merged once and the summary says why it
// stopped (it merged the same page up to 20 times, "stopped: more pages left").
import * as assert from 'node:assert/strict';
import { fetchAllPages } from '../../../../src/core/chain/pages';
import { findOperation } from '../../../../src/core/chain/operations';
import { HttpClient } from '../../../../src/core/transport/http';
import { type TestServer, json, startServer } from '../../helpers/httpServer';

describe('page: all (core/chain/pages)', () => {
  let server: TestServer;
  let http: HttpClient;
  let asked = 0;
  /** The next key for a request's key ('' for the first page). */
  let nextOf: (key: string) => string = () => 'AQ==';

  before(async () => {
    server = await startServer((req, res) => {
      asked++;
      const key = new URL(req.url, 'http://x').searchParams.get('pagination.key') ?? '';
      return json(res, 200, { validators: [{ operator_address: `v${key}` }], pagination: { next_key: nextOf(key), total: '1000000' } });
    });
    http = new HttpClient();
  });
  after(async () => {
    await http.close();
    await server.close();
  });

  for (const [name, next, pages] of [
    ['the same next_key forever', () => 'AQ==', ['v', 'vAQ==']],
    ['a cycle of two keys', (key: string) => (key === 'AQ==' ? 'Ag==' : 'AQ=='), ['v', 'vAQ==', 'vAg==']],
  ] as const) {
    it(`${name}: each page merged once, the summary says the key repeats`, async () => {
      nextOf = next;
      asked = 0;
      const all = await fetchAllPages(
        { name: 'One', endpoints: { rest: server.url } },
        findOperation('staking.Validators')!,
        { 'pagination.limit': '1' },
        { http, timeoutMs: 5000, maxBufferBytes: 1 << 20 },
        20,
      );
      assert.equal(all.outcome.error, undefined, all.outcome.error?.message);
      const list = (all.result as { validators: Array<{ operator_address: string }> }).validators.map((v) => v.operator_address);
      assert.deepEqual(list, pages);
      assert.equal(asked, pages.length);
      assert.equal(all.truncated, true);
      assert.match(all.summary, /stopped: the next page key repeats an earlier one/);
    });
  }
});
