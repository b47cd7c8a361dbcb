// A provider's capabilities as short cells for the Compare view and its exports: what this
// interface serves (`eth net web3 · archive`, `tx index off`, `no bank`), the earliest block and
// the versions. Pure: no I/O.

import * as l10n from '../base/l10n';
import type { InterfaceId } from '../config/providers';
import type { Capabilities } from './capabilities';

export interface CapabilityCells {
  serves: string | null;
  earliest: string | null;
  version: string | null;
}

export function capabilityCells(c: Capabilities | undefined, iface: InterfaceId): CapabilityCells {
  if (!c) return { serves: null, earliest: null, version: null };
  const parts: string[] = [];
  let version: string | undefined;
  if (iface === 'evmRpc') {
    if (c.evm?.namespaces) parts.push(c.evm.namespaces.join(' '));
    if (c.evm?.archive !== undefined) parts.push(c.evm.archive ? l10n.t('archive') : l10n.t('pruned'));
    version = c.evm?.clientVersion;
  } else if (iface === 'evmWs' || iface === 'consensusWs') {
    const ws = iface === 'evmWs' ? c.websocket?.evm : c.websocket?.consensus;
    if (ws !== undefined) parts.push(ws ? l10n.t('subscriptions') : l10n.t('subscriptions refused'));
    version = iface === 'evmWs' ? c.evm?.clientVersion : c.consensus?.nodeVersion;
  } else if (iface === 'rest') {
    const mods = Object.entries(c.rest?.modules ?? {});
    const off = mods.filter(([, v]) => !v).map(([m]) => m);
    if (mods.length) parts.push(off.length ? l10n.t('{0} modules, not: {1}', mods.length - off.length, off.join(' ')) : l10n.t('{0} modules', mods.length));
    version = c.rest?.appVersion && [c.rest.appName, c.rest.appVersion].filter(Boolean).join(' ');
  } else {
    if (c.consensus?.txIndex !== undefined) parts.push(c.consensus.txIndex ? l10n.t('tx index') : l10n.t('tx index off'));
    version = c.consensus?.nodeVersion;
  }
  const earliest = iface === 'evmWs' ? undefined : c.consensus?.earliestHeight;
  return { serves: parts.join(' · ') || null, earliest: earliest ?? null, version: version ?? null };
}
