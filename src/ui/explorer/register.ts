// The explorer in the editor: the Look Up… command, and the links and hovers of result documents
// (every document of the chain-endpoints scheme, old ones included, and answers written to the
// storage folder). What they run is loaded on first use (src/ui/onDemand/lookUp.ts,
// onDemand/explorerLinks.ts): registering them costs activation nothing.

import vscode = require('vscode');
import { Commands } from '../base/commandIds';
import { registerCommand } from '../base/commands';
import type { CommandDeps } from '../base/deps';
import { loadOnDemand } from '../base/load';
import { RESULT_SCHEME } from '../base/resultDocuments';

export function registerExplorer(deps: CommandDeps): vscode.Disposable[] {
  // Result documents, and the answers too large for memory that open as their file in the storage folder.
  const selector: vscode.DocumentSelector = [
    { scheme: RESULT_SCHEME },
    { scheme: 'file', pattern: new vscode.RelativePattern(vscode.Uri.file(deps.storageDir), '**') },
  ];
  return [
    registerCommand(deps.log, Commands.lookUp, async (arg?: unknown) => (await loadOnDemand()).lookUpCommand(deps, arg)),
    vscode.languages.registerDocumentLinkProvider(selector, {
      provideDocumentLinks: async (doc, token) => (await loadOnDemand()).documentLinks(doc, token),
    }),
    vscode.languages.registerHoverProvider(selector, {
      provideHover: async (doc, position) => (await loadOnDemand()).documentHover(doc, position),
    }),
  ];
}
