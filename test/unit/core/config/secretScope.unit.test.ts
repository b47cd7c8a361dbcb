// The secret scope's rules, each level of the settings on its own: a provider list from the
// workspace or from one folder of a multi-root workspace is a workspace list (never given secrets),
// the user's list only when no other level is in use or the workspace is not trusted. Also the
// refusals, the binding keys, the migration of old secrets and the search for references in
// imported files. (The end-to-end story, with requests on the wire, is hardening/secretScope.)

import * as assert from 'node:assert/strict';
import { EndpointError, errorMessage } from '../../../../src/core/base/errors';
import type { Provider } from '../../../../src/core/config/providers';
import {
  MIN_SECRET_LENGTH,
  bindingKey,
  findSecretReference,
  migrationPlan,
  providersOrigin,
  referencedNames,
  resolveScoped,
  secretValueProblem,
} from '../../../../src/core/config/secretScope';

const list = [{ name: 'x' }];

describe('secret scope: where a provider list comes from', () => {
  it('a folder-level list in a trusted workspace is a workspace list (multi-root folder settings)', () => {
    assert.equal(providersOrigin({ globalValue: list, workspaceFolderValue: list }, true), 'workspace');
    assert.equal(providersOrigin({ workspaceFolderValue: list }, true), 'workspace');
  });

  it('a workspace-level list in a trusted workspace is a workspace list', () => {
    assert.equal(providersOrigin({ globalValue: list, workspaceValue: list }, true), 'workspace');
    assert.equal(providersOrigin({ workspaceValue: [] }, true), 'workspace');
  });

  it("the user's list when no other level is set, or when the workspace is not trusted (its levels are ignored)", () => {
    assert.equal(providersOrigin({ globalValue: list }, true), 'user');
    assert.equal(providersOrigin({ defaultValue: list }, true), 'user');
    assert.equal(providersOrigin(undefined, true), 'user');
    assert.equal(providersOrigin({ globalValue: list, workspaceValue: list, workspaceFolderValue: list }, false), 'user');
    assert.equal(providersOrigin({ workspaceFolderValue: list }, false), 'user');
  });
});

describe('secret scope: resolving a provider with its own secrets', () => {
  const p: Provider = {
    name: 'Paid',
    endpoints: { evmRpc: 'https://rpc.example/${secret:key}', rest: 'https://rest.example' },
    headers: { authorization: 'Bearer ${secret:token}', accept: 'json' },
  };
  const values: Record<string, string> = { key: 'k-0123456789', token: 't-0123456789' };

  it('a user provider gets its values in its addresses and headers', () => {
    const r = resolveScoped(p, 'user', (n) => values[n]);
    assert.equal(r.endpoints.evmRpc, 'https://rpc.example/k-0123456789');
    assert.equal(r.endpoints.rest, 'https://rest.example');
    assert.equal(r.headers?.authorization, 'Bearer t-0123456789');
    assert.equal(r.headers?.accept, 'json');
  });

  it('a workspace provider (or one of unknown origin) is refused, naming the secret and never asking for its value', () => {
    for (const origin of ['workspace', undefined] as const) {
      let asked = 0;
      assert.throws(
        () =>
          resolveScoped(p, origin, () => {
            asked++;
            return 'v-0123456789';
          }),
        (e: unknown) =>
          e instanceof EndpointError && e.kind === 'input' && /workspace settings/.test(errorMessage(e)) && /\$\{secret:key\}/.test(errorMessage(e)),
      );
      assert.equal(asked, 0);
    }
  });

  it('a missing secret is refused with what to run', () => {
    assert.throws(
      () => resolveScoped(p, 'user', (n) => (n === 'key' ? values.key : undefined)),
      (e: unknown) => e instanceof EndpointError && e.kind === 'input' && /Secret "token" is not set for provider "Paid"/.test(errorMessage(e)),
    );
  });

  it('a provider without references is returned as it is, whatever its origin', () => {
    const plain: Provider = { name: 'Plain', endpoints: { rest: 'https://rest.example' } };
    assert.equal(
      resolveScoped(plain, 'workspace', () => undefined),
      plain,
    );
  });
});

describe('secret scope: keys, values, migration, references', () => {
  it('a binding key is the provider (trimmed, case-insensitive, encoded) and the name', () => {
    assert.equal(bindingKey(' My Node ', 'key'), 'my%20node/key');
    assert.equal(bindingKey('A/B', 'k'), 'a%2Fb/k');
    assert.equal(bindingKey('ABC', 'k'), bindingKey('abc', 'k'));
  });

  it(`a secret value has at least ${MIN_SECRET_LENGTH} characters`, () => {
    assert.match(secretValueProblem('x'.repeat(MIN_SECRET_LENGTH - 1)) ?? '', /at least 8 characters/);
    assert.equal(secretValueProblem('x'.repeat(MIN_SECRET_LENGTH)), undefined);
  });

  it('old secrets go to every user provider that references them; the rest are unbound', () => {
    const a: Provider = { name: 'A', endpoints: { rest: 'https://a/${secret:k1}' } };
    const b: Provider = { name: 'B', endpoints: { rest: 'https://b' }, headers: { x: '${secret:k1} ${secret:k2}' } };
    assert.deepEqual(migrationPlan(['k1', 'k2', 'k3'], [a, b]), {
      bind: [
        { provider: 'A', name: 'k1' },
        { provider: 'B', name: 'k1' },
        { provider: 'B', name: 'k2' },
      ],
      unbound: ['k3'],
    });
    assert.deepEqual(migrationPlan([], [a]), { bind: [], unbound: [] });
  });

  it('findSecretReference names the path of the first reference, also URL-encoded or in a key', () => {
    assert.equal(findSecretReference('plain'), undefined);
    assert.equal(findSecretReference('${secret:a}'), '$');
    assert.equal(findSecretReference({ apis: { rpc: [{ address: 'x' }, { address: 'https://h/$%7Bsecret:a}' }] } }), 'apis.rpc[1].address');
    assert.equal(findSecretReference({ a: { '${SECRET:x}': 1 } }), 'a.${SECRET:x}');
    assert.equal(findSecretReference({ a: [1, null, true] }), undefined);
    assert.equal(findSecretReference(['ok', '${secret:b}']), '$[1]');
    // Nesting deeper than 64 is not searched (a hostile file cannot exhaust the stack).
    let deep: unknown = '${secret:z}';
    for (let i = 0; i < 70; i++) deep = [deep];
    assert.equal(findSecretReference(deep), undefined);
  });

  it('referencedNames lists every name a text references', () => {
    assert.deepEqual(referencedNames('a ${secret:one} b ${secret:two.x}'), ['one', 'two.x']);
    assert.deepEqual(referencedNames('none'), []);
  });
});
