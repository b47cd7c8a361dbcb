// Every page of a paged module route (query files' `page: all`): follows `pagination.next_key`
// with the same request, bounded by a number of pages and of items (a page's items past the bound
// are left out, whatever its size; a next_key already followed ends it, said), and merges the pages into one answer (the list field
// concatenated, the last page's pagination). Each page goes through execute() like any request
// (timeouts, caps, cancellation).

import * as l10n from '../base/l10n';
import { type ExecuteOptions, type Outcome, execute } from './execute';
import type { Args, Operation } from './operation';
import type { Provider } from '../config/providers';

export const MAX_PAGES = 100;
export const DEFAULT_PAGES = 20;
export const MAX_ITEMS = 10_000;

export interface AllPages {
  /** The last page's outcome (an error stops at that page). */
  outcome: Outcome;
  /** The merged answer (undefined when the first page failed). */
  result?: unknown;
  pages: number;
  items: number;
  /** More pages were left (the page or item bound was reached). */
  truncated: boolean;
  summary: string;
}

/** Runs `op` and its next pages, at most `maxPages` pages and MAX_ITEMS items. */
export async function fetchAllPages(provider: Provider, op: Operation, args: Args, options: ExecuteOptions, maxPages = DEFAULT_PAGES): Promise<AllPages> {
  let outcome = await execute(provider, op, args, options);
  if (outcome.error || !op.nextPage)
    return { outcome, result: outcome.error ? undefined : outcome.result, pages: 1, items: 0, truncated: false, summary: outcome.summary ?? '' };
  const first = outcome.result as Record<string, unknown>;
  const field = Object.keys(first ?? {}).find((k) => Array.isArray(first[k]));
  const list: unknown[] = [];
  /** Items a page had past MAX_ITEMS (left out). */
  let left = field ? append(list, first[field] as unknown[]) : 0;
  let pages = 1;
  let last = first;
  // The keys followed: a key again (the same next_key forever, a cycle) would merge a page twice.
  const followed = new Set<string>();
  let repeated = false;
  while (outcome.nextPage && pages < Math.min(maxPages, MAX_PAGES) && list.length < MAX_ITEMS) {
    const key = JSON.stringify(outcome.nextPage);
    if (followed.has(key)) {
      repeated = true;
      break;
    }
    followed.add(key);
    outcome = await execute(provider, op, outcome.nextPage, options);
    pages++;
    if (outcome.error) break;
    last = outcome.result as Record<string, unknown>;
    if (field && Array.isArray(last?.[field])) left += append(list, last[field] as unknown[]);
  }
  const truncated = !outcome.error && (Boolean(outcome.nextPage) || left > 0);
  const result = field ? { ...first, [field]: list, pagination: last?.pagination ?? null } : last;
  const summary = repeated
    ? l10n.t('{0} {1} over {2} pages (stopped: the next page key repeats an earlier one)', list.length, field ?? '', pages)
    : truncated
      ? l10n.t('{0} {1} over {2} pages (stopped: more pages left)', list.length, field ?? '', pages)
      : l10n.t('{0} {1} over {2} pages', list.length, field ?? '', pages);
  return { outcome, result: outcome.error ? undefined : result, pages, items: list.length, truncated, summary };
}

/**
 * Appends a page's items to `list`, up to MAX_ITEMS in all, one by one (a spread `push(...page)`
 * passes every item as an argument: "Maximum call stack size exceeded" at 200,000). Returns how
 * many were left out.
 */
function append(list: unknown[], page: readonly unknown[]): number {
  const take = Math.max(0, Math.min(page.length, MAX_ITEMS - list.length));
  for (let i = 0; i < take; i++) list.push(page[i]);
  return page.length - take;
}
