// Which imported endpoints are already in the user's settings: addresses normalised (scheme, host,
// port, path without a trailing slash) and compared per slot (consensus RPC, WebSocket, REST, EVM).

import * as l10n from '../base/l10n';
import { withoutTrailingSlashes } from './providers';

/** The addresses a candidate takes from the file (derived ones are not compared for duplicates). */
export type Slot = 'rpc' | 'consensusWs' | 'rest' | 'evmRpc';

export const SLOT_LABEL: Record<Slot, string> = {
  rpc: 'CometBFT RPC',
  consensusWs: 'Consensus WebSocket',
  rest: 'REST',
  evmRpc: 'EVM RPC',
};

/** The addresses of an existing settings entry, normalized, by slot (`rpc` from consensusHttp or consensusRpc). */
export function existingSlots(entry: Record<string, unknown>): Map<Slot, Set<string>> {
  const out = new Map<Slot, Set<string>>();
  const add = (slot: Slot, v: unknown) => {
    if (typeof v !== 'string') return;
    try {
      const set = out.get(slot) ?? new Set<string>();
      set.add(normalizeAddress(v));
      out.set(slot, set);
    } catch {
      /* an invalid address in the settings matches nothing */
    }
  };
  add('rpc', entry.consensusHttp);
  add('rpc', entry.consensusRpc);
  add('consensusWs', entry.consensusWs);
  add('rest', entry.rest);
  add('evmRpc', entry.evmRpc);
  return out;
}

/**
 * duplicateOf: the first existing entry that has every address the candidate takes from the file.
 * Otherwise one note per address that some existing entry already uses.
 */
export function findDuplicate(slots: Partial<Record<Slot, string>>, existing: readonly Record<string, unknown>[]): { duplicateOf?: string; partial: string[] } {
  const mine = Object.entries(slots) as [Slot, string][];
  const partial: string[] = [];
  for (const e of existing) {
    if (!isRecord(e) || typeof e.name !== 'string') continue;
    const theirs = existingSlots(e);
    const shared = mine.filter(([slot, addr]) => theirs.get(slot)?.has(addr));
    if (shared.length === mine.length) return { duplicateOf: e.name, partial: [] };
    for (const [slot, addr] of shared) partial.push(l10n.t('{0} {1} is already configured in "{2}".', SLOT_LABEL[slot], addr, e.name));
  }
  return { partial };
}

/** Lower-case scheme and host, default port dropped (URL does both), trailing slashes and fragment removed. */
export function normalizeAddress(input: string | URL): string {
  const url = typeof input === 'string' ? new URL(input.trim()) : new URL(input.href);
  url.hash = '';
  url.pathname = withoutTrailingSlashes(url.pathname);
  const s = url.toString();
  // URL keeps a lone "/" path for http(s); drop it unless a query follows.
  return url.search ? s : s.replace(/\/$/, '');
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
