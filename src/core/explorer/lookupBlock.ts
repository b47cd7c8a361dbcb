// A block by height or hash: the header (time, proposer in both forms), each transaction as one line
// and then decoded in full (bytes decoded here, results and events from block_results), the block's
// own events, and its EVM block (hash, number of EVM transactions, gas used). A block of more than a
// page of transactions has every transaction as a line from a cheap pass (hash, message types, EVM
// hashes from the events, code) and one page decoded in full (`HEIGHT page N` asks for another).

import { errorMessage } from '../base/errors';
import { addressForms, bytesOf, checksumAddress } from './addresses';
import type { ChainContext, DenomUnit } from './context';
import { cosmosTxHash, messageTypes } from './decodeCosmos';
import { decodeEvmRaw } from './decodeEvm';
import { amountText, evmAddress } from './units';
import { cometCalls, evmHashesOf, localTx, readEvents } from './lookupTx';
import { type ExplorerSource, attempt, rethrowCancel } from './source';
import type { BlockPage, BlockTxLine, BlockView, EventView, EvmView, MessageView, TxView } from './views';
import { hexQuantityDecimal, scalarText } from '../base/text';

type Json = Record<string, any>;

/** Above this many transactions, senders of Ethereum transactions are not recovered (a signature check each, ~1.7 ms). */
const RECOVER_UP_TO = 100;
/** Transactions decoded in full per page of a larger block (the others are a line each). */
export const PAGE_SIZE = 100;

const shortType = (t: string) => t.slice(t.lastIndexOf('.') + 1);

/** One line for a transaction: its messages' types and the main facts of the first, amounts in display units (`units`, by denom) like fees. */
export function summarize(tx: TxView, units: ReadonlyMap<string, DenomUnit> = new Map()): string {
  if (tx.error) return tx.error;
  const types = tx.messages.map((m) => shortType(m.typeUrl));
  const first = tx.messages[0] as MessageView | undefined;
  const evm = tx.evm[0];
  let facts = '';
  if (evm)
    facts = ` ${evm.hash}${evm.from ? ` ${evmAddress(evm.from)}` : ''} → ${evm.to ? evmAddress(evm.to) : 'contract creation'}${evm.value ? ` ${evm.value.display?.replace(/ \(18 decimals\)$/, '') ?? evm.value.amount}` : ''}`;
  else if (first?.fields) {
    const f = first.fields as Record<string, any>;
    const from = f.fromAddress ?? f.from_address ?? f.delegatorAddress ?? f.delegator_address ?? f.sender;
    const to = f.toAddress ?? f.to_address ?? f.validatorAddress ?? f.validator_address ?? f.receiver;
    const amount = coinsOf(f.amount)
      .map((c) => amountText(c.amount, c.denom, units.get(c.denom)))
      .join(', ');
    facts = [from, to && `→ ${to}`, amount]
      .filter(Boolean)
      .map((s) => ` ${s}`)
      .join('');
  }
  return `${types.join(', ') || '(no messages)'}${facts}${tx.code ? ` · code ${tx.code}` : ''}`;
}

/** The coins of a message's `amount` (one coin or a list). */
function coinsOf(amount: unknown): { amount: string; denom: string }[] {
  const list = Array.isArray(amount) ? amount : amount && typeof amount === 'object' ? [amount] : [];
  return list.filter((c): c is { amount: string; denom: string } => typeof c?.amount === 'string' && typeof c?.denom === 'string');
}

/** The display units of the denoms a transaction's first message moves (asked once per denom: the context keeps them). */
async function unitsOf(tx: TxView, ctx: ChainContext): Promise<Map<string, DenomUnit>> {
  const units = new Map<string, DenomUnit>();
  const f = tx.messages[0]?.fields as Record<string, unknown> | undefined;
  for (const c of coinsOf(f?.amount).slice(0, 8)) {
    const u = await ctx.unit(c.denom);
    if (u) units.set(c.denom, u);
  }
  return units;
}

/** The Ethereum senders the events name (a `message` event of a MsgEthereumTx: its `sender`), by message index. */
function evmSendersOf(events: readonly EventView[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of events) {
    if (e.type !== 'message' || !e.attributes.some((a) => a.key === 'action' && /MsgEthereumTx$/.test(a.value))) continue;
    const sender = e.attributes.find((a) => a.key === 'sender')?.value;
    const bytes = sender === undefined ? undefined : bytesOf(sender);
    const hex = bytes && checksumAddress(bytes);
    if (hex) out.set(e.attributes.find((a) => a.key === 'msg_index')?.value ?? '0', hex);
  }
  return out;
}

