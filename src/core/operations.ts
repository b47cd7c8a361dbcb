// The catalogue of operations: one entry per request the extension can make. The tree's leaves,
// the palette commands (and package.json's contributions, checked by a unit test), copy-as-curl
// and the tests all read this one table, so a new operation is one entry here.

import { InterfaceId } from './providers';
import * as l10n from './l10n';
import { parseDecimalHeight, parseHexQuantity, shownNumber } from './limits';
import * as v from './validate';

export interface ParamSpec {
  /** Key in the command argument `{ provider, <key>: ... }`. */
  readonly key: string;
  readonly title: string;
  readonly prompt: string;
  readonly placeholder?: string;
  /** An empty answer is accepted (and means the documented default). */
  readonly optional?: boolean;
  readonly validate: v.Validator;
}

export type WireRequest =
  | { kind: 'get'; path: string; query?: Record<string, string | undefined>; rawQuery?: string }
  | { kind: 'post'; path: string; body: unknown }
  | { kind: 'jsonrpc'; method: string; params: unknown }
  | { kind: 'ws-call'; method: string; params: unknown }
  | { kind: 'ws-subscribe'; query: string; count: number }
  | { kind: 'genesis' };

export type Args = Readonly<Record<string, string>>;

export interface Operation {
  /** Command id without the `chainEndpoints.` prefix. */
  readonly id: string;
  readonly iface: InterfaceId;
  /** Short label for the tree. */
  readonly label: string;
  /** Palette title (the category "Chain Endpoints" is added by package.json). */
  readonly title: string;
  readonly params: readonly ParamSpec[];
  /** Sends a transaction: shown and confirmed first, never retried. */
  readonly broadcast?: boolean;
  build(args: Args): WireRequest;
  /** One line about the parsed result, shown in the document header. */
  summarize?(result: unknown): string | undefined;
}

export { COMMAND_PREFIX } from './operationIds';
import { COMMAND_PREFIX } from './operationIds';

// --- parameters ----------------------------------------------------------------------------

const height: ParamSpec = {
  key: 'height',
  get title() {
    return l10n.t('Block height');
  },
  get prompt() {
    return l10n.t('A block height: a whole number from 1 to 9223372036854775807');
  },
  get placeholder() {
    return l10n.t('e.g. 1234');
  },
  validate: v.validateHeight,
};
const optionalHeight: ParamSpec = {
  key: height.key,
  // Not spread from `height`: a spread would read its title getter once, at module load.
  get title() {
    return height.title;
  },
  get prompt() {
    return l10n.t('A block height, or leave empty for the latest block');
  },
  get placeholder() {
    return l10n.t('empty = latest');
  },
  optional: true,
  validate: v.validateOptionalHeight,
};
const evmTxHash: ParamSpec = {
  key: 'hash',
  get title() {
    return l10n.t('Transaction hash');
  },
  get prompt() {
    return l10n.t('The Ethereum transaction hash: 0x followed by 64 hex digits');
  },
  placeholder: '0x…',
  validate: v.validateEvmTxHash,
};
const cometTxHash: ParamSpec = {
  key: 'hash',
  get title() {
    return l10n.t('Transaction hash');
  },
  get prompt() {
    return l10n.t('The Cosmos transaction hash (SHA-256 of the tx bytes): 64 hex digits');
  },
  get placeholder() {
    return l10n.t('e.g. 4A5B…');
  },
  validate: v.validateCometTxHash,
};
const evmAddress: ParamSpec = {
  key: 'address',
  get title() {
    return l10n.t('Address');
  },
  get prompt() {
    return l10n.t('An EVM address: 0x followed by 40 hex digits');
  },
  placeholder: '0x…',
  validate: v.validateEvmAddress,
};
const bech32Address: ParamSpec = {
  key: 'address',
  get title() {
    return l10n.t('Address');
  },
  get prompt() {
    return l10n.t('A bech32 account address');
  },
  get placeholder() {
    return l10n.t('e.g. cosmos1…');
  },
  validate: v.validateBech32Address,
};
const txBytes: ParamSpec = {
  key: 'tx',
  get title() {
    return l10n.t('Signed transaction');
  },
  get prompt() {
    return l10n.t('The signed transaction bytes, as base64 or 0x-prefixed hex (sent as base64)');
  },
  get placeholder() {
    return l10n.t('base64 or 0x…');
  },
  validate: v.validateTxBytes,
};
const evmRawTx: ParamSpec = {
  key: 'tx',
  get title() {
    return l10n.t('Signed transaction');
  },
  get prompt() {
    return l10n.t('The signed, RLP-encoded transaction as 0x-prefixed hex');
  },
  placeholder: '0x02f8…',
  validate: v.validateEvmRawTx,
};
const method: ParamSpec = {
  key: 'method',
  get title() {
    return l10n.t('Method');
  },
  get prompt() {
    return l10n.t('The JSON-RPC method name');
  },
  get placeholder() {
    return l10n.t('e.g. eth_getLogs, status, abci_info');
  },
  validate: v.validateMethodName,
};
const params: ParamSpec = {
  key: 'params',
  get title() {
    return l10n.t('Params');
  },
  get prompt() {
    return l10n.t('The params as JSON: an array or an object (empty for none)');
  },
  get placeholder() {
    return l10n.t('e.g. ["latest", false] or {"height":"5"}');
  },
  optional: true,
  validate: v.validateJsonParams,
};
const getPath: ParamSpec = {
  key: 'path',
  get title() {
    return l10n.t('Path');
  },
  get prompt() {
    return l10n.t('A path and optional query, relative to the base address');
  },
  get placeholder() {
    return l10n.t('e.g. /status or /cosmos/bank/v1beta1/supply?pagination.limit=5');
  },
  validate: v.validateGetPath,
};
const eventCount: ParamSpec = {
  key: 'count',
  get title() {
    return l10n.t('Events');
  },
  get prompt() {
    return l10n.t('How many NewBlockHeader events to collect (1 to 100)');
  },
  get placeholder() {
    return l10n.t('empty = 3');
  },
  optional: true,
  validate: v.validateEventCount,
};

