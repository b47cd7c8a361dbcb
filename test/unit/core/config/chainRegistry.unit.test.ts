import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ChainRegistryError, type ImportCandidate, parseChainJson } from '../../../../src/core/config/chainRegistry';
import { normalizeAddress } from '../../../../src/core/config/registryDuplicates';
import { groupNetworks } from '../../../../src/core/config/networks';
import { DEFAULT_PROVIDERS, parseProviders } from '../../../../src/core/config/providers';
import { REPO_ROOT } from '../../helpers/repoRoot';

// Compiled to out/test/unit: the fixtures stay in the source tree.
const FIXTURES = path.resolve(REPO_ROOT, 'test', 'fixtures', 'chain-registry');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const byProvider = (candidates: ImportCandidate[], provider: string) => {
  const c = candidates.find((x) => x.provider === provider);
  assert.ok(c, `no candidate for ${provider}; got ${candidates.map((x) => x.provider).join(', ')}`);
  return c;
};

describe('chain registry: a Cosmos EVM testnet with several providers', () => {
  const lumen = fixture('lumen-testnet.chain.json');

  it('reads the chain and makes one candidate per provider, in file order', () => {
    const { chain, candidates } = parseChainJson(lumen, DEFAULT_PROVIDERS);
    assert.deepEqual(chain, { chainId: 'lumen_7701-1', name: 'Lumen Testnet', chainName: 'lumentestnet', networkType: 'testnet', evmChainId: '7701' });
    assert.deepEqual(
      candidates.map((c) => c.name),
      [
        'Lumen Foundation (lumen_7701-1)',
        'Polkachu (lumen_7701-1)',
        'NodeStake (lumen_7701-1)',
        'Allnodes ⚡️ Nodes & Staking (lumen_7701-1)',
        '65.108.12.34 (lumen_7701-1)',
        'jsonrpc.lumen-testnet.stakeme.pro (lumen_7701-1)',
      ],
    );
    for (const c of candidates) {
      assert.equal(c.entry.name, c.name);
      assert.equal(c.entry.chainId, 'lumen_7701-1');
      assert.equal(c.duplicateOf, undefined);
    }
  });

  it('maps rpc to both consensus interfaces, takes wss when it is a CometBFT socket, rest and evm-http-jsonrpc', () => {
    const { candidates } = parseChainJson(lumen, []);
    assert.deepEqual(byProvider(candidates, 'Lumen Foundation').entry, {
      name: 'Lumen Foundation (lumen_7701-1)',
      evmRpc: 'https://evm.testnet.lumen.example.org',
      consensusHttp: 'https://rpc.testnet.lumen.example.org',
      consensusRpc: 'https://rpc.testnet.lumen.example.org',
      consensusWs: 'wss://ws.testnet.lumen.example.org/websocket',
      rest: 'https://api.testnet.lumen.example.org',
      chainId: 'lumen_7701-1',
      evmChainId: '7701',
      network: 'Lumen Testnet',
    });
  });

  it('derives the WebSocket from the RPC address, keeping a path prefix', () => {
    const { candidates } = parseChainJson(lumen, []);
    const nodestake = byProvider(candidates, 'NodeStake');
    assert.equal(nodestake.entry.consensusHttp, 'https://lumen-testnet.nodestake.org/rpc');
    assert.equal(nodestake.entry.consensusWs, 'wss://lumen-testnet.nodestake.org/rpc/websocket');
    assert.ok(nodestake.notes.some((n) => /derived from the RPC address/.test(n)));
    assert.equal(nodestake.entry.evmRpc, undefined);
    assert.equal(nodestake.entry.evmChainId, undefined, 'no EVM chain id without an EVM address');
    const ip = byProvider(candidates, '65.108.12.34');
    assert.equal(ip.entry.consensusWs, 'ws://65.108.12.34:26657/websocket', 'http gives ws://');
  });

  it('does not take an EVM socket listed under wss as the consensus WebSocket', () => {
    const allnodes = byProvider(parseChainJson(lumen, []).candidates, 'Allnodes ⚡️ Nodes & Staking');
    assert.equal(allnodes.entry.consensusWs, 'wss://lumen-testnet-rpc.publicnode.com/websocket');
    assert.ok(
      allnodes.notes.some((n) => n.includes('apis.wss[1]') && /not a CometBFT socket/.test(n)),
      allnodes.notes.join('\n'),
    );
  });

  it('takes the first valid address of an interface and notes the others and the invalid ones', () => {
    const { candidates } = parseChainJson(lumen, []);
    const polkachu = byProvider(candidates, 'Polkachu');
    assert.equal(polkachu.entry.consensusHttp, 'https://lumen-testnet-rpc.polkachu.com');
    assert.ok(
      polkachu.notes.some((n) => n.startsWith('apis.rpc[3] (https://lumen-testnet-archive-rpc.polkachu.com) not imported')),
      polkachu.notes.join('\n'),
    );
    const allnodes = byProvider(candidates, 'Allnodes ⚡️ Nodes & Staking');
    assert.equal(allnodes.entry.consensusHttp, 'https://lumen-testnet-rpc.publicnode.com', 'the invalid first address is skipped, :443 dropped');
    assert.ok(
      allnodes.notes.some((n) => n.startsWith('apis.rpc[5].address skipped: Consensus HTTP address must start with http')),
      allnodes.notes.join('\n'),
    );
  });

  it('merges repeated addresses (trailing slash, letter case, default port) and unnamed repeats of a provider address', () => {
    const { candidates } = parseChainJson(lumen, []);
    const foundation = byProvider(candidates, 'Lumen Foundation');
    assert.ok(foundation.notes.includes('apis.rpc[1] repeats https://rpc.testnet.lumen.example.org: merged.'), foundation.notes.join('\n'));
    assert.ok(foundation.notes.includes('apis.rest[4] lists https://api.testnet.lumen.example.org again without a provider: merged here.'));
    assert.ok(!candidates.some((c) => c.provider === 'api.testnet.lumen.example.org'), 'no separate candidate for the unnamed repeat');
  });

  it('groups entries without a provider by host name', () => {
    const { candidates } = parseChainJson(lumen, []);
    const ip = byProvider(candidates, '65.108.12.34');
    assert.equal(ip.entry.consensusRpc, 'http://65.108.12.34:26657');
    assert.equal(ip.entry.rest, 'http://65.108.12.34:1317', 'rpc and rest of one unnamed host are one candidate');
    const evmOnly = byProvider(candidates, 'jsonrpc.lumen-testnet.stakeme.pro');
    assert.deepEqual(Object.keys(evmOnly.entry).sort(), ['chainId', 'evmChainId', 'evmRpc', 'name', 'network']);
  });

  it('notes gRPC as not imported on its provider', () => {
    const { candidates } = parseChainJson(lumen, []);
    assert.ok(byProvider(candidates, 'Polkachu').notes.some((n) => /gRPC address lumen-testnet-grpc\.polkachu\.com:17790 not imported/.test(n)));
  });

  it('notes where the EVM chain id comes from', () => {
    const { notes } = parseChainJson(lumen, []);
    assert.ok(
      notes.some((n) => /EVM chain id 7701 taken from the chain-id lumen_7701-1/.test(n)),
      notes.join('\n'),
    );
  });

  it('produces entries the settings accept', () => {
    const { candidates } = parseChainJson(lumen, DEFAULT_PROVIDERS);
    const { providers, problems } = parseProviders([...DEFAULT_PROVIDERS, ...candidates.map((c) => c.entry)]);
    assert.deepEqual(problems, []);
    assert.equal(providers.length, 1 + candidates.length);
    assert.equal(providers.find((p) => p.name === 'Lumen Foundation (lumen_7701-1)')!.evmChainId, '0x1e15');
  });
});

