// The account page as query files read it (core/queries/accountRequest.ts `explorer.account`): Look
// Up of `<address>[@height | @A..B]` on the provider, laid out for assertions: `balances.<denom>`
// (bank amounts by denom, base units), `evmBalance`, `reconciliation`, `delegations[i].validator` /
// `.amount`, `rewards`, `unbondings`, `redelegations`, `tokens[i]` (address, symbol, balance…),
// `history` (the first page: entries and coverage) and `coverage` (its lines, and the state's).

import type { ExecuteOptions } from '../../chain/execute';
import type { Provider } from '../../config/providers';
import { identify } from '../identify';
import { lookUpQuery } from '../lookup';
import { executeSource } from '../source';
import type { AddressView } from '../views';

/** The record fields of an account page (the roots of accountRequest.ts ACCOUNT_ROOTS). */
export function accountFields(a: AddressView): Record<string, unknown> {
  const s = a.state;
  return {
    address: { account: a.forms.account, hex: a.forms.hex, height: a.height },
    balances: Object.fromEntries((a.balances ?? []).map((c) => [c.denom, c.amount])),
    evmBalance: a.evmBalance?.amount,
    reconciliation: s?.reconciliation,
    delegations: s?.delegations?.map((d) => ({
      validator: d.validator,
      moniker: d.moniker,
      shares: d.shares,
      amount: d.amount?.amount,
      denom: d.amount?.denom,
    })),
    rewards: s?.rewards?.map((r) => ({ validator: r.validator, moniker: r.moniker, reward: Object.fromEntries(r.reward.map((c) => [c.denom, c.amount])) })),
    unbondings: s?.unbondings?.map((u) => ({
      validator: u.validator,
      balance: u.balance.amount,
      completionTime: u.completionTime,
      creationHeight: u.creationHeight,
    })),
    redelegations: s?.redelegations?.map((r) => ({
      source: r.source.validator,
      destination: r.destination.validator,
      balance: r.balance,
      completionTime: r.completionTime,
    })),
    tokens: a.tokens?.list.map((t) => ({ address: t.address, symbol: t.symbol, name: t.name, decimals: t.decimals, balance: t.balance, error: t.error })),
    history: a.history && { entries: a.history.entries, next: a.history.next, cosmosTotal: a.history.cosmosTotal },
    coverage: [...(s?.coverage ? [s.coverage] : []), ...(a.history?.coverage.lines ?? [])],
    ...(a.comparison ? { comparison: a.comparison } : {}),
  };
}

/** Reads the page on `wire` (its secrets substituted) with the request's options; throws a LocalizedError for input it refuses (nothing sent). */
export async function readAccountForQuery(
  wire: Provider,
  args: { readonly address: string; readonly height?: string },
  options: ExecuteOptions,
): Promise<{ fields: Record<string, unknown>; summary: string }> {
  const text = `${args.address}${args.height ? `@${args.height}` : ''}`;
  const q = identify(text);
  const r = await lookUpQuery(executeSource(wire, options), q, text);
  if (r.kind !== 'address') return { fields: {}, summary: r.found };
  const fields = accountFields(r.address);
  const b = r.address.balances?.length ?? 0;
  const d = r.address.state?.delegations?.length ?? 0;
  const t = r.address.tokens?.list.length ?? 0;
  const h = r.address.history?.entries.length ?? 0;
  return { fields: { ...fields, notes: r.notes }, summary: `${b} balance(s), ${d} delegation(s), ${t} token(s), ${h} history entries` };
}
