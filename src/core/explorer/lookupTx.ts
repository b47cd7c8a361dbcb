// A transaction found by its Cosmos hash (REST's tx service first: the node decodes its own types;
// else CometBFT /tx and local decoding) or by its EVM hash (eth_getTransactionByHash and the
// receipt; the Cosmos transaction that carries it found with tx_search on ethereum_tx.ethereumTxHash).
// Each view links the other: the Cosmos view lists its EVM hashes, the EVM view its Cosmos hash.

import { errorMessage } from '../base/errors';
import { decodeCosmosTx } from './decodeCosmos';
import { decodeEvmRaw } from './decodeEvm';
import { withDecoding } from './evmDecoding';
import { signerFromJson } from './signers';
import type { ChainContext } from './context';
import { type CometCall, type ExplorerSource, attempt, rethrowCancel } from './source';
import { withDisplayAmounts } from './units';
import type { EventGroup, EventView, EvmLog, EvmView, MessageView, TxView } from './views';
import { hexQuantityDecimal, scalarText } from '../base/text';

type Json = Record<string, any>;

export function hexToBase64(hex: string): string {
  return Buffer.from(hex.replace(/^0x/, ''), 'hex').toString('base64');
}

export const cometCalls = {
  tx: (hash: string): CometCall => ({ method: 'tx', uri: { hash: `0x${hash}` }, json: { hash: hexToBase64(hash) } }),
  txSearch: (query: string): CometCall => ({ method: 'tx_search', uri: { query: JSON.stringify(query), per_page: '10' }, json: { query, per_page: '10' } }),
  block: (height: string): CometCall => ({ method: 'block', uri: { height }, json: { height } }),
  blockByHash: (hash: string): CometCall => ({ method: 'block_by_hash', uri: { hash: `0x${hash}` }, json: { hash: hexToBase64(hash) } }),
  blockResults: (height: string): CometCall => ({ method: 'block_results', uri: { height }, json: { height } }),
};

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : undefined;
}

export function readEvents(events: unknown): EventView[] {
  if (!Array.isArray(events)) return [];
  return events.slice(0, 5000).map((e: Json) => ({
    type: scalarText(e?.type),
    attributes: (Array.isArray(e?.attributes) ? e.attributes : []).map((a: Json) => ({ key: scalarText(a?.key), value: scalarText(a?.value) })),
  }));
}

export function groupEvents(events: readonly EventView[]): EventGroup[] {
  const groups = new Map<string | undefined, EventView[]>();
  for (const e of events) {
    const idx = e.attributes.find((a) => a.key === 'msg_index')?.value;
    const list = groups.get(idx) ?? [];
    list.push(e);
    groups.set(idx, list);
  }
  return [...groups].map(([msgIndex, evs]) => ({ msgIndex, events: evs }));
}

/** The Ethereum hashes the events name (ethereum_tx.ethereumTxHash), in order; read as given (EventViews or a node's JSON). */
export function evmHashesOf(events: unknown): string[] {
  const out = new Set<string>();
  if (!Array.isArray(events)) return [];
  for (const e of events.slice(0, 5000) as Json[]) {
    if (e?.type !== 'ethereum_tx' || !Array.isArray(e.attributes)) continue;
    const h: unknown = (e.attributes as Json[]).find((a) => a?.key === 'ethereumTxHash')?.value;
    // A Set keeps the order of first sight (a list searched for each was 5,000² for a hostile transaction, per transaction of a block).
    if (typeof h === 'string' && /^0x[0-9a-fA-F]{64}$/.test(h)) out.add(h.toLowerCase());
  }
  return [...out];
}

