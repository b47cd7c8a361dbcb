// Attribution: the Cosmos events of one transaction grouped under what caused them, read from the
// events that mean something (the ante handler's `tx` fee, `withdraw_rewards`, `delegate`, `unbond`,
// `redelegate`, `send_packet`, `proposal_vote`, bank `transfer`s) and the EVM side (value moved by
// each frame of the call tree, the precompile frame that produced a Cosmos effect, the EVM logs that
// `tx_log` copies). Never a sum of events: on evmd v0.3.2 a MsgEthereumTx lists the fee and the refund
// again (extra transfer / coin_spent / coin_received entries for twice each), so a transfer between
// the fee payer and the fee collector other than the fee and the refund is marked as an echo and not
// counted, coin_spent / coin_received are the halves of a transfer (or of a mint or burn), and the
// ledger (ledger.ts) checks every explanation against the balances measured at N−1 and N.
// Pure and synchronous: the caller reads the units and the trace.

import { parseDecimalQuantity, shownNumber } from '../../base/limits';
import { createHash } from 'node:crypto';
import { bytesOf } from '../addresses';
import { bech32EncodeHex } from '../../chain/validate';
import { precompileAt } from '../../contracts/builtin';
import type { TraceFrame } from '../../contracts/trace';
import type { DenomUnit } from '../context';
import { amountText } from '../units';
import type { Cause, CauseKind, CauseOrigin, EventView, Move, ReceiptEvent } from './types';

/** The most events attributed (the rest are listed as they are). */
export const MAX_RECEIPT_EVENTS = 5000;
/** The most trace frames whose value transfers are counted. */
export const MAX_VALUE_FRAMES = 10_000;

export interface EvmSide {
  readonly hash: string;
  /** The msg_index of its MsgEthereumTx. */
  readonly message: number;
  readonly from?: string;
  readonly to?: string;
  /** Wei, decimal. */
  readonly value?: string;
  readonly gas?: string;
  readonly gasUsed?: string;
  readonly gasPrice?: string;
  readonly effectiveGasPrice?: string;
  readonly maxFeePerGas?: string;
  readonly failed?: boolean;
  readonly logs?: ReadonlyArray<{ readonly address: string; readonly topics: readonly string[]; readonly data: string }>;
  /** The call tree (frames in depth-first order), when read. */
  readonly frames?: readonly TraceFrame[];
}

export interface AttributionInput {
  /** The transaction's events in order, each with its msg_index when it has one. */
  readonly events: ReadonlyArray<EventView & { readonly msgIndex?: number }>;
  readonly messages: ReadonlyArray<{ readonly typeUrl: string }>;
  /** The fee the transaction states (auth_info), used when no `tx` event says what was charged. */
  readonly statedFee?: ReadonlyArray<{ readonly denom: string; readonly amount: string }>;
  /** The first signer (or the fee payer) as the transaction names it. */
  readonly signer?: string;
  readonly evm?: EvmSide;
  readonly evmDenom?: string;
  readonly prefix: string;
  unit(denom: string): DenomUnit | undefined;
}

export interface Attribution {
  readonly causes: Cause[];
  readonly events: ReceiptEvent[];
  readonly logCopies: number;
  /** Every account the events and the EVM side name, with its roles (lowercase 0x). */
  readonly roles: Map<string, Set<string>>;
  /** Module accounts (fee collector, distribution, bonded pool…) by 0x form, with their module name. */
  readonly modules: ReadonlyMap<string, string>;
}

const MODULES = ['fee_collector', 'distribution', 'bonded_tokens_pool', 'not_bonded_tokens_pool', 'gov', 'mint', 'transfer', 'erc20', 'evm', 'precisebank'];
const moduleHex = new Map<string, string>(
  MODULES.map((m) => [`0x${createHash('sha256').update(m).digest().subarray(0, 20).toString('hex')}`, m] as [string, string]),
);
const hexOfModule = (name: string): string => [...moduleHex].find(([, n]) => n === name)![0];
export const FEE_COLLECTOR = hexOfModule('fee_collector');
export const DISTRIBUTION = hexOfModule('distribution');
export const BONDED_POOL = hexOfModule('bonded_tokens_pool');
export const NOT_BONDED_POOL = hexOfModule('not_bonded_tokens_pool');

/** The two sides of coins moved from one account to another: `from` loses each, `to` gains it. */
function moved(coins: readonly { denom: string; amount: string }[], from: string, to: string): { account: string; denom: string; amount: string }[] {
  const out: { account: string; denom: string; amount: string }[] = [];
  for (const c of coins) out.push({ account: from, denom: c.denom, amount: neg(c.amount) }, { account: to, denom: c.denom, amount: c.amount });
  return out;
}

