// The REST interface of one provider, imitating the Cosmos SDK gRPC gateway on 1317: bytes as
// base64, int64 as strings, gRPC-coded errors {code,message,details} with mapped HTTP statuses,
// 501 for anything unknown and an x-cosmos-block-height header on every answer.
import type { Block, BlockId, Chain, PruneFloor, TxRecord } from './chain';
import { floorOf, MempoolError } from './chain';
import { bech32Decode, bech32Encode, hexUpper, protoTime, sha256 } from './encoding';
import { txEventsMap } from './cometJson';
import { type Query, matches, parseQuery } from './query';
import { restAccountJson, restTxJson } from './restTx';
import { type HttpCall, sendJson } from './server';
import { DENOM, DENOM_METADATA } from './devTx';
import { isModuleRouteError, moduleRoute } from './restModules';
import { isStateRouteError, stateHeightOf, stateRoute } from './restState';

export interface RestOptions {
  chain: Chain;
  providerName: string;
  lag: number;
  consensusPort: () => number;
  host: string;
  /** REST modules this gateway answers 501 for (e.g. `bank`, `staking`, `tx`): as a gateway without them. */
  modulesOff?: readonly string[];
  /** Blocks below this height are pruned on this provider. */
  prunedBelow?: PruneFloor;
  /** false: the node's transaction indexer is off (node_info says tx_index "off"). */
  txIndex?: boolean;
}

/** The EVM module's params as evmd answers them (its denom is the chain's `atest`). */
const EVM_PARAMS = {
  params: {
    evm_denom: DENOM,
    extra_eips: [],
    evm_channels: [],
    access_control: {
      create: { access_type: 'ACCESS_TYPE_PERMISSIONLESS', access_control_list: [] },
      call: { access_type: 'ACCESS_TYPE_PERMISSIONLESS', access_control_list: [] },
    },
    active_static_precompiles: [],
    history_serve_window: '8192',
  },
};

/** The modules whose `params` the devnet answers (empty params: enough to show the module is served). */
const PARAMS_MODULES =
  /^\/cosmos\/(auth|bank|staking|distribution|slashing|mint)\/v1beta1\/params$|^\/cosmos\/gov\/v1\/params\/[a-z]+$|^\/cosmos\/evm\/vm\/v1\/params$/;

const HTTP_OF_GRPC: Record<number, number> = { 2: 500, 3: 400, 4: 504, 5: 404, 7: 403, 8: 429, 12: 501, 13: 500, 14: 503, 16: 401 };
const BASE = '/cosmos/base/tendermint/v1beta1';

class GrpcError extends Error {
  /** `reached`: the gRPC handler ran (false: the gateway refused the request by itself). */
  constructor(
    readonly code: number,
    message: string,
    readonly reached = true,
  ) {
    super(message);
  }
}

export class RestService {
  constructor(private readonly o: RestOptions) {}

  private get chain(): Chain {
    return this.o.chain;
  }

  /**
   * Headers as evmd's gateway sends them: a query that reached its gRPC handler carries
   * grpc-metadata-* (and x-cosmos-block-height when it succeeded); the gateway's own refusals
   * (unknown route, a height that is not a number) and broadcasts carry none of them.
   */
  handle(call: HttpCall): void {
    const view = this.chain.viewHeight(this.o.lag);
    const grpc = { 'Grpc-Metadata-Content-Type': 'application/grpc+cosmos-sdk-grpc-codec', 'Grpc-Metadata-X-Cosmos-Block-Height': view.toString() };
    if (call.tooLarge) {
      const body =
        '{"jsonrpc":"2.0","id":-1,"error":{"code":-32600,"message":"Invalid Request","data":"error reading request body: http: request body too large"}}';
      return sendJson(call.res, 400, body);
    }
    const broadcast = call.req.method === 'POST' && call.path === '/cosmos/tx/v1beta1/txs';
    try {
      // A state query at the x-cosmos-block-height header's height (restState.ts).
      const served = call.req.method === 'GET' && !this.o.modulesOff?.some((m) => call.path.startsWith(`/cosmos/${m}/`));
      const at = served ? stateHeightOf(call.path, call.req.headers['x-cosmos-block-height'], view, floorOf(this.o.prunedBelow)) : undefined;
      if (isStateRouteError(at)) throw new GrpcError(at.grpc, at.message);
      const state = served ? stateRoute(this.chain, call.path, at ?? view) : undefined;
      if (isStateRouteError(state)) throw new GrpcError(state.grpc, state.message);
      const result = state ?? this.route(call, view, at);
      const read = (at ?? view).toString();
      sendJson(call.res, 200, JSON.stringify(result), broadcast ? {} : { 'x-cosmos-block-height': read, ...grpc, 'Grpc-Metadata-X-Cosmos-Block-Height': read });
    } catch (e) {
      const err = e instanceof GrpcError ? e : new GrpcError(2, e instanceof Error ? e.message : String(e));
      sendJson(
        call.res,
        HTTP_OF_GRPC[err.code] ?? 500,
        JSON.stringify({ code: err.code, message: err.message, details: [] }),
        err.reached && !broadcast ? grpc : {},
      );
    }
  }

