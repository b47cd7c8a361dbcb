// Chain-registry import: a Cosmos chain registry `chain.json` (github.com/cosmos/chain-registry,
// chain.schema.json) turned into candidate `chainEndpoints.providers` entries.
// Never imports vscode: the file comes in as text, the current settings as plain JSON.
//
// Mapping of `apis`:
//   rpc               -> consensusHttp and consensusRpc (CometBFT serves both on one address), and
//                        consensusWs derived as ws(s)://<same host and path>/websocket
//   wss               -> consensusWs for the same provider when it is a CometBFT socket (path ends
//                        in /websocket); other wss addresses are often EVM sockets and are not used
//   rest              -> rest
//   evm-http-jsonrpc  -> evmRpc
//   grpc, grpc-web    -> not one of the five interfaces: noted, not imported
// Entries are grouped by `provider`; entries without one by the host of their address.

import { parseDecimalQuantity } from '../base/limits';
import { LocalizedError } from '../base/errors';
import { withoutTrailingSlashes } from './providers';
import * as l10n from '../base/l10n';
import type { Message } from '../base/l10n';
import { findSecretReference } from './secretScope';
import { parseJsonText } from './jsonText';
import { SLOT_LABEL, type Slot, findDuplicate, isRecord, normalizeAddress } from './registryDuplicates';

export { normalizeAddress } from './registryDuplicates';
import { type InterfaceId, validateAddress } from './providers';

/** A provider entry as written to `chainEndpoints.providers`. */
export type ProviderEntry = { name: string } & Partial<Record<InterfaceId | 'chainId' | 'evmChainId' | 'network', string>>;

export interface RegistryChain {
  /** `chain_id` (the Cosmos chain-id, e.g. `evmos_9000-4`). */
  readonly chainId?: string;
  /** `pretty_name`, else `chain_name`. */
  readonly name?: string;
  readonly chainName?: string;
  readonly networkType?: string;
  /** EVM chain id (decimal string) when the file states it or its chain-id encodes it (Ethermint form). */
  readonly evmChainId?: string;
}

export interface ImportCandidate {
  /** The name the entry gets: `<provider> (<chain_id>)`, suffixed ` (2)`, ` (3)`… when taken. */
  readonly name: string;
  /** The provider as the file names it, or the host for entries without a provider. */
  readonly provider: string;
  readonly entry: ProviderEntry;
  /** Name of an existing settings entry that already has every address of this candidate. */
  readonly duplicateOf?: string;
  /** What was adjusted, skipped or derived, one sentence each. */
  readonly notes: string[];
}

export interface ChainRegistryImport {
  readonly chain: RegistryChain;
  /** In the order their providers first appear in the file. */
  readonly candidates: ImportCandidate[];
  /** Notes about the file as a whole (ignored interfaces, addresses without a usable host). */
  readonly notes: string[];
}

/** A malformed chain.json. `field` is the path at fault (`apis.rpc[2].address`), `$` for the whole file. */
export class ChainRegistryError extends LocalizedError {
  constructor(
    readonly field: string,
    message: Message,
  ) {
    super(message);
    this.name = 'ChainRegistryError';
  }
}

/** The `apis` kinds that become interfaces, in the order they are read. */
const USED_KINDS = ['rpc', 'wss', 'rest', 'evm-http-jsonrpc'] as const;
type UsedKind = (typeof USED_KINDS)[number];
/** Kinds the schema defines that are not among the five interfaces. */
const IGNORED_KINDS = ['grpc', 'grpc-web'] as const;

const KIND_TO_IFACE: Record<Exclude<UsedKind, 'rpc'>, InterfaceId> = {
  wss: 'consensusWs',
  rest: 'rest',
  'evm-http-jsonrpc': 'evmRpc',
};

interface RawEndpoint {
  kind: (typeof USED_KINDS)[number] | (typeof IGNORED_KINDS)[number];
  field: string;
  address: string;
  provider?: string;
  archive: boolean;
}

interface Group {
  key: string;
  provider: string;
  named: boolean;
  slots: Partial<Record<Slot, string>>;
  notes: string[];
  wsDerived: boolean;
}

/**
 * Parses the text of a chain.json into candidate provider entries, comparing them with the
 * `existing` settings entries. Throws ChainRegistryError naming the field at fault when the file is
 * not JSON or a field the import reads has the wrong shape; an address that is not a usable URL is
 * skipped with a note instead.
 */
function parseJson(text: string): unknown {
  const parsed = parseJsonText(text);
  if ('error' in parsed) throw new ChainRegistryError('$', parsed.error);
  return parsed.value;
}