/** A transaction of the page: decoded in full. */
async function blockTx(
  bytesB64: string,
  index: number,
  height: string,
  result: Json | undefined,
  ctx: ChainContext,
  recover: boolean,
  notes: string[],
): Promise<BlockTxLine> {
  const { tx: local, events } = await localTx(Buffer.from(bytesB64, 'base64'), result, ctx, { height, index });
  const senders = recover ? undefined : evmSendersOf(events);
  const evm: EvmView[] = [];
  for (const [i, m] of local.messages.entries()) {
    if (!m.ethereum?.raw) continue;
    try {
      const d = await decodeEvmRaw(m.ethereum.raw, { recover });
      const named = d.from ? undefined : senders?.get(String(i));
      const from = d.from ?? named;
      evm.push({ ...d, from, fromEvents: named ? true : undefined, value: await ctx.evmValue(d.value), cosmosHash: local.hash, source: 'decoded' });
    } catch (err) {
      notes.push(`tx ${index} Ethereum transaction: ${errorMessage(err)}`);
    }
  }
  const tx: TxView = { ...local, evm };
  return { index, hash: tx.hash, summary: summarize(tx, await unitsOf(tx, ctx)), code: tx.code, gasUsed: tx.gasUsed, evmHashes: evm.map((e) => e.hash), tx };
}

/** A transaction outside the page: one line from a cheap pass (hash, message types, EVM hashes from the events, code). */
function txLine(bytesB64: string, index: number, result: Json | undefined): BlockTxLine {
  const bytes = Buffer.from(bytesB64, 'base64');
  const types = messageTypes(bytes);
  const evmHashes = evmHashesOf(result?.events);
  const code = typeof result?.code === 'number' ? result.code : undefined;
  const what = types === undefined ? 'not a Cosmos transaction' : types.map(shortType).join(', ') || '(no messages)';
  const summary = `${what}${evmHashes.map((h) => ` ${h}`).join('')}${code ? ` · code ${code}` : ''}`;
  return { index, hash: cosmosTxHash(bytes), summary, code, gasUsed: typeof result?.gas_used === 'string' ? result.gas_used : undefined, evmHashes };
}

/** Which transactions to decode: all in a block of up to a page, else page `wanted` (the last when past it). */
function pageOf(count: number, wanted: number | undefined, notes: string[]): BlockPage | undefined {
  if (count <= PAGE_SIZE && (wanted ?? 1) === 1) return undefined;
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
  let number = wanted ?? 1;
  if (number > pages) {
    notes.push(`The block has ${pages} page(s) of transactions: page ${pages} is shown.`);
    number = pages;
  }
  const first = (number - 1) * PAGE_SIZE;
  return { number, pages, size: PAGE_SIZE, first, last: Math.min(count, first + PAGE_SIZE) - 1 };
}

/** What a block's page needs besides the block: its results and its EVM block, asked for at once. */
interface Extras {
  readonly results: Promise<Settled<Json | undefined>>;
  readonly evm: Promise<Settled<BlockView['evm']>>;
}

type Settled<T> = { readonly value?: T; readonly error?: unknown };

const settle = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

function askExtras(src: ExplorerSource, height: string): Extras {
  return {
    results: settle(src.has.comet ? (src.comet(cometCalls.blockResults(height)) as Promise<Json>) : Promise.resolve(undefined)),
    evm: settle(evmBlock(src, height)),
  };
}

/** What was asked for beside the block, its failure a note (as any attempt). */
function take<T>(s: Promise<Settled<T>>, what: string, notes: string[]): Promise<T | undefined> {
  return attempt(notes, what, async () => {
    const { value, error } = await s;
    if (error !== undefined) throw error;
    return value;
  });
}

