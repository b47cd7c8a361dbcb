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

/** Every PUSH32 whose 32 bytes are zero, walking the opcodes (push data is skipped, not read as code). */
function zeroPush32s(code: Uint8Array, length: number, wild: Uint8Array): boolean {
  let any = false;
  for (let i = 0; i < length; i++) {
    const op = code[i];
    if (op >= 0x60 && op <= 0x7f) {
      const n = op - 0x5f;
      if (op === 0x7f && i + 32 < length) {
        let zero = true;
        for (let k = 1; k <= 32 && zero; k++) zero = code[i + k] === 0;
        if (zero) {
          wild.fill(1, i + 1, i + 33);
          any = true;
        }
      }
      i += n;
    }
  }
  return any;
}

/**
 * An artifact's deployed code as a pattern. `masks` are immutable and link references (byte
 * offsets); `exactImmutables`: the artifact lists its immutables (Foundry), so no guessing.
 */
export function codePattern(object: string, masks: ReadonlyArray<{ start: number; length: number }> = [], exactImmutables = false): CodePattern | undefined {
  const placeholders: Array<{ start: number; length: number }> = [];
  const clean = object.replace(/__[^\s]{36}__/g, (m, offset: number) => {
    const hexStart = object.startsWith('0x') ? offset - 2 : offset;
    placeholders.push({ start: hexStart / 2, length: m.length / 2 });
    return '0'.repeat(m.length);
  });
  const bytes = hexToBytes(clean);
  if (!bytes) return undefined;
  const length = withoutMetadata(bytes);
  if (length === 0) return { length: 0, bytes: bytes.subarray(0, 0) };
  const wild = new Uint8Array(length);
  let any = false;
  for (const m of [...masks, ...placeholders]) {
    if (!Number.isInteger(m?.start) || !Number.isInteger(m?.length) || m.start < 0 || m.length <= 0) continue;
    wild.fill(1, Math.min(m.start, length), Math.min(m.start + m.length, length));
    any = true;
  }
  if (!exactImmutables && zeroPush32s(bytes, length, wild)) any = true;
  return { length, bytes: bytes.subarray(0, length), wild: any ? wild : undefined };
}

/** The runtime code as read from the chain (0x hex) without its metadata: undefined for no code. */
export function runtimeCode(hex: string): Uint8Array | undefined {
  const b = hexToBytes(hex);
  if (!b || b.length === 0) return undefined;
  return b.subarray(0, withoutMetadata(b));
}

/** Whether `code` (metadata stripped) is the pattern's code. */
export function matchesCode(p: CodePattern, code: Uint8Array): boolean {
  if (p.length !== code.length || p.length === 0) return false;
  const { bytes, wild } = p;
  if (!wild) return Buffer.compare(bytes, code) === 0;
  for (let i = 0; i < code.length; i++) if (bytes[i] !== code[i] && wild[i] !== 1) return false;
  return true;
}