/** A transaction as the REST tx service gives it (`tx` and `tx_response`). */
async function txFromRest(r: Json, ctx: ChainContext): Promise<TxView> {
  const res: Json = r.tx_response ?? {};
  const tx: Json = r.tx ?? res.tx ?? {};
  const events = readEvents(res.events);
  const hashes = evmHashesOf(events);
  let evmIndex = 0;
  const messages: MessageView[] = (Array.isArray(tx.body?.messages) ? tx.body.messages : []).map((m: Json) => {
    const { ['@type']: typeUrl, ...fields } = m ?? {};
    const view: MessageView = { typeUrl: scalarText(typeUrl, '?'), fields };
    if (/MsgEthereumTx$/.test(view.typeUrl)) {
      const stated = typeof fields.hash === 'string' && /^0x[0-9a-fA-F]{64}$/.test(fields.hash) ? fields.hash.toLowerCase() : undefined;
      return { ...view, evmHash: stated ?? hashes[evmIndex++] };
    }
    return view;
  });
  for (const [i, m] of messages.entries())
    messages[i] = { ...m, fields: (await withDisplayAmounts(m.fields, (d, a) => ctx.coin(d, a))) as Record<string, unknown> };
  const fee: Json | undefined = tx.auth_info?.fee;
  const prefix = await ctx.prefix();
  return {
    hash: scalarText(res.txhash),
    height: str(res.height),
    timestamp: str(res.timestamp),
    code: typeof res.code === 'number' ? res.code : undefined,
    codespace: str(res.codespace) || undefined,
    log: str(res.raw_log) || undefined,
    gasWanted: str(res.gas_wanted),
    gasUsed: str(res.gas_used),
    decodedBy: 'rest',
    messages,
    memo: str(tx.body?.memo) ?? '',
    fee: fee && {
      amount: await Promise.all((Array.isArray(fee.amount) ? fee.amount : []).map((c: Json) => ctx.coin(scalarText(c?.denom), scalarText(c?.amount)))),
      gasLimit: scalarText(fee.gas_limit),
      payer: str(fee.payer) || undefined,
      granter: str(fee.granter) || undefined,
    },
    signers: (Array.isArray(tx.auth_info?.signer_infos) ? tx.auth_info.signer_infos : []).map((s: Json) => signerFromJson(s, prefix)),
    events: groupEvents(events),
    evm: [],
  };
}

/** A transaction as CometBFT's /tx (or one tx_search hit) gives it, decoded here. */
export async function txFromComet(r: Json, ctx: ChainContext): Promise<TxView> {
  const where = {
    hash: typeof r.hash === 'string' ? r.hash.toUpperCase() : undefined,
    height: str(r.height),
    index: typeof r.index === 'number' ? r.index : undefined,
  };
  return (await localTx(Buffer.from(scalarText(r.tx), 'base64'), r.tx_result, ctx, where)).tx;
}

/**
 * A transaction's bytes decoded here, with its result as CometBFT gives it (code, log, gas, events;
 * each MsgEthereumTx with its hash, stated or named by the events), its EVM views not yet added.
 */
export async function localTx(
  bytes: Uint8Array,
  result: Json | undefined,
  ctx: ChainContext,
  where: { readonly hash?: string; readonly height?: string; readonly index?: number },
): Promise<{ tx: TxView; events: EventView[] }> {
  const decoded = decodeCosmosTx(bytes, await ctx.prefix());
  const events = readEvents(result?.events);
  const hashes = evmHashesOf(events);
  let evmIndex = 0;
  const messages: MessageView[] = decoded.messages.map((m) => (m.ethereum ? { ...m, evmHash: m.ethereum.statedHash ?? hashes[evmIndex++] } : m));
  for (const [i, m] of messages.entries())
    if (m.fields) messages[i] = { ...m, fields: (await withDisplayAmounts(m.fields, (d, a) => ctx.coin(d, a))) as Record<string, unknown> };
  const tx: TxView = {
    hash: where.hash ?? decoded.hash,
    height: where.height,
    index: where.index,
    code: typeof result?.code === 'number' ? result.code : undefined,
    codespace: str(result?.codespace) || undefined,
    log: str(result?.log) || undefined,
    gasWanted: str(result?.gas_wanted),
    gasUsed: str(result?.gas_used),
    decodedBy: 'local',
    messages,
    memo: decoded.memo,
    fee: decoded.fee && { ...decoded.fee, amount: await Promise.all(decoded.fee.amount.map((c) => ctx.coin(c.denom, c.amount))) },
    signers: decoded.signers,
    events: groupEvents(events),
    evm: [],
    error: decoded.error,
  };
  return { tx, events };
}

