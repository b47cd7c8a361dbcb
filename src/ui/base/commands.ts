// Every command of every feature is registered through registerCommand(): a failure is logged and
// shown, never lost. Each feature registers its own commands in its register.ts.

import vscode = require('vscode');
import type { CommandId, OperationCommandId } from './commandIds';
import { errorMessage, shownMessage } from '../../core/base/errors';

import { type Log } from './log';

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
