// The two-layer receipt (issue #35) as plain data: what api.lookUp() gives as `receipt` beside a
// transaction, what render.ts lays out and what the query files' `explorer.receipt` asserts on.
// Addresses are keyed by their lowercase 0x form (20 bytes) and shown with their bech32 form too;
// amounts are signed decimal strings in the denom's base unit (they pass 2^53), with the display
// form beside them where the chain's metadata says how. This shape is kept stable: docs/receipt.md.

/** A coin with its display form (views.ts re-exports it). */
export interface Coin {
  readonly denom: string;
  readonly amount: string;
  /** In the display denom (`1.5 test`), when the bank's metadata (or the EVM's 18 decimals) says how. */
  readonly display?: string;
}

export interface EventView {
  readonly type: string;
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: string }>;
}

/** What caused a Cosmos effect or a balance movement. */
export type CauseKind =
  | 'fee'
  | 'refund'
  | 'evmValue'
  | 'withdrawRewards'
  | 'delegate'
  | 'unbond'
  | 'redelegate'
  | 'cancelUnbonding'
  | 'bankTransfer'
  | 'ibcTransfer'
  | 'govVote'
  | 'mint'
  | 'burn';

/** One account's side of a cause: `amount` signed (negative: paid out). */
export interface Move {
  /** Lowercase 0x form. */
  readonly account: string;
  readonly denom: string;
  readonly amount: string;
}

/** The precompile frame (or message) that produced a cause. */
export interface CauseOrigin {
  /** The Cosmos message (msg_index). */
  readonly message?: number;
  /** The call tree's frame (depth-first index) when the trace was read. */
  readonly frame?: number;
  /** The precompile's address and name (`0x…0800`, `staking`). */
  readonly precompile?: string;
  readonly precompileName?: string;
}

export interface Cause {
  readonly kind: CauseKind;
  /** The effect in words, with the chain's display units. */
  readonly sentence: string;
  readonly origin?: CauseOrigin;
  /** The balance movements it implies (none for a vote; two sides for a transfer). */
  readonly moves: readonly Move[];
  /** Indexes (into ReceiptView.events) of the events it accounts for. */
  readonly events: readonly number[];
}

/** A Cosmos event of the transaction, in order, with what it is. */
export interface ReceiptEvent extends EventView {
  readonly index: number;
  /** msg_index, when the event belongs to a message. */
  readonly msgIndex?: number;
  /** The cause it belongs to (index into causes). */
  readonly cause?: number;
  /** A `tx_log` event (cosmos/evm v0.3.x): the index (into the EVM receipt's logs) of the log it copies. */
  readonly copyOfLog?: number;
  /** Listed by the node but not a balance movement of its own (the fee and the refund listed again, the halves of a transfer). */
  readonly echo?: string;
}

/** A balance at N−1 and N and why it changed. */
export interface BalanceChange {
  /** Lowercase 0x form and the bech32 form. */
  readonly account: string;
  readonly bech32: string;
  readonly denom: string;
  readonly before?: string;
  readonly after?: string;
  /** after − before (signed), when both were read. */
  readonly measured?: string;
  readonly measuredDisplay?: string;
  /** The sum of the causes' movements for this account and denom. */
  readonly explained: string;
  readonly parts: ReadonlyArray<{ readonly cause: number; readonly amount: string; readonly display?: string }>;
  /** measured − explained, when not zero: what no event or transfer explains. */
  readonly unexplained?: string;
  readonly unexplainedDisplay?: string;
  /** explained: measured = causes; unexplained: a remainder; unmeasured: a state read is missing (see `why`). */
  readonly status: 'explained' | 'unexplained' | 'unmeasured';
  readonly why?: string;
}

/** One height's state of an account (core/chain/state.ts), what was read. */
export interface StateSnapshot {
  readonly height: string;
  readonly balances?: readonly Coin[];
  /** The bank balances are the first pages only (more denoms than read): a denom absent from them is not known to be 0. */
  readonly balancesTruncated?: boolean;
  /** eth_getBalance at the block (EVM unit). */
  readonly evmBalance?: string;
  readonly delegations?: ReadonlyArray<{ readonly validator: string; readonly shares: string; readonly amount?: string }>;
  readonly rewards?: ReadonlyArray<{ readonly validator: string; readonly reward: readonly Coin[] }>;
  readonly unbondings?: ReadonlyArray<{ readonly validator: string; readonly balance: string; readonly completionTime: string }>;
  /** The height is pruned on this provider (some read said so). */
  readonly pruned?: boolean;
  /** Which interface the reads went through: `read through: REST`, `… precompile views (…), abci_query (…)`. */
  readonly readThrough?: string;
  /** Each read that gave nothing, with why. */
  readonly missing: readonly string[];
}

export interface ReceiptAccount {
  readonly account: string;
  readonly bech32: string;
  /** sender, recipient, fee payer, contract, delegator, validator, … */
  readonly roles: readonly string[];
  readonly before?: StateSnapshot;
  readonly after?: StateSnapshot;
}

export interface ReceiptView {
  /** The Ethereum hash (0x…) and the CometBFT hash (UPPERCASE hex), each when known. */
  readonly evmHash?: string;
  readonly cosmosHash?: string;
  /** N, and N−1 whose state is compared. */
  readonly height?: string;
  readonly parentHeight?: string;
  readonly causes: readonly Cause[];
  readonly events: readonly ReceiptEvent[];
  /** How many tx_log events were recognised as copies of the EVM logs (0 on cosmos/evm v0.5+). */
  readonly logCopies: number;
  readonly accounts: readonly ReceiptAccount[];
  readonly changes: readonly BalanceChange[];
  /** One line: "Every balance change is explained…", or what is not. */
  readonly summary: string;
  /** Said when N−1 (or N) is pruned on this provider, naming one of the same network that keeps it. */
  readonly coverage?: string;
  /** Accounts named but not read (the cap), module accounts left out, and the like. */
  readonly notes: readonly string[];
}
