// Matching an address's runtime code (eth_getCode) to an artifact's deployedBytecode: the trailing
// CBOR metadata (its length in the last two bytes) is stripped from both, and the bytes that differ
// by design are masked: immutables (the artifact's immutableReferences; without them, as in
// Hardhat's artifacts, every PUSH32 of 32 zero bytes, which is how solc leaves an immutable's slot)
// and linked library addresses (linkReferences, or the `__$…$__` placeholders).

export interface CodePattern {
  /** Bytes without the metadata. */
  readonly length: number;
  readonly bytes: Uint8Array;
  /** 1 where any value is accepted. */
  readonly wild?: Uint8Array;
}

function hexToBytes(hex: string): Uint8Array | undefined {
  const h = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) return undefined;
  return Uint8Array.from(Buffer.from(h, 'hex'));
}

/** The length of `code` without its CBOR metadata (solc appends a CBOR map and its 2-byte length). */
export function withoutMetadata(code: Uint8Array): number {
  if (code.length < 4) return code.length;
  const len = (code[code.length - 2] << 8) | code[code.length - 1];
  const start = code.length - 2 - len;
  if (len === 0 || start < 0) return code.length;
  const first = code[start];
  return first >= 0xa1 && first <= 0xbf ? start : code.length;
}

/** Every PUSH32 whose 32 bytes are zero, walking the opcodes (push data is skipped, not read as code): how many bytes it made wild. */
function zeroPush32s(code: Uint8Array, length: number, wild: Uint8Array): number {
  let added = 0;
  for (let i = 0; i < length; i++) {
    const op = code[i];
    if (op >= 0x60 && op <= 0x7f) {
      const n = op - 0x5f;
      if (op === 0x7f && i + 32 < length) {
        let zero = true;
        for (let k = 1; k <= 32 && zero; k++) zero = code[i + k] === 0;
        if (zero)
          for (let k = i + 1; k < i + 33; k++) {
            added += 1 - wild[k];
            wild[k] = 1;
          }
      }
      i += n;
    }
  }
  return added;
}

/** An immutable is one 32-byte word; a linked library's address 20 bytes. */
const MASK_SIZES = new Set([32, 20]);
/** Wild bytes allowed: a quarter of the code (real contracts mask a few percent), or two words in a tiny one. */
export const MAX_WILD_SHARE = 0.25;
const MIN_WILD_ALLOWED = 32;

/** What reading the masks cost (the index's work counters). */
export interface MaskStats {
  masksExamined: number;
}

/** A pattern, or why the artifact's masks are not used to match (it then matches nothing). */
export type PatternResult = { readonly pattern?: CodePattern; readonly refused?: string };

/**
 * An artifact's deployed code as a pattern, its masks checked first: each one 32 bytes (an
 * immutable) or 20 (a library address) inside the code, at most one per 20 bytes of code (counted
 * before any is read; `count` when the caller counted without copying them), and all of them, with the zero-PUSH32 guess, at most a quarter of the code.
 * Masks that are not plausible make the artifact match nothing: a mask over the whole code would
 * claim every contract of its length. The work is bounded by the code's length.
 * `exactImmutables`: the artifact lists its immutables (Foundry), so no guessing.
 */
export function checkedPattern(
  object: string,
  masks: ReadonlyArray<unknown> = [],
  exactImmutables = false,
  stats: MaskStats = { masksExamined: 0 },
  count = masks.length,
): PatternResult {
  const placeholders: Array<{ start: number; length: number }> = [];
  const clean = object.replace(/__[^\s]{36}__/g, (m, offset: number) => {
    const hexStart = object.startsWith('0x') ? offset - 2 : offset;
    placeholders.push({ start: hexStart / 2, length: m.length / 2 });
    return '0'.repeat(m.length);
  });
  const bytes = hexToBytes(clean);
  if (!bytes) return {};
  const length = withoutMetadata(bytes);
  if (length === 0) return { pattern: { length: 0, bytes: bytes.subarray(0, 0) } };
  const all = count + placeholders.length;
  const maxMasks = Math.floor(length / 20) + 1;
  if (all > maxMasks) return { refused: `${all} immutable or link references for ${length} bytes of code are not plausible` };
  const maxWild = Math.max(MIN_WILD_ALLOWED, Math.floor(length * MAX_WILD_SHARE));
  const wild = new Uint8Array(length);
  let wildCount = 0;
  for (const raw of [...masks, ...placeholders]) {
    stats.masksExamined++;
    const m = raw as { start?: unknown; length?: unknown } | null;
    const start = m?.start;
    const size = m?.length;
    if (typeof start !== 'number' || typeof size !== 'number' || !Number.isInteger(start) || start < 0 || !MASK_SIZES.has(size) || start + size > length)
      return { refused: `a reference ${JSON.stringify(raw)?.slice(0, 60)} is not plausible (32 or 20 bytes inside ${length} bytes of code)` };
    for (let i = start; i < start + size; i++) {
      wildCount += 1 - wild[i];
      wild[i] = 1;
    }
    if (wildCount > maxWild) return { refused: `references masking more than ${Math.round(MAX_WILD_SHARE * 100)}% of the code are not plausible` };
  }
  if (!exactImmutables) wildCount += zeroPush32s(bytes, length, wild);
  if (wildCount > maxWild) return { refused: `zero PUSH32 slots masking more than ${Math.round(MAX_WILD_SHARE * 100)}% of the code are not plausible` };
  return { pattern: { length, bytes: bytes.subarray(0, length), wild: wildCount > 0 ? wild : undefined } };
}

/** An artifact's deployed code as a pattern (undefined when it is no code or its masks are not plausible: see checkedPattern). */
export function codePattern(object: string, masks: ReadonlyArray<unknown> = [], exactImmutables = false): CodePattern | undefined {
  return checkedPattern(object, masks, exactImmutables).pattern;
}

/** The runtime code as read from the chain (0x hex) without its metadata: undefined for no code. */
export function runtimeCode(hex: string): Uint8Array | undefined {
  const b = hexToBytes(hex);
  if (!b || b.length === 0) return undefined;
  return b.subarray(0, withoutMetadata(b));
}

/** Whether `code` (metadata stripped) is the pattern's code. `counted`: adds the bytes compared (the index's work counter). */
export function matchesCode(p: CodePattern, code: Uint8Array, counted?: { bytesCompared: number }): boolean {
  if (p.length !== code.length || p.length === 0) return false;
  const { bytes, wild } = p;
  if (!wild) {
    if (counted) counted.bytesCompared += code.length;
    return Buffer.compare(bytes, code) === 0;
  }
  let i = 0;
  for (; i < code.length; i++) if (bytes[i] !== code[i] && wild[i] !== 1) break;
  if (counted) counted.bytesCompared += Math.min(code.length, i + 1);
  return i === code.length;
}
