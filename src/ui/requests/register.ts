// Requests at activation: one command per catalogue operation (each takes an optional first
// argument: a tree node, or `{ provider, <param>: value, ... }`), Query a Module Route…, Import
// OpenAPI…, copy as curl, copy address, and the API's run() and operations(). What runs them is
// loaded on first use (./index.ts through src/ui/base/load.ts), so activation does not compile it.
// Call Contract and Simulate are catalogue operations too; their commands open the contracts feature.

import vscode = require('vscode');
import { Commands, operationCommand } from '../base/commandIds';
import { registerCommand } from '../base/commands';
import type { Activation } from '../base/activation';
import { onDemand } from '../base/load';
import { OPERATION_ALIASES, OPERATION_IDS } from '../../core/chain/operationIds';
import { INTERFACE_LABELS } from '../../core/config/providers';
import { redactUrl } from '../../core/secrets/redact';
import { isInterfaceNode } from '../providers/treeKinds';
import type { ChainEndpointsApi } from '../../api';

export function registerRequests(a: Activation): Pick<ChainEndpointsApi, 'run' | 'operations'> {
  // The catalogue loads with the code that runs its operations, on the first command.
  for (const id of [...OPERATION_IDS, ...Object.keys(OPERATION_ALIASES)]) {
    a.keep(
      registerCommand(a.log, operationCommand(id), async (arg?: unknown) => {
        // Call Contract and Simulate: with the ABIs known (names, a quick pick of functions, outputs and reverts decoded).
        if (id === 'evm.callContract') return (await onDemand.contracts()).callContractCommand(a, arg);
        if (id === 'evm.simulate') return (await onDemand.contracts()).simulateCommand(a, arg);
        const { runOperation, findOperation } = await onDemand.requests();
        return runOperation(a, findOperation(id)!, arg);
      }),
    );
  }
  for (const d of [
    registerCommand(a.log, Commands.restQuery, async (arg?: unknown) => {
      const od = await onDemand.requests();
      od.restoreImportedRoutes(a);
      return od.restQueryCommand(a, arg);
    }),
    registerCommand(a.log, Commands.restImportOpenApi, async (arg?: unknown) => (await onDemand.requests()).importOpenApiCommand(a, arg)),
    registerCommand(a.log, Commands.copyAsCurl, async (node?: unknown) => (await onDemand.requests()).copyAsCurl(a, node, false)),
    registerCommand(a.log, Commands.copyAsCurlWithSecrets, async (node?: unknown) => (await onDemand.requests()).copyAsCurl(a, node, true)),
    registerCommand(a.log, Commands.copyAddress, async (node?: unknown) => {
      if (!isInterfaceNode(node)) return;
      await vscode.env.clipboard.writeText(redactUrl(node.address));
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0} address of {1}', INTERFACE_LABELS[node.iface], node.provider.name), 3000);
    }),
  ])
    a.keep(d);
  return {
    operations: () => [...OPERATION_IDS],
    run: async (operation, options) => (await onDemand.requests()).runForApi(a, operation, options),
  };
}
