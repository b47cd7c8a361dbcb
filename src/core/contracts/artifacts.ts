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
import { type CodePattern, type MaskStats, checkedPattern, matchesCode } from './bytecode';

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
  /** Work units (a byte read or compared, a mask examined) between two yields to the event loop. */
  readonly sliceWork?: number;
  /** Bytes compared when matching one address's code (past it: said, and the rest not compared). */
  readonly maxCompareBytes?: number;
}

export const DEFAULT_LIMITS: ArtifactLimits = { maxFiles: 2000, maxFileBytes: 16 * 1024 * 1024, maxTotalBytes: 256 * 1024 * 1024 };
/** About 5 ms of parsing or comparing on a slow core: a decode waiting on the index never holds the host for long at a time. */
const SLICE_WORK = 1024 * 1024;
/** Also yield once a slice has run this long (a large file's parse is one step: it is bounded by maxFileBytes). */
const SLICE_MS = 10;
const MAX_COMPARE_BYTES = 16 * 1024 * 1024;
/** ABI items indexed per artifact (a real contract has a few hundred), and what hashing one counts as. */
const MAX_ABI_ITEMS = 5000;
const ITEM_WORK = 4096;

/** Said where decoding would have used the workspace's artifacts. */
export const UNTRUSTED_NOTE = 'workspace artifacts were not read: the workspace is not trusted';

export interface ArtifactIndexOptions {
  /** Whether the workspace is trusted: when it is not, no artifact is listed or read (the editor's workspace.isTrusted). */
  readonly trusted?: () => boolean;
  /** Parse files in a worker thread (the editor: a 16 MB parse never runs on the extension host's thread); in this thread when it fails. */
  readonly parseOffThread?: boolean;
}

/** The index's work counters (tests and the benchmark check the bounds with them). */
export interface ArtifactStats extends MaskStats {
  /** Bytes of code compared while matching addresses. */
  bytesCompared: number;
  /** Work units done: bytes read, masks examined, bytes compared. */
  work: number;
  /** Times the index yielded to the event loop. */
  slices: number;
  /** The longest run without yielding, in ms (the benchmark reports it; not used in tests). */
  longestSliceMs: number;
  /** Files parsed in the worker thread. */
  parsedOffThread: number;
}

export interface Artifact {
  readonly name: string;
  readonly path: string;
  readonly abi: Abi;
  /** The runtime code as a pattern to match (metadata stripped, immutables and links masked); undefined for an interface or implausible masks. */
  readonly code?: CodePattern;
  /** Why its code is not matched (its immutable or link references are not plausible). */
  readonly refused?: string;
}

/** Foundry's and Hardhat's artifact paths (build-info, .dbg.json and metadata files are not artifacts). */
export function isArtifactPath(p: string): boolean {
  const s = p.replace(/\\/g, '/');
  if (/\.dbg\.json$|\/build-info\/|\.metadata\.json$/.test(s)) return false;
  return /(^|\/)out\/[^/]+\.sol\/[^/]+\.json$/.test(s) || /(^|\/)artifacts\/contracts\/.+\.sol\/[^/]+\.json$/.test(s);
}

/** What the index keeps of an artifact file: its name, ABI, runtime code and references (counted; copied only when few). */
export interface ArtifactParts {
  readonly contractName?: string;
  readonly abi: unknown[];
  readonly object?: string;
  /** The artifact lists its immutables (Foundry): no zero-PUSH32 guess. */
  readonly exact: boolean;
  readonly masks: unknown[];
  readonly count: number;
}

/**
 * An artifact file's text to the parts the index keeps (undefined: not an artifact with an ABI).
 * Self-contained, no closure, nothing imported: its source also runs in a worker thread (the
 * editor parses there, off the extension host's thread). References are counted before any is
 * copied: 350,000 of them cost one addition per list and are never sent back.
 */
export function artifactParts(text: string): ArtifactParts | undefined {
  let j: any;
  try {
    j = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!j || typeof j !== 'object' || !Array.isArray(j.abi)) return undefined;
  const d = j.deployedBytecode;
  const object = typeof d === 'string' ? d : d && typeof d === 'object' && typeof d.object === 'string' ? d.object : undefined;
  const lists: unknown[][] = [];
  const dj = d && typeof d === 'object' ? d : undefined;
  if (dj && dj.immutableReferences && typeof dj.immutableReferences === 'object')
    for (const refs of Object.values(dj.immutableReferences)) if (Array.isArray(refs)) lists.push(refs);
  const links = (dj && dj.linkReferences) || j.deployedLinkReferences;
  if (links && typeof links === 'object')
    for (const file of Object.values(links))
      if (file && typeof file === 'object') for (const refs of Object.values(file)) if (Array.isArray(refs)) lists.push(refs);
  let count = 0;
  for (const l of lists) count += l.length;
  const few = object !== undefined && count <= object.length / 40 + 1;
  return {
    contractName: typeof j.contractName === 'string' ? j.contractName : undefined,
    abi: j.abi.filter((x: unknown) => x && typeof x === 'object'),
    object,
    exact: Boolean(dj && dj.immutableReferences !== undefined),
    masks: few ? lists.flat() : [],
    count,
  };
}

