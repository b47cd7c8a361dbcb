// State at a height: what one account holds at one block, read through the provider's REST with the
// `x-cosmos-block-height` header (and the EVM RPC's eth_getBalance at that block): every bank balance
// (paged), the EVM view of the EVM denom, precise-bank's fractional balance, delegations, pending
// rewards per validator, unbonding and redelegation entries. The account page (explorer/account/) and the two-layer
// receipt (#35) both read it. Without REST (or where REST fails on a read), the same reads go through
// the precompiles' view functions (eth_call at the block) or CometBFT's abci_query at the height
// (stateVia.ts), and each read says which interface answered (`via`, and `readThrough` for the lot).
//
// Each read stands alone: a failure is a note on that read and the rest still shows. A height the
// provider no longer keeps (REST with "version does not exist": evmd v0.3.2 answers HTTP 500 with
// gRPC code 2, "codespace sdk code 38: not found: …", others 404 with code 5; the EVM's -32000
// "failed to load state at height" for eth_getBalance and eth_call alike, abci_query's code 38 with
// the same words) is said as such, never taken for "no delegation". At most
// STATE_CONCURRENCY reads are in flight at once; each request has the source's timeout and
// cancellation (a cancelled read ends the whole read). The output is plain data: amounts are the
// decimal strings the node sent (DecCoins keep their 18 fractional digits), never numbers.

