// "Did you mean …?": the closest of a few candidates to a mistyped word (an operation id, a key, a
// command-line option), by edit distance, case-insensitive; none when nothing is close.

/** Levenshtein distance, stopping early once past `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** The candidate closest to `word` (within a third of its length, at least 2 edits), or undefined. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  const max = Math.max(2, Math.floor(w.length / 3));
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const c of candidates) {
    const lc = c.toLowerCase();
    const d = lc === w ? 0 : lc.startsWith(w) || w.startsWith(lc) ? Math.min(distance(w, lc, max), 1) : distance(w, lc, max);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** ` Did you mean "x"?`, or '' when nothing is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const c = closest(word, candidates);
  return c === undefined ? '' : ` Did you mean "${c}"?`;
}
