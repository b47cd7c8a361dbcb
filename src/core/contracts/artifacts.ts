// The workspace's build artifacts: Foundry `out/<File>.sol/<Contract>.json` (abi,
// deployedBytecode.object with immutableReferences and linkReferences, methodIdentifiers) and
// Hardhat `artifacts/contracts/**/<Contract>.json` (abi, deployedBytecode as a string; build-info
// and .dbg.json skipped). Nothing is read until the first decode asks; then the listing and each
// file are bounded (count, size of a file, total), and a file is read again only when its size or
// time changed. The editor lists and reads through a FileSystemWatcher-refreshed listing; the CLI and
// tests through node:fs (nodeArtifactFiles).

import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Abi } from 'viem';
import { type AbiEntry, selectorOf } from './builtin';
import { type CodePattern, codePattern } from './bytecode';

export interface ArtifactFile {
  /** As the lister names it (workspace-relative in the editor, shown in decodings). */
  readonly path: string;
  readonly size: number;
  readonly mtime: number;
}

/** How the index lists and reads files: the editor's workspace.fs, or node:fs. */
export interface ArtifactFiles {
  /** Candidate artifact files (at most `limit`). */
  list(limit: number): Promise<readonly ArtifactFile[]>;
  read(path: string): Promise<Uint8Array>;
}

export interface ArtifactLimits {
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
}

export const DEFAULT_LIMITS: ArtifactLimits = { maxFiles: 2000, maxFileBytes: 16 * 1024 * 1024, maxTotalBytes: 256 * 1024 * 1024 };

export interface Artifact {
  readonly name: string;
  readonly path: string;
  readonly abi: Abi;
  /** The runtime code as a pattern to match (metadata stripped, immutables and links masked); undefined for an interface. */
  readonly code?: CodePattern;
}

/** Foundry's and Hardhat's artifact paths (build-info, .dbg.json and metadata files are not artifacts). */
export function isArtifactPath(p: string): boolean {
  const s = p.replace(/\\/g, '/');
  if (/\.dbg\.json$|\/build-info\/|\.metadata\.json$/.test(s)) return false;
  return /(^|\/)out\/[^/]+\.sol\/[^/]+\.json$/.test(s) || /(^|\/)artifacts\/contracts\/.+\.sol\/[^/]+\.json$/.test(s);
}

type Json = Record<string, any>;

