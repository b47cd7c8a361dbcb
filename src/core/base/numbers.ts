// Numbers for people: heights with thousands separators (1,234,567) for any size of bigint, byte
// counts and durations. Plain digit grouping: the first Intl.NumberFormat costs about 20 ms of ICU
// loading, most of activation's budget.

export function formatHeight(h: bigint | number | string): string {
  const digits = typeof h === 'string' ? h : h.toString();
  const negative = digits.startsWith('-');
  const body = negative ? digits.slice(1) : digits;
  if (!/^\d+$/.test(body)) return digits;
  // One pass over the bytes (digits are ASCII): no regular expression, no array of pieces.
  // Linear in the number of digits (a regular expression with a lookahead was quadratic: a
  // 100 KB number froze the extension host for 31 s).
  const n = body.length;
  const out = Buffer.allocUnsafe(n + Math.floor((n - 1) / 3));
  let o = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && (n - i) % 3 === 0) out[o++] = 0x2c;
    out[o++] = body.charCodeAt(i);
  }
  return (negative ? '-' : '') + out.toString('latin1');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
