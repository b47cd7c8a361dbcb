// The one chain state every devnet provider serves: blocks, tx index, mempool, a kvstore-like
// application, validators and the genesis bytes. Providers only differ in how far behind the
// tip they look (lag). Block hashes are deterministic fakes (SHA-256 of labels) of the right
// length. With `realTxs`, every block also carries real signed transactions (ledger.ts): bank
// sends and MsgEthereumTxs whose hashes, signatures, events and balances are what evmd gives.
import { bech32Encode, keccak256, sha256, sha512 } from './encoding';
import { evmTxEvents } from './evmEvents';
import { type EvmExec, INITIAL_BALANCE, Ledger, type RealTx } from './ledger';
import { DEVNET_DELEGATION } from './staking';

/**
 * A provider's prune floor: the lowest height it keeps (blocks, state, its transaction index). A fixed
 * height, or a function of the tip for a node that keeps the last N heights (the floor moves up as
 * blocks come, as `pruning-keep-recent` / `min-retain-blocks` do).
 */
export type PruneFloor = bigint | (() => bigint);

/** The floor now (undefined: nothing pruned). */
export function floorOf(p: PruneFloor | undefined): bigint | undefined {
  return typeof p === 'function' ? p() : p;
}

export interface AbciEvent {
  type: string;
  attributes: Array<{ key: string; value: string; index: boolean }>;
}

export interface AbciResult {
  code: number;
  data: Buffer;
  log: string;
  info: string;
  gasWanted: bigint;
  gasUsed: bigint;
  events: AbciEvent[];
  codespace: string;
}

export interface BlockId {
  hash: Buffer; // empty for the "nil" block id of the first block
  partsTotal: number;
  partsHash: Buffer;
}

export interface CommitSig {
  flag: number; // 2 = BLOCK_ID_FLAG_COMMIT
  validatorAddress: Buffer;
  timeNs: bigint;
  signature: Buffer;
}

export interface Commit {
  height: bigint;
  round: number;
  blockId: BlockId;
  signatures: CommitSig[];
}

export interface Validator {
  name: string;
  address: Buffer;
  pubKey: Buffer;
  power: bigint;
  priority: bigint;
}

export interface Block {
  height: bigint;
  timeNs: bigint;
  id: BlockId;
  txs: Buffer[];
  txHashes: string[];
  /** Ethereum hashes (0x lowercase keccak) of the EVM txs in this block, with their index in txs. */
  evmTxs: Array<{ hash: string; index: number }>;
  lastBlockId: BlockId;
  lastCommit: Commit;
  lastCommitHash: Buffer;
  dataHash: Buffer;
  validatorsHash: Buffer;
  consensusHash: Buffer;
  appHash: Buffer; // state after the previous block (what the header carries)
  lastResultsHash: Buffer;
  evidenceHash: Buffer;
  proposer: Validator;
  results: AbciResult[];
  resultAppHash: Buffer; // state after this block (block_results.app_hash)
}

export interface TxRecord {
  hash: string; // UPPERCASE hex SHA-256 of the bytes
  bytes: Buffer;
  height: bigint;
  index: number;
  result: AbciResult;
  evmHash?: string;
  /** A real transaction: what it is (bank send or EVM tx) and, for an EVM tx, its receipt. */
  real?: RealTx;
  exec?: EvmExec;
}

interface MempoolTx {
  hash: string;
  bytes: Buffer;
  evmHash?: string;
  real?: RealTx;
}

/** A mempool refusal: the RPC answers it with -32603 and this text as data. */
export class MempoolError extends Error {}

export interface ChainOptions {
  chainId: string;
  evmChainId: bigint;
  initialHeight: bigint;
  genesisAppStateBytes: number;
  genesisChunkBytes: number;
  /** Generate a few real signed transactions in every block (bank send, EVM transfer, contract call). */
  realTxs?: boolean;
  /** The Cosmos EVM version whose event shapes EVM txs follow: 'v0.3' (default) copies EVM logs into `tx_log` events, 'v0.5' does not. */
  cosmosEvm?: 'v0.3' | 'v0.5';
}