/** One artifact file's text read (undefined when it is not an artifact with an ABI). */
export function readArtifact(p: string, text: string): Artifact | undefined {
  let j: Json;
  try {
    j = JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
  if (!j || typeof j !== 'object' || !Array.isArray(j.abi)) return undefined;
  const base = path.posix.basename(p.replace(/\\/g, '/'), '.json');
  const name = typeof j.contractName === 'string' ? j.contractName : base;
  const d = j.deployedBytecode;
  const object: unknown = typeof d === 'string' ? d : d?.object;
  const masks: Array<{ start: number; length: number }> = [];
  for (const refs of Object.values((d?.immutableReferences ?? {}) as Record<string, unknown>)) if (Array.isArray(refs)) masks.push(...(refs as typeof masks));
  const links = (d?.linkReferences ?? j.deployedLinkReferences ?? {}) as Record<string, Record<string, unknown>>;
  for (const file of Object.values(links)) for (const refs of Object.values(file ?? {})) if (Array.isArray(refs)) masks.push(...(refs as typeof masks));
  const code = typeof object === 'string' ? codePattern(object, masks, d?.immutableReferences !== undefined) : undefined;
  return { name, path: p, abi: (j.abi as Abi).filter((x) => x && typeof x === 'object'), code };
}

/** The artifacts of a workspace, read on demand and refreshed when files change. */
export class ArtifactIndex {
  private files = new Map<string, { file: ArtifactFile; artifact?: Artifact }>();
  private stale = true;
  private loading?: Promise<void>;
  private bySelector?: Map<string, Array<{ item: AbiEntry; artifact: Artifact }>>;
  private byLength?: Map<number, Artifact[]>;
  /** What the last indexing had to leave out (shown with decodings). */
  notes: string[] = [];
  /** Changes each time the index is rebuilt (caches built on it compare this). */
  generation = 0;
  /** Files read since creation (tests and the benchmark check nothing is read before the first decode). */
  reads = 0;

  constructor(
    private readonly fs: ArtifactFiles,
    private readonly limits: ArtifactLimits = DEFAULT_LIMITS,
  ) {}

  /** A file changed, was created or deleted: the next use lists again (and reads what changed). */
  invalidate(): void {
    this.stale = true;
  }

  async artifacts(): Promise<readonly Artifact[]> {
    await this.ensure();
    return [...this.files.values()].flatMap((f) => (f.artifact ? [f.artifact] : []));
  }

  /** Items of any artifact's ABI with this selector or topic0, with their artifact. */
  async bySelectorOf(selector: string): Promise<ReadonlyArray<{ item: AbiEntry; artifact: Artifact }>> {
    await this.ensure();
    return this.bySelector?.get(selector.toLowerCase()) ?? [];
  }

  /** What is already indexed for a selector (no listing, no read: hovers). */
  peekSelector(selector: string): ReadonlyArray<{ item: AbiEntry; artifact: Artifact }> {
    return this.bySelector?.get(selector.toLowerCase()) ?? [];
  }

  /** Artifacts whose runtime code (metadata stripped) is `length` bytes. */
  async withCodeLength(length: number): Promise<readonly Artifact[]> {
    await this.ensure();
    return this.byLength?.get(length) ?? [];
  }

  private ensure(): Promise<void> {
    if (!this.stale) return Promise.resolve();
    this.loading ??= this.reindex().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async reindex(): Promise<void> {
    this.stale = false;
    const notes: string[] = [];
    const listed = (await this.fs.list(this.limits.maxFiles + 1)).filter((f) => isArtifactPath(f.path));
    if (listed.length > this.limits.maxFiles) notes.push(`only the first ${this.limits.maxFiles} artifact files were read`);
    const next = new Map<string, { file: ArtifactFile; artifact?: Artifact }>();
    let total = 0;
    for (const file of listed.slice(0, this.limits.maxFiles)) {
      const old = this.files.get(file.path);
      if (old && old.file.size === file.size && old.file.mtime === file.mtime) {
        next.set(file.path, old);
        total += file.size;
        continue;
      }
      if (file.size > this.limits.maxFileBytes) {
        notes.push(`${file.path} is larger than ${Math.round(this.limits.maxFileBytes / 1048576)} MB: not read`);
        continue;
      }
      if (total + file.size > this.limits.maxTotalBytes) {
        notes.push(`artifacts past ${Math.round(this.limits.maxTotalBytes / 1048576)} MB in all were not read`);
        break;
      }
      total += file.size;
      try {
        const bytes = await this.fs.read(file.path);
        this.reads++;
        next.set(file.path, { file, artifact: readArtifact(file.path, Buffer.from(bytes).toString('utf8')) });
      } catch (err) {
        notes.push(`${file.path}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.files = next;
    this.notes = notes;
    const bySelector = new Map<string, Array<{ item: AbiEntry; artifact: Artifact }>>();
    const byLength = new Map<number, Artifact[]>();
    for (const { artifact } of next.values()) {
      if (!artifact) continue;
      for (const item of artifact.abi) {
        if (item.type !== 'function' && item.type !== 'event' && item.type !== 'error') continue;
        let sel: string;
        try {
          sel = selectorOf(item);
        } catch {
          continue; // an item viem cannot read: skipped
        }
        const list = bySelector.get(sel) ?? [];
        list.push({ item, artifact });
        bySelector.set(sel, list);
      }
      if (artifact.code && artifact.code.length > 0) {
        const list = byLength.get(artifact.code.length) ?? [];
        list.push(artifact);
        byLength.set(artifact.code.length, list);
      }
    }
    this.bySelector = bySelector;
    this.byLength = byLength;
    this.generation++;
  }
}

const SKIP_DIRS = new Set(['node_modules', '.git', 'lib', 'cache']);

/** Artifact files under `root` through node:fs (the CLI, tests): `out/` and `artifacts/contracts/` folders, at most a few levels down. */
export function nodeArtifactFiles(root: string): ArtifactFiles {
  return {
    async list(limit) {
      const found: ArtifactFile[] = [];
      const walk = async (dir: string, depth: number): Promise<void> => {
        if (found.length >= limit || depth > 8) return;
        let entries: import('node:fs').Dirent[];
        try {
          entries = await fsp.readdir(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const e of entries) {
          if (found.length >= limit) return;
          const full = path.join(dir, e.name);
          const rel = path.relative(root, full).split(path.sep).join('/');
          if (e.isDirectory()) {
            if (!SKIP_DIRS.has(e.name) && e.name !== 'build-info') await walk(full, depth + 1);
          } else if (e.isFile() && isArtifactPath(rel)) {
            const st = await fsp.stat(full);
            found.push({ path: rel, size: st.size, mtime: st.mtimeMs });
          }
        }
      };
      await walk(root, 0);
      return found;
    },
    read: (p) => fsp.readFile(path.join(root, p)),
  };
}
