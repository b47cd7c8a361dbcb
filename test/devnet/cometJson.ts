// JSON views of chain objects in CometBFT RPC form: int64 as strings, int32 as numbers,
// hashes/addresses UPPERCASE hex, txs/signatures base64, times RFC 3339 with trimmed nanos.
import type { AbciResult, Block, BlockId, Chain, Commit, TxRecord, Validator } from './chain';
import { goTime, hexUpper } from './encoding';

export function blockIdJson(id: BlockId): Record<string, unknown> {
  return { hash: hexUpper(id.hash), parts: { total: id.partsTotal, hash: hexUpper(id.partsHash) } };
}

export function headerJson(b: Block, chainId: string): Record<string, unknown> {
  return {
    version: { block: '11', app: '1' }, // `app` is omitted by CometBFT only when 0
    chain_id: chainId,
    height: b.height.toString(),
    time: goTime(b.timeNs),
    last_block_id: blockIdJson(b.lastBlockId),
    last_commit_hash: hexUpper(b.lastCommitHash),
    data_hash: hexUpper(b.dataHash),
    validators_hash: hexUpper(b.validatorsHash),
    next_validators_hash: hexUpper(b.validatorsHash),
    consensus_hash: hexUpper(b.consensusHash),
    app_hash: hexUpper(b.appHash),
    last_results_hash: hexUpper(b.lastResultsHash),
    evidence_hash: hexUpper(b.evidenceHash),
    proposer_address: hexUpper(b.proposer.address),
  };
}

export function commitJson(c: Commit): Record<string, unknown> {
  return {
    height: c.height.toString(),
    round: c.round,
    block_id: blockIdJson(c.blockId),
    signatures: c.signatures.map((s) => ({
      block_id_flag: s.flag,
      validator_address: hexUpper(s.validatorAddress),
      timestamp: goTime(s.timeNs),
      signature: s.signature.toString('base64'),
    })),
  };
}

export function blockJson(b: Block, chainId: string): Record<string, unknown> {
  return {
    header: headerJson(b, chainId),
    data: { txs: b.txs.map((t) => t.toString('base64')) },
    evidence: { evidence: [] },
    last_commit: commitJson(b.lastCommit),
  };
}

export function abciJson(r: AbciResult): Record<string, unknown> {
  return {
    code: r.code,
    data: r.data.length ? r.data.toString('base64') : null,
    log: r.log,
    info: r.info,
    gas_wanted: r.gasWanted.toString(),
    gas_used: r.gasUsed.toString(),
    events: r.events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ ...a })) })),
    codespace: r.codespace,
  };
}

/**
 * The `TxResult` of a Tx event as CometBFT v0.38 publishes it: protobuf-JSON with omitempty, so
 * `index` 0 and every zero field of the result (code 0, empty data/log/info/codespace, gas 0) are
 * absent; a successful kvstore tx carries only `events`.
 */
export function txResultEventJson(t: TxRecord): Record<string, unknown> {
  const r = t.result;
  const result: Record<string, unknown> = {};
  if (r.code !== 0) result.code = r.code;
  if (r.data.length) result.data = r.data.toString('base64');
  if (r.log) result.log = r.log;
  if (r.info) result.info = r.info;
  if (r.gasWanted !== 0n) result.gas_wanted = r.gasWanted.toString();
  if (r.gasUsed !== 0n) result.gas_used = r.gasUsed.toString();
  if (r.events.length) result.events = r.events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ ...a })) }));
  if (r.codespace) result.codespace = r.codespace;
  const out: Record<string, unknown> = { height: t.height.toString() };
  if (t.index !== 0) out.index = t.index;
  out.tx = t.bytes.toString('base64');
  out.result = result;
  return out;
}

export function txJson(t: TxRecord, prove: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    hash: t.hash,
    height: t.height.toString(),
    index: t.index,
    tx_result: abciJson(t.result),
    tx: t.bytes.toString('base64'),
  };
  if (prove) {
    out.proof = {
      root_hash: t.hash,
      data: t.bytes.toString('base64'),
      proof: { total: '1', index: '0', leaf_hash: Buffer.from(t.hash, 'hex').toString('base64'), aunts: [] },
    };
  }
  return out;
}

export function validatorJson(v: Validator): Record<string, unknown> {
  return {
    address: hexUpper(v.address),
    pub_key: { type: 'tendermint/PubKeyEd25519', value: v.pubKey.toString('base64') },
    voting_power: v.power.toString(),
    proposer_priority: v.priority.toString(),
  };
}

/** The composite-key map a Tx event is published with (tm.event, tx.hash, tx.height, app.*). */
export function txEventsMap(t: TxRecord): Record<string, string[]> {
  const m: Record<string, string[]> = { 'tm.event': ['Tx'], 'tx.hash': [t.hash], 'tx.height': [t.height.toString()] };
  for (const e of t.result.events) {
    for (const a of e.attributes) (m[`${e.type}.${a.key}`] ??= []).push(a.value);
  }
  return m;
}

export function txRecordsOf(chain: Chain, b: Block): TxRecord[] {
  return b.txHashes.map((h) => chain.tx(h)).filter((t): t is TxRecord => t !== undefined);
}

/**
 * CometBFT's `rpc.Cacheable` routes (rpc/core/routes.go): their answers carry `Cache-Control:
 * public, max-age=86400`; 'height' ones only when a height is given. Over GET only successes get
 * the header; over POST every answer of a batch of cacheable calls does, handler errors included
 * (a block past the tip is cacheable for a day), but not parameter or method errors.
 */
const CACHEABLE: Record<string, 'always' | 'height'> = {
  blockchain: 'always',
  genesis: 'always',
  genesis_chunked: 'always',
  block: 'height',
  block_by_hash: 'always',
  block_results: 'height',
  commit: 'height',
  header: 'height',
  header_by_hash: 'always',
  tx: 'always',
  validators: 'height',
  consensus_params: 'height',
  abci_info: 'always',
};
export const CACHE_HEADERS = { 'Cache-Control': 'public, max-age=86400' };

export function cacheable(name: string, args: Record<string, unknown>): boolean {
  const c = Object.prototype.hasOwnProperty.call(CACHEABLE, name) ? CACHEABLE[name] : undefined;
  return c === 'always' || (c === 'height' && args.height !== undefined);
}