const EMPTY = Buffer.alloc(0);
const EMPTY_SHA = sha256(EMPTY);
const MAX_BLOCKS_KEPT = 100_000;
// About 21 KB of heap per block of real txs: 5,000 blocks (83 min at 1 s) stay near 100 MB.
const MAX_REAL_BLOCKS_KEPT = 5_000;
const MAX_TX_BYTES = 1_048_576;
const CACHE_SIZE = 10_000;

export const NIL_BLOCK_ID: BlockId = { hash: EMPTY, partsTotal: 0, partsHash: EMPTY };

export class Chain {
  readonly opts: ChainOptions;
  readonly validators: Validator[];
  readonly genesisTimeNs: bigint;
  readonly genesis: Buffer;
  readonly genesisChunks: Buffer[];
  private readonly blocks = new Map<bigint, Block>();
  private readonly txs = new Map<string, TxRecord>();
  private readonly evmTxs = new Map<string, string>(); // evm hash -> cosmos hash
  private readonly cache = new Set<string>(); // mempool cache: hashes seen (pending or committed)
  private mempool: MempoolTx[] = [];
  private readonly kv = new Map<string, Buffer>();
  private tipHeight = 0n;
  private earliestHeight: bigint;
  private appHash: Buffer = EMPTY;
  private readonly listeners = new Set<(b: Block) => void>();
  private readonly txWaiters = new Map<string, Array<(t: TxRecord) => void>>();
  /** The dev accounts, their balances and nonces, and the execution of real transactions. */
  readonly ledger: Ledger;

  constructor(opts: ChainOptions) {
    this.opts = opts;
    this.earliestHeight = opts.initialHeight;
    // Accounts the ledger has not seen hold nothing, as on a chain (the dev keys and validators are funded).
    this.ledger = new Ledger(opts.chainId, opts.evmChainId);
    this.genesisTimeNs = BigInt(Date.now()) * 1_000_000n;
    const powers = [1000n, 500n, 250n, 100n];
    this.validators = powers.map((power, i) => {
      const pubKey = sha256(`devnet-validator-${i}`);
      return { name: `validator-${i}`, pubKey, address: sha256(pubKey).subarray(0, 20), power, priority: 0n };
    });
    // Proposer priorities as CometBFT would show them: centred on zero.
    const pr = [-375n, 125n, 375n, -125n];
    this.validators.forEach((v, i) => (v.priority = pr[i]));
    for (const v of this.validators) this.ledger.fund(v.address, this.fakeBalance(v.address));
    // alice's genesis delegation to the first validator (restState.ts serves it; the second block's
    // precompile delegation adds to it).
    this.ledger.stakeAtGenesis(this.ledger.keys[0], bech32Encode('cosmosvaloper', this.validators[0].address), DEVNET_DELEGATION);
    this.ledger.txLogEvents = opts.cosmosEvm !== 'v0.5';
    this.genesis = this.buildGenesis();
    const chunk = Math.max(1, opts.genesisChunkBytes);
    this.genesisChunks = [];
    for (let off = 0; off < this.genesis.length; off += chunk) {
      this.genesisChunks.push(this.genesis.subarray(off, Math.min(off + chunk, this.genesis.length)));
    }
    this.produceBlock();
  }

  get tip(): bigint {
    return this.tipHeight;
  }

  get earliest(): bigint {
    return this.earliestHeight;
  }

  /** The height a provider lagging `lag` blocks sees as latest. */
  viewHeight(lag: number): bigint {
    const h = this.tipHeight - BigInt(lag);
    return h < this.earliestHeight ? this.earliestHeight : h;
  }

  block(height: bigint): Block | undefined {
    return this.blocks.get(height);
  }

