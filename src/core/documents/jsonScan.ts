// The byte-level pieces of the streaming formatter (jsonFormat.ts): byte names, the escape table,
// and the scanners for a string, a literal and a number in a piece of UTF-8 (each returns where the
// token ends, INCOMPLETE when the piece ends inside it, or -1 when it is not JSON).

export const enum B {
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

/** A token cut by the end of a piece: it is completed by the next piece. */
export const INCOMPLETE = -2;

/** 1 for the bytes allowed after a backslash (other than u), 2 for hex digits. */
export const BYTE_CLASS = new Uint8Array(256);
for (const c of '"\\/bfnrt') BYTE_CLASS[c.charCodeAt(0)] = 1;
for (const c of '0123456789abcdefABCDEF') BYTE_CLASS[c.charCodeAt(0)] |= 2;

export const EMPTY = Buffer.alloc(0);

/** The index after the string literal that starts at i (a quote); -1 when it is not one, INCOMPLETE when cut. */
export function scanString(src: Buffer, i: number, n: number): number {
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
export function scanLiteral(src: Buffer, i: number, n: number): number {
  const word = src[i] === 0x74 ? TRUE : src[i] === 0x66 ? FALSE : NULL;
  for (let k = 1; k < word.length; k++) {
    if (i + k >= n) return INCOMPLETE;
    if (src[i + k] !== word[k]) return -1;
  }
  return i + word.length;
}

export const TRUE = Buffer.from('true');

export const FALSE = Buffer.from('false');

export const NULL = Buffer.from('null');

/** The end of the number at i, as /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y matches it; -1 when none. */
export function scanNumber(src: Buffer, i: number, n: number): number {
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
