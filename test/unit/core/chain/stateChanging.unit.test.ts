// The one list of state-changing requests (core/chain/stateChanging.ts), method by method for the
// `debug_` namespace of geth and Cosmos EVM: what writes files on the node, changes its logging,
// rewinds or compacts its database is confirmed like a broadcast; what only reads is not.

import * as assert from 'node:assert/strict';
import { findOperation } from '../../../../src/core/chain/operations';
import { stateChangingMethod, stateChangingReason } from '../../../../src/core/chain/stateChanging';

/** Each with what it does on the node. */
const CHANGING: Record<string, string> = {
  debug_cpuProfile: 'writes a CPU profile to a file on the node',
  debug_goTrace: 'writes a Go execution trace to a file on the node',
  debug_blockProfile: 'writes a block profile to a file on the node',
  debug_mutexProfile: 'writes a mutex profile to a file on the node',
  debug_startCPUProfile: 'starts writing a CPU profile to a file',
  debug_stopCPUProfile: 'ends that file',
  debug_startGoTrace: 'starts writing a Go trace to a file',
  debug_stopGoTrace: 'ends that file',
  debug_writeBlockProfile: 'writes a file',
  debug_writeMemProfile: 'writes a file',
  debug_writeMutexProfile: 'writes a file',
  debug_standardTraceBlockToFile: 'writes trace files on the node',
  debug_standardTraceBadBlockToFile: 'writes trace files on the node',
  debug_verbosity: "changes the node's log level",
  debug_vmodule: "changes the node's log levels per module",
  debug_backtraceAt: "changes the node's logging",
  debug_chaindbCompact: "compacts the node's whole database (stalls it for minutes)",
  debug_setHead: 'rewinds the chain',
  debug_setBlockProfileRate: "changes the node's profiling",
  debug_setMutexProfileFraction: "changes the node's profiling",
  debug_setGCPercent: "changes the node's garbage collector",
  debug_setTrieFlushInterval: 'changes how often state is written',
  debug_freeOSMemory: 'forces a garbage collection',
};

/** Reads (some expensive, none changing the node). */
const READS = [
  'debug_stacks',
  'debug_memStats',
  'debug_gcStats',
  'debug_chaindbProperty',
  'debug_dbGet',
  'debug_dbAncient',
  'debug_traceTransaction',
  'debug_traceBlockByNumber',
  'debug_traceCall',
  'debug_getBadBlocks',
  'debug_getRawBlock',
  'debug_printBlock',
  'debug_intermediateRoots',
  'debug_storageRangeAt',
];

describe('state-changing list: the debug_ namespace', () => {
  it('confirms every debug_ method that writes on the node, changes its logging or its database (any case, every raw interface)', () => {
    const missing: string[] = [];
    for (const method of Object.keys(CHANGING)) {
      for (const m of [method, method.toLowerCase(), method.toUpperCase(), ` ${method} `]) {
        if (!stateChangingMethod(m)) missing.push(JSON.stringify(m));
      }
      for (const id of ['evm.custom', 'consensusRpc.custom', 'consensusWs.custom']) {
        if (!stateChangingReason(findOperation(id)!, { method })) missing.push(`${id} ${method}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('leaves the reads alone', () => {
    for (const method of READS) assert.equal(stateChangingMethod(method), undefined, method);
  });

  it('a REST raw GET named like a CometBFT broadcast is confirmed too (a gateway may serve both on one host); REST searches are not', () => {
    const rest = findOperation('rest.custom')!;
    for (const path of [
      '/broadcast_tx_sync?tx=AAAA',
      '/rpc/broadcast_tx_commit?tx=AAAA',
      '/%62roadcast_tx_async?tx=AA',
      '/unsafe_flush_mempool',
      '/dial_peers?peers=x',
    ]) {
      assert.ok(stateChangingReason(rest, { path }), path);
    }
    for (const path of ['/cosmos/tx/v1beta1/txs?events=x', '/cosmos/bank/v1beta1/balances/cosmos1x', '/cosmos/base/tendermint/v1beta1/node_info']) {
      assert.equal(stateChangingReason(rest, { path }), undefined, path);
    }
  });
});