  blockByHash(hash: Buffer): Block | undefined {
    // Hashes are derived from the height, so search newest first (callers want recent blocks).
    for (let h = this.tipHeight; h >= this.earliestHeight && h > this.tipHeight - 5000n; h--) {
      const b = this.blocks.get(h);
      if (b && b.id.hash.equals(hash)) return b;
    }
    return undefined;
  }

  tx(hashHex: string): TxRecord | undefined {
    return this.txs.get(hashHex.toUpperCase());
  }

  txByEvmHash(evmHash: string): TxRecord | undefined {
    const h = this.evmTxs.get(evmHash.toLowerCase());
    return h ? this.txs.get(h) : undefined;
  }

  pendingEvm(evmHash: string): MempoolTx | undefined {
    return this.mempool.find((t) => t.evmHash === evmHash.toLowerCase());
  }

  allTxs(): IterableIterator<TxRecord> {
    return this.txs.values();
  }

  unconfirmed(): readonly MempoolTx[] {
    return this.mempool;
  }

  kvGet(key: Buffer): Buffer | undefined {
    return this.kv.get(key.toString('hex'));
  }

  kvSize(): number {
    return this.kv.size;
  }

  get currentAppHash(): Buffer {
    return this.appHash;
  }

  onBlock(fn: (b: Block) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** CheckTx of this kvstore-like app: anything goes, except txs starting with "fail". */
  checkTx(tx: Buffer): AbciResult {
    // kvstore answers an empty tx with CodeTypeInvalidTxFormat (2), as CometBFT v0.38 passes it on.
    if (tx.length === 0) return result(2, '', '', 0n);
    if (tx.subarray(0, 4).toString('latin1') === 'fail') {
      return result(1, `devnet: CheckTx rejects txs starting with "fail"`, 'devnet', 0n);
    }
    return result(0, '', '', 1n);
  }

  /** Adds a tx to the mempool as CometBFT's mempool does; throws MempoolError on a refusal. */
  submitTx(tx: Buffer, evm = false): { hash: string; check: AbciResult; evmHash?: string } {
    if (tx.length > MAX_TX_BYTES) throw new MempoolError(`Tx too large. Max size is ${MAX_TX_BYTES}, but got ${tx.length}`);
    // eth_sendRawTransaction: checked as evmd checks it (rawTx.ts), then a real MsgEthereumTx.
    if (evm) {
      // CometBFT's mempool cache answers a tx it has seen before the app checks it.
      const seen = '0x' + keccak256(tx).toString('hex');
      if (this.txByEvmHash(seen) || this.pendingEvm(seen)) throw new MempoolError('tx already exists in cache');
      let wrapped: ReturnType<Ledger['fromRawEvm']>;
      try {
        wrapped = this.ledger.fromRawEvm(tx);
      } catch (e) {
        throw new MempoolError(e instanceof Error ? e.message : String(e));
      }
      const hash = sha256(wrapped.bytes).toString('hex').toUpperCase();
      const evmHash = wrapped.real.tx.hash;
      this.remember(hash);
      this.mempool.push({ hash, bytes: wrapped.bytes, evmHash, real: wrapped.real });
      return { hash, check: result(0, '', '', wrapped.real.tx.gas), evmHash };
    }
    const hash = sha256(tx).toString('hex').toUpperCase();
    if (this.cache.has(hash)) throw new MempoolError('tx already exists in cache');
    // A bank send signed by a dev account runs like the generated ones (or fails its CheckTx).
    const bank = evm ? undefined : this.ledger.fromCosmosTx(tx);
    if (bank && 'real' in bank) {
      this.remember(hash);
      this.mempool.push({ hash, bytes: tx, real: bank.real });
      return { hash, check: result(0, '', '', bank.real.gasLimit) };
    }
    if (bank) return { hash, check: result(bank.code, bank.log, 'sdk', 0n) };
    const check = this.checkTx(tx);
    const evmHash = evm ? '0x' + keccak256(tx).toString('hex') : undefined;
    if (check.code === 0) {
      this.remember(hash);
      this.mempool.push({ hash, bytes: tx, evmHash });
    }
    return { hash, check, evmHash };
  }

  waitForTx(hash: string, timeoutMs: number): Promise<TxRecord | undefined> {
    const existing = this.txs.get(hash);
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve) => {
      const list = this.txWaiters.get(hash) ?? [];
      const done = (t: TxRecord | undefined): void => {
        clearTimeout(timer);
        const l = this.txWaiters.get(hash);
        if (l) {
          const i = l.indexOf(done);
          if (i >= 0) l.splice(i, 1);
          if (l.length === 0) this.txWaiters.delete(hash);
        }
        resolve(t);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      timer.unref();
      list.push(done);
      this.txWaiters.set(hash, list);
    });
  }

