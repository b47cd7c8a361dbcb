// The two-layer receipt (issue #35): one transaction's EVM side (call, call tree, logs) joined with its
// Cosmos side (messages, events), the Cosmos effects attributed to their cause (attribute.ts), the
// state of every account it touched read at N−1 and N through the SAME provider (core/chain/state.ts),
// and every balance change checked against its causes (ledger.ts). A read that fails or a height that
// is pruned is said and the rest still shows; cancellation ends it.
//
// Bounds: at most MAX_RECEIPT_ACCOUNTS accounts are read, each at two heights with state.ts's reads
// (6 REST + 1 EVM; through precompile views or abci_query when REST is absent or fails: see state.ts), RECEIPT_PARALLEL_ACCOUNTS accounts at once × STATE_CONCURRENCY reads each: at most
// 8 requests in flight and 8 × 2 × 7 = 112 state requests (executeSource's MAX_STATE_REQUESTS is 128).

import { type AccountState, pool, readAccountState } from '../../chain/state';
import type { ChainContext } from '../context';
import { knownContext } from '../context';
import { type ExplorerSource, rethrowCancel } from '../source';
import type { EventView, TxView } from '../views';
import { amountText } from '../units';
import { type EvmSide, attribute, bech32Of, hexOf } from './attribute';
import { ledger } from './ledger';
import type { ReceiptAccount, ReceiptView, StateSnapshot } from './types';

export const MAX_RECEIPT_ACCOUNTS = 8;
export const RECEIPT_PARALLEL_ACCOUNTS = 2;
/** The state requests a receipt may make: accounts × heights × reads per account. */
export const RECEIPT_STATE_REQUESTS = MAX_RECEIPT_ACCOUNTS * 2 * 7;
/** Denoms whose display unit is read (one metadata request each, cached per provider). */
const MAX_UNITS = 8;
/** The longest `amount` or `fee` attribute read for denoms (a list of coins; longer is no list a chain writes). */
const MAX_COINS_TEXT = 64 * 1024;

/** The denoms `first`, then those the events' `amount` and `fee` attributes name (`100atest,5uatom`), in order of first sight. */
export function denomsNamed(events: readonly EventView[], first: readonly string[]): Set<string> {
  const denoms = new Set<string>(first);
  for (const e of events)
    for (const at of e.attributes)
      // Bounded digits: an unbounded [0-9]+ backtracked from every start of a long run of digits (a hostile 1 MB value: half an hour).
      if ((at.key === 'amount' || at.key === 'fee') && at.value.length <= MAX_COINS_TEXT)
        for (const m of at.value.matchAll(/[0-9]{1,78}([a-zA-Z][a-zA-Z0-9/:._-]{1,127})/g)) denoms.add(m[1]);
  return denoms;
}

export interface ReceiptOptions {
  /** A provider of the same network that keeps old states (capabilities: archive), named when this one has pruned N−1. */
  readonly archiveElsewhere?: string;
}

const ROLE_ORDER = ['fee payer', 'sender', 'recipient', 'delegator', 'voter', 'validator', 'contract in the trace'];

function snapshot(s: AccountState, height: string): StateSnapshot {
  const reads = [s.balances, s.evmBalance, s.delegations, s.rewards, s.unbondings];
  return {
    height,
    ...(s.balances.value ? { balances: s.balances.value.map((c) => ({ denom: c.denom, amount: c.amount })) } : {}),
    ...(s.balances.value && s.balances.truncated ? { balancesTruncated: true } : {}),
    ...(s.evmBalance.value !== undefined ? { evmBalance: s.evmBalance.value } : {}),
    ...(s.delegations.value
      ? { delegations: s.delegations.value.map((d) => ({ validator: d.validator, shares: d.shares, ...(d.balance ? { amount: d.balance.amount } : {}) })) }
      : {}),
    ...(s.rewards.value ? { rewards: s.rewards.value.map((r) => ({ validator: r.validator, reward: r.reward.map((c) => ({ ...c })) })) } : {}),
    ...(s.unbondings.value
      ? { unbondings: s.unbondings.value.map((u) => ({ validator: u.validator, balance: u.balance, completionTime: u.completionTime })) }
      : {}),
    ...(reads.some((r) => r.pruned) ? { pruned: true } : {}),
    ...(s.readThrough ? { readThrough: s.readThrough } : {}),
    missing: reads.flatMap((r) => (r.note && !r.unavailable ? [r.note] : [])),
  };
}

/** The EVM side of `tx` for attribution: the first EVM transaction it carries (the one looked up comes first). */
function evmSide(tx: TxView): EvmSide | undefined {
  const e = tx.evm[0];
  if (!e) return undefined;
  const message = Math.max(
    0,
    tx.messages.findIndex((m) => m.evmHash === e.hash),
  );
  return {
    hash: e.hash,
    message,
    from: e.from,
    to: e.to,
    value: e.value?.amount,
    gas: e.gas,
    gasUsed: e.gasUsed,
    gasPrice: e.gasPrice,
    effectiveGasPrice: e.effectiveGasPrice,
    maxFeePerGas: e.maxFeePerGas,
    failed: e.status === 'failed',
    logs: e.logs,
    frames: e.decoded?.trace?.frames,
  };
}

