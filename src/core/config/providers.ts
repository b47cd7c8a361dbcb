// Providers: the `chainEndpoints.providers` setting turned into validated endpoints.
// Never imports vscode: the settings value comes in as plain JSON.

import { parseDecimalQuantity, parseHexQuantity } from '../base/limits';
import * as l10n from '../base/l10n';
import { BoundedMemo } from '../base/memo';
import { EndpointError } from '../base/errors';

export const INTERFACES = ['evmRpc', 'consensusHttp', 'consensusRpc', 'consensusWs', 'rest', 'evmWs'] as const;
export type InterfaceId = (typeof INTERFACES)[number];

/** Translated when read (getters: the bundle loads after this module). */
export const INTERFACE_LABELS: Readonly<Record<InterfaceId, string>> = {
  get evmRpc() {
    return l10n.t('EVM RPC');
  },
  get consensusHttp() {
    return l10n.t('Consensus HTTP');
  },
  get consensusRpc() {
    return l10n.t('Consensus RPC');
  },
  get consensusWs() {
    return l10n.t('Consensus WebSocket');
  },
  get rest() {
    return l10n.t('REST');
  },
  get evmWs() {
    return l10n.t('EVM WebSocket');
  },
};

/** Which URL schemes each interface accepts. */
export function schemesFor(iface: InterfaceId): readonly string[] {
  return iface === 'consensusWs' || iface === 'evmWs' ? ['ws:', 'wss:'] : ['http:', 'https:'];
}

export interface Provider {
  readonly name: string;
  /** Only the interfaces the provider publishes; each a validated absolute URL string. */
  readonly endpoints: Partial<Record<InterfaceId, string>>;
  /** Expected chain identities (optional): the Cosmos chain-id and the EVM chain id (0x-hex). */
  readonly chainId?: string;
  readonly evmChainId?: string;
  /** The network's display name (optional; providers are grouped by chain identity, see networks.ts). */
  readonly network?: string;
  /** Extra request headers; values may reference `${secret:NAME}` (kept in SecretStorage). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Where the definition comes from (set by the settings reader): only a user provider gets secrets. */
  readonly origin?: 'user' | 'workspace';
}

/**
 * The most providers read from the settings: more is no one's list (a chain's registry names a few
 * dozen), and each one is probed, charted and listed. The rest are left out with one problem line.
 */
export const MAX_PROVIDERS = 200;
/** The longest provider name, Cosmos chain-id, header value and the most headers of one provider. */
const MAX_NAME = 100;
const MAX_CHAIN_ID = 128;
const MAX_HEADERS = 32;
const MAX_HEADER_VALUE = 8192;

export interface ProviderProblem {
  /** Position in the settings array. */
  readonly index: number;
  /** The entry's name when it has a usable one. */
  readonly name?: string;
  readonly message: string;
}

export interface ParsedProviders {
  readonly providers: Provider[];
  readonly problems: ProviderProblem[];
}

export const DEFAULT_PROVIDERS = [
  {
    name: 'Local node',
    evmRpc: 'http://127.0.0.1:8545',
    consensusHttp: 'http://127.0.0.1:26657',
    consensusRpc: 'http://127.0.0.1:26657',
    consensusWs: 'ws://127.0.0.1:26657/websocket',
    rest: 'http://127.0.0.1:1317',
    evmWs: 'ws://127.0.0.1:8545',
  },
];

/** What VS Code's `inspect('providers')` reports, level by level. */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The providers value to use. In an untrusted workspace the workspace and folder levels are not
 * used (a repository must not make the editor contact addresses it chose); `ignoredWorkspace`
 * says the view should explain why.
 */
export function effectiveProvidersSetting(inspected: InspectedSetting | undefined, trusted: boolean): { value: unknown; ignoredWorkspace: boolean } {
  const i = inspected ?? {};
  if (trusted) return { value: i.workspaceFolderValue ?? i.workspaceValue ?? i.globalValue ?? i.defaultValue, ignoredWorkspace: false };
  return { value: i.globalValue ?? i.defaultValue, ignoredWorkspace: i.workspaceValue !== undefined || i.workspaceFolderValue !== undefined };
}

