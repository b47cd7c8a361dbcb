// Shape comparison of two JSON values: same keys recursively, same JSON value types, and
// compatible string encodings (decimal int64 strings, UPPERCASE hex without 0x, 0x-hex,
// base64, RFC 3339 times). Values themselves are not compared. Returns one line per
// difference, each naming its path, e.g. `$.result.block.header.version: keys only in real: app`.

export type Encoding = 'empty' | 'decimal' | 'hexUpper' | 'hexLower' | 'hex0x' | 'base64' | 'time' | 'text';

/** Every encoding a string could be in (a string of digits is decimal and hex and maybe base64). */
export function encodings(s: string): Set<Encoding> {
  const out = new Set<Encoding>();
  if (s === '') {
    // Empty bytes are "" in every byte encoding.
    for (const e of ['empty', 'hexUpper', 'hexLower', 'base64', 'text'] as const) out.add(e);
    return out;
  }
  if (/^-?\d+$/.test(s)) out.add('decimal');
  if (/^0x[0-9a-f]*$/.test(s)) out.add('hex0x');
  if (/^[0-9A-F]+$/.test(s) && s.length % 2 === 0) out.add('hexUpper');
  if (/^[0-9a-f]+$/.test(s) && s.length % 2 === 0) out.add('hexLower');
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(s) && s.length % 4 === 0) out.add('base64');
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(s)) out.add('time');
  if (out.size === 0) out.add('text');
  return out;
}

/** Strings that are free text (an app's words), whatever they happen to look like. */
const FREE_TEXT = [/\.attributes\[\]\.(key|value)$/, /^\$\.result\.events\.[^.]+\[\]$/, /\.(log|info|moniker|chain_id|network|codespace)$/];

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export interface ShapeOptions {
  /** Paths (with `[]` for array elements) whose subtree is not compared. */
  ignore?: string[];
  /** Paths where keys present only on the real side are acceptable (documented differences). */
  extraRealKeysOk?: Record<string, string[]>;
  /** Paths whose keys are free-form (maps such as event attributes): only value shapes are compared. */
  labelA?: string;
  labelB?: string;
}

/** Differences between `a` (devnet) and `b` (real node). Empty when the shapes agree. */
export function shapeDiff(a: unknown, b: unknown, options: ShapeOptions = {}, at = '$'): string[] {
  const A = options.labelA ?? 'devnet';
  const B = options.labelB ?? 'real';
  const norm = at.replace(/\[\d+\]/g, '[]');
  if (options.ignore?.includes(norm)) return [];
  const ka = kind(a);
  const kb = kind(b);
  if (ka !== kb) return [`${at}: ${A} has ${describe(a)}, ${B} has ${describe(b)}`];
  if (ka === 'string') {
    if (FREE_TEXT.some((re) => re.test(norm))) return [];
    const ea = encodings(a as string);
    const eb = encodings(b as string);
    const common = [...ea].some((e) => eb.has(e));
    return common ? [] : [`${at}: encoding differs: ${A} ${describe(a)} [${[...ea].join('|')}], ${B} ${describe(b)} [${[...eb].join('|')}]`];
  }
  if (ka === 'array') {
    const xa = a as unknown[];
    const xb = b as unknown[];
    const out: string[] = [];
    if (xa.length === xb.length) {
      // Same length: element by element (batches, event lists).
      for (let i = 0; i < xa.length; i++) out.push(...shapeDiff(xa[i], xb[i], options, `${at}[${i}]`));
    } else if (xa.length && xb.length) {
      // Element shapes: every element of each side against the first element of the other.
      for (let i = 0; i < xa.length; i++) out.push(...shapeDiff(xa[i], xb[0], options, `${at}[${i}]`));
      for (let i = 1; i < xb.length; i++) out.push(...shapeDiff(xa[0], xb[i], options, `${at}[${i}]`));
    }
    return dedupe(out);
  }
  if (ka === 'object') {
    const oa = a as Record<string, unknown>;
    const ob = b as Record<string, unknown>;
    const onlyA = Object.keys(oa).filter((k) => !(k in ob));
    const okExtra = options.extraRealKeysOk?.[norm] ?? [];
    const onlyB = Object.keys(ob).filter((k) => !(k in oa) && !okExtra.includes(k));
    const out: string[] = [];
    if (onlyA.length) out.push(`${at}: keys only in ${A}: ${onlyA.join(', ')}`);
    if (onlyB.length) out.push(`${at}: keys only in ${B}: ${onlyB.join(', ')}`);
    for (const k of Object.keys(oa)) if (k in ob) out.push(...shapeDiff(oa[k], ob[k], options, `${at}.${k}`));
    return out;
  }
  return [];
}

function dedupe(lines: string[]): string[] {
  const seen = new Set<string>();
  return lines.filter((l) => {
    const key = l.replace(/\[\d+\]/g, '[]');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function describe(v: unknown): string {
  const k = kind(v);
  if (k === 'string') {
    const s = v as string;
    return JSON.stringify(s.length > 40 ? s.slice(0, 37) + '...' : s);
  }
  if (k === 'object')
    return `an object {${Object.keys(v as object)
      .slice(0, 6)
      .join(',')}}`;
  if (k === 'array') return `an array (${(v as unknown[]).length})`;
  return `${k} ${JSON.stringify(v)}`;
}
