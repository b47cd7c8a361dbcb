// Provider picks: each provider's state and height, the last one used first (src/ui/providers/providerPicks.ts).
import { strict as assert } from 'node:assert';
import { findOperation } from '../../../../src/core/chain/operations';
import type { Provider } from '../../../../src/core/config/providers';
import type { InterfaceHealth } from '../../../../src/core/health/model';
import { decorateProviderItems, providerPrompts, providerState } from '../../../../src/ui/providers/providerPicks';
import { resolveArgs } from '../../../../src/ui/requests/resolveArgs';
import { scriptedPrompts } from '../../helpers/prompts';
import { type NameMemory, lastUsedProvider, rememberPicksIn, setLastUsedProvider } from '../../../../src/ui/base/pickMemory';

const a: Provider = { name: 'A', endpoints: { consensusRpc: 'http://127.0.0.1:1', evmRpc: 'http://127.0.0.1:2' } };
const b: Provider = { name: 'B', endpoints: { consensusRpc: 'http://127.0.0.1:3' } };
const c: Provider = { name: 'C', endpoints: { consensusRpc: 'http://127.0.0.1:4' } };
const rows: InterfaceHealth[] = [
  { provider: 'A', iface: 'consensusRpc', state: 'healthy', samples: 0, last: { at: 1, ok: true, height: 1234n } },
  { provider: 'A', iface: 'evmRpc', state: 'down', samples: 0, last: { at: 1, ok: false } },
  { provider: 'B', iface: 'consensusRpc', state: 'down', samples: 0, last: { at: 1, ok: false, error: 'refused' } },
];

describe('ui: provider picks', () => {
  it('describe each provider by its state and height, for the interface of the request or the whole provider', () => {
    assert.equal(providerState(rows, 'A', 'consensusRpc'), 'healthy · #1,234');
    assert.equal(providerState(rows, 'B', 'consensusRpc'), 'down');
    assert.equal(providerState(rows, 'A'), '1/2 healthy · #1,234');
    assert.equal(providerState(rows, 'C'), undefined);
  });

  it('the last used goes first in its group, after a "best" item', () => {
    const items = [
      { label: 'best', provider: a, among: [a, b, c] },
      { label: 'A', description: 'http://127.0.0.1:1', provider: a },
      { label: 'B', provider: b },
      { label: 'C', provider: c },
    ];
    const shown = decorateProviderItems(items, rows, 'consensusRpc', 'C');
    assert.deepEqual(
      shown.map((i) => [i.label, i.description]),
      [
        ['best', undefined],
        ['C', 'last used'],
        ['A', 'healthy · #1,234 · http://127.0.0.1:1'],
        ['B', 'down'],
      ],
    );
  });

  it('an operation pick remembers the provider chosen and offers it first next time', async () => {
    const op = findOperation('consensusRpc.status')!;
    const seen: string[][] = [];
    const base = scriptedPrompts({
      pick: (items) => {
        seen.push(items.map((i) => `${i.label}${i.description ? ` (${i.description})` : ''}`));
        return items.find((i) => i.label === 'B');
      },
    }).prompts;
    const prompts = providerPrompts(base, () => rows, op.iface);
    const first = await resolveArgs(op, { providers: [a, b, c] }, undefined, prompts);
    assert.equal(first?.provider, b, 'the caller gets its own provider back');
    await resolveArgs(op, { providers: [a, b, c] }, undefined, prompts);
    assert.deepEqual(seen[1], ['B (last used · down · http://127.0.0.1:3/)', 'A (healthy · #1,234 · http://127.0.0.1:1/)', 'C (http://127.0.0.1:4/)']);
  });

  it('the last choice is kept in the workspace state (a restart offers it first); an over-long stored name is ignored', () => {
    const store = new Map<string, unknown>();
    const memory: NameMemory = { get: <T>(k: string) => store.get(k) as T | undefined, update: async (k, v) => void store.set(k, v) };
    rememberPicksIn(memory);
    setLastUsedProvider('C');
    assert.deepEqual([...store.values()], ['C'], 'only the name is stored');
    // A new window: the module's session value is gone, the workspace state is read.
    const restarted = require('../../../../src/ui/base/pickMemory') as typeof import('../../../../src/ui/base/pickMemory');
    delete require.cache[require.resolve('../../../../src/ui/base/pickMemory')];
    const fresh = require('../../../../src/ui/base/pickMemory') as typeof import('../../../../src/ui/base/pickMemory');
    assert.notEqual(fresh, restarted);
    assert.equal(fresh.lastUsedProvider(), undefined, 'nothing before the memory is given');
    fresh.rememberPicksIn(memory);
    assert.equal(fresh.lastUsedProvider(), 'C');
    const items = [
      { label: 'A', provider: a },
      { label: 'B', provider: b },
      { label: 'C', provider: c },
    ];
    assert.deepEqual(
      decorateProviderItems(items, [], undefined, fresh.lastUsedProvider()).map((i) => i.label),
      ['C', 'A', 'B'],
    );
    store.set([...store.keys()][0], 'x'.repeat(201));
    fresh.rememberPicksIn(memory);
    assert.equal(fresh.lastUsedProvider(), undefined);
    assert.equal(lastUsedProvider(), 'C', 'the running window keeps its own choice');
  });
});
