// Classifying probe results: each interface's window summarised (latency percentiles, success
// rate), then judged against the best of its family (consensus heights together, EVM heights
// together): healthy, lagging, down, wrong chain, rate-limited or suspect (a height implausibly far
// ahead); then ranked for failover. Everything is judged within one network (config/networks.ts):
// another network's heights, chain ids and latencies never count. Pure: no I/O.

import { DNS_CODES, REFUSED_CODES, TIMEOUT_CODES, isTlsCode } from '../base/errors';
import * as l10n from '../base/l10n';
import { discoveredChains, groupNetworks } from '../config/networks';
import { INTERFACES, type InterfaceId, type Provider } from '../config/providers';
import { suspectProviders } from './heightPlausibility';
import { FAMILY, type Family, type InterfaceHealth, type ProbeFailure, type ProbeResult } from './model';

export const LAG_BLOCKS = 2n;

export const SLOW_MS = 600;

/** Expected chain identities, optional per provider (`chainId`, `evmChainId` in settings). */
export interface ExpectedChain {
  chainId?: string;
  evmChainId?: string;
}

export function percentile(sorted: number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i];
}

export function summarize(provider: string, iface: InterfaceId, history: readonly ProbeResult[], now: number): InterfaceHealth {
  const last = history.at(-1);
  const latencies = history
    .filter((r) => r.ok && r.latencyMs !== undefined)
    .map((r) => r.latencyMs!)
    .sort((a, b) => a - b);
  const failed = [...history].reverse().find((r) => !r.ok);
  const chainId = [...history].reverse().find((r) => r.ok && r.chainId !== undefined)?.chainId;
  return {
    provider,
    iface,
    state: 'unknown',
    last,
    lastError: failed?.error ? { message: failed.error, at: failed.at } : undefined,
    medianMs: percentile(latencies, 0.5),
    p90Ms: percentile(latencies, 0.9),
    successRate: history.length ? history.filter((r) => r.ok).length / history.length : undefined,
    samples: history.length,
    ...(chainId !== undefined ? { chainId } : {}),
    ...(last?.rateLimitedUntil && last.rateLimitedUntil > now ? { state: 'rateLimited' as const, reason: l10n.t('429 rate-limited') } : {}),
  };
}

