// A few module routes of the gateway, as evmd answers them, for the module-route tests (the route
// pick, the tree's groups, paging, required values): staking validators (status filter, key and
// offset pagination, count_total) and one validator, bank supply (paged) and supply by denom (400
// without its denom, as the node answers). A module the chain lacks (nft, group, circuit, params)
// answers 501 Not Implemented like any unknown route (rest.ts).
import type { Chain } from './chain';
import { bech32Encode } from './encoding';
import { DENOM } from './devTx';

/** A gRPC status the gateway maps to HTTP (rest.ts sends it). */
export interface ModuleRouteError {
  grpc: number;
  message: string;
}

const STAKING = '/cosmos/staking/v1beta1';
const BANK = '/cosmos/bank/v1beta1';

function validatorJson(chain: Chain, i: number): Record<string, unknown> {
  const v = chain.validators[i];
  const tokens = (v.power * 1_000_000_000_000_000_000n).toString();
  return {
    operator_address: bech32Encode('cosmosvaloper', v.address),
    consensus_pubkey: { '@type': '/cosmos.crypto.ed25519.PubKey', key: v.pubKey.toString('base64') },
    jailed: false,
    status: i < 3 ? 'BOND_STATUS_BONDED' : 'BOND_STATUS_UNBONDING',
    tokens,
    delegator_shares: `${tokens}.000000000000000000`,
    description: { moniker: v.name, identity: '', website: '', security_contact: '', details: '' },
    unbonding_height: '0',
    unbonding_time: '1970-01-01T00:00:00Z',
    commission: {
      commission_rates: { rate: '0.100000000000000000', max_rate: '0.200000000000000000', max_change_rate: '0.010000000000000000' },
      update_time: '2026-01-01T00:00:00Z',
    },
    min_self_delegation: '1',
    unbonding_on_hold_ref_count: '0',
    unbonding_ids: [],
  };
}

/** A page of `items` as the SDK's paginator answers: by key (base64 of the next index here) or offset; limit default 100. */
function page<T>(items: readonly T[], q: URLSearchParams): { items: T[]; pagination: { next_key: string | null; total: string } } | ModuleRouteError {
  const limitText = q.get('pagination.limit');
  const limit = limitText ? Number(limitText) : 100;
  if (!Number.isSafeInteger(limit) || limit < 0) return { grpc: 3, message: `invalid limit ${limitText}` };
  const key = q.get('pagination.key');
  const offsetText = q.get('pagination.offset');
  if (key && offsetText) return { grpc: 3, message: 'invalid request, either offset or key is expected, got both' };
  let start = 0;
  if (key) {
    start = Number(Buffer.from(key, 'base64').toString('utf8').replace(/^idx:/, ''));
    if (!Number.isSafeInteger(start) || start < 0) return { grpc: 3, message: 'invalid pagination key' };
  } else if (offsetText) start = Number(offsetText);
  const reverse = q.get('pagination.reverse') === 'true';
  const ordered = reverse ? [...items].reverse() : [...items];
  const end = start + (limit === 0 ? 100 : limit);
  const more = end < ordered.length;
  const counted = q.get('pagination.count_total') === 'true' && !key;
  return {
    items: ordered.slice(start, end),
    pagination: { next_key: more ? Buffer.from(`idx:${end}`).toString('base64') : null, total: counted ? String(items.length) : '0' },
  };
}

/** The answer of a module route the devnet knows, a gRPC error, or undefined (not one of these routes). */
export function moduleRoute(chain: Chain, path: string, q: URLSearchParams): unknown {
  let m: RegExpExecArray | null;
  if (path === `${STAKING}/validators`) {
    const status = q.get('status');
    const all = chain.validators.map((_, i) => validatorJson(chain, i)).filter((v) => !status || v.status === status);
    const p = page(all, q);
    return 'grpc' in p ? p : { validators: p.items, pagination: p.pagination };
  }
  if ((m = /^\/cosmos\/staking\/v1beta1\/validators\/([^/]+)$/.exec(path))) {
    const i = chain.validators.findIndex((v) => bech32Encode('cosmosvaloper', v.address) === decodeURIComponent(m![1]));
    if (i < 0) return { grpc: 5, message: `validator ${decodeURIComponent(m[1])} not found` };
    return { validator: validatorJson(chain, i) };
  }
  if (path === `${STAKING}/pool`) {
    const bonded = chain.validators.slice(0, 3).reduce((s, v) => s + v.power, 0n) * 10n ** 18n;
    return { pool: { not_bonded_tokens: (chain.validators[3].power * 10n ** 18n).toString(), bonded_tokens: bonded.toString() } };
  }
  if (path === `${BANK}/supply`) {
    const p = page([{ denom: DENOM, amount: '100000000000000000000000000' }], q);
    return 'grpc' in p ? p : { supply: p.items, pagination: p.pagination };
  }
  if (path === `${BANK}/supply/by_denom`) {
    const denom = q.get('denom');
    if (!denom) return { grpc: 3, message: 'invalid denom' };
    return { amount: { denom, amount: denom === DENOM ? '100000000000000000000000000' : '0' } };
  }
  return undefined;
}

export function isModuleRouteError(x: unknown): x is ModuleRouteError {
  return typeof x === 'object' && x !== null && typeof (x as ModuleRouteError).grpc === 'number' && Object.keys(x).length === 2;
}
