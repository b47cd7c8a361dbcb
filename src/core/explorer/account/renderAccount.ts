// The account page's state as Markdown (render.ts's address document): the height read at, the
// coverage line, the reconciliation line and stake (delegations, pending rewards, unbondings); what
// could not be read is in the document's Notes. Server text through esc()/id() as everywhere in the explorer's documents.

import { type Doc, coin, esc, id } from '../mdDoc';
import type { AccountStateView, ValidatorRef } from '../views';

/** The most rows of one list shown (the data has them all). */
const MAX_ROWS = 200;

const validator = (v: ValidatorRef) => `${id(v.validator)}${v.moniker ? ` (${esc(v.moniker)})` : ''}`;

/** The lines under the address's balances: reconciliation, fraction, coverage. */
export function renderBalanceLines(d: Doc, s: AccountStateView): void {
  d.kv('precise-bank fraction', s.fractional && esc(s.fractional));
  d.kv('reconciliation', s.reconciliation && esc(s.reconciliation.line));
}

export function renderAccountState(d: Doc, s: AccountStateView): void {
  if (s.coverage) {
    d.line('');
    d.line(`Coverage: ${esc(s.coverage)}`);
  }
  d.h(3, 'Stake');
  if (!s.delegations && !s.rewards && !s.unbondings) d.line('Not read (see the notes).');
  if (s.delegations) {
    if (s.delegations.length === 0) d.kv('delegations', 'none');
    for (const x of s.delegations.slice(0, MAX_ROWS)) d.kv('delegation', `${x.amount ? coin(x.amount) : `${esc(x.shares)} shares`} to ${validator(x)}`);
  }
  if (s.rewards) {
    if (s.rewards.length === 0) d.kv('pending rewards', 'none');
    for (const x of s.rewards.slice(0, MAX_ROWS)) d.kv('pending rewards', `${x.reward.map(coin).join(', ') || '0'} from ${validator(x)}`);
  }
  if (s.unbondings) {
    if (s.unbondings.length === 0) d.kv('unbondings', 'none');
    for (const x of s.unbondings.slice(0, MAX_ROWS)) {
      d.kv('unbonding', `${coin(x.balance)} from ${validator(x)}, completes ${id(x.completionTime)} (started at height ${esc(x.creationHeight)})`);
    }
  }
  // What could not be read (s.missing) is in the document's Notes, once.
}
