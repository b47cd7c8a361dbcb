// The explorer in the editor: the Look Up… command, and the links and hovers of result documents
// (every document of the chain-endpoints scheme, old ones included, and answers written to the
// storage folder), and the API's lookUp(). What they run is loaded on first use (./index.ts through
// src/ui/base/load.ts): registering them costs activation nothing.

import vscode = require('vscode');
import { Commands } from '../base/commandIds';
import { registerCommand } from '../base/commands';
import type { Activation } from '../base/activation';
import type { ChainEndpointsApi } from '../../api';
import { onDemand } from '../base/load';
import { RESULT_SCHEME } from '../base/resultDocuments';

export function registerExplorer(deps: Activation): Pick<ChainEndpointsApi, 'lookUp'> {
  // Result documents, and the answers too large for memory that open as their file in the storage folder.
  const selector: vscode.DocumentSelector = [
    { scheme: RESULT_SCHEME },
    { scheme: 'file', pattern: new vscode.RelativePattern(vscode.Uri.file(deps.storageDir), '**') },
  ];
  for (const d of [
    registerCommand(deps.log, Commands.lookUp, async (arg?: unknown) => (await onDemand.explorer()).lookUpCommand(deps, arg)),
    vscode.languages.registerDocumentLinkProvider(selector, {
      provideDocumentLinks: async (doc, token) => (await onDemand.explorer()).documentLinks(doc, token),
    }),
    vscode.languages.registerHoverProvider(selector, {
      provideHover: async (doc, position) => (await onDemand.explorer()).documentHover(doc, position),
    }),
  ])
    deps.keep(d);
  return {
    // { height }: the query `<address>@<height>`, read and checked by core/explorer/identify.ts.
    lookUp: async (query, options) =>
      (await onDemand.explorer()).lookUpForApi(
        deps,
        options?.height === undefined ? query : `${String(query).trim()}@${String(options.height).trim()}`,
        options,
      ),
  };
}