// --- helpers -------------------------------------------------------------------------------

function hexToDecimal(result: unknown): string | undefined {
  const n = parseHexQuantity(result); // a uint256 at most: a longer answer is not a quantity
  if (n === undefined) return typeof result === 'string' ? l10n.t('not a quantity: {0}', shownNumber(result)) : undefined;
  return l10n.t('{0} = {1} (decimal)', String(result), n.toString());
}

function hexToWei(result: unknown): string | undefined {
  const n = parseHexQuantity(result);
  if (n === undefined) return typeof result === 'string' ? l10n.t('not a quantity: {0}', shownNumber(result)) : undefined;
  return l10n.t('{0} = {1} wei', String(result), n.toString());
}

function jsonParams(args: Args): unknown {
  const text = (args.params ?? '').trim();
  return text === '' ? [] : JSON.parse(text);
}

function splitPath(input: string): { path: string; rawQuery?: string } {
  const text = input.trim();
  const q = text.indexOf('?');
  return q < 0 ? { path: text } : { path: text.slice(0, q), rawQuery: text.slice(q + 1) };
}

function heightOf(args: Args): string | undefined {
  const h = (args.height ?? '').trim();
  return h === '' ? undefined : v.normalizeHeight(h);
}

function cometStatusSummary(result: unknown): string | undefined {
  const r = result as { sync_info?: { latest_block_height?: string }; node_info?: { network?: string } } | undefined;
  const h = r?.sync_info?.latest_block_height;
  if (!h) return undefined;
  const height = parseDecimalHeight(h) !== undefined ? String(h) : l10n.t('not a block height ({0})', shownNumber(String(h)));
  return l10n.t('height {0} · chain {1}', height, shownNumber(String(r?.node_info?.network ?? '?')));
}

const NEW_BLOCK_HEADER = "tm.event='NewBlockHeader'";

// --- the catalogue -------------------------------------------------------------------------

