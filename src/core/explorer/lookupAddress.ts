// An address: both forms (the same bytes as bech32 with the chain's prefix and as 0x), bank balances
// with their display units, the EVM balance, account number and sequence or the EVM nonce, whether a
// contract lives there (eth_getCode) and which (its name, ABI source and view functions), and for a validator operator address its validator record.
// An account (or operator) address is also an account page (account/accountState.ts): its state,
// stake and the reconciliation of bank and EVM balances; `<address>@<height>` reads all of it at that height.

import { addressForms } from './addresses';
import type { ChainContext } from './context';
import type { Query } from './identify';
import { type ExplorerSource, attempt } from './source';
import { registryOf, resolveContext } from './evmDecoding';
import { signatureOf } from '../contracts/values';
import type { AddressView } from './views';
import { type AccountPage, accountPage } from './account/accountState';
import { readHistory } from './account/history';
import { type TokenCandidate, chooseTokens, hasBalanceOf, readTokens, tokenPairs } from './account/tokens';
import { type AccountSnapshot, compareSnapshots } from './account/compare';
import { TRANSFER_TOPIC, entriesOfLogs, paddedTopic, LOG_WINDOW } from './account/history';
import { rethrowCancel } from './source';
import { errorMessage } from '../base/errors';

type Json = Record<string, any>;
type AddressQuery = Extract<Query, { kind: 'address' }>;

export async function lookUpAddress(src: ExplorerSource, ctx: ChainContext, q: AddressQuery, notes: string[]): Promise<AddressView> {
  const prefix = await ctx.prefix();
  const forms = addressForms(q.bytes, prefix, q.role);
  const view: { -readonly [K in keyof AddressView]: AddressView[K] } = { typed: q.typed, role: q.role, forms };
  const tryTo = <T>(what: string, fn: () => Promise<T>): Promise<T | undefined> => attempt(notes, what, fn, true);
  const height = q.height;
  if (height !== undefined) view.height = height;
  const account = forms.account && forms.hex && q.role !== 'valcons' ? { bech32: forms.account, hex: forms.hex } : undefined;
  // `<address> history page N` (N ≥ 2): the history alone, continuing the cursor kept for page N-1.
  if (account && q.historyPage !== undefined && q.historyPage > 1) {
    view.history = await readHistory(src, account.bech32, account.hex, { height, page: q.historyPage, elsewhere: src.elsewhere, typed: q.typed });
    return view;
  }
  // `<address>@A..B`: the state and tokens at both heights, and what changed.
  if (account && q.compareTo !== undefined && height !== undefined) {
    const candidates = await tokenCandidates(src, account.hex, notes, { from: BigInt(height), to: BigInt(q.compareTo) });
    const [a, b] = await Promise.all([snapshot(src, ctx, forms, height, candidates, notes), snapshot(src, ctx, forms, q.compareTo, candidates, notes)]);
    if (b.page.balances) view.balances = b.page.balances;
    if (b.page.evmBalance) view.evmBalance = b.page.evmBalance;
    view.state = b.page.state;
    view.height = q.compareTo;
    view.tokens = { list: b.snap.tokens ?? [], skipped: candidates.skipped };
    view.comparison = compareSnapshots(height, q.compareTo, a.snap, b.snap);
    return view;
  }
  // The latest page pins the tip: its height is read once and every state read below asks for that
  // block, so bank and EVM (and stake and tokens) answer for the same block, never one each side of a new one.
  let at = height;
  const tip = height === undefined && account && (src.has.rest || src.has.evm) ? latestHeight(src, notes) : undefined;
  if (account && (src.has.rest || src.has.evm || src.has.comet)) {
    // The state and the first page of history at once; then the tokens (those seen in the history too).
    const [page, history] = await Promise.all([
      src.has.rest || src.has.evm
        ? (async () => {
            at = height ?? (await tip);
            return accountPage(src, ctx, forms, at, notes);
          })()
        : undefined,
      src.has.comet || src.has.evm ? readHistory(src, account.bech32, account.hex, { height, page: 1, elsewhere: src.elsewhere, typed: q.typed }) : undefined,
    ]);
    if (page?.balances) view.balances = page.balances;
    if (page?.evmBalance) view.evmBalance = page.evmBalance;
    if (page) view.state = page.state;
    if (history) view.history = history;
    if (src.has.evm) {
      const seen: TokenCandidate[] = (history?.tokensSeen ?? []).map((address) => ({ address, source: 'Transfer logs' }));
      const candidates = await tokenCandidates(src, account.hex, notes, undefined, seen);
      const t = await readTokens(src, account.hex, candidates.chosen, at, candidates.skipped);
      notes.push(...t.notes);
      view.tokens = { list: t.tokens, skipped: t.skipped };
    }
  }
  if (height === undefined && at !== undefined) view.readAt = at;
  const atTag = at === undefined ? 'latest' : `0x${BigInt(at).toString(16)}`;
  if (src.has.rest && forms.account) {
    const a = await tryTo('account', async () => (await src.rest(`/cosmos/auth/v1beta1/accounts/${forms.account}`, at)) as Json);
    const acc: Json | undefined = a?.account;
    if (acc) {
      const base: Json = acc.base_account ?? acc.base_vesting_account?.base_account ?? acc;
      view.account = { type: acc['@type'], accountNumber: base.account_number, sequence: base.sequence };
    }
  }
  if (src.has.rest && q.role === 'valoper' && forms.valoper) {
    const v = await tryTo('validator', async () => (await src.rest(`/cosmos/staking/v1beta1/validators/${forms.valoper}`, at)) as Json);
    if (v?.validator) {
      const { description, operator_address, jailed, status, tokens, delegator_shares, commission } = v.validator as Json;
      view.validator = {
        moniker: description?.moniker,
        operator_address,
        jailed,
        status,
        tokens,
        delegator_shares,
        commission_rate: commission?.commission_rates?.rate,
      };
    }
  }
  if (src.has.evm && forms.hex && q.role !== 'valcons') {
    const hex = forms.hex;
    const nonce = await tryTo('eth_getTransactionCount', async () => src.evm('eth_getTransactionCount', [hex, atTag]));
    if (typeof nonce === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(nonce)) view.nonce = BigInt(nonce).toString();
    const code = await tryTo('eth_getCode', async () => src.evm('eth_getCode', [hex, atTag]));
    if (typeof code === 'string' && /^0x[0-9a-fA-F]*$/.test(code)) {
      view.codeBytes = (code.length - 2) / 2;
      view.isContract = view.codeBytes > 0;
    }
    const registry = registryOf(src);
    const rctx = resolveContext(src, notes);
    // The code just read is not read again for the match.
    const known = await registry.contractAt(hex, { ...rctx, getCode: async () => (typeof code === 'string' ? code : undefined) });
    if (known) {
      const views = known.abi.flatMap((f) => (f.type === 'function' && (f.stateMutability === 'view' || f.stateMutability === 'pure') ? [signatureOf(f)] : []));
      view.contract = { name: known.name, source: known.source.label, views, note: known.note };
    }
  }
  return view;
}