  private route(call: HttpCall, view: bigint, stateAt?: bigint): unknown {
    const method = call.req.method ?? 'GET';
    const p = call.path;
    let m: RegExpExecArray | null;
    const module = /^\/cosmos\/(?:base\/)?([a-z]+)\//.exec(p)?.[1];
    if (module && this.o.modulesOff?.includes(module)) throw new GrpcError(12, 'Not Implemented', false);
    if (method === 'GET' && p === '/cosmos/evm/vm/v1/params') return EVM_PARAMS;
    if (method === 'GET' && PARAMS_MODULES.test(p)) return { params: {} };
    const mod = method === 'GET' ? moduleRoute(this.chain, p, call.query) : undefined;
    if (isModuleRouteError(mod)) throw new GrpcError(mod.grpc, mod.message);
    if (mod !== undefined) return mod;
    if (method === 'GET' && (m = /^\/cosmos\/bank\/v1beta1\/denoms_metadata\/([^/]+)$/.exec(p))) {
      if (decodeURIComponent(m[1]) !== DENOM) throw new GrpcError(5, `client metadata for denom ${decodeURIComponent(m[1])}`);
      return { metadata: DENOM_METADATA };
    }
    if (method === 'GET') {
      if (p === `${BASE}/blocks/latest`) return this.block(view, view);
      if ((m = new RegExp(`^${BASE}/blocks/([^/]+)$`).exec(p))) return this.block(parseHeight(m[1]), view);
      if (p === `${BASE}/node_info`) return this.nodeInfo();
      if (p === `${BASE}/syncing`) return { syncing: false };
      if (p === `${BASE}/validatorsets/latest`) return this.validators(view, view);
      if ((m = new RegExp(`^${BASE}/validatorsets/([^/]+)$`).exec(p))) return this.validators(parseHeight(m[1]), view);
      if ((m = /^\/cosmos\/bank\/v1beta1\/balances\/([^/]+)$/.exec(p))) return this.balances(m[1], stateAt);
      if ((m = /^\/cosmos\/auth\/v1beta1\/accounts\/([^/]+)$/.exec(p))) return this.account(m[1]);
      if ((m = /^\/cosmos\/tx\/v1beta1\/txs\/([^/]+)$/.exec(p))) return this.tx(m[1], view);
      if (p === '/cosmos/tx/v1beta1/txs') return this.txSearch(call.query, view);
    }
    if (method === 'POST' && p === '/cosmos/tx/v1beta1/txs') return this.broadcast(call.body);
    throw new GrpcError(12, 'Not Implemented', false);
  }

  private blockAt(height: bigint, view: bigint): Block {
    if (height > view) throw new GrpcError(3, 'requested block height is bigger then the chain length');
    if (height <= 0n) throw new GrpcError(2, `height must be greater than 0, but got ${height}`);
    const pruned = floorOf(this.o.prunedBelow) ?? 0n;
    const lowest = pruned > this.chain.earliest ? pruned : this.chain.earliest;
    const b = height >= lowest ? this.chain.block(height) : undefined;
    if (!b) throw new GrpcError(2, `height ${height} is not available, lowest height is ${lowest}`);
    return b;
  }

