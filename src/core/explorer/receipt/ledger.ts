// The ledger: per account and denom, the balance measured at N−1 and N against the sum of the causes'
// movements. A difference is flagged as unexplained with its amount; a balance not read (pruned, a
// failed read, an account over the cap) is unmeasured and says why. Module accounts are not read
// (every block moves them: fees, inflation, rewards), so their rows are the causes' sums only.
// Pure: integers are BigInt, output decimal strings.

import type { BalanceChange, Cause, StateSnapshot } from './types';

export interface LedgerInput {
  readonly causes: readonly Cause[];
  /** The accounts read: lowercase 0x -> bech32 and the two snapshots. */
  readonly accounts: ReadonlyArray<{ readonly account: string; readonly bech32: string; readonly before?: StateSnapshot; readonly after?: StateSnapshot }>;
  /** Module accounts by 0x form (their rows: causes only, not measured). */
  readonly modules: ReadonlyMap<string, string>;
  readonly bech32Of: (hex: string) => string;
  readonly evmDenom?: string;
  readonly display: (amount: string, denom: string) => string | undefined;
}

/** A snapshot's balances by denom: where they were read, and which denoms are not known (not read, or not a whole number). */
interface Balances {
  /** `bank`: the bank's balances; `evm`: eth_getBalance for the EVM denom (the bank was not read). */
  readonly source: 'bank' | 'evm';
  readonly amounts: Map<string, bigint>;
  /** Denoms listed with an amount that is no whole number. */
  readonly unreadable: Set<string>;
  /** Only the first pages were read: a denom not listed is not known to be 0. */
  readonly truncated: boolean;
}

/** The balances of a snapshot by denom (the bank's; the EVM view for the EVM denom when the bank was not read). */
function balancesOf(s: StateSnapshot | undefined, evmDenom: string | undefined): Balances | undefined {
  if (!s) return undefined;
  if (s.balances) {
    const amounts = new Map<string, bigint>();
    const unreadable = new Set<string>();
    for (const c of s.balances) {
      if (/^\d{1,78}$/.test(c.amount)) amounts.set(c.denom, BigInt(c.amount));
      else unreadable.add(c.denom);
    }
    return { source: 'bank', amounts, unreadable, truncated: s.balancesTruncated === true };
  }
  if (evmDenom && s.evmBalance !== undefined && /^\d{1,78}$/.test(s.evmBalance))
    return { source: 'evm', amounts: new Map([[evmDenom, BigInt(s.evmBalance)]]), unreadable: new Set(), truncated: false };
  return undefined;
}

/** Why `denom`'s balance at one of the heights is not known although both snapshots have balances (undefined: it is known, 0 when not listed). */
function unknownDenom(b: Balances, denom: string, height: string): string | undefined {
  if (b.unreadable.has(denom)) return `its amount at ${height} is not a whole number`;
  if (b.truncated && !b.amounts.has(denom)) return `not among the first denoms read at ${height} (the account holds more than were read)`;
  return undefined;
}

const SOURCE_TEXT = { bank: 'the bank balances', evm: 'eth_getBalance' } as const;

/** A cause's movement of one account and denom; `text`: its amount as the cause wrote it when that is its decimal form (no BigInt printed again). */
interface Part {
  cause: number;
  amount: bigint;
  text: string | undefined;
}

/** Decimal digits as BigInt prints them: no leading zero, no `-0`. */
const CANONICAL = /^(?:0|-?[1-9][0-9]*)$/;

