// The status bar's policy, without the editor: which provider's block height to follow. A primary
// feed follows the configured provider. When that provider is unreachable, stalled, failing its
// polls, on another chain or lagging, and the bar is not pinned, a fallback feed follows the
// best-ranked healthy provider (a WebSocket one first) until the configured one is live again; the
// primary keeps running in the background to notice. The height shown never goes down while the
// configured provider stays the same, except when it is dropped for a suspect height (then the
// fallback's own height is shown). A fallback is always a provider of the configured provider's
// network (the rows' `network`, config/networks.ts): the bar never shows another chain's height.
// Feeds are HeightTrackers in the editor and fakes in tests.

import type { Message } from '../base/l10n';
import * as l10n from '../base/l10n';
import type { HeightSnapshot } from '../chain/heightTracker';
import { type InterfaceId, type Provider, providerNamed } from '../config/providers';
import type { InterfaceHealth } from './model';
import { ranked } from './rank';

/** A running height feed (a HeightTracker): started by `startFeed`, disposed by the follower. */
export interface HeightFeed {
  snapshot(): HeightSnapshot;
  reconnect(): void;
  dispose(): void;
}

export interface FollowerDeps {
  /** Starts a feed for `provider` (`pollOnly`: no WebSocket), calling `onChange` on every change. */
  startFeed(provider: Provider, pollOnly: boolean, onChange: (s: HeightSnapshot) => void): HeightFeed;
  /** The configured providers now. */
  providers(): readonly Provider[];
  /** The health row of one interface, when probed. */
  healthOf(provider: string, iface: InterfaceId): InterfaceHealth | undefined;
  /** Probes these providers again; resolves to every row. */
  refreshHealth(names: readonly string[]): Promise<readonly InterfaceHealth[]>;
  /** True when the user pinned the bar to the configured provider. */
  pinned(): boolean;
  log(level: 'info' | 'warn', message: string): void;
  /** How often the unwell primary is probed again while a fallback is followed (ms). */
  recheckMs?: number;
}

/** What the bar shows: the provider followed, its snapshot and, while failed over, why. */
export interface FollowView {
  configured: Provider;
  following: Provider;
  snapshot: HeightSnapshot;
  /** The highest height shown since the configured provider was chosen. */
  height?: bigint;
  /** Set while a fallback is followed: why the configured provider is not. */
  reason?: Message;
}

interface Feed {
  provider: Provider;
  feed: HeightFeed;
}

/** Picks the provider the status bar follows: the named one, else the first with a WebSocket. */
export function chooseStatusProvider(providers: readonly Provider[], wanted: string): Provider | undefined {
  if (wanted) {
    const named = providerNamed(providers, wanted);
    if (named && (named.endpoints.consensusWs || named.endpoints.consensusHttp)) return named;
  }
  return providers.find((p) => p.endpoints.consensusWs) ?? providers.find((p) => p.endpoints.consensusHttp);
}

export class HeightFollower {
  private primary?: Feed;
  private fallback?: Feed & { reason: Message };
  private recheck?: NodeJS.Timeout;
  private choosing = false;
  private shownHeight?: bigint;
  private disposed = false;

  constructor(
    private readonly deps: FollowerDeps,
    /** Called with what to show after every change (and with every new, higher height). */
    private readonly onView: (view: FollowView, newHeight: boolean) => void,
  ) {}

  /** Follows `provider` from scratch (feeds restarted, shown height forgotten). */
  follow(provider: Provider): void {
    this.stop();
    this.disposed = false;
    this.primary = {
      provider,
      feed: this.deps.startFeed(provider, false, () => {
        if (!this.fallback) this.emit();
        void this.evaluate();
      }),
    };
    this.emit();
  }

  get view(): FollowView | undefined {
    const current = this.fallback ?? this.primary;
    if (!current || !this.primary) return undefined;
    return {
      configured: this.primary.provider,
      following: current.provider,
      snapshot: current.feed.snapshot(),
      height: this.shownHeight,
      reason: this.fallback?.reason,
    };
  }

  reconnect(): void {
    this.primary?.feed.reconnect();
    this.fallback?.feed.reconnect();
  }

  /** Why the provider of `feed` should not be followed now, or undefined when it is fine. */
  problemOf(feed: Feed): Message | undefined {
    const s = feed.feed.snapshot();
    const name = feed.provider.name;
    if (s.state === 'reconnecting') return s.detail ? l10n.both('{0} is unreachable ({1})', name, s.detail) : l10n.both('{0} is unreachable', name);
    if (s.state === 'stalled') return s.detail ? l10n.both('no new block from {0} ({1})', name, s.detail) : l10n.both('no new block from {0}', name);
    if (s.state === 'polling' && s.pollFailed)
      return s.detail ? l10n.both('{0} does not answer ({1})', name, s.detail) : l10n.both('{0} does not answer', name);
    const h = this.deps.healthOf(name, feed.provider.endpoints.consensusWs ? 'consensusWs' : 'consensusHttp');
    if (h?.state === 'suspect') return l10n.both('{0} reports a suspect height ({1})', name, `${h.reason}`);
    if (h?.state === 'wrongChain') return l10n.both('{0} serves another chain ({1})', name, `${h.last?.chainId}`);
    if (h?.state === 'lagging' && (h.behind ?? 0n) > 2n) return l10n.both('{0} is {1} blocks behind the best provider', name, `${h.behind}`);
    return undefined;
  }

