// The two other ways of reading an account's state at a height, for a provider without REST (or whose
// REST fails on a read): the Cosmos EVM precompiles' view functions through the EVM RPC (`eth_call`
// at block N) and CometBFT's `abci_query` at height N (the modules' gRPC queries, protobuf encoded with
// cosmjs-types' codecs; the two Cosmos EVM queries that cosmjs-types lacks are written by hand with its
// BinaryWriter/Reader). state.ts chooses among them per read; this file only asks and decodes.
//
// What each path can read (cosmos/evm v0.3.2, checked on evmd):
// - precompile views: delegations (distribution `delegatorValidators`, then staking `delegation` per
//   validator), pending rewards (distribution `delegationTotalRewards`: whole base units, the
//   precompile cuts a reward's fraction), unbonding entries (staking `unbondingDelegation` per
//   validator the account delegates to: an unbonding from a validator it no longer delegates to is
//   not seen). Not the bank balances by denom (the bank precompile answers by ERC-20 contract, only
//   for denoms with a token pair), the EVM denom, precise-bank's fraction or redelegations.
// - abci_query: everything REST reads, in the same units.
// Every answer is checked: a wrong length, a garbage ABI return or a non-SDK abci answer is an error
// on that read, never an empty list.

import { createHash } from 'node:crypto';
import { BinaryReader, BinaryWriter } from 'cosmjs-types/binary';
import { QueryAllBalancesRequest, QueryAllBalancesResponse } from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { PageRequest } from 'cosmjs-types/cosmos/base/query/v1beta1/pagination';
import { QueryDelegationTotalRewardsRequest, QueryDelegationTotalRewardsResponse } from 'cosmjs-types/cosmos/distribution/v1beta1/query';
import {
  QueryDelegatorDelegationsRequest,
  QueryDelegatorDelegationsResponse,
  QueryDelegatorUnbondingDelegationsRequest,
  QueryDelegatorUnbondingDelegationsResponse,
  QueryRedelegationsRequest,
  QueryRedelegationsResponse,
} from 'cosmjs-types/cosmos/staking/v1beta1/query';
import type { Timestamp } from 'cosmjs-types/google/protobuf/timestamp';
import { type Hex, decodeFunctionResult, encodeFunctionData, parseAbi } from 'viem';
import { EndpointError, errorMessage } from '../base/errors';
import * as l10n from '../base/l10n';
import { withoutLeadingZeros } from '../base/text';

/** The precompiles read (their fixed addresses on every Cosmos EVM chain). */
export const STAKING_PRECOMPILE = '0x0000000000000000000000000000000000000800';
export const DISTRIBUTION_PRECOMPILE = '0x0000000000000000000000000000000000000801';

/**
 * The view functions read, as cosmos/evm v0.3.2's ABIs declare them (src/core/contracts/abis/precompiles.json;
 * a unit test checks that these signatures are the shipped ones: this layer may not import contracts/).
 */
export const STATE_VIEWS_ABI = parseAbi([
  'function delegatorValidators(address delegatorAddress) view returns (string[] validators)',
  'function delegation(address delegatorAddress, string validatorAddress) view returns (uint256 shares, (string denom, uint256 amount) balance)',
  'function unbondingDelegation(address delegatorAddress, string validatorAddress) view returns ((string delegatorAddress, string validatorAddress, (int64 creationHeight, int64 completionTime, uint256 initialBalance, uint256 balance, uint64 unbondingId, int64 unbondingOnHoldRefCount)[] entries) unbondingDelegation)',
  'function delegationTotalRewards(address delegatorAddress) view returns ((string validatorAddress, (string denom, uint256 amount, uint8 precision)[] reward)[] rewards, (string denom, uint256 amount, uint8 precision)[] total)',
]);

/** The most validators whose delegation (and unbonding) one account read asks for, one eth_call each. */
export const STATE_MAX_VALIDATORS = 10;
/** The most unbonding entries read from one validator through the staking precompile. */
export const MAX_VIEW_ENTRIES = 100;

/** A read this interface does not serve on this chain (an inactive precompile, an unknown query path, an app that is not a Cosmos SDK app). */
export class Unserved extends EndpointError {
  constructor(m: l10n.Message) {
    super('http', m);
  }
}

