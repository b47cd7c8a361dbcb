// "Add Provider": a guided input for a name and the six addresses, each validated as typed,
// appended to chainEndpoints.providers in user settings. The consensus addresses are suggested
// from the first one typed (same base for HTTP and RPC, `/websocket` for the socket).

import vscode = require('vscode');
import { INTERFACES, INTERFACE_LABELS, type InterfaceId, validateAddress, withoutTrailingSlashes } from '../../core/config/providers';
import { readSettings, userProviderEntries, writeUserProviderEntries } from '../base/settings';

const EXAMPLES: Record<InterfaceId, string> = {
  evmRpc: 'https://evm.example.org',
  consensusHttp: 'https://rpc.example.org',
  consensusRpc: 'https://rpc.example.org',
  consensusWs: 'wss://rpc.example.org/websocket',
  rest: 'https://rest.example.org',
  evmWs: 'wss://evm.example.org:8546',
};

function suggest(iface: InterfaceId, entry: Record<string, string>): string {
  const consensus = entry.consensusHttp ?? entry.consensusRpc;
  if (!consensus) return '';
  if (iface === 'consensusRpc' || iface === 'consensusHttp') return consensus;
  if (iface === 'consensusWs') {
    try {
      const url = new URL(consensus);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      url.pathname = `${withoutTrailingSlashes(url.pathname)}/websocket`;
      return url.toString();
    } catch {
      return '';
    }
  }
  return '';
}

/** Returns the new entry's name, or undefined when the user gives up. */
export async function addProvider(): Promise<string | undefined> {
  const existing = new Set([...readSettings().providers.providers.map((p) => p.name.toLowerCase())]);
  const total = INTERFACES.length + 1;
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add provider ({0}/{1})', 1, total),
    prompt: vscode.l10n.t('A name for the provider, shown in the tree and the status bar'),
    placeHolder: vscode.l10n.t('e.g. Testnet (Polkachu)'),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const t = v.trim();
      if (!t) return vscode.l10n.t('Type a name.');
      if (existing.has(t.toLowerCase())) return vscode.l10n.t('A provider named "{0}" exists already: pick another name.', t);
      return undefined;
    },
  });
  if (name === undefined) return undefined;

  const entry: Record<string, string> = { name: name.trim() };
  for (const [i, iface] of INTERFACES.entries()) {
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('Add provider ({0}/{1}): {2}', i + 2, total, INTERFACE_LABELS[iface]),
      prompt: vscode.l10n.t('The {0} address (leave empty if {1} does not publish one)', INTERFACE_LABELS[iface], entry.name),
      placeHolder: EXAMPLES[iface],
      value: suggest(iface, entry),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? undefined : validateAddress(iface, v)),
    });
    if (value === undefined) return undefined;
    if (value.trim()) entry[iface] = value.trim();
  }
  if (Object.keys(entry).length === 1) {
    void vscode.window.showWarningMessage(vscode.l10n.t('No address given: the provider was not added.'));
    return undefined;
  }
  const entries = userProviderEntries();
  entries.push(entry);
  await writeUserProviderEntries(entries);
  void vscode.window.showInformationMessage(vscode.l10n.t('Added provider "{0}" to your user settings.', entry.name));
  return entry.name;
}
