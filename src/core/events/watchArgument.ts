// The argument of `chainEndpoints.watchEvents` and of the API's `watch()`, read without the editor:
// `{ provider, query }` for a CometBFT query, `{ provider, evm: { subscription, address?, topics? } }`
// for an EVM subscription. Anything missing is left for the prompts; anything wrong is one
// LocalizedError saying what to pass.

import { LocalizedError } from '../base/errors';
import * as l10n from '../base/l10n';
import { type Provider, providerNamed, unknownProvider } from '../config/providers';
import { validateQuery } from './query';
import type { EvmSubscription, WatchTarget } from './spec';
import { isEvmAddress } from '../base/text';

export const EVM_SUBSCRIPTIONS: readonly EvmSubscription[] = ['newHeads', 'logs', 'newPendingTransactions'];

export interface EvmWatchSpec {
  readonly subscription: EvmSubscription;
  readonly address?: string | readonly string[];
  readonly topics?: ReadonlyArray<string | readonly string[] | null>;
}

export interface WatchArgument {
  provider?: Provider;
  query?: string;
  evm?: EvmWatchSpec;
}

const TOPIC = /^0x[0-9a-fA-F]{64}$/;

/** The sentence for an EVM address filter, or undefined when valid (one address or several, comma-separated). */
export function validateEvmAddresses(text: string): string | undefined {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = parts.find((p) => !isEvmAddress(p));
  return bad === undefined ? undefined : l10n.t('"{0}" is not a contract address: 0x followed by 40 hex digits.', bad);
}

/** The sentence for a topics filter (positions separated by commas, alternatives by |, * for any), or undefined. */
export function validateEvmTopics(text: string): string | undefined {
  for (const position of text.split(',').map((s) => s.trim())) {
    if (position === '' || position === '*') continue;
    const bad = position.split('|').find((t) => !TOPIC.test(t.trim()));
    if (bad !== undefined) return l10n.t('"{0}" is not a topic: 0x followed by 64 hex digits (or * for any).', bad.trim());
  }
  return undefined;
}

/** `0xa,*,0xb|0xc` -> ['0xa', null, ['0xb', '0xc']]. */
export function parseEvmTopics(text: string): Array<string | string[] | null> {
  const out = text.split(',').map((p) => {
    const t = p.trim();
    if (t === '' || t === '*') return null;
    const alts = t.split('|').map((s) => s.trim().toLowerCase());
    return alts.length === 1 ? alts[0] : alts;
  });
  while (out.length > 0 && out[out.length - 1] === null) out.pop();
  return out;
}

function fail(message: l10n.Message): never {
  throw new LocalizedError(message);
}

export function readWatchArgument(arg: unknown, providers: readonly Provider[]): WatchArgument {
  if (arg === undefined || arg === null) return {};
  if (typeof arg !== 'object' || Array.isArray(arg))
    fail(l10n.both('The argument must be an object such as {0}.', `{"provider": "Local node", "query": "tm.event='Tx'"}`));
  const a = arg as Record<string, unknown>;
  const out: WatchArgument = {};
  if (a.provider !== undefined) {
    if (typeof a.provider !== 'string') fail(l10n.both('"provider" must be the name of a provider.'));
    out.provider = providerNamed(providers, a.provider);
    if (!out.provider) fail(unknownProvider(a.provider, providers));
  }
  if (a.query !== undefined && a.evm !== undefined) fail(l10n.both('Pass either "query" (CometBFT) or "evm" (an EVM subscription), not both.'));
  if (a.query !== undefined) {
    if (typeof a.query !== 'string') fail(l10n.both('"query" must be a string such as {0}.', "tm.event='Tx'"));
    const error = validateQuery(a.query);
    if (error) throw new LocalizedError(error);
    out.query = a.query.trim();
  }
  if (a.evm !== undefined) {
    if (typeof a.evm !== 'object' || a.evm === null) fail(l10n.both('"evm" must be an object such as {0}.', '{"subscription": "newHeads"}'));
    const e = a.evm as Record<string, unknown>;
    const subscription = e.subscription as EvmSubscription;
    if (!EVM_SUBSCRIPTIONS.includes(subscription)) fail(l10n.both('"evm.subscription" must be one of {0}.', EVM_SUBSCRIPTIONS.join(', ')));
    const spec: { subscription: EvmSubscription; address?: string | string[]; topics?: Array<string | string[] | null> } = { subscription };
    if (e.address !== undefined) {
      const list = typeof e.address === 'string' ? [e.address] : Array.isArray(e.address) ? e.address : undefined;
      if (!list || list.some((x) => typeof x !== 'string' || !isEvmAddress(x)))
        fail(l10n.both('"evm.address" must be a contract address (0x + 40 hex digits) or a list of them.'));
      spec.address = typeof e.address === 'string' ? e.address : (list as string[]);
    }
    if (e.topics !== undefined) {
      const ok =
        Array.isArray(e.topics) &&
        e.topics.every(
          (t) => t === null || (typeof t === 'string' && TOPIC.test(t)) || (Array.isArray(t) && t.every((x) => typeof x === 'string' && TOPIC.test(x))),
        );
      if (!ok) fail(l10n.both('"evm.topics" must be a list whose items are a topic (0x + 64 hex digits), a list of topics, or null.'));
      spec.topics = e.topics as Array<string | string[] | null>;
    }
    if ((spec.address !== undefined || spec.topics !== undefined) && subscription !== 'logs')
      fail(l10n.both('"address" and "topics" filter only the "logs" subscription.'));
    out.evm = spec;
  }
  if (out.provider && out.query !== undefined && !out.provider.endpoints.consensusWs) {
    fail(l10n.both('{0} has no Consensus WebSocket address: add "consensusWs" to it to watch CometBFT events.', out.provider.name));
  }
  if (out.provider && out.evm && !out.provider.endpoints.evmWs) {
    fail(l10n.both('{0} has no EVM WebSocket address: add "evmWs" (such as ws://host:8546) to it to watch EVM events.', out.provider.name));
  }
  return out;
}

/** The core target for a complete argument (the provider already has its secrets resolved). */
export function watchTargetOf(provider: Provider, spec: { query?: string; evm?: EvmWatchSpec }): WatchTarget {
  if (spec.query !== undefined) return { kind: 'comet', url: provider.endpoints.consensusWs!, query: spec.query };
  const evm = spec.evm!;
  return { kind: 'evm', url: provider.endpoints.evmWs!, subscription: evm.subscription, address: evm.address, topics: evm.topics };
}

/** A short title for a watch (the panel's title). */
export function watchTitle(provider: string, spec: { query?: string; evm?: EvmWatchSpec }): string {
  const what = spec.query ?? `eth_subscribe ${spec.evm?.subscription ?? ''}`;
  return `${provider}: ${what.length > 60 ? what.slice(0, 59) + '…' : what}`;
}
