// A validating JSON pretty-printer that copies every literal as it was sent: numbers past 2^53
// (or 2^64) keep their digits, strings keep their escapes. One pass, no parse tree, so it is
// both faster and lighter than JSON.parse + JSON.stringify on large bodies.
//
// Two implementations of one grammar and one output: `formatBytes` works on the UTF-8 bytes and
// writes bytes into one growing buffer (fast, and light on large bodies: no string per token);
// `formatText` is the reference, on UTF-16 text. The fast one gives up on anything it does not
// accept and the reference then produces the result or the exact error.

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
 * Indentation stops growing past this depth: a hostile answer nested 10,000 deep would otherwise
 * become a document of 10,000² spaces (a 20 KB body, 200 million characters).
 */
export const MAX_INDENT_DEPTH = 64;

/**
 * Re-indents `text` with `indent` spaces. Throws JsonSyntaxError (with the byte offset) when the
 * text is not exactly one JSON value.
 */
export function formatJson(text: string, indent = 2): string {
  // Lone surrogates have no UTF-8 form: such text goes to the reference, which copies them.
  if (text.length > 0 && isWellFormed(text)) {
    const fast = formatBytes(Buffer.from(text, 'utf8'), indent);
    if (fast !== undefined) return fast;
  }
  return formatText(text, indent);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isWellFormed(text: string): boolean {
  const native = (text as unknown as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
}

/**
 * formatJson of `bytes` decoded as UTF-8 (as Buffer#toString does), without decoding them first.
 * Throws the same JsonSyntaxError as formatJson on that text.
 */
export function formatJsonBytes(bytes: Buffer, indent = 2): string {
  const fast = formatBytes(bytes, indent);
  return fast !== undefined ? fast : formatText(bytes.toString('utf8'), indent);
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
  Slash = 0x2f,
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

/** 1 for the bytes allowed after a backslash (other than u), 2 for hex digits. */
const BYTE_CLASS = new Uint8Array(256);
for (const c of '"\\/bfnrt') BYTE_CLASS[c.charCodeAt(0)] = 1;
for (const c of '0123456789abcdefABCDEF') BYTE_CLASS[c.charCodeAt(0)] |= 2;

/**
 * The fast path: the formatted text, or undefined when the bytes are not (or might not be) one
 * JSON value. Only ASCII is structural in JSON, so every byte of 0x80 and above sits inside a
 * string literal and is copied as is; decoding the output then gives exactly what decoding the
 * input first would have (a malformed sequence cannot span the quotes around it).
 * Written as one loop over locals (no closures over the cursor): this is the hot path of large
 * documents.
 */
function formatBytes(src: Buffer, indent: number): string | undefined {
  const n = src.length;
  // Indenting at most triples typical JSON; pages never written are never resident.
  let out: Buffer = Buffer.allocUnsafe(3 * n + 64);
  let cap = out.length;
  let o = 0;
  // 1 = object, 2 = array, per open container.
  let stack = new Uint8Array(64);
  let depth = 0;
  let i = 0;
  // The next thing expected: a value (0), a key of a new member (1, after '{' or ','), or what
  // follows a value (2: ',' or a closer, or the end at the top level).
  let want = 0;

  for (;;) {
    while (i < n) {
      const w = src[i];
      if (w !== B.Space && w !== B.Lf && w !== B.Cr && w !== B.Tab) break;
      i++;
    }
    if (want === 2) {
      if (depth === 0) {
        if (i !== n) return undefined;
        return out.toString(isAscii(out, o) ? 'latin1' : 'utf8', 0, o);
      }
      if (i >= n) return undefined;
      const d = src[i++];
      const inObject = stack[depth - 1] === 1;
      if (d === B.Comma) {
        const spaces = Math.min(depth, MAX_INDENT_DEPTH) * indent;
        if (o + spaces + 2 > cap) {
          out = grow(out, o, spaces + 2);
          cap = out.length;
        }
        out[o++] = B.Comma;
        out[o++] = B.Lf;
        for (let k = spaces; k > 0; k--) out[o++] = B.Space;
        want = inObject ? 1 : 0;
      } else if (d === (inObject ? B.RBrace : B.RBracket)) {
        depth--;
        const spaces = Math.min(depth, MAX_INDENT_DEPTH) * indent;
        if (o + spaces + 2 > cap) {
          out = grow(out, o, spaces + 2);
          cap = out.length;
        }
        out[o++] = B.Lf;
        for (let k = spaces; k > 0; k--) out[o++] = B.Space;
        out[o++] = d;
      } else return undefined;
      continue;
    }
    if (i >= n) return undefined;
    const c = src[i];
    if (want === 1) {
      // A key, then ':'.
      if (c !== B.Quote) return undefined;
      const end = scanString(src, i, n);
      if (end < 0) return undefined;
      if (o + (end - i) + 2 > cap) {
        out = grow(out, o, end - i + 2);
        cap = out.length;
      }
      if (end - i < 256) for (let k = i; k < end; k++) out[o++] = src[k];
      else o += src.copy(out, o, i, end);
      i = end;
      while (i < n) {
        const w = src[i];
        if (w !== B.Space && w !== B.Lf && w !== B.Cr && w !== B.Tab) break;
        i++;
      }
      if (i >= n || src[i] !== B.Colon) return undefined;
      i++;
      out[o++] = B.Colon;
      out[o++] = B.Space;
      want = 0;
      continue;
    }
    // A value.
    let end: number;
    if (c === B.LBrace || c === B.LBracket) {
      const close = c === B.LBrace ? B.RBrace : B.RBracket;
      i++;
      while (i < n) {
        const w = src[i];
        if (w !== B.Space && w !== B.Lf && w !== B.Cr && w !== B.Tab) break;
        i++;
      }
      if (i < n && src[i] === close) {
        if (o + 2 > cap) {
          out = grow(out, o, 2);
          cap = out.length;
        }
        out[o++] = c;
        out[o++] = close;
        i++;
        want = 2;
        continue;
      }
      if (depth === stack.length) {
        const deeper = new Uint8Array(stack.length * 2);
        deeper.set(stack);
        stack = deeper;
      }
      stack[depth++] = c === B.LBrace ? 1 : 2;
      const spaces = Math.min(depth, MAX_INDENT_DEPTH) * indent;
      if (o + spaces + 2 > cap) {
        out = grow(out, o, spaces + 2);
        cap = out.length;
      }
      out[o++] = c;
      out[o++] = B.Lf;
      for (let k = spaces; k > 0; k--) out[o++] = B.Space;
      want = c === B.LBrace ? 1 : 0;
      continue;
    } else if (c === B.Quote) {
      end = scanString(src, i, n);
      if (end < 0) return undefined;
    } else if (c === 0x74 /* t */) {
      if (src[i + 1] !== 0x72 || src[i + 2] !== 0x75 || src[i + 3] !== 0x65) return undefined;
      end = i + 4;
    } else if (c === 0x66 /* f */) {
      if (src[i + 1] !== 0x61 || src[i + 2] !== 0x6c || src[i + 3] !== 0x73 || src[i + 4] !== 0x65) return undefined;
      end = i + 5;
    } else if (c === 0x6e /* n */) {
      if (src[i + 1] !== 0x75 || src[i + 2] !== 0x6c || src[i + 3] !== 0x6c) return undefined;
      end = i + 4;
    } else {
      end = scanNumber(src, i, n);
      if (end < 0) return undefined;
    }
    if (o + (end - i) > cap) {
      out = grow(out, o, end - i);
      cap = out.length;
    }
    if (end - i < 256) for (let k = i; k < end; k++) out[o++] = src[k];
    else o += src.copy(out, o, i, end);
    i = end;
    want = 2;
  }
}

function grow(out: Buffer, used: number, need: number): Buffer {
  const bigger = Buffer.allocUnsafe(Math.max(2 * out.length, used + need + 64));
  out.copy(bigger, 0, 0, used);
  return bigger;
}

/** The index after the string literal that starts at i (a quote), or -1 when it is not one. */
function scanString(src: Buffer, i: number, n: number): number {
  let j = i + 1;
  for (;;) {
    if (j >= n) return -1;
    const d = src[j];
    if (d === B.Quote) return j + 1;
    if (d === B.Backslash) {
      const e = src[j + 1];
      if (e === 0x75 /* u */) {
        if (j + 5 >= n || (BYTE_CLASS[src[j + 2]] & BYTE_CLASS[src[j + 3]] & BYTE_CLASS[src[j + 4]] & BYTE_CLASS[src[j + 5]] & 2) === 0) return -1;
        j += 6;
      } else if (j + 1 < n && (BYTE_CLASS[e] & 1) !== 0) j += 2;
      else return -1;
    } else if (d < 0x20) return -1;
    else j++;
  }
}

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

/** True when the first `length` bytes are ASCII (then latin1 decodes them to the same text, faster). */
function isAscii(out: Buffer, length: number): boolean {
  if (nativeIsAscii) return nativeIsAscii(out.subarray(0, length));
  for (let k = 0; k < length; k++) if (out[k] >= 0x80) return false;
  return true;
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
  const pad = (depth: number) => '\n' + ' '.repeat(Math.min(depth, MAX_INDENT_DEPTH) * indent);
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
        if (!emptyContainer) out.push(pad(stack.length - 1));
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