export function parseChainJson(text: string, existing: readonly { name: string; [k: string]: unknown }[] = []): ChainRegistryImport {
  const doc = parseJson(text);
  if (!isRecord(doc)) {
    throw new ChainRegistryError('$', l10n.both('The file must be a JSON object (a chain.json), not {0}.', describe(doc)));
  }
  const secretField = findSecretReference(doc); // a file must never make settings refer to the user's secrets
  if (secretField)
    throw new ChainRegistryError(
      secretField,
      l10n.both('{0} contains a secret reference ("${secret:"): a chain.json cannot refer to your secrets, so the file was refused.', secretField),
    );
  const chainId = optionalString(doc, 'chain_id');
  const chainName = optionalString(doc, 'chain_name');
  const prettyName = optionalString(doc, 'pretty_name');
  const networkType = optionalString(doc, 'network_type');
  const chainType = optionalString(doc, 'chain_type');
  const fileNotes: string[] = [];

  if (doc.apis === undefined) throw new ChainRegistryError('apis', l10n.both('apis is missing: the file lists no endpoints.'));
  if (!isRecord(doc.apis)) throw new ChainRegistryError('apis', l10n.both('apis must be an object, not {0}.', describe(doc.apis)));
  const apis = doc.apis;

  const endpoints: RawEndpoint[] = [];
  for (const kind of [...USED_KINDS, ...IGNORED_KINDS]) {
    const list = apis[kind];
    if (list === undefined) continue;
    const listField = `apis.${kind}`;
    if (!Array.isArray(list)) throw new ChainRegistryError(listField, l10n.both('{0} must be an array, not {1}.', listField, describe(list)));
    list.forEach((item, i) => endpoints.push(readEndpoint(kind, `${listField}[${i}]`, item)));
  }
  for (const key of Object.keys(apis)) {
    if (!(USED_KINDS as readonly string[]).includes(key) && !(IGNORED_KINDS as readonly string[]).includes(key)) {
      fileNotes.push(`apis.${key} is not a kind of endpoint this import knows: ignored.`);
    }
  }

  const evm = evmChainIdOf(
    doc,
    chainId,
    chainType,
    endpoints.some((e) => e.kind === 'evm-http-jsonrpc'),
  );
  if (evm?.note) fileNotes.push(evm.note);
  const chain: RegistryChain = {
    ...(chainId ? { chainId } : {}),
    ...(prettyName || chainName ? { name: prettyName || chainName } : {}),
    ...(chainName ? { chainName } : {}),
    ...(networkType ? { networkType } : {}),
    ...(evm ? { evmChainId: evm.id } : {}),
  };

  // Group the endpoints; an address already taken (by any group, for the same slot) is merged.
  const groups = new Map<string, Group>();
  const claimed = new Map<string, string>(); // `${slot} ${normalized}` -> provider that has it
  const ignored = new Map<string, { provider?: string; addresses: string[] }>(); // gRPC by provider key
  for (const ep of endpoints) {
    if (ep.kind === 'grpc' || ep.kind === 'grpc-web') {
      const key = ep.provider ? groupKeyOf(ep.provider, true) : '';
      const seen = ignored.get(key) ?? { ...(ep.provider ? { provider: ep.provider } : {}), addresses: [] };
      seen.addresses.push(ep.address);
      ignored.set(key, seen);
      continue;
    }
    const iface: InterfaceId = ep.kind === 'rpc' ? 'consensusHttp' : KIND_TO_IFACE[ep.kind];
    const problem = validateAddress(iface, ep.address);
    const url = problem ? undefined : new URL(ep.address.trim());
    const named = ep.provider !== undefined;
    const label = ep.provider ?? url?.hostname;
    if (!label) {
      fileNotes.push(l10n.t('{0}.address skipped: {1}', ep.field, String(problem)));
      continue;
    }
    if (problem || !url) {
      groupFor(groups, label, named).notes.push(l10n.t('{0}.address skipped: {1}', ep.field, String(problem)));
      continue;
    }
    const slot: Slot = ep.kind === 'rpc' ? 'rpc' : (KIND_TO_IFACE[ep.kind] as Slot);
    const address = normalizeAddress(url);
    if (slot === 'consensusWs' && !/\/websocket$/.test(new URL(address).pathname)) {
      groupFor(groups, label, named).notes.push(
        `${ep.field} (${address}) does not end in /websocket, so it is not a CometBFT socket (perhaps an EVM WebSocket): not used.`,
      );
      continue;
    }
    // The same address listed again (with or without a trailing slash, another letter case, the
    // default port) is merged into the provider that listed it first.
    const owner = claimed.get(`${slot} ${address}`);
    if (owner !== undefined) {
      const first = groups.get(owner)!;
      if (owner === groupKeyOf(label, named)) first.notes.push(l10n.t('{0} repeats {1}: merged.', ep.field, address));
      else if (!named) first.notes.push(l10n.t('{0} lists {1} again without a provider: merged here.', ep.field, address));
      else groupFor(groups, label, named).notes.push(l10n.t('{0} ({1}) is also listed for {2}: kept there.', ep.field, address, first.provider));
      continue;
    }
    const group = groupFor(groups, label, named);
    const current = group.slots[slot];
    if (current !== undefined) {
      group.notes.push(l10n.t('{0} ({1}) not imported: {2} is {3}, the first valid address listed.', ep.field, address, SLOT_LABEL[slot], current));
      continue;
    }
    claimed.set(`${slot} ${address}`, group.key);
    group.slots[slot] = address;
    if (ep.archive) group.notes.push(l10n.t('{0} {1} is an archive node.', SLOT_LABEL[slot], address));
  }
  // gRPC is noted on its provider's candidate when there is one, else on the file.
  for (const [key, { provider, addresses }] of ignored) {
    const sentence = `gRPC ${addresses.length === 1 ? 'address' : 'addresses'} ${addresses.join(', ')} not imported: gRPC is not one of the five interfaces.`;
    const group = groups.get(key);
    if (group) group.notes.push(sentence);
    else fileNotes.push(provider ? `${provider}: ${sentence}` : sentence);
  }

  const taken = new Set(existing.map((e) => (typeof e.name === 'string' ? e.name.trim().toLowerCase() : '')).filter((n) => n));
  const candidates: ImportCandidate[] = [];
  for (const group of groups.values()) {
    const slotNames = Object.keys(group.slots) as Slot[];
    if (slotNames.length === 0) {
      // every address invalid or not a CometBFT socket
      fileNotes.push(`${group.provider}: no usable address, nothing to import. ${group.notes.join(' ')}`.trim());
      continue;
    }
    const entry = buildEntry(group, chainId, evm?.id);
    const network = networkName(chain);
    if (network) entry.network = network;
    const base = chainId ? `${group.provider} (${chainId})` : group.provider;
    const name = uniqueName(base, taken);
    taken.add(name.toLowerCase());
    entry.name = name;
    const notes = [...group.notes];
    if (name !== base) notes.unshift(l10n.t('Named "{0}": "{1}" is already taken.', name, base));
    if (group.wsDerived) notes.push(l10n.t('Consensus WebSocket derived from the RPC address: {0}.', String(entry.consensusWs)));
    const dup = findDuplicate(group.slots, existing);
    if (dup.duplicateOf === undefined) notes.push(...dup.partial);
    candidates.push({
      name,
      provider: group.provider,
      entry,
      ...(dup.duplicateOf !== undefined ? { duplicateOf: dup.duplicateOf } : {}),
      notes,
    });
  }
  return { chain, candidates, notes: fileNotes };
}

