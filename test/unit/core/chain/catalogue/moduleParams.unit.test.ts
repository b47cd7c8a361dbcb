// The module routes' parameters (src/core/chain/catalogue/modules.ts), each kind on its own: the
// validator it gets (a good value passes, a bad one is refused with that kind's sentence), the prompt
// (required or optional, naming the kind), what a path or query value becomes on the wire (lists
// encoded item by item, booleans lowercased, empty values left out, `.`/`..` refused in a path), the
// label, and the pages (pagination keys typed, only the page size asked, next-page arguments).
import { strict as assert } from 'node:assert';
import type { ParamSpec } from '../../../../../src/core/chain/operation';
import {
  PAGINATION_KEYS,
  type ParamKind,
  type RouteDefinition,
  nextKeyOf,
  nextPageArgs,
  pageSummary,
  routeOperation,
} from '../../../../../src/core/chain/catalogue/modules';
import { bech32Decode, bech32Encode } from '../../../../devnet/encoding';

const ACCOUNT = 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm';
const bytes = bech32Decode(ACCOUNT).bytes;
const VALOPER = bech32Encode('cosmosvaloper', bytes);
const VALCONS = bech32Encode('cosmosvalcons', bytes);

/** For each kind: a value it takes, a value it refuses, and a word of its prompt. */
const KINDS: Record<ParamKind, { good: string; bad: string; prompt: RegExp }> = {
  account: { good: ACCOUNT, bad: VALOPER, prompt: /account address/ },
  valoper: { good: VALOPER, bad: ACCOUNT, prompt: /validator operator address/ },
  valcons: { good: VALCONS, bad: VALOPER, prompt: /consensus address/ },
  evmAddress: { good: '0x' + 'ab'.repeat(20), bad: '0x1234', prompt: /EVM address/ },
  uint: { good: '42', bad: '-1', prompt: /whole number/ },
  int: { good: '-42', bad: '4.2', prompt: /whole number/ },
  bool: { good: 'TRUE', bad: 'yes', prompt: /true or false/ },
  bytes: { good: 'FPq0', bad: 'not base64!', prompt: /base64/ },
  hex: { good: '0xabcd', bad: 'xyz', prompt: /hex digits/ },
  enum: { good: 'BOND_STATUS_BONDED', bad: 'BONDED', prompt: /listed values/ },
  list: { good: 'a, b', bad: 'a,,b', prompt: /separated by commas/ },
  string: { good: 'some text', bad: '', prompt: /text/ },
};
const ENUM = ['BOND_STATUS_BONDED', 'BOND_STATUS_UNBONDED'];

function def(params: RouteDefinition['params'], extra: Partial<RouteDefinition> = {}): RouteDefinition {
  return {
    id: 'test.route',
    module: 'staking',
    rpc: 'Validators',
    path: '/cosmos/staking/v1beta1/validators',
    summary: 's',
    params,
    fields: [],
    src: 'test',
    ...extra,
  };
}
const specOf = (kind: ParamKind, where: 'path' | 'query' = 'query', required = true): ParamSpec =>
  routeOperation(def([{ name: 'x', in: where, kind, required, ...(kind === 'enum' ? { enum: ENUM } : {}) }])).params[0];

describe('module routes: each parameter kind', () => {
  for (const [kind, k] of Object.entries(KINDS) as [ParamKind, (typeof KINDS)[ParamKind]][]) {
    it(`${kind}: takes ${JSON.stringify(k.good)}, refuses ${JSON.stringify(k.bad)}, and says what to type`, () => {
      const spec = specOf(kind);
      assert.equal(spec.validate?.(k.good), undefined, `${kind} refused a good value`);
      const refusal = spec.validate?.(k.bad);
      assert.ok(refusal && refusal.length > 5, `${kind} took ${k.bad}`);
      assert.match(spec.prompt, k.prompt);
      assert.match(spec.prompt, /^x: /);
      assert.ok(!/optional: empty/.test(spec.prompt), 'a required value is not called optional');
      assert.equal(spec.optional, false);
      const optional = specOf(kind, 'query', false);
      assert.match(optional.prompt, /optional: empty to leave out/);
      assert.equal(optional.optional, true);
    });
  }

  it('every kind has its own validator: no two kinds refuse the same set of these values', () => {
    const values = Object.values(KINDS).flatMap((k) => [k.good, k.bad]);
    const signature = (kind: ParamKind) => values.map((x) => (specOf(kind).validate?.(x) === undefined ? 1 : 0)).join('');
    const kinds = (Object.keys(KINDS) as ParamKind[]).filter((k) => k !== 'int' && k !== 'uint');
    assert.equal(new Set(kinds.map(signature)).size, kinds.length);
    assert.notEqual(signature('int'), signature('uint'));
  });

  it('an enum offers its values, the first as the placeholder; other kinds offer none', () => {
    const spec = specOf('enum');
    assert.deepEqual(spec.choices, ENUM);
    assert.equal(spec.placeholder, ENUM[0]);
    assert.equal(specOf('string').choices, undefined);
    assert.equal(specOf('string').placeholder, undefined);
  });

  it('"." and ".." are refused as a path value, and allowed in a query value', () => {
    for (const dots of ['.', '..', ' .. ']) {
      assert.match(specOf('string', 'path').validate?.(dots) ?? '', /cannot be a path segment/);
      assert.equal(specOf('string', 'query').validate?.(dots), undefined);
    }
    assert.equal(specOf('string', 'path').validate?.('...'), undefined, 'three dots are a name, not a dot segment');
    assert.match(specOf('uint', 'path').validate?.('x') ?? '', /./, "the kind's own check still applies in a path");
  });
});