export function ledger(input: LedgerInput): { changes: BalanceChange[]; summary: string } {
  // The causes' movements, per account and denom.
  const expected = new Map<string, Map<string, { sum: bigint; parts: Part[] }>>();
  for (let ci = 0; ci < input.causes.length; ci++) {
    const c = input.causes[ci];
    for (let k = 0; k < c.moves.length; k++) {
      const m = c.moves[k];
      let byDenom = expected.get(m.account);
      if (!byDenom) expected.set(m.account, (byDenom = new Map()));
      let row = byDenom.get(m.denom);
      if (!row) byDenom.set(m.denom, (row = { sum: 0n, parts: [] }));
      const v = BigInt(m.amount);
      row.sum += v;
      // Causes come in order: a cause's earlier movement of this account and denom is the last part.
      const same = row.parts.length > 0 ? row.parts[row.parts.length - 1] : undefined;
      if (same && same.cause === ci) {
        same.amount += v;
        same.text = undefined;
      } else row.parts.push({ cause: ci, amount: v, text: CANONICAL.test(m.amount) ? m.amount : undefined });
    }
  }
  const changes: BalanceChange[] = [];
  const show = (v: bigint, denom: string) => input.display(v.toString(), denom);
  const partsOf = (ps: readonly Part[], denom: string) => {
    const out: Array<{ cause: number; amount: string; display: string | undefined }> = [];
    for (let k = 0; k < ps.length; k++) {
      const p = ps[k];
      if (p.amount === 0n) continue;
      const amount = p.text ?? p.amount.toString();
      out.push({ cause: p.cause, amount, display: input.display(amount, denom) });
    }
    return out;
  };
  const read = new Set<string>();
  for (const acc of input.accounts) {
    read.add(acc.account);
    const b0 = balancesOf(acc.before, input.evmDenom);
    const a0 = balancesOf(acc.after, input.evmDenom);
    // Read through different interfaces (the bank at one height, eth_getBalance at the other): never compared.
    const mixed = b0 !== undefined && a0 !== undefined && b0.source !== a0.source;
    const before = mixed ? undefined : b0;
    const after = mixed ? undefined : a0;
    const exp = expected.get(acc.account) ?? new Map<string, { sum: bigint; parts: Part[] }>();
    const denoms = new Set<string>([...exp.keys(), ...(before?.amounts.keys() ?? []), ...(after?.amounts.keys() ?? [])]);
    for (const denom of [...denoms].sort()) {
      const e = exp.get(denom) ?? { sum: 0n, parts: [] };
      const parts = partsOf(e.parts, denom);
      const base = { account: acc.account, bech32: acc.bech32, denom, explained: e.sum.toString(), parts };
      const unknown = before && after ? (unknownDenom(before, denom, acc.before!.height) ?? unknownDenom(after, denom, acc.after!.height)) : undefined;
      if (!before || !after || unknown) {
        if (e.parts.length === 0) continue;
        const missing = [...(acc.before?.missing ?? []), ...(acc.after?.missing ?? [])].slice(0, 2).join('; ');
        const why =
          unknown ??
          (mixed
            ? `the balance at ${acc.before!.height} was read through ${SOURCE_TEXT[b0.source]}, at ${acc.after!.height} through ${SOURCE_TEXT[a0.source]}: not compared`
            : acc.before?.pruned
              ? `height ${acc.before.height} is pruned on this provider`
              : acc.after?.pruned
                ? `height ${acc.after.height} is pruned on this provider`
                : missing || 'the balances were not read');
        changes.push({ ...base, status: 'unmeasured', why });
        continue;
      }
      const b = before.amounts.get(denom) ?? 0n;
      const a = after.amounts.get(denom) ?? 0n;
      const measured = a - b;
      if (measured === 0n && e.sum === 0n && parts.length === 0) continue;
      const rest = measured - e.sum;
      changes.push({
        ...base,
        before: b.toString(),
        after: a.toString(),
        measured: measured.toString(),
        ...(show(measured, denom) ? { measuredDisplay: show(measured, denom) } : {}),
        ...(rest !== 0n ? { unexplained: rest.toString(), ...(show(rest, denom) ? { unexplainedDisplay: show(rest, denom) } : {}) } : {}),
        status: rest === 0n ? 'explained' : 'unexplained',
      });
    }
  }
  // Accounts with movements that were not read: module accounts (never read) and those over the cap.
  for (const [account, byDenom] of expected) {
    if (read.has(account)) continue;
    const mod = input.modules.get(account);
    for (const [denom, e] of byDenom) {
      if (e.parts.every((p) => p.amount === 0n)) continue;
      changes.push({
        account,
        bech32: input.bech32Of(account),
        denom,
        explained: e.sum.toString(),
        parts: partsOf(e.parts, denom),
        status: 'unmeasured',
        why: mod ? `the ${mod.replace(/_/g, ' ')} module account is not read: every block moves it` : 'not read (over the cap of accounts)',
      });
    }
  }
  return { changes, summary: summaryOf(changes, input.modules) };
}

/** The receipt's one-line verdict on the changes (apart from ledger(): run once per receipt, it stays out of its optimised code). */
function summaryOf(changes: readonly BalanceChange[], modules: ReadonlyMap<string, string>): string {
  // Counted in one loop.
  const measured: BalanceChange[] = [];
  const unexplained: BalanceChange[] = [];
  const unmeasured: BalanceChange[] = [];
  const explainedAccounts = new Set<string>();
  for (let k = 0; k < changes.length; k++) {
    const c = changes[k];
    if (c.status === 'unmeasured' && modules.has(c.account)) continue;
    measured.push(c);
    if (c.status === 'unexplained') unexplained.push(c);
    else if (c.status === 'unmeasured') unmeasured.push(c);
    else if (c.status === 'explained') explainedAccounts.add(c.account);
  }
  const accounts = explainedAccounts.size;
  let summary: string;
  if (unexplained.length === 0 && unmeasured.length === 0) {
    summary =
      accounts === 0
        ? 'No balance of the accounts read changed, and no cause says one should.'
        : `Every balance change is explained: ${measured.length} change(s) in ${accounts} account(s), measured from N−1 to N and equal to the sum of their causes.`;
  } else {
    const parts: string[] = [];
    if (unexplained.length > 0)
      parts.push(
        `${unexplained.length} balance change(s) not fully explained (${unexplained
          .slice(0, 3)
          .map((c) => `${c.bech32} ${c.unexplainedDisplay ?? `${c.unexplained} ${c.denom}`}`)
          .join('; ')}${unexplained.length > 3 ? '; …' : ''}): other transactions of the block, or effects no event names`,
      );
    if (unmeasured.length > 0) parts.push(`${unmeasured.length} change(s) not measured (${unmeasured[0].why ?? 'not read'})`);
    summary = `${parts.join('; ')}.`;
  }
  return summary;
}
