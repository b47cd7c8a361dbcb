// Every command id the extension registers besides the catalogue's operations (those are
// COMMAND_PREFIX + the ids in src/core/chain/operationIds.ts). A unit test checks this list and the
// operations against package.json's contributes.commands, both ways.

import { COMMAND_PREFIX } from '../../core/chain/operationIds';

export const Commands = {
  refresh: 'chainEndpoints.refresh',
  addProvider: 'chainEndpoints.addProvider',
  importChainRegistry: 'chainEndpoints.importChainRegistry',
  openSettings: 'chainEndpoints.openSettings',
  setSecret: 'chainEndpoints.setSecret',
  deleteSecret: 'chainEndpoints.deleteSecret',
  copyAddress: 'chainEndpoints.copyAddress',
  copyAsCurl: 'chainEndpoints.copyAsCurl',
  copyAsCurlWithSecrets: 'chainEndpoints.copyAsCurlWithSecrets',
  compareHealth: 'chainEndpoints.health.compare',
  statusBarMenu: 'chainEndpoints.statusBar.menu',
  statusBarReconnect: 'chainEndpoints.statusBar.reconnect',
  statusBarSwitchProvider: 'chainEndpoints.statusBar.switchProvider',
  historyOpen: 'chainEndpoints.history.open',
  historyRerun: 'chainEndpoints.history.rerun',
  historyCopyAsCurl: 'chainEndpoints.history.copyAsCurl',
  historyCompare: 'chainEndpoints.history.compare',
  historyClear: 'chainEndpoints.history.clear',
  watchEvents: 'chainEndpoints.watchEvents',
  queriesRun: 'chainEndpoints.queries.run',
  queriesRunAll: 'chainEndpoints.queries.runAll',
  lookUp: 'chainEndpoints.lookUp',
  restQuery: 'chainEndpoints.rest.query',
  restImportOpenApi: 'chainEndpoints.rest.importOpenApi',
  contractsAttach: 'chainEndpoints.contracts.attach',
  simulateWithChanges: 'chainEndpoints.evm.simulateWithChanges',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

/** The command of a catalogue operation (`evm.blockNumber` -> `chainEndpoints.evm.blockNumber`). */
export type OperationCommandId = `${typeof COMMAND_PREFIX}${string}`;

export function operationCommand(operationId: string): OperationCommandId {
  return `${COMMAND_PREFIX}${operationId}`;
}