function readEndpoint(kind: RawEndpoint['kind'], field: string, item: unknown): RawEndpoint {
  if (!isRecord(item)) throw new ChainRegistryError(field, l10n.both('{0} must be an object with an "address", not {1}.', field, describe(item)));
  if (item.address === undefined) throw new ChainRegistryError(`${field}.address`, l10n.both('{0}.address is missing.', field));
  if (typeof item.address !== 'string') {
    throw new ChainRegistryError(`${field}.address`, l10n.both('{0}.address is not a string ({1}).', field, describe(item.address)));
  }
  let provider: string | undefined;
  if (item.provider !== undefined && item.provider !== null) {
    if (typeof item.provider !== 'string') {
      throw new ChainRegistryError(`${field}.provider`, l10n.both('{0}.provider is not a string ({1}).', field, describe(item.provider)));
    }
    provider = item.provider.trim() || undefined;
  }
  if (item.archive !== undefined && typeof item.archive !== 'boolean') {
    throw new ChainRegistryError(`${field}.archive`, l10n.both('{0}.archive is not a boolean ({1}).', field, describe(item.archive)));
  }
  return { kind, field, address: item.address, ...(provider ? { provider } : {}), archive: item.archive === true };
}

function optionalString(doc: Record<string, unknown>, key: string): string | undefined {
  const v = doc[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ChainRegistryError(key, l10n.both('{0} is not a string ({1}).', key, describe(v)));
  return v.trim() || undefined;
}

/**
 * The EVM chain id, from (first found): a numeric `evm_chain_id` / `evm.chain_id` field (not in the
 * schema, accepted when present), an `eip155` chain's decimal `chain_id`, or the EIP-155 number in
 * an Ethermint-form chain-id (`<name>_<eip155>-<version>`, e.g. `evmos_9000-4`) of a chain that
 * publishes an EVM endpoint or declares the ethermint codec / ethsecp256k1 keys.
 */
function evmChainIdOf(
  doc: Record<string, unknown>,
  chainId: string | undefined,
  chainType: string | undefined,
  hasEvmRpc: boolean,
): { id: string; note?: string } | undefined {
  const explicit = [
    ['evm_chain_id', doc.evm_chain_id],
    ['evm.chain_id', isRecord(doc.evm) ? doc.evm.chain_id : undefined],
  ] as const;
  for (const [field, v] of explicit) {
    if (v === undefined || v === null) continue;
    const id = decimalId(v);
    if (!id) throw new ChainRegistryError(field, l10n.both('{0} is not a positive integer ({1}).', field, describe(v)));
    return { id };
  }
  if (!chainId) return undefined;
  if (chainType === 'eip155') {
    const id = parseDecimalQuantity(chainId);
    return id !== undefined && id > 0n ? { id: id.toString() } : undefined;
  }
  const ethermint = /^[a-z][a-z0-9]*_(\d{1,78})-\d+$/i.exec(chainId);
  const evmish = hasEvmRpc || listHas(doc.extra_codecs, 'ethermint') || listHas(doc.key_algos, 'ethsecp256k1');
  if (ethermint && evmish && BigInt(ethermint[1]) > 0n) {
    const id = BigInt(ethermint[1]).toString();
    return { id, note: `EVM chain id ${id} taken from the chain-id ${chainId} (Ethermint form <name>_<EIP-155 id>-<version>).` };
  }
  return undefined;
}

function decimalId(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return String(v);
  // A uint256 at most (a longer "number" in a chain.json is none, and never given to BigInt).
  const decimal = typeof v === 'string' ? parseDecimalQuantity(v.trim()) : undefined;
  if (decimal !== undefined && decimal > 0n) return decimal.toString();
  if (typeof v === 'string' && /^0x[0-9a-f]{1,64}$/i.test(v.trim()) && BigInt(v.trim()) > 0n) return BigInt(v.trim()).toString();
  return undefined;
}

function listHas(v: unknown, item: string): boolean {
  return Array.isArray(v) && v.includes(item);
}

function groupKey(label: string): string {
  return label.trim().toLowerCase();
}

/** Unnamed entries are keyed apart from named ones: a provider called "rpc.example.org" and the host are different groups. */
function groupKeyOf(label: string, named: boolean): string {
  return `${named ? 'p' : 'h'}:${groupKey(label)}`;
}

function groupFor(groups: Map<string, Group>, label: string, named: boolean): Group {
  const key = groupKeyOf(label, named);
  let g = groups.get(key);
  if (!g) {
    g = { key, provider: label.trim(), named, slots: {}, notes: [], wsDerived: false };
    groups.set(key, g);
  }
  return g;
}

function wsFromRpc(rpc: string): string {
  const url = new URL(rpc);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${withoutTrailingSlashes(url.pathname)}/websocket`;
  url.search = '';
  return url.toString();
}

/**
 * The network's display name from the registry: `pretty_name` (else `chain_name`) with its
 * `network_type` when the name does not say it ("Evmos" + testnet: "Evmos testnet"), so a testnet
 * and a mainnet import as two networks (they are grouped by `chain_id`; this names them).
 */
export function networkName(chain: RegistryChain): string | undefined {
  const name = chain.name?.trim();
  const type = chain.networkType?.trim();
  if (!name) return chain.chainId && type ? `${chain.chainId} ${type}` : undefined;
  if (!type || name.toLowerCase().includes(type.toLowerCase())) return name.slice(0, 100);
  return `${name} ${type}`.slice(0, 100);
}

function buildEntry(group: Group, chainId: string | undefined, evmChainId: string | undefined): ProviderEntry {
  const entry: ProviderEntry = { name: group.provider };
  if (group.slots.evmRpc) entry.evmRpc = group.slots.evmRpc;
  if (group.slots.rpc) {
    entry.consensusHttp = group.slots.rpc;
    entry.consensusRpc = group.slots.rpc;
  }
  if (group.slots.consensusWs) entry.consensusWs = group.slots.consensusWs;
  else if (group.slots.rpc) {
    entry.consensusWs = wsFromRpc(group.slots.rpc);
    group.wsDerived = true;
  }
  if (group.slots.rest) entry.rest = group.slots.rest;
  if (chainId) entry.chainId = chainId;
  if (evmChainId && entry.evmRpc) entry.evmChainId = evmChainId;
  return entry;
}

function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base} (${n})`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return l10n.t('an array');
  if (typeof v === 'object') return l10n.t('an object');
  if (typeof v === 'string') return l10n.t('the string {0}', JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v));
  return `${typeof v} ${String(v)}`;
}