/** The two sides of coins `to` received from `from`, the receiver first. */
function received(coins: readonly { denom: string; amount: string }[], to: string, from: string): { account: string; denom: string; amount: string }[] {
  const out: { account: string; denom: string; amount: string }[] = [];
  for (const c of coins) out.push({ account: to, denom: c.denom, amount: c.amount }, { account: from, denom: c.denom, amount: neg(c.amount) });
  return out;
}

/** The module an address belongs to, if it is one of the well-known module accounts. */
export function moduleOf(hex: string): string | undefined {
  return moduleHex.get(hex);
}

/** Lowercase 0x form of an address in any form (0x, bech32 account or valoper); undefined otherwise. */
export function hexOf(text: string | undefined): string | undefined {
  if (!text || text.length > 200) return undefined;
  const b = bytesOf(text);
  return b && b.length === 20 ? `0x${Buffer.from(b).toString('hex')}` : undefined;
}

/** `0x…` in bech32 (remembered by bech32EncodeHex: a receipt's ledger names the same hundreds, no bytes made again). */
export function bech32Of(hex: string, prefix: string): string {
  return bech32EncodeHex(prefix, hex);
}

/** `5450000000000000000atest,1uatom` into coins; the unparsable parts left out. */
export function parseCoins(text: string | undefined, defaultDenom?: string): Array<{ denom: string; amount: string }> {
  if (!text) return [];
  const out: Array<{ denom: string; amount: string }> = [];
  // One coin (the common case) without splitting.
  if (!text.includes(',')) coinOf(text.trim(), defaultDenom, out);
  else for (const part of text.split(',', MAX_COINS)) coinOf(part.trim(), defaultDenom, out);
  return out;
}

function coinOf(t: string, defaultDenom: string | undefined, out: Array<{ denom: string; amount: string }>): void {
  const m = /^([0-9]{1,78})([a-zA-Z][a-zA-Z0-9/:._-]{1,127})$/.exec(t);
  if (m) out.push({ amount: canonical(m[1]), denom: m[2] });
  else if (defaultDenom && /^[0-9]{1,78}$/.test(t)) out.push({ amount: canonical(t), denom: defaultDenom });
}

/** The most coins read of one amount text (parseCoins). */
const MAX_COINS = 32;

/**
 * How many coins of `text` (an amount as the node wrote it) parseCoins() could not read: parts that are
 * no coin (a negative, a number past a uint256, a stray word) and those past MAX_COINS. 0 for an empty
 * or absent text (no coins, said as such). Counted without splitting (a 1 MB text is one pass).
 */
export function unreadCoins(text: string | undefined, read: number): number {
  if (!text) return 0;
  let parts = 0;
  let inPart = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) inPart = false;
    else if (!inPart && c !== 32 && c !== 9 && c !== 10 && c !== 13) {
      inPart = true;
      parts++;
    }
  }
  return Math.max(0, parts - read);
}

/** Decimal digits without leading zeros (what BigInt(digits).toString() gives), parsed only when they have some. */
export function canonical(digits: string): string {
  return digits.length === 1 || digits.charCodeAt(0) !== 48 ? digits : BigInt(digits).toString();
}

const STAKING = '0x0000000000000000000000000000000000000800';
const DISTRIBUTION_PC = '0x0000000000000000000000000000000000000801';
const ICS20 = '0x0000000000000000000000000000000000000802';
const BANK_PC = '0x0000000000000000000000000000000000000804';
const GOV = '0x0000000000000000000000000000000000000805';
const NATIVE_ERC20 = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

/** The precompile a Cosmos effect comes from, by the event type. */
const PRECOMPILE_OF: Readonly<Record<string, readonly string[]>> = {
  delegate: [STAKING],
  unbond: [STAKING],
  redelegate: [STAKING],
  cancel_unbonding_delegation: [STAKING],
  withdraw_rewards: [DISTRIBUTION_PC, STAKING],
  send_packet: [ICS20],
  ibc_transfer: [ICS20],
  proposal_vote: [GOV],
  transfer: [BANK_PC, ICS20],
};

/** Read by key: an event's attributes (the first of a key wins) or an ICS-20 packet's fields. */
interface Fields {
  get(key: string): string | undefined;
  has(key: string): boolean;
}

/** An event's attributes read by key, the first of a key winning: a scan of the few attributes, no Map built per event. */
class Attrs implements Fields {
  constructor(private readonly list: EventView['attributes']) {}
  get(key: string): string | undefined {
    for (let i = 0; i < this.list.length; i++) if (this.list[i].key === key) return this.list[i].value;
    return undefined;
  }
  has(key: string): boolean {
    for (let i = 0; i < this.list.length; i++) if (this.list[i].key === key) return true;
    return false;
  }
}

/** The coins as one comparable text (`5atest,7uatom`, sorted). */
export function coinsKeyOf(cs: ReadonlyArray<{ denom: string; amount: string }>): string {
  if (cs.length === 1) return `${cs[0].amount}${cs[0].denom}`;
  return cs
    .map((c) => `${c.amount}${c.denom}`)
    .sort()
    .join(',');
}