/** The EVM view of one hash: the EVM RPC's answer, else the signed bytes decoded here, else the events. */
export async function evmView(
  src: ExplorerSource,
  ctx: ChainContext,
  hash: string,
  notes: string[],
  local?: { raw?: `0x${string}`; cosmosHash?: string; events?: readonly EventView[]; ethEvent?: EventView },
): Promise<EvmView | undefined> {
  if (src.has.evm) {
    try {
      const t = (await src.evm('eth_getTransactionByHash', [hash])) as Json | null;
      if (t && typeof t === 'object') {
        const receipt = ((await attempt(notes, 'eth_getTransactionReceipt', () => src.evm('eth_getTransactionReceipt', [hash]))) ?? null) as Json | null;
        return await withDecoding(
          src,
          {
            hash: scalarText(t.hash, hash).toLowerCase(),
            cosmosHash: local?.cosmosHash,
            from: str(t.from),
            to: str(t.to) ?? undefined,
            value: await ctx.evmValue(hexQuantityDecimal(t.value) ?? '0'),
            nonce: hexQuantityDecimal(t.nonce),
            gas: hexQuantityDecimal(t.gas),
            gasPrice: hexQuantityDecimal(t.gasPrice),
            maxFeePerGas: hexQuantityDecimal(t.maxFeePerGas),
            maxPriorityFeePerGas: hexQuantityDecimal(t.maxPriorityFeePerGas),
            input: str(t.input),
            type: hexQuantityDecimal(t.type),
            blockNumber: hexQuantityDecimal(t.blockNumber),
            blockHash: str(t.blockHash),
            gasUsed: hexQuantityDecimal(receipt?.gasUsed),
            effectiveGasPrice: hexQuantityDecimal(receipt?.effectiveGasPrice),
            status: receipt ? (receipt.status === '0x1' ? 'success' : 'failed') : undefined,
            contractAddress: str(receipt?.contractAddress) ?? undefined,
            logs: Array.isArray(receipt?.logs)
              ? receipt.logs.slice(0, 1000).map((l: Json): EvmLog => ({
                  address: scalarText(l?.address),
                  topics: Array.isArray(l?.topics) ? l.topics.map((x: unknown) => scalarText(x)) : [],
                  data: scalarText(l?.data, '0x'),
                  logIndex: hexQuantityDecimal(l?.logIndex),
                }))
              : undefined,
            source: 'evmRpc',
          },
          notes,
        );
      }
    } catch (err) {
      rethrowCancel(err);
      notes.push(`eth_getTransactionByHash: ${errorMessage(err)}`);
    }
  }
  const eth =
    local?.ethEvent ??
    local?.events?.find((e) => e.type === 'ethereum_tx' && e.attributes.some((a) => a.key === 'ethereumTxHash' && a.value.toLowerCase() === hash));
  const attr = (k: string) => eth?.attributes.find((a) => a.key === k)?.value;
  const status = eth ? (attr('ethereumTxFailed') ? 'failed' : 'success') : undefined;
  if (local?.raw) {
    try {
      const d = await decodeEvmRaw(local.raw);
      const view: EvmView = { ...d, value: await ctx.evmValue(d.value), cosmosHash: local.cosmosHash, gasUsed: attr('txGasUsed'), status, source: 'decoded' };
      return await withDecoding(src, view, notes);
    } catch (err) {
      notes.push(`Ethereum transaction ${hash}: ${errorMessage(err)}`);
    }
  }
  if (!local) return undefined;
  return { hash, cosmosHash: local.cosmosHash, gasUsed: attr('txGasUsed'), status, source: 'events' };
}

/** The most MsgEthereumTx of one transaction read and decoded (a node's transaction can claim any number). */
export const MAX_EVM_MESSAGES = 100;

