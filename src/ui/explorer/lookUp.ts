// Look Up…: the explorer's command and API. Reads `{ provider?, query }` (asking for what is missing,
// the query checked as typed), runs the lookup under a cancellable progress notification with the
// provider's secrets resolved, and opens the composed result as a read-only Markdown document (masked)
// whose Uri it returns. The API's lookUp() resolves to the same result as plain data.

import { createHash } from 'node:crypto';
import vscode = require('vscode');
import { LocalizedError, rewrapped, shownMessage } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';
import type { Provider } from '../../core/config/providers';
import { identify } from '../../core/explorer/identify';
import { bestForLookup, lookUpTarget } from '../../core/explorer/bestProvider';
import { lookUpQuery } from '../../core/explorer/lookup';
import { renderLookup } from '../../core/explorer/render';
import type { LookupResult } from '../../core/explorer/views';
import type { ExplorerSource } from '../../core/explorer/source';
import { maskDeep, masker } from '../../core/secrets/mask';
import { redactUrl } from '../../core/secrets/redact';
import type { CommandDeps } from '../base/deps';
import { type Prompts, windowPrompts } from '../base/prompts';
import { providerPrompts } from '../providers/providerPicks';
import { RESULT_SCHEME } from '../base/resultDocuments';
import { readSettings } from '../base/settings';
import { currentNetworks, networkPeers } from '../providers/networkDirectory';
import { type Network, providerPickItems } from '../../core/config/networks';
import { routeTarget } from '../../core/health/routeCommand';
import { contractsOption } from '../contracts/contracts';
import { documentName } from '../../core/documents/resultName';
import { type RunHost, apiHost, runOnProvider } from '../requests/run';
import { editorHost, hostBase } from '../requests/host';

export interface LookUpArgument {
  /** A provider's name, or "best" (with `network` when several are configured). */
  readonly provider?: string;
  readonly network?: string;
  readonly query?: string;
}

/** What the command asks for: the provider (when several, grouped by network, each group's best first), then the query. */
export async function readLookUpArgument(
  arg: unknown,
  providers: readonly Provider[],
  prompts: Prompts,
  networks: readonly Network[] = [],
  best?: (query: string, among: readonly Provider[]) => Provider | undefined,
): Promise<{ provider: Provider; query: string } | undefined> {
  const a = (arg && typeof arg === 'object' ? arg : {}) as LookUpArgument;
  // The router, as every command: a name, "best" (of `network`), or ask (core/health/routeCommand.ts).
  const route = routeTarget(lookUpTarget(), arg, networks, providers);
  if (route.kind === 'refuse') throw new LocalizedError(route.message);
  let bestAmong: readonly Provider[] | undefined = route.kind === 'run' ? route.among : undefined;
  let provider = route.kind === 'run' ? route.provider : undefined;
  if (!provider) {
    if (providers.length === 1) provider = providers[0];
    else {
      const items = providerPickItems(
        providers,
        networks,
        (p) => redactUrl(p.endpoints.rest ?? p.endpoints.consensusHttp ?? p.endpoints.evmRpc ?? ''),
        best && {
          label: l10n.t('$(star) Best provider for this lookup'),
          description: l10n.t('the ranked best among those that can serve it'),
        },
      );
      const picked = await prompts.pick(items, { title: l10n.t('Look Up'), placeHolder: l10n.t('Provider to look up on') });
      if (!picked) return undefined;
      provider = picked.provider;
      bestAmong = picked.among;
    }
  }
  let query = typeof a.query === 'string' ? a.query : undefined;
  if (query === undefined) {
    query = await prompts.input({
      title: bestAmong ? vscode.l10n.t('Look Up') : vscode.l10n.t('Look Up · {0}', provider.name),
      prompt: vscode.l10n.t('A block height, a block or transaction hash (Cosmos or EVM), or an address (0x… or bech32)'),
      placeHolder: vscode.l10n.t('e.g. 12345, 0x…, cosmos1…'),
      validate: (text) => {
        try {
          identify(text);
          return undefined;
        } catch (err) {
          return shownMessage(err);
        }
      },
    });
    if (query === undefined) return undefined;
  }
  query = query.trim();
  if (bestAmong && best) provider = best(query, bestAmong) ?? provider;
  return { provider, query };
}