/** A map by two texts (no joined key made per lookup). */
class Map2<V> {
  private readonly m = new Map<string | undefined, Map<string | undefined, V>>();
  get(a: string | undefined, b: string | undefined): V | undefined {
    return this.m.get(a)?.get(b);
  }
  set(a: string | undefined, b: string | undefined, v: V): void {
    let inner = this.m.get(a);
    if (!inner) this.m.set(a, (inner = new Map()));
    inner.set(b, v);
  }
}

const neg = (a: string): string => (a.startsWith('-') ? a.slice(1) : a === '0' ? '0' : `-${a}`);

/** Attributes `input`'s events (see the file's comment). */
export function attribute(input: AttributionInput): Attribution {
  // Addresses repeat across thousands of events: each text decoded once.
  const hexes = new Map<string, string | undefined>();
  const hx = (text: string | undefined): string | undefined => {
    if (text === undefined) return undefined;
    if (!hexes.has(text)) hexes.set(text, hexOf(text));
    return hexes.get(text);
  };
  const unitText = (amount: string, denom: string): string => amountText(amount, denom, input.unit(denom));
  const coinsText = (cs: ReadonlyArray<{ denom: string; amount: string }>): string => {
    let text = '';
    for (let k = 0; k < cs.length; k++) text += `${k === 0 ? '' : ', '}${unitText(cs[k].amount, cs[k].denom)}`;
    return text || '0';
  };
  /** An amount attribute's coins in words: what could not be read is said so (never left out, never a 0 in its place). */
  const amountWords = (text: string | undefined, cs: ReadonlyArray<{ denom: string; amount: string }>): string => {
    const unread = unreadCoins(text, cs.length);
    if (unread === 0) return coinsText(cs);
    return cs.length === 0
      ? `an amount that could not be read (${shownNumber(text!.trim())})`
      : `${coinsText(cs)} and ${unread} more coin(s) that could not be read`;
  };
  type Ev = { -readonly [K in keyof ReceiptEvent]: ReceiptEvent[K] };
  const events: Ev[] = [];
  for (let index = 0; index < Math.min(input.events.length, MAX_RECEIPT_EVENTS); index++) {
    const e = input.events[index];
    events.push(
      e.msgIndex !== undefined ? { type: e.type, attributes: e.attributes, index, msgIndex: e.msgIndex } : { type: e.type, attributes: e.attributes, index },
    );
  }
  // Arrays filled by loops, not map()/filter(): an optimised attribute() makes them as the unoptimised one
  // does (inlined map() and filter() make arrays of another kind, and the code made for the first is thrown away).
  const a: Attrs[] = [];
  for (let k = 0; k < events.length; k++) a.push(new Attrs(events[k].attributes));
  const causes: Cause[] = [];
  const roles = new Map<string, Set<string>>();
  const modules = new Map<string, string>();
  // What an address is (module account, precompile or an account with roles), decided once per address.
  const kindOf = new Map<string, string | null>();
  // The precompile's name of an address, looked up once per address (every cause names its origin).
  const names = new Map<string, string | undefined>();
  const precompileName = (hex: string): string | undefined => {
    if (!names.has(hex)) names.set(hex, precompileAt(hex)?.name);
    return names.get(hex);
  };
  const role = (hex: string | undefined, r: string) => {
    if (!hex) return;
    let kind = kindOf.get(hex);
    if (kind === undefined) {
      kind = moduleOf(hex) ?? (precompileAt(hex) ? '' : null);
      kindOf.set(hex, kind);
    }
    if (kind) {
      modules.set(hex, kind);
      return;
    }
    if (kind === '') return;
    let s = roles.get(hex);
    if (!s) roles.set(hex, (s = new Set()));
    s.add(r);
  };
  const add = (kind: CauseKind, sentence: string, moves: Move[], covered: number[], origin?: CauseOrigin): number => {
    const i = causes.length;
    causes.push({ kind, sentence, moves, events: covered, ...(origin ? { origin } : {}) });
    for (let k = 0; k < covered.length; k++) if (events[covered[k]].cause === undefined) events[covered[k]].cause = i;
    return i;
  };
  const transfers: number[] = [];
  for (let k = 0; k < events.length; k++) if (events[k].type === 'transfer') transfers.push(events[k].index);
  // Each transfer's parties and coins, read once (thousands of events: no quadratic re-parsing).
  // By event index (a transfer's entries; undefined for the other events).
  const tFrom: Array<string | undefined> = [];
  const tTo: Array<string | undefined> = [];
  const tKey: Array<string | undefined> = [];
  const used = new Set<number>();
  /** The first unused transfer of `amount` (coins text) from `sender` to `recipient` (either may be undefined: any). */
  // Transfers by (sender, coins) in order: a cause takes the first unused one that fits.
  const bySender = new Map2<number[]>();
  const takeTransfer = (from: string | undefined, to: string | undefined, coins: string, scope?: number): number | undefined => {
    const list = from ? bySender.get(from, coins) : transfers;
    const candidates = list ?? [];
    for (let k = 0; k < candidates.length; k++) {
      const i = candidates[k];
      if (used.has(i)) continue;
      if (scope !== undefined && events[i].msgIndex !== scope) continue;
      if (from && tFrom[i] !== from) continue;
      if (to && tTo[i] !== to) continue;
      if (tKey[i] !== coins) continue;
      used.add(i);
      return i;
    }
    return undefined;
  };
  // Amounts repeat across thousands of events: each text parsed once, and each parsed list's key made
  // once (the lists are shared, never changed).
  type Coins = ReadonlyArray<{ readonly denom: string; readonly amount: string }>;
  const parsed = new Map<string, Coins>();
  const parsedWithDefault = new Map<string, Coins>();
  const coinsOf = (text: string | undefined, defaultDenom?: string): Coins => {
    if (!text) return [];
    const cache = defaultDenom ? parsedWithDefault : parsed;
    let cs = cache.get(text);
    if (!cs) cache.set(text, (cs = parseCoins(text, defaultDenom)));
    return cs;
  };
  const keys = new Map<Coins, string>();
  const coinsKey = (cs: Coins): string => {
    let k = keys.get(cs);
    if (k === undefined) keys.set(cs, (k = coinsKeyOf(cs)));
    return k;
  };
  for (let iAt = 0; iAt < transfers.length; iAt++) {
    const i = transfers[iAt];
    const from = (tFrom[i] = hx(a[i].get('sender')));
    tTo[i] = hx(a[i].get('recipient'));
    const key = (tKey[i] = coinsKey(coinsOf(a[i].get('amount'))));
    const list = bySender.get(from, key);
    if (list) list.push(i);
    else bySender.set(from, key, [i]);
  }

  const evm = input.evm;
  const evmFrom = hx(evm?.from);
  role(evmFrom, 'sender');
  role(hx(evm?.to), evm?.to && precompileAt(evm.to) ? 'precompile' : 'recipient');

  // The precompile frames of the call tree (or the transaction's own `to`), for the effects they produce.
  const frames = evm?.frames ?? [];
  const firstFrameTo = new Map<string, TraceFrame | undefined>();
  const precompileFrame = (candidates: readonly string[] | undefined, message: number | undefined): CauseOrigin | undefined => {
    if (!evm || message !== evm.message) return message === undefined ? undefined : { message };
    for (const pc of candidates ?? []) {
      if (!firstFrameTo.has(pc))
        firstFrameTo.set(
          pc,
          frames.find((x) => x.to === pc),
        );
      const f = firstFrameTo.get(pc);
      if (f) return { message, frame: f.index, precompile: pc, precompileName: precompileName(pc) };
      if (frames.length === 0 && evm.to?.toLowerCase() === pc) return { message, precompile: pc, precompileName: precompileName(pc) };
    }
    return { message };
  };

  // 1. The fee: the ante handler's `tx` event says what was charged (`fee`, with `fee_payer` on the SDK's decorator).
  const feeEvent = events.findIndex((e, i) => e.type === 'tx' && a[i].has('fee') && e.msgIndex === undefined);
  const stated = input.statedFee ?? [];
  const fee = feeEvent >= 0 ? coinsOf(a[feeEvent].get('fee')) : stated.map((c) => ({ denom: c.denom, amount: c.amount }));
  const payer = hx(feeEvent >= 0 ? a[feeEvent].get('fee_payer') : undefined) ?? evmFrom ?? hx(input.signer);
  role(payer, 'fee payer');
  const feeKey = coinsKey(fee);
  if (payer && fee.some((c) => c.amount !== '0')) {
    const covered = feeEvent >= 0 ? [feeEvent] : [];
    const t = takeTransfer(payer, FEE_COLLECTOR, feeKey);
    if (t !== undefined) covered.push(t);
    const statedNote =
      evm && stated.length > 0 && coinsKeyOf(stated) !== feeKey
        ? ` (the transaction states ${coinsText(stated)}, gas limit × max fee per gas: not what was charged)`
        : '';
    add(
      'fee',
      `fee of ${feeEvent >= 0 ? amountWords(a[feeEvent].get('fee'), fee) : coinsText(fee)} charged up front by the ante handler and paid to the fee collector${statedNote}`,
      fee.flatMap((c) => [
        { account: payer, denom: c.denom, amount: neg(c.amount) },
        { account: FEE_COLLECTOR, denom: c.denom, amount: c.amount },
      ]),
      covered,
      {},
    );
  }

  // 2. The refund of unused gas: the fee collector pays the payer back. Computed from the EVM side when
  // it can be (fee − gas used × price), else the smallest such transfer; the others are echoes.
  if (evm && payer) {
    const denom = fee[0]?.denom ?? input.evmDenom;
    // The price charged per gas is tx.fee / gas limit (the block's base fee + tip at N's start), not the
    // receipt's effectiveGasPrice (the next block's base fee on evmd v0.3.2): fee − gas used × that price.
    const limit = parseDecimalQuantity(evm.gas);
    const gasUsed = parseDecimalQuantity(evm.gasUsed);
    const expected =
      fee.length === 1 && limit && gasUsed !== undefined && BigInt(fee[0].amount) % limit === 0n
        ? BigInt(fee[0].amount) - gasUsed * (BigInt(fee[0].amount) / limit)
        : undefined;
    const back = transfers.filter((i) => !used.has(i) && tFrom[i] === FEE_COLLECTOR && tTo[i] === payer);
    const amountOf = (i: number) => coinsOf(a[i].get('amount')).find((c) => c.denom === denom)?.amount ?? '0';
    let refund: number | undefined = expected !== undefined ? back.find((i) => BigInt(amountOf(i)) === expected) : undefined;
    if (refund === undefined && back.length > 0) refund = back.reduce((m, i) => (BigInt(amountOf(i)) < BigInt(amountOf(m)) ? i : m), back[0]);
    if (refund !== undefined && denom) {
      used.add(refund);
      const amt = amountOf(refund);
      add(
        'refund',
        `refund of unused gas: ${unitText(amt, denom)} back from the fee collector${evm.gasUsed && evm.gas ? ` (${evm.gasUsed} of ${evm.gas} gas used)` : ''}`,
        [
          { account: payer, denom, amount: amt },
          { account: FEE_COLLECTOR, denom, amount: neg(amt) },
        ],
        [refund],
        { message: evm.message },
      );
    } else if (expected !== undefined && expected > 0n && denom) {
      // No refund listed although gas was left: the ledger shows whether it happened.
      add(
        'refund',
        `refund of unused gas: ${unitText(expected.toString(), denom)} expected (gas used × price below the fee), not listed by the events`,
        [],
        [],
        {
          message: evm.message,
        },
      );
    }
    // The echoes: the fee and the refund listed again (evmd v0.3.2: twice each), never counted.
    for (let iAt = 0; iAt < transfers.length; iAt++) {
      const i = transfers[iAt];
      if (used.has(i)) continue;
      const s = tFrom[i];
      const r = tTo[i];
      if ((s === payer && r === FEE_COLLECTOR) || (s === FEE_COLLECTOR && r === payer)) {
        used.add(i);
        events[i].echo = s === payer ? 'the fee listed again (not a movement of its own)' : 'the refund listed again (not a movement of its own)';
      }
    }
  }

  // 3. Staking and distribution effects, ICS-20, gov.
  const changed = new Map<number | undefined, string>(); // msg_index -> validator whose delegation changed
  for (let eAt = 0; eAt < events.length; eAt++) {
    const e = events[eAt];
    if (['delegate', 'unbond', 'redelegate', 'cancel_unbonding_delegation'].includes(e.type)) {
      const v = a[e.index].get('validator') ?? a[e.index].get('source_validator');
      if (v && !changed.has(e.msgIndex)) changed.set(e.msgIndex, v);
    }
  }
  const bondDenom = input.evmDenom;
  // Made once, not two closures per event.
  const originOf = (e: Ev): CauseOrigin | undefined => precompileFrame(PRECOMPILE_OF[e.type], e.msgIndex);
  const delegatorOf = (e: Ev, t: Attrs): string | undefined => hx(t.get('delegator')) ?? (e.msgIndex === evm?.message ? evmFrom : hx(input.signer));
  for (let eAt = 0; eAt < events.length; eAt++) {
    const e = events[eAt];
    const t = a[e.index];
    switch (e.type) {
      case 'withdraw_rewards': {
        const d = delegatorOf(e, t);
        const text = t.get('amount');
        const coins = coinsOf(text, bondDenom);
        const amount = amountWords(text, coins);
        const v = t.get('validator') ?? '';
        role(d, 'delegator');
        role(hx(v), 'validator');
        const covered = [e.index];
        const tr = d ? takeTransfer(DISTRIBUTION, d, coinsKey(coins)) : undefined;
        if (tr !== undefined) covered.push(tr);
        const auto = changed.get(e.msgIndex) !== undefined && !/MsgWithdrawDelegatorReward/.test(input.messages[e.msgIndex ?? -1]?.typeUrl ?? '');
        const o = originOf(e);
        const explicit = o?.precompile === DISTRIBUTION_PC;
        const sentence =
          coins.length === 0 && unreadCoins(text, 0) === 0
            ? `no rewards to withdraw from the delegation to ${v}`
            : auto && !explicit
              ? `rewards of ${amount} withdrawn automatically because the delegation to ${changed.get(e.msgIndex)} changed`
              : `rewards of ${amount} withdrawn from the delegation to ${v}`;
        add('withdrawRewards', sentence, d ? received(coins, d, DISTRIBUTION) : [], covered, o);
        break;
      }
      case 'delegate': {
        const d = delegatorOf(e, t);
        const text = t.get('amount');
        const coins = coinsOf(text, bondDenom);
        const v = t.get('validator') ?? '';
        role(d, 'delegator');
        role(hx(v), 'validator');
        const covered = [e.index];
        let pool = BONDED_POOL;
        if (d) {
          const tr = takeTransfer(d, undefined, coinsKey(coins));
          if (tr !== undefined) {
            covered.push(tr);
            pool = hx(a[tr].get('recipient')) ?? pool;
          }
        }
        add(
          'delegate',
          `${amountWords(text, coins)} delegated to ${v}${t.get('new_shares') ? ` (${t.get('new_shares')} new shares)` : ''}, moved to the ${moduleOf(pool) === 'not_bonded_tokens_pool' ? 'not-bonded' : 'bonded'} pool`,
          d ? moved(coins, d, pool) : [],
          covered,
          originOf(e),
        );
        break;
      }
      case 'unbond': {
        const d = delegatorOf(e, t);
        const text = t.get('amount');
        const coins = coinsOf(text, bondDenom);
        const v = t.get('validator') ?? '';
        role(d, 'delegator');
        role(hx(v), 'validator');
        const covered = [e.index];
        const tr = takeTransfer(BONDED_POOL, NOT_BONDED_POOL, coinsKey(coins));
        if (tr !== undefined) covered.push(tr);
        const when = t.get('completion_time');
        add(
          'unbond',
          `${amountWords(text, coins)} unbonding from ${v}: paid to the delegator when the unbonding completes${when ? ` (${when})` : ''}, not in this transaction`,
          tr !== undefined ? moved(coins, BONDED_POOL, NOT_BONDED_POOL) : [],
          covered,
          originOf(e),
        );
        break;
      }
      case 'redelegate': {
        const d = delegatorOf(e, t);
        const text = t.get('amount');
        const coins = coinsOf(text, bondDenom);
        role(d, 'delegator');
        role(hx(t.get('source_validator')), 'validator');
        role(hx(t.get('destination_validator')), 'validator');
        add(
          'redelegate',
          `${amountWords(text, coins)} redelegated from ${t.get('source_validator') ?? '?'} to ${t.get('destination_validator') ?? '?'} (the delegator's balance does not change)`,
          [],
          [e.index],
          originOf(e),
        );
        break;
      }
      case 'cancel_unbonding_delegation': {
        const d = delegatorOf(e, t);
        const text = t.get('amount');
        const coins = coinsOf(text, bondDenom);
        role(d, 'delegator');
        add(
          'cancelUnbonding',
          `unbonding of ${amountWords(text, coins)} from ${t.get('validator') ?? '?'} cancelled: delegated again`,
          [],
          [e.index],
          originOf(e),
        );
        break;
      }
      case 'send_packet':
      case 'ibc_transfer': {
        if (e.type === 'send_packet' && !t.has('packet_data') && !t.has('packet_data_hex')) break;
        const o = originOf(e);
        const sender = hx(t.get('sender'));
        role(sender, 'sender');
        const data = e.type === 'ibc_transfer' ? t : packetData(t.get('packet_data'));
        add(
          'ibcTransfer',
          `ICS-20 transfer${data.get('amount') ? ` of ${data.get('amount')} ${data.get('denom') ?? ''}` : ''}${data.get('receiver') ? ` to ${data.get('receiver')}` : ''}${t.get('packet_src_channel') ? ` over ${t.get('packet_src_channel')}` : ''}: the coins are escrowed (or burnt) by the bank transfer listed with it`,
          [],
          [e.index],
          o,
        );
        break;
      }
      case 'proposal_vote': {
        const voter = hx(t.get('voter'));
        role(voter, 'voter');
        add(
          'govVote',
          `vote ${t.get('option') ?? '?'} on proposal ${t.get('proposal_id') ?? '?'}${t.get('voter') ? ` by ${t.get('voter')}` : ''}`,
          [],
          [e.index],
          originOf(e),
        );
        break;
      }
    }
  }

  // 4. EVM value transfers: every frame of the call tree that moves value (or the transaction's own value without a trace).
  if (evm && !evm.failed) {
    const denom = input.evmDenom;
    const moved: Array<{ from: string; to: string; value: string; frame?: number }> = [];
    if (frames.length > 0) {
      for (let k = 0; k < Math.min(frames.length, MAX_VALUE_FRAMES); k++) {
        const f = frames[k];
        if (f.to) role(f.to, f.index === 0 ? 'recipient' : 'contract in the trace');
        role(f.from === '?' ? undefined : f.from, f.index === 0 ? 'sender' : 'contract in the trace');
        if (f.error || !f.value || f.value === '0' || !f.to || f.type === 'DELEGATECALL' || f.type === 'STATICCALL') continue;
        moved.push({ from: f.from, to: f.to, value: f.value, frame: f.index });
      }
    } else if (evmFrom && evm.to && evm.value && evm.value !== '0') moved.push({ from: evmFrom, to: evm.to.toLowerCase(), value: evm.value });
    for (let mAt = 0; mAt < moved.length; mAt++) {
      const m = moved[mAt];
      if (!denom) break;
      const covered: number[] = [];
      const tr = takeTransfer(m.from, m.to, `${m.value}${denom}`, evm.message);
      if (tr !== undefined) covered.push(tr);
      add(
        'evmValue',
        `EVM value transfer of ${unitText(m.value, denom)} from ${m.from} to ${m.to}${m.frame !== undefined && m.frame > 0 ? ` (frame ${m.frame} of the call tree)` : ''}`,
        [
          { account: m.from, denom, amount: neg(m.value) },
          { account: m.to, denom, amount: m.value },
        ],
        covered,
        { message: evm.message, ...(m.frame !== undefined ? { frame: m.frame } : {}) },
      );
    }
  }

  // 5. Bank transfers not yet explained (MsgSend, the bank or ICS-20 precompile, an ERC-20 of the native
  // token, an escrow). In an EVM message evmd lists each bank transfer once more at twice the amount,
  // right after it (a transfer with no coin_spent before it): that one is an echo, never counted.
  const lastBetween = new Map2<number>();
  const echoed = new Set<number>();
  for (let iAt = 0; iAt < transfers.length; iAt++) {
    const i = transfers[iAt];
    if (used.has(i)) continue;
    const t = a[i];
    const s = tFrom[i];
    const r = tTo[i];
    const coins = coinsOf(t.get('amount'));
    if (!s || !r || coins.length === 0) continue;
    used.add(i);
    // The transfer it would echo: the last one counted between the same two accounts in the EVM message.
    const last = events[i].msgIndex === evm?.message ? lastBetween.get(s, r) : undefined;
    const echoOf =
      last !== undefined &&
      !echoed.has(last) &&
      coins.every((c) => BigInt(c.amount) % 2n === 0n) &&
      tKey[last] === coinsKeyOf(coins.map((c) => ({ denom: c.denom, amount: (BigInt(c.amount) / 2n).toString() })))
        ? last
        : undefined;
    if (echoOf !== undefined) {
      echoed.add(echoOf);
      events[i].echo = `transfer #${echoOf} listed again at twice its amount (not a movement of its own)`;
      continue;
    }
    if (events[i].msgIndex === evm?.message) lastBetween.set(s, r, i);
    role(s, 'sender');
    role(r, 'recipient');
    let o = precompileFrame(PRECOMPILE_OF.transfer, events[i].msgIndex);
    // No bank precompile frame: the contract the EVM transaction called made it (the native token's ERC-20 0xEeee…EEeE).
    if (evm && events[i].msgIndex === evm.message && !o?.precompile && evm.to) {
      const to = evm.to.toLowerCase();
      o = {
        message: evm.message,
        ...(frames.length > 0 ? { frame: 0 } : {}),
        precompile: to,
        precompileName: precompileName(to) ?? (to === NATIVE_ERC20 ? 'native token ERC-20' : 'called contract'),
      };
    }
    add(
      'bankTransfer',
      `bank transfer of ${amountWords(t.get('amount'), coins)} from ${t.get('sender')} to ${t.get('recipient')}${o?.precompileName ? ` by the ${o.precompileName} precompile` : ''}`,
      moved(coins, s, r),
      [i],
      o,
    );
  }

  // 6. Mints and burns (the EVM moves value that way on some versions): counted only when no transfer covers them.
  // coin_spent / coin_received are the halves of a transfer, a mint or a burn: attached to the cause of the
  // transfer they belong to, never counted on their own.
  // The causes by one of their movements (account, denom, signed amount): the first cause wins.
  const byMove = new Map2<Map<string, number>>();
  for (let ci = 0; ci < causes.length; ci++) {
    const c = causes[ci];
    for (let mAt = 0; mAt < c.moves.length; mAt++) {
      const m = c.moves[mAt];
      let byAmount = byMove.get(m.account, m.denom);
      if (!byAmount) byMove.set(m.account, m.denom, (byAmount = new Map()));
      if (!byAmount.has(m.amount)) byAmount.set(m.amount, ci);
    }
  }
  for (let eAt = 0; eAt < events.length; eAt++) {
    const e = events[eAt];
    if (e.type !== 'coin_spent' && e.type !== 'coin_received') continue;
    const t = a[e.index];
    const who = hx(t.get(e.type === 'coin_spent' ? 'spender' : 'receiver'));
    const coins = coinsOf(t.get('amount'));
    const key = coinsKey(coins);
    const party = e.type === 'coin_spent' ? tFrom : tTo;
    // The transfer it is half of: listed within three events of it (evmd: coin_spent, coin_received, transfer).
    let match: number | undefined;
    for (let i = Math.max(0, e.index - 3); i <= Math.min(events.length - 1, e.index + 3) && match === undefined; i++)
      if (events[i].type === 'transfer' && party[i] === who && tKey[i] === key) match = i;
    // The half of a movement a cause already counts (a delegation's coins to the bonded pool have no transfer event).
    const owner =
      match === undefined && who && coins.length === 1
        ? (byMove.get(who, coins[0].denom)?.get(e.type === 'coin_spent' ? neg(coins[0].amount) : coins[0].amount) ?? -1)
        : -1;
    if (owner >= 0) events[e.index].cause = owner;
    else if (match !== undefined) {
      if (events[match].cause !== undefined) events[e.index].cause = events[match].cause;
      else if (events[match].echo) events[e.index].echo = events[match].echo;
    }
    if (events[e.index].cause === undefined && !events[e.index].echo)
      events[e.index].echo = `half of a ${match !== undefined ? 'transfer' : 'mint, burn or transfer'} (not counted on its own)`;
  }

  // 7. tx_log (cosmos/evm v0.3.x): the EVM logs copied as JSON, recognised and not shown twice.
  let logCopies = 0;
  const logs = evm?.logs ?? [];
  // The EVM logs by their text, each list in order with the next one not yet taken: a copy finds its log
  // without comparing it with every log (5,000 copies of 1,000 logs that match none took 1.5 s).
  let byText: Map<string, { next: number; list: number[] }> | undefined;
  for (let eAt = 0; eAt < events.length; eAt++) {
    const e = events[eAt];
    if (e.type !== 'tx_log') continue;
    const text = a[e.index].get('txLog');
    const log = parseLog(text);
    if (log && logs.length > 0 && !byText) {
      byText = new Map();
      for (let i = 0; i < logs.length; i++) {
        const key = logText(logs[i]);
        const entry = byText.get(key);
        if (entry) entry.list.push(i);
        else byText.set(key, { next: 0, list: [i] });
      }
    }
    const same = log && byText?.get(logText(log));
    const k = same && same.next < same.list.length ? same.list[same.next++] : undefined;
    if (k !== undefined) {
      events[e.index].copyOfLog = k;
      logCopies++;
    } else if (log && logs.length === 0) {
      events[e.index].copyOfLog = log.index ?? logCopies;
      logCopies++;
    }
  }
  for (let cAt = 0; cAt < causes.length; cAt++) {
    const c = causes[cAt];
    for (let mAt = 0; mAt < c.moves.length; mAt++) {
      const m = c.moves[mAt];
      const mod = moduleOf(m.account);
      if (mod) modules.set(m.account, mod);
    }
  }
  return { causes, events, logCopies, roles, modules };
}

