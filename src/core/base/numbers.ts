// Numbers for people: heights with thousands separators (1,234,567) for any size of bigint, byte
// counts and durations. Plain digit grouping: the first Intl.NumberFormat costs about 20 ms of ICU
// loading, most of activation's budget.

export function formatHeight(h: bigint | number | string): string {
  const digits = typeof h === 'string' ? h : h.toString();
  const negative = digits.startsWith('-');
  const body = negative ? digits.slice(1) : digits;
  return (negative ? '-' : '') + body.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
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
