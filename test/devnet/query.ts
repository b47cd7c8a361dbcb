// CometBFT's event query language, reduced to what a devnet needs:
// `cond AND cond ...`, operators = < <= > >= CONTAINS EXISTS, 'strings', numbers, no OR.

export interface Condition {
  key: string;
  op: '=' | '<' | '<=' | '>' | '>=' | 'CONTAINS' | 'EXISTS';
  value?: string;
  isNumber?: boolean;
}

export type Query = Condition[];

const TOKEN = /\s*(?:(AND)\b|(EXISTS)\b|(CONTAINS)\b|(<=|>=|=|<|>)|'([^']*)'|(-?\d+(?:\.\d+)?)(?![\w.])|((?:TIME|DATE)\s+\S+)|([A-Za-z_][\w.-]*))/y;

export function parseQuery(text: string): Query {
  const tokens: Array<{ kind: string; text: string; at?: number }> = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  const src = text.trim();
  while (pos < src.length) {
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(src);
    if (!m) throw new Error(`parse error near "${src.slice(pos, pos + 16)}" (offset ${pos})`);
    pos = TOKEN.lastIndex;
    const at = m.index + (m[0].length - m[0].trimStart().length);
    if (m[1]) tokens.push({ kind: 'and', text: 'AND' });
    else if (m[2]) tokens.push({ kind: 'op', text: 'EXISTS' });
    else if (m[3]) tokens.push({ kind: 'op', text: 'CONTAINS' });
    else if (m[4]) tokens.push({ kind: 'op', text: m[4], at });
    else if (m[5] !== undefined) tokens.push({ kind: 'str', text: m[5] });
    else if (m[6]) tokens.push({ kind: 'num', text: m[6] });
    else if (m[7]) tokens.push({ kind: 'str', text: m[7].replace(/^(TIME|DATE)\s+/, '') });
    else if (m[8]) tokens.push({ kind: 'tag', text: m[8] });
  }
  if (tokens.length === 0) throw new Error('empty query');
  const out: Query = [];
  let i = 0;
  for (;;) {
    const tag = tokens[i++];
    const op = tokens[i++];
    if (!tag || tag.kind !== 'tag' || !op || op.kind !== 'op') throw new Error(`unexpected token at condition ${out.length + 1}`);
    if (op.text === 'EXISTS') out.push({ key: tag.text, op: 'EXISTS' });
    else {
      const v = tokens[i++];
      // CometBFT's syntax parser: "offset 10: got = operator, wanted number, timestamp, datestamp or string".
      if (v && v.kind === 'op' && v.at !== undefined) throw new Error(`offset ${v.at}: got ${v.text} operator, wanted number, timestamp, datestamp or string`);
      if (!v || (v.kind !== 'str' && v.kind !== 'num')) throw new Error(`missing value for ${tag.text}`);
      if (op.text === 'CONTAINS' && v.kind !== 'str') throw new Error('CONTAINS needs a string');
      out.push({
        key: tag.text,
        op: op.text as Condition['op'],
        value: v.text,
        isNumber: v.kind === 'num',
      });
    }
    if (i >= tokens.length) break;
    if (tokens[i++].kind !== 'and') throw new Error('expected AND (OR is not supported)');
  }
  return out;
}

export function matches(q: Query, events: Record<string, string[]>): boolean {
  return q.every((c) => {
    const values = events[c.key];
    if (!values || values.length === 0) return false;
    if (c.op === 'EXISTS') return true;
    return values.some((v) => test(c, v));
  });
}

function test(c: Condition, v: string): boolean {
  if (c.op === 'CONTAINS') return v.includes(String(c.value));
  if (!c.isNumber && c.op === '=') return v === c.value;
  const cmp = compareNumeric(v, String(c.value));
  if (cmp === undefined) return false;
  switch (c.op) {
    case '=':
      return cmp === 0;
    case '<':
      return cmp < 0;
    case '<=':
      return cmp <= 0;
    case '>':
      return cmp > 0;
    case '>=':
      return cmp >= 0;
    default:
      return false;
  }
}

/** Compares integers exactly (heights may exceed 2^53), other numbers as floats. */
function compareNumeric(a: string, b: string): number | undefined {
  const int = /^-?\d+$/;
  if (int.test(a) && int.test(b)) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x === y ? 0 : x < y ? -1 : 1;
  }
  const x = Number(a);
  const y = Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return undefined;
  return x === y ? 0 : x < y ? -1 : 1;
}

/** The equality value the query requires for `key`, if any (used to narrow searches). */
export function equalityValue(q: Query, key: string): string | undefined {
  const c = q.find((x) => x.key === key && x.op === '=');
  return c ? String(c.value) : undefined;
}
