// Provider picks that say what each provider is worth right now and remember the last choice:
// a Prompts wrapper that, for items carrying a `provider`, adds the provider's state and height
// (from the health rows, for the request's interface when known) to the description and moves the
// provider picked last (kept across restarts: ../pickMemory.ts) to the top of its group (after a "best provider" item). No vscode import:
// unit-tested with scripted prompts.

import * as l10n from '../../core/base/l10n';
import { formatHeight } from '../../core/base/numbers';
import type { InterfaceId } from '../../core/config/providers';
import type { HealthState, InterfaceHealth } from '../../core/health/model';
import { lastUsedProvider, setLastUsedProvider } from '../base/pickMemory';
import type { PickItem, Prompts } from '../base/prompts';

function stateText(state: HealthState): string {
  switch (state) {
    case 'unknown':
      return l10n.t('not probed');
    case 'healthy':
      return l10n.t('healthy');
    case 'lagging':
      return l10n.t('lagging');
    case 'down':
      return l10n.t('down');
    case 'wrongChain':
      return l10n.t('wrong chain');
    case 'rateLimited':
      return l10n.t('rate-limited');
    case 'suspect':
      return l10n.t('suspect height');
    case 'stale':
      return l10n.t('stale');
  }
}

/** `healthy · #1,234` for one interface; `4/6 healthy · #1,234` (or `down`) for a whole provider. */
export function providerState(rows: readonly InterfaceHealth[], provider: string, iface?: InterfaceId): string | undefined {
  const mine = rows.filter((r) => r.provider === provider && (iface === undefined || r.iface === iface));
  if (mine.length === 0) return undefined;
  const heights = mine.map((r) => r.last?.height).filter((h): h is bigint => h !== undefined);
  const top = heights.length ? heights.reduce((a, b) => (a > b ? a : b)) : undefined;
  let state: string;
  if (mine.length === 1 || mine.every((r) => r.state === mine[0].state)) state = stateText(mine[0].state);
  else state = l10n.t('{0}/{1} healthy', mine.filter((r) => r.state === 'healthy').length, mine.length);
  return top === undefined ? state : `${state} · #${formatHeight(top)}`;
}

/** A shown copy's original item. */
const ORIGINAL = new WeakMap<object, object>();

type ProviderItem = PickItem & { provider: { name: string }; among?: unknown };

function isProviderItem(i: PickItem): i is ProviderItem {
  const p = (i as { provider?: unknown }).provider;
  return typeof p === 'object' && p !== null && typeof (p as { name?: unknown }).name === 'string';
}

/** The items as the pick shows them: state and height added, the last used first in its group. */
export function decorateProviderItems<T extends PickItem>(
  items: readonly T[],
  rows: readonly InterfaceHealth[],
  iface?: InterfaceId,
  last = lastUsedProvider(),
): T[] {
  const out = items.map((i) => {
    if (!isProviderItem(i) || i.among !== undefined) return i;
    const state = providerState(rows, i.provider.name, iface);
    const parts = [i.provider.name === last ? l10n.t('last used') : undefined, state, i.description].filter(Boolean);
    const copy = { ...i, description: parts.join(' · ') };
    ORIGINAL.set(copy, i);
    return copy;
  });
  const at = out.findIndex((i) => isProviderItem(i) && i.among === undefined && i.provider.name === last);
  if (at <= 0) return out;
  const [item] = out.splice(at, 1);
  // The top of its group: after the group's "best" item, before its first provider.
  let to = out.findIndex((i) => i.group === item.group);
  if (to < 0) to = 0;
  const isBest = (i: PickItem) => isProviderItem(i) && i.among !== undefined;
  while (to < out.length && out[to].group === item.group && isBest(out[to])) to++;
  out.splice(to, 0, item);
  return out;
}

/** `base` with provider picks decorated (decorateProviderItems) and the choice remembered. */
export function providerPrompts(base: Prompts, rows: () => readonly InterfaceHealth[], iface?: InterfaceId): Prompts {
  return {
    ...base,
    pick: async (items, options) => {
      if (!items.some(isProviderItem)) return base.pick(items, options);
      const shown = decorateProviderItems(items, rows(), iface);
      const picked = await base.pick(shown, options);
      if (picked && isProviderItem(picked) && picked.among === undefined) setLastUsedProvider(picked.provider.name);
      // The caller's own item (the shown one is a copy with a longer description).
      return picked && ((ORIGINAL.get(picked) as typeof picked | undefined) ?? picked);
    },
  };
}
