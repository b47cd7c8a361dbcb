// A protobuf message nobody here knows, shown field by field: number, wire type and value, read with
// cosmjs-types' BinaryReader. A length-delimited field is shown as text when it is printable, as a
// nested message when it reads as one, else as hex. Bounded in fields, depth and bytes shown.

import { BinaryReader } from 'cosmjs-types/binary';

export interface DumpField {
  readonly field: number;
  /** varint, fixed64, bytes, fixed32 (groups are skipped). */
  readonly wire: 'varint' | 'fixed64' | 'bytes' | 'fixed32' | 'group';
  /** A number as decimal, text, or 0x hex. */
  readonly value?: string;
  readonly nested?: readonly DumpField[];
}

const MAX_FIELDS = 200;
const MAX_DEPTH = 4;
const MAX_SHOWN_BYTES = 256;

/** The fields of `bytes`; throws (a RangeError/Error) when they are not a protobuf message. */
export function dumpFields(bytes: Uint8Array, depth = 0): DumpField[] {
  const reader = new BinaryReader(bytes);
  const out: DumpField[] = [];
  while (reader.pos < reader.len) {
    if (out.length >= MAX_FIELDS) break;
    const [field, wireType] = reader.tag();
    switch (wireType) {
      case 0:
        out.push({ field, wire: 'varint', value: reader.uint64().toString() });
        break;
      case 1:
        out.push({ field, wire: 'fixed64', value: reader.fixed64().toString() });
        break;
      case 5:
        out.push({ field, wire: 'fixed32', value: String(reader.fixed32()) });
        break;
      case 2:
        out.push(readDelimited(field, reader.bytes(), depth));
        break;
      default:
        reader.skipType(wireType);
        out.push({ field, wire: 'group' });
    }
  }
  return out;
}

/** Whether a dump of `bytes` reads cleanly (used to tell a nested message from text or bytes). */
function tryDump(bytes: Uint8Array, depth: number): DumpField[] | undefined {
  if (depth >= MAX_DEPTH || bytes.length === 0) return undefined;
  try {
    return dumpFields(bytes, depth);
  } catch {
    return undefined;
  }
}

function readDelimited(field: number, bytes: Uint8Array, depth: number): DumpField {
  const text = printable(bytes);
  if (text !== undefined) return { field, wire: 'bytes', value: text };
  const nested = tryDump(bytes, depth + 1);
  if (nested) return { field, wire: 'bytes', nested };
  return { field, wire: 'bytes', value: shownHex(bytes) };
}

/** The bytes as text when they are UTF-8 made of printable characters. */
function printable(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0 || bytes.length > 4096) return bytes.length === 0 ? '' : undefined;
  const text = Buffer.from(bytes).toString('utf8');
  if (text.includes('\uFFFD') || /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text)) return undefined;
  return text;
}

export function shownHex(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.subarray(0, MAX_SHOWN_BYTES)).toString('hex');
  return bytes.length > MAX_SHOWN_BYTES ? `0x${hex}… (${bytes.length} bytes)` : `0x${hex}`;
}
