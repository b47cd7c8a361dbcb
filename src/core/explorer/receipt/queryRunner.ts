// The receipt for query files (`explorer.receipt`, core/queries/receiptRequest.ts) and the command line:
// the lookup of a hash through the provider's own source, its receipt, and the fields assertions read.

import { LocalizedError } from '../../base/errors';
import * as l10n from '../../base/l10n';
import type { ExecuteOptions } from '../../chain/execute';
import type { Provider } from '../../config/providers';
import type { ReceiptRunner } from '../../queries/receiptRequest';
import { lookUp } from '../lookup';
import { executeSource } from '../source';
import { changesByAccount } from './receipt';
import type { ReceiptView } from './types';

/** What assertions reach: `changes[<0x or bech32>].<denom>`, `explained`, `unexplained`, `causes`, `coverage`, the hashes. */
export function receiptFields(r: ReceiptView): Record<string, unknown> {
  const own = r.changes.filter((c) => !(c.status === 'unmeasured' && /module account/.test(c.why ?? '')));
  return {
    changes: changesByAccount(r),
    explained: own.length > 0 ? own.every((c) => c.status === 'explained') : r.summary.startsWith('No balance'),
    unexplained: own
      .filter((c) => c.status !== 'explained')
      .map((c) => ({ account: c.account, bech32: c.bech32, denom: c.denom, amount: c.unexplained, status: c.status, why: c.why })),
    causes: r.causes.map((c) => ({ kind: c.kind, sentence: c.sentence, ...(c.origin?.precompileName ? { precompile: c.origin.precompileName } : {}) })),
    coverage: r.coverage,
    evmHash: r.evmHash,
    cosmosHash: r.cosmosHash,
  };
}

export const receiptRunner: ReceiptRunner = async (wire: Provider, hash: string, options: ExecuteOptions) => {
  const found = await lookUp(executeSource(wire, options), hash, { receipt: true });
  if (found.kind !== 'tx' || !found.receipt)
    throw new LocalizedError(l10n.both('No transaction {0} on this provider ({1}).', hash, found.notes.slice(0, 2).join('; ') || found.found));
  return { summary: found.receipt.summary, result: found.receipt, fields: receiptFields(found.receipt) };
};
