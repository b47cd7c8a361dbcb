// The explorer: one lookup for any identifier. identify() says what the query is; the lookup uses
// whichever interfaces the provider has, falling back across them (REST, CometBFT, EVM), and
// composes one result as plain data (views.ts) that render.ts turns into a document. Parts that
// fail are notes; cancellation ends it; nothing is sent for a query identify() refuses.

import { ChainContext } from './context';
import { type Query, identify } from './identify';
import { lookUpAddress } from './lookupAddress';
import { lookUpBlockAt, lookUpBlockByHash } from './lookupBlock';
import { cosmosTxOfEvmHash, evmView, lookUpCosmosTx } from './lookupTx';
import { type ExplorerSource, rethrowCancel } from './source';
import { registryOf } from './evmDecoding';
import type { LookupResult, TxView } from './views';
import { buildReceipt } from './receipt/receipt';

export type { LookupResult } from './views';

/** The latest height the provider reports (CometBFT status, else the EVM block number); undefined when it cannot say. */
async function tipHeight(src: ExplorerSource): Promise<bigint | undefined> {
  try {
    if (src.has.comet) {
      const r = (await src.comet({ method: 'status', uri: {}, json: {} })) as { sync_info?: { latest_block_height?: unknown } };
      const h = r?.sync_info?.latest_block_height;
      if (typeof h === 'string' && /^\d{1,19}$/.test(h)) return BigInt(h);
    }
    if (src.has.evm) {
      const n = await src.evm('eth_blockNumber', []);
      if (typeof n === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(n)) return BigInt(n);
    }
  } catch (err) {
    rethrowCancel(err);
  }
  return undefined;
}

/** Looks `query` up on `source`. Throws a LocalizedError for a query it cannot read (nothing sent) or when cancelled. */
export async function lookUp(source: ExplorerSource, query: string, options: LookUpQueryOptions = {}): Promise<LookupResult> {
  const q = identify(query);
  return lookUpQuery(source, q, query.trim(), options);
}

export interface LookUpQueryOptions {
  /** A transaction found gets its two-layer receipt (receipt/receipt.ts: state at N−1 and N, every balance change explained). */
  readonly receipt?: boolean;
}

export async function lookUpQuery(src: ExplorerSource, q: Query, text: string, options: LookUpQueryOptions = {}): Promise<LookupResult> {
  const result = await lookUpFound(src, q, text);
  if (!options.receipt || result.kind !== 'tx') return result;
  return { ...result, ...(await receiptOf(src, result.tx, result.notes as string[])) };
}

/** The receipt of a transaction found; a failure is a note (the transaction still shows), cancellation ends it. */
async function receiptOf(src: ExplorerSource, tx: TxView, notes: string[]): Promise<{ receipt?: Awaited<ReturnType<typeof buildReceipt>> }> {
  try {
    const ctx = new ChainContext(src, notes);
    return { receipt: await buildReceipt(src, ctx, tx, { archiveElsewhere: src.contracts?.archiveElsewhere }) };
  } catch (err) {
    rethrowCancel(err);
    notes.push(`receipt: ${err instanceof Error ? err.message : String(err)}`);
    return {};
  }
}

async function lookUpFound(src: ExplorerSource, q: Query, text: string): Promise<LookupResult> {
  const notes: string[] = [];
  const tried: string[] = [];
  const ctx = new ChainContext(src, notes, q.kind === 'address' ? q.prefix : undefined);
  const common = { provider: src.provider, query: text, notes };
  switch (q.kind) {
    case 'height': {
      const block = await lookUpBlockAt(src, ctx, q.height, notes, tried, q.page);
      if (block) return { ...common, kind: 'block', found: `block ${q.height}${block.page ? `, page ${block.page.number} of its transactions` : ''}`, block };
      // Not there: a height the chain has not reached is said so, without the nodes' raw errors.
      const tip = await tipHeight(src);
      if (tip !== undefined && BigInt(q.height) > tip) {
        const reason = `Height ${q.height} is above the tip ${tip}: the chain has not produced it yet.`;
        return { ...common, notes: [], kind: 'notFound', found: `nothing: above the tip ${tip}`, tried, reason };
      }
      break;
    }
    case 'cosmosHash': {
      const tx = await lookUpCosmosTx(src, ctx, q.hash, notes, tried);
      if (tx) return { ...common, kind: 'tx', found: 'a Cosmos transaction hash', tx };
      const block = await lookUpBlockByHash(src, ctx, q.hash, notes, tried);
      if (block) return { ...common, kind: 'block', found: 'a block hash (no transaction has this hash)', block };
      break;
    }
    case 'evmHash': {
      if (q.tracePage) src = { ...src, contracts: { ...src.contracts, registry: registryOf(src), tracePage: q.tracePage } };
      // An EVM transaction first; then the Cosmos transaction that carries it; then a block.
      const evm = src.has.evm ? await evmView(src, ctx, q.hash, notes) : undefined;
      if (src.has.evm) tried.push('eth_getTransactionByHash');
      const cosmos = await cosmosTxOfEvmHash(src, ctx, q.hash, notes, tried, evm);
      if (cosmos) {
        const others = cosmos.evm.filter((e) => e.hash !== q.hash);
        const mine = cosmos.evm.find((e) => e.hash === q.hash) ?? (evm && { ...evm, cosmosHash: cosmos.hash });
        return { ...common, kind: 'tx', found: 'an EVM transaction hash', tx: { ...cosmos, evm: mine ? [mine, ...others] : others } };
      }
      if (evm) {
        notes.push('The Cosmos transaction carrying it was not found (the node may not index transactions).');
        return {
          ...common,
          kind: 'tx',
          found: 'an EVM transaction hash',
          tx: { hash: '', decodedBy: 'local', messages: [], signers: [], events: [], evm: [evm], height: evm.blockNumber },
        };
      }
      const block = await lookUpBlockByHash(src, ctx, q.hash, notes, tried);
      if (block) return { ...common, kind: 'block', found: 'a block hash (no transaction has this hash)', block };
      break;
    }
    case 'address':
      return {
        ...common,
        kind: 'address',
        found: `${q.role === 'account' ? 'an account' : q.role === 'valoper' ? 'a validator operator' : 'a consensus'} address${q.height ? ` at height ${q.height}` : ''}`,
        address: await lookUpAddress(src, ctx, q, notes),
      };
  }
  if (tried.length === 0) tried.push('nothing: the provider has none of the interfaces this needs (REST, Consensus HTTP/RPC, EVM RPC)');
  return { ...common, kind: 'notFound', found: 'nothing', tried };
}