/** A block from CometBFT's block (or block_by_hash) answer, with its results and EVM block. */
export async function composeBlock(src: ExplorerSource, ctx: ChainContext, r: Json, notes: string[], wantedPage?: number, extras?: Extras): Promise<BlockView> {
  const header: Json = r.block?.header ?? {};
  const height = scalarText(header.height);
  const asked = extras ?? askExtras(src, height);
  const prefix = await ctx.prefix();
  const results = await take(asked.results, 'block_results', notes);
  const txs: string[] = Array.isArray(r.block?.data?.txs) ? r.block.data.txs : [];
  const page = pageOf(txs.length, wantedPage, notes);
  const recover = txs.length <= RECOVER_UP_TO;
  const lines: BlockTxLine[] = [];
  for (let i = 0; i < txs.length; i++) {
    const result = results?.txs_results?.[i] as Json | undefined;
    const decode = !page || (i >= page.first && i <= page.last);
    lines.push(decode ? await blockTx(scalarText(txs[i]), i, height, result, ctx, recover, notes) : txLine(scalarText(txs[i]), i, result));
  }
  if (!recover && txs.length > 0)
    notes.push(
      `In a block of more than ${RECOVER_UP_TO} transactions, Ethereum senders are read from the events, not recovered from signatures: look up a transaction to verify its sender.`,
    );
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  const events = readEvents(results?.finalize_block_events ?? [...list(results?.begin_block_events), ...list(results?.end_block_events)]);
  const proposerHex = typeof header.proposer_address === 'string' && /^[0-9A-Fa-f]{40}$/.test(header.proposer_address) ? header.proposer_address : undefined;
  return {
    height,
    hash: r.block_id?.hash,
    time: header.time,
    chainId: header.chain_id,
    appHash: header.app_hash,
    proposer: proposerHex ? addressForms(Uint8Array.from(Buffer.from(proposerHex, 'hex')), prefix, 'valcons') : undefined,
    txs: lines,
    page,
    events,
    evm: await take(asked.evm, 'eth_getBlockByNumber', notes),
  };
}

async function evmBlock(src: ExplorerSource, height: string): Promise<BlockView['evm']> {
  if (!src.has.evm || !/^\d+$/.test(height)) return undefined;
  const b = (await src.evm('eth_getBlockByNumber', [`0x${BigInt(height).toString(16)}`, false])) as Json | null;
  if (!b || typeof b !== 'object') return undefined;
  return {
    hash: scalarText(b.hash, '?'),
    txCount: Array.isArray(b.transactions) ? b.transactions.length : 0,
    gasUsed: hexQuantityDecimal(b.gasUsed) ?? '?',
    gasLimit: hexQuantityDecimal(b.gasLimit),
    baseFeePerGas: hexQuantityDecimal(b.baseFeePerGas),
  };
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

/** A block at `height` (its transactions' page `page`); undefined when no interface has it. */
export async function lookUpBlockAt(
  src: ExplorerSource,
  ctx: ChainContext,
  height: string,
  notes: string[],
  tried: string[],
  page?: number,
): Promise<BlockView | undefined> {
  // The block's results and EVM block are asked for with the block, not after it.
  const extras = askExtras(src, height);
  if (src.has.comet) {
    tried.push('CometBFT /block');
    const r = await attempt(notes, 'CometBFT block', () => src.comet(cometCalls.block(height)));
    if (r) return composeBlock(src, ctx, r as Json, notes, page, extras);
  }
  if (src.has.rest) {
    tried.push('REST /cosmos/base/tendermint/v1beta1/blocks');
    const r = await attempt(notes, 'REST block', () => src.rest(`/cosmos/base/tendermint/v1beta1/blocks/${height}`), true);
    if (r) return composeBlock(src, ctx, restBlockAsComet(r as Json), notes, page, extras);
  }
  // Nothing has the block: what was asked beside it is dropped, unless the lookup was cancelled.
  for (const s of [extras.results, extras.evm]) rethrowCancel((await s).error);
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
    const r = (await attempt(notes, 'CometBFT block_by_hash', () => src.comet(cometCalls.blockByHash(hex)))) as Json | undefined;
    if (r?.block) return composeBlock(src, ctx, r, notes);
  }
  if (src.has.evm) {
    tried.push('eth_getBlockByHash');
    const b = (await attempt(notes, 'eth_getBlockByHash', () => src.evm('eth_getBlockByHash', [`0x${hex.toLowerCase()}`, false]))) as Json | null | undefined;
    const n = hexQuantityDecimal(b?.number);
    if (n) return lookUpBlockAt(src, ctx, n, notes, tried);
  }
  return undefined;
}
