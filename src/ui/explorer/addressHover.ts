// Hovers on an address in any document (issue #37): a 0x address (40 hex digits) or a bech32 account
// address with the chain's prefix shows its balances in one line (bank balances and the EVM balance,
// two requests on the status bar's provider) and a command link to its account page (Look Up).
// Cheap and bounded: answers kept 30 s (at most 200), requests with a 5 s timeout and the hover's
// cancellation, nothing sent when `chainEndpoints.hovers.addressBalances` is off or the workspace is
// not trusted (an untrusted folder's files must not make the editor call a node the user did not
// ask about): the link to the page is still offered. The provider's secrets resolve as for any request.

import vscode = require('vscode');
import { bytesOf, addressForms } from '../../core/explorer/addresses';
import { knownContext } from '../../core/explorer/context';
import { displayAmount } from '../../core/explorer/decodeEvm';
import { escapeMarkdown } from '../../core/documents/markdown';
import { errorMessage } from '../../core/base/errors';
import type { Provider } from '../../core/config/providers';
import type { CommandDeps } from '../base/deps';
import { Commands } from '../base/commandIds';
import { addressHoverBalances, readSettings } from '../base/settings';
import { lookUpCommandUri } from './documentLinks';
import { apiHost, runOnProvider } from '../requests/run';
import { hostBase } from '../requests/host';

/** 0x + 40 hex, or bech32 (the prefix is checked against the chain's below). */
export const ADDRESS_WORD = /0x[0-9a-fA-F]{40}(?![0-9a-fA-F])|[a-z][a-z0-9]{0,30}1[02-9ac-hj-np-z]{38,58}/;
const TTL_MS = 30_000;
const MAX_CACHED = 200;
const TIMEOUT_MS = 5_000;

const cache = new Map<string, { at: number; line: string }>();

/** Whether hovers may send requests: the setting, and a trusted workspace. */
export function hoverRequestsAllowed(): boolean {
  return vscode.workspace.isTrusted && addressHoverBalances();
}

/** The provider hovers read from: the status bar's, else the first with REST or an EVM RPC. */
function hoverProvider(): Provider | undefined {
  const s = readSettings();
  const all = s.providers.providers;
  return all.find((p) => p.name === s.statusBarProvider && (p.endpoints.rest || p.endpoints.evmRpc)) ?? all.find((p) => p.endpoints.rest || p.endpoints.evmRpc);
}

type Json = Record<string, any>;

/** One line: bank balances (at most 5 denoms) and the EVM balance, in base units (and the EVM's 18 decimals). */
async function balancesLine(deps: CommandDeps, provider: Provider, account: string, hex: string, token: vscode.CancellationToken): Promise<string> {
  return runOnProvider(apiHost(hostBase(deps), token), { provider, title: 'hover', preset: 'silent', tag: 'hover' }, async (r) => {
    const src = r.source();
    const parts: string[] = [];
    const [bank, evm] = await Promise.allSettled([
      src.has.rest ? src.rest(`/cosmos/bank/v1beta1/balances/${account}?pagination.limit=5`) : Promise.resolve(undefined),
      src.has.evm ? src.evm('eth_getBalance', [hex, 'latest']) : Promise.resolve(undefined),
    ]);
    if (bank.status === 'fulfilled' && bank.value !== undefined) {
      // The five asked for (a node may send more, or something that is no list: never "none" then).
      const list: unknown = (bank.value as Json | null)?.balances;
      const coins = Array.isArray(list)
        ? (list as unknown[]).slice(0, 5).flatMap((c) => {
            const { amount, denom } = (c ?? {}) as Json;
            return typeof amount === 'string' && typeof denom === 'string' ? [`${amount} ${denom}`] : [];
          })
        : [];
      const next: unknown = (bank.value as Json | null)?.pagination?.next_key;
      const more = Array.isArray(list) && (list.length > 5 || (typeof next === 'string' && next !== ''));
      if (!Array.isArray(list)) parts.push(`bank: ${vscode.l10n.t('the answer has no balances list')}`);
      else if (list.length > 0 && coins.length === 0) parts.push(`bank: ${vscode.l10n.t('no coin in the answer reads as one')}`);
      else parts.push(`bank: ${list.length === 0 ? 'none' : `${coins.join(', ')}${more ? ', …' : ''}`}`);
    } else if (bank.status === 'rejected') parts.push(`bank: ${errorMessage(bank.reason)}`);
    if (evm.status === 'fulfilled' && typeof evm.value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(evm.value)) {
      parts.push(`EVM: ${displayAmount(BigInt(evm.value), 18)}`);
    } else if (evm.status === 'rejected') parts.push(`EVM: ${errorMessage(evm.reason)}`);
    return `${provider.name} · ${parts.join(' · ')}`;
  });
}

/** The hover over an address at `position`, or undefined when there is none there. */
export async function addressHover(
  deps: CommandDeps,
  doc: vscode.TextDocument,
  position: vscode.Position,
  token: vscode.CancellationToken,
): Promise<vscode.Hover | undefined> {
  const range = doc.getWordRangeAtPosition(position, ADDRESS_WORD);
  if (!range) return undefined;
  const word = doc.getText(range);
  const bytes = bytesOf(word);
  if (!bytes || bytes.length !== 20) return undefined;
  const provider = hoverProvider();
  if (!provider) return undefined;
  const prefix = knownContext(provider.name).prefix ?? 'cosmos';
  if (!word.startsWith('0x') && !word.startsWith(`${prefix}1`)) return undefined; // another chain's address
  const forms = addressForms(bytes, prefix);
  if (!forms.account || !forms.hex) return undefined;
  let line: string | undefined;
  if (hoverRequestsAllowed()) {
    const key = `${provider.name}\u0000${forms.hex.toLowerCase()}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) line = hit.line;
    else {
      const timeout = new vscode.CancellationTokenSource();
      const timer = setTimeout(() => timeout.cancel(), TIMEOUT_MS);
      const sub = token.onCancellationRequested(() => timeout.cancel());
      try {
        line = await balancesLine(deps, provider, forms.account, forms.hex, timeout.token);
        cache.set(key, { at: Date.now(), line });
        while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
      } catch (err) {
        if (token.isCancellationRequested) return undefined;
        line = `${provider.name} · ${errorMessage(err)}`;
      } finally {
        clearTimeout(timer);
        sub.dispose();
        timeout.dispose();
      }
    }
  }
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: [Commands.lookUp] };
  if (line) md.appendMarkdown(`${escapeMarkdown(line, 300)}  \n`);
  md.appendMarkdown(`[$(account) ${vscode.l10n.t('Open the account page')}](${lookUpCommandUri(provider.name, word).toString()})`);
  return new vscode.Hover(md, range);
}

/** Forgets the kept answers (settings changed). */
export function forgetAddressHovers(): void {
  cache.clear();
}