describe('module routes: what goes on the wire', () => {
  it('path values are encoded; a list item by item, joined with commas; a bool lowercased', () => {
    const op = routeOperation(
      def(
        [
          { name: 'ids', in: 'path', kind: 'list', required: true },
          { name: 'flag', in: 'path', kind: 'bool', required: true },
          { name: 'name', in: 'path', kind: 'string', required: true },
        ],
        { path: '/m/v1/things/{ids}/{flag}/{name}' },
      ),
    );
    const w = op.build({ ids: 'a b, c/d', flag: ' TRUE ', name: 'x/y?z' }) as { path: string; rawQuery?: string };
    assert.equal(w.path, '/m/v1/things/a%20b,c%2Fd/true/x%2Fy%3Fz');
    assert.equal(w.rawQuery, undefined, 'no query value: no query string');
  });

  it('query values: empty ones left out, lists repeated, booleans lowercased, names and values encoded', () => {
    const op = routeOperation(
      def([
        { name: 'a b', in: 'query', kind: 'string' },
        { name: 'l', in: 'query', kind: 'list' },
        { name: 'on', in: 'query', kind: 'bool' },
        { name: 'empty', in: 'query', kind: 'string' },
      ]),
    );
    const w = op.build({ 'a b': 'x&y', l: '1, 2', on: 'False', empty: '  ' }) as { rawQuery?: string };
    assert.equal(w.rawQuery, 'a%20b=x%26y&l=1&l=2&on=false');
  });

  it('a path placeholder without a parameter is filled from the arguments as text', () => {
    const op = routeOperation(def([], { path: '/m/v1/{free}' }));
    assert.equal((op.build({ free: ' a/b ' }) as { path: string }).path, '/m/v1/a%2Fb');
    assert.equal((op.build({}) as { path: string }).path, '/m/v1/');
  });

  it('the label is the path after its version; the title names the module and the call', () => {
    assert.equal(routeOperation(def([], { path: '/cosmos/staking/v1beta1/validators/{validator_addr}' })).label, 'validators/{validator_addr}');
    assert.equal(routeOperation(def([], { path: '/ibc/core/client/v1alpha2/states' })).label, 'states');
    assert.equal(routeOperation(def([], { path: '/cosmos/evm/vm/v1/params' })).label, 'params');
    assert.equal(routeOperation(def([], { path: '/no/version/here' })).label, '/no/version/here');
    assert.equal(routeOperation(def([], { path: '/ends/with/v1' })).label, '/ends/with/v1');
    assert.equal(routeOperation(def([])).title, 'REST staking: Validators');
    assert.equal(routeOperation(def([])).iface, 'rest');
  });
});

describe('module routes: pages', () => {
  const paged = routeOperation(def([], { paged: true }));

  it('a paged route takes every pagination key, typed; only the page size is asked', () => {
    assert.deepEqual(
      paged.params.map((p) => p.key),
      [...PAGINATION_KEYS],
    );
    assert.deepEqual(
      paged.params.filter((p) => !p.hidden).map((p) => p.key),
      ['pagination.limit'],
    );
    const by = Object.fromEntries(paged.params.map((p) => [p.key, p]));
    assert.equal(by['pagination.limit'].validate?.('10'), undefined);
    assert.ok(by['pagination.limit'].validate?.('ten'));
    assert.ok(by['pagination.reverse'].validate?.('maybe'));
    assert.ok(by['pagination.key'].validate?.('not base64!'));
    assert.equal(
      (paged.build({ 'pagination.reverse': 'TRUE', 'pagination.limit': '5' }) as { rawQuery?: string }).rawQuery,
      'pagination.limit=5&pagination.reverse=true',
    );
    assert.ok(paged.summarize && paged.nextPage, 'a paged route summarises and links its next page');
    assert.equal(routeOperation(def([])).summarize, undefined);
    assert.equal(routeOperation(def([])).nextPage, undefined);
    assert.equal(routeOperation(def([])).route?.paged, false);
  });

  it('the page line: items, the total when counted, and whether more follow', () => {
    assert.equal(pageSummary({ validators: [1, 2], pagination: { next_key: 'FPq0', total: '7' } }), '2 validators · total 7 · more: next page at the end');
    assert.equal(pageSummary({ validators: [], pagination: { next_key: null, total: '0' } }), '0 validators · last page');
    assert.equal(pageSummary({ pagination: null }), 'last page');
    assert.equal(pageSummary('text'), undefined);
    assert.equal(pageSummary(null), undefined);
  });

  it('the next key: base64 of at most 1024 characters, else no next page', () => {
    assert.equal(nextKeyOf({ pagination: { next_key: 'FPq0' } }), 'FPq0');
    for (const key of ['', null, 7, 'not base64!', 'A'.repeat(1028)]) assert.equal(nextKeyOf({ pagination: { next_key: key } }), undefined, String(key));
    assert.equal(nextKeyOf({ pagination: null }), undefined);
    assert.equal(nextKeyOf(undefined), undefined);
    assert.equal(nextKeyOf({ pagination: { next_key: 'A'.repeat(1024) } }), 'A'.repeat(1024));
  });

  it('the next page keeps the arguments, sets the key and drops the offset', () => {
    assert.deepEqual(nextPageArgs({ a: '1', 'pagination.offset': '20', 'pagination.limit': '5' }, { pagination: { next_key: 'FPq0' } }), {
      a: '1',
      'pagination.limit': '5',
      'pagination.key': 'FPq0',
    });
    assert.equal(nextPageArgs({ a: '1' }, { pagination: { next_key: '' } }), undefined);
  });
});