/**
 * Checks one address for an interface. Returns an error sentence, or undefined when valid.
 * The sentence says what to type, so it can be shown as-is in an input box or a tree item.
 */
export function validateAddress(iface: InterfaceId, value: string): string | undefined {
  const label = INTERFACE_LABELS[iface];
  const schemes = schemesFor(iface);
  const example = iface === 'consensusWs' ? 'wss://host/websocket' : iface === 'evmWs' ? 'wss://host:8546' : 'https://host:port/path';
  const text = value.trim();
  if (text === '') return l10n.t('{0} address is empty: type an absolute URL such as {1}.', label, example);
  if (/\s/.test(text)) return l10n.t('{0} address contains spaces: type an absolute URL such as {1}.', label, example);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const shown = text.replace(/^[^/@]*@/, '***@'); // a key typed before an @ is not repeated
    return l10n.t('{0} address "{1}" is not a URL: type an absolute URL such as {2}.', label, shown, example);
  }
  if (!schemes.includes(url.protocol)) {
    const [a, b] = schemes.map((s) => s.replace(':', '://'));
    return l10n.t('{0} address must start with {1} or {2} (got "{3}"): for example {4}.', label, a, b, `${url.protocol}//`, example);
  }
  if (!url.hostname) return l10n.t('{0} address has no host: type an absolute URL such as {1}.', label, example);
  if (url.username || url.password) {
    // Never echoed back: the message must not repeat the secret.
    return l10n.t(
      '{0} address contains credentials (user:password@ or key@ before the host): remove them and put the key in the provider\'s "headers" as a secret reference instead, e.g. "headers": { "Authorization": "${secret:myKey}" }.',
      label,
    );
  }
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Turns the raw setting into valid providers and one problem per invalid entry. */
export function parseProviders(raw: unknown): ParsedProviders {
  const providers: Provider[] = [];
  const problems: ProviderProblem[] = [];
  if (raw === undefined || raw === null) return { providers, problems };
  if (!Array.isArray(raw)) {
    problems.push({ index: -1, message: l10n.t('chainEndpoints.providers must be an array of providers.') });
    return { providers, problems };
  }
  const seen = new Set<string>();
  if (raw.length > MAX_PROVIDERS) {
    problems.push({
      index: MAX_PROVIDERS,
      message: l10n.t('Only the first {0} providers are read; the {1} after them are left out.', MAX_PROVIDERS, raw.length - MAX_PROVIDERS),
    });
  }
  raw.slice(0, MAX_PROVIDERS).forEach((entry, index) => {
    if (!isRecord(entry)) {
      problems.push({ index, message: l10n.t('Entry {0} is not an object with a "name" and addresses.', index + 1) });
      return;
    }
    const name = typeof entry.name === 'string' ? entry.name.trim() : '';
    if (!name) {
      problems.push({ index, message: l10n.t('Entry {0} has no name: add "name": "My provider".', index + 1) });
      return;
    }
    if (name.length > MAX_NAME) {
      problems.push({ index, message: l10n.t('Entry {0}: a name is at most {1} characters (this one has {2}).', index + 1, MAX_NAME, name.length) });
      return;
    }
    if (seen.has(name.toLowerCase())) {
      problems.push({ index, name, message: l10n.t('Duplicate provider name "{0}": names must be unique.', name) });
      return;
    }
    seen.add(name.toLowerCase());
    const endpoints: Partial<Record<InterfaceId, string>> = {};
    const errors: string[] = [];
    for (const iface of INTERFACES) {
      const value = entry[iface];
      if (value === undefined || value === null || value === '') continue;
      if (typeof value !== 'string') {
        errors.push(l10n.t('{0} address must be a string.', INTERFACE_LABELS[iface]));
        continue;
      }
      const error = validateAddress(iface, value);
      if (error) errors.push(error);
      else endpoints[iface] = value.trim();
    }
    if (errors.length > 0) {
      problems.push({ index, name, message: `${name}: ${errors.join(' ')}` });
      return;
    }
    if (Object.keys(endpoints).length === 0) {
      problems.push({ index, name, message: l10n.t('{0}: no addresses; set at least one of {1}.', name, INTERFACES.join(', ')) });
      return;
    }
    const chainId = typeof entry.chainId === 'string' && entry.chainId.trim() ? entry.chainId.trim() : undefined;
    if (chainId !== undefined && chainId.length > MAX_CHAIN_ID) {
      problems.push({ index, name, message: l10n.t('{0}: chainId must be a chain-id (at most {1} characters) such as "evmos_9000-4".', name, MAX_CHAIN_ID) });
      return;
    }
    const evmChainId = normalizeEvmChainId(entry.evmChainId);
    if (evmChainId === null) {
      problems.push({ index, name, message: l10n.t('{0}: evmChainId must be a number or a 0x-hex quantity such as "0x40000".', name) });
      return;
    }
    if (entry.network !== undefined && entry.network !== null && (typeof entry.network !== 'string' || entry.network.length > 100)) {
      problems.push({ index, name, message: l10n.t('{0}: network must be a name (text of at most 100 characters) such as "Evmos testnet".', name) });
      return;
    }
    const network = typeof entry.network === 'string' && entry.network.trim() ? entry.network.trim() : undefined;
    const headers = parseHeaders(entry.headers);
    if (typeof headers === 'string') {
      problems.push({ index, name, message: `${name}: ${headers}` });
      return;
    }
    providers.push({
      name,
      endpoints,
      ...(chainId ? { chainId } : {}),
      ...(evmChainId ? { evmChainId } : {}),
      ...(network ? { network } : {}),
      ...(headers ? { headers } : {}),
    });
  });
  return { providers, problems };
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Validated `headers`; an error sentence when malformed. */
function parseHeaders(value: unknown): Record<string, string> | undefined | string {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) return l10n.t('headers must be an object such as {"x-api-key": "${secret:my-key}"}.');
  const out: Record<string, string> = {};
  const entries = Object.entries(value);
  if (entries.length > MAX_HEADERS) return l10n.t('headers: at most {0} headers (this provider has {1}).', MAX_HEADERS, entries.length);
  for (const [k, v] of entries) {
    if (k.length > MAX_NAME || !HEADER_NAME.test(k)) return l10n.t('"{0}" is not a valid header name.', k.length > MAX_NAME ? `${k.slice(0, 40)}…` : k);
    if (typeof v !== 'string') return l10n.t('header "{0}" must be a string (use "${secret:NAME}" for a secret).', k);
    if (/[\r\n]/.test(v)) return l10n.t('header "{0}" contains a line break.', k);
    if (v.length > MAX_HEADER_VALUE) return l10n.t('header "{0}" is longer than {1} characters.', k, MAX_HEADER_VALUE);
    out[k] = v;
  }
  return out;
}

