// Where an ABI comes from, in order, each decoding naming its source. For an address: an entry of
// the user's `chainEndpoints.contracts` (a workspace artifact never outranks it), then its runtime
// code matched to exactly one workspace artifact (eth_getCode at the block in question, cached per
// network; ambiguous or no match is said and falls through), then a Cosmos EVM precompile. For a
// selector or topic0 the address's ABI did not decode: the standard ERC ABIs, then guesses by
// selector, each marked guessed and naming no contract (a log's emitter is its address, not a
// workspace contract that happens to have the event): the bundled table, then any workspace artifact.

import type { Abi, AbiFunction } from 'viem';
import { type AbiEntry, precompileAt, selectorOf, tableItems } from './builtin';
import { type ArtifactIndex } from './artifacts';
import { runtimeCode } from './bytecode';
import { type Candidate, decodeErrorWith, decodeInputWith, decodeLogWith, functionWith } from './decode';
import type { AddressName, Decoded, KnownContract } from './types';
import { isEvmAddress } from '../base/text';

/** An entry of `chainEndpoints.contracts`: an ABI (a workspace path, or the ABI itself) attached to an address. */
export interface ContractSetting {
  readonly address: string;
  readonly abi: string | Abi;
  readonly name: string;
  /** Only on this network (its name or chain id); any network when absent. */
  readonly network?: string;
}

export interface ResolveContext {
  /** The network (or provider) the address lives on: the cache's key, and settings' `network`. */
  readonly network?: string;
  /** eth_getCode: the code at `address` at `block` (0x hex), or undefined when it cannot be read. */
  readonly getCode?: (address: string, block: string) => Promise<string | undefined>;
  /** The block in question (0x quantity or a tag); latest when absent. */
  readonly block?: string;
  /** Where to say what could not be matched (once per address). */
  readonly notes?: string[];
}

/**
 * `ctx` at `block`, built key by key: a spread of a caller's context is V8's slow clone (half of a
 * simulation's own time on the eth_call engine). Every key is listed, so a new one is a compile error here.
 */
export function atBlock(ctx: ResolveContext, block: string | undefined): ResolveContext {
  const at: { [K in keyof Required<ResolveContext>]: ResolveContext[K] } = { network: ctx.network, getCode: ctx.getCode, block, notes: ctx.notes };
  return at;
}

export interface RegistryOptions {
  readonly artifacts?: ArtifactIndex;
  /** The entries of `chainEndpoints.contracts`: the same list object while they are unchanged (it is indexed once per list), a new one when they change. */
  readonly settings?: () => readonly ContractSetting[];
  /** Reads a file named by a setting's `abi`. */
  readonly readFile?: (path: string) => Promise<Uint8Array>;
  /** The size of that file, asked before reading it (a file past MAX_ABI_FILE_BYTES is never read). */
  readonly fileSize?: (path: string) => Promise<number>;
}

/** A setting's ABI file is read only when it is at most this large. */
export const MAX_ABI_FILE_BYTES = 16 * 1024 * 1024;

type Match = { contract?: KnownContract; note?: string };

const MAX_CACHED = 5000;

/** The code-match cache's key: a network and an address. */
function matchKey(network: string | undefined, address: string): string {
  return `${network ?? ''}|${address.toLowerCase()}`;
}

const MAX_INDEX_NOTES = 10;

function itemsBySelector(abi: Abi): Map<string, AbiEntry[]> {
  const map = new Map<string, AbiEntry[]>();
  for (const item of abi) {
    if (item.type !== 'function' && item.type !== 'event' && item.type !== 'error') continue;
    try {
      const sel = selectorOf(item);
      const list = map.get(sel) ?? [];
      list.push(item);
      map.set(sel, list);
    } catch {
      // an item viem cannot read is skipped
    }
  }
  return map;
}

/**
 * What a selector or topic0 may be when the address's own ABI does not say: the standard ERC ABIs
 * (named as the standard), then guesses by selector, each marked guessed and naming no contract:
 * the bundled table, then the workspace's artifacts (a colliding selector there never outranks them).
 */
function fallbacks(selector: string, inArtifacts: ReadonlyArray<{ item: AbiEntry; artifact: { name: string; path: string } }>): Candidate[] {
  const standards: Candidate[] = [];
  const guesses: Candidate[] = [];
  for (const t of tableItems(selector)) {
    if (/^ERC-/.test(t.origin)) standards.push({ item: t.item, contract: t.origin, source: { kind: 'standard', label: `standard ${t.origin} ABI` } });
    else guesses.push({ item: t.item, source: { kind: 'signatures', label: `guessed from its selector (bundled table: ${t.origin})` } });
  }
  for (const { item, artifact } of inArtifacts)
    guesses.push({ item, source: { kind: 'artifact', label: `guessed from its selector (workspace artifact ${artifact.path})`, path: artifact.path } });
  return [...standards, ...guesses];
}

