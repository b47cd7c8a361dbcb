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

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const enum Ctx {
  Top,
  Object,
  Array,
}

const WS = new Set([0x20, 0x0a, 0x0d, 0x09]);
const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Past this depth the text is compact (no line breaks, no indentation): a hostile answer nested
 * 10,000 deep would otherwise become a document of 10,000² spaces (a 20 KB body, 200 million
 * characters), and one of 20 MB of brackets a 1.3 GB document even with the indentation capped.
 */
export const MAX_INDENT_DEPTH = 16;
/**
 * The whitespace the document may add, as a multiple of the answer's size (plus OUTPUT_SLACK):
 * past it the rest is written compact. Typical answers grow 1.3 to 2.2 times.
 */
export const MAX_GROWTH = 4;
const OUTPUT_SLACK = 1024 * 1024;

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

const enum B {
  Tab = 0x09,
  Lf = 0x0a,
  Cr = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Plus = 0x2b,
  Comma = 0x2c,
  Minus = 0x2d,
  Dot = 0x2e,
  Zero = 0x30,
  One = 0x31,
  Nine = 0x39,
  Colon = 0x3a,
  UpperE = 0x45,
  LBracket = 0x5b,
  Backslash = 0x5c,
  RBracket = 0x5d,
  LowerE = 0x65,
  LBrace = 0x7b,
  RBrace = 0x7d,
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

/** A token cut by the end of a piece: it is completed by the next piece. */
const INCOMPLETE = -2;

/** 1 for the bytes allowed after a backslash (other than u), 2 for hex digits. */
const BYTE_CLASS = new Uint8Array(256);
for (const c of '"\\/bfnrt') BYTE_CLASS[c.charCodeAt(0)] = 1;
for (const c of '0123456789abcdefABCDEF') BYTE_CLASS[c.charCodeAt(0)] |= 2;

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

const EMPTY = Buffer.alloc(0);

/** The index after the string literal that starts at i (a quote); -1 when it is not one, INCOMPLETE when cut. */
function scanString(src: Buffer, i: number, n: number): number {
  let j = i + 1;
  for (;;) {
    if (j >= n) return INCOMPLETE;
    const d = src[j];
    if (d === B.Quote) return j + 1;
    if (d === B.Backslash) {
      if (j + 1 >= n) return INCOMPLETE;
      const e = src[j + 1];
      if (e === 0x75 /* u */) {
        if (j + 5 >= n) return INCOMPLETE;
        if ((BYTE_CLASS[src[j + 2]] & BYTE_CLASS[src[j + 3]] & BYTE_CLASS[src[j + 4]] & BYTE_CLASS[src[j + 5]] & 2) === 0) return -1;
        j += 6;
      } else if ((BYTE_CLASS[e] & 1) !== 0) j += 2;
      else return -1;
    } else if (d < 0x20) return -1;
    else j++;
  }
}

/** The index after `true`, `false` or `null` at i; -1 when it is none of them, INCOMPLETE when cut. */
function scanLiteral(src: Buffer, i: number, n: number): number {
  const word = src[i] === 0x74 ? TRUE : src[i] === 0x66 ? FALSE : NULL;
  for (let k = 1; k < word.length; k++) {
    if (i + k >= n) return INCOMPLETE;
    if (src[i + k] !== word[k]) return -1;
  }
  return i + word.length;
}

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

/** The end of the number at i, as /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y matches it; -1 when none. */
function scanNumber(src: Buffer, i: number, n: number): number {
  let j = i;
  if (src[j] === B.Minus) j++;
  if (src[j] === B.Zero) j++;
  else if (src[j] >= B.One && src[j] <= B.Nine) {
    j++;
    while (j < n && src[j] >= B.Zero && src[j] <= B.Nine) j++;
  } else return -1;
  if (src[j] === B.Dot && src[j + 1] >= B.Zero && src[j + 1] <= B.Nine) {
    j += 2;
    while (j < n && src[j] >= B.Zero && src[j] <= B.Nine) j++;
  }
  if (src[j] === B.LowerE || src[j] === B.UpperE) {
    let k = j + 1;
    if (src[k] === B.Plus || src[k] === B.Minus) k++;
    if (src[k] >= B.Zero && src[k] <= B.Nine) {
      j = k + 1;
      while (j < n && src[j] >= B.Zero && src[j] <= B.Nine) j++;
    }
  }
  return j;
}

const nativeIsAscii = (bufferModule as { isAscii?: (input: Uint8Array) => boolean }).isAscii;

/** The text of formatted JSON (latin1 when it is ASCII: the same text, decoded faster). */
export function formattedText(f: FormattedJson): string {
  const view = f.buffer.subarray(f.start, f.end);
  const ascii = nativeIsAscii ? nativeIsAscii(view) : !view.some((b) => b >= 0x80);
  return view.toString(ascii ? 'latin1' : 'utf8');
}

/** The reference implementation (see the module comment). */
function formatText(text: string, indent: number): string {
  const out: string[] = [];
  const stack: Ctx[] = [Ctx.Top];
  // What the grammar allows next: a value, a key, ':' , ',' or a closer.
  let expectValue = true;
  let expectKey = false;
  let afterKey = false;
  let seenTop = false;
  let emptyContainer = false;
  let i = 0;
  const n = text.length;
  // Compact past MAX_INDENT_DEPTH, and once the whitespace passes its budget (see MAX_GROWTH).
  let added = 0;
  const budget = MAX_GROWTH * text.length + OUTPUT_SLACK;
  const pad = (depth: number, inner = depth) => {
    if (inner > MAX_INDENT_DEPTH || added > budget) return '';
    added += depth * indent + 1;
    return '\n' + ' '.repeat(depth * indent);
  };
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`Invalid JSON at offset ${i}: ${what}.`, i);
  };
  const beforeValue = () => {
    if (emptyContainer) {
      out.push(pad(stack.length - 1));
      emptyContainer = false;
    }
  };

  while (i < n) {
    const c = text.charCodeAt(i);
    if (WS.has(c)) {
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === Ctx.Top && seenTop) fail('unexpected text after the JSON value');
    switch (c) {
      case 0x7b: // {
      case 0x5b: {
        // [
        if (!expectValue) fail(`unexpected '${text[i]}'`);
        beforeValue();
        out.push(text[i]);
        stack.push(c === 0x7b ? Ctx.Object : Ctx.Array);
        emptyContainer = true;
        expectKey = c === 0x7b;
        expectValue = c === 0x5b;
        i++;
        break;
      }
      case 0x7d: // }
      case 0x5d: {
        // ]
        const want = c === 0x7d ? Ctx.Object : Ctx.Array;
        if (top !== want) fail(`unexpected '${text[i]}'`);
        // Allowed right after the opener, or after a complete value (not after ',' or ':').
        if (!emptyContainer && (expectValue || expectKey || afterKey)) fail(`unexpected '${text[i]}'`);
        stack.pop();
        if (!emptyContainer) out.push(pad(stack.length - 1, stack.length));
        emptyContainer = false;
        expectKey = false;
        out.push(text[i]);
        i++;
        endValue();
        break;
      }
      case 0x3a: // :
        if (!afterKey) fail("unexpected ':'");
        out.push(': ');
        afterKey = false;
        expectValue = true;
        i++;
        break;
      case 0x2c: // ,
        if (top === Ctx.Top || expectValue || expectKey || afterKey || emptyContainer) fail("unexpected ','");
        out.push(',', pad(stack.length - 1));
        if (top === Ctx.Object) expectKey = true;
        else expectValue = true;
        i++;
        break;
      case 0x22: {
        // "
        const start = i;
        i++;
        for (;;) {
          if (i >= n) fail('unterminated string');
          const d = text.charCodeAt(i);
          if (d === 0x22) break;
          if (d === 0x5c) {
            const e = text[i + 1];
            if (e === 'u') {
              if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape');
              i += 6;
            } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
            else fail('bad escape in string');
          } else if (d < 0x20) fail('control character in string');
          else i++;
        }
        i++;
        if (expectKey) {
          beforeValue();
          out.push(text.slice(start, i));
          expectKey = false;
          afterKey = true;
        } else if (expectValue) {
          beforeValue();
          out.push(text.slice(start, i));
          endValue();
        } else fail('unexpected string');
        break;
      }
      default: {
        if (!expectValue) fail(`unexpected '${text[i]}'`);
        let lit: string | undefined;
        if (text.startsWith('true', i)) lit = 'true';
        else if (text.startsWith('false', i)) lit = 'false';
        else if (text.startsWith('null', i)) lit = 'null';
        else {
          NUMBER_RE.lastIndex = i;
          const m = NUMBER_RE.exec(text);
          if (m && m[0].length > 0) lit = m[0];
        }
        if (!lit) fail(`unexpected '${text[i]}'`);
        beforeValue();
        out.push(lit!);
        i += lit!.length;
        endValue();
      }
    }
  }
  if (!seenTop || stack.length !== 1) fail('unexpected end of text');
  return out.join('');

  function endValue() {
    expectValue = false;
    if (stack.length === 1) seenTop = true;
  }
}

/** True when `text` is one JSON value (same grammar as formatJson). */
export function isJson(text: string): boolean {
  try {
    formatText(text, 0);
    return true;
  } catch {
    return false;
  }
}
