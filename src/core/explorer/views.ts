// The explorer's results as plain data (what the API's lookUp() resolves to, and what render.ts
// turns into a document): a transaction, a block or an address, or what was tried when nothing was
// found. Numbers are decimal strings (they can pass 2^53), hashes as their interface writes them.

import type { AddressRole } from './identify';
import type { AddressForms } from './addresses';
import type { DecodedMessage, Signer } from './decodeCosmos';
import type { Decoded, DecodedArg } from '../contracts/types';
import type { TraceView } from '../contracts/trace';
import type { Reconciliation } from '../chain/state';
import type { Coin, EventView, ReceiptView } from './receipt/types';
import type { HistoryPage } from './account/history';
import type { TokenBalance } from './account/tokens';

// A coin (with its display form) and an event are defined with the receipt's types, which this file imports.
export type { Coin, EventView } from './receipt/types';

/** A transaction's events, grouped by the message they belong to (`msg_index`), the rest under undefined. */
export interface EventGroup {
  readonly msgIndex?: string;
  readonly events: readonly EventView[];
}

export interface EvmLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
  readonly logIndex?: string;
  /** The event decoded (its emitting contract's ABI, a workspace artifact, a standard, or guessed from topic0). */
  readonly decoded?: Decoded;
}

/** An EVM transaction explained: its call, return value, revert and call tree, decoded with the ABIs known. */
export interface EvmDecoding {
  /** The contract called, by name, and where its ABI came from. */
  readonly contract?: { readonly name: string; readonly source: string };
  readonly call?: Decoded;
  /** The return value (from the trace's top frame), by its outputs. */
  readonly returns?: readonly DecodedArg[];
  /** A failed transaction's revert (from the trace's top frame output). */
  readonly revert?: Decoded & { readonly data?: string };
  readonly trace?: TraceView;
  /** Why there is no trace: the provider has no `debug`, and which provider of its network has. */
  readonly traceNote?: string;
}

export interface EvmView {
  readonly hash: string;
  /** The Cosmos transaction that carries it. */
  readonly cosmosHash?: string;
  readonly from?: string;
  /** `from` as the events name it (a large block's transactions), not recovered from the signature. */
  readonly fromEvents?: boolean;
  /** undefined: a contract creation (see `contractAddress`). */
  readonly to?: string;
  readonly value?: Coin;
  readonly nonce?: string;
  readonly gas?: string;
  readonly gasPrice?: string;
  readonly maxFeePerGas?: string;
  readonly maxPriorityFeePerGas?: string;
  readonly gasUsed?: string;
  readonly effectiveGasPrice?: string;
  readonly input?: string;
  /** success / failed, from the receipt or the events. */
  readonly status?: string;
  readonly logs?: readonly EvmLog[];
  readonly contractAddress?: string;
  readonly blockNumber?: string;
  readonly blockHash?: string;
  readonly type?: string;
  /** Where it was read: the EVM RPC, the signed bytes decoded here, or only the Cosmos events. */
  readonly source: 'evmRpc' | 'decoded' | 'events';
  /** The call, logs' events, return value, revert and trace decoded. */
  readonly decoded?: EvmDecoding;
}

export interface MessageView extends DecodedMessage {
  /** A MsgEthereumTx: its Ethereum hash. */
  readonly evmHash?: string;
}

export interface TxView {
  readonly hash: string;
  readonly height?: string;
  readonly index?: number;
  readonly timestamp?: string;
  readonly code?: number;
  readonly codespace?: string;
  readonly log?: string;
  readonly gasWanted?: string;
  readonly gasUsed?: string;
  /** `rest`: the node decoded it (its own types, custom modules too); `local`: the bytes were decoded here. */
  readonly decodedBy: 'rest' | 'local';
  readonly messages: readonly MessageView[];
  readonly memo?: string;
  readonly fee?: { readonly amount: readonly Coin[]; readonly gasLimit: string; readonly payer?: string; readonly granter?: string };
  readonly signers: readonly Signer[];
  readonly events: readonly EventGroup[];
  /** The Ethereum transactions it carries (MsgEthereumTx), each with its own hash. */
  readonly evm: readonly EvmView[];
  readonly error?: string;
}

export interface BlockTxLine {
  readonly index: number;
  readonly hash: string;
  /** One line: the messages' types and the main facts. */
  readonly summary: string;
  readonly code?: number;
  readonly gasUsed?: string;
  /** The Ethereum hashes it carries (decoded, or named by its events). */
  readonly evmHashes?: readonly string[];
  /** Decoded in full: the transactions of the page shown (all of them in a block of up to a page). */
  readonly tx?: TxView;
}

/** Which transactions of a large block are decoded in full: page `number` of `pages`, `size` a page. */
export interface BlockPage {
  readonly number: number;
  readonly pages: number;
  readonly size: number;
  /** Indexes of the decoded transactions: from `first` to `last` inclusive. */
  readonly first: number;
  readonly last: number;
}

export interface BlockView {
  readonly height: string;
  readonly hash?: string;
  readonly time?: string;
  readonly chainId?: string;
  readonly proposer?: AddressForms;
  readonly appHash?: string;
  /** Every transaction as a line; those of `page` decoded in full (`tx`). */
  readonly txs: readonly BlockTxLine[];
  /** Set when the block has more transactions than one page. */
  readonly page?: BlockPage;
  /** finalize_block_events (CometBFT 0.38+) or begin/end block events. */
  readonly events: readonly EventView[];
  readonly evm?: { readonly hash: string; readonly txCount: number; readonly gasUsed: string; readonly gasLimit?: string; readonly baseFeePerGas?: string };
}

