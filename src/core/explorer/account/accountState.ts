// The account page's state (issue #37, v1): one account at one height (or the latest) from the state
// reads of core/chain/state.ts, through the lookup's provider: every bank balance with its display
// units, the EVM balance, precise-bank's fraction and the line that reconciles them, delegations,
// pending rewards and unbonding entries with their validators' monikers, and the coverage line when
// the height is pruned on this provider. Reads that give nothing are listed (and noted); the rest
// still shows. Tokens (tokens.ts), history (history.ts) and the comparison of two heights (compare.ts) are
// read beside it by lookupAddress.ts.

import { type AccountState, type Reconciliation, type StateCoin, STATE_CONCURRENCY, pool, readAccountState } from '../../chain/state';
import type { AddressForms } from '../addresses';
import type { ChainContext } from '../context';
import { type ExplorerSource, rethrowCancel } from '../source';
import { shownName } from './tokens';
import type { AccountStateView, Coin, DelegationView, RedelegationView, RewardView, UnbondingView } from '../views';

/** Balances shown with their display units (each unit is one metadata read; the rest in base units). */
const MAX_DISPLAYED = 20;
/** The most validators whose moniker is read (one request each). */
const MAX_MONIKERS = 8;

type Json = Record<string, any>;

export interface AccountPage {
  readonly balances?: readonly Coin[];
  readonly evmBalance?: Coin;
  readonly state: AccountStateView;
}

/** The one-line reconciliation: `bank(atest) = EVM balance`, with the scale and fraction when they count, or the difference. */
export function reconciliationLine(r: Reconciliation): string {
  const scaled = r.scale === '1' ? `bank(${r.denom})` : `bank(${r.denom}) × ${r.scale}`;
  const left = r.fraction === '0' ? scaled : `${scaled} + precise-bank fraction ${r.fraction}`;
  if (r.equal) return `${left} = EVM balance (${r.evm})`;
  return `${left} ≠ EVM balance: ${r.bank}${r.scale === '1' ? '' : ` × ${r.scale}`}${r.fraction === '0' ? '' : ` + ${r.fraction}`} vs ${r.evm}, a difference of ${r.difference} (EVM − bank)`;
}

