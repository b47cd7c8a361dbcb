// The one secret source of the query pipeline (core/config/secrets.ts): the environment's
// (envSecrets, the CLI and the exporter) and the stored secrets' (storedSecrets, the editor), and
// what secretContext() builds from either: resolution, lookup, hints, the foreign-secret lists and
// the masker handed in. The last suite gives the editor's and the CLI's source the same providers
// and secrets and checks they refuse the same requests with the same sentences.

import * as assert from 'node:assert/strict';
import { EndpointError, errorMessage } from '../../../../src/core/base/errors';
import { envSecrets, secretEnvName } from '../../../../src/core/config/envSecrets';
import type { Provider } from '../../../../src/core/config/providers';
import { bindingKey, storedSecrets } from '../../../../src/core/config/secretScope';
import { type SecretSource, secretContext } from '../../../../src/core/config/secrets';
import { foreignSecretIn, interpolate } from '../../../../src/core/queries/interpolate';
import type { QueryFile } from '../../../../src/core/queries/model';
import { SecretMasker, masker } from '../../../../src/core/secrets/mask';

const MAIN_KEY = 'main-key-123456';
const SIDE_KEY = 'side-key-654321';
const main: Provider = {
  name: 'eth-main',
  endpoints: { evmRpc: 'https://main.example/rpc/${secret:key}' },
  headers: { 'x-api-key': '${secret:key}' },
  origin: 'user',
};
const side: Provider = { name: 'Side', endpoints: { evmRpc: 'https://side.example/rpc' }, headers: { auth: '${secret:token}' }, origin: 'user' };
const plain: Provider = { name: 'plain', endpoints: { evmRpc: 'https://plain.example/' }, origin: 'user' };

/** The stored secrets of the editor, as SecretStore keeps them (by bindingKey). */
function stored(list: { provider: string; name: string; value: string }[]): SecretSource {
  const byKey = new Map(list.map((s) => [bindingKey(s.provider, s.name), s.value]));
  return storedSecrets({ get: (k) => byKey.get(k), all: () => list }, () => 'run "Chain Endpoints: Set Secret"');
}

/** What a run of each side sees for the same secrets: the editor's store, the CLI's environment. */
function bothSources(secrets: { provider: string; name: string; value: string }[]): [string, SecretSource][] {
  return [
    ['editor', stored(secrets)],
    ['cli', envSecrets(Object.fromEntries(secrets.map((s) => [secretEnvName(s.provider, s.name), s.value])))],
  ];
}

function thrown(f: () => unknown): EndpointError {
  try {
    f();
  } catch (err) {
    assert.ok(err instanceof EndpointError, `an EndpointError, got ${String(err)}`);
    return err;
  }
  assert.fail('did not throw');
}

const file: QueryFile = { requests: [], variables: new Map(), diagnostics: [] } as unknown as QueryFile;
const located = (text: string) => ({ text, line: 3, col: 1 });

describe('secret source: the environment (CLI, exporter)', () => {
  const env = { [secretEnvName('eth-main', 'key')]: MAIN_KEY, [secretEnvName('Side', 'token')]: SIDE_KEY, PATH: '/bin' };

  it('looks a secret up under its provider and name, and only there', () => {
    const s = envSecrets(env);
    assert.equal(s.lookup(main, 'key'), MAIN_KEY);
    assert.equal(s.lookup(side, 'key'), undefined);
    assert.equal(s.refusal(main, 'key'), undefined);
  });

  it('every CHAIN_ENDPOINTS_SECRET_ variable is an entry, owned by the provider its name encodes', () => {
    const entries = envSecrets(env).entries();
    assert.deepEqual(
      entries.map((e) => e.value),
      [MAIN_KEY, SIDE_KEY],
    );
    assert.deepEqual(
      entries.map((e) => [e.ownedBy(main), e.ownedBy(side)]),
      [
        [true, false],
        [false, true],
      ],
    );
  });

  it('says which variable to set, and refuses a provider the CLI gives no secret', () => {
    const s = envSecrets(env, { refusal: (p) => (p.name === 'Side' ? 'from the repository' : undefined) });
    assert.equal(s.hint(main, 'x'), `set ${secretEnvName('eth-main', 'x')}`);
    assert.equal(s.notSet(main, 'x'), `secret "x" of provider "eth-main" is not set: set ${secretEnvName('eth-main', 'x')}`);
    assert.equal(s.refusal(side, 'token'), 'from the repository');
    assert.equal(secretContext(s, new SecretMasker()).secretValue(side, 'token'), undefined, 'a refused provider reads no value');
  });
});

describe('secret source: the stored secrets (editor)', () => {
  const s = stored([
    { provider: 'ETH-MAIN', name: 'key', value: MAIN_KEY },
    { provider: 'Side', name: 'token', value: SIDE_KEY },
  ]);

  it('a secret belongs to the user provider it is bound to (case-insensitive)', () => {
    assert.equal(s.lookup(main, 'key'), MAIN_KEY);
    assert.equal(s.lookup(side, 'key'), undefined);
    assert.deepEqual(
      s.entries().map((e) => [e.ownedBy(main), e.ownedBy(side)]),
      [
        [true, false],
        [false, true],
      ],
    );
  });

  it('a workspace provider of the same name owns none and is refused, naming the secret', () => {
    const ws: Provider = { ...main, origin: 'workspace' };
    assert.equal(
      s.entries().some((e) => e.ownedBy(ws)),
      false,
    );
    const refused = s.refusal(ws, 'key');
    assert.ok(refused !== undefined && typeof refused === 'object');
    assert.match(refused.english, /defined in workspace settings, so it never receives a secret.*\$\{secret:key\}/);
    const ctx = secretContext(s, new SecretMasker());
    assert.equal(ctx.secretValue(ws, 'key'), undefined);
    assert.match(ctx.secretHint(ws, 'key'), /workspace settings/);
  });
});

