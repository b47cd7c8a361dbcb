// The Cosmos SDK REST gateway operations (interface rest).
// A new operation of this interface is one entry here (then `npm run compile:tests && node
// scripts/sync-manifest.mjs` for package.json and the activation ids).

import * as l10n from '../../base/l10n';
import type { Operation } from '../operation';
import { bech32Address, cometTxHash, getPath, height, heightOf, splitPath, txBytes } from '../params';
import * as v from '../validate';

export const REST_OPERATIONS: readonly Operation[] = [
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
      return res.code === 0
        ? l10n.t('accepted by CheckTx · hash {0}', String(res.txhash))
        : l10n.t('REFUSED by CheckTx: code {0} {1}', res.code, res.raw_log ?? '').trim();
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
