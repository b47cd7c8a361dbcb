// What a watch is asked to follow and how it reports: the target (a CometBFT query or an EVM
// subscription, already resolved to a WebSocket address), its options and its snapshot.

import { cometSubscribe, jsonRpcRequest } from '../transport/jsonRpc';
import type { SocketOpener } from '../transport/subscription';

export type { SocketOpener } from '../transport/subscription';

export type EvmSubscription = 'newHeads' | 'logs' | 'newPendingTransactions';

export type WatchTarget =
  | { readonly kind: 'comet'; readonly url: string; readonly query: string }
  | {
      readonly kind: 'evm';
      readonly url: string;
      readonly subscription: EvmSubscription;
      readonly address?: string | readonly string[];
      readonly topics?: ReadonlyArray<string | readonly string[] | null>;
    };

export type WatchState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface WatchSnapshot {
  readonly state: WatchState;
  /** Why (the last failure), translated. */
  readonly detail?: string;
  readonly paused: boolean;
  /** Events received since start (gap and note lines not counted). */
  readonly received: number;
  /** Entries in the buffer now. */
  readonly stored: number;
  /** Entries pushed out of the buffer by newer ones. */
  readonly evicted: number;
  /** Events larger than the per-event cap (kept as a preview) plus frames refused as too large. */
  readonly oversize: number;
  /** Messages that were not JSON or not for this subscription. */
  readonly ignored: number;
  readonly gaps: number;
  /** Events per second over the last 10 s. */
  readonly ratePerSecond: number;
}

export interface WatchOptions {
  headers?: Record<string, string>;
  /** Injected for tests; default core/transport/lazy.ts openWebSocket (proxies included). */
  open?: SocketOpener;
  /** Default 10,000 entries (setting chainEndpoints.events.bufferSize). */
  bufferSize?: number;
  /** Default 64 MiB of frames in the buffer. */
  maxBufferBytes?: number;
  /** Default 256 KiB: a larger event is kept as a preview. */
  maxEventBytes?: number;
  /** Default 16 MiB: a larger frame is refused and the socket dropped. */
  maxFrameBytes?: number;
  /** Default 100 ms: at most 10 batches per second. */
  batchMs?: number;
  pingIntervalMs?: number;
  connectTimeoutMs?: number;
  maxBackoffMs?: number;
  log?: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
  /** EVM logs: the event decoded from what is known without a request (`name(key=value, …)` and the decoding). */
  decodeLog?: (log: { address?: string; topics: readonly string[]; data: string }) => { line: string; decoded: unknown } | undefined;
}

/** The subscribe request of a target, as sent: CometBFT `subscribe` or EVM `eth_subscribe`. */
export function subscribeRequest(t: WatchTarget, id: number): string {
  if (t.kind === 'comet') return cometSubscribe(t.query, id);
  const params: unknown[] = [t.subscription];
  if (t.subscription === 'logs' && (t.address !== undefined || t.topics !== undefined)) {
    params.push({ ...(t.address !== undefined ? { address: t.address } : {}), ...(t.topics !== undefined ? { topics: t.topics } : {}) });
  }
  return jsonRpcRequest('eth_subscribe', params, id);
}
