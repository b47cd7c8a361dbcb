// Heights with thousands separators (1,234,567), for any size of bigint. Plain digit grouping:
// the first Intl.NumberFormat costs about 20 ms of ICU loading, most of activation's budget.
// Linear in the number of digits (a regular expression with a lookahead was quadratic: a
// 100 KB number froze the extension host for 31 s).

export function formatHeight(h: bigint | number | string): string {
  const digits = typeof h === 'string' ? h : h.toString();
  const negative = digits.startsWith('-');
  const body = negative ? digits.slice(1) : digits;
  if (!/^\d+$/.test(body)) return digits;
  const parts: string[] = [];
  const first = body.length % 3 || 3;
  parts.push(body.slice(0, first));
  for (let i = first; i < body.length; i += 3) parts.push(body.slice(i, i + 3));
  return (negative ? '-' : '') + parts.join(',');
}