describe('chain registry: comparison with the configured providers', () => {
  const lumen = fixture('lumen-testnet.chain.json');

  it('marks a candidate whose addresses are all configured already as a duplicate, whatever its name', () => {
    const existing = [
      ...DEFAULT_PROVIDERS,
      {
        name: 'My Polkachu',
        consensusHttp: 'https://LUMEN-testnet-rpc.polkachu.com/',
        consensusRpc: 'https://lumen-testnet-rpc.polkachu.com',
        consensusWs: 'wss://lumen-testnet-rpc.polkachu.com/websocket',
        rest: 'https://lumen-testnet-api.polkachu.com:443',
        evmRpc: 'https://lumen-testnet-evm.polkachu.com/',
      },
    ];
    const { candidates } = parseChainJson(lumen, existing);
    assert.equal(byProvider(candidates, 'Polkachu').duplicateOf, 'My Polkachu');
    assert.equal(byProvider(candidates, 'Polkachu').name, 'Polkachu (lumen_7701-1)');
    assert.deepEqual(
      candidates.filter((c) => c.duplicateOf).map((c) => c.provider),
      ['Polkachu'],
    );
  });

  it('ignores a derived WebSocket when comparing (an entry without consensusWs still matches)', () => {
    const { candidates } = parseChainJson(lumen, [
      { name: 'ns', consensusHttp: 'https://lumen-testnet.nodestake.org/rpc/', rest: 'https://lumen-testnet.nodestake.org/api/' },
    ]);
    assert.equal(byProvider(candidates, 'NodeStake').duplicateOf, 'ns');
  });

  it('notes addresses that are configured in an entry which does not cover the whole candidate', () => {
    const { candidates } = parseChainJson(lumen, [{ name: 'Foundation RPC only', consensusHttp: 'https://rpc.testnet.lumen.example.org' }]);
    const foundation = byProvider(candidates, 'Lumen Foundation');
    assert.equal(foundation.duplicateOf, undefined);
    assert.ok(
      foundation.notes.includes('CometBFT RPC https://rpc.testnet.lumen.example.org is already configured in "Foundation RPC only".'),
      foundation.notes.join('\n'),
    );
  });

  it('suffixes names that are taken, case-insensitively, counting up', () => {
    const existing = [
      { name: 'nodestake (LUMEN_7701-1)', rest: 'https://other.example.org' },
      { name: 'NodeStake (lumen_7701-1) (2)', rest: 'https://other2.example.org' },
    ];
    const nodestake = byProvider(parseChainJson(lumen, existing).candidates, 'NodeStake');
    assert.equal(nodestake.name, 'NodeStake (lumen_7701-1) (3)');
    assert.equal(nodestake.entry.name, nodestake.name);
    assert.equal(nodestake.notes[0], 'Named "NodeStake (lumen_7701-1) (3)": "NodeStake (lumen_7701-1)" is already taken.');
  });

  it('tolerates odd settings entries', () => {
    const existing = [{ name: 'odd', consensusHttp: 42, rest: 'not a url' }] as unknown as { name: string }[];
    assert.equal(parseChainJson(lumen, existing).candidates.length, 6);
  });
});

