// The reference JSON formatter (see jsonFormat.ts): on UTF-16 text, one pass, the same grammar and
// the same output as the streaming JsonFormatter, which hands it anything it does not accept; and
// the limits both keep (indentation depth, growth) and their syntax error.

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

/** The reference implementation (see the module comment). */
export function formatText(text: string, indent: number): string {
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

export const OUTPUT_SLACK = 1024 * 1024;