/** A call's input (a selector at least) against the candidates for its selector: decoded, or unknown saying so. */
export function decodeCallAgainst(input: string, candidates: readonly Candidate[], contract: KnownContract | undefined): Decoded {
  return (
    decodeInputWith(input, candidates) ?? {
      kind: 'unknown',
      selector: input.slice(0, 10).toLowerCase(),
      ...(contract ? { contract: contract.name, source: contract.source.label } : {}),
      note: 'no known ABI has this selector',
    }
  );
}

export class ContractRegistry {
  private readonly matched = new Map<string, Match>();
  private readonly selectors = new WeakMap<Abi, Map<string, AbiEntry[]>>();
  private readonly settingAbis = new Map<string, Promise<Abi | string>>();
  /** Candidates by selector: without a contract, and per contract ABI (both forgotten when the artifacts change). */
  private readonly cached = new Map<string, Candidate[]>();
  private cachedFor = new WeakMap<Abi, Map<string, Candidate[]>>();
  private cachedGeneration = 0;
  /** The settings by lower-case address, for the list `settings()` gave last. */
  private settingsIndex: { readonly of: readonly ContractSetting[]; readonly byAddress: Map<string, ContractSetting[]> } | undefined;
  private readonly settingContracts = new WeakMap<ContractSetting, KnownContract>();

  constructor(private readonly opts: RegistryOptions = {}) {}

  get artifacts(): ArtifactIndex | undefined {
    return this.opts.artifacts;
  }

  /** Artifacts or settings changed: matches and read ABI files are forgotten. */
  invalidate(): void {
    this.matched.clear();
    this.cached.clear();
    this.cachedFor = new WeakMap();
    this.settingAbis.clear();
    this.opts.artifacts?.invalidate();
  }

  /** What an address is known as without a request: a match already made, a setting, a precompile. */
  nameOf(address: string, network?: string): AddressName | undefined {
    if (!isEvmAddress(address)) return undefined;
    const s = this.settingFor(address, network);
    if (s) return { name: s.name, source: 'chainEndpoints.contracts' };
    const m = this.matched.get(matchKey(network, address))?.contract;
    if (m) return { name: m.name, source: m.source.label };
    const p = precompileAt(address);
    return p && { name: p.name, source: p.source.label };
  }

  /** The contract at `address`: a setting, else its code matched to one artifact, else a precompile. */
  async contractAt(address: string | undefined, ctx: ResolveContext = {}): Promise<KnownContract | undefined> {
    const artifacts = this.opts.artifacts;
    if (artifacts && ctx.notes) {
      // What indexing left out or refused (an untrusted workspace, a file too large, implausible masks), said where it is used.
      await artifacts.artifacts();
      for (const n of artifacts.notes.slice(0, MAX_INDEX_NOTES)) this.note(ctx, n);
      if (artifacts.notes.length > MAX_INDEX_NOTES) this.note(ctx, `… and ${artifacts.notes.length - MAX_INDEX_NOTES} more about workspace artifacts`);
    }
    const now = this.knownNow(address, ctx);
    if (now) return now.contract;
    // Asked of a file or of the node: `address` is an address (knownNow answered for anything else).
    const a = address as string;
    const s = this.settingFor(a, ctx.network);
    if (s) {
      const abi = await this.settingAbi(s);
      if (typeof abi !== 'string') return this.settingContract(s, abi);
      this.note(ctx, `${a}: chainEndpoints.contracts entry "${s.name}": ${abi}`);
    }
    return (await this.matchCode(a, ctx)) ?? precompileAt(a);
  }

  /**
   * contractAt()'s answer when it needs nothing read (a setting with its ABI inline, a code match
   * already made, no artifacts to match): `{ contract }`; undefined when a file, the index or the node
   * must be asked. A simulation or a call prepared this way goes out without waiting a turn.
   */
  contractAtNow(address: string | undefined, ctx: ResolveContext = {}): { readonly contract: KnownContract | undefined } | undefined {
    // The index's notes are said first, and that waits for the index.
    if (this.opts.artifacts && ctx.notes) return undefined;
    return this.knownNow(address, ctx);
  }

