import * as assert from 'node:assert/strict';
import type { Provider } from '../../../../src/core/config/providers';
import type { Capabilities } from '../../../../src/core/health/capabilities';
import type { InterfaceHealth } from '../../../../src/core/health/model';
import { bestForLookup } from '../../../../src/core/explorer/bestProvider';

const provider = (name: string): Provider =>
  ({ name, endpoints: { consensusHttp: `http://127.0.0.1:1/${name}`, evmRpc: `http://127.0.0.1:2/${name}` } }) as Provider;
const pruned = provider('Pruned');
const archive = provider('Archive');
const caps: Record<string, Capabilities> = {
  Pruned: { provider: 'Pruned', probedAt: 0, notes: [], consensus: { earliestHeight: '1200000', txIndex: true } },
  Archive: { provider: 'Archive', probedAt: 0, notes: [], consensus: { earliestHeight: '1', txIndex: false } },
};
// Pruned ranks first on Consensus HTTP.
const rows = [
  { provider: 'Pruned', iface: 'consensusHttp', state: 'healthy', rank: 1 },
  { provider: 'Archive', iface: 'consensusHttp', state: 'healthy', rank: 2 },
] as unknown as InterfaceHealth[];
const health = { capabilities: (n: string) => caps[n], rows: () => rows };

describe('explorer: the best provider for a lookup', () => {
  it('a height below a node’s earliest block goes to the node that has it; a recent one to the best ranked', () => {
    assert.equal(bestForLookup(health, '120', [pruned, archive])?.name, 'Archive');
    assert.equal(bestForLookup(health, '1300000', [pruned, archive])?.name, 'Pruned');
  });
  it('a Cosmos hash needs the transaction index; an unreadable query has no best', () => {
    assert.equal(bestForLookup(health, 'AB'.repeat(32), [archive, pruned])?.name, 'Pruned');
    assert.equal(bestForLookup(health, 'not a query', [pruned, archive]), undefined);
  });
});