/** An artifact from its parts (the code pattern made, its references checked). */
export function artifactFrom(p: string, parts: ArtifactParts | undefined, stats?: MaskStats): Artifact | undefined {
  if (!parts) return undefined;
  const name = parts.contractName ?? path.posix.basename(p.replace(/\\/g, '/'), '.json');
  const abi = parts.abi as unknown as Abi;
  if (parts.object === undefined) return { name, path: p, abi };
  const r = checkedPattern(parts.object, parts.masks, parts.exact, stats, parts.count);
  return { name, path: p, abi, code: r.pattern, ...(r.refused ? { refused: r.refused } : {}) };
}

/** One artifact file's text read (undefined when it is not an artifact with an ABI). */
export function readArtifact(p: string, text: string, stats?: MaskStats): Artifact | undefined {
  return artifactFrom(p, artifactParts(text), stats);
}

/** Parses artifact files in a worker thread (started on first use, ended with close()); undefined answers fall back to the caller. */
class PartsWorker {
  private worker?: import('node:worker_threads').Worker;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (p: ArtifactParts | undefined) => void; reject: (e: Error) => void }>();

  parse(bytes: Uint8Array): Promise<ArtifactParts | undefined> {
    const w = this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      w.postMessage({ id, bytes });
    });
  }

  private start(): import('node:worker_threads').Worker {
    if (this.worker) return this.worker;
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    const src = `const { parentPort } = require('node:worker_threads');
const parts = ${artifactParts.toString()};
parentPort.on('message', (m) => {
  let answer;
  try { answer = { id: m.id, parts: parts(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength).toString('utf8')) }; }
  catch (e) { answer = { id: m.id, error: String(e && e.message || e) }; }
  parentPort.postMessage(answer);
});`;
    const w = new Worker(src, { eval: true });
    const fail = (err: Error) => {
      for (const p of this.waiting.values()) p.reject(err);
      this.waiting.clear();
      if (this.worker === w) this.worker = undefined;
    };
    w.on('message', (m: { id: number; parts?: ArtifactParts; error?: string }) => {
      const p = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error !== undefined) p?.reject(new Error(m.error));
      else p?.resolve(m.parts);
    });
    w.on('error', fail);
    w.on('exit', () => fail(new Error('the artifact parser stopped')));
    // Not unref'd: a process waiting on a parse must not exit under it (the worker ends after each indexing).
    this.worker = w;
    return w;
  }

  close(): void {
    const w = this.worker;
    this.worker = undefined;
    void w?.terminate();
  }
}

/**
 * The artifacts of a workspace, read on demand and refreshed when files change. The work is bounded
 * and sliced: files, bytes and masks are capped, a match compares at most maxCompareBytes, and the
 * index yields to the event loop every sliceWork units (or SLICE_MS), so the first decode waits on it
 * without holding the extension host. In an untrusted workspace nothing is listed or read.
 */
export class ArtifactIndex {
  private files = new Map<string, { file: ArtifactFile; artifact?: Artifact }>();
  private stale = true;
  private loading?: Promise<void>;
  private bySelector?: Map<string, Array<{ item: AbiEntry; artifact: Artifact }>>;
  private byLength?: Map<number, Artifact[]>;
  private sliceStart = 0;
  private worker?: PartsWorker;
  private workerFailed = false;
  private sliceWork = 0;
  /** What the last indexing had to leave out (shown with decodings). */
  notes: string[] = [];
  /** Changes each time the index is rebuilt (caches built on it compare this). */
  generation = 0;
  /** Files read since creation (tests and the benchmark check nothing is read before the first decode). */
  reads = 0;
  readonly stats: ArtifactStats = { masksExamined: 0, bytesCompared: 0, work: 0, slices: 0, longestSliceMs: 0, parsedOffThread: 0 };

  constructor(
    private readonly fs: ArtifactFiles,
    private readonly limits: ArtifactLimits = DEFAULT_LIMITS,
    private readonly options: ArtifactIndexOptions = {},
  ) {}

  /** A file changed, was created or deleted: the next use lists again (and reads what changed). */
  invalidate(): void {
    this.stale = true;
  }

  /** Why the workspace's artifacts are not read (an untrusted workspace), or undefined. */
  get withheld(): string | undefined {
    return this.options.trusted && !this.options.trusted() ? UNTRUSTED_NOTE : undefined;
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
    if (this.withheld) return [];
    return this.bySelector?.get(selector.toLowerCase()) ?? [];
  }