/** Adds the EVM view of each MsgEthereumTx (the first MAX_EVM_MESSAGES). */
async function withEvm(src: ExplorerSource, ctx: ChainContext, tx: TxView, notes: string[], known?: EvmView): Promise<TxView> {
  const events = tx.events.flatMap((g) => g.events);
  // Each EVM hash's ethereum_tx event, found once (each message searching every event was
  // messages × attributes: minutes for a hostile transaction).
  const ethByHash = new Map<string, EventView>();
  for (const e of events)
    if (e.type === 'ethereum_tx')
      for (const a of e.attributes) if (a.key === 'ethereumTxHash' && !ethByHash.has(a.value.toLowerCase())) ethByHash.set(a.value.toLowerCase(), e);
  const evm: EvmView[] = [];
  let read = 0;
  for (const m of tx.messages) {
    if (!m.evmHash) continue;
    if (read++ === MAX_EVM_MESSAGES) {
      notes.push(`Only the first ${MAX_EVM_MESSAGES} Ethereum transactions of this transaction are read.`);
      break;
    }
    // Already read from the EVM RPC (and traced): not read again.
    const v =
      known && known.hash === m.evmHash
        ? { ...known, cosmosHash: tx.hash }
        : await evmView(src, ctx, m.evmHash, notes, { raw: m.ethereum?.raw, cosmosHash: tx.hash, events, ethEvent: ethByHash.get(m.evmHash.toLowerCase()) });
    if (v) evm.push(v);
  }
  return { ...tx, evm };
}

/** A Cosmos transaction by its hash (UPPERCASE hex); undefined when no interface knows it. */
export async function lookUpCosmosTx(src: ExplorerSource, ctx: ChainContext, hash: string, notes: string[], tried: string[]): Promise<TxView | undefined> {
  let tx: TxView | undefined;
  if (src.has.rest) {
    tried.push('REST /cosmos/tx/v1beta1/txs');
    const r = await attempt(notes, 'REST tx', () => src.rest(`/cosmos/tx/v1beta1/txs/${hash}`), true);
    if (r) tx = await txFromRest(r as Json, ctx);
  }
  if (src.has.comet) {
    tried.push('CometBFT /tx');
    const r = await attempt(notes, 'CometBFT tx', () => src.comet(cometCalls.tx(hash)), true);
    if (r) {
      const local = await txFromComet(r as Json, ctx);
      // The node's decoding is kept; the bytes decoded here give the Ethereum transactions their signed bytes.
      tx = tx ? { ...tx, index: local.index, messages: tx.messages.map((m, i) => ({ ...m, ethereum: local.messages[i]?.ethereum })) } : local;
    }
  }
  return tx && withEvm(src, ctx, tx, notes);
}

/** The Cosmos transaction carrying an Ethereum hash (tx_search on the ethereum_tx event; REST's search when no CometBFT). */
export async function cosmosTxOfEvmHash(
  src: ExplorerSource,
  ctx: ChainContext,
  hash: string,
  notes: string[],
  tried: string[],
  known?: EvmView,
): Promise<TxView | undefined> {
  const query = `ethereum_tx.ethereumTxHash='${hash}'`;
  if (src.has.comet) {
    tried.push('CometBFT tx_search');
    const r = (await attempt(notes, 'CometBFT tx_search', () => src.comet(cometCalls.txSearch(query)))) as Json | undefined;
    const hit = Array.isArray(r?.txs) ? r.txs[0] : undefined;
    if (hit) return withEvm(src, ctx, await txFromComet(hit, ctx), notes, known);
  }
  if (src.has.rest) {
    tried.push('REST /cosmos/tx/v1beta1/txs?query=');
    const path = `/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(query)}&pagination.limit=1`;
    const r = (await attempt(notes, 'REST tx search', () => src.rest(path))) as Json | undefined;
    const res = Array.isArray(r?.tx_responses) ? r.tx_responses[0] : undefined;
    if (res) return withEvm(src, ctx, await txFromRest({ tx: res.tx, tx_response: res }, ctx), notes, known);
  }
  return undefined;
}
