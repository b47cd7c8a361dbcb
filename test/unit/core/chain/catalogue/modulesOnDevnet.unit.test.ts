// Module routes through execute() against the devnet: a paged answer ends with its next-page line,
// following it reaches the last page, required values are refused before sending, an unserved
// module reads as "not served here"; the route pick's items say which provider serves a module.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execute, type ExecuteOptions } from '../../../../../src/core/chain/execute';
import { findOperation, routeOperations } from '../../../../../src/core/chain/operations';
import type { Provider } from '../../../../../src/core/config/providers';
import { NEXT_PAGE_PREFIX } from '../../../../../src/core/documents/answer';
import { renderDocument } from '../../../../../src/core/documents/render';
import { scanRouteLinks } from '../../../../../src/core/explorer/links';
import type { Capabilities } from '../../../../../src/core/health/capabilities';
import { looksUnserved } from '../../../../../src/core/health/serves';
import { HttpClient } from '../../../../../src/core/transport/http';
import { parseQueryFile } from '../../../../../src/core/queries/parse';
import { runQueryFile } from '../../../../../src/core/queries/run';
import { routePickItems } from '../../../../../src/ui/requests/restQuery';
import { type Devnet, startDevnet } from '../../../../devnet/devnet';

describe('module routes against the devnet', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  let dir: string;
  let provider: Provider;
  const op = (id: string) => findOperation(id)!;

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 200, providers: [{ name: 'D' }] });
    http = new HttpClient();
    dir = mkdtempSync(path.join(tmpdir(), 'ce-modules-'));
    const { name, ...endpoints } = devnet.providers[0];
    provider = { name, endpoints };
    while (devnet.height() < 2n) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => {
    await devnet.stop();
    await http.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const opts = (): ExecuteOptions => ({ http, timeoutMs: 10_000, maxBufferBytes: 4 * 1024 * 1024, spillDir: dir });

  it('pages staking validators: each document ends with the next page, which the links follow to the last', async () => {
    let args: Record<string, string> = { status: 'BOND_STATUS_BONDED', 'pagination.limit': '2' };
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const o = await execute(provider, op('staking.Validators'), args, opts());
      assert.equal(o.error, undefined, o.error?.message);
      const r = o.result as { validators: Array<{ operator_address: string }> };
      seen.push(...r.validators.map((v) => v.operator_address));
      const doc = renderDocument(o);
      const last = doc.trimEnd().split('\n').pop()!;
      if (!o.nextPage) {
        assert.ok(!doc.includes(NEXT_PAGE_PREFIX));
        assert.match(o.summary!, /last page/);
        break;
      }
      assert.ok(last.startsWith(NEXT_PAGE_PREFIX), last);
      assert.match(o.summary!, /2 validators · more/);
      const [link] = scanRouteLinks(last);
      assert.equal(link.operation, 'staking.Validators');
      assert.equal(last.slice(link.start, link.end), 'next page');
      args = { ...link.args };
      assert.equal(args.status, 'BOND_STATUS_BONDED');
    }
    assert.equal(seen.length, 3, 'three bonded validators over two pages');
    assert.equal(new Set(seen).size, 3);
  });

  it('bank supply by denom: never sent without its denom; answered with it', async () => {
    const refused = await execute(provider, op('bank.SupplyOf'), {}, opts());
    assert.equal(refused.error?.kind, 'input');
    assert.equal(refused.status, undefined, 'nothing was sent');
    const o = await execute(provider, op('bank.SupplyOf'), { denom: 'atest' }, opts());
    assert.deepEqual(o.result, { amount: { denom: 'atest', amount: '100000000000000000000000000' } });
    assert.ok(scanRouteLinks('    "denom": "atest",').some((l) => l.operation === 'bank.DenomMetadata' && l.args.denom === 'atest'));
  });

  it('a module the chain lacks answers 501, read as not served here', async () => {
    const o = await execute(provider, op('nft.Classes'), {}, opts());
    assert.equal(o.status, 501);
    assert.ok(looksUnserved({ kind: o.error!.kind, message: o.error!.message, status: o.error!.detail.status }));
  });

  it('query files: a module route with typed params, and page: all (bounded) merges every page', async () => {
    const source = [
      'request all = staking.Validators',
      'status: BOND_STATUS_BONDED',
      'pagination.limit: 1',
      'page: all',
      'assert result.validators[2].operator_address exists',
      'assert result.validators[3] not exists',
      '',
      'request two = staking.Validators',
      'pagination.limit: 1',
      'page: all 2',
      'assert result.validators[1] exists',
      'assert result.validators[2] not exists',
      '',
      'request supply = bank.SupplyOf',
      'denom: atest',
      'assert result.amount.denom == atest',
    ].join('\n');
    const file = parseQueryFile(source);
    assert.deepEqual(file.diagnostics, []);
    const run = await runQueryFile(file, {
      providers: [provider],
      execute: { http, timeoutMs: 10_000, maxBufferBytes: 1 << 20, spillDir: dir },
      env: {},
      resolveProvider: (p) => p,
      secretValue: () => undefined,
    });
    for (const r of run.requests)
      for (const x of r.runs)
        assert.ok(
          x.assertions.every((a) => a.passed),
          `${r.request.name}: ${JSON.stringify(x.assertions)}`,
        );
    assert.match(run.requests[1].runs[0].sent!.summary!, /2 validators over 2 pages \(stopped: more pages left\)/);
    const bad = parseQueryFile('request s = bank.SupplyOf\npage: all\n\nrequest v = staking.Validators\nstatus: BONDED\npage: every');
    assert.deepEqual(bad.diagnostics.map((d) => d.message).sort(), [
      'Type "page: all" or "page: all <pages>" (1 to 100 pages).',
      'Type one of: BOND_STATUS_BONDED, BOND_STATUS_UNBONDING, BOND_STATUS_UNBONDED, BOND_STATUS_UNSPECIFIED.',
      'bank.SupplyOf is not paged.',
      'bank.SupplyOf needs "denom: …" (denom).',
    ]);
  });

  it('the pick says which provider serves a module', () => {
    const providers: Provider[] = [
      { name: 'A', endpoints: { rest: 'http://a' } },
      { name: 'B', endpoints: { rest: 'http://b' } },
    ];
    const caps = (name: string): Capabilities => ({ provider: name, probedAt: 1, notes: [], rest: { modules: { nft: name === 'B' } } });
    const items = routePickItems(routeOperations(), providers, caps);
    const nft = items.find((i) => i.operation.id === 'nft.Classes')!;
    assert.match(nft.detail, /not served by A · served by B/);
    const staking = items.find((i) => i.operation.id === 'staking.Validators')!;
    assert.equal(staking.label, 'staking: Validators');
    assert.equal(staking.description, '/cosmos/staking/v1beta1/validators');
    assert.ok(!staking.detail.includes('not served'));
  });
});
