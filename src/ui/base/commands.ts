// Command registration: one command per catalogue entry, plus copy as curl and copy address. Each
// operation command takes an optional first argument (a tree node, or `{ provider, <param>: value,
// ... }`); what runs it (src/ui/onDemand/runOperation.ts, with the request core under it) is loaded on the
// first use (src/ui/onDemand/index.ts), so activation does not compile it.

import vscode = require('vscode');
import { type CommandId, Commands, type OperationCommandId, operationCommand } from './commandIds';
import { errorMessage, shownMessage } from '../../core/base/errors';
import { OPERATION_ALIASES, OPERATION_IDS } from '../../core/chain/operationIds';
import { INTERFACE_LABELS } from '../../core/config/providers';
import { redactUrl } from '../../core/secrets/redact';

import { type Log } from './log';
import { loadOnDemand } from './load';
import type { CommandDeps } from './deps';
import { isInterfaceNode } from '../providers/treeNodes';

export type { CommandDeps } from './deps';

/** Registers a command whose failures are logged and shown instead of being lost. */
export function registerCommand(log: Log, id: CommandId | OperationCommandId, fn: (...args: any[]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await fn(...args);
    } catch (err) {
      const message = errorMessage(err);
      log.error(`[command] ${id} failed: ${message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Chain Endpoints: {0}', shownMessage(err)));
      return undefined;
    }
  });
}

export function registerOperationCommands(deps: CommandDeps): vscode.Disposable[] {
  // The catalogue loads with the code that runs its operations, on the first command.
  const disposables = [...OPERATION_IDS, ...Object.keys(OPERATION_ALIASES)].map((id) =>
    registerCommand(deps.log, operationCommand(id), async (arg?: unknown) => {
      const { runOperation, findOperation, callContractCommand } = await loadOnDemand();
      // Call Contract: with the ABIs known (names, a quick pick of functions, outputs and reverts decoded, gas estimated).
      if (id === 'evm.callContract') return callContractCommand(deps, arg);
      if (id === 'evm.simulate') return (await loadOnDemand()).simulateCommand(deps, arg);
      return runOperation(deps, findOperation(id)!, arg);
    }),
  );
  disposables.push(
    registerCommand(deps.log, Commands.restQuery, async (arg?: unknown) => {
      const od = await loadOnDemand();
      od.restoreImportedRoutes(deps);
      return od.restQueryCommand(deps, arg);
    }),
    registerCommand(deps.log, Commands.restImportOpenApi, async (arg?: unknown) => (await loadOnDemand()).importOpenApiCommand(deps, arg)),
    registerCommand(deps.log, Commands.contractsAttach, async (arg?: unknown) => (await loadOnDemand()).attachArtifact(deps, arg)),
    registerCommand(deps.log, Commands.simulateWithChanges, async (arg?: unknown) => (await loadOnDemand()).replayCommand(deps, arg)),
    registerCommand(deps.log, Commands.copyAsCurl, async (node?: unknown) => (await loadOnDemand()).copyAsCurl(deps, node, false)),
    registerCommand(deps.log, Commands.copyAsCurlWithSecrets, async (node?: unknown) => (await loadOnDemand()).copyAsCurl(deps, node, true)),
    registerCommand(deps.log, Commands.copyAddress, async (node?: unknown) => {
      if (!isInterfaceNode(node)) return;
      await vscode.env.clipboard.writeText(redactUrl(node.address));
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0} address of {1}', INTERFACE_LABELS[node.iface], node.provider.name), 3000);
    }),
  );
  return disposables;
}
