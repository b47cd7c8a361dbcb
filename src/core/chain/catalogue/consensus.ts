// The CometBFT operations: Consensus HTTP (URI form), Consensus RPC (JSON-RPC over POST) and
// the Consensus WebSocket.
// A new operation of this interface is one entry here (then `npm run compile:tests && node
// scripts/sync-manifest.mjs` for package.json and the activation ids).

import * as l10n from '../../base/l10n';
import type { Operation } from '../operation';
import {
  cometStatusSummary,
  cometTxHash,
  eventCount,
  getPath,
  height,
  heightOf,
  jsonParams,
  method,
  NEW_BLOCK_HEADER,
  optionalHeight,
  params,
  splitPath,
  txBytes,
} from '../params';
import * as v from '../validate';

export const CONSENSUS_OPERATIONS: readonly Operation[] = [
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
      return res.code === 0
        ? l10n.t('accepted by CheckTx · hash {0}', String(res.hash))
        : l10n.t('REFUSED by CheckTx: code {0} {1}', res.code, res.log ?? '').trim();
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
];
