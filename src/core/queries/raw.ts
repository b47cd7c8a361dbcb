// Raw requests of query files: the catalogue's `*.custom` operations cover JSON-RPC methods and GET
// paths; a WebSocket subscription to any query (not only NewBlockHeader) is the one operation query
// files add, built like a catalogue entry so execute() runs it with every limit.

import { RECEIPT_OPERATION } from './receiptRequest';
import * as l10n from '../base/l10n';
import type { Operation, ParamSpec } from '../chain/operation';
import { findOperation } from '../chain/operations';
import { eventCount } from '../chain/params';

const subscribeQuery: ParamSpec = {
  key: 'query',
  get title() {
    return l10n.t('Query');
  },
  get prompt() {
    return l10n.t("A CometBFT event query, such as tm.event='Tx'");
  },
  validate: (value) => {
    const t = value.trim();
    if (t === '') return l10n.t("Type an event query such as tm.event='NewBlock'.");
    if (/[\r\n]/.test(t) || t.length > 1000) return l10n.t('The query must be one line of at most 1000 characters.');
    return undefined;
  },
};

export const WS_SUBSCRIBE: Operation = {
  id: 'consensusWs.subscribe',
  iface: 'consensusWs',
  label: 'subscribe',
  get title() {
    return l10n.t('Consensus WebSocket: subscribe to a query (collect events)');
  },
  params: [subscribeQuery, eventCount],
  build: (a) => ({ kind: 'ws-subscribe', query: a.query.trim(), count: Number((a.count ?? '').trim() || '3') }),
};

/** An operation of the catalogue, or the query files' own: the raw subscribe and the receipt. */
export function findQueryOperation(id: string): Operation | undefined {
  return id === WS_SUBSCRIBE.id ? WS_SUBSCRIBE : id === RECEIPT_OPERATION.id ? RECEIPT_OPERATION : findOperation(id);
}
