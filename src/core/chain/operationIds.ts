// The ids of the catalogue's operations (src/core/operations.ts), for activation: one command is
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