export function majority(values: (string | undefined)[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  let n = 0;
  for (const [v, c] of counts) if (c > n) [best, n] = [v, c];
  return best;
}

/** Sets network, state, behind, slowerMs, crossCheck, rank and score on every row, network by network. */
export function classify(rows: InterfaceHealth[], providers: readonly Provider[], expected: (p: Provider) => ExpectedChain, now: number): void {
  for (const network of groupNetworks(providers, discoveredChains(rows))) {
    const names = new Set(network.providers.map((p) => p.name));
    const members = rows.filter((r) => names.has(r.provider));
    for (const r of members) r.network = network.key;
    classifyNetwork(members, network.providers, expected);
    rank(members, now);
  }
  crossCheck(rows);
}

/** Classifies the rows of one network's providers. */
function classifyNetwork(rows: InterfaceHealth[], providers: readonly Provider[], expected: (p: Provider) => ExpectedChain): void {
  const byName = new Map(providers.map((p) => [p.name, p]));
  for (const family of ['consensus', 'evm'] as Family[]) {
    const members = rows.filter((r) => FAMILY[r.iface] === family);
    const usable = members.filter((r) => r.last?.ok);
    const expectedOf = (r: InterfaceHealth) => {
      const e = expected(byName.get(r.provider)!);
      return family === 'evm' ? e.evmChainId?.toLowerCase() : e.chainId;
    };
    const chainMajority = majority(usable.map((r) => r.last!.chainId));
    for (const r of members) {
      if (r.state === 'rateLimited') continue;
      if (!r.last) {
        r.state = 'unknown';
        r.reason = l10n.t('not probed yet');
      } else if (!r.last.ok) {
        r.state = 'down';
        r.reason = shortReason(r.last.error ?? l10n.t('error'), r.last.failure);
      } else {
        const want = expectedOf(r) ?? chainMajority;
        if (want !== undefined && r.last.chainId !== undefined && r.last.chainId !== want) {
          r.state = 'wrongChain';
          r.reason = l10n.t('wrong chain: {0} (expected {1})', r.last.chainId, want);
        }
      }
    }
    // A height far ahead of the others is the suspect, never the best the others lag behind.
    const suspects = suspectProviders(
      usable.filter((r) => r.state !== 'wrongChain' && r.last!.height !== undefined).map((r) => ({ provider: r.provider, height: r.last!.height! })),
    );
    for (const r of usable) {
      const ahead = suspects.get(r.provider);
      if (ahead === undefined || r.state === 'wrongChain' || r.state === 'rateLimited') continue;
      r.state = 'suspect';
      r.reason = l10n.t('suspect height: {0} blocks ahead of the other providers, more than their heights and block time allow', String(ahead));
    }
    const sameChain = usable.filter((r) => r.state !== 'wrongChain' && r.state !== 'suspect');
    const heights = sameChain.filter((r) => r.last!.height !== undefined).map((r) => r.last!.height!);
    const best = heights.reduce<bigint | undefined>((m, h) => (m === undefined || h > m ? h : m), undefined);
    const fastest = Math.min(...sameChain.map((r) => r.last!.latencyMs ?? Infinity));
    for (const r of sameChain) {
      if (r.state === 'rateLimited') continue;
      const h = r.last!.height;
      r.behind = best !== undefined && h !== undefined ? best - h : undefined;
      r.slowerMs = Number.isFinite(fastest) && r.last!.latencyMs !== undefined ? Math.round(r.last!.latencyMs - fastest) : undefined;
      const lagging = (r.behind ?? 0n) > LAG_BLOCKS || (r.slowerMs ?? 0) > SLOW_MS;
      r.state = lagging ? 'lagging' : 'healthy';
      r.reason = lagging ? ((r.behind ?? 0n) > LAG_BLOCKS ? l10n.t('{0} behind', String(r.behind)) : l10n.t('{0} ms slower', String(r.slowerMs))) : undefined;
    }
  }
}

/** Flags an interface more than LAG_BLOCKS behind the provider's other interfaces. */
export function crossCheck(rows: InterfaceHealth[]): void {
  const byProvider = new Map<string, InterfaceHealth[]>();
  for (const r of rows) byProvider.set(r.provider, [...(byProvider.get(r.provider) ?? []), r]);
  for (const list of byProvider.values()) {
    const heights = list.filter((r) => r.last?.ok && r.last.height !== undefined && r.state !== 'wrongChain' && r.state !== 'suspect');
    if (heights.length < 2) continue;
    const top = heights.reduce((m, r) => (r.last!.height! > m ? r.last!.height! : m), 0n);
    for (const r of heights) {
      const gap = top - r.last!.height!;
      if (gap > LAG_BLOCKS) r.crossCheck = l10n.t("{0} blocks behind this provider's other interfaces", String(gap));
    }
  }
}

/** Score = 0.7 x success rate + 0.3 x (fastest median / own median), among interfaces within LAG_BLOCKS of the best. */
export function rank(rows: InterfaceHealth[], _now: number): void {
  for (const iface of INTERFACES) {
    const same = rows.filter((r) => r.iface === iface);
    const eligible = same.filter((r) => (r.state === 'healthy' || (r.state === 'lagging' && (r.behind ?? 0n) <= LAG_BLOCKS)) && r.medianMs !== undefined);
    const fastest = Math.min(...eligible.map((r) => r.medianMs!));
    for (const r of eligible) {
      r.score = 0.7 * (r.successRate ?? 0) + 0.3 * (r.medianMs! > 0 ? Math.min(1, fastest / r.medianMs!) : 1);
    }
    eligible.sort((a, b) => b.score! - a.score!).forEach((r, i) => (r.rank = i + 1));
  }
}

/**
 * The short phrase for a failed probe. Classified by what failed (kind, code, status), never by
 * reading our own sentence, which may be translated; the server's or the library's own words
 * (never translated) are read only when those say nothing.
 */
export function shortReason(error: string, failure: ProbeFailure | undefined): string {
  const code = typeof failure?.code === 'string' ? failure.code : undefined;
  const status = failure?.status;
  if (status === 429) return l10n.t('429 rate-limited');
  if (code && REFUSED_CODES.has(code)) return l10n.t('refused');
  if (failure?.kind === 'timeout' || (code && TIMEOUT_CODES.has(code))) return l10n.t('timeout');
  if (code && DNS_CODES.has(code)) return l10n.t('DNS failure');
  if (code && isTlsCode(code)) return l10n.t('TLS error');
  if (/\b429\b/.test(error)) return l10n.t('429 rate-limited');
  if (/timed out/.test(error)) return l10n.t('timeout');
  if (status !== undefined && (status < 200 || status >= 300)) return `HTTP ${status}`;
  return error.length > 40 ? `${error.slice(0, 40)}…` : error;
}