export const OPERATIONS: readonly Operation[] = [
  // EVM RPC
  {
    id: 'evm.blockNumber',
    iface: 'evmRpc',
    label: 'eth_blockNumber',
    get title() {
      return l10n.t('EVM RPC: eth_blockNumber (latest block number)');
    },
    params: [],
    build: () => ({ kind: 'jsonrpc', method: 'eth_blockNumber', params: [] }),
    summarize: hexToDecimal,
  },
  {
    id: 'evm.chainId',
    iface: 'evmRpc',
    label: 'eth_chainId',
    get title() {
      return l10n.t('EVM RPC: eth_chainId');
    },
    params: [],
    build: () => ({ kind: 'jsonrpc', method: 'eth_chainId', params: [] }),
    summarize: hexToDecimal,
  },
  {
    id: 'evm.getBlockByNumber',
    iface: 'evmRpc',
    label: 'eth_getBlockByNumber',
    get title() {
      return l10n.t('EVM RPC: eth_getBlockByNumber (latest or a height)');
    },
    params: [optionalHeight],
    build: (a) => {
      const h = heightOf(a);
      return { kind: 'jsonrpc', method: 'eth_getBlockByNumber', params: [h ? '0x' + BigInt(h).toString(16) : 'latest', false] };
    },
    summarize: (r) => (r === null ? l10n.t('null: no such block (past the tip, or pruned)') : undefined),
  },
  {
    id: 'evm.getTransactionByHash',
    iface: 'evmRpc',
    label: 'eth_getTransactionByHash',
    get title() {
      return l10n.t('EVM RPC: eth_getTransactionByHash');
    },
    params: [evmTxHash],
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_getTransactionByHash', params: [a.hash.trim().toLowerCase()] }),
    summarize: (r) => (r === null ? l10n.t('null: no transaction with that hash') : undefined),
  },
  {
    id: 'evm.getTransactionReceipt',
    iface: 'evmRpc',
    label: 'eth_getTransactionReceipt',
    get title() {
      return l10n.t('EVM RPC: eth_getTransactionReceipt');
    },
    params: [evmTxHash],
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_getTransactionReceipt', params: [a.hash.trim().toLowerCase()] }),
    summarize: (r) => (r === null ? l10n.t('null: no receipt (unknown or pending transaction)') : undefined),
  },
  {
    id: 'evm.getBalance',
    iface: 'evmRpc',
    label: 'eth_getBalance',
    get title() {
      return l10n.t('EVM RPC: eth_getBalance (latest)');
    },
    params: [evmAddress],
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_getBalance', params: [a.address.trim(), 'latest'] }),
    summarize: hexToWei,
  },
  {
    id: 'evm.sendRawTransaction',
    iface: 'evmRpc',
    label: 'eth_sendRawTransaction',
    get title() {
      return l10n.t('EVM RPC: eth_sendRawTransaction (broadcast)');
    },
    params: [evmRawTx],
    broadcast: true,
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_sendRawTransaction', params: [a.tx.trim().toLowerCase()] }),
  },
  {
    id: 'evm.custom',
    iface: 'evmRpc',
    get label() {
      return l10n.t('Custom JSON-RPC request…');
    },
    get title() {
      return l10n.t('EVM RPC: custom JSON-RPC request');
    },
    params: [method, params],
    build: (a) => ({ kind: 'jsonrpc', method: a.method.trim(), params: jsonParams(a) }),
  },

  // Consensus HTTP (CometBFT URI form)
  {
    id: 'consensus.genesis',
    iface: 'consensusHttp',
    label: 'genesis',
    get title() {
      return l10n.t('Consensus HTTP: genesis (chunked when large)');
    },
    params: [],
    build: () => ({ kind: 'genesis' }),
  },
  {
    id: 'consensusHttp.status',
    iface: 'consensusHttp',
    label: 'status',
    get title() {
      return l10n.t('Consensus HTTP: status');
    },
    params: [],
    build: () => ({ kind: 'get', path: '/status' }),
    summarize: cometStatusSummary,
  },
  {
    id: 'consensusHttp.validators',
    iface: 'consensusHttp',
    label: 'validators',
    get title() {
      return l10n.t('Consensus HTTP: validators (latest or a height)');
    },
    params: [optionalHeight],
    build: (a) => ({ kind: 'get', path: '/validators', query: { height: heightOf(a) } }),
  },
  {
    id: 'consensusHttp.block',
    iface: 'consensusHttp',
    label: 'block',
    get title() {
      return l10n.t('Consensus HTTP: block at a height');
    },
    params: [height],
    build: (a) => ({ kind: 'get', path: '/block', query: { height: heightOf(a) } }),
  },
  {
    id: 'consensusHttp.tx',
    iface: 'consensusHttp',
    label: 'tx',
    get title() {
      return l10n.t('Consensus HTTP: tx by hash');
    },
    params: [cometTxHash],
    build: (a) => ({ kind: 'get', path: '/tx', query: { hash: '0x' + v.normalizeCometHash(a.hash) } }),
  },
  {
    id: 'consensusHttp.custom',
    iface: 'consensusHttp',
    get label() {
      return l10n.t('Custom GET request…');
    },
    get title() {
      return l10n.t('Consensus HTTP: custom GET request');
    },
    params: [getPath],
    build: (a) => ({ kind: 'get', ...splitPath(a.path) }),
  },

  // Consensus RPC (CometBFT JSON-RPC over POST)
  {
    id: 'consensus.block',
    iface: 'consensusRpc',
    label: 'block',
    get title() {
      return l10n.t('Consensus RPC: block at a height');
    },
    params: [height],
    build: (a) => ({ kind: 'jsonrpc', method: 'block', params: [heightOf(a)] }),
  },
  {
    id: 'consensusRpc.status',
    iface: 'consensusRpc',
    label: 'status',
    get title() {
      return l10n.t('Consensus RPC: status');
    },
    params: [],
    build: () => ({ kind: 'jsonrpc', method: 'status', params: [] }),
    summarize: cometStatusSummary,
  },
  {
    id: 'consensusRpc.validators',
    iface: 'consensusRpc',
    label: 'validators',
    get title() {
      return l10n.t('Consensus RPC: validators (latest or a height)');
    },
    params: [optionalHeight],
    build: (a) => {
      const h = heightOf(a);
      return { kind: 'jsonrpc', method: 'validators', params: h ? { height: h } : {} };
    },
  },
  {
    id: 'consensusRpc.broadcastTxSync',
    iface: 'consensusRpc',
    label: 'broadcast_tx_sync',
    get title() {
      return l10n.t('Consensus RPC: broadcast_tx_sync (broadcast)');
    },
    params: [txBytes],
    broadcast: true,
    build: (a) => ({ kind: 'jsonrpc', method: 'broadcast_tx_sync', params: { tx: v.normalizeTxBytes(a.tx) } }),
    summarize: (r) => {
      const res = r as { code?: number; hash?: string; log?: string } | undefined;
      if (!res || typeof res.code !== 'number') return undefined;
      return res.code === 0 ? l10n.t('accepted by CheckTx · hash {0}', String(res.hash)) : l10n.t('REFUSED by CheckTx: code {0} {1}', res.code, res.log ?? '').trim();
    },
  },
  {
    id: 'consensusRpc.custom',
    iface: 'consensusRpc',
    get label() {
      return l10n.t('Custom JSON-RPC request…');
    },
    get title() {
      return l10n.t('Consensus RPC: custom JSON-RPC request');
    },
    params: [method, params],
    build: (a) => ({ kind: 'jsonrpc', method: a.method.trim(), params: jsonParams(a) }),
  },

  // Consensus WebSocket
  {
    id: 'consensusWs.subscribeNewBlocks',
    iface: 'consensusWs',
    get label() {
      return l10n.t('subscribe to new blocks');
    },
    get title() {
      return l10n.t('Consensus WebSocket: subscribe to new blocks (collect NewBlockHeader events)');
    },
    params: [eventCount],
    build: (a) => ({ kind: 'ws-subscribe', query: NEW_BLOCK_HEADER, count: Number((a.count ?? '').trim() || '3') }),
  },
  {
    id: 'consensusWs.custom',
    iface: 'consensusWs',
    get label() {
      return l10n.t('Custom JSON-RPC request…');
    },
    get title() {
      return l10n.t('Consensus WebSocket: custom JSON-RPC request');
    },
    params: [method, params],
    build: (a) => ({ kind: 'ws-call', method: a.method.trim(), params: jsonParams(a) }),
  },

  // REST (Cosmos SDK gateway)
  {
    id: 'rest.latestBlock',
    iface: 'rest',
    label: 'blocks/latest',
    get title() {
      return l10n.t('REST: latest block');
    },
    params: [],
    build: () => ({ kind: 'get', path: '/cosmos/base/tendermint/v1beta1/blocks/latest' }),
  },
  {
    id: 'rest.blockByHeight',
    iface: 'rest',
    label: 'blocks/{height}',
    get title() {
      return l10n.t('REST: block at a height');
    },
    params: [height],
    build: (a) => ({ kind: 'get', path: `/cosmos/base/tendermint/v1beta1/blocks/${heightOf(a)}` }),
  },
  {
    id: 'rest.nodeInfo',
    iface: 'rest',
    label: 'node_info',
    get title() {
      return l10n.t('REST: node info');
    },
    params: [],
    build: () => ({ kind: 'get', path: '/cosmos/base/tendermint/v1beta1/node_info' }),
  },
  {
    id: 'rest.syncing',
    iface: 'rest',
    label: 'syncing',
    get title() {
      return l10n.t('REST: syncing');
    },
    params: [],
    build: () => ({ kind: 'get', path: '/cosmos/base/tendermint/v1beta1/syncing' }),
  },
  {
    id: 'rest.validatorSetsLatest',
    iface: 'rest',
    label: 'validatorsets/latest',
    get title() {
      return l10n.t('REST: latest validator set');
    },
    params: [],
    build: () => ({ kind: 'get', path: '/cosmos/base/tendermint/v1beta1/validatorsets/latest' }),
  },
  {
    id: 'rest.balances',
    iface: 'rest',
    get label() {
      return l10n.t('bank balances');
    },
    get title() {
      return l10n.t('REST: bank balances of an address');
    },
    params: [bech32Address],
    build: (a) => ({ kind: 'get', path: `/cosmos/bank/v1beta1/balances/${encodeURIComponent(a.address.trim())}` }),
  },
  {
    id: 'rest.tx',
    iface: 'rest',
    get label() {
      return l10n.t('tx by hash');
    },
    get title() {
      return l10n.t('REST: transaction by hash');
    },
    params: [cometTxHash],
    build: (a) => ({ kind: 'get', path: `/cosmos/tx/v1beta1/txs/${v.normalizeCometHash(a.hash)}` }),
  },
  {
    id: 'rest.broadcast',
    iface: 'rest',
    get label() {
      return l10n.t('broadcast tx');
    },
    get title() {
      return l10n.t('REST: broadcast a transaction (BROADCAST_MODE_SYNC)');
    },
    params: [txBytes],
    broadcast: true,
    build: (a) => ({
      kind: 'post',
      path: '/cosmos/tx/v1beta1/txs',
      body: { tx_bytes: v.normalizeTxBytes(a.tx), mode: 'BROADCAST_MODE_SYNC' },
    }),
    summarize: (r) => {
      const res = (r as { tx_response?: { code?: number; txhash?: string; raw_log?: string } } | undefined)?.tx_response;
      if (!res || typeof res.code !== 'number') return undefined;
      return res.code === 0 ? l10n.t('accepted by CheckTx · hash {0}', String(res.txhash)) : l10n.t('REFUSED by CheckTx: code {0} {1}', res.code, res.raw_log ?? '').trim();
    },
  },
  {
    id: 'rest.custom',
    iface: 'rest',
    get label() {
      return l10n.t('Custom GET request…');
    },
    get title() {
      return l10n.t('REST: custom GET request');
    },
    params: [getPath],
    build: (a) => ({ kind: 'get', ...splitPath(a.path) }),
  },
];

const BY_ID = new Map(OPERATIONS.map((op) => [op.id, op]));

export function findOperation(id: string): Operation | undefined {
  return BY_ID.get(id.startsWith(COMMAND_PREFIX) ? id.slice(COMMAND_PREFIX.length) : id);
}

export function operationsFor(iface: InterfaceId): Operation[] {
  return OPERATIONS.filter((op) => op.iface === iface);
}

/** Checks every argument an operation needs; returns the first error sentence. */
export function validateArgs(op: Operation, args: Args): string | undefined {
  for (const p of op.params) {
    const value = args[p.key];
    if (value === undefined || value.trim() === '') {
      if (p.optional) continue;
      return l10n.t('{0} is required: {1}.', p.title, p.prompt.charAt(0).toLowerCase() + p.prompt.slice(1));
    }
    const error = p.validate(value);
    if (error) return error;
  }
  return undefined;
}
