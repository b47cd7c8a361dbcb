// Running a query file in the editor: a driver of the same pipeline as the CLI
// (src/core/queries/pipeline.ts: prepare, stop on a check error, run, the result model), with the
// editor's providers (settings, workspace trust), secrets (the SecretStore, scoped to the provider as
// everywhere), limits (settings) and a modal before every broadcast. It only renders: each result
// becomes the same read-only result document as any request and is recorded in History; a stop is
// a notification naming file:line:col. Untrusted workspaces do not run query files.

import { receiptRunner } from '../../core/explorer/receipt/queryRunner';
import vscode = require('vscode');
import type { Outcome } from '../../core/chain/execute';
import { requestOptions } from '../../core/chain/requestOptions';
import { networkIndex } from '../../core/config/networks';
import type { Provider } from '../../core/config/providers';
import { renderDocumentBytes } from '../../core/documents/render';
import type { QueryFile } from '../../core/queries/model';
import { type QueryPolicy, type StopReason, prepareRun, runPrepared, stopText } from '../../core/queries/pipeline';
import { report } from '../../core/queries/report';
import type { FileRun, ProviderRun } from '../../core/queries/run';
import { masker } from '../../core/secrets/mask';
import type { CommandDeps } from '../base/deps';
import { currentNetworks } from '../providers/networkDirectory';
import { queryFilesAllowEnv, readSettings } from '../base/settings';
import { secretContext } from '../../core/config/secrets';
import { resultUri } from '../requests/showOutcome';
import { confirmRequest } from '../requests/run';
import { editorHost } from '../requests/host';

export interface EditorRunOptions {
  /** Only these requests (and those they reference). */
  only?: readonly string[];
  token?: vscode.CancellationToken;
  /** Open the result document of the last request run (the CodeLens "Run"). */
  open?: boolean;
  onResult?(run: ProviderRun, document: vscode.Uri | undefined): void;
}

export type EditorRun = {
  readonly file: QueryFile;
  /** The result document of each provider run. */
  readonly documents: Map<ProviderRun, vscode.Uri>;
} & (
  | { readonly run: FileRun; readonly stop?: undefined }
  /** The checks found an error: nothing was sent (the file's diagnostics are shown). */
  | { readonly run?: undefined; readonly stop: StopReason; readonly diagnostics: QueryFile['diagnostics'] }
);

/** Says why query files do not run here, or undefined when they may. */
export function refusal(): string | undefined {
  return vscode.workspace.isTrusted
    ? undefined
    : vscode.l10n.t(
        'Query files do not run in an untrusted workspace: a file from a repository must not make the editor contact addresses it chose. Trust the workspace to run it.',
      );
}

/** Stores an outcome as its result document (opened when `open`), and records it in History. */
async function keep(deps: CommandDeps, outcome: Outcome, open: boolean, name?: string): Promise<vscode.Uri | undefined> {
  if (outcome.error?.kind === 'cancelled') return undefined;
  let uri: vscode.Uri;
  if (outcome.file && !outcome.error) {
    uri = vscode.Uri.file(outcome.file);
    if (open) await vscode.window.showTextDocument(uri, { preview: false });
  } else {
    uri = await deps.documents.showData(resultUri(outcome), masker.maskBytes(renderDocumentBytes(outcome)), { open });
  }
  void deps.history?.record(outcome, deps.documents.dataOf(uri), name);
  return uri;
}

/**
 * What the editor checks and runs query files with (core/queries/pipeline.ts's policy): its
 * diagnostics and its runner read the environment under the same rule.
 */
export function editorPolicy(providers: readonly Provider[]): QueryPolicy {
  return {
    providers,
    env: process.env,
    // The environment only as the user's own settings allow (never the workspace's).
    allowEnv: queryFilesAllowEnv(),
    envHint: (name) => vscode.l10n.t('add "{0}" to chainEndpoints.queryFiles.allowEnv in your user settings to let query files read it', name),
  };
}