describe('secretContext: built once from the source', () => {
  const source = envSecrets({ [secretEnvName('eth-main', 'key')]: MAIN_KEY, [secretEnvName('Side', 'token')]: SIDE_KEY });

  it('resolves a provider with only its own secrets', () => {
    const wire = secretContext(source, new SecretMasker()).resolveProvider(main);
    assert.equal(wire.endpoints.evmRpc, `https://main.example/rpc/${encodeURIComponent(MAIN_KEY)}`);
    assert.deepEqual(wire.headers, { 'x-api-key': MAIN_KEY });
    assert.equal(secretContext(source, new SecretMasker()).resolveProvider(plain), plain);
  });

  it("another provider's secrets are foreign; its own, and a value it shares, are not", () => {
    const shared = envSecrets({
      [secretEnvName('eth-main', 'key')]: MAIN_KEY,
      [secretEnvName('Side', 'token')]: MAIN_KEY,
      [secretEnvName('Side', 'b')]: SIDE_KEY,
    });
    const ctx = secretContext(shared, new SecretMasker());
    assert.deepEqual(ctx.foreignSecrets(main), [SIDE_KEY]);
    assert.deepEqual(ctx.foreignSecrets(side), []);
    assert.deepEqual(ctx.foreignSecrets(plain), [MAIN_KEY, MAIN_KEY, SIDE_KEY]);
  });

  it('feeds the masker it is handed, not the process-wide one', () => {
    const before = masker.group('');
    const mine = new SecretMasker();
    const ctx = secretContext(source, mine);
    assert.equal(ctx.masker, mine);
    assert.equal(mine.mask(`a ${MAIN_KEY} b ${SIDE_KEY}`), 'a *** b ***');
    assert.deepEqual(masker.group(''), before);
    const generation = mine.generation;
    secretContext(source, mine);
    assert.equal(mine.generation, generation, 'the same values are not set again');
  });
});

describe('secret source: the editor and the CLI refuse the same things', () => {
  for (const [side_, source] of bothSources([{ provider: 'eth-main', name: 'key', value: MAIN_KEY }])) {
    const ctx = secretContext(source, new SecretMasker());

    it(`${side_}: a provider whose secret is not set is refused before sending, naming the secret and the provider`, () => {
      const err = thrown(() => ctx.resolveProvider(side));
      assert.equal(err.kind, 'input');
      assert.match(errorMessage(err), /[Ss]ecret "token" (of|is not set for) provider "Side"/);
      assert.doesNotMatch(errorMessage(err), new RegExp(MAIN_KEY));
    });
  }

  const missing = bothSources([{ provider: 'eth-main', name: 'key', value: MAIN_KEY }]).map(([side_, source]) => {
    const ctx = secretContext(source, new SecretMasker());
    try {
      interpolate(located('${secret:token}'), { file, ctx: { env: {}, ...ctx }, done: new Map() }, side);
    } catch (err) {
      return [side_, errorMessage(err), ctx.secretHint(side, 'token')];
    }
    return [side_, 'no error', ''];
  });

  it("a query file's missing ${secret:} is the same sentence on both sides, each with its own way to set it", () => {
    for (const [, message, hint] of missing) assert.equal(message, `secret "token" is not set for provider "Side" (${hint})`);
    assert.equal(missing[0][2], 'run "Chain Endpoints: Set Secret"');
    assert.equal(missing[1][2], `set ${secretEnvName('Side', 'token')}`);
  });

  it("another provider's secret in a request is refused with the same sentence on both sides", () => {
    const sentences = bothSources([
      { provider: 'eth-main', name: 'key', value: MAIN_KEY },
      { provider: 'Side', name: 'token', value: SIDE_KEY },
    ]).map(([, source]) => {
      const ctx = secretContext(source, new SecretMasker());
      const full = { env: {}, ...ctx };
      return [
        foreignSecretIn(full, side, [SIDE_KEY], [{ where: 'body', text: `{"echo":"${MAIN_KEY}"}` }]),
        foreignSecretIn(full, side, [SIDE_KEY], [{ where: 'body', text: `{"own":"${SIDE_KEY}"}` }]),
        foreignSecretIn(full, main, [MAIN_KEY], [{ where: 'address', text: `https://x/${encodeURIComponent(SIDE_KEY)}` }]),
      ];
    });
    assert.deepEqual(sentences[0], sentences[1]);
    assert.deepEqual(sentences[0], [
      'the request as assembled contains a secret of another provider (in its body): not sent to "Side"',
      undefined,
      'the request as assembled contains a secret of another provider (in its address): not sent to "eth-main"',
    ]);
  });
});