  private knownNow(address: string | undefined, ctx: ResolveContext): { readonly contract: KnownContract | undefined } | undefined {
    if (!address || !isEvmAddress(address)) return { contract: undefined };
    const s = this.settingFor(address, ctx.network);
    // An ABI given in the setting is there already; one in a file is read (and its failure said) by contractAt().
    if (s) return Array.isArray(s.abi) ? { contract: this.settingContract(s, s.abi as Abi) } : undefined;
    const m = this.matchNow(address, ctx);
    return m && { contract: m.contract ?? precompileAt(address) };
  }

  /**
   * The contract addresses known without a request on `network` (the account page's token candidates):
   * the settings' entries, then the code matches already made (workspace artifacts), at most `max`;
   * each with its ABI when it is known without reading a file.
   */
  knownAddresses(network?: string, max = 50): Array<{ address: string; name: string; abi?: Abi }> {
    const n = network?.toLowerCase();
    const out: Array<{ address: string; name: string; abi?: Abi }> = [];
    for (const s of this.opts.settings?.() ?? []) {
      if (typeof s.address === 'string' && isEvmAddress(s.address) && (!s.network || s.network.toLowerCase() === n))
        out.push({ address: s.address, name: String(s.name), abi: Array.isArray(s.abi) ? (s.abi as Abi) : undefined });
    }
    for (const [key, m] of this.matched) {
      const [net, address] = key.split('|');
      if (m.contract && net === (network ?? '') && isEvmAddress(address)) out.push({ address, name: m.contract.name, abi: m.contract.abi });
    }
    return out.slice(0, max);
  }

  private note(ctx: ResolveContext, text: string): void {
    if (ctx.notes && !ctx.notes.includes(text)) ctx.notes.push(text);
  }

  private settingFor(address: string, network?: string): ContractSetting | undefined {
    const all = this.opts.settings?.();
    if (!all || all.length === 0) return undefined;
    // Indexed by address once per list: the editor's list stays the same object until the settings change.
    let index = this.settingsIndex;
    if (index?.of !== all) {
      const byAddress = new Map<string, ContractSetting[]>();
      for (const e of all) {
        if (typeof e.address !== 'string') continue;
        const key = e.address.toLowerCase();
        const list = byAddress.get(key);
        if (list) list.push(e);
        else byAddress.set(key, [e]);
      }
      this.settingsIndex = index = { of: all, byAddress };
    }
    const entries = index.byAddress.get(address.toLowerCase());
    if (!entries) return undefined;
    const n = network?.toLowerCase();
    for (const e of entries) if (!e.network || e.network.toLowerCase() === n) return e;
    return undefined;
  }

  /** A setting's contract, made once per entry (an ABI is never changed once read). */
  private settingContract(s: ContractSetting, abi: Abi): KnownContract {
    let c = this.settingContracts.get(s);
    if (c === undefined || c.abi !== abi) {
      const path = typeof s.abi === 'string' ? s.abi : undefined;
      c = { name: s.name, abi, source: { kind: 'setting', label: `chainEndpoints.contracts (${path ?? 'ABI in the setting'})`, path } };
      this.settingContracts.set(s, c);
    }
    return c;
  }

  /** A setting's ABI, or the sentence saying why it cannot be read. */
  private settingAbi(s: ContractSetting): Promise<Abi | string> {
    if (Array.isArray(s.abi)) return Promise.resolve(s.abi);
    const file = String(s.abi);
    let p = this.settingAbis.get(file);
    if (!p) {
      p = (async (): Promise<Abi | string> => {
        if (!this.opts.readFile) return 'no workspace to read the ABI file from';
        const tooLarge = `${file} is larger than ${MAX_ABI_FILE_BYTES / 1048576} MB: not read`;
        try {
          // Its size first: a 300 MB file is refused without being read.
          if (this.opts.fileSize && (await this.opts.fileSize(file)) > MAX_ABI_FILE_BYTES) return tooLarge;
          const bytes = await this.opts.readFile(file);
          if (bytes.length > MAX_ABI_FILE_BYTES) return tooLarge;
          const j = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
          const abi = Array.isArray(j) ? j : (j as { abi?: unknown })?.abi;
          return Array.isArray(abi) ? (abi as Abi) : `${file} has no ABI (an array, or an object with "abi")`;
        } catch (err) {
          return `${file}: ${err instanceof Error ? err.message : String(err)}`;
        }
      })();
      this.settingAbis.set(file, p);
    }
    return p;
  }

