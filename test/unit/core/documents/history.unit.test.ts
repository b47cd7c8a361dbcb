import * as assert from 'node:assert/strict';
import { HISTORY_LIMIT, type HistoryEntry, addEntry, historyLabel, parseHistory, sameRequest } from '../../../../src/core/documents/history';

const entry = (i: number, extra: Partial<HistoryEntry> = {}): HistoryEntry => ({
  id: `e-${i}`,
  at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  operation: 'consensus.block',
  label: 'block',
  iface: 'consensusRpc',
  provider: 'P',
  args: { height: '5' },
  ok: true,
  status: 200,
  elapsedMs: 3,
  bytes: 10,
  stored: true,
  ...extra,
});

describe('history list', () => {
  it('keeps the newest 100, returning the dropped ones', () => {
    let list: HistoryEntry[] = [];
    const dropped: HistoryEntry[] = [];
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) {
      const r = addEntry(list, entry(i));
      list = r.entries;
      dropped.push(...r.dropped);
    }
    assert.equal(list.length, HISTORY_LIMIT);
    assert.equal(list[0].id, `e-${HISTORY_LIMIT + 4}`);
    assert.deepEqual(
      dropped.map((d) => d.id),
      ['e-0', 'e-1', 'e-2', 'e-3', 'e-4'],
    );
  });

  it('survives a damaged file, keeping the well-formed entries', () => {
    assert.deepEqual(parseHistory('not json'), []);
    assert.deepEqual(parseHistory('{"a":1}'), []);
    const text = JSON.stringify([entry(1), { id: '../../etc', at: 'x', operation: 'o', provider: 'p', ok: true, args: {} }, { nope: 1 }, entry(2)]);
    assert.deepEqual(
      parseHistory(text).map((e) => e.id),
      ['e-1', 'e-2'],
    );
  });

  it('pairs runs of the same request', () => {
    assert.ok(sameRequest(entry(1), entry(2)));
    assert.ok(!sameRequest(entry(1), entry(2, { args: { height: '6' } })));
    assert.ok(!sameRequest(entry(1), entry(2, { provider: 'Q' })));
  });

  it('labels say what was asked: the method, the path, the template filled, the query file request', () => {
    assert.equal(historyLabel('rest.blockByHeight', 'blocks/{height}', { height: '1234' }), 'blocks/1234');
    assert.equal(historyLabel('evm.custom', 'Custom JSON-RPC request…', { method: 'eth_gasPrice', params: '[]' }), 'eth_gasPrice');
    assert.equal(historyLabel('rest.custom', 'Custom GET request…', { path: '/cosmos/bank/v1beta1/params' }), '/cosmos/bank/v1beta1/params');
    assert.equal(historyLabel('consensusRpc.status', 'status', {}, 'latest'), 'latest · status');
    assert.equal(historyLabel('rest.blockByHeight', 'blocks/{height}', {}), 'blocks/{height}');
  });
});
