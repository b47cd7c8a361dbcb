// The "Chain Endpoints" log channel, created first in activate() and passed to every part.

import * as vscode from 'vscode';

export type Log = vscode.LogOutputChannel;

export function createLog(): Log {
  return vscode.window.createOutputChannel('Chain Endpoints', { log: true });
}