  /** Wakes every broadcast_tx_commit waiter (used when the devnet stops). */
  abortWaiters(): void {
    for (const [, list] of this.txWaiters) for (const fn of [...list]) fn(undefined as unknown as TxRecord);
    this.txWaiters.clear();
  }

  produceBlock(): Block {
    const height = this.tipHeight === 0n ? this.opts.initialHeight : this.tipHeight + 1n;
    const prev = this.blocks.get(height - 1n);
    const generated: MempoolTx[] = this.opts.realTxs
      ? this.ledger.generate().map(({ bytes, real }) => ({
          hash: sha256(bytes).toString('hex').toUpperCase(),
          bytes,
          real,
          evmHash: real.kind === 'evm' ? real.tx.hash : undefined,
        }))
      : [];
    for (const g of generated) this.remember(g.hash);
    const pending = [...generated, ...this.mempool];
    this.mempool = [];
    const nowNs = BigInt(Date.now()) * 1_000_000n + BigInt(Number(height % 997n) * 1003);
    const timeNs = prev && nowNs <= prev.timeNs ? prev.timeNs + 1_000_123n : nowNs;
    const label = `${this.opts.chainId}/${height}`;
    const id: BlockId = { hash: sha256(`block/${label}`), partsTotal: 1, partsHash: sha256(`parts/${label}`) };
    const lastBlockId = prev ? prev.id : NIL_BLOCK_ID;
    const lastCommit: Commit = prev ? this.commitFor(prev) : { height: 0n, round: 0, blockId: NIL_BLOCK_ID, signatures: [] };

    const results: AbciResult[] = [];
    const evmTxs: Array<{ hash: string; index: number }> = [];
    const execs: Array<EvmExec | undefined> = [];
    let logIndex = 0;
    let cumulativeGasUsed = 0n;
    pending.forEach((t, index) => {
      let res: AbciResult;
      if (t.real) {
        if (t.evmHash) evmTxs.push({ hash: t.evmHash, index });
        const out = this.ledger.execute(t.real, {
          height,
          blockHash: `0x${id.hash.toString('hex')}`,
          cosmosHash: t.hash,
          evmIndex: evmTxs.length - 1,
          logIndex,
          cumulativeGasUsed,
        });
        res = result(0, '', '', out.gasWanted, out.gasUsed);
        res.events = out.events;
        res.data = out.data;
        execs[index] = out.exec;
        if (out.exec) {
          logIndex += out.exec.logs.length;
          cumulativeGasUsed = out.exec.cumulativeGasUsed;
        }
      } else if (t.evmHash) {
        evmTxs.push({ hash: t.evmHash, index });
        res = result(0, '', '', 21000n, 21000n);
        res.events = evmTxEvents(t.bytes, t.evmHash, t.hash, evmTxs.length - 1);
      } else {
        // kvstore: "key=value" stores value under key; anything else is stored under itself.
        const parts = splitOnce(t.bytes);
        const [key, value] = parts ?? [t.bytes, t.bytes];
        this.kv.set(key.toString('hex'), value);
        res = result(0, '', '', 0n, 0n);
        res.events = [
          {
            type: 'app',
            attributes: [
              { key: 'creator', value: 'Cosmoshi Netowoko', index: true },
              { key: 'key', value: key.toString('utf8'), index: true },
              { key: 'index_key', value: 'index is working', index: true },
              { key: 'noindex_key', value: 'index is working', index: false },
            ],
          },
          {
            type: 'app',
            attributes: [
              { key: 'creator', value: 'Cosmoshi', index: true },
              { key: 'key', value: value.toString('utf8'), index: true },
              { key: 'index_key', value: 'index is working', index: true },
              { key: 'noindex_key', value: 'index is working', index: false },
            ],
          },
        ];
      }
      results.push(res);
    });
    const headerAppHash = this.appHash;
    this.appHash = sha256(Buffer.concat([this.appHash, Buffer.from(label), ...pending.map((t) => Buffer.from(t.hash, 'hex'))]));

    const block: Block = {
      height,
      timeNs,
      id,
      txs: pending.map((t) => t.bytes),
      txHashes: pending.map((t) => t.hash),
      evmTxs,
      lastBlockId,
      lastCommit,
      lastCommitHash: prev ? sha256(`commit/${this.opts.chainId}/${prev.height}`) : EMPTY_SHA,
      dataHash: pending.length ? sha256(Buffer.concat(pending.map((t) => Buffer.from(t.hash, 'hex')))) : EMPTY_SHA,
      validatorsHash: sha256(`validators/${this.opts.chainId}`),
      consensusHash: sha256(`consensus/${this.opts.chainId}`),
      appHash: headerAppHash, // genesis app_hash (empty) for the first block
      lastResultsHash: prev && prev.results.length ? sha256(`results/${this.opts.chainId}/${prev.height}`) : EMPTY_SHA,
      evidenceHash: EMPTY_SHA,
      proposer: this.validators[Number(height % BigInt(this.validators.length))],
      results,
      resultAppHash: this.appHash,
    };
    this.blocks.set(height, block);
    this.tipHeight = height;
    const records: TxRecord[] = pending.map((t, index) => ({
      hash: t.hash,
      bytes: t.bytes,
      height,
      index,
      result: results[index],
      evmHash: t.evmHash,
      real: t.real,
      exec: execs[index],
    }));
    for (const r of records) {
      this.txs.set(r.hash, r);
      if (r.evmHash) this.evmTxs.set(r.evmHash, r.hash);
    }
    this.prune();
    for (const r of records) {
      const waiters = this.txWaiters.get(r.hash);
      if (waiters) for (const fn of [...waiters]) fn(r);
    }
    for (const fn of [...this.listeners]) fn(block);
    return block;
  }

