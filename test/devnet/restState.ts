// State at a height on the devnet's REST gateway, as evmd answers it (for the state reads of
// src/core/chain/state.ts): the `x-cosmos-block-height` header (a height past the view is refused,
// one below the provider's prune floor answers as evmd v0.3.2 does, measured: HTTP 500 with gRPC
// code 2 "codespace sdk code 38: not found: … version does not exist"), staking delegations, distribution rewards per validator, unbonding delegations and
// precise-bank's fractional balance. Delegations and rewards are the ledger's staking model at the
// height (staking.ts): the first dev key (alice) delegates 10 TEST to the first validator from
// genesis and earns 0.001 TEST of rewards per block, and the second block's precompile delegation
// (ledger.ts, the receipt sample) adds 1 TEST and withdraws them; the second key (bob) has one
// unbonding entry of 0.5 TEST from the second validator, completing 21 days after genesis, and one
// redelegation entry of 0.25 TEST from the second validator to the first, completing at the same time. Bank
// balances are the ledger's at the height (rest.ts).
import type { Chain } from './chain';
import { bech32Decode, bech32Encode, protoTime } from './encoding';
import { DENOM } from './devTx';

/** A gRPC status the gateway maps to HTTP (rest.ts sends it). */
export interface StateRouteError {
  grpc: number;
  message: string;
}

export { DEVNET_DELEGATION, DEVNET_REWARD_PER_BLOCK } from './staking';
export const DEVNET_UNBONDING = 500_000_000_000_000_000n;
/** bob's redelegation from the second validator to the first (same creation and completion as his unbonding). */
export const DEVNET_REDELEGATION = 250_000_000_000_000_000n;
const DEC = '.000000000000000000';
const UNBONDING_NS = 21n * 24n * 3600n * 1_000_000_000n;

/** Routes whose answer is state (read at the header's height); blocks and txs are CometBFT's, not state. */
const STATE_PATH = /^\/cosmos\/(bank|auth|staking|distribution|evm\/(vm|precisebank|erc20|feemarket))\//;

/**
 * The height a state query is read at: the header's, checked as the SDK does (a number, not past the
 * latest, kept on this provider), or the view. Undefined: not a state route or no header.
 */
export function stateHeightOf(
  path: string,
  header: string | string[] | undefined,
  view: bigint,
  prunedBelow: bigint | undefined,
): bigint | StateRouteError | undefined {
  if (!STATE_PATH.test(path) || header === undefined) return undefined;
  const text = Array.isArray(header) ? header[0] : header;
  if (!/^[0-9]{1,19}$/.test(text)) return { grpc: 3, message: `invalid height: ${text}` };
  const h = BigInt(text);
  if (h === 0n) return view; // 0: the latest, as the SDK reads it
  if (h > view) return { grpc: 3, message: 'cannot query with height in the future; please provide a valid height' };
  if (prunedBelow !== undefined && h < prunedBelow) {
    return {
      grpc: 2,
      message: `codespace sdk code 38: not found: failed to load state at height ${h}; version mismatch on immutable IAVL tree; version does not exist. Version has either been pruned, or is for a future block height (latest height: ${view})`,
    };
  }
  return h;
}

function account(address: string): Buffer | StateRouteError {
  try {
    const d = bech32Decode(address);
    if (d.hrp !== 'cosmos') return { grpc: 3, message: `invalid address: invalid Bech32 prefix; expected cosmos, got ${d.hrp}` };
    return d.bytes;
  } catch (e) {
    return { grpc: 3, message: `invalid address: ${e instanceof Error ? e.message : String(e)}` };
  }
}

const pagination = (n: number) => ({ next_key: null, total: String(n) });

