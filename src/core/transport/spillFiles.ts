// The policy for answers written to the extension's storage (bodies past maxDocumentMegabytes,
// reassembled genesis files): a file is deleted when its document is closed; at activation and
// after each new file, `.partial` leftovers older than an hour (a transfer of a window that died)
// and files older than a week are deleted, then the oldest until the rest fits the total budget.
// Never imports vscode.

import { promises as fs } from 'node:fs';
import path = require('node:path');

export const SPILL_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
export const PARTIAL_MAX_AGE_MS = 3600 * 1000;
export const SPILL_BUDGET_BYTES = 2 * 1024 * 1024 * 1024;

export interface SweepOptions {
  now?: number;
  maxAgeMs?: number;
  partialMaxAgeMs?: number;
  budgetBytes?: number;
  /** Files in use (open documents, a transfer that just finished): never deleted by the budget. */
  keep?: ReadonlySet<string>;
}

/** Applies the policy to `dir`; the files deleted. Never throws (a missing directory is empty). */
export async function sweepSpillDir(dir: string, options: SweepOptions = {}): Promise<string[]> {
  const now = options.now ?? Date.now();
  const maxAge = options.maxAgeMs ?? SPILL_MAX_AGE_MS;
  const partialAge = options.partialMaxAgeMs ?? PARTIAL_MAX_AGE_MS;
  const budget = options.budgetBytes ?? SPILL_BUDGET_BYTES;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const files: { file: string; size: number; mtime: number; partial: boolean }[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const st = await fs.stat(file);
      if (st.isFile()) files.push({ file, size: st.size, mtime: st.mtimeMs, partial: name.endsWith('.partial') });
    } catch {
      // gone meanwhile
    }
  }
  const deleted: string[] = [];
  const remove = async (file: string) => {
    await fs.rm(file, { force: true }).catch(() => undefined);
    deleted.push(file);
  };
  const kept: typeof files = [];
  for (const f of files) {
    if (options.keep?.has(f.file)) kept.push(f);
    else if (now - f.mtime > (f.partial ? partialAge : maxAge)) await remove(f.file);
    else kept.push(f);
  }
  let total = kept.reduce((n, f) => n + f.size, 0);
  for (const f of kept.sort((a, b) => a.mtime - b.mtime)) {
    if (total <= budget) break;
    if (f.partial || options.keep?.has(f.file)) continue;
    await remove(f.file);
    total -= f.size;
  }
  return deleted;
}