  private block(height: bigint, view: bigint): unknown {
    const b = this.blockAt(height, view);
    return { block_id: blockIdJson(b.id), block: this.blockJson(b, false), sdk_block: this.blockJson(b, true) };
  }

  private blockJson(b: Block, sdk: boolean): unknown {
    return {
      header: {
        version: { block: '11', app: '0' },
        chain_id: this.chain.opts.chainId,
        height: b.height.toString(),
        time: protoTime(b.timeNs),
        last_block_id: blockIdJson(b.lastBlockId),
        last_commit_hash: b64(b.lastCommitHash),
        data_hash: b64(b.dataHash),
        validators_hash: b64(b.validatorsHash),
        next_validators_hash: b64(b.validatorsHash),
        consensus_hash: b64(b.consensusHash),
        app_hash: b64(b.appHash),
        last_results_hash: b64(b.lastResultsHash),
        evidence_hash: b64(b.evidenceHash),
        proposer_address: sdk ? bech32Encode('cosmosvalcons', b.proposer.address) : b64(b.proposer.address),
      },
      data: { txs: b.txs.map(b64) },
      evidence: { evidence: [] },
      last_commit: {
        height: b.lastCommit.height.toString(),
        round: b.lastCommit.round,
        block_id: blockIdJson(b.lastCommit.blockId),
        signatures: b.lastCommit.signatures.map((s) => ({
          block_id_flag: 'BLOCK_ID_FLAG_COMMIT',
          validator_address: b64(s.validatorAddress),
          timestamp: protoTime(s.timeNs),
          signature: b64(s.signature),
        })),
      },
    };
  }

  private nodeInfo(): unknown {
    const name = this.o.providerName;
    return {
      default_node_info: {
        protocol_version: { p2p: '8', block: '11', app: '0' },
        default_node_id: sha256(`node/${name}`).subarray(0, 20).toString('hex'),
        listen_addr: 'tcp://0.0.0.0:26656',
        network: this.chain.opts.chainId,
        version: '0.38.12',
        channels: 'QCAhIiMwOGBhAA==',
        moniker: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        other: { tx_index: this.o.txIndex === false ? 'off' : 'on', rpc_address: `tcp://${this.o.host}:${this.o.consensusPort()}` },
      },
      application_version: {
        name: 'devnet',
        app_name: 'devnetd',
        version: '0.1.0',
        git_commit: '0000000000000000000000000000000000000000',
        build_tags: 'netgo,ledger',
        go_version: 'go version go1.22.7 linux/amd64',
        build_deps: [],
        cosmos_sdk_version: 'v0.50.10',
      },
    };
  }

  private validators(height: bigint, view: bigint): unknown {
    this.blockAt(height, view);
    const vals = this.chain.validators;
    return {
      block_height: height.toString(),
      validators: vals.map((v) => ({
        address: bech32Encode('cosmosvalcons', v.address),
        pub_key: { '@type': '/cosmos.crypto.ed25519.PubKey', key: b64(v.pubKey) },
        voting_power: v.power.toString(),
        proposer_priority: v.priority.toString(),
      })),
      pagination: { next_key: null, total: String(vals.length) },
    };
  }

  private account(address: string): unknown {
    const bytes = this.address(address);
    const a = restAccountJson(this.chain.ledger, bytes);
    if (!a) throw new GrpcError(5, `account ${address} not found`);
    return a;
  }

  /** Bank balances; at a height (the x-cosmos-block-height header) the state after that block. */
  private balances(address: string, height?: bigint): unknown {
    const bytes = this.address(address);
    const amount = this.chain.balanceOf(bytes, height);
    const balances = amount > 0n ? [{ denom: 'atest', amount: amount.toString() }] : [];
    return { balances, pagination: { next_key: null, total: String(balances.length) } };
  }

