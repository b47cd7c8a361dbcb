// A block by height or hash: the header (time, proposer in both forms), each transaction as one line
// and then decoded in full (bytes decoded here, results and events from block_results), the block's
// own events, and its EVM block (hash, number of EVM transactions, gas used).

import { errorMessage } from '../base/errors';
import { addressForms } from './addresses';
import type { ChainContext } from './context';
import { decodeCosmosTx } from './decodeCosmos';
import { decodeEvmRaw } from './decodeEvm';
import { cometCalls, evmHashesOf, groupEvents, isNotFound, readEvents, rethrowCancel } from './lookupTx';
import type { ExplorerSource } from './source';
import type { BlockTxLine, BlockView, EvmView, MessageView, TxView } from './views';

type Json = Record<string, any>;

/** Above this many transactions, senders of Ethereum transactions are not recovered (a signature check each). */
const RECOVER_UP_TO = 100;

function hexToDec(v: unknown): string | undefined {
  return typeof v === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(v) ? BigInt(v).toString() : undefined;
}

const shortType = (t: string) => t.slice(t.lastIndexOf('.') + 1);

/** One line for a transaction: its messages' types and the main facts of the first. */
export function summarize(tx: TxView): string {
  if (tx.error) return tx.error;
  const types = tx.messages.map((m) => shortType(m.typeUrl));
  const first = tx.messages[0] as MessageView | undefined;
  const evm = tx.evm[0];
  let facts = '';
  if (evm) facts = ` ${evm.hash}${evm.from ? ` ${evm.from}` : ''} → ${evm.to ?? 'contract creation'}${evm.value ? ` ${evm.value.amount}` : ''}`;
  else if (first?.fields) {
    const f = first.fields as Record<string, any>;
    const from = f.fromAddress ?? f.from_address ?? f.delegatorAddress ?? f.delegator_address ?? f.sender;
    const to = f.toAddress ?? f.to_address ?? f.validatorAddress ?? f.validator_address ?? f.receiver;
    const amount = Array.isArray(f.amount)
      ? f.amount.map((c: any) => `${c.amount}${c.denom}`).join(',')
      : f.amount?.amount
        ? `${f.amount.amount}${f.amount.denom}`
        : '';
    facts = [from, to && `→ ${to}`, amount]
      .filter(Boolean)
      .map((s) => ` ${s}`)
      .join('');
  }
  return `${types.join(', ') || '(no messages)'}${facts}${tx.code ? ` · code ${tx.code}` : ''}`;
}

async function blockTx(
  bytesB64: string,
  index: number,
  height: string,
  result: Json | undefined,
  ctx: ChainContext,
  prefix: string,
  recover: boolean,
  notes: string[],
): Promise<BlockTxLine> {
  const decoded = decodeCosmosTx(Buffer.from(bytesB64, 'base64'), prefix);
  const events = readEvents(result?.events);
  const hashes = evmHashesOf(events);
  let k = 0;
  const messages: MessageView[] = decoded.messages.map((m) => (m.ethereum ? { ...m, evmHash: m.ethereum.statedHash ?? hashes[k++] } : m));
  const evm: EvmView[] = [];
  for (const m of messages) {
    if (!m.ethereum?.raw) continue;
    try {
      const d = await decodeEvmRaw(m.ethereum.raw, { recover });
      evm.push({ ...d, value: await ctx.evmValue(d.value), cosmosHash: decoded.hash, source: 'decoded' });
    } catch (err) {
      notes.push(`tx ${index} Ethereum transaction: ${errorMessage(err)}`);
    }
  }
  const tx: TxView = {
    hash: decoded.hash,
    height,
    index,
    code: typeof result?.code === 'number' ? result.code : undefined,
    codespace: result?.codespace || undefined,
    log: result?.log || undefined,
    gasWanted: result?.gas_wanted,
    gasUsed: result?.gas_used,
    decodedBy: 'local',
    messages,
    memo: decoded.memo,
    fee: decoded.fee && { ...decoded.fee, amount: await Promise.all(decoded.fee.amount.map((c) => ctx.coin(c.denom, c.amount))) },
    signers: decoded.signers,
    events: groupEvents(events),
    evm,
    error: decoded.error,
  };
  return { index, hash: decoded.hash, summary: summarize(tx), code: tx.code, gasUsed: tx.gasUsed, tx };
}