/** An answer that is not what the query or function returns. */
const garbage = (m: l10n.Message): EndpointError => new EndpointError('protocol', m);

/** A CometBFT call in both forms (explorer/source.ts's CometCall has this shape). */
export interface StateCometCall {
  readonly method: string;
  readonly uri: Readonly<Record<string, string>>;
  readonly json: Readonly<Record<string, unknown>>;
}

/** What the two paths need: the EVM RPC and CometBFT, each a call's `result`. */
export interface ViaSource {
  evm(method: string, params: readonly unknown[]): Promise<unknown>;
  comet?(call: StateCometCall): Promise<unknown>;
}

const LEGACY_PRECISION = 18;

/** A Dec's integer (scaled by 10^18, as protobuf and the precompiles carry it) as REST writes it: `5.000000000000000000`. */
export function decText(scaled: bigint | string): string {
  const s = typeof scaled === 'bigint' ? scaled.toString() : scaled;
  if (!/^[0-9]{1,120}$/.test(s)) throw garbage(l10n.both('a decimal amount is not a number'));
  const digits = withoutLeadingZeros(s).padStart(LEGACY_PRECISION + 1, '0');
  return `${digits.slice(0, -LEGACY_PRECISION)}.${digits.slice(-LEGACY_PRECISION)}`;
}

/** A protobuf Timestamp as RFC 3339 the way REST writes it (protojson: 0, 3, 6 or 9 fractional digits). */
export function timestampText(t: Timestamp | undefined): string {
  if (!t) return '';
  const ms = Number(t.seconds) * 1000;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return '';
  const base = new Date(ms).toISOString().replace(/\.\d{3}Z$/, '');
  // protojson (the REST gateway): 0, 3, 6 or 9 fractional digits.
  const n = t.nanos > 0 && t.nanos < 1e9 ? String(t.nanos).padStart(9, '0') : '';
  const nanos = n === '' ? '' : `.${n.endsWith('000000') ? n.slice(0, 3) : n.endsWith('000') ? n.slice(0, 6) : n}`;
  return `${base}${nanos}Z`;
}