/** The answer of a state route at `height`, a gRPC error, or undefined (not one of these routes). */
export function stateRoute(chain: Chain, path: string, height: bigint): unknown {
  let m: RegExpExecArray | null;
  const [, bob] = chain.ledger.keys;
  const valoper = (i: number) => bech32Encode('cosmosvaloper', chain.validators[i].address);
  if ((m = /^\/cosmos\/staking\/v1beta1\/delegations\/([^/]+)$/.exec(path))) {
    const a = account(m[1]);
    if (!Buffer.isBuffer(a)) return a;
    const list = chain.ledger.staking.at(m[1], height).map((d) => ({
      delegation: { delegator_address: m![1], validator_address: d.validator, shares: `${d.amount}${DEC}` },
      balance: { denom: DENOM, amount: d.amount.toString() },
    }));
    return { delegation_responses: list, pagination: pagination(list.length) };
  }
  if ((m = /^\/cosmos\/distribution\/v1beta1\/delegators\/([^/]+)\/rewards$/.exec(path))) {
    const a = account(m[1]);
    if (!Buffer.isBuffer(a)) return a;
    const rewards = chain.ledger.staking
      .at(m[1], height)
      .map((d) => ({ validator_address: d.validator, reward: [{ denom: DENOM, amount: `${d.rewards}${DEC}` }] }));
    if (rewards.length === 0) return { rewards: [], total: [] };
    const total = rewards.reduce((sum, r) => sum + BigInt(r.reward[0].amount.split('.')[0]), 0n);
    return { rewards, total: [{ denom: DENOM, amount: `${total}${DEC}` }] };
  }
  if ((m = /^\/cosmos\/staking\/v1beta1\/delegators\/([^/]+)\/unbonding_delegations$/.exec(path))) {
    const a = account(m[1]);
    if (!Buffer.isBuffer(a)) return a;
    if (!a.equals(bob.address)) return { unbonding_responses: [], pagination: pagination(0) };
    const genesis = chain.block(chain.earliest)?.timeNs ?? 0n;
    const entry = {
      creation_height: chain.earliest.toString(),
      completion_time: protoTime(genesis + UNBONDING_NS),
      initial_balance: DEVNET_UNBONDING.toString(),
      balance: DEVNET_UNBONDING.toString(),
      unbonding_id: '1',
      unbonding_on_hold_ref_count: '0',
    };
    return { unbonding_responses: [{ delegator_address: m[1], validator_address: valoper(1), entries: [entry] }], pagination: pagination(1) };
  }
  if ((m = /^\/cosmos\/staking\/v1beta1\/delegators\/([^/]+)\/redelegations$/.exec(path))) {
    const a = account(m[1]);
    if (!Buffer.isBuffer(a)) return a;
    if (!a.equals(bob.address)) return { redelegation_responses: [], pagination: pagination(0) };
    const genesis = chain.block(chain.earliest)?.timeNs ?? 0n;
    const entry = {
      creation_height: chain.earliest.toString(),
      completion_time: protoTime(genesis + UNBONDING_NS),
      initial_balance: DEVNET_REDELEGATION.toString(),
      shares_dst: `${DEVNET_REDELEGATION}${DEC}`,
      unbonding_id: '2',
      unbonding_on_hold_ref_count: '0',
    };
    return {
      redelegation_responses: [
        {
          redelegation: { delegator_address: m[1], validator_src_address: valoper(1), validator_dst_address: valoper(0), entries: [entry] },
          entries: [{ redelegation_entry: entry, balance: DEVNET_REDELEGATION.toString() }],
        },
      ],
      pagination: pagination(1),
    };
  }
  if ((m = /^\/cosmos\/evm\/precisebank\/v1\/fractional_balance\/([^/]+)$/.exec(path))) {
    const a = account(m[1]);
    if (!Buffer.isBuffer(a)) return a;
    // atest has 18 decimals: nothing is fractional (as on evmd).
    return { fractional_balance: { denom: DENOM, amount: '0' } };
  }
  return undefined;
}

export function isStateRouteError(x: unknown): x is StateRouteError {
  return typeof x === 'object' && x !== null && typeof (x as StateRouteError).grpc === 'number' && typeof (x as StateRouteError).message === 'string';
}
