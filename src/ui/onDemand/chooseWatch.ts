// What "Watch Events…" asks for, kept apart from the editor (prompts behind ui/prompts.ts) so the
// questions are unit-tested with scripted answers: the provider, CometBFT or EVM, a query from
// the templates validated as typed, or the EVM subscription and its filters.

import { LocalizedError } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import { type Network, groupForPick } from '../../core/config/networks';
import type { Provider } from '../../core/config/providers';
import { queryTemplates, validateQuery } from '../../core/events/query';
import {
  EVM_SUBSCRIPTIONS,
  type EvmWatchSpec,
  parseEvmTopics,
  readWatchArgument,
  validateEvmAddresses,
  validateEvmTopics,
} from '../../core/events/watchArgument';
import type { Prompts } from '../prompts';

export interface Chosen {
  provider: Provider;
  query?: string;
  evm?: EvmWatchSpec;
}

/** What to watch: the argument completed by the prompts; undefined when the user dismissed one. */
export async function chooseWatch(
  arg: unknown,
  providers: readonly Provider[],
  prompts: Prompts,
  networks: readonly Network[] = [],
): Promise<Chosen | undefined> {
  const given = readWatchArgument(arg, providers);
  let provider = given.provider;
  if (!provider) {
    const wantsEvm = given.evm !== undefined;
    const wantsComet = given.query !== undefined;
    const candidates = providers.filter((p) =>
      wantsEvm ? p.endpoints.evmWs : wantsComet ? p.endpoints.consensusWs : p.endpoints.consensusWs || p.endpoints.evmWs,
    );
    if (candidates.length === 0) {
      throw new LocalizedError(l10n.both('No provider has a WebSocket address to watch: add "consensusWs" (CometBFT) or "evmWs" (EVM) to one.'));
    }
    if (candidates.length === 1) provider = candidates[0];
    else {
      // `provider` on each item: a provider pick (ui/onDemand/providerPicks.ts adds state, height and the last used first).
      const items = groupForPick(candidates, networks).map(({ provider: p, group }) => ({
        label: p.name,
        description: [p.endpoints.consensusWs && 'CometBFT', p.endpoints.evmWs && 'EVM'].filter(Boolean).join(' · '),
        provider: p,
        ...(group !== undefined ? { group } : {}),
      }));
      provider = (await prompts.pick(items, { title: l10n.t('Watch Events'), placeHolder: l10n.t('The provider to watch') }))?.provider;
      if (!provider) return undefined;
    }
  }
  if (given.query !== undefined || given.evm !== undefined) return { provider, query: given.query, evm: given.evm };
  // Both families are offered even when the provider lacks one, so the pick says why it is missing
  // (a provider without "evmWs" used to go straight to CometBFT queries without a word).
  const hasComet = !!provider.endpoints.consensusWs;
  const hasEvm = !!provider.endpoints.evmWs;
  const items = [
    {
      label: l10n.t('CometBFT events'),
      description: hasComet ? l10n.t('a query over the Consensus WebSocket') : l10n.t('unavailable: {0} has no "consensusWs" address', provider.name),
      family: 'comet' as const,
    },
    {
      label: l10n.t('EVM subscription'),
      description: hasEvm ? l10n.t('eth_subscribe over the EVM WebSocket') : l10n.t('unavailable: {0} has no "evmWs" address', provider.name),
      family: 'evm' as const,
    },
  ];
  const picked = await prompts.pick(items, { title: l10n.t('Watch Events: {0}', provider.name) });
  if (!picked) return undefined;
  const family = picked.family;
  if (family === 'evm' && !hasEvm) {
    throw new LocalizedError(l10n.both('{0} has no EVM WebSocket address: add "evmWs" (such as ws://host:8546) to it to watch EVM events.', provider.name));
  }
  if (family === 'comet' && !hasComet) {
    throw new LocalizedError(
      l10n.both('{0} has no Consensus WebSocket address: add "consensusWs" (such as ws://host:26657/websocket) to it to watch CometBFT events.', provider.name),
    );
  }
  if (family === 'comet') {
    const templates = queryTemplates().map((t) => ({ label: t.label, description: t.query, query: t.query }));
    const template = await prompts.pick(templates, { title: l10n.t('Watch Events: {0}', provider.name), placeHolder: l10n.t('Start from a query') });
    if (!template) return undefined;
    const hole = template.query.indexOf('…');
    const query = await prompts.input({
      title: l10n.t('CometBFT query'),
      prompt: l10n.t("Conditions key op value joined by AND; ops = != < <= > >= CONTAINS EXISTS; strings in 'quotes'."),
      value: template.query,
      ...(hole >= 0 ? { valueSelection: [hole, hole + 1] as [number, number] } : {}),
      validate: validateQuery,
    });
    return query === undefined ? undefined : { provider, query: query.trim() };
  }
  const sub = await prompts.pick(
    EVM_SUBSCRIPTIONS.map((s) => ({ label: s, subscription: s })),
    { title: l10n.t('Watch Events: {0}', provider.name), placeHolder: l10n.t('eth_subscribe to') },
  );
  if (!sub) return undefined;
  if (sub.subscription !== 'logs') return { provider, evm: { subscription: sub.subscription } };
  const address = await prompts.input({
    title: l10n.t('Contract address (optional)'),
    prompt: l10n.t('One address or several separated by commas; empty: every contract.'),
    validate: (t) => (t.trim() === '' ? undefined : validateEvmAddresses(t)),
  });
  if (address === undefined) return undefined;
  const topics = await prompts.input({
    title: l10n.t('Topics (optional)'),
    prompt: l10n.t('By position, separated by commas; alternatives with |; * for any. Empty: every log.'),
    validate: (t) => (t.trim() === '' ? undefined : validateEvmTopics(t)),
  });
  if (topics === undefined) return undefined;
  const addresses = address
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const parsedTopics = topics.trim() ? parseEvmTopics(topics) : [];
  return {
    provider,
    evm: {
      subscription: 'logs',
      ...(addresses.length ? { address: addresses.length === 1 ? addresses[0] : addresses } : {}),
      ...(parsedTopics.length ? { topics: parsedTopics } : {}),
    },
  };
}