  /** The commit that seals a block (what the next block carries as last_commit). */
  commitFor(b: Block): Commit {
    return {
      height: b.height,
      round: 0,
      blockId: b.id,
      signatures: this.validators.map((v, i) => ({
        flag: 2,
        validatorAddress: v.address,
        timeNs: b.timeNs + 950_000_000n + BigInt(i * 1_234_567),
        signature: sha512(`sig/${this.opts.chainId}/${b.height}/${i}`),
      })),
    };
  }

  /** The account's balance (atest = wei); zero for an account nobody has funded. At a height: the state after that block. */
  balanceOf(address: Buffer, height?: bigint): bigint {
    return height === undefined ? this.ledger.balance(address) : this.ledger.balanceAt(address, height);
  }

  /** A validator's deterministic genesis balance (may exceed 2^53; one in five is empty). */
  private fakeBalance(address: Buffer): bigint {
    const h = sha256(Buffer.concat([Buffer.from('balance/'), address]));
    if (h[0] % 5 === 0) return 0n;
    return BigInt('0x' + h.subarray(1, 11).toString('hex'));
  }

  private remember(hash: string): void {
    this.cache.add(hash);
    if (this.cache.size > CACHE_SIZE) {
      const first = this.cache.values().next().value;
      if (first !== undefined) this.cache.delete(first);
    }
  }