/**
 * The latest block's height, read once for the latest page (the EVM's eth_blockNumber, else CometBFT
 * status): undefined when it cannot be read (then each read asks for the latest state, and a note says so).
 */
async function latestHeight(src: ExplorerSource, notes: string[]): Promise<string | undefined> {
  try {
    if (src.has.evm) {
      const n: unknown = await src.evm('eth_blockNumber', []);
      if (typeof n === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(n) && BigInt(n) > 0n) return BigInt(n).toString();
    } else if (src.has.comet) {
      const h: unknown = ((await src.comet({ method: 'status', uri: {}, json: {} })) as Json)?.sync_info?.latest_block_height;
      if (typeof h === 'string' && /^[0-9]{1,19}$/.test(h) && BigInt(h) > 0n) return BigInt(h).toString();
    } else return undefined;
    notes.push('latest height: not a block height; each state read asked for the latest state on its own');
  } catch (err) {
    rethrowCancel(err);
    notes.push(`latest height: ${errorMessage(err)}; each state read asked for the latest state on its own`);
  }
  return undefined;
}

/** The tokens to read: token pairs, those of `seen` (or of the Transfer logs between two heights), the workspace's contracts. */
async function tokenCandidates(
  src: ExplorerSource,
  hex: string,
  notes: string[],
  range?: { from: bigint; to: bigint },
  seen: TokenCandidate[] = [],
): Promise<{ chosen: TokenCandidate[]; skipped: number }> {
  const pairs = await tokenPairs(src, notes);
  const logged = [...seen];
  if (range && src.has.evm && range.to - range.from < BigInt(LOG_WINDOW)) {
    try {
      const span = { fromBlock: `0x${range.from.toString(16)}`, toBlock: `0x${range.to.toString(16)}` };
      const topic = paddedTopic(hex);
      const [a, b] = await Promise.all([
        src.evm('eth_getLogs', [{ ...span, topics: [TRANSFER_TOPIC, topic] }]),
        src.evm('eth_getLogs', [{ ...span, topics: [TRANSFER_TOPIC, null, topic] }]),
      ]);
      for (const e of entriesOfLogs([...(Array.isArray(a) ? a : []), ...(Array.isArray(b) ? b : [])], hex)) {
        for (const t of e.entry.transfers ?? []) logged.push({ address: t.token, source: 'Transfer logs' });
      }
    } catch (err) {
      rethrowCancel(err);
      notes.push(`Transfer logs between the two heights: ${errorMessage(err)}`);
    }
  }
  const network = src.contracts?.network ?? src.chainId;
  // A workspace contract whose ABI is known and has no balanceOf(address) is not a token (a router, a vault).
  const workspace = (src.contracts?.registry.knownAddresses(network) ?? [])
    .filter((k) => k.abi === undefined || hasBalanceOf(k.abi))
    .map((k) => ({ address: k.address, source: `workspace (${k.name})` }));
  return chooseTokens([pairs, logged, workspace]);
}

/** The account's page and tokens at one height (for a comparison). */
async function snapshot(
  src: ExplorerSource,
  ctx: ChainContext,
  forms: ReturnType<typeof addressForms>,
  height: string,
  candidates: { chosen: TokenCandidate[]; skipped: number },
  notes: string[],
): Promise<{ page: AccountPage; snap: AccountSnapshot }> {
  const page = await accountPage(src, ctx, forms, height, notes);
  const t = await readTokens(src, forms.hex ?? '', candidates.chosen, height);
  return { page, snap: { balances: page.balances, evmBalance: page.evmBalance, state: page.state, tokens: t.tokens } };
}
