// Provider picks: each provider's state and height, the last one used first (src/ui/onDemand/providerPicks.ts).
import { strict as assert } from 'node:assert';
import { findOperation } from '../../../src/core/chain/operations';
import type { Provider } from '../../../src/core/config/providers';
import type { InterfaceHealth } from '../../../src/core/health/model';
import { decorateProviderItems, providerPrompts, providerState } from '../../../src/ui/onDemand/providerPicks';
import { resolveArgs } from '../../../src/ui/onDemand/resolveArgs';
import type { PickItem, Prompts } from '../../../src/ui/prompts';

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
    const base: Prompts = {
      pick: async <T extends PickItem>(items: readonly T[]) => {
        seen.push(items.map((i) => `${i.label}${i.description ? ` (${i.description})` : ''}`));
        return items.find((i) => i.label === 'B');
      },
      input: async () => undefined,
      confirm: async () => true,
    };
    const prompts = providerPrompts(base, () => rows, op.iface);
    const first = await resolveArgs(op, [a, b, c], undefined, prompts);
    assert.equal(first?.provider, b, 'the caller gets its own provider back');
    await resolveArgs(op, [a, b, c], undefined, prompts);
    assert.deepEqual(seen[1], ['B (last used · down · http://127.0.0.1:3/)', 'A (healthy · #1,234 · http://127.0.0.1:1/)', 'C (http://127.0.0.1:4/)']);
  });
});