  private prune(): void {
    // Real txs weigh more (decoded parts, events, receipts): keep fewer blocks of them.
    const keep = BigInt(this.opts.realTxs ? MAX_REAL_BLOCKS_KEPT : MAX_BLOCKS_KEPT);
    while (this.tipHeight - this.earliestHeight + 1n > keep) {
      const b = this.blocks.get(this.earliestHeight);
      if (b) {
        for (let i = 0; i < b.txHashes.length; i++) this.txs.delete(b.txHashes[i]);
        for (const e of b.evmTxs) this.evmTxs.delete(e.hash);
      }
      this.blocks.delete(this.earliestHeight);
      this.earliestHeight++;
    }
  }

  /** Builds the genesis JSON bytes once; the padding is written straight into a Buffer. */
  private buildGenesis(): Buffer {
    const o = this.opts;
    const head = {
      genesis_time: new Date(Number(this.genesisTimeNs / 1_000_000n)).toISOString(),
      chain_id: o.chainId,
      initial_height: o.initialHeight.toString(),
      consensus_params: consensusParamsJson(),
      validators: this.validators.map((v) => ({
        address: v.address.toString('hex').toUpperCase(),
        pub_key: { type: 'tendermint/PubKeyEd25519', value: v.pubKey.toString('base64') },
        power: v.power.toString(),
        name: v.name,
      })),
      app_hash: '',
    };
    const appState = {
      auth: {
        params: { max_memo_characters: '256' },
        accounts: this.ledger.keys.map((k, i) => ({
          '@type': '/cosmos.auth.v1beta1.BaseAccount',
          address: k.bech32,
          pub_key: null,
          account_number: String(i),
          sequence: '0',
        })),
      },
      bank: {
        params: { default_send_enabled: true },
        balances: [
          ...this.validators.map((v) => ({
            address: bech32Encode('cosmos', v.address),
            coins: [{ denom: 'atest', amount: this.balanceOf(v.address).toString() }],
          })),
          ...this.ledger.keys.map((k) => ({ address: k.bech32, coins: [{ denom: 'atest', amount: INITIAL_BALANCE.toString() }] })),
        ],
        supply: [] as unknown[],
        denom_metadata: [] as unknown[],
      },
      evm: { params: { evm_denom: 'atest', chain_id: o.evmChainId.toString() } },
    };
    const prefix = JSON.stringify(head).slice(0, -1) + ',"app_state":' + JSON.stringify(appState).slice(0, -1) + ',"devnet_padding":"';
    const suffix = '"}}';
    const base = Buffer.byteLength(prefix) + suffix.length;
    const pad = Math.max(0, o.genesisAppStateBytes - base);
    return Buffer.concat([Buffer.from(prefix), Buffer.alloc(pad, 0x61), Buffer.from(suffix)]);
  }
}

export function consensusParamsJson(): Record<string, unknown> {
  return {
    block: { max_bytes: '22020096', max_gas: '-1' },
    evidence: { max_age_num_blocks: '100000', max_age_duration: '172800000000000', max_bytes: '1048576' },
    validator: { pub_key_types: ['ed25519'] },
    version: { app: '0' },
    abci: { vote_extensions_enable_height: '0' },
  };
}

function result(code: number, log: string, codespace: string, gasWanted: bigint, gasUsed = 0n): AbciResult {
  return { code, data: EMPTY, log, info: '', gasWanted, gasUsed, events: [], codespace };
}

function splitOnce(tx: Buffer): [Buffer, Buffer] | undefined {
  const i = tx.indexOf(0x3d);
  if (i < 0 || tx.indexOf(0x3d, i + 1) >= 0) return undefined;
  return [tx.subarray(0, i), tx.subarray(i + 1)];
}
