// What the contracts folder hands to the explorer, the query files and the API: a contract known
// by its ABI (and where that ABI came from), and any call, log, revert or output decoded against
// it, as plain data (values JSON-safe: integers as decimal strings, bytes and addresses as 0x hex).

import type { Abi } from 'viem';

/**
 * Where an ABI came from, in the order they are tried for an address: an entry of
 * `chainEndpoints.contracts` (`setting`), its runtime code matched to one workspace artifact
 * (`bytecode`), a Cosmos EVM precompile (`precompile`); for a selector: the standard ERC ABIs
 * (`standard`), then guesses from the selector: the bundled table (`signatures`) and any workspace
 * artifact (`artifact`), both marked guessed.
 */
export type AbiSourceKind = 'bytecode' | 'setting' | 'precompile' | 'artifact' | 'standard' | 'signatures';

export interface AbiSource {
  readonly kind: AbiSourceKind;
  /** One phrase, shown where the decoding is: `workspace artifact out/Token.sol/Token.json (runtime code matched)`. */
  readonly label: string;
  /** The artifact or ABI file, when there is one (relative to the workspace). */
  readonly path?: string;
}

export interface KnownContract {
  readonly name: string;
  readonly abi: Abi;
  readonly source: AbiSource;
  /** A precompile without a Solidity interface: what its input and output are. */
  readonly note?: string;
}

/** One argument or output: name (may be empty), canonical type, value JSON-safe; `indexed` for event topics. */
export interface DecodedArg {
  readonly name: string;
  readonly type: string;
  readonly value: unknown;
  readonly indexed?: boolean;
}

export interface Decoded {
  readonly kind: 'function' | 'event' | 'error' | 'unknown';
  readonly name?: string;
  /** Canonical: `transfer(address,uint256)`. */
  readonly signature?: string;
  readonly args?: readonly DecodedArg[];
  /** The contract whose ABI decoded it (its name), when one did. */
  readonly contract?: string;
  /** Where the ABI came from, one phrase (AbiSource.label). */
  readonly source?: string;
  /** Found only by its selector (the bundled table, or a workspace artifact not matched to the address): a guess. */
  readonly guessed?: boolean;
  /** The 4-byte selector or topic0. */
  readonly selector?: string;
  /** Panic(uint256): what the code means. */
  readonly meaning?: string;
  /** Why it stayed undecoded, or what to keep in mind. */
  readonly note?: string;
}

/** What an address is known as without a request (hovers): a contract name and its source. */
export interface AddressName {
  readonly name: string;
  readonly source: string;
}
