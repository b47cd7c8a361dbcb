// Two heights of one account side by side (`<address>@1200..1300`, issue #37): what changed in its
// bank balances, EVM balance, stake (delegations, pending rewards, unbondings, redelegations) and
// ERC-20 balances, each change with its before, after and difference. Amounts are decimal strings
// (DecCoins keep their 18 fractional digits); the arithmetic is exact (BigInt on scaled values).

import { MAX_INTEGER_TEXT } from '../../base/limits';
import type { TokenBalance } from './tokens';
import type { AccountChange, AccountComparison, AccountStateView, Coin, ValidatorRef } from '../views';

/** What one height holds, as the account page reads it. */
export interface AccountSnapshot {
  readonly balances?: readonly Coin[];
  readonly evmBalance?: Coin;
  readonly state?: AccountStateView;
  readonly tokens?: readonly TokenBalance[];
}

const DEC = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

/** b − a for two decimal strings (exact); undefined when either is not a decimal. */
export function decimalDelta(a: string, b: string): string | undefined {
  // Amounts and shares (80 digits and 40 decimals at most, as the state reads keep them): nothing longer goes to BigInt.
  if (a.length > 2 * MAX_INTEGER_TEXT || b.length > 2 * MAX_INTEGER_TEXT) return undefined;
  const ma = DEC.exec(a);
  const mb = DEC.exec(b);
  if (!ma || !mb) return undefined;
  const scale = Math.max(ma[3]?.length ?? 0, mb[3]?.length ?? 0);
  const big = (m: RegExpExecArray) => (m[1] === '-' ? -1n : 1n) * BigInt(`${m[2]}${(m[3] ?? '').padEnd(scale, '0')}`);
  const d = big(mb) - big(ma);
  const neg = d < 0n;
  const digits = (neg ? -d : d).toString().padStart(scale + 1, '0');
  let text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  if (scale > 0) text = text.replace(/\.?0+$/, '');
  return `${neg ? '-' : d === 0n ? '' : '+'}${text}`;
}

function diffMaps(
  part: string,
  a: Map<string, string> | undefined,
  b: Map<string, string> | undefined,
  out: AccountChange[],
  same: string[],
  not: string[],
  labels?: ReadonlyMap<string, string>,
): void {
  if (!a || !b) {
    not.push(part);
    return;
  }
  let changed = false;
  for (const k of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const before = a.get(k) ?? '0';
    const after = b.get(k) ?? '0';
    if (before === after) continue;
    const delta = decimalDelta(before, after);
    if (delta !== undefined && /^[+-]?0$/.test(delta)) continue; // 5 and 5.000000000000000000
    changed = true;
    out.push({ part, what: labels?.get(k) ?? k, before, after, ...(delta !== undefined ? { delta } : {}) });
  }
  if (!changed) same.push(part);
}

const coinsMap = (list: readonly Coin[] | undefined) => list && new Map(list.map((c) => [c.denom, c.amount]));

/** What changed from `a` (at `from`) to `b` (at `to`). */
export function compareSnapshots(from: string, to: string, a: AccountSnapshot, b: AccountSnapshot): AccountComparison {
  const changes: AccountChange[] = [];
  const unchanged: string[] = [];
  const notCompared: string[] = [];
  diffMaps('bank', coinsMap(a.balances), coinsMap(b.balances), changes, unchanged, notCompared);
  diffMaps(
    'EVM',
    a.evmBalance && new Map([['EVM balance', a.evmBalance.amount]]),
    b.evmBalance && new Map([['EVM balance', b.evmBalance.amount]]),
    changes,
    unchanged,
    notCompared,
  );
  // Stake is matched by validator address (a moniker read at one height only, or changed, is the same
  // validator), and shown with its moniker; pending rewards per validator and denom.
  const labels = new Map<string, string>();
  const stake = <T>(list: readonly T[] | undefined, key: (x: T) => string, amount: (x: T) => string, label?: (x: T) => string) => {
    if (!list) return undefined;
    const m = new Map<string, string>();
    for (const x of list) {
      const k = key(x);
      const prev = m.get(k);
      m.set(k, prev === undefined ? amount(x) : (decimalDelta(`-${prev}`, amount(x)) ?? amount(x)).replace(/^\+/, ''));
      // The fuller label (with the moniker, where one height read it).
      const l = label?.(x);
      if (l !== undefined && (labels.get(k)?.length ?? 0) < l.length) labels.set(k, l);
    }
    return m;
  };
  const named = (v: { validator: string; moniker?: string }) => (v.moniker ? `${v.validator} (${v.moniker})` : v.validator);
  const byValidator = (v: { validator: string }) => v.validator;
  // An amount where the node gave one, else the shares (said: shares and an amount are not compared as numbers).
  const staked = (d: { shares: string; amount?: Coin }) => d.amount?.amount ?? `${d.shares} shares`;
  diffMaps(
    'delegation',
    stake(a.state?.delegations, byValidator, staked, named),
    stake(b.state?.delegations, byValidator, staked, named),
    changes,
    unchanged,
    notCompared,
    labels,
  );
  const rewardCoins = (list: AccountStateView['rewards']) => list?.flatMap((r) => r.reward.map((c) => ({ ...r, coin: c })));
  const rewardKey = (r: { validator: string; coin: Coin }) => `${r.validator} ${r.coin.denom}`;
  diffMaps(
    'pending rewards',
    stake(
      rewardCoins(a.state?.rewards),
      rewardKey,
      (r) => r.coin.amount,
      (r) => `${named(r)} ${r.coin.denom}`,
    ),
    stake(
      rewardCoins(b.state?.rewards),
      rewardKey,
      (r) => r.coin.amount,
      (r) => `${named(r)} ${r.coin.denom}`,
    ),
    changes,
    unchanged,
    notCompared,
    labels,
  );
  diffMaps(
    'unbonding',
    stake(a.state?.unbondings, byValidator, (u) => u.balance.amount, named),
    stake(b.state?.unbondings, byValidator, (u) => u.balance.amount, named),
    changes,
    unchanged,
    notCompared,
    labels,
  );
  // By the two validators' addresses (their views are objects: a template of them was "[object Object]" for every one).
  const route = (r: { source: { validator: string }; destination: { validator: string } }) => `${r.source.validator} → ${r.destination.validator}`;
  const routeLabel = (r: { source: ValidatorRef; destination: ValidatorRef }) => `${named(r.source)} → ${named(r.destination)}`;
  diffMaps(
    'redelegation',
    stake(a.state?.redelegations, route, (r) => r.balance, routeLabel),
    stake(b.state?.redelegations, route, (r) => r.balance, routeLabel),
    changes,
    unchanged,
    notCompared,
    labels,
  );
  // By address (a symbol read at one height only is the same token), shown with its symbol.
  const tokens = (list: readonly TokenBalance[] | undefined) =>
    stake(
      list?.filter((t) => t.balance !== undefined),
      (t) => t.address.toLowerCase(),
      (t) => t.balance!,
      (t) => `${t.symbol ? `${t.symbol} ` : ''}${t.address}`,
    );
  diffMaps('token', tokens(a.tokens), tokens(b.tokens), changes, unchanged, notCompared, labels);
  return { from, to, changes, unchanged, notCompared };
}
