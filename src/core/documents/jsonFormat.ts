// A validating JSON pretty-printer that copies every literal as it was sent: numbers past 2^53
// (or 2^64) keep their digits, strings keep their escapes. One pass, no parse tree, so it is
// both faster and lighter than JSON.parse + JSON.stringify on large bodies.
//
// Two implementations of one grammar and one output: `JsonFormatter` works on the UTF-8 bytes, in
// pieces as they arrive, and writes bytes into one growing buffer (fast, and light on large
// bodies: no string per token, no whole copy of the input); `formatText` is the reference, on
// UTF-16 text. The fast one gives up on anything it does not accept and the reference then
// produces the result or the exact error.

import * as bufferModule from 'node:buffer';
import { MAX_GROWTH, MAX_INDENT_DEPTH, OUTPUT_SLACK, formatText } from './jsonReference';
import { B, EMPTY, INCOMPLETE, scanLiteral, scanNumber, scanString } from './jsonScan';

export { JsonSyntaxError, MAX_GROWTH, MAX_INDENT_DEPTH, isJson } from './jsonReference';

/**
 * Re-indents `text` with `indent` spaces. Throws JsonSyntaxError (with the byte offset) when the
 * text is not exactly one JSON value.
 */
export function formatJson(text: string, indent = 2): string {
  // Lone surrogates have no UTF-8 form: such text goes to the reference, which copies them.
  if (text.length > 0 && isWellFormed(text)) {
    const fast = JsonFormatter.format(Buffer.from(text, 'utf8'), { indent });
    if (fast !== undefined) return formattedText(fast);
  }
  return formatText(text, indent);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isWellFormed(text: string): boolean {
  const native = (text as unknown as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
}

/** What the formatter expects next. */
const enum Want {
  Value,
  /** A key (after '{' or ',' in an object). */
  Key,
  /** ',' or a closer; at the top level, only whitespace. */
  After,
  /** ':' after a key. */
  Colon,
  /** Right after '{' or '[': a closer (empty container) or the first member. */
  Opened,
}

/** A member of the top-level object: its key (as sent, quotes included) and where its value is in the output. */
export interface TopMember {
  key: string;
  start: number;
  end: number;
}

/** Formatted JSON: the text is `buffer[start, end)`; `buffer[0, start)` is room left for a header. */
export interface FormattedJson {
  buffer: Buffer;
  start: number;
  end: number;
  /** What the top-level value is. */
  top: 'object' | 'array' | 'scalar';
  /** The top-level object's members, in order (empty unless `top` is 'object'). */
  members: TopMember[];
}

export interface FormatterOptions {
  indent?: number;
  /** Bytes left free before the text, for a header written afterwards. */
  reserve?: number;
}

/**
 * The fast formatter: takes the UTF-8 bytes in pieces as they arrive (a token cut between two
 * pieces is kept until the rest comes) and writes the indented text into one growing buffer,
 * recording where the top-level members' values are. A body therefore never needs to be held
 * whole: the output is all that grows. It gives up (push returns false, end undefined) at the
 * first byte that cannot be JSON.
 *
 * Only ASCII is structural in JSON, so every byte of 0x80 and above sits inside a string literal
 * and is copied as is; decoding the output then gives exactly what decoding the input first would
 * have (a malformed sequence cannot span the quotes around it).
 */
export class JsonFormatter {
  private readonly indent: number;
  /** The most a structural step writes: a comma or bracket, a newline and the deepest indentation. */
  private readonly step: number;
  private readonly room: number;
  // The output: the text so far is out[start, o); out[0, start) is the room for a header.
  private out: Buffer = EMPTY;
  private start = 0;
  private o = 0;
  // 1 = object, 2 = array, per open container.
  private stack = new Uint8Array(64);
  private depth = 0;
  private want = Want.Value;
  private opener = 0;
  private failed = false;
  private top: FormattedJson['top'] | undefined;
  // Offsets from `start` (which moves when the output grows).
  private readonly members: TopMember[] = [];
  private memberKey = '';
  private memberStart = 0;
  // The bytes of a token cut at the end of the last piece, and how many to wait for before trying
  // again (twice as many each time: a 10 MB string in 64 KB pieces is scanned a few times, not 160).
  private carry: Buffer[] = [];
  private carryBytes = 0;
  private retryAt = 0;
  /** Input bytes taken so far, and whether the output passed its budget (then compact: see MAX_GROWTH). */
  private fed = 0;
  private flat = false;

  constructor(options: FormatterOptions = {}) {
    this.indent = options.indent ?? 2;
    this.step = MAX_INDENT_DEPTH * this.indent + 2;
    this.room = options.reserve ?? 0;
  }

  /** Sizes the output for an input of about `bytes`. */
  expect(bytes: number): void {
    if (this.out.length === 0) this.allocate(bytes);
  }

  /**
   * The first output buffer. A small answer gets little room (a longer header is copied in front
   * of it, which costs nothing at that size); a large one, or one that grows, the whole room.
   */
  private allocate(inputBytes: number): void {
    const large = inputBytes >= 64 * 1024;
    this.start = large ? this.room : Math.min(this.room, 1024);
    // Indenting takes typical answers to 1.3-2.2 times their size. A small one gets twice its
    // size, which mostly stays under 4 KB, where Node hands out slices of a shared pool: fresh
    // buffers cost an allocation and, in numbers, garbage collections (measured: a third of the
    // client's time per request). A large one gets three times, so as never to be copied.
    // Plus one structural step (see `step`), so that a small answer is not grown at once.
    this.out = Buffer.allocUnsafe(this.start + (large ? 3 : 2) * inputBytes + this.step);
    this.o = this.start;
  }

  /** A larger output buffer (the text moved to leave the whole room in front); the new `o`. */
  private grow(o: number, need: number): number {
    const used = o - this.start;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.out.length, this.room + used + need + 64));
    this.out.copy(bigger, this.room, this.start, o);
    this.out = bigger;
    this.start = this.room;
    return this.room + used;
  }

  /** Copies the token `src[i..end)` to the output at `o` (growing it if needed); the new `o`. */
  private copyToken(src: Buffer, i: number, end: number, o: number): number {
    if (o + (end - i) > this.out.length) o = this.grow(o, end - i);
    const out = this.out;
    if (end - i < 256) for (let k = i; k < end; k++) out[o++] = src[k];
    else o += src.copy(out, o, i, end);
    return o;
  }

  /** A top-level member's value ended at `o`: records its span. */
  private endMember(o: number): void {
    this.members.push({ key: this.memberKey, start: this.memberStart, end: o - this.start });
  }

  /** Takes the next piece of the input; false once the input cannot be JSON. */
  push(piece: Buffer): boolean {
    if (this.failed) return false;
    if (this.carryBytes > 0) {
      this.carry.push(piece);
      this.carryBytes += piece.length;
      if (this.carryBytes < this.retryAt) return true;
      piece = Buffer.concat(this.carry, this.carryBytes);
      this.carry = [];
      this.carryBytes = 0;
    }
    this.run(piece, false);
    return !this.failed;
  }

  /** The formatted text once the input has ended, or undefined when it was not exactly one JSON value. */
  end(): FormattedJson | undefined {
    if (!this.failed && this.carryBytes > 0) {
      const rest = Buffer.concat(this.carry, this.carryBytes);
      this.carry = [];
      this.carryBytes = 0;
      this.run(rest, true);
    }
    if (this.failed || this.want !== Want.After || this.depth !== 0) return undefined;
    const start = this.start;
    const members = this.members.map((m) => ({ key: m.key, start: start + m.start, end: start + m.end }));
    return { buffer: this.out, start, end: this.o, top: this.top!, members };
  }

  /** Formats a whole input at once. */
  static format(src: Buffer, options: FormatterOptions = {}): FormattedJson | undefined {
    const f = new JsonFormatter(options);
    f.expect(src.length);
    f.run(src, true);
    return f.end();
  }

  /**
   * The hot loop, over locals (no closures over the cursor), stored back once at the end.
   * `final`: no more input follows, so a token that reaches the end is complete (or invalid).
   */
  private run(src: Buffer, final: boolean): void {
    const n = src.length;
    if (this.out.length === 0) this.allocate(n);
    const indent = this.indent;
    const step = this.step;
    let out = this.out;
    let cap = out.length;
    let o = this.o;
    let stack = this.stack;
    let depth = this.depth;
    let want = this.want;
    let i = 0;
    let failed = false;
    let cutAt = -1;
    this.fed += n;
    const budget = MAX_GROWTH * this.fed + OUTPUT_SLACK;
    let flat = this.flat;

    for (;;) {
      while (i < n) {
        const w = src[i];
        if (w !== B.Space && w !== B.Lf && w !== B.Cr && w !== B.Tab) break;
        i++;
      }
      if (i >= n) break;
      const c = src[i];
      // Room for what a structural step writes (at most a comma or bracket, a newline and the
      // indentation); a token's own length is checked where it is copied.
      if (o + step > cap) {
        o = this.grow(o, step);
        out = this.out;
        cap = out.length;
      }
      if (!flat && o - this.start > budget) flat = true;

      if (want === Want.After) {
        if (depth === 0) {
          failed = true; // text after the value
          break;
        }
        i++;
        const inObject = stack[depth - 1] === 1;
        if (c === B.Comma) {
          out[o++] = B.Comma;
          if (!flat && depth <= MAX_INDENT_DEPTH) {
            out[o++] = B.Lf;
            for (let k = depth * indent; k > 0; k--) out[o++] = B.Space;
          }
          want = inObject ? Want.Key : Want.Value;
        } else if (c === (inObject ? B.RBrace : B.RBracket)) {
          depth--;
          if (!flat && depth < MAX_INDENT_DEPTH) {
            out[o++] = B.Lf;
            for (let k = depth * indent; k > 0; k--) out[o++] = B.Space;
          }
          out[o++] = c;
          if (depth === 1 && stack[0] === 1) this.endMember(o);
        } else {
          failed = true;
          break;
        }
        continue;
      }

      if (want === Want.Opened) {
        const open = this.opener;
        const close = open === B.LBrace ? B.RBrace : B.RBracket;
        out[o++] = open;
        if (c === close) {
          out[o++] = close;
          i++;
          want = Want.After;
          if (depth === 1 && stack[0] === 1) this.endMember(o);
          continue;
        }
        if (depth === stack.length) {
          const deeper = new Uint8Array(stack.length * 2);
          deeper.set(stack);
          stack = deeper;
        }
        stack[depth++] = open === B.LBrace ? 1 : 2;
        if (!flat && depth <= MAX_INDENT_DEPTH) {
          out[o++] = B.Lf;
          for (let k = depth * indent; k > 0; k--) out[o++] = B.Space;
        }
        want = open === B.LBrace ? Want.Key : Want.Value;
        continue; // c is the first member: read it in its state
      }

      if (want === Want.Colon) {
        if (c !== B.Colon) {
          failed = true;
          break;
        }
        i++;
        out[o++] = B.Colon;
        out[o++] = B.Space;
        want = Want.Value;
        if (depth === 1) this.memberStart = o - this.start;
        continue;
      }

      if (want === Want.Key) {
        if (c !== B.Quote) {
          failed = true;
          break;
        }
        const end = scanString(src, i, n);
        if (end < 0) {
          if (end === INCOMPLETE && !final) cutAt = i;
          else failed = true;
          break;
        }
        o = this.copyToken(src, i, end, o);
        out = this.out;
        cap = out.length;
        if (depth === 1) this.memberKey = src.toString('utf8', i, end);
        i = end;
        want = Want.Colon;
        continue;
      }

      // A value.
      if (c === B.LBrace || c === B.LBracket) {
        if (depth === 0) this.top = c === B.LBrace ? 'object' : 'array';
        this.opener = c;
        i++;
        want = Want.Opened;
        continue;
      }
      let end: number;
      if (c === B.Quote) {
        end = scanString(src, i, n);
      } else if (c === 0x74 /* t */ || c === 0x66 /* f */ || c === 0x6e /* n */) {
        end = scanLiteral(src, i, n);
      } else {
        end = scanNumber(src, i, n);
        // A number may go on in the next piece ("1" then "2", "1." then "5", "1e" then "+3").
        if (!final && (end < 0 ? i + 3 > n : end + 3 > n)) end = INCOMPLETE;
      }
      if (end < 0) {
        if (end === INCOMPLETE && !final) cutAt = i;
        else failed = true;
        break;
      }
      if (depth === 0) this.top = 'scalar';
      o = this.copyToken(src, i, end, o);
      out = this.out;
      cap = out.length;
      i = end;
      want = Want.After;
      if (depth === 1 && stack[0] === 1) this.endMember(o);
    }

    this.out = out;
    this.o = o;
    this.flat = flat;
    this.stack = stack;
    this.depth = depth;
    this.want = want;
    if (failed) this.failed = true;
    else if (cutAt >= 0) {
      this.carry = [src.subarray(cutAt)];
      this.carryBytes = n - cutAt;
      this.retryAt = 2 * this.carryBytes;
    }
  }
}

const nativeIsAscii = (bufferModule as { isAscii?: (input: Uint8Array) => boolean }).isAscii;

/** The text of formatted JSON (latin1 when it is ASCII: the same text, decoded faster). */
export function formattedText(f: FormattedJson): string {
  const view = f.buffer.subarray(f.start, f.end);
  const ascii = nativeIsAscii ? nativeIsAscii(view) : !view.some((b) => b >= 0x80);
  return view.toString(ascii ? 'latin1' : 'utf8');
}
