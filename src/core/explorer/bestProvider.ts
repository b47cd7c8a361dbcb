// The best provider for a lookup (Look Up…'s "Best provider for this lookup"): its main request
// (the block at a height, the transaction, the balances) judged as an operation's would be: known
// capabilities first (a height below a node's earliest block rules it out), then the ranking.

import { findOperation } from '../chain/operations';
import type { Provider } from '../config/providers';
import type { Capabilities } from '../health/capabilities';
import type { InterfaceHealth } from '../health/model';
import { rankFor } from '../health/route';
import type { RouteTarget } from '../health/routeCommand';
import * as l10n from '../base/l10n';
import { identify } from './identify';

/**
 * The best provider of `among` for a lookup: the lookup's main request (the block at a height, the
 * transaction, the balances) judged as an operation would be (capabilities such as the earliest
 * block, then rank); the first of `among` when none is known able.
 */
export function bestForLookup(
  health: { capabilities(provider: string): Capabilities | undefined; rows(): readonly InterfaceHealth[] },
  query: string,
  among: readonly Provider[],
): Provider | undefined {
  let q: ReturnType<typeof identify>;
  try {
    q = identify(query);
  } catch {
    return undefined;
  }
  const id =
    q.kind === 'height'
      ? 'consensusHttp.block'
      : q.kind === 'evmHash'
        ? 'evm.getTransactionByHash'
        : q.kind === 'cosmosHash'
          ? 'consensusHttp.tx'
          : 'rest.balances';
  const op = findOperation(id);
  if (!op) return undefined;
  const args = q.kind === 'height' ? { height: q.height } : undefined;
  return rankFor(op, args, among, { providers: among, capabilities: (n) => health.capabilities(n), rows: () => health.rows() })[0];
}

/** Look Up as a route of the router: a provider with any interface it reads (REST, CometBFT, EVM RPC); "best" judged per query later. */
export function lookUpTarget(): RouteTarget {
  return {
    needs: l10n.t('REST, Consensus or EVM RPC'),
    serves: (p) => Boolean(p.endpoints.rest || p.endpoints.consensusHttp || p.endpoints.consensusRpc || p.endpoints.evmRpc),
    none: () => l10n.both('No provider of that network has an interface Look Up can use.'),
  };
}
