// Which reported heights cannot be believed. A provider far ahead of its peers is not "the best"
// that makes every honest provider "lagging" (and captures the status bar's failover): it is
// the suspect. Heights probed at the same moment differ by a few blocks; no chain makes a
// thousand blocks between two probes of its nodes. Never imports vscode.

/** Blocks ahead of the median of at least two other providers past which a height is suspect. */
export const SUSPECT_BLOCKS = 1000n;
/**
 * With a single other provider there is no majority: only a lead no real lag explains (a node a
 * million blocks behind is not syncing, it is another network) makes the higher one suspect.
 */
export const IMPLAUSIBLE_BLOCKS = 1_000_000n;

export interface ReportedHeight {
  provider: string;
  height: bigint;
}

/**
 * The providers whose height is implausibly far ahead, each with how far ahead of its reference
 * (the median of the others, or the single other). Each provider counts once (its highest
 * interface), so a hostile provider's several interfaces do not make a majority.
 */
export function suspectProviders(reports: readonly ReportedHeight[]): Map<string, bigint> {
  const best = new Map<string, bigint>();
  for (const r of reports) {
    const h = best.get(r.provider);
    if (h === undefined || r.height > h) best.set(r.provider, r.height);
  }
  const suspects = new Map<string, bigint>();
  for (const [provider, height] of best) {
    const others = [...best]
      .filter(([p]) => p !== provider)
      .map(([, h]) => h)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (others.length === 0) continue;
    const reference = others[(others.length - 1) >> 1]; // the lower median
    const ahead = height - reference;
    if (ahead > (others.length >= 2 ? SUSPECT_BLOCKS : IMPLAUSIBLE_BLOCKS)) suspects.set(provider, ahead);
  }
  return suspects;
}