import { EndpointError, LocalizedError, errorMessage, isEndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import { bech32Decode, bech32Encode } from './validate';
import { bech32 } from '@scure/base';
import {
  DISTRIBUTION_PRECOMPILE,
  MAX_PAGE_KEY_BYTES,
  PAGE_KEY_REPEATED,
  PAGE_KEY_TOO_LONG,
  STAKING_PRECOMPILE,
  pageOnce,
  STATE_MAX_VALIDATORS,
  type StateCometCall,
  Unserved,
  type ViaSource,
  abciBalances,
  abciDelegations,
  abciEvmDenom,
  abciFractional,
  abciRedelegations,
  abciRewards,
  abciUnbondings,
  viewDelegation,
  viewDelegatorValidators,
  viewRewards,
  viewUnbondings,
} from './stateVia';
import { isEvmAddress, jsonTextOf, scalarText } from '../base/text';

export type { StateCometCall } from './stateVia';

/** What the state reads need of a provider (the explorer's source is one: explorer/source.ts). */
export interface StateSource {
  readonly has: { readonly rest: boolean; readonly evm: boolean; readonly comet?: boolean };
  /** A REST GET of `path` (with its query); at `height` when given (the `x-cosmos-block-height` header). */
  rest(path: string, height?: string): Promise<unknown>;
  /** An EVM JSON-RPC call's `result` (eth_getBalance, and eth_call of the precompiles' views at a block). */
  evm(method: string, params: readonly unknown[]): Promise<unknown>;
  /** A CometBFT call's `result` (`abci_query` at a height), when the provider has a CometBFT RPC. */
  comet?(call: StateCometCall): Promise<unknown>;
}

/** The most reads in flight at once for one account (a receipt reads several accounts one after another). */
export const STATE_CONCURRENCY = 4;
/** A page of a paged REST read, and the most pages read (500 denoms, delegations or unbondings). */
export const STATE_PAGE_SIZE = 100;
export const STATE_MAX_PAGES = 5;

export interface StateCoin {
  readonly denom: string;
  /** Decimal string as sent (a DecCoin keeps its fraction, `5450000000000000000.000000000000000000`). */
  readonly amount: string;
}

export interface Delegation {
  readonly validator: string;
  readonly shares: string;
  readonly balance?: StateCoin;
}

export interface ValidatorReward {
  readonly validator: string;
  readonly reward: readonly StateCoin[];
}

/** A redelegation entry: `balance` moves from `source` to `destination`, which it may not leave again before `completionTime`. */
export interface RedelegationEntry {
  readonly source: string;
  readonly destination: string;
  readonly creationHeight: string;
  readonly completionTime: string;
  readonly initialBalance: string;
  readonly balance: string;
}

export interface UnbondingEntry {
  readonly validator: string;
  readonly creationHeight: string;
  readonly completionTime: string;
  readonly initialBalance: string;
  readonly balance: string;
}

/**
 * One read: its value, or why there is none. `pruned`: the provider no longer keeps the height;
 * `unavailable`: the provider lacks the interface or module; `truncated`: more pages than read.
 */
export interface StateRead<T> {
  readonly value?: T;
  /** The interface that answered (or said the height is pruned). */
  readonly via?: StatePath;
  /** The interfaces tried, each failing (said in `note`); absent: none was tried (the provider has none that reads it). */
  readonly tried?: readonly StatePath[];
  readonly note?: string;
  readonly pruned?: boolean;
  readonly unavailable?: boolean;
  readonly truncated?: boolean;
}

/** `bank(denom) × scale + fraction = evm`, or the difference. Integers as decimal strings. */
export interface Reconciliation {
  readonly denom: string;
  readonly bank: string;
  readonly fraction: string;
  readonly evm: string;
  /** 1, or 10^12 when the bank denom has 6 decimals and precise-bank extends it to the EVM's 18. */
  readonly scale: string;
  /** evm − (bank × scale + fraction); "0" when they agree. */
  readonly difference: string;
  readonly equal: boolean;
}

export interface AccountState {
  /** bech32 account address (the chain's prefix) and its 0x form. */
  readonly account: string;
  readonly hex: string;
  /** The height asked for; undefined: the latest state (the header is not sent). */
  readonly height?: string;
  readonly evmDenom: StateRead<string>;
  readonly balances: StateRead<readonly StateCoin[]>;
  /** eth_getBalance at the block, in the EVM's 18-decimal unit (decimal string). */
  readonly evmBalance: StateRead<string>;
  /** precise-bank's fractional balance (decimal string, in the EVM unit). */
  readonly fractional: StateRead<string>;
  readonly delegations: StateRead<readonly Delegation[]>;
  readonly rewards: StateRead<readonly ValidatorReward[]>;
  readonly unbondings: StateRead<readonly UnbondingEntry[]>;
  readonly redelegations: StateRead<readonly RedelegationEntry[]>;
  readonly reconciliation?: Reconciliation;
  /** Why bank and EVM balances are not reconciled although both sides were asked for (a part not read, or not read as a number). */
  readonly unreconciled?: string;
  /** One sentence when the height is pruned on this provider (every read that said so). */
  readonly coverage?: string;
  /** Which interface the Cosmos reads went through (`read through: REST`, …; see readThrough()). */
  readonly readThrough?: string;
}

type Json = Record<string, any>;

const MAX_HEIGHT = 9223372036854775807n;

/** A height as given (decimal, 1 to 2^63-1), normalised; throws a LocalizedError otherwise. */
export function stateHeight(text: string): string {
  const t = text.trim();
  if (!/^[0-9]{1,19}$/.test(t) || BigInt(t) === 0n || BigInt(t) > MAX_HEIGHT) {
    throw new LocalizedError(l10n.both('"{0}" is not a block height (a whole number from 1).', t.length > 30 ? `${t.slice(0, 30)}…` : t));
  }
  return BigInt(t).toString();
}

/** The 20 account bytes of `address` (0x or bech32, checksum verified); throws a LocalizedError otherwise. */
export function accountBytes(address: string): Uint8Array {
  const t = address.trim();
  if (isEvmAddress(t)) return Uint8Array.from(Buffer.from(t.slice(2), 'hex'));
  const d = bech32Decode(t);
  if (typeof d !== 'string') {
    try {
      const bytes = bech32.fromWords(d.data);
      if (bytes.length === 20) return bytes;
    } catch {
      // bad padding: refused below
    }
  }
  throw new LocalizedError(l10n.both('{0} is not a 0x or bech32 account address of 20 bytes.', t.length > 60 ? `${t.slice(0, 60)}…` : t));
}

/** What a node answers for a height it no longer keeps (REST, the EVM RPC, CometBFT). */
export function isPrunedAnswer(err: unknown): boolean {
  return /version does not exist|failed to load state at height|is not available, lowest height is/i.test(errorMessage(err));
}

function isUnserved(err: unknown): boolean {
  // A module the gateway lacks: 501 Not Implemented (gRPC code 12); an inactive precompile or an unknown abci_query path.
  return err instanceof Unserved || /not implemented|\b501\b/i.test(errorMessage(err));
}

/** At most `limit` of `tasks` running at once; resolves when all have (a rejection rejects, after the running ones). */
export async function pool(tasks: ReadonlyArray<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) await tasks[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/** An answer not shaped as the route's documentation says. */
const unexpected = (m: l10n.Message): EndpointError => new EndpointError('protocol', m);

const isAmount = (s: unknown): s is string => typeof s === 'string' && /^[0-9]{1,80}(\.[0-9]{1,40})?$/.test(s);
/** A denom (the SDK's are at most 128 characters): no space, control or direction character; anything else is not one. */
const isDenom = (s: unknown): s is string => typeof s === 'string' && /^[^\s\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]{1,128}$/.test(s);

function coinsOf(list: unknown): StateCoin[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((c: Json) => (c && isDenom(c.denom) && isAmount(c.amount) ? [{ denom: c.denom, amount: c.amount }] : []));
}

/** A page key as the REST gateway writes it (base64 of a store key); a longer or other text is no key. */
const isPageKey = (k: string): boolean => k.length <= (MAX_PAGE_KEY_BYTES * 4) / 3 + 4 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(k);

/** The interface a read went through. */
export type StatePath = 'REST' | 'precompile views' | 'abci_query' | 'EVM RPC';

/** One way of doing a read: its interface, and the read (a note when the value is partial). */
interface Way<T> {
  readonly path: StatePath;
  readonly run: () => Promise<{ value: T; truncated?: boolean; note?: string; stop?: string }>;
}

/** Whether an EVM call is a state read at a height (eth_getBalance, or a precompile view at a block): counted as such by a source. */
export function isStateCall(method: string, params: readonly unknown[]): boolean {
  if (method === 'eth_getBalance') return true;
  if (method !== 'eth_call') return false;
  const to: unknown = (params[0] as { to?: unknown } | undefined)?.to;
  return typeof to === 'string' && (to.toLowerCase() === STAKING_PRECOMPILE || to.toLowerCase() === DISTRIBUTION_PRECOMPILE);
}

/**
 * Reads `address`'s state at `height` (undefined: the latest) through `src`. Never rejects except when
 * cancelled (or for an address or height it cannot read: nothing is sent then).
 *
 * Each read goes through the provider's REST first; when the provider has no REST, or REST fails on
 * that read with anything but a pruned height, through the other interfaces it serves (stateVia.ts):
 * the precompiles' view functions (eth_call at the block) where they read the same thing completely
 * (delegations), `abci_query` at the height where they do not (the EVM denom, bank balances, the
 * fraction, redelegations; pending rewards and unbondings, which the precompiles give cut: whole base
 * units, only from validators still delegated to), the precompiles as the last resort. Each read says
 * the interface it went through (`via`). A pruned height on any interface ends that read as pruned.
 */
export async function readAccountState(src: StateSource, address: string, opts: { height?: string; prefix?: string } = {}): Promise<AccountState> {
  const bytes = accountBytes(address);
  const height = opts.height === undefined ? undefined : stateHeight(opts.height);
  // The account prefix: given, else the one typed (an operator's `cosmosvaloper` read as `cosmos`), else cosmos.
  const typed = address.trim().startsWith('0x') ? undefined : (bech32Decode(address.trim()) as { hrp: string }).hrp.toLowerCase();
  const prefix = opts.prefix ?? (typed?.replace(/(valoper|valcons)(pub)?$/, '') || 'cosmos');
  const account = bech32Encode(prefix, bytes);
  const hex = `0x${Buffer.from(bytes).toString('hex')}`;
  const hasComet = Boolean(src.has.comet && src.comet);
  const via: ViaSource = { evm: (m, p) => src.evm(m, p), ...(hasComet ? { comet: (c: StateCometCall) => src.comet!(c) } : {}) };
  const paging = { limit: STATE_PAGE_SIZE, maxPages: STATE_MAX_PAGES };
  const R = src.has.rest;
  const P = src.has.evm;
  const A = hasComet;

  /** The first way that answers; a pruned height ends it; every failure is said when none answers. */
  const read = async <T>(what: string, ways: ReadonlyArray<Way<T> | false>): Promise<StateRead<T>> => {
    const usable = ways.filter((w): w is Way<T> => Boolean(w));
    if (usable.length === 0) {
      // Three ways: the precompiles read it too.
      return { unavailable: true, note: `${what}: the provider has no REST${ways.length > 2 ? ', EVM RPC' : ''} or CometBFT RPC address` };
    }
    const failures: string[] = [];
    let allUnserved = true;
    for (const w of usable) {
      try {
        const r = await w.run();
        const read = Array.isArray(r.value) ? r.value.length : STATE_MAX_PAGES * STATE_PAGE_SIZE;
        const note = r.note ?? (r.truncated ? `${what}: only the first ${read} read${r.stop ? ` (${r.stop})` : ''}` : undefined);
        return { value: r.value, via: w.path, ...(r.truncated ? { truncated: true } : {}), ...(note ? { note } : {}) };
      } catch (err) {
        if (isEndpointError(err) && err.kind === 'cancelled') throw err;
        if (isPrunedAnswer(err)) return { pruned: true, via: w.path, note: `${what}: height ${height ?? 'latest'} is pruned on this provider` };
        const unserved = isUnserved(err);
        allUnserved &&= unserved;
        const label = usable.length > 1 ? `${w.path}: ` : '';
        failures.push(unserved ? `not served by this provider (${label}${errorMessage(err)})` : `${label}${errorMessage(err)}`);
        // The lookup's request cap: the other interfaces would be refused as well.
        if (/stopped after \d+ requests/.test(errorMessage(err))) break;
      }
    }
    return {
      ...(allUnserved ? { unavailable: true } : {}),
      tried: usable.slice(0, failures.length).map((w) => w.path),
      note: `${what}: ${failures.join('; ')}`,
    };
  };
  const rest = async (path: string): Promise<Json> => {
    const r = await src.rest(path, height);
    if (!r || typeof r !== 'object') throw unexpected(l10n.both('the answer is not a JSON object'));
    return r as Json;
  };
  /**
   * Every page of a paged route (by `pagination.key`), up to STATE_MAX_PAGES. A page is cut at the
   * STATE_PAGE_SIZE entries asked (a node answering 1,000,000 gives the first 100, the read partial); a
   * next_key already followed (the same key forever, a cycle) or that is no key ends the read, partial,
   * never reading a page again (its entries would show twice).
   */
  const paged = async <T>(path: string, field: string, item: (x: Json) => T[]): Promise<{ value: T[]; truncated?: boolean; stop?: string }> => {
    const out: T[] = [];
    const followed = new Set<string>();
    const pages = new Set<string>();
    let key: string | undefined;
    for (let page = 0; page < STATE_MAX_PAGES; page++) {
      const q = `pagination.limit=${STATE_PAGE_SIZE}${key ? `&pagination.key=${encodeURIComponent(key)}` : ''}`;
      const r = await rest(`${path}?${q}`);
      const list: unknown = r[field];
      if (!Array.isArray(list)) throw unexpected(l10n.both('the answer has no "{0}" list', field));
      const entries = list.slice(0, STATE_PAGE_SIZE);
      // The same entries again (a node that ignores the key): read once.
      const text = jsonTextOf(entries);
      if (text === undefined) throw unexpected(l10n.both('the answer is nested too deeply to read'));
      if (entries.length > 0 && !pageOnce(pages, text)) return { value: out, truncated: true, stop: PAGE_KEY_REPEATED };
      // One by one: a spread passes every entry as an argument (a hostile page of 130,000 throws). A page
      // gives at most STATE_PAGE_SIZE items, as abci_query's pages do: an unbonding answer holds a list
      // of entries in each of its entries (staking allows 7 per validator; a hostile node, a million,
      // which `item` cuts at STATE_PAGE_SIZE + 1).
      const items: T[] = [];
      for (const x of entries) if (x && typeof x === 'object') for (const y of item(x as Json)) items.push(y);
      for (const y of items.slice(0, STATE_PAGE_SIZE)) out.push(y);
      if (items.length > STATE_PAGE_SIZE || list.length > STATE_PAGE_SIZE) return { value: out, truncated: true };
      const next: unknown = r.pagination?.next_key;
      if (typeof next !== 'string' || next === '') return { value: out };
      if (followed.has(next)) return { value: out, truncated: true, stop: PAGE_KEY_REPEATED };
      if (!isPageKey(next)) return { value: out, truncated: true, stop: PAGE_KEY_TOO_LONG };
      followed.add(next);
      key = next;
    }
    return { value: out, truncated: true };
  };
  /** Denoms whose bank entry was left out (its amount is not a number): the reconciliation cannot take them for 0. */
  const unreadable = new Set<string>();
  /** The bank's coins as sent: those that read as coins; the others left out, counted in the note. */
  const bank = async (
    r: Promise<{ value: ReadonlyArray<{ denom: unknown; amount: unknown }>; truncated?: boolean; stop?: string }>,
  ): Promise<{ value: StateCoin[]; truncated?: boolean; note?: string }> => {
    const { value: sent, truncated, stop } = await r;
    const value = coinsOf(sent);
    const out = sent.length - value.length;
    if (out === 0) return { value, ...(truncated ? { truncated, ...(stop ? { stop } : {}) } : {}) };
    for (const c of sent) if (isDenom(c.denom) && !isAmount(c.amount)) unreadable.add(c.denom);
    const named = [...unreadable].slice(0, 3).join(', ');
    const note = `bank balances: ${out} ${out === 1 ? 'entry' : 'entries'} left out (a denom or an amount that is not one${named ? `: ${named}` : ''})${
      truncated ? `; only the first ${sent.length} read${stop ? ` (${stop})` : ''}` : ''
    }`;
    return { value, ...(truncated ? { truncated } : {}), note };
  };
  // The validators the account delegates to, through the distribution precompile: asked once, for delegations and unbondings.
  let validators: Promise<{ value: string[]; truncated?: boolean }> | undefined;
  const delegatedTo = () => (validators ??= viewDelegatorValidators(via, hex, height));
  const cutNote = (what: string) => `${what}: only the first ${STATE_MAX_VALIDATORS} validators read (precompile views)`;

  const tasks: Array<() => Promise<void>> = [];
  let evmDenom!: StateRead<string>;
  let balances!: StateRead<readonly StateCoin[]>;
  let fractional!: StateRead<string>;
  let delegations!: StateRead<readonly Delegation[]>;
  let rewards!: StateRead<readonly ValidatorReward[]>;
  let unbondings!: StateRead<readonly UnbondingEntry[]>;
  let redelegations!: StateRead<readonly RedelegationEntry[]>;
  let evmBalance: StateRead<string> = { unavailable: true, note: 'the provider has no EVM RPC address' };

  tasks.push(async () => {
    evmDenom = await read('EVM denom', [
      R && {
        path: 'REST',
        run: async () => {
          const d: unknown = (await rest('/cosmos/evm/vm/v1/params')).params?.evm_denom;
          if (!isDenom(d)) throw unexpected(l10n.both('the EVM params name no evm_denom'));
          return { value: d };
        },
      },
      A && { path: 'abci_query', run: async () => ({ value: await abciEvmDenom(via, height) }) },
    ]);
  });
  tasks.push(async () => {
    balances = await read('bank balances', [
      R && { path: 'REST', run: () => bank(paged(`/cosmos/bank/v1beta1/balances/${account}`, 'balances', (c) => [{ denom: c.denom, amount: c.amount }])) },
      A && { path: 'abci_query', run: () => bank(abciBalances(via, account, height, paging)) },
    ]);
  });
  tasks.push(async () => {
    fractional = await read('precise-bank fractional balance', [
      R && {
        path: 'REST',
        run: async () => {
          const a: unknown = (await rest(`/cosmos/evm/precisebank/v1/fractional_balance/${account}`)).fractional_balance?.amount;
          if (!isAmount(a)) throw unexpected(l10n.both('the answer has no fractional_balance amount'));
          return { value: a };
        },
      },
      A && { path: 'abci_query', run: async () => ({ value: await abciFractional(via, account, height) }) },
    ]);
  });
  tasks.push(async () => {
    delegations = await read('delegations', [
      R && {
        path: 'REST',
        run: () =>
          paged(`/cosmos/staking/v1beta1/delegations/${account}`, 'delegation_responses', (d) => {
            const v: unknown = d.delegation?.validator_address;
            if (typeof v !== 'string') return [];
            const bal = coinsOf([d.balance])[0];
            return [{ validator: v, shares: scalarText(d.delegation?.shares), ...(bal ? { balance: bal } : {}) }];
          }),
      },
      P && {
        path: 'precompile views',
        run: async () => {
          const vs = await delegatedTo();
          const out: Delegation[] = [];
          for (const v of vs.value) {
            const d = await viewDelegation(via, hex, v, height);
            if (d) out.push(d);
          }
          return { value: out, ...(vs.truncated ? { truncated: true, note: cutNote('delegations') } : {}) };
        },
      },
      A && { path: 'abci_query', run: () => abciDelegations(via, account, height, paging) },
    ]);
  });
  tasks.push(async () => {
    rewards = await read('pending rewards', [
      R && {
        path: 'REST',
        run: async () => {
          const r = await rest(`/cosmos/distribution/v1beta1/delegators/${account}/rewards`);
          if (!Array.isArray(r.rewards)) throw unexpected(l10n.both('the answer has no "{0}" list', 'rewards'));
          const value = (r.rewards as Json[]).flatMap((x) =>
            x && typeof x.validator_address === 'string' ? [{ validator: x.validator_address as string, reward: coinsOf(x.reward) }] : [],
          );
          return { value };
        },
      },
      A && { path: 'abci_query', run: async () => ({ value: await abciRewards(via, account, height) }) },
      P && { path: 'precompile views', run: async () => ({ value: await viewRewards(via, hex, height) }) },
    ]);
  });
  tasks.push(async () => {
    unbondings = await read('unbonding delegations', [
      R && {
        path: 'REST',
        run: () =>
          paged(`/cosmos/staking/v1beta1/delegators/${account}/unbonding_delegations`, 'unbonding_responses', (u) => {
            const v: unknown = u.validator_address;
            if (typeof v !== 'string' || !Array.isArray(u.entries)) return [];
            return (u.entries as Json[]).slice(0, STATE_PAGE_SIZE + 1).map((e) => ({
              validator: v,
              creationHeight: scalarText(e?.creation_height),
              completionTime: scalarText(e?.completion_time),
              initialBalance: scalarText(e?.initial_balance),
              balance: scalarText(e?.balance),
            }));
          }),
      },
      A && { path: 'abci_query', run: () => abciUnbondings(via, account, height, paging) },
      P && {
        path: 'precompile views',
        run: async () => {
          const vs = await delegatedTo();
          const out: UnbondingEntry[] = [];
          for (const v of vs.value) out.push(...(await viewUnbondings(via, hex, v, height)));
          // The precompile asks per validator: one the account no longer delegates to is not asked.
          return {
            value: out,
            truncated: true,
            note: `unbonding delegations: read through precompile views, only from the ${vs.truncated ? `first ${STATE_MAX_VALIDATORS} ` : ''}validators the account delegates to`,
          };
        },
      },
    ]);
  });
  tasks.push(async () => {
    redelegations = await read('redelegations', [
      R && {
        path: 'REST',
        run: () =>
          paged(`/cosmos/staking/v1beta1/delegators/${account}/redelegations`, 'redelegation_responses', (r) => {
            const red: Json | undefined = r.redelegation;
            const source: unknown = red?.validator_src_address;
            const destination: unknown = red?.validator_dst_address;
            if (typeof source !== 'string' || typeof destination !== 'string' || !Array.isArray(r.entries)) return [];
            return (r.entries as Json[]).slice(0, STATE_PAGE_SIZE + 1).map((e) => ({
              source,
              destination,
              creationHeight: scalarText(e?.redelegation_entry?.creation_height),
              completionTime: scalarText(e?.redelegation_entry?.completion_time),
              initialBalance: scalarText(e?.redelegation_entry?.initial_balance),
              balance: scalarText(e?.balance),
            }));
          }),
      },
      A && { path: 'abci_query', run: () => abciRedelegations(via, account, height, paging) },
    ]);
  });
  if (src.has.evm) {
    tasks.push(async () => {
      evmBalance = await read('EVM balance (eth_getBalance)', [
        {
          path: 'EVM RPC',
          run: async () => {
            const b = await src.evm('eth_getBalance', [hex, height === undefined ? 'latest' : `0x${BigInt(height).toString(16)}`]);
            if (typeof b !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(b)) throw unexpected(l10n.both('the answer is not a hex quantity'));
            return { value: BigInt(b).toString() };
          },
        },
      ]);
    });
  }
  await pool(tasks, STATE_CONCURRENCY);

  const reads: Array<StateRead<unknown>> = [evmDenom, balances, evmBalance, fractional, delegations, rewards, unbondings, redelegations];
  const coverage =
    height !== undefined && reads.some((r) => r.pruned)
      ? `Height ${height} is pruned on this provider: its state is no longer kept there (a provider that keeps old states, an archive node, can answer).`
      : undefined;
  const cannot = unreconciled(evmDenom, balances, fractional, evmBalance, unreadable);
  const reconciliation = cannot === undefined ? reconcile(evmDenom.value, balances.value, fractional.value, evmBalance.value) : undefined;
  const through = readThrough({ 'EVM denom': evmDenom, 'bank balances': balances, fraction: fractional, delegations, rewards, unbondings, redelegations });
  return {
    account,
    hex,
    ...(height !== undefined ? { height } : {}),
    evmDenom,
    balances,
    evmBalance,
    fractional,
    delegations,
    rewards,
    unbondings,
    redelegations,
    ...(reconciliation ? { reconciliation } : {}),
    ...(cannot ? { unreconciled: cannot } : {}),
    ...(coverage ? { coverage } : {}),
    ...(through ? { readThrough: through } : {}),
  };
}

/**
 * One line naming the interfaces the Cosmos reads went through: `read through: REST`, or
 * `read through: precompile views (delegations, rewards), abci_query (bank balances, …)`; undefined
 * when nothing was read. (The EVM balance is always eth_getBalance.)
 */
export function readThrough(reads: Readonly<Record<string, StateRead<unknown>>>): string | undefined {
  const by = new Map<StatePath, string[]>();
  for (const [name, r] of Object.entries(reads)) {
    if (!r.via || (r.value === undefined && !r.pruned)) continue;
    const list = by.get(r.via) ?? [];
    list.push(name);
    by.set(r.via, list);
  }
  if (by.size === 0) return undefined;
  if (by.size === 1) return `read through: ${[...by.keys()][0]}`;
  return `read through: ${[...by].map(([p, names]) => `${p} (${names.join(', ')})`).join(', ')}`;
}

/**
 * Why the reconciliation cannot be made, when the account has an EVM denom and an EVM balance to
 * reconcile: a part not read (never taken for 0: a failed fraction read would show a difference that
 * may not be there; without it only an agreement is shown), the denom's bank entry left out (an amount that is no number), the denom missing
 * from balances read in part, or listed twice with two amounts. undefined: it can be made (or there
 * is nothing to reconcile: no EVM denom or balance on this provider, a pruned height).
 */
export function unreconciled(
  denom: StateRead<string>,
  coins: StateRead<readonly StateCoin[]>,
  fraction: StateRead<string>,
  evm: StateRead<string>,
  unreadable: ReadonlySet<string> = new Set(),
): string | undefined {
  if (denom.value === undefined || evm.unavailable || [denom, coins, fraction, evm].some((r) => r.pruned)) return undefined;
  const d = denom.value;
  const not = (what: string) => `not made: ${what}`;
  if (evm.value === undefined) return not('the EVM balance was not read');
  if (coins.value === undefined) return not('the bank balances were not read');
  if (unreadable.has(d)) return not(`the bank's ${d} amount is not a number`);
  const mine = coins.value.filter((c) => c.denom === d);
  if (mine.length === 0 && coins.truncated) return not(`the bank balances were read in part and ${d} is not among them`);
  if (new Set(mine.map((c) => c.amount)).size > 1) return not(`the bank lists ${d} more than once, with different amounts`);
  if (mine.some((c) => !/^[0-9]+$/.test(c.amount))) return not(`the bank's ${d} amount is not a whole number`);
  // A fraction not read may be what the two differ by: only an agreement without it is shown (then there is none).
  if (fraction.value === undefined && !fraction.unavailable && reconcile(d, coins.value, undefined, evm.value)?.equal === false)
    return not('the precise-bank fraction was not read');
  return undefined;
}

/**
 * `bank(denom) × scale + fraction` against the EVM balance. The scale is 1 (an 18-decimal denom such
 * as evmd's atest) unless only 10^12 balances (a 6-decimal denom extended by precise-bank), which is
 * then said; a disagreement is shown at scale 1 with its difference. Undefined without both sides.
 */
export function reconcile(
  denom: string | undefined,
  coins: readonly StateCoin[] | undefined,
  fraction: string | undefined,
  evm: string | undefined,
): Reconciliation | undefined {
  if (!denom || !coins || evm === undefined) return undefined;
  const bankText = coins.find((c) => c.denom === denom)?.amount ?? '0';
  if (!/^[0-9]+$/.test(bankText) || !/^[0-9]+$/.test(evm)) return undefined;
  const bank = BigInt(bankText);
  const frac = fraction !== undefined && /^[0-9]+$/.test(fraction) ? BigInt(fraction) : 0n;
  const e = BigInt(evm);
  let scale = 1n;
  if (bank + frac !== e && bank * 10n ** 12n + frac === e) scale = 10n ** 12n;
  const difference = e - (bank * scale + frac);
  return {
    denom,
    bank: bank.toString(),
    fraction: frac.toString(),
    evm: e.toString(),
    scale: scale.toString(),
    difference: difference.toString(),
    equal: difference === 0n,
  };
}