export interface AddressView {
  readonly typed: string;
  readonly role: AddressRole;
  readonly forms: AddressForms;
  readonly balances?: readonly Coin[];
  readonly evmBalance?: Coin;
  readonly account?: { readonly type?: string; readonly accountNumber?: string; readonly sequence?: string };
  readonly nonce?: string;
  readonly isContract?: boolean;
  readonly codeBytes?: number;
  /** A contract known by its ABI: its name, where the ABI came from, and its view functions (signatures). */
  readonly contract?: { readonly name: string; readonly source: string; readonly views: readonly string[]; readonly note?: string };
  readonly validator?: Readonly<Record<string, unknown>>;
  /** `<address>@<height>`: every part above is read at this height (undefined: the latest). */
  readonly height?: string;
  /** The latest page (no `@height`): the latest block's height, read once, at which every state read (balances, stake, tokens, nonce) asked. */
  readonly readAt?: string;
  /** The account page's state (explorer/account/): stake, precise-bank's fraction, the reconciliation, coverage. */
  readonly state?: AccountStateView;
  /** ERC-20 balances of the tokens it is known to touch (at most 20), at the same height; `skipped`: candidates past the cap. */
  readonly tokens?: { readonly list: readonly TokenBalance[]; readonly skipped: number };
  /** One page of its history (Cosmos transactions and EVM token transfers, newest first) with its coverage. */
  readonly history?: HistoryPage;
  /** `<address>@A..B`: what changed from height A to B. */
  readonly comparison?: AccountComparison;
}

export type { HistoryPage, HistoryEntry, HistoryCoverage, TokenTransfer } from './account/history';
export type { TokenBalance } from './account/tokens';

/** One change between two heights of an account (explorer/account/compare.ts). */
export interface AccountChange {
  /** `bank`, `EVM`, `delegation`, `pending rewards`, `unbonding`, `redelegation`, `token`. */
  readonly part: string;
  /** The denom, validator or token concerned. */
  readonly what: string;
  readonly before: string;
  readonly after: string;
  /** after − before (decimal string with its sign), when both are amounts. */
  readonly delta?: string;
}

export interface AccountComparison {
  readonly from: string;
  readonly to: string;
  readonly changes: readonly AccountChange[];
  /** Parts read at both heights that did not change. */
  readonly unchanged: readonly string[];
  /** Parts that could not be compared (not read at one of the heights). */
  readonly notCompared: readonly string[];
}

/** A validator as the account page names it: its operator address and, when read, its moniker. */
export interface ValidatorRef {
  readonly validator: string;
  readonly moniker?: string;
}

export interface DelegationView extends ValidatorRef {
  readonly shares: string;
  readonly amount?: Coin;
}

export interface RewardView extends ValidatorRef {
  /** DecCoins: amounts keep the node's 18 fractional digits. */
  readonly reward: readonly Coin[];
}

export interface UnbondingView extends ValidatorRef {
  readonly balance: Coin;
  readonly initialBalance: string;
  readonly creationHeight: string;
  readonly completionTime: string;
}

export interface RedelegationView {
  readonly source: ValidatorRef;
  readonly destination: ValidatorRef;
  readonly balance: string;
  readonly initialBalance: string;
  readonly creationHeight: string;
  readonly completionTime: string;
}

/** An account's state at one height (core/chain/state.ts read through the lookup's provider). */
export interface AccountStateView {
  /** The height read at (the page's `@height`, or the latest block's, read once); undefined: each read asked for the latest state. */
  readonly height?: string;
  readonly evmDenom?: string;
  /** precise-bank's fractional balance (EVM unit), when served. */
  readonly fractional?: string;
  /** `bank(<evm denom>) = EVM balance`, or the difference; `line` says it in one sentence. */
  readonly reconciliation?: Reconciliation & { readonly line: string };
  /** Why there is no reconciliation although the account has both sides (`not made: the precise-bank fraction was not read`). */
  readonly unreconciled?: string;
  /** undefined: not read (a note says why); [] none. */
  readonly delegations?: readonly DelegationView[];
  readonly rewards?: readonly RewardView[];
  readonly unbondings?: readonly UnbondingView[];
  readonly redelegations?: readonly RedelegationView[];
  /** The honest coverage line: the height is pruned on this provider. */
  readonly coverage?: string;
  /** Which interface the state was read through: `read through: REST`, or `… precompile views (delegations), abci_query (…)`. */
  readonly readThrough?: string;
  /** Each read that gave nothing, with why (`delegations: height 5 is pruned on this provider`). */
  readonly missing: readonly string[];
}

interface Common {
  readonly provider: string;
  readonly query: string;
  /** What the query was taken for, and what was found (`an EVM transaction hash`…), one sentence. */
  readonly found: string;
  /** Parts that could not be read (one sentence each); the rest is still shown. */
  readonly notes: readonly string[];
}

export type LookupResult =
  | (Common & {
      readonly kind: 'tx';
      readonly tx: TxView;
      /** Both layers joined (docs/receipt.md): causes, state at N−1 and N, every balance change explained. Look Up and the API read it. */
      readonly receipt?: ReceiptView;
    })
  | (Common & { readonly kind: 'block'; readonly block: BlockView })
  | (Common & { readonly kind: 'address'; readonly address: AddressView })
  | (Common & { readonly kind: 'notFound'; readonly tried: readonly string[]; /** Why, when known (a height above the tip). */ readonly reason?: string });