  /** Artifacts whose runtime code (metadata stripped) is `length` bytes. */
  async withCodeLength(length: number): Promise<readonly Artifact[]> {
    await this.ensure();
    return this.byLength?.get(length) ?? [];
  }

  /**
   * The artifacts whose code is `code` (metadata stripped): at most maxCompareBytes compared, in
   * slices; `cut` says when some artifacts of that length were not compared.
   */
  async matching(code: Uint8Array): Promise<{ matches: Artifact[]; cut?: string }> {
    await this.ensure();
    const same = this.byLength?.get(code.length) ?? [];
    const max = this.limits.maxCompareBytes ?? MAX_COMPARE_BYTES;
    const matches: Artifact[] = [];
    let compared = 0;
    this.startSlice();
    for (const [i, a] of same.entries()) {
      if (!a.code) continue;
      if (compared + a.code.length > max)
        return {
          matches,
          cut: `not all ${same.length} artifacts of ${code.length} bytes were compared (${i} were, ${Math.round(max / 1048576)} MB of code in all)`,
        };
      const before = this.stats.bytesCompared;
      if (matchesCode(a.code, code, this.stats)) matches.push(a);
      compared += this.stats.bytesCompared - before;
      await this.spend(this.stats.bytesCompared - before);
    }
    return { matches };
  }

  private ensure(): Promise<void> {
    if (this.withheld) {
      // Nothing of an untrusted workspace is kept; trust granted later lists and reads afresh.
      if (this.files.size > 0 || this.bySelector) {
        this.files = new Map();
        this.bySelector = undefined;
        this.byLength = undefined;
        this.generation++;
      }
      this.notes = [UNTRUSTED_NOTE];
      this.stale = true;
      return Promise.resolve();
    }
    if (!this.stale) return Promise.resolve();
    this.loading ??= this.reindex().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private startSlice(): void {
    this.sliceStart = performance.now();
    this.sliceWork = 0;
  }

  /** Counts work; past a slice's work or time, yields to the event loop once. */
  private async spend(units: number): Promise<void> {
    this.stats.work += units;
    this.sliceWork += units;
    const ms = performance.now() - this.sliceStart;
    if (this.sliceWork < (this.limits.sliceWork ?? SLICE_WORK) && ms < SLICE_MS) return;
    this.stats.longestSliceMs = Math.max(this.stats.longestSliceMs, ms);
    this.stats.slices++;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.startSlice();
  }

  /** A file's parts: in the worker when asked for (and working), else here. */
  private async parts(bytes: Uint8Array): Promise<ArtifactParts | undefined> {
    if (this.options.parseOffThread && !this.workerFailed) {
      try {
        this.worker ??= new PartsWorker();
        const parts = await this.worker.parse(bytes);
        this.stats.parsedOffThread++;
        this.startSlice(); // the wait was a yield: the host's own slice starts again
        return parts;
      } catch {
        this.workerFailed = true; // no worker here (or it stopped): parsed in this thread from now on
      }
    }
    return artifactParts(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  }

  private async reindex(): Promise<void> {
    try {
      await this.reindexFiles();
    } finally {
      this.worker?.close();
      this.worker = undefined;
    }
  }

  private async reindexFiles(): Promise<void> {
    this.stale = false;
    const notes: string[] = [];
    this.startSlice();
    const listed = (await this.fs.list(this.limits.maxFiles + 1)).filter((f) => isArtifactPath(f.path));
    if (listed.length > this.limits.maxFiles) notes.push(`only the first ${this.limits.maxFiles} artifact files were read`);
    const next = new Map<string, { file: ArtifactFile; artifact?: Artifact }>();
    let total = 0;
    for (const file of listed.slice(0, this.limits.maxFiles)) {
      const old = this.files.get(file.path);
      if (old && old.file.size === file.size && old.file.mtime === file.mtime) {
        next.set(file.path, old);
        total += file.size;
        if (old.artifact?.refused) notes.push(`${file.path}: ${old.artifact.refused}: its code is not matched`);
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
        const masksBefore = this.stats.masksExamined;
        const artifact = artifactFrom(file.path, await this.parts(bytes), this.stats);
        next.set(file.path, { file, artifact });
        if (artifact?.refused) notes.push(`${file.path}: ${artifact.refused}: its code is not matched`);
        await this.spend(bytes.length + this.stats.masksExamined - masksBefore);
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
      if (artifact.abi.length > MAX_ABI_ITEMS)
        notes.push(`${artifact.path}: only the first ${MAX_ABI_ITEMS} of its ${artifact.abi.length} ABI items were indexed`);
      for (const item of artifact.abi.slice(0, MAX_ABI_ITEMS)) {
        await this.spend(ITEM_WORK);
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