  /** The code match when no request is needed (one made already, or none possible: `{}`); undefined when the node must be asked. */
  private matchNow(address: string, ctx: ResolveContext): { readonly contract?: KnownContract } | undefined {
    const artifacts = this.opts.artifacts;
    // An untrusted workspace: not even its code is asked for, and nothing is kept (trust may come later).
    if (!artifacts || artifacts.withheld || !ctx.getCode || precompileAt(address)) return {};
    const m = this.matched.get(matchKey(ctx.network, address));
    if (m?.note) this.note(ctx, m.note);
    return m;
  }

  private async matchCode(address: string, ctx: ResolveContext): Promise<KnownContract | undefined> {
    const known = this.matchNow(address, ctx);
    if (known) return known.contract;
    const artifacts = this.opts.artifacts!;
    const getCode = ctx.getCode!;
    const hex = await getCode(address, ctx.block ?? 'latest');
    const code = hex === undefined ? undefined : runtimeCode(hex);
    if (!code) return undefined; // no code (yet), or it could not be read: nothing kept
    const { matches: same, cut } = await artifacts.matching(code);
    if (cut) this.note(ctx, `${address}: ${cut}`);
    // The same contract built twice (two output folders) is one match.
    const distinct = [...new Map(same.map((a) => [`${a.name}|${JSON.stringify(a.abi)}`, a])).values()];
    let m: Match;
    if (distinct.length === 1) {
      const a = distinct[0];
      m = {
        contract: { name: a.name, abi: a.abi, source: { kind: 'bytecode', label: `workspace artifact ${a.path} (runtime code matched)`, path: a.path } },
      };
    } else if (distinct.length > 1) {
      m = {
        note: `${address}: its code matches ${distinct.length} artifacts (${distinct
          .slice(0, 4)
          .map((a) => a.path)
          .join(', ')}): ambiguous, not used`,
      };
    } else {
      m = { note: `${address}: its code matches no workspace artifact` };
    }
    if (this.matched.size >= MAX_CACHED) this.matched.delete(this.matched.keys().next().value as string);
    this.matched.set(matchKey(ctx.network, address), m);
    if (m.note) this.note(ctx, m.note);
    return m.contract;
  }

  /** The candidates for a selector or topic0, in order: the address's ABI, then fallbacks() (kept per contract and selector until the artifacts change). */
  private async candidates(selector: string, contract: KnownContract | undefined): Promise<Candidate[]> {
    const artifacts = this.opts.artifacts;
    if (artifacts) await artifacts.bySelectorOf(selector); // brings the index up to date (a no-op while nothing changed)
    const generation = artifacts?.generation ?? 0;
    if (generation !== this.cachedGeneration) {
      this.cached.clear();
      this.cachedFor = new WeakMap();
      this.cachedGeneration = generation;
    }
    const byContract = contract ? (this.cachedFor.get(contract.abi) ?? new Map<string, Candidate[]>()) : this.cached;
    let list = byContract.get(selector);
    if (!list) {
      list = await this.buildCandidates(selector, contract);
      if (byContract.size >= MAX_CACHED) byContract.clear();
      byContract.set(selector, list);
      if (contract && !this.cachedFor.has(contract.abi)) this.cachedFor.set(contract.abi, byContract);
    }
    return list;
  }

  private async buildCandidates(selector: string, contract: KnownContract | undefined): Promise<Candidate[]> {
    const out: Candidate[] = [];
    if (contract) {
      let map = this.selectors.get(contract.abi);
      if (!map) this.selectors.set(contract.abi, (map = itemsBySelector(contract.abi)));
      for (const item of map.get(selector) ?? []) out.push({ item, contract: contract.name, source: contract.source });
    }
    out.push(...fallbacks(selector, (await this.opts.artifacts?.bySelectorOf(selector)) ?? []));
    return out;
  }

  /** A call's input to `to` (undefined: a creation, not decoded). */
  async decodeCall(input: string | undefined, to: string | undefined, ctx: ResolveContext = {}): Promise<Decoded> {
    if (!input || input === '0x') return { kind: 'unknown', note: 'no input (a plain transfer)' };
    if (!/^0x[0-9a-fA-F]{8}/.test(input)) return { kind: 'unknown', note: 'input shorter than a selector' };
    const selector = input.slice(0, 10).toLowerCase();
    const contract = await this.contractAt(to, ctx);
    return decodeCallAgainst(input, await this.candidates(selector, contract), contract);
  }

