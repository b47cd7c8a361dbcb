// The "Chain Endpoints" log channel, created first in activate() and passed to every part.
// Every line passes through the masker, so a secret value never reaches the log.

import vscode = require('vscode');
import { masker } from '../../core/secrets/mask';

export interface Log extends Pick<vscode.LogOutputChannel, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'dispose'> {
  show(preserveFocus?: boolean): void;
}

export function createLog(): Log {
  const channel = vscode.window.createOutputChannel('Chain Endpoints', { log: true });
  const m = (text: string) => masker.mask(text);
  return {
    trace: (message) => channel.trace(m(message)),
    debug: (message) => channel.debug(m(message)),
    info: (message) => channel.info(m(message)),
    warn: (message) => channel.warn(m(message)),
    error: (error) => channel.error(typeof error === 'string' ? m(error) : m(error.message)),
    show: (preserveFocus?: boolean) => channel.show(preserveFocus),
    dispose: () => channel.dispose(),
  };
}