/** The EVM chain id as lowercase 0x-hex; undefined when absent, null when invalid. */
function normalizeEvmChainId(value: unknown): string | undefined | null {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return '0x' + value.toString(16);
  if (typeof value === 'string') {
    const t = value.trim();
    // A uint256 at most: a longer "number" in a settings file is invalid (and never given to BigInt).
    const hex = parseHexQuantity(t);
    if (hex !== undefined) return '0x' + hex.toString(16);
    const decimal = parseDecimalQuantity(t);
    if (decimal !== undefined && decimal > 0n) return '0x' + decimal.toString(16);
  }
  return null;
}

/**
 * Joins a base address and a path with exactly one slash between them, keeping any path prefix
 * of the base and never producing `//` in the path (a double slash turns a POST into a bodiless
 * GET behind a redirect). Query parameters are appended in order; undefined values are skipped.
 */
export function joinUrl(base: string, path: string, query?: Record<string, string | undefined>): string {
  // Most calls join the same few bases and paths (a query file asks one route a thousand times).
  // The key keeps the parts apart (lengths first: 'h/a' + 'b' is not 'h/ab' + ''; the query as JSON,
  // which skips undefined values as the join does).
  const key = `${base.length}:${base}${path.length}:${path}${query ? JSON.stringify(query) : ''}`;
  return joinedUrls.get(key, () => buildUrl(base, path, query));
}

