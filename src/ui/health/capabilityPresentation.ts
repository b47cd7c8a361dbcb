// How a provider's capabilities (src/core/health/capabilities.ts) read in an interface's tooltip:
// a few Markdown lines for what that interface can serve, server text escaped and bounded.

import vscode = require('vscode');
import { formatHeight } from '../../core/base/numbers';
import type { InterfaceId } from '../../core/config/providers';
import type { Capabilities } from '../../core/health/capabilities';
import { escapeMarkdown } from '../../core/documents/markdown';
import { MAX_INTEGER_TEXT, shownNumber } from '../../core/base/limits';

const yesNo = (v: boolean | undefined, yes: string, no: string): string | undefined => (v === undefined ? undefined : v ? yes : no);

/** An EVM chain id in hex and decimal (`0x2328 = 9000`), as the explorer writes it. */
function bothForms(id: string): string {
  if (id.length > MAX_INTEGER_TEXT) return shownNumber(id);
  try {
    const n = BigInt(id);
    return `0x${n.toString(16)} = ${n.toString()}`;
  } catch {
    return id;
  }
}

/** The tooltip lines about `iface`'s capabilities; empty when nothing is known. */
export function capabilityTooltipLines(c: Capabilities | undefined, iface: InterfaceId): string[] {
  if (!c) return [];
  const lines: string[] = [];
  const e = c.evm;
  const k = c.consensus;
  if ((iface === 'evmRpc' || iface === 'evmWs') && e) {
    if (e.namespaces) lines.push(vscode.l10n.t('namespaces: {0}', escapeMarkdown(e.namespaces.join(', '), 200)));
    if (e.chainId) lines.push(vscode.l10n.t('EVM chain id: {0}', escapeMarkdown(bothForms(e.chainId), 60)));
    const state = yesNo(
      e.archive,
      vscode.l10n.t('old state: served from block {0} (archive)', formatHeight(e.oldStateBlock ?? '1')),
      vscode.l10n.t('old state: pruned (block {0} refused)', formatHeight(e.oldStateBlock ?? '1')),
    );
    if (state) lines.push(state);
    if (e.clientVersion) lines.push(vscode.l10n.t('client: {0}', escapeMarkdown(e.clientVersion, 80)));
  }
  if (iface === 'evmWs' && c.websocket?.evm !== undefined)
    lines.push(c.websocket.evm ? vscode.l10n.t('subscriptions: allowed') : vscode.l10n.t('subscriptions: refused'));
  if ((iface === 'consensusHttp' || iface === 'consensusRpc' || iface === 'consensusWs' || iface === 'evmRpc' || iface === 'rest') && k?.earliestHeight) {
    lines.push(vscode.l10n.t('earliest block: {0}', formatHeight(k.earliestHeight)));
  }
  if ((iface === 'consensusHttp' || iface === 'consensusRpc') && k) {
    const idx = yesNo(k.txIndex, vscode.l10n.t('transaction index: on'), vscode.l10n.t('transaction index: off'));
    if (idx) lines.push(idx);
    if (k.nodeVersion) lines.push(vscode.l10n.t('CometBFT {0}', escapeMarkdown(k.nodeVersion, 40)));
  }
  if (iface === 'consensusWs' && c.websocket?.consensus !== undefined)
    lines.push(c.websocket.consensus ? vscode.l10n.t('subscriptions: allowed') : vscode.l10n.t('subscriptions: refused'));
  if (iface === 'rest' && c.rest) {
    const mods = Object.entries(c.rest.modules);
    const on = mods.filter(([, v]) => v).map(([m]) => m);
    const off = mods.filter(([, v]) => !v).map(([m]) => m);
    if (on.length) lines.push(vscode.l10n.t('modules: {0}', on.join(', ')));
    if (off.length) lines.push(vscode.l10n.t('not served: {0}', off.join(', ')));
    if (c.rest.appVersion) lines.push(vscode.l10n.t('app: {0} {1}', escapeMarkdown(c.rest.appName ?? '', 40), escapeMarkdown(c.rest.appVersion, 40)));
  }
  if (lines.length) lines.push(vscode.l10n.t('capabilities probed at {0}', new Date(c.probedAt).toLocaleTimeString()));
  return lines;
}
