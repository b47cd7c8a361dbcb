// The ids of the catalogue's operations (src/core/chain/operations.ts), for activation: one command is
// registered per id, and the catalogue itself loads with the code that runs them. Written by
// scripts/sync-manifest.mjs together with package.json; a unit test checks it against the catalogue.

export const COMMAND_PREFIX = 'chainEndpoints.';

export const OPERATION_IDS: readonly string[] = [
  'evm.blockNumber',
  'evm.chainId',
  'evm.getBlockByNumber',
  'evm.getTransactionByHash',
  'evm.getTransactionReceipt',
  'evm.getBalance',
  'evm.callContract',
  'evm.simulate',
  'evm.sendRawTransaction',
  'evm.custom',
  'consensus.genesis',
  'consensusHttp.status',
  'consensusHttp.validators',
  'consensusHttp.block',
  'consensusHttp.tx',
  'consensusHttp.custom',
  'consensus.block',
  'consensusRpc.status',
  'consensusRpc.validators',
  'consensusRpc.broadcastTxSync',
  'consensusRpc.custom',
  'consensusWs.subscribeNewBlocks',
  'consensusWs.custom',
  'rest.latestBlock',
  'rest.blockByHeight',
  'rest.nodeInfo',
  'rest.syncing',
  'rest.validatorSetsLatest',
  'rest.balances',
  'rest.tx',
  'rest.broadcast',
  'rest.custom',
];

/**
 * Ids named by interface like the others (`consensusRpc.block` beside `consensusRpc.status`), for
 * the two operations whose ids name only the family; both names work everywhere (commands, the
 * API's run(), query files). Kept by hand: scripts/sync-manifest.mjs rewrites only the list above.
 */
export const OPERATION_ALIASES: Readonly<Record<string, string>> = {
  'consensusRpc.block': 'consensus.block',
  'consensusHttp.genesis': 'consensus.genesis',
};
