// The one list of requests that change state (a node's, an account's or the chain's): what a raw
// request must confirm (`confirm: broadcast` in a query file, the broadcast modal in the editor)
// like the catalogue's broadcasts. Matched generously: a name in any case, a path in any encoding.

import type { Operation } from './operation';

/** JSON-RPC methods (EVM and CometBFT, HTTP or WebSocket) that send, sign or change a node: prefixes, any case. */
const METHOD_PREFIXES = [
  // EVM: transactions and signatures
  'eth_send', // eth_sendRawTransaction, eth_sendTransaction, eth_sendBundle…
  'eth_sign', // eth_sign, eth_signTransaction, eth_signTypedData*
  'eth_submit', // eth_submitWork, eth_submitHashrate
  'personal_', // accounts, unlocking, signing
  'miner_',
  'admin_',
  'engine_',
  'clique_',
  // EVM debug_ namespace (geth, Cosmos EVM), method by method: what writes files on the node, changes
  // its settings or logging, rewinds or compacts its database. The reads stay reads: debug_trace*,
  // debug_stacks, debug_memStats, debug_gcStats, debug_chaindbProperty, debug_dbGet, debug_getRaw*…
  'debug_set', // debug_setHead rewinds the chain; debug_setGCPercent, debug_setBlockProfileRate, debug_setMutexProfileFraction, debug_setTrieFlushInterval change the node
  'debug_start', // debug_startCPUProfile, debug_startGoTrace: profiles and traces written on the node's disk
  'debug_stop',
  'debug_write', // debug_writeBlockProfile, debug_writeMemProfile, debug_writeMutexProfile: files on the node
  'debug_free', // debug_freeOSMemory forces a garbage collection
  'debug_mutex', // debug_mutexProfile(file, seconds) writes a file
  'debug_block', // debug_blockProfile(file, seconds) writes a file
  'debug_cpuprofile', // debug_cpuProfile(file, seconds) writes a file
  'debug_gotrace', // debug_goTrace(file, seconds) writes a file
  'debug_standardtrace', // debug_standardTraceBlockToFile, debug_standardTraceBadBlockToFile write trace files on the node
  'debug_verbosity', // the node's log level
  'debug_vmodule', // its log levels per module
  'debug_backtraceat', // its logging (a stack trace at a source line)
  'debug_chaindbcompact', // compacts the whole database: the node stalls for minutes
  // dev nodes (anvil, hardhat, ganache): state, time, accounts
  'evm_',
  'anvil_',
  'hardhat_',
  // CometBFT
  'broadcast_', // broadcast_tx_sync/_async/_commit, broadcast_evidence
  'unsafe_', // unsafe_flush_mempool
  'dial_', // dial_seeds, dial_peers (the unsafe routes)
];

/** Why a JSON-RPC method changes state, or undefined. */
export function stateChangingMethod(method: string): string | undefined {
  const m = method.trim().toLowerCase();
  const prefix = METHOD_PREFIXES.find((p) => m.startsWith(p));
  return prefix ? `${method.trim()} changes state (${prefix}*)` : undefined;
}

/** A path as a server routes it: percent-decoding (repeated), backslashes as slashes, dot segments and repeated slashes gone. */
export function routedPath(path: string): string {
  let p = path.split(/[?#]/)[0];
  for (let i = 0; i < 3; i++) {
    try {
      const d = decodeURIComponent(p);
      if (d === p) break;
      p = d;
    } catch {
      break;
    }
  }
  const segments: string[] = [];
  for (const s of p.replace(/\\/g, '/').split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') segments.pop();
    else segments.push(s.trim());
  }
  return '/' + segments.join('/');
}

/** Why a GET path of the CometBFT HTTP interface changes state (`/broadcast_tx_commit?tx=…`), or undefined. */
export function stateChangingConsensusPath(path: string): string | undefined {
  // Any segment: a provider's address may have a prefix (`https://host/rpc/`).
  for (const segment of routedPath(path).split('/')) {
    const why = stateChangingMethod(segment);
    if (why) return `GET ${path.trim()} changes state (${segment})`;
  }
  return undefined;
}

/**
 * Why a request of `op` with `args` changes state, or undefined: the catalogue's broadcasts, and
 * the raw requests (custom JSON-RPC methods and GET paths) that do the same.
 */
export function stateChangingReason(op: Operation, args: Readonly<Record<string, string | undefined>>): string | undefined {
  if (op.broadcast) return `${op.id} sends a transaction`;
  const method = args.method;
  if (method !== undefined && (op.id === 'evm.custom' || op.id === 'consensusRpc.custom' || op.id === 'consensusWs.custom')) {
    return stateChangingMethod(method);
  }
  // REST raw requests are GETs (a GET of /cosmos/tx/v1beta1/txs is a search; its POST is rest.broadcast), but a
  // gateway serving REST and CometBFT on one host routes `/broadcast_tx_sync?tx=…` to the node's RPC: checked too.
  const path = args.path;
  if (path !== undefined && (op.id === 'consensusHttp.custom' || op.id === 'rest.custom')) return stateChangingConsensusPath(path);
  return undefined;
}