/**
 * `s` without the slashes at its end. A loop, not replace(/\/+$/): that pattern retries from every
 * slash of a run that does not end the text, a time quadratic in it (an address with 100,000
 * slashes in its path, from a chain.json: 11 s). Here, in what activation loads already.
 */
export function withoutTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 47) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Recent joins. */
const joinedUrls = new BoundedMemo<string>(512);

function buildUrl(base: string, path: string, query: Record<string, string | undefined> | undefined): string {
  const url = new URL(base);
  const prefix = withoutTrailingSlashes(url.pathname);
  const dot = dotSegmentOf(path);
  if (dot !== undefined) throw dotSegmentError(path, dot);
  const rest = path.replace(/^\/+/, '');
  const joined = rest ? `${prefix}/${rest}` : prefix || '/';
  url.pathname = joined.replace(/\/{2,}/g, '/');
  // The path as it will be sent: whatever the input, it stays under the base's own path.
  if (url.pathname !== (prefix || '/') && !url.pathname.startsWith(`${prefix}/`)) throw dotSegmentError(path, url.pathname);
  if (query) {
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.append(key, value);
    }
  }
  return url.toString();
}

/**
 * The first dot segment of a path (`.` or `..`, plain or percent-encoded, even twice, after a slash,
 * a backslash or an encoded slash), or undefined. A URL join resolves one (`/rest/../rpc/x` is
 * `/rpc/x`), and so do gateways: REST and RPC under prefixes of one host would reach each other.
 * The query (after `?`) is not a path and is not read.
 */
export function dotSegmentOf(path: string): string | undefined {
  let p = path.split(/[?#]/)[0];
  for (const segment of p.split(/[\\/]/)) if (segment === '.' || segment === '..') return segment;
  // Decoded (up to three times: a gateway may decode once more than the URL parser), slashes from %2F and %5C included.
  for (let i = 0; i < 3 && p.includes('%'); i++) {
    try {
      p = decodeURIComponent(p);
    } catch {
      p = p.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\').replace(/%25/g, '%');
    }
    for (const segment of p.split(/[\\/]/)) if (segment === '.' || segment === '..') return segment;
  }
  return undefined;
}

function dotSegmentError(path: string, dot: string): EndpointError {
  return new EndpointError(
    'input',
    l10n.both(
      'The path "{0}" has a dot segment ("{1}", which would move the request to another route of the host): type the path itself, without "." or ".." segments.',
      path.length > 200 ? `${path.slice(0, 200)}…` : path,
      dot,
    ),
  );
}

/** The one sentence for a name that matches no provider (commands, the API, watches, query files): the names to use instead. */
export function unknownProvider(name: string, providers: readonly { readonly name: string }[]): l10n.Message {
  const known = providers.map((x) => `"${x.name}"`).join(', ');
  return known
    ? l10n.both('No provider named "{0}". Configured providers: {1}.', name, known)
    : l10n.both('No provider named "{0}". Configured providers: none.', name);
}

/** The provider named `name` (trimmed, any case): the one lookup by name every command, the API and the status bar use. */
export function providerNamed<T extends { readonly name: string }>(providers: readonly T[], name: unknown): T | undefined {
  if (typeof name !== 'string') return undefined;
  const wanted = name.trim().toLowerCase();
  if (!wanted) return undefined;
  return providers.find((p) => p.name.toLowerCase() === wanted);
}
