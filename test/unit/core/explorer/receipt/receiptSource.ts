// A fake evmd provider answering from one recorded receipt fixture (test/fixtures/evmd/receipt/*.json,
// recorded from a real evmd v0.3.2 node by test/real/recordEvmdReceipt.ts): CometBFT tx and tx_search,
// the EVM transaction, receipt and call tree, and REST state at N−1 and N (x-cosmos-block-height).
// Options make a height pruned, a read fail, the tx_log events go (the v0.5 shape) or a balance move.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NotFound, type ExplorerSource } from '../../../../../src/core/explorer/source';
import { REPO_ROOT } from '../../../helpers/repoRoot';

type Json = Record<string, any>;

export function receiptFixture(name: string): Json {
  return JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/fixtures/evmd/receipt', `${name}.json`), 'utf8')) as Json;
}

export interface FakeOptions {
  /** Heights the provider no longer keeps (REST 404 code 5, the EVM's -32000). */
  readonly pruned?: readonly string[];
  /** Bank balance reads of this bech32 account fail (a 503). */
  readonly failBalancesOf?: string;
  /** cosmos/evm v0.5: no tx_log events. */
  readonly v05?: boolean;
  /** Added to an account's bank balance at N (bech32 -> amount in atest): a movement no event explains. */
  readonly extraAfter?: Readonly<Record<string, bigint>>;
  /** The bank's metadata for atest (display `test`, 18 decimals). */
  readonly metadata?: boolean;
  readonly has?: Partial<ExplorerSource['has']>;
}

const prunedError = (h: string) =>
  new Error(`REST 404: {"code":5,"message":"failed to load state at height ${h}; version mismatch on immutable IAVL tree; version does not exist"}`);

export function receiptSource(fx: Json, o: FakeOptions = {}): ExplorerSource & { asked: string[]; stateAsked: number } {
  const asked: string[] = [];
  const result: Json = structuredClone(fx.cometbft.tx.result);
  if (o.v05) result.tx_result.events = (result.tx_result.events as Json[]).filter((e) => e.type !== 'tx_log');
  const N = String(fx.height);
  const accounts = new Map<string, Json>((fx.accounts as Json[]).map((a) => [a.bech32 as string, a]));
  const side = (h: string | undefined): 'before' | 'after' | undefined => (h === N ? 'after' : h === String(BigInt(N) - 1n) ? 'before' : undefined);
  const src = {
    asked,
    stateAsked: 0,
    provider: 'evmd-receipt',
    chainId: fx.chainId as string,
    has: { rest: true, comet: true, evm: true, ...o.has },
    async rest(p: string, height?: string): Promise<unknown> {
      asked.push(`rest ${p}${height ? ` @${height}` : ''}`);
      if (height !== undefined) src.stateAsked++;
      if (p === '/cosmos/auth/v1beta1/bech32') return { bech32_prefix: 'cosmos' };
      if (p === '/cosmos/evm/vm/v1/params') return { params: { evm_denom: 'atest' } };
      if (p.startsWith('/cosmos/bank/v1beta1/denoms_metadata/')) {
        if (o.metadata && p.endsWith('/atest'))
          return {
            metadata: {
              base: 'atest',
              display: 'test',
              denom_units: [
                { denom: 'atest', exponent: 0 },
                { denom: 'test', exponent: 18 },
              ],
            },
          };
        throw new NotFound(`no metadata ${p}`);
      }
      if (p.startsWith('/cosmos/tx/v1beta1/txs')) throw new NotFound('tx not found (the fake answers CometBFT only)');
      if (height !== undefined && o.pruned?.includes(height)) throw prunedError(height);
      const s = side(height);
      const m =
        /^\/cosmos\/(bank\/v1beta1\/balances|evm\/precisebank\/v1\/fractional_balance|staking\/v1beta1\/delegations|distribution\/v1beta1\/delegators|staking\/v1beta1\/delegators)\/([a-z0-9]+)/.exec(
          p,
        );
      if (m) {
        const acc = accounts.get(m[2]);
        const state: Json | undefined = s && acc ? acc[s] : undefined;
        if (m[1] === 'bank/v1beta1/balances') {
          if (o.failBalancesOf === m[2]) throw new Error('HTTP 503 Service Unavailable');
          const bank: Json = structuredClone(state?.bank ?? { balances: [], pagination: { next_key: null } });
          const extra = s === 'after' ? o.extraAfter?.[m[2]] : undefined;
          if (extra !== undefined) {
            const c = (bank.balances as Json[]).find((x) => x.denom === 'atest');
            if (c) c.amount = (BigInt(c.amount) + extra).toString();
            else bank.balances.push({ denom: 'atest', amount: extra.toString() });
          }
          return bank;
        }
        if (m[1].startsWith('evm/precisebank')) return { fractional_balance: { denom: 'atest', amount: '0' } };
        if (m[1] === 'staking/v1beta1/delegations') return state?.delegations ?? { delegation_responses: [], pagination: { next_key: null } };
        if (p.includes('/rewards')) return state?.rewards ?? { rewards: [], total: [] };
        if (p.includes('/unbonding_delegations')) return state?.unbondings ?? { unbonding_responses: [], pagination: { next_key: null } };
      }
      const v = /^\/cosmos\/staking\/v1beta1\/validators\/([a-z0-9]+)$/.exec(p);
      if (v && fx.validators?.[v[1]]) return fx.validators[v[1]][s ?? 'after'];
      throw new NotFound(`no route ${p}`);
    },
    async comet(call: { method: string; uri: Record<string, string> }): Promise<unknown> {
      asked.push(`comet ${call.method}`);
      if (call.method === 'tx_search') return { txs: [result], total_count: '1' };
      if (call.method === 'tx') {
        if (String(call.uri.hash ?? '').toUpperCase() === `0X${fx.cometHash}`) return result;
        throw new NotFound('tx not found');
      }
      throw new NotFound(`no ${call.method}`);
    },
    async evm(method: string, params: readonly unknown[]): Promise<unknown> {
      asked.push(`evm ${method}`);
      if (method === 'eth_getTransactionByHash' && !fx.evm) throw new Error(`GetTxByEthHash ${String(params[0])}: ethereum tx not found`);
      if (method === 'eth_getTransactionByHash') return params[0] === fx.evmHash ? fx.evm.transaction : null;
      if (method === 'eth_getTransactionReceipt' && fx.evm) return fx.evm.receipt;
      if (method === 'debug_traceTransaction' && fx.evm) return fx.evm.trace;
      if (method === 'eth_getCode') return '0x';
      if (method === 'eth_getBalance') {
        src.stateAsked++;
        const h = BigInt(String(params[1])).toString();
        if (o.pruned?.includes(h)) throw new Error(`rpc error: code = NotFound desc = failed to load state at height ${h}`);
        const hex = String(params[0]).toLowerCase();
        const acc = (fx.accounts as Json[]).find((a) => String(a.hex).toLowerCase() === hex);
        const s = side(h);
        const b: string | undefined = s && acc?.[s]?.evmBalance;
        return b ?? '0x0';
      }
      if (!fx.evm) throw new Error(`GetTxByEthHash ${String(params[0])}: ethereum tx not found`);
      throw new Error(`method ${method} not served`);
    },
  };
  return src;
}
