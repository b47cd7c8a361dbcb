// What health remembers over the session, beyond the probe window (health.ts): when each
// interface last reported a new height (a `stale` state when it has not for many block intervals,
// or STALE_MAX_MS), its error streak and cooldown (a failing interface is probed less often, and
// says when it will be tried again), and a bounded history of height, latency and state per
// interface for the Compare view's charts. Pure bookkeeping: the caller passes the clock.

import * as l10n from '../base/l10n';
import type { InterfaceId } from '../config/providers';
import type { HealthState, InterfaceHealth } from './model';

/** cosmos.directory's rule: a node whose last block is over 30 minutes old is stale. */
export const STALE_MAX_MS = 30 * 60_000;
/** ...and sooner, when the chain's own blocks show it: this many block intervals without a new block. */
export const STALE_BLOCK_INTERVALS = 20;
/** Never stale sooner than this (a slow chain, or two probes close together). */
export const STALE_MIN_MS = 60_000;
/** Cooldown after the second failure in a row, doubled with each further failure, up to COOLDOWN_MAX_MS. */
export const COOLDOWN_BASE_MS = 30_000;
export const COOLDOWN_MAX_MS = 10 * 60_000;
/** Points kept per interface for the session's charts (oldest dropped first). */
export const HISTORY_POINTS = 360;

export interface HistoryPoint {
  at: number;
  /** Decimal string (heights can pass 2^53). */
  height?: string;
  behind?: number;
  latencyMs?: number;
  state: HealthState;
}

interface Track {
  height?: bigint;
  since: number;
  streak: number;
  retryAt?: number;
  lastAt?: number;
  points: HistoryPoint[];
}

export class HealthSession {
  private readonly tracks = new Map<string, Track>();

  constructor(private readonly limit = HISTORY_POINTS) {}

  /** False while the interface is cooling down: the probe is skipped. */
  shouldProbe(provider: string, iface: InterfaceId, now: number): boolean {
    const t = this.tracks.get(key(provider, iface));
    return !t?.retryAt || t.retryAt <= now;
  }

  /**
   * Reads the assessed rows once per refresh: new heights, streaks and cooldowns, the `stale`
   * state, and one history point per interface whose probe is new. Mutates the rows.
   */
  apply(rows: InterfaceHealth[], now: number): void {
    const interval = blockIntervalMs(rows, this.tracks);
    for (const r of rows) {
      const k = key(r.provider, r.iface);
      let t = this.tracks.get(k);
      if (!t) this.tracks.set(k, (t = { since: now, streak: 0, points: [] }));
      const last = r.last;
      const fresh = last !== undefined && last.at !== t.lastAt;
      if (fresh) {
        t.lastAt = last.at;
        if (last.ok) {
          t.streak = 0;
          t.retryAt = undefined;
          if (last.height !== undefined && (t.height === undefined || last.height > t.height)) {
            t.height = last.height;
            // The node's own block time when it reports one: a node two hours behind is stale at its first probe.
            t.since = last.blockTime !== undefined ? Math.min(last.at, last.blockTime) : last.at;
          }
        } else {
          t.streak++;
          t.retryAt = t.streak >= 2 ? last.at + Math.min(COOLDOWN_MAX_MS, COOLDOWN_BASE_MS * 2 ** (t.streak - 2)) : undefined;
        }
      }
      r.errorStreak = t.streak || undefined;
      r.retryAt = t.retryAt && t.retryAt > now ? t.retryAt : undefined;
      if (t.height !== undefined) r.heightSince = t.since;
      // Stale: answering, but no new block for too long (a frozen node still answers its old height).
      const limit = Math.min(STALE_MAX_MS, Math.max(STALE_MIN_MS, interval !== undefined ? interval * STALE_BLOCK_INTERVALS : STALE_MAX_MS));
      if (last?.ok && t.height !== undefined && now - t.since > limit && r.state !== 'wrongChain' && r.state !== 'rateLimited') {
        r.state = 'stale';
        r.reason = l10n.t('stale: no new block for {0}', minutes(now - t.since));
        r.rank = undefined;
        r.score = undefined;
      }
      if (fresh) {
        t.points.push({
          at: last.at,
          height: last.height?.toString(),
          behind: r.behind === undefined ? undefined : Number(r.behind),
          latencyMs: last.latencyMs === undefined ? undefined : Math.round(last.latencyMs),
          state: r.state,
        });
        if (t.points.length > this.limit) t.points.splice(0, t.points.length - this.limit);
      }
    }
  }

  history(provider: string, iface: InterfaceId): readonly HistoryPoint[] {
    return this.tracks.get(key(provider, iface))?.points ?? [];
  }

  /** Every interface's history, keyed `provider\u0000iface`. */
  all(): ReadonlyMap<string, readonly HistoryPoint[]> {
    return new Map([...this.tracks].map(([k, t]) => [k, t.points]));
  }

  /** Forgets what is no longer configured. */
  retain(keys: ReadonlySet<string>): void {
    for (const k of [...this.tracks.keys()]) if (!keys.has(k)) this.tracks.delete(k);
  }
}

export function key(provider: string, iface: InterfaceId): string {
  return `${provider}\u0000${iface}`;
}

/** The chain's block interval as seen this session: the fastest advance of any interface's history. */
function blockIntervalMs(rows: readonly InterfaceHealth[], tracks: ReadonlyMap<string, Track>): number | undefined {
  let best: number | undefined;
  for (const r of rows) {
    const pts = tracks.get(key(r.provider, r.iface))?.points.filter((p) => p.height !== undefined);
    if (!pts || pts.length < 2) continue;
    const a = pts[0];
    const b = pts[pts.length - 1];
    const blocks = Number(BigInt(b.height!) - BigInt(a.height!));
    if (blocks <= 0 || b.at <= a.at) continue;
    const ms = (b.at - a.at) / blocks;
    if (best === undefined || ms < best) best = ms;
  }
  return best;
}

function minutes(ms: number): string {
  const m = Math.floor(ms / 60_000);
  return m >= 1 ? l10n.t('{0} min', m) : l10n.t('{0} s', Math.round(ms / 1000));
}