/** The lookup through the runner (secrets, options, cancel, one log line per request), its result masked. */
async function run(host: RunHost, deps: CommandDeps, provider: Provider, query: string): Promise<LookupResult> {
  const q = identify(query); // throws the sentence that says what to type: nothing is sent
  const started = Date.now();
  const title = l10n.t('Looking up {0} · {1}', query, provider.name);
  const result = await runOnProvider(host, { provider, title, preset: 'silent', tag: 'lookUp' }, (r) =>
    lookUpQuery({ ...r.source(), contracts: contractsOption(deps, provider), elsewhere: elsewhereOf(deps, provider) }, q, query, { receipt: true }),
  );
  deps.log.info(`[lookUp] ${provider.name} ${query}: ${result.kind} in ${Date.now() - started} ms`);
  return maskDeep(result) as LookupResult;
}

/** Providers of the same network that keep older blocks or index transactions (their capabilities), for the account page's coverage lines. */
function elsewhereOf(deps: CommandDeps, provider: Provider): ExplorerSource['elsewhere'] {
  const caps = (name: string) => deps.health?.capabilities(name)?.consensus;
  const others = networkPeers(readSettings().providers.providers, provider);
  let olderBlocks: { provider: string; earliest: string } | undefined;
  for (const p of others) {
    const e = caps(p.name)?.earliestHeight;
    if (e && /^[0-9]{1,19}$/.test(e) && (!olderBlocks || BigInt(e) < BigInt(olderBlocks.earliest))) olderBlocks = { provider: p.name, earliest: e };
  }
  const txIndex = others.find((p) => caps(p.name)?.txIndex === true)?.name;
  return { ...(olderBlocks ? { olderBlocks } : {}), ...(txIndex ? { txIndex } : {}) };
}

/** The document's address: `chain-endpoints:/<provider>/Look Up <query>.md`. */
export function lookUpUri(provider: string, query: string): vscode.Uri {
  const shown = query.length > 24 ? `${query.slice(0, 12)}…${query.slice(-8)}` : query;
  return vscode.Uri.from({
    scheme: RESULT_SCHEME,
    path: documentName(provider, `Look Up ${shown}`, 'md'),
    query: `lookUp&${createHash('sha1').update(query).digest('hex').slice(0, 10)}`,
  });
}

export async function lookUpCommand(deps: CommandDeps, arg?: unknown): Promise<vscode.Uri | undefined> {
  const providers = readSettings().providers.providers;
  const health = deps.health;
  const prompts = providerPrompts(windowPrompts, () => health?.rows() ?? []);
  const read = await readLookUpArgument(arg, providers, prompts, currentNetworks(providers), health && ((q, among) => bestForLookup(health, q, among)));
  if (!read) return undefined;
  const { provider, query } = read;
  identify(query); // bad input: its sentence, before any progress or request
  const started = new Date();
  const result = await run(editorHost(deps), deps, provider, query);
  const text = masker.mask(renderLookup(result));
  const bytes = Buffer.from(text, 'utf8');
  void deps.history?.recordLookUp?.(provider.name, query, result.kind !== 'notFound', started, bytes);
  return deps.documents.showData(lookUpUri(provider.name, query), bytes, { language: 'markdown' });
}

/** The API's lookUp(): the composed result as plain data. Rejects for an unknown provider or a query it cannot read. */
export async function lookUpForApi(
  deps: CommandDeps,
  query: string,
  opts: { provider?: string; network?: string; token?: vscode.CancellationToken } = {},
): Promise<LookupResult> {
  const providers = readSettings().providers.providers;
  // As run() and callContract(): a name, or "best" (with `network`); left out with one provider configured.
  const route = routeTarget(lookUpTarget(), { provider: opts.provider, network: opts.network }, currentNetworks(providers), providers);
  if (route.kind === 'refuse') throw new LocalizedError(route.message);
  let provider: Provider;
  if (route.kind === 'run') {
    const health = deps.health;
    provider = (route.among && health && bestForLookup(health, String(query ?? ''), route.among)) || route.provider;
  } else if (providers.length === 1) provider = providers[0];
  else if (route.candidates.length === 1) provider = route.candidates[0];
  else
    throw new LocalizedError(
      l10n.both(
        'lookUp needs { provider } when several providers are configured: a provider\'s name, or "best" (with "network" when several networks are configured).',
      ),
    );
  try {
    return await run(apiHost(hostBase(deps), opts.token), deps, provider, String(query ?? ''));
  } catch (err) {
    throw rewrapped(err);
  }
}
