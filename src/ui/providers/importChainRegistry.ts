// "Import chain.json": reads a Cosmos chain-registry file (from the workspace, a file picked
// from disk, the clipboard or pasted), shows the providers it describes with their addresses in a
// multi-select preview, and appends the chosen ones to user settings, never duplicating an entry.

import vscode = require('vscode');
import { LocalizedError, errorMessage } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import { ChainRegistryError, type ImportCandidate, parseChainJson } from '../../core/config/chainRegistry';
import { INTERFACES, INTERFACE_LABELS } from '../../core/config/providers';
import { userProviderEntries, writeUserProviderEntries } from '../base/settings';

export interface ImportArgs {
  /** The chain.json text (skips the source question). */
  text?: string;
  /** A file to read (skips the source question). */
  uri?: vscode.Uri | string;
  /** Names to import without the preview ('all': every candidate that is not a duplicate). */
  select?: string[] | 'all';
}

/** Returns the names of the providers written to settings (undefined when cancelled). */
export async function importChainRegistry(arg?: ImportArgs): Promise<string[] | undefined> {
  const text = await readSource(arg);
  if (text === undefined) return undefined;
  const existing = userProviderEntries().filter(
    (e): e is { name: string } => typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string',
  );
  let parsed;
  try {
    parsed = parseChainJson(text, existing);
  } catch (err) {
    if (err instanceof ChainRegistryError) {
      const why = {
        english: l10n.format('This chain.json cannot be imported: {0}', err.message),
        shown: l10n.t('This chain.json cannot be imported: {0}', err.shown),
      };
      throw new LocalizedError(why);
    }
    throw err;
  }
  const { candidates, chain } = parsed;
  if (candidates.length === 0) {
    void vscode.window.showWarningMessage(
      chain.name !== undefined
        ? vscode.l10n.t('{0} lists no RPC, REST or EVM address to import.', chain.name)
        : vscode.l10n.t('This chain.json lists no RPC, REST or EVM address to import.'),
    );
    return [];
  }
  let chosen: ImportCandidate[];
  if (arg?.select) {
    chosen = arg.select === 'all' ? candidates.filter((c) => !c.duplicateOf) : candidates.filter((c) => arg.select!.includes(c.name));
  } else {
    const picks = await vscode.window.showQuickPick(
      candidates.map((c) => ({
        label: c.name,
        description: c.duplicateOf
          ? vscode.l10n.t('already configured as "{0}"', c.duplicateOf)
          : vscode.l10n.t('{0} interfaces', Object.keys(c.entry).filter((k) => (INTERFACES as readonly string[]).includes(k)).length),
        detail:
          INTERFACES.filter((i) => c.entry[i])
            .map((i) => `${INTERFACE_LABELS[i]}: ${c.entry[i]}`)
            .join('  ·  ') + (c.notes.length ? `  —  ${c.notes.join(' ')}` : ''),
        picked: !c.duplicateOf,
        candidate: c,
      })),
      {
        title: importTitle(chain.name ?? chain.chainId, chain.chainId),
        placeHolder: vscode.l10n.t('Choose the providers to add to your user settings'),
        canPickMany: true,
        matchOnDetail: true,
        ignoreFocusOut: true,
      },
    );
    if (!picks) return undefined;
    chosen = picks.map((p) => p.candidate);
  }
  const skipped = chosen.filter((c) => c.duplicateOf);
  const added = chosen.filter((c) => !c.duplicateOf);
  if (added.length > 0) {
    await writeUserProviderEntries([...userProviderEntries(), ...added.map((c) => c.entry)]);
  }
  const parts = [
    added.length === 1
      ? vscode.l10n.t('Imported 1 provider into your user settings.')
      : vscode.l10n.t('Imported {0} providers into your user settings.', added.length),
  ];
  if (skipped.length) parts.push(vscode.l10n.t('Skipped {0} already configured ({1}).', skipped.length, skipped.map((c) => `"${c.duplicateOf}"`).join(', ')));
  void vscode.window.showInformationMessage(parts.join(' '));
  return added.map((c) => c.name);
}

/** `Import providers of Cosmos Hub (cosmoshub-4)`; `who` is the chain's name, else its id. */
function importTitle(who: string | undefined, chainId: string | undefined): string {
  if (who === undefined) return vscode.l10n.t('Import providers of this chain');
  return chainId ? vscode.l10n.t('Import providers of {0} ({1})', who, chainId) : vscode.l10n.t('Import providers of {0}', who);
}

async function readSource(arg?: ImportArgs): Promise<string | undefined> {
  if (arg?.text !== undefined) return arg.text;
  if (arg?.uri) return readFile(typeof arg.uri === 'string' ? vscode.Uri.file(arg.uri) : arg.uri);
  const inWorkspace = await vscode.workspace.findFiles('**/chain.json', '**/node_modules/**', 50);
  const items: (vscode.QuickPickItem & { id: string; uri?: vscode.Uri })[] = [
    ...inWorkspace.map((uri) => ({
      id: 'file',
      uri,
      label: `$(file) ${vscode.workspace.asRelativePath(uri)}`,
      description: vscode.l10n.t('in this workspace'),
    })),
    { id: 'open', label: `$(folder-opened) ${vscode.l10n.t('Pick a file…')}` },
    { id: 'clipboard', label: `$(clippy) ${vscode.l10n.t('From the clipboard')}` },
    { id: 'paste', label: `$(edit) ${vscode.l10n.t('Paste JSON…')}` },
  ];
  const title = vscode.l10n.t('Import chain.json');
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Where is the chain-registry chain.json?') });
  if (!picked) return undefined;
  switch (picked.id) {
    case 'file':
      return readFile(picked.uri!);
    case 'open': {
      const files = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'chain.json': ['json'] }, title });
      return files?.[0] ? readFile(files[0]) : undefined;
    }
    case 'clipboard':
      return vscode.env.clipboard.readText();
    default:
      return vscode.window.showInputBox({ title, prompt: vscode.l10n.t('Paste the whole chain.json'), ignoreFocusOut: true });
  }
}

async function readFile(uri: vscode.Uri): Promise<string> {
  try {
    return Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
  } catch (err) {
    const reason = errorMessage(err);
    throw new LocalizedError(l10n.both('Cannot read {0}: {1}', uri.fsPath, reason));
  }
}
