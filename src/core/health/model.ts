// What health knows about one interface: each probe's result, and the classified row the tree, the
// Compare view and the status bar read. Plain data, shared by the probes (health.ts), the
// classification (classify.ts) and their readers.

import type { FailureKind } from '../base/errors';
import type { InterfaceId } from '../config/providers';

export type Family = 'consensus' | 'evm';

export const FAMILY: Record<InterfaceId, Family> = {
  evmRpc: 'evm',
  consensusHttp: 'consensus',
  consensusRpc: 'consensus',
  consensusWs: 'consensus',
  rest: 'consensus',
  evmWs: 'evm',
};

export interface ProbeResult {
  at: number;
  ok: boolean;
  /** Request latency on a warm connection. */
  latencyMs?: number;
  /** Connection set-up (DNS, TCP, TLS, WebSocket handshake) when this probe opened one. */
  setupMs?: number;
  height?: bigint;
  /** When the node says its latest block was made (ms; CometBFT `sync_info.latest_block_time`, REST's block header time). */
  blockTime?: number;
  chainId?: string;
  error?: string;
  /** Set when the provider answered 429: no probe before this time. */
  rateLimitedUntil?: number;
  /** What failed, for classification that must not read the (translated) `error`. */
  failure?: ProbeFailure;
}

export interface ProbeFailure {
  kind: FailureKind;
  code?: number | string;
  status?: number;
}

/** `suspect`: a height implausibly far ahead of the other providers (heightPlausibility.ts); `stale`: no new block for too long (session.ts). */
export type HealthState = 'unknown' | 'healthy' | 'lagging' | 'down' | 'wrongChain' | 'rateLimited' | 'suspect' | 'stale';

export interface InterfaceHealth {
  provider: string;
  iface: InterfaceId;
  state: HealthState;
  last?: ProbeResult;
  lastError?: { message: string; at: number };
  /** Blocks behind the best of the family. */
  behind?: bigint;
  /** Milliseconds slower than the fastest of the family. */
  slowerMs?: number;
  medianMs?: number;
  p90Ms?: number;
  successRate?: number;
  samples: number;
  /** The chain id the node last reported (the latest probe that carried one): its network. */
  chainId?: string;
  /** Key of the provider's network (networks.ts), set by classify. */
  network?: string;
  /** Why the state: one short phrase for the tree's description. */
  reason?: string;
  /** This interface lags the provider's other interfaces (cross-check). */
  crossCheck?: string;
  /** Rank among providers for this interface (1 = best); undefined when not ranked. */
  rank?: number;
  score?: number;
  /** Failed probes in a row (session.ts); a streak of 2 or more puts the interface in cooldown. */
  errorStreak?: number;
  /** Cooldown: not probed again before this time (ms since the epoch). */
  retryAt?: number;
  /** Stale: when this interface last reported a new height (ms since the epoch). */
  heightSince?: number;
}
