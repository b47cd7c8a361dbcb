// Heights with thousands separators (1,234,567), for any size of bigint. Plain digit grouping:
// the first Intl.NumberFormat costs about 20 ms of ICU loading, most of activation's budget.

export function formatHeight(h: bigint | number | string): string {
  const digits = typeof h === 'string' ? h : h.toString();
  const negative = digits.startsWith('-');
  const body = negative ? digits.slice(1) : digits;
  return (negative ? '-' : '') + body.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
