// The catalogue of operations: one entry per request the extension can make. The tree's leaves,
// the palette commands (and package.json's contributions, checked by a unit test), copy-as-curl
// and the tests all read this one table, so a new operation is one entry here.

import { InterfaceId } from './providers';
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

export const COMMAND_PREFIX = 'chainEndpoints.';

// --- parameters ----------------------------------------------------------------------------

const height: ParamSpec = {
  key: 'height',
  title: 'Block height',
  prompt: 'A block height: a whole number from 1 to 9223372036854775807',
  placeholder: 'e.g. 1234',
  validate: v.validateHeight,
};
const optionalHeight: ParamSpec = {
  ...height,
  prompt: 'A block height, or leave empty for the latest block',
  placeholder: 'empty = latest',
  optional: true,
  validate: v.validateOptionalHeight,
};
const evmTxHash: ParamSpec = {
  key: 'hash',
  title: 'Transaction hash',
  prompt: 'The Ethereum transaction hash: 0x followed by 64 hex digits',
  placeholder: '0x…',
  validate: v.validateEvmTxHash,
};
const cometTxHash: ParamSpec = {
  key: 'hash',
  title: 'Transaction hash',
  prompt: 'The Cosmos transaction hash (SHA-256 of the tx bytes): 64 hex digits',
  placeholder: 'e.g. 4A5B…',
  validate: v.validateCometTxHash,
};
const evmAddress: ParamSpec = {
  key: 'address',
  title: 'Address',
  prompt: 'An EVM address: 0x followed by 40 hex digits',
  placeholder: '0x…',
  validate: v.validateEvmAddress,
};
const bech32Address: ParamSpec = {
  key: 'address',
  title: 'Address',
  prompt: 'A bech32 account address',
  placeholder: 'e.g. cosmos1…',
  validate: v.validateBech32Address,
};
const txBytes: ParamSpec = {
  key: 'tx',
  title: 'Signed transaction',
  prompt: 'The signed transaction bytes, as base64 or 0x-prefixed hex (sent as base64)',
  placeholder: 'base64 or 0x…',
  validate: v.validateTxBytes,
};
const evmRawTx: ParamSpec = {
  key: 'tx',
  title: 'Signed transaction',
  prompt: 'The signed, RLP-encoded transaction as 0x-prefixed hex',
  placeholder: '0x02f8…',
  validate: v.validateEvmRawTx,
};
const method: ParamSpec = {
  key: 'method',
  title: 'Method',
  prompt: 'The JSON-RPC method name',
  placeholder: 'e.g. eth_getLogs, status, abci_info',
  validate: v.validateMethodName,
};
const params: ParamSpec = {
  key: 'params',
  title: 'Params',
  prompt: 'The params as JSON: an array or an object (empty for none)',
  placeholder: 'e.g. ["latest", false] or {"height":"5"}',
  optional: true,
  validate: v.validateJsonParams,
};
const getPath: ParamSpec = {
  key: 'path',
  title: 'Path',
  prompt: 'A path and optional query, relative to the base address',
  placeholder: 'e.g. /status or /cosmos/bank/v1beta1/supply?pagination.limit=5',
  validate: v.validateGetPath,
};
const eventCount: ParamSpec = {
  key: 'count',
  title: 'Events',
  prompt: 'How many NewBlockHeader events to collect (1 to 100)',
  placeholder: 'empty = 3',
  optional: true,
  validate: v.validateEventCount,
};

// --- helpers -------------------------------------------------------------------------------

function hexToDecimal(result: unknown): string | undefined {
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]+$/.test(result)) return undefined;
  return `${result} = ${BigInt(result).toString()} (decimal)`;
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
  return h ? `height ${h} · chain ${r?.node_info?.network ?? '?'}` : undefined;
}

const NEW_BLOCK_HEADER = "tm.event='NewBlockHeader'";

// --- the catalogue -------------------------------------------------------------------------