export async function runQueryDocument(deps: CommandDeps, document: vscode.TextDocument, options: EditorRunOptions = {}): Promise<EditorRun | undefined> {
  const refused = refusal();
  if (refused) {
    void vscode.window.showWarningMessage(refused);
    return undefined;
  }
  const settings = readSettings();
  const name = vscode.workspace.asRelativePath(document.uri);
  // As the CLI: parsed and checked first (the diagnostics shown as you type); an error stops the run.
  const prepared = prepareRun([{ name, source: document.getText() }], editorPolicy(settings.providers.providers));
  const { file, diagnostics } = prepared.files[0];
  const documents = new Map<ProviderRun, vscode.Uri>();
  if (prepared.stop) {
    void vscode.window.showErrorMessage(stopText(prepared.stop));
    deps.log.info(`[queries] not run: ${stopText(prepared.stop)}`);
    return { file, documents, stop: prepared.stop, diagnostics: diagnostics.filter((d) => d.severity === 'error') };
  }
  await deps.secrets.ready;
  const secrets = secretContext(deps.secrets.source);
  const pending: Promise<unknown>[] = [];
  let last: ProviderRun | undefined;
  const title = vscode.l10n.t('Query file {0}', name);
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
    const abort = new AbortController();
    const subs = [token.onCancellationRequested(() => abort.abort()), options.token?.onCancellationRequested(() => abort.abort())];
    return runPrepared(prepared, {
      networkOf: networkNamer(settings.providers.providers),
      // The options every request of the editor gets (core/chain/requestOptions.ts): the same caps as the catalogue's.
      execute: requestOptions(settings, { http: deps.http, spillDir: deps.storageDir }, 'document'),
      signal: abort.signal,
      only: options.only,
      // explorer.receipt: the explorer's receipt (#35), built through the request's own provider.
      receipt: receiptRunner,
      // The one secret source (the SecretStore's, as the CLI's is the environment): resolution,
      // lookup, hints and the foreign-secret checks built from it in core (core/config/secrets.ts).
      ...secrets,
      // The runner's one confirmation (ui/requests/run.ts), the request masked, its file and line said.
      confirmBroadcast: (request, provider, description) =>
        confirmRequest(editorHost(deps), {
          provider: provider.name,
          request: description,
          broadcast: true,
          where: `${request.name} (${vscode.workspace.asRelativePath(document.uri)}:${request.line})`,
        }),
      onResult: (r) => {
        last = r;
        progress.report({ message: `${r.request.name} · ${r.provider}` });
        if (!r.outcome) {
          options.onResult?.(r, undefined);
          return;
        }
        pending.push(
          keep(deps, r.outcome, false, r.request.name).then((uri) => {
            if (uri) documents.set(r, uri);
            options.onResult?.(r, uri);
          }),
        );
      },
    }).finally(() => subs.forEach((s) => s?.dispose()));
  });
  await Promise.allSettled(pending);
  const text = report('text', result.reports);
  for (const line of text.trimEnd().split('\n')) deps.log.info(`[queries] ${line}`);
  const lastDoc = last && documents.get(last);
  // Beside the query file, which keeps the focus (the next Run, an edit): Run all is not a jump away.
  if (options.open && lastDoc)
    await vscode.commands.executeCommand('vscode.open', lastDoc, { preview: false, preserveFocus: true, viewColumn: vscode.ViewColumn.Beside });
  const { run } = result.reports[0];
  const failed = !result.passed;
  const summary = failed
    ? vscode.l10n.t('Query file: {0} request(s) run, some assertions failed (see the Testing view or the log).', run.requests.length)
    : vscode.l10n.t('Query file: {0} request(s) run, every assertion passed.', run.requests.length);
  if (failed) void vscode.window.showWarningMessage(summary);
  else void vscode.window.setStatusBarMessage(summary, 5000);
  return { file, run, documents };
}

/** The network name of each provider (networks known now: declared, else discovered by the probes). */
function networkNamer(providers: readonly Provider[]): (p: Provider) => string | undefined {
  const index = networkIndex(currentNetworks(providers));
  return (p) => index.get(p.name)?.label;
}