/** A block from CometBFT's block (or block_by_hash) answer, with its results and EVM block. */
export async function composeBlock(src: ExplorerSource, ctx: ChainContext, r: Json, notes: string[]): Promise<BlockView> {
  const header: Json = r.block?.header ?? {};
  const height = String(header.height ?? '');
  const prefix = await ctx.prefix();
  let results: Json | undefined;
  if (src.has.comet) {
    try {
      results = (await src.comet(cometCalls.blockResults(height))) as Json;
    } catch (err) {
      rethrowCancel(err);
      notes.push(`block_results: ${errorMessage(err)}`);
    }
  }
  const txs: string[] = Array.isArray(r.block?.data?.txs) ? r.block.data.txs : [];
  const recover = txs.length <= RECOVER_UP_TO;
  const lines: BlockTxLine[] = [];
  for (let i = 0; i < txs.length; i++) lines.push(await blockTx(String(txs[i]), i, height, results?.txs_results?.[i], ctx, prefix, recover, notes));
  if (!recover && txs.length > 0)
    notes.push(`Ethereum senders are not recovered in a block of more than ${RECOVER_UP_TO} transactions: look up a transaction for its sender.`);
  const events = readEvents(results?.finalize_block_events ?? [...(results?.begin_block_events ?? []), ...(results?.end_block_events ?? [])]);
  const proposerHex = typeof header.proposer_address === 'string' && /^[0-9A-Fa-f]{40}$/.test(header.proposer_address) ? header.proposer_address : undefined;
  const block: BlockView = {
    height,
    hash: r.block_id?.hash,
    time: header.time,
    chainId: header.chain_id,
    appHash: header.app_hash,
    proposer: proposerHex ? addressForms(Uint8Array.from(Buffer.from(proposerHex, 'hex')), prefix, 'valcons') : undefined,
    txs: lines,
    events,
  };
  return { ...block, evm: await evmBlock(src, height, notes) };
}

async function evmBlock(src: ExplorerSource, height: string, notes: string[]): Promise<BlockView['evm']> {
  if (!src.has.evm || !/^\d+$/.test(height)) return undefined;
  try {
    const b = (await src.evm('eth_getBlockByNumber', [`0x${BigInt(height).toString(16)}`, false])) as Json | null;
    if (!b) return undefined;
    return {
      hash: String(b.hash),
      txCount: Array.isArray(b.transactions) ? b.transactions.length : 0,
      gasUsed: hexToDec(b.gasUsed) ?? '?',
      gasLimit: hexToDec(b.gasLimit),
      baseFeePerGas: hexToDec(b.baseFeePerGas),
    };
  } catch (err) {
    rethrowCancel(err);
    notes.push(`eth_getBlockByNumber: ${errorMessage(err)}`);
    return undefined;
  }
}

/** A REST block (`/cosmos/base/tendermint/v1beta1/blocks/{h}`) in CometBFT's shape (hashes base64 -> hex). */
function restBlockAsComet(r: Json): Json {
  const b64hex = (v: unknown) => (typeof v === 'string' ? Buffer.from(v, 'base64').toString('hex').toUpperCase() : undefined);
  const header = r.block?.header ?? {};
  return {
    block_id: { hash: b64hex(r.block_id?.hash) },
    block: { header: { ...header, proposer_address: b64hex(header.proposer_address), app_hash: b64hex(header.app_hash) }, data: r.block?.data },
  };
}

/** A block at `height`; undefined when no interface has it. */
export async function lookUpBlockAt(src: ExplorerSource, ctx: ChainContext, height: string, notes: string[], tried: string[]): Promise<BlockView | undefined> {
  if (src.has.comet) {
    tried.push('CometBFT /block');
    try {
      return await composeBlock(src, ctx, (await src.comet(cometCalls.block(height))) as Json, notes);
    } catch (err) {
      rethrowCancel(err);
      notes.push(`CometBFT block: ${errorMessage(err)}`);
    }
  }
  if (src.has.rest) {
    tried.push('REST /cosmos/base/tendermint/v1beta1/blocks');
    try {
      return await composeBlock(src, ctx, restBlockAsComet((await src.rest(`/cosmos/base/tendermint/v1beta1/blocks/${height}`)) as Json), notes);
    } catch (err) {
      rethrowCancel(err);
      if (!isNotFound(err)) notes.push(`REST block: ${errorMessage(err)}`);
    }
  }
  return undefined;
}

/** A block by hash: CometBFT's block_by_hash (UPPERCASE hex), else the EVM's eth_getBlockByHash and its number. */
export async function lookUpBlockByHash(
  src: ExplorerSource,
  ctx: ChainContext,
  hash: string,
  notes: string[],
  tried: string[],
): Promise<BlockView | undefined> {
  const hex = hash.replace(/^0x/, '').toUpperCase();
  if (src.has.comet) {
    tried.push('CometBFT block_by_hash');
    try {
      const r = (await src.comet(cometCalls.blockByHash(hex))) as Json;
      if (r?.block) return await composeBlock(src, ctx, r, notes);
    } catch (err) {
      rethrowCancel(err);
      notes.push(`CometBFT block_by_hash: ${errorMessage(err)}`);
    }
  }
  if (src.has.evm) {
    tried.push('eth_getBlockByHash');
    try {
      const b = (await src.evm('eth_getBlockByHash', [`0x${hex.toLowerCase()}`, false])) as Json | null;
      const n = hexToDec(b?.number);
      if (n) return await lookUpBlockAt(src, ctx, n, notes, tried);
    } catch (err) {
      rethrowCancel(err);
      notes.push(`eth_getBlockByHash: ${errorMessage(err)}`);
    }
  }
  return undefined;
}
