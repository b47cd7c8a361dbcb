// The query files' `explorer.account`: an account page (the explorer's account reader, passed in by
// whoever runs the file: the editor and the CLI; core/explorer/account/accountFields.ts) on one
// provider, with its parts at the top of the record so assertions reach them:
// `assert balances.atest >= 1000`, `assert delegations[0].validator == cosmosvaloper1…`,
// `assert tokens[0].balance > 0`, `assert history.entries[0].height > 5`. Nothing is sent for an
// address or height the explorer refuses; the request fails with its sentence.

import { EndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import type { ExecuteOptions, Outcome } from '../chain/execute';
import type { Args, Operation, ParamSpec } from '../chain/operation';
import { recordedRun } from '../chain/outcome';
import type { Provider } from '../config/providers';
import { isEvmAddress } from '../base/text';

export const ACCOUNT_OPERATION_ID = 'explorer.account';

/** The roots an `explorer.account` request's assertions start from, besides `result` (accountFields.ts). */
export const ACCOUNT_ROOTS = [
  'address',
  'balances',
  'evmBalance',
  'reconciliation',
  'delegations',
  'rewards',
  'unbondings',
  'redelegations',
  'tokens',
  'history',
  'coverage',
  'comparison',
  'notes',
] as const;

/** Reads an account page for a query file: its record fields (ACCOUNT_ROOTS) and a one-line summary. */
export type AccountReader = (
  wire: Provider,
  args: { readonly address: string; readonly height?: string },
  options: ExecuteOptions,
) => Promise<{ readonly fields: Record<string, unknown>; readonly summary: string }>;

const accountAddress: ParamSpec = {
  key: 'address',
  get title() {
    return l10n.t('Address');
  },
  get prompt() {
    return l10n.t('An account address: 0x… or bech32 (cosmos1…)');
  },
  validate: (value) => {
    const t = value.trim();
    if (isEvmAddress(t) || /^[a-z][a-z0-9]{0,30}1[02-9ac-hj-np-z]{38,64}$/.test(t)) return undefined;
    return l10n.t('Type an account address: 0x and 40 hex digits, or bech32 such as cosmos1….');
  },
};

const accountHeight: ParamSpec = {
  key: 'height',
  get title() {
    return l10n.t('Height');
  },
  get prompt() {
    return l10n.t('A block height (empty: the latest), or two heights A..B to compare');
  },
  optional: true,
  validate: (value) => {
    const t = value.trim();
    if (t === '' || /^[1-9][0-9]{0,18}(\.\.[1-9][0-9]{0,18})?$/.test(t)) return undefined;
    return l10n.t('A height is a whole number from 1 (or A..B to compare two heights).');
  },
};

/** The account page as a query-file operation (not a palette command: the Look Up command shows the same page). */
export const ACCOUNT_OPERATION: Operation = {
  id: ACCOUNT_OPERATION_ID,
  iface: 'rest',
  label: 'account page',
  get title() {
    return l10n.t('Explorer: an account page (balances, stake, tokens, history)');
  },
  params: [accountAddress, accountHeight],
  build: () => {
    throw new EndpointError('input', l10n.both('explorer.account runs in query files (the editor and the CLI) and as Look Up of an address.'));
  },
};

/** Runs `explorer.account` on `provider` (`wire`: its secrets substituted). Never throws: a failure is the outcome's error. */
export async function runAccountRequest(
  op: Operation,
  provider: Provider,
  wire: Provider,
  args: Args,
  options: ExecuteOptions,
  reader: AccountReader | undefined,
): Promise<{ outcome: Outcome; fields?: Record<string, unknown> }> {
  const request = {
    method: 'GET' as const,
    url: wire.endpoints.rest ?? wire.endpoints.evmRpc ?? wire.endpoints.consensusHttp ?? '',
    body: JSON.stringify({ account: args }),
  };
  return recordedRun(op, provider.name, args, request, async (outcome) => {
    if (!reader) throw new EndpointError('input', l10n.both('explorer.account is not available here (it runs in the editor and the CLI).'));
    const address = (args.address ?? '').trim();
    const height = (args.height ?? '').trim();
    const r = await reader(wire, { address, ...(height ? { height } : {}) }, options);
    outcome.result = r.fields;
    outcome.status = 200;
    outcome.summary = r.summary;
    return r.fields;
  });
}
