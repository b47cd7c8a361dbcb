// The account page's state as Markdown (render.ts's address document): the height read at, the
// coverage line, the reconciliation line and stake (delegations, pending rewards, unbondings); what
// could not be read is in the document's Notes. Then its ERC-20 tokens, the comparison of two heights,
// and a page of its history with the coverage lines; each entry's hash is a Look Up link (its receipt), and so is
// the next page (`<address> history page N`). Server text through esc()/id() as everywhere in the explorer's documents.

import { type Doc, coin, esc, id } from '../mdDoc';
import type { AccountComparison, AccountStateView, HistoryPage, TokenBalance, ValidatorRef } from '../views';

/** The most rows of one list shown (the data has them all). */
const MAX_ROWS = 200;

const validator = (v: ValidatorRef) => `${id(v.validator)}${v.moniker ? ` (${esc(v.moniker)})` : ''}`;

/** The lines under the address's balances: reconciliation, fraction, coverage. */
export function renderBalanceLines(d: Doc, s: AccountStateView): void {
  d.kv('precise-bank fraction', s.fractional && esc(s.fractional));
  d.kv('reconciliation', s.reconciliation ? esc(s.reconciliation.line) : s.unreconciled && esc(s.unreconciled));
  d.kv('state', s.readThrough && esc(s.readThrough));
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
  if (s.redelegations) {
    if (s.redelegations.length === 0) d.kv('redelegations', 'none');
    for (const x of s.redelegations.slice(0, MAX_ROWS)) {
      d.kv(
        'redelegation',
        `${esc(x.balance)} from ${validator(x.source)} to ${validator(x.destination)}, completes ${id(x.completionTime)} (started at height ${esc(x.creationHeight)})`,
      );
    }
  }
  // What could not be read (s.missing) is in the document's Notes, once.
}

export function renderTokens(d: Doc, tokens: { readonly list: readonly TokenBalance[]; readonly skipped: number }): void {
  d.h(3, 'ERC-20 tokens');
  if (tokens.list.length === 0) d.line('None known: no token pair on this chain, no Transfer log in the history read, no workspace contract.');
  for (const t of tokens.list) {
    const label = `${t.symbol ? esc(t.symbol) : 'token'}${t.name ? ` (${esc(t.name)})` : ''} ${id(t.address)}`;
    const amount =
      t.balance === undefined
        ? `not read: ${esc(t.error ?? 'unknown')}`
        : `${esc(t.balance)}${t.display !== undefined ? ` (${esc(t.display)}${t.symbol ? ` ${esc(t.symbol)}` : ''})` : ''}`;
    d.kv(label, `${amount} · from ${esc(t.source)}`);
  }
  if (tokens.skipped > 0) d.line(`${tokens.skipped} more token(s) not read (at most 20 a page).`);
}

export function renderComparison(d: Doc, c: AccountComparison): void {
  d.h(3, `Changes from height ${id(c.from)} to ${id(c.to)}`);
  if (c.changes.length === 0) d.line('Nothing changed in what was read at both heights.');
  for (const x of c.changes.slice(0, MAX_ROWS))
    d.kv(`${esc(x.part)} ${id(x.what)}`, `${esc(x.before)} → ${esc(x.after)}${x.delta !== undefined ? ` (${esc(x.delta)})` : ''}`);
  if (c.unchanged.length > 0) d.kv('unchanged', esc(c.unchanged.join(', ')));
  if (c.notCompared.length > 0) d.kv('not compared (not read at both heights)', esc(c.notCompared.join(', ')));
}

export function renderHistory(d: Doc, h: HistoryPage): void {
  d.h(3, `History, page ${h.number}${h.cosmosTotal !== undefined ? ` (the index counts ${h.cosmosTotal} Cosmos transactions for its busiest search)` : ''}`);
  for (const line of h.coverage.lines) d.line(`- Coverage: ${esc(line)}`);
  d.line('');
  if (h.entries.length === 0) d.line(h.number === 1 ? 'No transaction found in what this provider covers.' : 'No more entries.');
  for (const e of h.entries.slice(0, MAX_ROWS)) {
    const status = e.code === undefined || e.code === 0 ? '' : ` · failed (code ${e.code})`;
    const actions = e.actions.map((a) => esc(a)).join(', ');
    const transfers = (e.transfers ?? [])
      .slice(0, 5)
      .map((t) => `${t.amount !== undefined ? esc(t.amount) : `token id ${esc(t.tokenId ?? '?')}`} of ${id(t.token)} ${id(t.from)} → ${id(t.to)}`)
      .join('; ');
    const evm = e.hash && e.evmHashes.length > 0 ? ` · EVM ${e.evmHashes.slice(0, 3).map(id).join(', ')}` : '';
    d.line(
      `- height ${id(e.height)} · receipt ${id(e.lookUp)} · ${actions || 'transaction'} · ${esc(e.roles.join(', '))}${status}${evm}${transfers ? ` · ${transfers}` : ''}`,
    );
  }
  if (h.partial) d.line(`- The page stopped at its request budget: the next page continues.`);
  d.line('');
  if (h.next) d.kv('next page', id(h.next));
}