  private address(address: string): Buffer {
    if (address === '') throw new GrpcError(3, 'invalid address: empty address string is not allowed');
    let bytes: Buffer;
    try {
      const d = bech32Decode(address);
      if (d.hrp !== 'cosmos') throw new Error(`invalid Bech32 prefix; expected cosmos, got ${d.hrp}`);
      if (d.bytes.length === 0 || d.bytes.length > 255) throw new Error(`address length must be between 1 and 255, got ${d.bytes.length}`);
      bytes = d.bytes;
    } catch (e) {
      throw new GrpcError(3, `invalid address: ${e instanceof Error ? e.message : String(e)}`);
    }
    return bytes;
  }

  private tx(hash: string, view: bigint): unknown {
    // The SDK hex-decodes the hash (Go's error as code 2, Unknown), then asks CometBFT for it.
    const bad = goHexError(hash);
    if (bad) throw new GrpcError(2, bad);
    const t = hash.length === 64 ? this.chain.tx(hash) : undefined;
    if (!t || t.height > view) throw new GrpcError(5, `tx not found: ${hash}`);
    const { tx, tx_response } = this.txWithResponse(t);
    return { tx, tx_response };
  }

  /**
   * GET /cosmos/tx/v1beta1/txs?query=… (SDK 0.50+; `events=` pairs are joined with AND as the old
   * form): the txs whose events match, oldest first (order_by=ORDER_BY_DESC reverses), page/limit.
   */
  private txSearch(params: URLSearchParams, view: bigint): unknown {
    const events = params.getAll('events');
    const text = params.get('query') || events.join(' AND ');
    if (!text) throw new GrpcError(3, 'query cannot be empty');
    let q: Query;
    try {
      q = parseQuery(text);
    } catch (e) {
      throw new GrpcError(3, e instanceof Error ? e.message : String(e));
    }
    const found = [...this.chain.allTxs()].filter((t) => t.height <= view && matches(q, txEventsMap(t)));
    found.sort((x, y) => (x.height === y.height ? x.index - y.index : x.height < y.height ? -1 : 1));
    if (params.get('order_by') === 'ORDER_BY_DESC' || params.get('order_by') === '2') found.reverse();
    const limit = Math.min(100, Math.max(1, Number(params.get('limit') ?? params.get('pagination.limit') ?? 100) || 100));
    const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
    const slice = found.slice((page - 1) * limit, page * limit).map((t) => this.txWithResponse(t));
    return { txs: slice.map((s) => s.tx), tx_responses: slice.map((s) => s.tx_response), pagination: null, total: String(found.length) };
  }