/** Builds the receipt of `tx` (as the lookup composed it) on `src`. Rejects only when cancelled. */
export async function buildReceipt(src: ExplorerSource, ctx: ChainContext, tx: TxView, options: ReceiptOptions = {}): Promise<ReceiptView> {
  const notes: string[] = [];
  const prefix = await ctx.prefix();
  const evmDenom = await ctx.evmDenom();
  // Each event as an object literal of one of two shapes, not a spread copy: V8 gives spread copies a
  // map each after the first few, and attribute() reading 2,000 objects of 2,000 maps is ~1 ms of misses.
  const events: Array<EventView & { msgIndex?: number }> = [];
  for (const g of tx.events) {
    const msgIndex = g.msgIndex !== undefined && /^\d{1,6}$/.test(g.msgIndex) ? Number(g.msgIndex) : undefined;
    for (const e of g.events)
      events.push(msgIndex === undefined ? { type: e.type, attributes: e.attributes } : { type: e.type, attributes: e.attributes, msgIndex });
  }
  // The display units of the denoms the receipt names (read once per provider, cached).
  const denoms = denomsNamed(events, [...(evmDenom ? [evmDenom] : []), ...(tx.fee?.amount.map((c) => c.denom) ?? [])]);
  for (const d of [...denoms].slice(0, MAX_UNITS)) await ctx.unit(d);
  const known = knownContext(src.provider);
  const unit = (denom: string) => known.unit(denom);

  const evm = evmSide(tx);
  const signer = tx.fee?.payer ?? tx.signers[0]?.address ?? tx.signers[0]?.hexAddress;
  const at = attribute({
    events,
    messages: tx.messages,
    statedFee: tx.fee?.amount,
    signer,
    evm,
    evmDenom,
    prefix,
    unit,
  });
  if (!evm && signer) {
    const h = hexOf(signer);
    if (h && !at.roles.has(h)) at.roles.set(h, new Set(['signer']));
  }

  // The accounts read: by role (the fee payer and sender first), at most MAX_RECEIPT_ACCOUNTS.
  const rank = (r: Set<string>) => Math.min(...[...r].map((x) => (ROLE_ORDER.includes(x) ? ROLE_ORDER.indexOf(x) : ROLE_ORDER.length)));
  const named = [...at.roles].sort((x, y) => rank(x[1]) - rank(y[1]));
  const chosen = named.slice(0, MAX_RECEIPT_ACCOUNTS);
  if (named.length > chosen.length)
    notes.push(`${named.length - chosen.length} more account(s) named by the transaction were not read (at most ${MAX_RECEIPT_ACCOUNTS} a receipt).`);
  if (at.modules.size > 0)
    notes.push(`Module accounts (${[...at.modules.values()].join(', ')}) are not read: every block moves them (fees, inflation, rewards).`);

  const height = tx.height && /^\d{1,19}$/.test(tx.height) && BigInt(tx.height) > 1n ? tx.height : (tx.evm[0]?.blockNumber ?? undefined);
  const parent = height && /^\d{1,19}$/.test(height) && BigInt(height) > 1n ? (BigInt(height) - 1n).toString() : undefined;
  const accounts: Array<{ -readonly [K in keyof ReceiptAccount]: ReceiptAccount[K] }> = chosen.map(([account, roles]) => ({
    account,
    bech32: bech32Of(account, prefix),
    roles: [...roles].sort((x, y) => ROLE_ORDER.indexOf(x) - ROLE_ORDER.indexOf(y)),
  }));
  if (!height || !parent) notes.push('The transaction has no block height: the state before and after was not read.');
  else if (!src.has.rest && !src.has.evm && !src.has.comet)
    notes.push('The provider has no REST, EVM RPC or CometBFT RPC address: the state before and after was not read.');
  else {
    const tasks = accounts.flatMap((acc) =>
      ([parent, height] as const).map((h, i) => async () => {
        try {
          const s = await readAccountState(src, acc.account, { height: h, prefix });
          if (i === 0) acc.before = snapshot(s, h);
          else acc.after = snapshot(s, h);
        } catch (err) {
          rethrowCancel(err);
          notes.push(`state of ${acc.bech32} at ${h}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }),
    );
    await pool(tasks, RECEIPT_PARALLEL_ACCOUNTS);
  }

  const prunedBefore = accounts.some((a) => a.before?.pruned);
  const prunedAfter = accounts.some((a) => a.after?.pruned);
  let coverage: string | undefined;
  if (prunedBefore || prunedAfter) {
    const which = prunedBefore ? parent : height;
    coverage =
      `Height ${which} is pruned on ${src.provider}: the state before${prunedAfter ? ' and after' : ''} the transaction is not kept there, so the changes cannot be measured. ` +
      (options.archiveElsewhere
        ? `${options.archiveElsewhere}, a provider of the same network, keeps old states (archive): look the transaction up there.`
        : 'No provider of the same network is known to keep old states (an archive node): add one, or check its capabilities.');
  }
  const { changes, summary } = ledger({
    causes: at.causes,
    accounts,
    modules: at.modules,
    bech32Of: (h) => bech32Of(h, prefix),
    evmDenom,
    display: (amount, denom) => {
      const u = unit(denom);
      if (!u) return undefined;
      const negative = amount.startsWith('-');
      return `${negative ? '−' : ''}${amountText(negative ? amount.slice(1) : amount, denom, u)}`;
    },
  });
  return {
    ...(evm ? { evmHash: evm.hash } : {}),
    ...(tx.hash ? { cosmosHash: tx.hash } : {}),
    ...(height ? { height } : {}),
    ...(parent ? { parentHeight: parent } : {}),
    causes: at.causes,
    events: at.events,
    logCopies: at.logCopies,
    accounts,
    changes,
    summary,
    ...(coverage ? { coverage } : {}),
    notes,
  };
}

/** `changes[<0x or bech32>][<denom>]` = the measured change (or, unmeasured, the causes' sum): what query files assert on. */
export function changesByAccount(r: ReceiptView): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const c of r.changes) {
    const v = c.measured ?? c.explained;
    (out[c.account] ??= {})[c.denom] = v;
    (out[c.bech32] ??= {})[c.denom] = v;
  }
  return out;
}