/** Reads `forms`' account state at `height` (undefined: the latest); failures go to `notes`. */
export async function accountPage(
  src: ExplorerSource,
  ctx: ChainContext,
  forms: AddressForms,
  height: string | undefined,
  notes: string[],
): Promise<AccountPage> {
  const prefix = await ctx.prefix();
  const s = await readAccountState(src, forms.account ?? forms.hex ?? '', { height, prefix });
  const missing: string[] = [];
  for (const r of [s.balances, s.evmBalance, s.fractional, s.delegations, s.rewards, s.unbondings, s.redelegations, s.evmDenom]) {
    if (r.note) missing.push(r.note);
  }
  // The document says them once, under Notes (a provider without the interface a read needs is no news: its forms say so).
  for (const r of [s.balances, s.evmBalance, s.fractional, s.delegations, s.rewards, s.unbondings, s.redelegations, s.evmDenom]) {
    if (r.note && !(r.unavailable && !r.tried)) notes.push(r.note);
  }

  // A decimal amount (pending rewards are DecCoins: `16000000000000000.000000000000000000`) is shown
  // in display units from its whole part, what a withdrawal pays; `≈` when a fraction is cut off.
  const coins = async (list: readonly StateCoin[], display: boolean): Promise<Coin[]> => {
    const out: Coin[] = [];
    for (const [i, c] of list.entries()) {
      const m = display && i < MAX_DISPLAYED ? /^([0-9]+)(?:\.([0-9]+))?$/.exec(c.amount) : null;
      const shown = m ? (await ctx.coin(c.denom, m[1])).display : undefined;
      out.push(shown ? { ...c, display: m![2] && /[1-9]/.test(m![2]) ? `≈ ${shown}` : shown } : { ...c });
    }
    return out;
  };
  const monikers = await readMonikers(src, s, height);
  const named = (validator: string) => ({ validator, ...(monikers.get(validator) ? { moniker: monikers.get(validator) } : {}) });

  const delegations: DelegationView[] | undefined = s.delegations.value && [];
  for (const d of s.delegations.value ?? []) {
    const amount = d.balance && (await coins([d.balance], true))[0];
    delegations!.push({ ...named(d.validator), shares: d.shares, ...(amount ? { amount } : {}) });
  }
  const rewards: RewardView[] | undefined = s.rewards.value && [];
  for (const r of s.rewards.value ?? []) rewards!.push({ ...named(r.validator), reward: await coins(r.reward, true) });
  const unbondings: UnbondingView[] | undefined = s.unbondings.value && [];
  const bondDenom = s.delegations.value?.[0]?.balance?.denom ?? s.evmDenom.value;
  for (const u of s.unbondings.value ?? []) {
    const balance = bondDenom && /^[0-9]+$/.test(u.balance) ? await ctx.coin(bondDenom, u.balance) : { denom: bondDenom ?? '', amount: u.balance };
    unbondings!.push({ ...named(u.validator), balance, initialBalance: u.initialBalance, creationHeight: u.creationHeight, completionTime: u.completionTime });
  }

  const redelegations: RedelegationView[] | undefined = s.redelegations.value?.map((r) => ({
    source: named(r.source),
    destination: named(r.destination),
    balance: r.balance,
    initialBalance: r.initialBalance,
    creationHeight: r.creationHeight,
    completionTime: r.completionTime,
  }));

  const state: AccountStateView = {
    ...(s.height !== undefined ? { height: s.height } : {}),
    ...(s.evmDenom.value ? { evmDenom: s.evmDenom.value } : {}),
    ...(s.fractional.value !== undefined ? { fractional: s.fractional.value } : {}),
    ...(s.reconciliation ? { reconciliation: { ...s.reconciliation, line: reconciliationLine(s.reconciliation) } } : {}),
    ...(s.unreconciled ? { unreconciled: s.unreconciled } : {}),
    ...(delegations ? { delegations } : {}),
    ...(rewards ? { rewards } : {}),
    ...(unbondings ? { unbondings } : {}),
    ...(redelegations ? { redelegations } : {}),
    ...(s.coverage ? { coverage: s.coverage } : {}),
    ...(s.readThrough ? { readThrough: s.readThrough } : {}),
    missing,
  };
  return {
    ...(s.balances.value ? { balances: await coins(s.balances.value, true) } : {}),
    ...(s.evmBalance.value !== undefined ? { evmBalance: await ctx.evmValue(s.evmBalance.value) } : {}),
    state,
  };
}

/** The monikers of the validators the state names (at most MAX_MONIKERS, STATE_CONCURRENCY at once); a failure leaves the address alone. */
async function readMonikers(src: ExplorerSource, s: AccountState, height: string | undefined): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!src.has.rest) return names;
  const wanted = [
    ...new Set([
      ...[...(s.delegations.value ?? []), ...(s.rewards.value ?? []), ...(s.unbondings.value ?? [])].map((x) => x.validator),
      ...(s.redelegations.value ?? []).flatMap((r) => [r.source, r.destination]),
    ]),
  ]
    // An operator address (bech32): any other text is not asked about (it would go into the path as it is).
    .filter((v) => /^[a-z0-9]{1,83}1[02-9ac-hj-np-z]{6,90}$/.test(v))
    .slice(0, MAX_MONIKERS);
  await pool(
    wanted.map((v) => async () => {
      try {
        const r = (await src.rest(`/cosmos/staking/v1beta1/validators/${v}`, height)) as Json;
        const m: unknown = r?.validator?.description?.moniker;
        const shown = typeof m === 'string' ? shownName(m, 70) : '';
        if (shown !== '') names.set(v, shown);
      } catch (err) {
        rethrowCancel(err); // a moniker is a nicety: the operator address is still shown
      }
    }),
    STATE_CONCURRENCY,
  );
  return names;
}
