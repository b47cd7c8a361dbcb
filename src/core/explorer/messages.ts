// The Cosmos SDK messages decoded here, by type URL: cosmjs-types' codecs (published from the SDK's
// .proto files) for bank, staking, distribution, gov (v1 and v1beta1), authz and IBC transfer.
// Anything else is shown by its type URL, bytes and a generic field dump (protoDump.ts).

import * as authz from 'cosmjs-types/cosmos/authz/v1beta1/tx';
import * as bank from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import * as distribution from 'cosmjs-types/cosmos/distribution/v1beta1/tx';
import * as gov from 'cosmjs-types/cosmos/gov/v1/tx';
import * as govLegacy from 'cosmjs-types/cosmos/gov/v1beta1/tx';
import * as staking from 'cosmjs-types/cosmos/staking/v1beta1/tx';
import * as transfer from 'cosmjs-types/ibc/applications/transfer/v1/tx';

interface Codec {
  readonly typeUrl: string;
  decode(input: Uint8Array): unknown;
  toJSON(message: never): unknown;
}

const CODECS: readonly Codec[] = [
  bank.MsgSend,
  bank.MsgMultiSend,
  staking.MsgCreateValidator,
  staking.MsgEditValidator,
  staking.MsgDelegate,
  staking.MsgBeginRedelegate,
  staking.MsgUndelegate,
  staking.MsgCancelUnbondingDelegation,
  distribution.MsgSetWithdrawAddress,
  distribution.MsgWithdrawDelegatorReward,
  distribution.MsgWithdrawValidatorCommission,
  distribution.MsgFundCommunityPool,
  gov.MsgSubmitProposal,
  gov.MsgVote,
  gov.MsgVoteWeighted,
  gov.MsgDeposit,
  gov.MsgCancelProposal,
  govLegacy.MsgSubmitProposal,
  govLegacy.MsgVote,
  govLegacy.MsgVoteWeighted,
  govLegacy.MsgDeposit,
  authz.MsgGrant,
  authz.MsgExec,
  authz.MsgRevoke,
  transfer.MsgTransfer,
];

const BY_TYPE = new Map(CODECS.map((c) => [c.typeUrl, c]));

/** The message's fields as JSON (bytes as base64, integers as strings), or undefined for a type not known here. */
export function decodeKnownMessage(typeUrl: string, value: Uint8Array): Record<string, unknown> | undefined {
  const codec = BY_TYPE.get(typeUrl);
  if (!codec) return undefined;
  return codec.toJSON(codec.decode(value) as never) as Record<string, unknown>;
}

export function isKnownMessage(typeUrl: string): boolean {
  return BY_TYPE.has(typeUrl);
}
