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
import { accountPage } from './account/accountState';

type Json = Record<string, any>;
type AddressQuery = Extract<Query, { kind: 'address' }>;

export async function lookUpAddress(src: ExplorerSource, ctx: ChainContext, q: AddressQuery, notes: string[]): Promise<AddressView> {
  const prefix = await ctx.prefix();
  const forms = addressForms(q.bytes, prefix, q.role);
  const view: { -readonly [K in keyof AddressView]: AddressView[K] } = { typed: q.typed, role: q.role, forms };
  const tryTo = <T>(what: string, fn: () => Promise<T>): Promise<T | undefined> => attempt(notes, what, fn, true);
  const height = q.height;
  const tag = height === undefined ? 'latest' : `0x${BigInt(height).toString(16)}`;
  if (height !== undefined) view.height = height;
  if (forms.account && forms.hex && (src.has.rest || src.has.evm)) {
    const page = await accountPage(src, ctx, forms, height, notes);
    if (page.balances) view.balances = page.balances;
    if (page.evmBalance) view.evmBalance = page.evmBalance;
    view.state = page.state;
  }
  if (src.has.rest && forms.account) {
    const a = await tryTo('account', async () => (await src.rest(`/cosmos/auth/v1beta1/accounts/${forms.account}`, height)) as Json);
    const acc: Json | undefined = a?.account;
    if (acc) {
      const base: Json = acc.base_account ?? acc.base_vesting_account?.base_account ?? acc;
      view.account = { type: acc['@type'], accountNumber: base.account_number, sequence: base.sequence };
    }
  }
  if (src.has.rest && q.role === 'valoper' && forms.valoper) {
    const v = await tryTo('validator', async () => (await src.rest(`/cosmos/staking/v1beta1/validators/${forms.valoper}`, height)) as Json);
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
    const nonce = await tryTo('eth_getTransactionCount', async () => src.evm('eth_getTransactionCount', [hex, tag]));
    if (typeof nonce === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(nonce)) view.nonce = BigInt(nonce).toString();
    const code = await tryTo('eth_getCode', async () => src.evm('eth_getCode', [hex, tag]));
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
