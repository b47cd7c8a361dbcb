// Bounds on numbers read from a server, checked before anything else touches them (BigInt, digit
// grouping, comparisons): a hostile 100 KB "height" must cost nothing. A CometBFT height is an
// int64, an EVM quantity a uint256; anything longer is "not a block height". Never imports vscode.

/** The largest int64 (CometBFT heights, REST heights). */
export const INT64_MAX = 9223372036854775807n;
/** The largest uint256 (an EVM word, value, balance). */
export const UINT256_MAX = (1n << 256n) - 1n;
/** The most hex digits of a uint256 quantity. */
const UINT256_HEX_DIGITS = 64;
/**
 * The longest integer text given to BigInt: a uint256 in decimal (78 digits) or 0x hex (66
 * characters), signed. BigInt reads and prints a longer number in time that grows faster than its
 * length (a 1 MB "number" costs it about a second to read and print), and no chain sends one: longer
 * text is not a number here.
 */
export const MAX_INTEGER_TEXT = 80;
/** How much of a server's number is repeated in a sentence. */
const SHOWN_DIGITS = 24;

/** A decimal height (CometBFT, REST): a bigint within int64, or undefined (not a height). */
export function parseDecimalHeight(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 19 || !/^\d+$/.test(value)) return undefined;
  const n = BigInt(value);
  return n <= INT64_MAX ? n : undefined;
}

/** Whether `value` is a 0x-hex quantity (EVM) of at most a uint256's 64 digits. */
export function isHexQuantity(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 3 && value.length <= UINT256_HEX_DIGITS + 2 && /^0x[0-9a-fA-F]+$/.test(value);
}

/** A 0x-hex quantity (EVM): a bigint within uint256, or undefined (not a quantity). */
export function parseHexQuantity(value: unknown): bigint | undefined {
  return isHexQuantity(value) ? BigInt(value) : undefined;
}

/** A decimal quantity of at most a uint256's 78 digits (Cosmos amounts, chain ids): a bigint, or undefined (not one). */
export function parseDecimalQuantity(value: unknown): bigint | undefined {
  return typeof value === 'string' && /^\d{1,78}$/.test(value) ? BigInt(value) : undefined;
}

/** An EVM block number: a hex quantity that also fits int64 (no chain is past that). */
export function parseHexHeight(value: unknown): bigint | undefined {
  const n = parseHexQuantity(value);
  return n !== undefined && n <= INT64_MAX ? n : undefined;
}

/** A server's number as it may appear in a sentence: at most SHOWN_DIGITS characters. */
export function shownNumber(value: string): string {
  return value.length > SHOWN_DIGITS ? `${value.slice(0, SHOWN_DIGITS)}… (${value.length} characters)` : value;
}

/** What VS Code's `inspect()` reports for one setting, level by level. */
export interface InspectedLimit {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * A size or time limit's value. In an untrusted workspace only the user's own value counts: a
 * cloned repository must not raise what an answer may cost (or lower a deadline to nothing).
 */
export function limitValue(inspected: InspectedLimit | undefined, trusted: boolean): unknown {
  const i = inspected ?? {};
  return trusted ? (i.workspaceFolderValue ?? i.workspaceValue ?? i.globalValue ?? i.defaultValue) : (i.globalValue ?? i.defaultValue);
}
