// EVM JSON-RPC views of the devnet's real transactions (ledger.ts), shaped like evmd's answers
// (test/fixtures/evmd/evm-*.json): transactions without yParity, receipts with logs and
// contractAddress, logs as eth_getLogs and eth_subscribe("logs") give them, and the logs bloom.
import { getAddress } from 'viem';
import type { Block, Chain, TxRecord } from './chain';
import { hex0x, keccak256, quantity } from './encoding';
import type { EvmLog } from './ledger';

export interface LogFilter {
  address?: string[];
  /** Per position: undefined/null = any, else one of these topics. */
  topics?: Array<string[] | null>;
}

export function evmRecordsOf(chain: Chain, b: Block): TxRecord[] {
  return b.evmTxs.map((e) => chain.txByEvmHash(e.hash)).filter((t): t is TxRecord => t !== undefined);
}

/** eth_getTransactionByHash of a real tx (block undefined while pending). */
export function realTxJson(t: TxRecord, b: Block | undefined): Record<string, unknown> {
  if (t.real?.kind !== 'evm') throw new Error('not an EVM tx');
  const tx = t.real.tx;
  const price = t.exec?.effectiveGasPrice ?? tx.maxFeePerGas;
  const legacy = tx.txType === 'legacy';
  const json: Record<string, unknown> = {
    blockHash: b ? hex0x(b.id.hash) : null,
    blockNumber: b ? quantity(b.height) : null,
    from: hex0x(t.real.from),
    gas: quantity(tx.gas),
    gasPrice: quantity(tx.txType ? tx.maxFeePerGas : price),
  };
  if (!tx.txType) {
    json.maxFeePerGas = quantity(tx.maxFeePerGas);
    json.maxPriorityFeePerGas = quantity(tx.maxPriorityFeePerGas);
  }
  Object.assign(json, {
    hash: tx.hash,
    input: tx.input,
    nonce: quantity(tx.nonce),
    to: tx.to ? tx.to.toLowerCase() : null,
    transactionIndex: b && t.exec ? quantity(t.exec.evmIndex) : null,
    value: quantity(tx.value),
    type: txTypeOf(tx.txType),
  });
  if (!legacy) json.accessList = [];
  Object.assign(json, {
    chainId: quantity(tx.chainId),
    v: quantity(legacy ? BigInt(tx.yParity) + 35n + 2n * tx.chainId : BigInt(tx.yParity)),
    r: quantity(tx.r),
    s: quantity(tx.s),
  });
  return json;
}

/** The EIP-2718 type of a devnet tx as JSON-RPC writes it. */
function txTypeOf(t: 'legacy' | 'eip2930' | undefined): string {
  return t === 'legacy' ? '0x0' : t === 'eip2930' ? '0x1' : '0x2';
}

export function logJson(l: EvmLog, t: TxRecord, b: Block): Record<string, unknown> {
  return {
    address: l.address,
    topics: l.topics,
    data: l.data,
    blockNumber: quantity(b.height),
    transactionHash: t.evmHash,
    transactionIndex: quantity(t.exec?.evmIndex ?? 0),
    blockHash: hex0x(b.id.hash),
    logIndex: quantity(l.logIndex),
    removed: false,
  };
}

export function realReceiptJson(t: TxRecord, b: Block): Record<string, unknown> {
  if (t.real?.kind !== 'evm' || !t.exec) throw new Error('not an executed EVM tx');
  const e = t.exec;
  return {
    blockHash: hex0x(b.id.hash),
    blockNumber: quantity(b.height),
    contractAddress: e.contractAddress ? e.contractAddress.toLowerCase() : null,
    cumulativeGasUsed: quantity(e.cumulativeGasUsed),
    effectiveGasPrice: quantity(e.effectiveGasPrice),
    from: hex0x(t.real.from),
    gasUsed: quantity(e.gasUsed),
    logs: e.logs.map((l) => logJson(l, t, b)),
    logsBloom: bloom(e.logs),
    status: quantity(e.status),
    to: t.real.tx.to ? t.real.tx.to.toLowerCase() : null,
    transactionHash: t.evmHash,
    transactionIndex: quantity(e.evmIndex),
    type: txTypeOf(t.real.tx.txType),
  };
}

/** The logs of a block matching a filter, in log order. */
export function blockLogs(chain: Chain, b: Block, f: LogFilter): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const t of evmRecordsOf(chain, b)) {
    for (const l of t.exec?.logs ?? []) if (logMatches(l, f)) out.push(logJson(l, t, b));
  }
  return out;
}

export function logMatches(l: EvmLog, f: LogFilter): boolean {
  if (f.address && f.address.length && !f.address.some((a) => a.toLowerCase() === l.address.toLowerCase())) return false;
  const topics = f.topics ?? [];
  for (let i = 0; i < topics.length; i++) {
    const want = topics[i];
    if (!want || want.length === 0) continue;
    const have = l.topics[i];
    if (!have || !want.some((w) => w.toLowerCase() === have.toLowerCase())) return false;
  }
  return true;
}

/** Reads a filter object as go-ethereum does (address: one or many; topics: null, one or many per position). */
export function parseLogFilter(v: unknown): LogFilter {
  const o = (v ?? {}) as Record<string, unknown>;
  const list = (x: unknown): string[] | undefined => (x === undefined || x === null ? undefined : Array.isArray(x) ? x.map(String) : [String(x)]);
  const topics = Array.isArray(o.topics) ? o.topics.map((t) => list(t) ?? null) : undefined;
  return { address: list(o.address), topics };
}

/** The 2048-bit bloom of logs (address and topics), as in Ethereum receipts and headers. */
export function bloom(logs: EvmLog[]): string {
  const bits = Buffer.alloc(256);
  const add = (hex: string): void => {
    const h = keccak256(Buffer.from(hex.slice(2), 'hex'));
    for (let i = 0; i < 6; i += 2) {
      const bit = ((h[i] << 8) | h[i + 1]) & 2047;
      bits[255 - (bit >> 3)] |= 1 << (bit & 7);
    }
  };
  for (const l of logs) {
    add(l.address);
    for (const t of l.topics) add(t);
  }
  return hex0x(bits);
}

export function blockBloom(chain: Chain, b: Block): string {
  return bloom(evmRecordsOf(chain, b).flatMap((t) => t.exec?.logs ?? []));
}

/** EIP-55 form of a 20-byte address. */
export function checksum(address: Buffer): string {
  return getAddress(hex0x(address));
}