describe('chain registry: a mainnet without EVM and with unnamed endpoints', () => {
  const kestrel = fixture('kestrel.chain.json');

  it('names unnamed endpoints after their host and sets no EVM chain id', () => {
    const { chain, candidates, notes } = parseChainJson(kestrel, []);
    assert.deepEqual(chain, { chainId: 'kestrel-1', name: 'Kestrel', chainName: 'kestrel', networkType: 'mainnet' });
    assert.deepEqual(
      candidates.map((c) => c.name),
      ['rpc.kestrel.example.net (kestrel-1)', 'Lavender.Five Nodes 🐝 (kestrel-1)', 'api.kestrel.example.net (kestrel-1)'],
    );
    assert.equal(byProvider(candidates, 'Lavender.Five Nodes 🐝').entry.rest, 'https://kestrel-api.lavenderfive.com');
    assert.ok(candidates.every((c) => c.entry.evmChainId === undefined));
    assert.ok(
      candidates.every((c) => c.entry.network === 'Kestrel mainnet'),
      'the network named from pretty_name and network_type',
    );
    assert.ok(
      notes.some((n) => /grpc-web\.kestrel\.example\.net not imported/.test(n)),
      notes.join('\n'),
    );
  });

  it('uses the provider alone as the name when the file has no chain_id', () => {
    const doc = JSON.parse(kestrel);
    delete doc.chain_id;
    const { chain, candidates } = parseChainJson(JSON.stringify(doc), []);
    assert.equal(chain.chainId, undefined);
    assert.equal(candidates[1].name, 'Lavender.Five Nodes 🐝');
    assert.equal(candidates[1].entry.chainId, undefined);
  });
});