  /**
   * What decodeCall() and functionFor() read for a selector sent to `to`: its candidates and the
   * contract at `to` (a trace asks once per distinct (to, selector), then decodes every frame with
   * decodeCallAgainst() and functionWith() without a request or an await).
   */
  async callCandidates(selector: string, to: string | undefined, ctx: ResolveContext = {}): Promise<{ candidates: Candidate[]; contract?: KnownContract }> {
    const contract = await this.contractAt(to, ctx);
    return { candidates: await this.candidates(selector.toLowerCase(), contract), contract };
  }

  async decodeLog(log: { address?: string; topics: readonly string[]; data: string }, ctx: ResolveContext = {}): Promise<Decoded> {
    const topic0 = log.topics[0]?.toLowerCase();
    if (!topic0 || !/^0x[0-9a-f]{64}$/.test(topic0)) return { kind: 'unknown', note: 'no topic0 (an anonymous event)' };
    const contract = await this.contractAt(log.address, ctx);
    return (
      decodeLogWith(log.topics, log.data, await this.candidates(topic0, contract)) ?? {
        kind: 'unknown',
        selector: topic0,
        ...(contract ? { contract: contract.name } : {}),
        note: 'no known ABI has this event',
      }
    );
  }

  /** Revert data of a call to `to`: Error(string), Panic(uint256), or a custom error. */
  async decodeRevert(data: string | undefined, to: string | undefined, ctx: ResolveContext = {}): Promise<Decoded> {
    if (!data || data === '0x') return { kind: 'unknown', note: 'no revert data' };
    if (!/^0x[0-9a-fA-F]{8}/.test(data)) return { kind: 'unknown', note: 'revert data shorter than a selector' };
    const selector = data.slice(0, 10).toLowerCase();
    const contract = await this.contractAt(to, ctx);
    return decodeErrorWith(data, await this.candidates(selector, contract)) ?? { kind: 'unknown', selector, note: 'no known ABI has this error' };
  }

  /** The function a call's input selects (for its outputs): the first candidate whose inputs decode. */
  async functionFor(input: string | undefined, to: string | undefined, ctx: ResolveContext = {}): Promise<{ fn: AbiFunction; decoded: Decoded } | undefined> {
    if (!input || !/^0x[0-9a-fA-F]{8}/.test(input)) return undefined;
    const contract = await this.contractAt(to, ctx);
    return functionWith(input, await this.candidates(input.slice(0, 10).toLowerCase(), contract));
  }

  /** A log decoded without a request or a read (the event console): a match already made, a precompile, artifacts already indexed, the standards and the table. */
  decodeLogKnown(log: { address?: string; topics: readonly string[]; data: string }, network?: string): Decoded | undefined {
    const topic0 = log.topics[0]?.toLowerCase();
    if (!topic0 || !/^0x[0-9a-f]{64}$/.test(topic0)) return undefined;
    const a = log.address && isEvmAddress(log.address) ? log.address : undefined;
    const contract = a ? (this.matched.get(matchKey(network, a))?.contract ?? precompileAt(a)) : undefined;
    const out: Candidate[] = [];
    if (contract) {
      let map = this.selectors.get(contract.abi);
      if (!map) this.selectors.set(contract.abi, (map = itemsBySelector(contract.abi)));
      for (const item of map.get(topic0) ?? []) out.push({ item, contract: contract.name, source: contract.source });
    }
    out.push(...fallbacks(topic0, this.opts.artifacts?.peekSelector(topic0) ?? []));
    return decodeLogWith(log.topics, log.data, out);
  }

  /** A selector's or topic0's signatures without reading anything (hovers): the standards, then guesses (the table, the artifacts already indexed). */
  knownSignatures(selector: string): string[] {
    const sel = selector.toLowerCase();
    const out = new Set<string>();
    const line = (item: AbiEntry) => `${item.type} ${item.name}(${item.inputs.map((p: { type: string }) => p.type).join(',')})`;
    for (const c of fallbacks(sel, this.opts.artifacts?.peekSelector(sel) ?? []))
      out.add(`${line(c.item)} · ${c.source.kind === 'standard' ? c.contract : c.source.label}`);
    return [...out].slice(0, 8);
  }

  /** Any topic0 or selector in one line (hovers): the table and the artifacts already read, no request. */
  async signatureOf(selector: string): Promise<string[]> {
    const sel = selector.toLowerCase();
    const out = new Set<string>();
    for (const c of await this.candidates(sel, undefined))
      out.add(
        `${c.item.type} ${c.item.name}(${c.item.inputs.map((p: { type: string }) => p.type).join(',')})${c.source.kind === 'signatures' ? ' (guessed from its selector)' : ` · ${c.source.label}`}`,
      );
    return [...out].slice(0, 8);
  }
}
