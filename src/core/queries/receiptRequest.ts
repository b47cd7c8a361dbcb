// The query files' `explorer.receipt` (issue #35): a transaction's two-layer receipt, with assertions on
// what it did to the accounts, so that a team can pin in CI what a transaction must do to Cosmos state:
//
//   request delegation = explorer.receipt
//   hash: 0x…
//   assert changes[0xc6fe5d33615a1c52c08018c47e8bc53646a0e101].atest == -1000115171875150000
//   assert explained == true
//
// The receipt itself is built by the explorer (core/explorer/receipt/queryRunner.ts), a layer above this
// one: whoever runs query files passes it in (the editor's runner and the command line both do); without
// it the request fails with one sentence. Roots: `changes[<0x or bech32>].<denom>` (the change measured
// from N−1 to N, signed, base units), `explained`, `unexplained`, `causes`, `coverage`, `evmHash`,
// `cosmosHash`, and `result` (the whole receipt, docs/receipt.md).

import { EndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import type { ExecuteOptions, Outcome } from '../chain/execute';
import type { Args, Operation, ParamSpec } from '../chain/operation';
import { recordedRun } from '../chain/outcome';
import * as v from '../chain/validate';
import type { Provider } from '../config/providers';

export const RECEIPT_OPERATION_ID = 'explorer.receipt';
/** The roots assertions of `explorer.receipt` may start from, besides `result`. */
export const RECEIPT_ROOTS = ['changes', 'explained', 'unexplained', 'causes', 'coverage', 'evmHash', 'cosmosHash'] as const;

/** Builds the receipt of `hash` on `wire` (its secrets substituted): the record's fields and a summary. */
export type ReceiptRunner = (
  wire: Provider,
  hash: string,
  options: ExecuteOptions,
) => Promise<{ readonly summary: string; readonly result: unknown; readonly fields: Record<string, unknown> }>;

const receiptHash: ParamSpec = {
  key: 'hash',
  get title() {
    return l10n.t('Transaction hash');
  },
  get prompt() {
    return l10n.t('The transaction: its EVM hash (0x and 64 hex digits) or its CometBFT hash (64 hex digits)');
  },
  placeholder: '0x…',
  validate: (value) => (v.validateEvmTxHash(value) === undefined ? undefined : v.validateCometTxHash(value)),
};

/** A query-file operation only (not a command): the receipt reads several interfaces; REST is the one it needs for state. */
export const RECEIPT_OPERATION: Operation = {
  id: RECEIPT_OPERATION_ID,
  iface: 'rest',
  label: 'receipt (both layers)',
  get title() {
    return l10n.t('Explorer: the receipt of a transaction on both layers (balance changes explained)');
  },
  params: [receiptHash],
  // What a request would be described as (the secrets check reads it); the receipt's reads go through the explorer.
  build: (a) => ({ kind: 'get', path: `/cosmos/tx/v1beta1/txs/${a.hash.trim().replace(/^0x/i, '').toUpperCase()}` }),
};

/** Runs `explorer.receipt` on `provider` through `runner`. Never throws: a failure is the outcome's error. */
export async function runReceiptRequest(
  op: Operation,
  provider: Provider,
  wire: Provider,
  args: Args,
  options: ExecuteOptions,
  runner: ReceiptRunner | undefined,
): Promise<{ outcome: Outcome; fields?: Record<string, unknown> }> {
  const request = { method: 'GET' as const, url: `${wire.endpoints.rest ?? ''} receipt ${args.hash ?? ''}` };
  return recordedRun(op, provider.name, args, request, async (outcome) => {
    if (!runner) throw new EndpointError('input', l10n.both('explorer.receipt runs in the editor and in the command-line runner only.'));
    const r = await runner(wire, (args.hash ?? '').trim(), options);
    outcome.result = r.result;
    outcome.status = 200;
    outcome.summary = r.summary;
    return r.fields;
  });
}