  private txWithResponse(t: TxRecord): { tx: Record<string, unknown>; tx_response: Record<string, unknown> } {
    const b = this.chain.block(t.height);
    const tx = restTxJson(t) ?? emptyTx();
    return {
      tx,
      tx_response: {
        height: t.height.toString(),
        txhash: t.hash,
        codespace: t.result.codespace,
        code: t.result.code,
        data: hexUpper(t.result.data),
        raw_log: t.result.log,
        logs: [],
        info: t.result.info,
        gas_wanted: t.result.gasWanted.toString(),
        gas_used: t.result.gasUsed.toString(),
        tx: { '@type': '/cosmos.tx.v1beta1.Tx', ...tx },
        timestamp: b ? protoTime((b.timeNs / 1_000_000_000n) * 1_000_000_000n) : '',
        events: t.result.events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ ...a })) })),
      },
    };
  }

  private broadcast(body: Buffer): unknown {
    let req: { tx_bytes?: unknown; mode?: unknown };
    try {
      req = JSON.parse(body.toString('utf8') || '{}') as typeof req;
    } catch (e) {
      const ch = /Unexpected token '?(.)'?/.exec(String(e));
      throw new GrpcError(3, ch ? `invalid character '${ch[1]}' looking for beginning of value` : 'unexpected EOF');
    }
    const modes = ['BROADCAST_MODE_UNSPECIFIED', 'BROADCAST_MODE_BLOCK', 'BROADCAST_MODE_SYNC', 'BROADCAST_MODE_ASYNC'];
    const mode = req.mode ?? 'BROADCAST_MODE_UNSPECIFIED';
    const modeName = typeof mode === 'number' ? modes[mode] : mode;
    if (typeof modeName !== 'string' || !modes.includes(modeName)) {
      throw new GrpcError(3, `proto: (line 1:1): invalid value for enum field mode: ${JSON.stringify(mode)}`);
    }
    if (req.tx_bytes !== undefined && (typeof req.tx_bytes !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(req.tx_bytes))) {
      throw new GrpcError(3, `proto: (line 1:14): invalid value for bytes field tx_bytes: ${JSON.stringify(req.tx_bytes)}`);
    }
    const bytes = Buffer.from((req.tx_bytes as string | undefined) ?? '', 'base64');
    // An empty tx goes to CheckTx, whose decoder refuses it (SDK 0.53; no "invalid empty tx" check).
    if (bytes.length === 0) return { tx_response: txResponse(hexUpper(sha256(bytes)), 18, 'sdk', 'must contain at least one message: invalid request') };
    if (modeName !== 'BROADCAST_MODE_SYNC' && modeName !== 'BROADCAST_MODE_ASYNC') {
      // BROADCAST_MODE_BLOCK is gone since SDK 0.47: it normalises to "unspecified".
      throw new GrpcError(2, 'unsupported return type unspecified; supported types: sync, async');
    }
    let resp: Record<string, unknown>;
    try {
      const { hash, check } = this.chain.submitTx(bytes);
      const sync = modeName === 'BROADCAST_MODE_SYNC';
      resp = txResponse(hash, sync ? check.code : 0, sync ? check.codespace : '', sync ? check.log : '');
    } catch (e) {
      if (!(e instanceof MempoolError)) throw e;
      // The SDK turns known CometBFT mempool errors into ordinary responses with an sdk code.
      const hash = hexUpper(sha256(bytes));
      if (e.message === 'tx already exists in cache') resp = txResponse(hash, 19, 'sdk', '');
      else if (e.message.startsWith('Tx too large')) resp = txResponse(hash, 21, 'sdk', '');
      else throw new GrpcError(2, e.message);
    }
    return { tx_response: resp };
  }
}

function txResponse(hash: string, code: number, codespace: string, rawLog: string): Record<string, unknown> {
  return {
    height: '0',
    txhash: hash,
    codespace,
    code,
    data: '',
    raw_log: rawLog,
    logs: [],
    info: '',
    gas_wanted: '0',
    gas_used: '0',
    tx: null,
    timestamp: '',
    events: [],
  };
}

function emptyTx(): Record<string, unknown> {
  return {
    body: { messages: [], memo: '', timeout_height: '0', unordered: false, timeout_timestamp: null, extension_options: [], non_critical_extension_options: [] },
    auth_info: { signer_infos: [], fee: { amount: [], gas_limit: '0', payer: '', granter: '' }, tip: null },
    signatures: [],
  };
}

function b64(b: Buffer): string {
  return b.toString('base64');
}

/** Empty (nil) hashes are null on the gateway, e.g. the first block's last_block_id. */
function blockIdJson(id: BlockId): Record<string, unknown> {
  const orNull = (b: Buffer) => (b.length ? b64(b) : null);
  return { hash: orNull(id.hash), part_set_header: { total: id.partsTotal, hash: orNull(id.partsHash) } };
}

/** Go's hex.DecodeString error for `s`, or undefined when it decodes. */
function goHexError(s: string): string | undefined {
  const bad = [...s].find((c) => !/[0-9a-fA-F]/.test(c));
  if (bad !== undefined) {
    const cp = bad.codePointAt(0) as number;
    return `encoding/hex: invalid byte: U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${bad}'`;
  }
  return s.length % 2 === 1 ? 'encoding/hex: odd length hex string' : undefined;
}

function parseHeight(s: string): bigint {
  if (!/^[+-]?\d+$/.test(s))
    throw new GrpcError(3, `type mismatch, parameter: height, error: strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`, false);
  const n = BigInt(s);
  if (n > (1n << 63n) - 1n || n < -(1n << 63n)) {
    throw new GrpcError(3, `type mismatch, parameter: height, error: strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`, false);
  }
  return n;
}
