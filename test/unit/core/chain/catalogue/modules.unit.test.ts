import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { type StoredImport, mergeImport, readOpenApi, readStoredImports } from '../../../../../src/core/chain/catalogue/imported';
import { ROUTE_SOURCES, moduleOperations, pageSummary, routeOperation } from '../../../../../src/core/chain/catalogue/modules';
import { describeRequest } from '../../../../../src/core/chain/execute';
import { OPERATIONS, findOperation, setImportedOperations, validateArgs } from '../../../../../src/core/chain/operations';
import { bech32Encode } from '../../../../../src/core/chain/validate';
import type { Provider } from '../../../../../src/core/config/providers';
import { restModuleOf } from '../../../../../src/core/health/serves';
import { REPO_ROOT } from '../../../helpers/repoRoot';

const root = REPO_ROOT;
const provider: Provider = { name: 'P', endpoints: { rest: 'https://rest.example.org/base/' } };
const bytes = new Uint8Array(20).fill(7);
const account = bech32Encode('cosmos', bytes);
const valoper = bech32Encode('cosmosvaloper', bytes);
const valcons = bech32Encode('cosmosvalcons', bytes);
const op = (id: string) => {
  const found = findOperation(id);
  assert.ok(found, id);
  return found;
};
const url = (id: string, args: Record<string, string>) => describeRequest(provider, op(id), args).url;

