// A part an activation-time file builds just after activation from its own lazily loaded file (the
// Providers view, the History view, the status bar's items): activation pays for none of its code.
// Nothing is built once the extension is deactivated, and a failure is logged, not thrown at
// every caller.

import type * as vscode from 'vscode';
import { errorMessage } from '../../core/base/errors';
import type { Log } from './log';

/**
 * Loads `load()`, then `make(module)` unless deactivated meanwhile (`keep` disposes the flag with
 * the extension); resolves to what `make` built, or undefined (deactivated, or failed: logged as
 * `failure: <error>`).
 */
export function buildLater<M, T>(
  keep: (d: vscode.Disposable) => void,
  log: Log,
  failure: string,
  load: () => Promise<M>,
  make: (module: M) => T,
): Promise<T | undefined> {
  let disposed = false;
  keep({ dispose: () => void (disposed = true) });
  return load()
    .then((module) => (disposed ? undefined : make(module)))
    .catch((err: unknown) => {
      log.error(`${failure}: ${errorMessage(err)}`);
      return undefined;
    });
}