describe('chain registry: EVM chain id sources', () => {
  const base = { chain_name: 'x', apis: { 'evm-http-jsonrpc': [{ address: 'https://evm.x.example.org', provider: 'P' }] } };
  const evmOf = (doc: object) => parseChainJson(JSON.stringify({ ...base, ...doc }), []).chain.evmChainId;

  it('reads an explicit evm_chain_id, an eip155 chain_id or an Ethermint chain-id', () => {
    assert.equal(evmOf({ chain_id: 'x-1', evm_chain_id: 262144 }), '262144');
    assert.equal(evmOf({ chain_id: 'x-1', evm_chain_id: '0x40000' }), '262144');
    assert.equal(evmOf({ chain_type: 'eip155', chain_id: '1' }), '1');
    assert.equal(evmOf({ chain_id: 'evmos_9000-4' }), '9000');
    assert.equal(evmOf({ chain_id: 'cosmoshub-4' }), undefined);
  });

  it('does not read an Ethermint-looking chain-id of a chain without EVM signs', () => {
    const doc = { chain_name: 'x', chain_id: 'foo_12-1', apis: { rpc: [{ address: 'https://rpc.x.example.org' }] } };
    assert.equal(parseChainJson(JSON.stringify(doc), []).chain.evmChainId, undefined);
  });

  it('refuses an evm_chain_id that is not a positive integer, naming it', () => {
    assert.throws(() => evmOf({ evm_chain_id: 'abc' }), { name: 'ChainRegistryError', message: 'evm_chain_id is not a positive integer (the string "abc").' });
  });
});

describe('chain registry: malformed files name the field at fault', () => {
  const cases: [file: string, field: string, message: string][] = [
    ['empty.json', '$', 'The file is not valid JSON: unexpected end of file (expected a value) at line 1, column 1.'],
    ['trailing-comma.json', '$', 'The file is not valid JSON: expected a value, found "]" at line 7, column 5.'],
    ['top-level-array.json', '$', 'The file must be a JSON object (a chain.json), not an array.'],
    ['chain-id-number.json', 'chain_id', 'chain_id is not a string (number 7701).'],
    ['no-apis.json', 'apis', 'apis is missing: the file lists no endpoints.'],
    ['apis-array.json', 'apis', 'apis must be an object, not an array.'],
    ['rest-not-array.json', 'apis.rest', 'apis.rest must be an array, not an object.'],
    ['entry-not-object.json', 'apis.rpc[1]', 'apis.rpc[1] must be an object with an "address", not the string "https://rpc2.broken.example.org".'],
    ['address-not-string.json', 'apis.rpc[2].address', 'apis.rpc[2].address is not a string (number 26657).'],
    ['address-missing.json', 'apis.evm-http-jsonrpc[0].address', 'apis.evm-http-jsonrpc[0].address is missing.'],
    ['provider-not-string.json', 'apis.rest[0].provider', 'apis.rest[0].provider is not a string (an object).'],
    ['archive-not-boolean.json', 'apis.rpc[0].archive', 'apis.rpc[0].archive is not a boolean (the string "yes").'],
  ];
  for (const [file, field, message] of cases) {
    it(`${file}: ${field}`, () => {
      assert.throws(
        () => parseChainJson(fixture(path.join('malformed', file)), []),
        (e: unknown) => {
          assert.ok(e instanceof ChainRegistryError, String(e));
          assert.equal(e.field, field);
          assert.equal(e.message, message);
          return true;
        },
      );
    });
  }

  it('every malformed fixture is covered by a case', () => {
    const files = fs.readdirSync(path.join(FIXTURES, 'malformed')).sort();
    assert.deepEqual(files, cases.map(([f]) => f).sort());
  });

  it('reports the JSON error position on the line where it is, after a byte-order mark', () => {
    assert.throws(() => parseChainJson('\uFEFF{\n  "chain_id": "x",\n  "apis": {\n    "rpc": [ { address: "https://a" } ]\n  }\n}', []), {
      message: 'The file is not valid JSON: expected a property name in double quotes, found "a" at line 4, column 16.',
    });
  });

  it('names the first JSON error and where it is (jsonc-parser finds it)', () => {
    const cases: Array<[string, string]> = [
      ['{ x"a": 1}', 'expected a property name in double quotes, found "x" at line 1, column 3'],
      ['{"a" x: 1}', 'expected ":", found "x" at line 1, column 6'],
      ['{"a": [1 x]}', 'expected "," or "]", found "x" at line 1, column 10'],
      ['{"a": 12x}', 'expected "," or "}", found "x" at line 1, column 9'],
      ['{"a": tru}', 'expected a value, found "t" at line 1, column 7'],
      ['{"a": 1} x', 'unexpected text after the end of the JSON value, found "x" at line 1, column 10'],
      ['{"ab": "c\\qd"}', 'invalid escape in a string, found "q" at line 1, column 11'],
      ['{"a": "b,\n "c": 1}', 'unescaped control character in a string, found "\\n" at line 1, column 10'],
      ['{"a": "b', 'unexpected end of file (expected the closing quote of a string) at line 1, column 9'],
      ['{\n  // a comment\n  "a": 1 }', 'comments are not allowed in JSON, found "/" at line 2, column 3'],
    ];
    for (const [text, where] of cases) assert.throws(() => parseChainJson(text, []), { message: `The file is not valid JSON: ${where}.` }, text);
  });

  it('skips addresses that are not usable URLs instead of failing, with a note', () => {
    const doc = {
      chain_id: 'x-1',
      apis: {
        rpc: [{ address: '', provider: 'A' }, { address: 'tcp://rpc.x.example.org:26657' }, { address: 'rpc.b.example.org', provider: 'B' }],
        rest: [{ address: 'https://api.x.example.org', provider: 'A' }],
      },
    };
    const { candidates, notes } = parseChainJson(JSON.stringify(doc), []);
    assert.deepEqual(
      candidates.map((c) => c.name),
      ['A (x-1)'],
    );
    assert.ok(
      candidates[0].notes.some((n) => /^apis\.rpc\[0\]\.address skipped: Consensus HTTP address is empty/.test(n)),
      candidates[0].notes.join('\n'),
    );
    assert.ok(
      notes.some((n) => /^apis\.rpc\[1\]\.address skipped: Consensus HTTP address must start with http/.test(n)),
      notes.join('\n'),
    );
    assert.ok(
      notes.some((n) => /^B: no usable address, nothing to import\. apis\.rpc\[2\]\.address skipped/.test(n)),
      notes.join('\n'),
    );
  });
});