/** Unix seconds (the precompiles' int64 times) as RFC 3339. */
function unixText(seconds: bigint): string {
  const ms = Number(seconds) * 1000;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return seconds.toString();
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

// ---------------------------------------------------------------------------------------------
// precompile views (eth_call at block N)

/** The block tag of `height` (undefined: latest). */
const blockTag = (height: string | undefined): string => (height === undefined ? 'latest' : `0x${BigInt(height).toString(16)}`);

type ViewName = 'delegatorValidators' | 'delegation' | 'unbondingDelegation' | 'delegationTotalRewards';

/** One view function at block `height`: its decoded return; throws on an empty, short or garbage answer. */
async function view(src: ViaSource, to: string, name: ViewName, args: readonly unknown[], height: string | undefined): Promise<unknown> {
  const data = encodeFunctionData({ abi: STATE_VIEWS_ABI, functionName: name, args } as never);
  const r = await src.evm('eth_call', [{ to, data }, blockTag(height)]);
  if (typeof r !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(r)) throw garbage(l10n.both('{0}: the answer is not hex bytes', name));
  // A chain where the precompile is not active answers an empty return (no code at the address).
  if (r === '0x') throw new Unserved(l10n.both('{0}: {1} answered nothing (the precompile is not active on this chain)', name, to));
  if ((r.length - 2) % 64 !== 0)
    throw garbage(l10n.both('{0}: the answer is not a whole number of 32-byte words ({1} bytes)', name, String((r.length - 2) / 2)));
  try {
    return decodeFunctionResult({ abi: STATE_VIEWS_ABI, functionName: name, data: r as Hex } as never);
  } catch (err) {
    throw garbage(l10n.both('{0}: the answer is not the ABI return ({1})', name, errorMessage(err).split('\n')[0].slice(0, 160)));
  }
}

export interface ViewDelegation {
  readonly validator: string;
  readonly shares: string;
  readonly balance: { readonly denom: string; readonly amount: string };
}

/** The validators the account delegates to (distribution precompile), at most STATE_MAX_VALIDATORS. */
export async function viewDelegatorValidators(src: ViaSource, hex: string, height: string | undefined): Promise<{ value: string[]; truncated?: boolean }> {
  const out = await view(src, DISTRIBUTION_PRECOMPILE, 'delegatorValidators', [hex], height);
  if (!Array.isArray(out) || !out.every((v) => typeof v === 'string' && /^[a-z0-9]{1,83}1[02-9ac-hj-np-z]{6,90}$/.test(v)))
    throw garbage(l10n.both('{0}: the answer is not a list of validator addresses', 'delegatorValidators'));
  const unique = [...new Set(out as string[])];
  return unique.length > STATE_MAX_VALIDATORS ? { value: unique.slice(0, STATE_MAX_VALIDATORS), truncated: true } : { value: unique };
}

/** The account's delegation to `validator` (staking precompile); undefined when it has none (shares 0). */
export async function viewDelegation(src: ViaSource, hex: string, validator: string, height: string | undefined): Promise<ViewDelegation | undefined> {
  const out = (await view(src, STAKING_PRECOMPILE, 'delegation', [hex, validator], height)) as unknown;
  const [shares, balance] = Array.isArray(out) ? (out as [unknown, { denom?: unknown; amount?: unknown }]) : [];
  if (typeof shares !== 'bigint' || !balance || typeof balance.denom !== 'string' || typeof balance.amount !== 'bigint')
    throw garbage(l10n.both('{0}: the answer is not the ABI return ({1})', 'delegation', 'shares, balance'));
  if (shares === 0n) return undefined;
  return { validator, shares: decText(shares), balance: { denom: balance.denom, amount: balance.amount.toString() } };
}

export interface ViewUnbonding {
  readonly validator: string;
  readonly creationHeight: string;
  readonly completionTime: string;
  readonly initialBalance: string;
  readonly balance: string;
}

/** The account's unbonding entries from `validator` (staking precompile). */
export async function viewUnbondings(src: ViaSource, hex: string, validator: string, height: string | undefined): Promise<ViewUnbonding[]> {
  const out = (await view(src, STAKING_PRECOMPILE, 'unbondingDelegation', [hex, validator], height)) as { entries?: unknown } | undefined;
  if (!out || typeof out !== 'object' || !Array.isArray(out.entries))
    throw garbage(l10n.both('{0}: the answer is not the ABI return ({1})', 'unbondingDelegation', 'entries'));
  // At most MAX_VIEW_ENTRIES (staking allows 7 per validator): a hostile node's answer of thousands is cut.
  return (out.entries as Array<Record<string, unknown>>).slice(0, MAX_VIEW_ENTRIES).map((e) => {
    if (typeof e.creationHeight !== 'bigint' || typeof e.completionTime !== 'bigint' || typeof e.initialBalance !== 'bigint' || typeof e.balance !== 'bigint')
      throw garbage(l10n.both('{0}: the answer is not the ABI return ({1})', 'unbondingDelegation', 'entry'));
    return {
      validator,
      creationHeight: e.creationHeight.toString(),
      completionTime: unixText(e.completionTime),
      initialBalance: e.initialBalance.toString(),
      balance: e.balance.toString(),
    };
  });
}

/** The pending rewards per validator (distribution precompile): whole base units (the precompile cuts the fraction). */
export async function viewRewards(
  src: ViaSource,
  hex: string,
  height: string | undefined,
): Promise<Array<{ validator: string; reward: Array<{ denom: string; amount: string }> }>> {
  const out = await view(src, DISTRIBUTION_PRECOMPILE, 'delegationTotalRewards', [hex], height);
  const rewards = Array.isArray(out) ? (out[0] as unknown) : undefined;
  if (!Array.isArray(rewards)) throw garbage(l10n.both('{0}: the answer is not the ABI return ({1})', 'delegationTotalRewards', 'rewards'));
  return rewards.map((r: { validatorAddress?: unknown; reward?: unknown }) => {
    if (typeof r?.validatorAddress !== 'string' || !Array.isArray(r.reward))
      throw garbage(l10n.both('{0}: the answer is not the ABI return ({1})', 'delegationTotalRewards', 'reward'));
    return {
      validator: r.validatorAddress,
      reward: (r.reward as Array<{ denom?: unknown; amount?: unknown }>).map((c) => {
        if (typeof c?.denom !== 'string' || typeof c.amount !== 'bigint')
          throw garbage(l10n.both('{0}: the answer is not the ABI return ({1})', 'delegationTotalRewards', 'coin'));
        return { denom: c.denom, amount: c.amount.toString() };
      }),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// abci_query at height N

/** The most bytes of one abci_query answer decoded (base64 of at most this many bytes). */
const MAX_ABCI_VALUE_BYTES = 4 * 1024 * 1024;

/**
 * One gRPC query through `abci_query` at `height` (undefined: latest): the answer's value bytes.
 * A failed query (`code` ≠ 0) throws its log (a pruned height: code 38 "version does not exist"); an
 * answer for another height, or one that is not a Cosmos SDK answer (a kvstore app ignores the path
 * and logs "exists"/"does not exist"), throws too.
 */
export async function abciQuery(src: ViaSource, path: string, request: Uint8Array, height: string | undefined): Promise<Uint8Array> {
  if (!src.comet) throw new Unserved(l10n.both('the provider has no CometBFT RPC address'));
  const hex = Buffer.from(request).toString('hex');
  const r = (await src.comet({
    method: 'abci_query',
    uri: { path: JSON.stringify(path), data: `0x${hex}`, ...(height !== undefined ? { height } : {}), prove: 'false' },
    json: { path, data: hex, ...(height !== undefined ? { height } : {}), prove: false },
  })) as { response?: Record<string, unknown> } | undefined;
  const resp = r && typeof r === 'object' ? r.response : undefined;
  if (!resp || typeof resp !== 'object') throw garbage(l10n.both('abci_query: the answer has no "response"'));
  const code = resp.code ?? 0;
  const log = typeof resp.log === 'string' ? resp.log.slice(0, 400) : '';
  if (code !== 0) {
    // code 6: an unknown query path (a module the app lacks).
    if (code === 6 || /unknown query path/i.test(log)) throw new Unserved(l10n.both('abci_query {0}: unknown query path ({1})', path, log));
    throw new EndpointError('http', l10n.both('abci_query {0}: code {1}: {2}', path, String(code), log));
  }
  if (log !== '' || (typeof resp.codespace === 'string' && resp.codespace !== ''))
    throw new Unserved(l10n.both('abci_query {0}: the app does not answer Cosmos SDK queries (log "{1}")', path, log.slice(0, 80)));
  if (height !== undefined && String(resp.height ?? '') !== height)
    throw garbage(l10n.both('abci_query {0}: answered for height {1}, not {2}', path, String(resp.height ?? '?').slice(0, 20), height));
  const value = resp.value;
  if (value === null || value === undefined || value === '') return new Uint8Array();
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0)
    throw garbage(l10n.both('abci_query {0}: the value is not base64', path));
  if ((value.length / 4) * 3 > MAX_ABCI_VALUE_BYTES) throw garbage(l10n.both('abci_query {0}: the answer is too large', path));
  return Uint8Array.from(Buffer.from(value, 'base64'));
}

/** Decodes `bytes` with `decode`, any failure as a protocol error naming `what`. */
function decoded<T>(what: string, bytes: Uint8Array, decode: (b: Uint8Array) => T): T {
  try {
    return decode(bytes);
  } catch (err) {
    throw garbage(l10n.both('abci_query {0}: the answer is not its protobuf ({1})', what, errorMessage(err).slice(0, 120)));
  }
}

/** The most bytes of a page key (the SDK's keys are a store key: tens of bytes). */
export const MAX_PAGE_KEY_BYTES = 1024;
/** Why a paged read stopped early (state.ts says it in the read's note). */
export const PAGE_KEY_REPEATED = "the provider's pagination does not advance: a page or its next key came again";
export const PAGE_KEY_TOO_LONG = "the provider's next page key is not one";

/** Whether a page (its text or bytes) is new among `seen` (their digests), remembering it. */
export function pageOnce(seen: Set<string>, page: string | Uint8Array): boolean {
  const digest = createHash('sha256').update(page).digest('hex');
  if (seen.has(digest)) return false;
  seen.add(digest);
  return true;
}

/**
 * Paged gRPC query: each page's items, up to `maxPages` pages of `limit`. A page is cut at the `limit`
 * asked (a node answering 200,000 entries gives the first `limit`); a next key already followed (the
 * same key forever, a cycle), a page's answer already read (a node ignoring the key) or a key longer
 * than MAX_PAGE_KEY_BYTES ends the read, partial, never taking a page twice (its entries would show twice).
 */
async function abciPaged<T>(
  src: ViaSource,
  path: string,
  height: string | undefined,
  request: (pagination: PageRequest) => Uint8Array,
  decode: (b: Uint8Array) => { items: T[]; nextKey?: Uint8Array },
  limit: number,
  maxPages: number,
): Promise<{ value: T[]; truncated?: boolean; stop?: string }> {
  const out: T[] = [];
  const followed = new Set<string>();
  const pages = new Set<string>();
  let key: Uint8Array = new Uint8Array();
  for (let page = 0; page < maxPages; page++) {
    const pagination = PageRequest.fromPartial({ key, limit: BigInt(limit) });
    const bytes = await abciQuery(src, path, request(pagination), height);
    const r = decoded(path, bytes, decode);
    // The same answer again (a node that ignores the key): read once.
    if (r.items.length > 0 && !pageOnce(pages, bytes)) return { value: out, truncated: true, stop: PAGE_KEY_REPEATED };
    // One by one (a spread passes every item as an argument: a hostile page of 200,000 throws), the page asked at most.
    for (const item of r.items.slice(0, limit)) out.push(item);
    if (r.items.length > limit) return { value: out, truncated: true };
    if (!r.nextKey || r.nextKey.length === 0) return { value: out };
    const next = Buffer.from(r.nextKey).toString('hex');
    if (followed.has(next)) return { value: out, truncated: true, stop: PAGE_KEY_REPEATED };
    if (r.nextKey.length > MAX_PAGE_KEY_BYTES) return { value: out, truncated: true, stop: PAGE_KEY_TOO_LONG };
    followed.add(next);
    key = r.nextKey;
  }
  return { value: out, truncated: true };
}

const isAmount = (s: unknown): s is string => typeof s === 'string' && /^[0-9]{1,80}$/.test(s);

export interface AbciPaging {
  readonly limit: number;
  readonly maxPages: number;
}

export function abciBalances(src: ViaSource, account: string, height: string | undefined, p: AbciPaging) {
  return abciPaged(
    src,
    '/cosmos.bank.v1beta1.Query/AllBalances',
    height,
    (pagination) => QueryAllBalancesRequest.encode(QueryAllBalancesRequest.fromPartial({ address: account, pagination })).finish(),
    (b) => {
      const r = QueryAllBalancesResponse.decode(b);
      return {
        // Every coin as sent: state.ts keeps the readable ones and says which it left out (an amount that is no number is not "none").
        items: r.balances.map((c) => ({ denom: c.denom, amount: c.amount })),
        nextKey: r.pagination?.nextKey,
      };
    },
    p.limit,
    p.maxPages,
  );
}

export function abciDelegations(src: ViaSource, account: string, height: string | undefined, p: AbciPaging) {
  return abciPaged(
    src,
    '/cosmos.staking.v1beta1.Query/DelegatorDelegations',
    height,
    (pagination) => QueryDelegatorDelegationsRequest.encode(QueryDelegatorDelegationsRequest.fromPartial({ delegatorAddr: account, pagination })).finish(),
    (b) => {
      const r = QueryDelegatorDelegationsResponse.decode(b);
      return {
        items: r.delegationResponses.flatMap((d) =>
          d.delegation && d.delegation.validatorAddress !== ''
            ? [
                {
                  validator: d.delegation.validatorAddress,
                  shares: decText(d.delegation.shares || '0'),
                  ...(d.balance && isAmount(d.balance.amount) ? { balance: { denom: d.balance.denom, amount: d.balance.amount } } : {}),
                },
              ]
            : [],
        ),
        nextKey: r.pagination?.nextKey,
      };
    },
    p.limit,
    p.maxPages,
  );
}

export function abciUnbondings(src: ViaSource, account: string, height: string | undefined, p: AbciPaging) {
  return abciPaged(
    src,
    '/cosmos.staking.v1beta1.Query/DelegatorUnbondingDelegations',
    height,
    (pagination) =>
      QueryDelegatorUnbondingDelegationsRequest.encode(QueryDelegatorUnbondingDelegationsRequest.fromPartial({ delegatorAddr: account, pagination })).finish(),
    (b) => {
      const r = QueryDelegatorUnbondingDelegationsResponse.decode(b);
      return {
        items: r.unbondingResponses.flatMap((u) =>
          u.entries.map((e) => ({
            validator: u.validatorAddress,
            creationHeight: e.creationHeight.toString(),
            completionTime: timestampText(e.completionTime),
            initialBalance: e.initialBalance,
            balance: e.balance,
          })),
        ),
        nextKey: r.pagination?.nextKey,
      };
    },
    p.limit,
    p.maxPages,
  );
}

export function abciRedelegations(src: ViaSource, account: string, height: string | undefined, p: AbciPaging) {
  return abciPaged(
    src,
    '/cosmos.staking.v1beta1.Query/Redelegations',
    height,
    (pagination) => QueryRedelegationsRequest.encode(QueryRedelegationsRequest.fromPartial({ delegatorAddr: account, pagination })).finish(),
    (b) => {
      const r = QueryRedelegationsResponse.decode(b);
      return {
        items: r.redelegationResponses.flatMap((x) =>
          x.redelegation
            ? x.entries.map((e) => ({
                source: x.redelegation!.validatorSrcAddress,
                destination: x.redelegation!.validatorDstAddress,
                creationHeight: e.redelegationEntry?.creationHeight.toString() ?? '',
                completionTime: timestampText(e.redelegationEntry?.completionTime),
                initialBalance: e.redelegationEntry?.initialBalance ?? '',
                balance: e.balance,
              }))
            : [],
        ),
        nextKey: r.pagination?.nextKey,
      };
    },
    p.limit,
    p.maxPages,
  );
}

export async function abciRewards(src: ViaSource, account: string, height: string | undefined) {
  const path = '/cosmos.distribution.v1beta1.Query/DelegationTotalRewards';
  const req = QueryDelegationTotalRewardsRequest.encode(QueryDelegationTotalRewardsRequest.fromPartial({ delegatorAddress: account })).finish();
  const r = decoded(path, await abciQuery(src, path, req, height), (b) => QueryDelegationTotalRewardsResponse.decode(b));
  return r.rewards.map((x) => ({
    validator: x.validatorAddress,
    reward: x.reward.filter((c) => c.denom !== '').map((c) => ({ denom: c.denom, amount: decText(c.amount || '0') })),
  }));
}

/** Field 1 of a message, as bytes (length-delimited) or undefined. */
function firstBytes(bytes: Uint8Array): Uint8Array | undefined {
  const reader = new BinaryReader(bytes);
  let found: Uint8Array | undefined;
  while (reader.pos < reader.len) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === 2 && found === undefined) found = reader.bytes();
    else reader.skipType(wire);
  }
  return found;
}

/** `/cosmos.evm.vm.v1.Query/Params` (not in cosmjs-types): QueryParamsResponse.params (1) .evm_denom (1). */
export async function abciEvmDenom(src: ViaSource, height: string | undefined): Promise<string> {
  const path = '/cosmos.evm.vm.v1.Query/Params';
  const value = await abciQuery(src, path, new Uint8Array(), height);
  const denom = decoded(path, value, (b) => {
    const params = firstBytes(b);
    const d = params && firstBytes(params);
    return d ? Buffer.from(d).toString('utf8') : undefined;
  });
  if (!denom || !/^[a-zA-Z][a-zA-Z0-9/:._-]{1,127}$/.test(denom)) throw garbage(l10n.both('the EVM params name no evm_denom'));
  return denom;
}

/** `/cosmos.evm.precisebank.v1.Query/FractionalBalance` (not in cosmjs-types): request address (1); response fractional_balance (1) = Coin (denom 1, amount 2). */
export async function abciFractional(src: ViaSource, account: string, height: string | undefined): Promise<string> {
  const path = '/cosmos.evm.precisebank.v1.Query/FractionalBalance';
  const req = new BinaryWriter().uint32(10).string(account).finish();
  const value = await abciQuery(src, path, req, height);
  const amount = decoded(path, value, (b) => {
    const coin = firstBytes(b);
    if (!coin) return undefined;
    const reader = new BinaryReader(coin);
    let a: string | undefined;
    while (reader.pos < reader.len) {
      const [field, wire] = reader.tag();
      if (field === 2 && wire === 2) a = reader.string();
      else reader.skipType(wire);
    }
    return a;
  });
  if (!isAmount(amount)) throw garbage(l10n.both('the answer has no fractional_balance amount'));
  return amount;
}
