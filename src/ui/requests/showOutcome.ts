// An outcome into its result document: rendered here (on demand), masked, and handed to
// ResultDocuments as bytes; a body written to disk (a large answer, a genesis) opens as its file.

import vscode = require('vscode');
import type { Outcome } from '../../core/chain/execute';
import { renderDocumentBytes } from '../../core/documents/render';
import { resultName } from '../../core/documents/resultName';
import { masker } from '../../core/secrets/mask';
import { RESULT_SCHEME, type ResultDocuments } from '../base/resultDocuments';

/** Shows an outcome: its own file when the body went to disk, else a result document. */
export async function showOutcome(documents: ResultDocuments, outcome: Outcome): Promise<vscode.Uri> {
  if (outcome.file && !outcome.error) {
    const uri = vscode.Uri.file(outcome.file);
    documents.trackSpilled(uri.fsPath);
    await vscode.window.showTextDocument(uri, { preview: false });
    return uri;
  }
  // Masked: a server may echo a secret (an API key in an error message, say).
  return documents.showData(resultUri(outcome), masker.maskBytes(renderDocumentBytes(outcome)));
}

/** A readable, stable address: `chain-endpoints:/<provider>/<operation> <args>.json`, secrets masked (core/documents/resultName.ts). */
export function resultUri(outcome: Outcome): vscode.Uri {
  const { path, query } = resultName({ providerName: outcome.providerName, operation: outcome.operation, args: outcome.args });
  return vscode.Uri.from({ scheme: RESULT_SCHEME, path, query });
}