  /** Re-evaluates the policy: fail over, stay, or come back. Called on every feed and health change. */
  async evaluate(): Promise<void> {
    const primary = this.primary;
    if (!primary || this.choosing) return;
    const pinned = this.deps.pinned();
    const problem = this.problemOf(primary);
    if (pinned || !problem) {
      if (this.fallback && (pinned || primary.feed.snapshot().state === 'live'))
        this.dropFallback(pinned ? 'pinned' : `${primary.provider.name} is healthy again`);
      return;
    }
    if (this.fallback && !this.problemOf(this.fallback)) {
      this.fallback.reason = problem;
      return;
    }
    this.choosing = true;
    try {
      await this.failOver(primary, problem);
    } finally {
      this.choosing = false;
    }
  }

  private async failOver(primary: Feed, problem: Message): Promise<void> {
    const exclude = new Set([primary.provider.name, this.fallback?.provider.name]);
    const providers = this.deps.providers().filter((p) => !exclude.has(p.name) && (p.endpoints.consensusWs || p.endpoints.consensusHttp));
    if (providers.length === 0) return;
    const rows = await this.deps.refreshHealth(providers.map((p) => p.name));
    if (this.primary !== primary) return; // restarted meanwhile
    const network = networkOfPrimary(rows, primary.provider.name);
    const healthy = (iface: 'consensusWs' | 'consensusHttp') => ranked(rows, iface, network).filter((r) => r.state === 'healthy' && !exclude.has(r.provider));
    const ws = healthy('consensusWs')[0];
    const choice = ws ?? healthy('consensusHttp')[0];
    if (!choice) {
      this.deps.log('warn', `${problem.english}; no healthy provider to fail over to`);
      return;
    }
    const provider = providers.find((p) => p.name === choice.provider)!;
    // A suspect height (implausibly far ahead) is not to be trusted: show the fallback's own, even if lower.
    if (this.deps.healthOf(primary.provider.name, primary.provider.endpoints.consensusWs ? 'consensusWs' : 'consensusHttp')?.state === 'suspect')
      this.shownHeight = undefined;
    this.fallback?.feed.dispose();
    const fallback = { provider, reason: problem } as Feed & { reason: Message };
    fallback.feed = this.deps.startFeed(provider, !ws, () => {
      if (this.fallback === fallback) this.emit();
      void this.evaluate();
    });
    this.fallback = fallback;
    this.deps.log('warn', `${problem.english}: following ${provider.name} until ${primary.provider.name} is healthy again`);
    this.emit();
    this.recheck ??= setInterval(() => {
      if (this.primary) void this.deps.refreshHealth([this.primary.provider.name, ...(this.fallback ? [this.fallback.provider.name] : [])]);
    }, this.deps.recheckMs ?? 10_000);
  }

  private dropFallback(why: string): void {
    if (!this.fallback) return;
    this.deps.log('info', `back to ${this.primary?.provider.name}: ${why}`);
    this.fallback.feed.dispose();
    this.fallback = undefined;
    this.clearRecheck();
    this.emit();
  }

  private emit(): void {
    const view = this.view;
    if (!view || this.disposed) return;
    const h = view.snapshot.height;
    const higher = h !== undefined && (this.shownHeight === undefined || h > this.shownHeight);
    if (higher) this.shownHeight = h;
    this.onView({ ...view, height: this.shownHeight }, higher);
  }

  private clearRecheck(): void {
    if (this.recheck) clearInterval(this.recheck);
    this.recheck = undefined;
  }

  /** Stops every feed (follow() starts again). */
  stop(): void {
    this.disposed = true;
    this.clearRecheck();
    this.fallback?.feed.dispose();
    this.fallback = undefined;
    this.primary?.feed.dispose();
    this.primary = undefined;
    this.shownHeight = undefined;
  }
}

/**
 * The network a fallback must be on: the primary's (from its rows). A primary never identified
 * (not declared, never answered) counts as on the only identified network when there is just one,
 * else no fallback is safe (a sentinel no row matches). Undefined when rows carry no network.
 */
export function networkOfPrimary(rows: readonly InterfaceHealth[], primary: string): string | undefined {
  const own = rows.find((r) => r.provider === primary && r.network !== undefined)?.network;
  if (own === undefined) return undefined;
  if (!own.startsWith('unknown:')) return own;
  const known = new Set(rows.map((r) => r.network).filter((n): n is string => n !== undefined && !n.startsWith('unknown:')));
  return known.size === 1 ? [...known][0] : own;
}