export const OPERATIONS: readonly Operation[] = [
  // EVM RPC
  {
    id: 'evm.blockNumber',
    iface: 'evmRpc',
    label: 'eth_blockNumber',
    title: 'EVM RPC: eth_blockNumber (latest block number)',
    params: [],
    build: () => ({ kind: 'jsonrpc', method: 'eth_blockNumber', params: [] }),
    summarize: hexToDecimal,
  },
  {
    id: 'evm.chainId',
    iface: 'evmRpc',
    label: 'eth_chainId',
    title: 'EVM RPC: eth_chainId',
    params: [],
    build: () => ({ kind: 'jsonrpc', method: 'eth_chainId', params: [] }),
    summarize: hexToDecimal,
  },
  {
    id: 'evm.getBlockByNumber',
    iface: 'evmRpc',
    label: 'eth_getBlockByNumber',
    title: 'EVM RPC: eth_getBlockByNumber (latest or a height)',
    params: [optionalHeight],
    build: (a) => {
      const h = heightOf(a);
      return { kind: 'jsonrpc', method: 'eth_getBlockByNumber', params: [h ? '0x' + BigInt(h).toString(16) : 'latest', false] };
    },
    summarize: (r) => (r === null ? 'null: no such block (past the tip, or pruned)' : undefined),
  },
  {
    id: 'evm.getTransactionByHash',
    iface: 'evmRpc',
    label: 'eth_getTransactionByHash',
    title: 'EVM RPC: eth_getTransactionByHash',
    params: [evmTxHash],
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_getTransactionByHash', params: [a.hash.trim().toLowerCase()] }),
    summarize: (r) => (r === null ? 'null: no transaction with that hash' : undefined),
  },
  {
    id: 'evm.getTransactionReceipt',
    iface: 'evmRpc',
    label: 'eth_getTransactionReceipt',
    title: 'EVM RPC: eth_getTransactionReceipt',
    params: [evmTxHash],
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_getTransactionReceipt', params: [a.hash.trim().toLowerCase()] }),
    summarize: (r) => (r === null ? 'null: no receipt (unknown or pending transaction)' : undefined),
  },
  {
    id: 'evm.getBalance',
    iface: 'evmRpc',
    label: 'eth_getBalance',
    title: 'EVM RPC: eth_getBalance (latest)',
    params: [evmAddress],
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_getBalance', params: [a.address.trim(), 'latest'] }),
    summarize: (r) => {
      const d = hexToDecimal(r);
      return d ? d.replace('(decimal)', 'wei') : undefined;
    },
  },
  {
    id: 'evm.sendRawTransaction',
    iface: 'evmRpc',
    label: 'eth_sendRawTransaction',
    title: 'EVM RPC: eth_sendRawTransaction (broadcast)',
    params: [evmRawTx],
    broadcast: true,
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_sendRawTransaction', params: [a.tx.trim().toLowerCase()] }),
  },
  {
    id: 'evm.custom',
    iface: 'evmRpc',
    label: 'Custom JSON-RPC request…',
    title: 'EVM RPC: custom JSON-RPC request',
    params: [method, params],
    build: (a) => ({ kind: 'jsonrpc', method: a.method.trim(), params: jsonParams(a) }),
  },

  // Consensus HTTP (CometBFT URI form)
  {
    id: 'consensus.genesis',
    iface: 'consensusHttp',
    label: 'genesis',
    title: 'Consensus HTTP: genesis (chunked when large)',
    params: [],
    build: () => ({ kind: 'genesis' }),
  },
  {
    id: 'consensusHttp.status',
    iface: 'consensusHttp',
    label: 'status',
    title: 'Consensus HTTP: status',
    params: [],
    build: () => ({ kind: 'get', path: '/status' }),
    summarize: cometStatusSummary,
  },
  {
    id: 'consensusHttp.validators',
    iface: 'consensusHttp',
    label: 'validators',
    title: 'Consensus HTTP: validators (latest or a height)',
    params: [optionalHeight],
    build: (a) => ({ kind: 'get', path: '/validators', query: { height: heightOf(a) } }),
  },
  {
    id: 'consensusHttp.block',
    iface: 'consensusHttp',
    label: 'block',
    title: 'Consensus HTTP: block at a height',
    params: [height],
    build: (a) => ({ kind: 'get', path: '/block', query: { height: heightOf(a) } }),
  },
  {
    id: 'consensusHttp.tx',
    iface: 'consensusHttp',
    label: 'tx',
    title: 'Consensus HTTP: tx by hash',
    params: [cometTxHash],
    build: (a) => ({ kind: 'get', path: '/tx', query: { hash: '0x' + v.normalizeCometHash(a.hash) } }),
  },
  {
    id: 'consensusHttp.custom',
    iface: 'consensusHttp',
    label: 'Custom GET request…',
    title: 'Consensus HTTP: custom GET request',
    params: [getPath],
    build: (a) => ({ kind: 'get', ...splitPath(a.path) }),
  },

  // Consensus RPC (CometBFT JSON-RPC over POST)
  {
    id: 'consensus.block',
    iface: 'consensusRpc',
    label: 'block',
    title: 'Consensus RPC: block at a height',
    params: [height],
    build: (a) => ({ kind: 'jsonrpc', method: 'block', params: [heightOf(a)] }),
  },
  {
    id: 'consensusRpc.status',
    iface: 'consensusRpc',
    label: 'status',
    title: 'Consensus RPC: status',
    params: [],
    build: () => ({ kind: 'jsonrpc', method: 'status', params: [] }),
    summarize: cometStatusSummary,
  },
  {
    id: 'consensusRpc.validators',
    iface: 'consensusRpc',
    label: 'validators',
    title: 'Consensus RPC: validators (latest or a height)',
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
    title: 'Consensus RPC: broadcast_tx_sync (broadcast)',
    params: [txBytes],
    broadcast: true,
    build: (a) => ({ kind: 'jsonrpc', method: 'broadcast_tx_sync', params: { tx: v.normalizeTxBytes(a.tx) } }),
    summarize: (r) => {
      const res = r as { code?: number; hash?: string; log?: string } | undefined;
      if (!res || typeof res.code !== 'number') return undefined;
      return res.code === 0 ? `accepted by CheckTx · hash ${res.hash}` : `REFUSED by CheckTx: code ${res.code} ${res.log ?? ''}`.trim();
    },
  },
  {
    id: 'consensusRpc.custom',
    iface: 'consensusRpc',
    label: 'Custom JSON-RPC request…',
    title: 'Consensus RPC: custom JSON-RPC request',
    params: [method, params],
    build: (a) => ({ kind: 'jsonrpc', method: a.method.trim(), params: jsonParams(a) }),
  },

  // Consensus WebSocket
  {
    id: 'consensusWs.subscribeNewBlocks',
    iface: 'consensusWs',
    label: 'subscribe to new blocks',
    title: 'Consensus WebSocket: subscribe to new blocks (collect NewBlockHeader events)',
    params: [eventCount],
    build: (a) => ({ kind: 'ws-subscribe', query: NEW_BLOCK_HEADER, count: Number((a.count ?? '').trim() || '3') }),
  },
  {
    id: 'consensusWs.custom',
    iface: 'consensusWs',
    label: 'Custom JSON-RPC request…',
    title: 'Consensus WebSocket: custom JSON-RPC request',
    params: [method, params],
    build: (a) => ({ kind: 'ws-call', method: a.method.trim(), params: jsonParams(a) }),
  },

  // REST (Cosmos SDK gateway)
  {
    id: 'rest.latestBlock',
    iface: 'rest',
    label: 'blocks/latest',
    title: 'REST: latest block',
    params: [],
    build: () => ({ kind: 'get', path: '/cosmos/base/tendermint/v1beta1/blocks/latest' }),
  },
  {
    id: 'rest.blockByHeight',
    iface: 'rest',
    label: 'blocks/{height}',
    title: 'REST: block at a height',
    params: [height],
    build: (a) => ({ kind: 'get', path: `/cosmos/base/tendermint/v1beta1/blocks/${heightOf(a)}` }),
  },
  {
    id: 'rest.nodeInfo',
    iface: 'rest',
    label: 'node_info',
    title: 'REST: node info',
    params: [],
    build: () => ({ kind: 'get', path: '/cosmos/base/tendermint/v1beta1/node_info' }),
  },
  {
    id: 'rest.syncing',
    iface: 'rest',
    label: 'syncing',
    title: 'REST: syncing',
    params: [],
    build: () => ({ kind: 'get', path: '/cosmos/base/tendermint/v1beta1/syncing' }),
  },
  {
    id: 'rest.validatorSetsLatest',
    iface: 'rest',
    label: 'validatorsets/latest',
    title: 'REST: latest validator set',
    params: [],
    build: () => ({ kind: 'get', path: '/cosmos/base/tendermint/v1beta1/validatorsets/latest' }),
  },
  {
    id: 'rest.balances',
    iface: 'rest',
    label: 'bank balances',
    title: 'REST: bank balances of an address',
    params: [bech32Address],
    build: (a) => ({ kind: 'get', path: `/cosmos/bank/v1beta1/balances/${encodeURIComponent(a.address.trim())}` }),
  },
  {
    id: 'rest.tx',
    iface: 'rest',
    label: 'tx by hash',
    title: 'REST: transaction by hash',
    params: [cometTxHash],
    build: (a) => ({ kind: 'get', path: `/cosmos/tx/v1beta1/txs/${v.normalizeCometHash(a.hash)}` }),
  },
  {
    id: 'rest.broadcast',
    iface: 'rest',
    label: 'broadcast tx',
    title: 'REST: broadcast a transaction (BROADCAST_MODE_SYNC)',
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
      return res.code === 0 ? `accepted by CheckTx · hash ${res.txhash}` : `REFUSED by CheckTx: code ${res.code} ${res.raw_log ?? ''}`.trim();
    },
  },
  {
    id: 'rest.custom',
    iface: 'rest',
    label: 'Custom GET request…',
    title: 'REST: custom GET request',
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
      return `${p.title} is required: ${p.prompt.charAt(0).toLowerCase()}${p.prompt.slice(1)}.`;
    }
    const error = p.validate(value);
    if (error) return error;
  }
  return undefined;
}