function packetData(text: string | undefined): Map<string, string> {
  const m = new Map<string, string>();
  try {
    const j = JSON.parse(text ?? '') as Record<string, unknown>;
    for (const [k, v] of Object.entries(j)) if (typeof v === 'string') m.set(k, v);
  } catch {
    // not JSON: no details
  }
  return m;
}

interface LogJson {
  address: string;
  topics: string[];
  data: string;
  index?: number;
}

/** A tx_log value: `{"address":"0x…","topics":[…],"data":"base64 or 0x…","logIndex":…}`. */
function parseLog(text: string | undefined): LogJson | undefined {
  if (!text || text.length > 1 << 20) return undefined;
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    if (typeof j.address !== 'string' || !Array.isArray(j.topics)) return undefined;
    let data = typeof j.data === 'string' ? j.data : '';
    if (data !== '' && !data.startsWith('0x')) data = `0x${Buffer.from(data, 'base64').toString('hex')}`;
    const index = typeof j.index === 'number' ? j.index : typeof j.logIndex === 'number' ? j.logIndex : undefined;
    return { address: j.address.toLowerCase(), topics: j.topics.map((t) => String(t).toLowerCase()), data: data === '' ? '0x' : data.toLowerCase(), index };
  } catch {
    return undefined;
  }
}

/** A log as one comparable text: its address, topics and data in lower case (JSON: no two logs give the same text). */
function logText(l: { readonly address: string; readonly topics: readonly string[]; readonly data: string }): string {
  return JSON.stringify([l.address.toLowerCase(), l.topics.map((t) => t.toLowerCase()), l.data.toLowerCase()]);
}