describe('module routes: the generated table', () => {
  it('modules.json is what scripts/genModules.mjs makes from the definitions in Go module cache', function () {
    this.timeout(60_000);
    const run = spawnSync(process.execPath, [path.join(root, 'scripts/genModules.mjs'), '--check'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    if (run.status === 2) {
      assert.fail(`The definitions are not in Go's module cache: run the evmd build first (node scripts/real/ensureNodes.cjs evmd).\n${run.stderr}`);
    }
    assert.equal(run.status, 0, `${run.stderr}${run.stdout}\nRegenerate it: node scripts/genModules.mjs`);
  });

  it('names its sources, their versions and licences', () => {
    assert.deepEqual(
      ROUTE_SOURCES.map((s) => `${s.name}@${s.version} ${s.licence}`),
      ['cosmos-sdk@v0.53.4 Apache-2.0', 'ibc-go@v10.3.0 MIT', 'cosmos-evm@v0.3.2 Apache-2.0'],
    );
  });

  it('has every module, unique ids, none a command of its own', () => {
    const ops = moduleOperations();
    assert.ok(ops.length >= 180, `${ops.length} routes`);
    const ids = new Set(ops.map((o) => o.id));
    assert.equal(ids.size, ops.length);
    for (const o of OPERATIONS) assert.ok(!ids.has(o.id), `${o.id} is both a command and a route`);
    const modules = new Set(ops.map((o) => o.route!.module));
    for (const m of ['auth', 'bank', 'staking', 'distribution', 'gov', 'gov.v1beta1', 'slashing', 'mint', 'feegrant', 'authz', 'upgrade'])
      assert.ok(modules.has(m), m);
    for (const m of ['ibc.client', 'ibc.connection', 'ibc.channel', 'ibc.transfer', 'vm', 'feemarket', 'erc20', 'precisebank']) assert.ok(modules.has(m), m);
    const pkg = readFileSync(path.join(root, 'package.json'), 'utf8');
    assert.ok(!pkg.includes('chainEndpoints.staking.Validators'));
    for (const o of ops) assert.equal(o.iface, 'rest');
  });
});

describe('module routes: requests', () => {
  it('staking.Validators: an enum and the pagination keys, encoded', () => {
    assert.equal(
      url('staking.Validators', { status: 'BOND_STATUS_BONDED', 'pagination.limit': '2', 'pagination.key': 'FPq+/w==', 'pagination.reverse': 'TRUE' }),
      'https://rest.example.org/base/cosmos/staking/v1beta1/validators?status=BOND_STATUS_BONDED&pagination.key=FPq%2B%2Fw%3D%3D&pagination.limit=2&pagination.reverse=true',
    );
    assert.match(validateArgs(op('staking.Validators'), { status: 'BONDED' })!, /BOND_STATUS_BONDED/);
    assert.deepEqual(
      op('staking.Validators')
        .params.find((p) => p.key === 'status')
        ?.choices?.includes('BOND_STATUS_BONDED'),
      true,
    );
    assert.equal(op('staking.Validators').params.find((p) => p.key === 'pagination.limit')?.hidden, false);
    assert.equal(op('staking.Validators').params.find((p) => p.key === 'pagination.key')?.hidden, true);
  });

  it('bech32 of the right kind: account, validator operator, consensus', () => {
    assert.equal(
      url('staking.Delegation', { validator_addr: valoper, delegator_addr: account }),
      `https://rest.example.org/base/cosmos/staking/v1beta1/validators/${valoper}/delegations/${account}`,
    );
    assert.match(validateArgs(op('staking.Validator'), { validator_addr: account })!, /account address: type a validator operator address/);
    assert.match(validateArgs(op('bank.AllBalances'), { address: valoper })!, /validator operator address: type an account address/);
    assert.equal(validateArgs(op('slashing.SigningInfo'), { cons_address: valcons }), undefined);
    assert.ok(validateArgs(op('slashing.SigningInfo'), { cons_address: valoper }));
    assert.ok(validateArgs(op('bank.AllBalances'), { address: `${account.slice(0, -1)}q` }), 'a bad checksum');
    assert.equal(validateArgs(op('vm.Account'), { address: '0x' + 'ab'.repeat(20) }), undefined);
    assert.ok(validateArgs(op('vm.Account'), { address: account }));
  });

  it('integers, booleans, lists, and values that need encoding', () => {
    assert.equal(url('gov.Proposal', { proposal_id: '1' }), 'https://rest.example.org/base/cosmos/gov/v1/proposals/1');
    assert.ok(validateArgs(op('gov.Proposal'), { proposal_id: '-1' }));
    assert.ok(validateArgs(op('gov.Proposal'), { proposal_id: '1.5' }));
    assert.ok(validateArgs(op('bank.AllBalances'), { address: account, resolve_denom: 'yes' }));
    assert.match(validateArgs(op('bank.DenomMetadata'), { denom: '..' })!, /cannot be a path segment/);
    assert.equal(url('bank.DenomMetadata', { denom: 'ibc/ABC' }), 'https://rest.example.org/base/cosmos/bank/v1beta1/denoms_metadata/ibc%2FABC');
    assert.equal(
      url('bank.SendEnabled', { denoms: 'atest, uatom' }),
      'https://rest.example.org/base/cosmos/bank/v1beta1/send_enabled?denoms=atest&denoms=uatom',
    );
    assert.equal(
      url('ibc.channel.v2.UnreceivedPackets', { client_id: '07-tendermint-0', sequences: '1,2' }),
      'https://rest.example.org/base/ibc/core/channel/v2/clients/07-tendermint-0/packet_commitments/1,2/unreceived_packets',
    );
  });

  it('required in practice: never sent without its value (trace_tx crashes evmd v0.3.2 without msg)', () => {
    assert.match(validateArgs(op('bank.SupplyOf'), {})!, /denom is required/);
    assert.equal(url('bank.SupplyOf', { denom: 'atest' }), 'https://rest.example.org/base/cosmos/bank/v1beta1/supply/by_denom?denom=atest');
    assert.ok(validateArgs(op('bank.DenomOwnersByQuery'), {}));
    assert.throws(() => describeRequest(provider, op('vm.TraceTx'), {}), /msg\.hash is required/);
    assert.throws(() => describeRequest(provider, op('vm.TraceTx'), { 'msg.hash': 'ab'.repeat(32), block_number: '3' }), /msg\.from is required/);
    assert.ok(validateArgs(op('vm.TraceBlock'), {}));
    assert.ok(validateArgs(op('vm.EthCall'), {}));
  });

  it('the next page: the same request with pagination.key from next_key, and a summary that says so', () => {
    const o = op('staking.Validators');
    const args = { status: 'BOND_STATUS_BONDED', 'pagination.limit': '1', 'pagination.offset': '5' };
    const answer = { validators: [{}], pagination: { next_key: 'FPq+/w==', total: '0' } };
    assert.deepEqual(o.nextPage!(args, answer), { status: 'BOND_STATUS_BONDED', 'pagination.limit': '1', 'pagination.key': 'FPq+/w==' });
    assert.equal(o.nextPage!(args, { validators: [], pagination: { next_key: null, total: '3' } }), undefined);
    assert.equal(o.nextPage!(args, { pagination: { next_key: '<script>' } }), undefined, 'not base64: no link');
    assert.equal(op('staking.Pool').nextPage, undefined);
    assert.equal(pageSummary(answer), '1 validators · more: next page at the end');
    assert.equal(pageSummary({ validators: [{}, {}], pagination: { next_key: null, total: '2' } }), '2 validators · total 2 · last page');
  });

  it('each module route knows its module for the capabilities', () => {
    assert.equal(restModuleOf('/ibc/core/client/v1/client_states'), 'ibc.client');
    assert.equal(restModuleOf('/ibc/apps/transfer/v1/denoms'), 'ibc.transfer');
    assert.equal(restModuleOf('/cosmos/nft/v1beta1/classes'), 'nft');
    assert.equal(restModuleOf('/cosmos/evm/feemarket/v1/params'), 'evm');
  });
});

describe("module routes: a chain's own (OpenAPI import)", () => {
  const known = new Set(moduleOperations().map((o) => o.route!.path));
  it('reads the GET routes of a v2 document that the table lacks, typed; skips known and invalid ones', () => {
    const doc = {
      swagger: '2.0',
      info: { title: 'My chain' },
      paths: {
        '/cosmos/bank/v1beta1/supply': { get: { operationId: 'TotalSupply' } },
        '/mychain/oracle/v1/prices/{denom}': {
          get: {
            operationId: 'Price',
            summary: 'Price of a denom.',
            parameters: [
              { name: 'denom', in: 'path', type: 'string', required: true },
              { name: 'validator_addr', in: 'query', type: 'string' },
              { name: 'pagination.limit', in: 'query', type: 'string', format: 'uint64' },
            ],
            responses: { '200': { schema: { properties: { price: {}, pagination: {} } } } },
          },
          post: { operationId: 'Nope' },
        },
        '/mychain/oracle/v1/../../etc': { get: { operationId: 'Bad' } },
        '/mychain/oracle/v1/x': { get: { operationId: 'Bad2', parameters: [{ name: 'a b', in: 'query' }] } },
      },
    };
    const r = readOpenApi(doc, known);
    assert.deepEqual(r.skipped, { invalid: 2, known: 1, overLimit: 0, sends: 0 });
    assert.equal(r.title, 'My chain');
    assert.equal(r.routes.length, 1);
    const op = routeOperation(r.routes[0], 'import:cosmos:my-1');
    assert.equal(op.id, 'chain.oracle.Price');
    assert.equal(op.route!.paged, true);
    assert.deepEqual(op.route!.fields, ['price', 'pagination']);
    assert.match(validateArgs(op, { denom: 'uatom', validator_addr: account })!, /type a validator operator address/);
    assert.equal(
      describeRequest(provider, op, { denom: 'ibc/X', validator_addr: valoper }).url,
      `https://rest.example.org/base/mychain/oracle/v1/prices/ibc%2FX?validator_addr=${valoper}`,
    );
  });
  it('reads v3 parameters (schema) and refuses what is not OpenAPI', () => {
    const r = readOpenApi(
      {
        openapi: '3.0.0',
        paths: { '/my/v1/items': { get: { operationId: 'Items', parameters: [{ name: 'kind', in: 'query', schema: { type: 'string', enum: ['a', 'b'] } }] } } },
      },
      known,
    );
    assert.deepEqual(r.routes[0].params, [{ name: 'kind', in: 'query', kind: 'enum', enum: ['a', 'b'] }]);
    for (const bad of [null, [], 'x', { paths: {} }, { swagger: '2.0' }]) assert.throws(() => readOpenApi(bad, known), /Not an OpenAPI document/);
  });

  it('refuses a GET route named like a state-changing path (a CometBFT broadcast, an unsafe route, an EVM send)', () => {
    const sending = [
      '/broadcast_tx_sync',
      '/rpc/broadcast_tx_commit',
      '/mychain/v1/broadcast_tx_async',
      '/BROADCAST_TX_SYNC',
      '/broadcast_evidence',
      '/unsafe_flush_mempool',
      '/dial_peers',
      '/eth_sendRawTransaction',
      '/debug_setHead',
    ];
    const paths = Object.fromEntries([...sending, '/mychain/v1/broadcasts'].map((p, i) => [p, { get: { operationId: `R${i}` } }]));
    const r = readOpenApi({ swagger: '2.0', paths }, known);
    assert.deepEqual(
      r.routes.map((x) => x.path),
      ['/mychain/v1/broadcasts'],
    );
    assert.equal(r.skipped.sends, sending.length);
  });
  it('keeps two networks apart: an id imported for one is refused for another, never taken over', () => {
    const route = (id: string, path: string) => ({ id, module: 'oracle', rpc: id.split('.').pop()!, path, summary: '', fields: [], src: 'import' });
    const a: StoredImport = {
      network: 'cosmos:a-1',
      from: 'a.json',
      importedAt: 1,
      routes: [route('chain.oracle.Price', '/a/oracle/v1/price'), route('chain.oracle.Only', '/a/only')],
    };
    const b: StoredImport = {
      network: 'cosmos:b-1',
      from: 'b.json',
      importedAt: 2,
      routes: [route('chain.oracle.Price', '/b/oracle/v1/price'), route('chain.oracle.Other', '/b/other')],
    };
    const merged = mergeImport([a], b);
    assert.deepEqual(merged.taken, ['chain.oracle.Price']);
    assert.deepEqual(
      merged.all.map((s) => [s.network, s.routes.map((x) => x.path)]),
      [
        ['cosmos:a-1', ['/a/oracle/v1/price', '/a/only']],
        ['cosmos:b-1', ['/b/other']],
      ],
    );
    // Importing again for the same network replaces its own routes (nothing "taken" from itself).
    const again = mergeImport(merged.all, { ...a, routes: [route('chain.oracle.Price', '/a/oracle/v2/price')] });
    assert.deepEqual(again.taken, []);
    assert.deepEqual(
      again.all.find((s) => s.network === 'cosmos:a-1')!.routes.map((x) => x.path),
      ['/a/oracle/v2/price'],
    );
    // A store written before this check (both networks holding one id) is read back with the first only,
    // and the catalogue never lets a later route replace an earlier one of the same id.
    const stored = readStoredImports([a, { ...b, routes: [route('chain.oracle.Price', '/b/oracle/v1/price')] }]);
    assert.deepEqual(
      stored.map((s) => s.routes.map((x) => x.path)),
      [['/a/oracle/v1/price', '/a/only'], []],
    );
    setImportedOperations([routeOperation(a.routes[0], 'import:cosmos:a-1'), routeOperation(b.routes[0], 'import:cosmos:b-1')]);
    try {
      assert.equal(findOperation('chain.oracle.Price')!.route!.source, 'import:cosmos:a-1');
    } finally {
      setImportedOperations([]);
    }
  });
  it('checks stored routes again when read back: dot segments, encoded characters and state-changing paths are dropped', () => {
    const route = (id: string, path: string) => ({ id, module: 'x', rpc: 'R', path, summary: '', fields: [], src: 'import' });
    const stored = readStoredImports([
      {
        network: 'n',
        from: 'f',
        importedAt: 1,
        routes: [
          route('chain.x.A', '/../rpc/broadcast_tx_sync'),
          route('chain.x.B', '/x/%2e%2e/rpc'),
          route('chain.x.C', '/x/broadcast_tx_commit'),
          route('chain.x.D', '/x\\..\\rpc'),
          route('chain.x.E', '/x/v1/ok/{name}'),
        ],
      },
    ]);
    assert.deepEqual(
      stored[0].routes.map((r) => r.id),
      ['chain.x.E'],
    );
  });
});