describe('chain registry: address normalization', () => {
  it('drops trailing slashes, the default port and the fragment, lower-cases the host, keeps path and query', () => {
    assert.equal(normalizeAddress('https://RPC.Example.org:443/'), 'https://rpc.example.org');
    assert.equal(normalizeAddress('https://rpc.example.org/a/b//#x'), 'https://rpc.example.org/a/b');
    assert.equal(normalizeAddress('http://rpc.example.org:80/?key=1'), 'http://rpc.example.org/?key=1');
    assert.equal(normalizeAddress(' http://10.0.0.1:26657 '), 'http://10.0.0.1:26657');
  });
});

describe('chain registry: a testnet and a mainnet import as two networks', () => {
  it('names each network from pretty_name and network_type, and groups them apart by chain_id', () => {
    const chainJson = (chainId: string, pretty: string, type: string, host: string) =>
      JSON.stringify({ chain_id: chainId, pretty_name: pretty, network_type: type, apis: { rpc: [{ address: `https://${host}`, provider: 'P' }] } });
    const test = parseChainJson(chainJson('evmos_9000-4', 'Evmos Testnet', 'testnet', 'rpc.test.example.org'), []);
    const main = parseChainJson(chainJson('evmos_9001-2', 'Evmos', 'mainnet', 'rpc.main.example.org'), []);
    const entries = [...test.candidates, ...main.candidates].map((c) => c.entry);
    const networks = groupNetworks(parseProviders(entries).providers);
    assert.deepEqual(
      networks.map((n) => [n.label, n.chainId, n.providers.length]),
      [
        ['Evmos Testnet', 'evmos_9000-4', 1],
        ['Evmos mainnet', 'evmos_9001-2', 1],
      ],
    );
  });
});
