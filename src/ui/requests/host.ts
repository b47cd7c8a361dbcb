// The editor as a host of the runner (run.ts): a cancellable progress notification, the
// confirmation as a modal. The API's host (no UI) is run.ts's apiHost(), over the same hostBase().

import vscode = require('vscode');
import { masker } from '../../core/secrets/mask';
import type { CommandDeps } from '../base/deps';
import { type Prompts, windowPrompts } from '../base/prompts';
import { readSettings } from '../base/settings';
import type { HostBase, RunHost } from './run';

/** What every host shares: the log, the HTTP client, the secrets, the settings and the masker of the editor. */
export function hostBase(deps: CommandDeps): HostBase {
  return {
    log: deps.log,
    http: deps.http,
    storageDir: deps.storageDir,
    secrets: deps.secrets,
    settings: () => readSettings(),
    mask: (t) => masker.mask(t),
  };
}

/** The editor's host: a notification with a Cancel button, the confirmation a modal. */
export function editorHost(deps: CommandDeps, prompts: Pick<Prompts, 'confirm'> = windowPrompts): RunHost {
  return {
    ...hostBase(deps),
    confirm: (message, detail, action) => prompts.confirm(message, detail, action),
    progress: (title, work) =>
      Promise.resolve(
        vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
          const abort = new AbortController();
          const sub = token.onCancellationRequested(() => abort.abort());
          return work((message) => progress.report({ message }), abort.signal).finally(() => sub.dispose());
        }),
      ),
  };
}
