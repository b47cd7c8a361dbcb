// A real Cosmos EVM chain for the conformance suite and `npm run chain`: evmd (built by
// scripts/real/evmd.cjs), one validator set up as upstream's local_node.sh does (keyring `test`,
// eth_secp256k1 keys from known mnemonics, denom `atest`), every listener on a free loopback
// port, fast blocks, a temporary home removed by dispose(). Every CLI call has a timeout; the
// node process is registered with the process-wide killer of helpers/nodes.ts.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DENOM_METADATA } from '../../devnet/devTx';
import { evmdBinary, freePort, lastLines, register, removeOnExit, setToml, sleep, terminate } from './nodes';

/** upstream local_node.sh's validator and first dev account (public test mnemonics). */
export const VALIDATOR = {
  name: 'mykey',
  mnemonic:
    'gesture inject test cycle original hollow east ridge hen combine junk child bacon zero hope comfort vacuum milk pitch cage oppose unhappy lunar seat',
};
export const DEV0 = {
  name: 'dev0',
  mnemonic: 'copper push brief egg scan entry inform record adjust fossil boss egg comic alien upon aspect dry avoid interest fury window hint race symptom',
};
export const DENOM = 'atest';
/** evmd v0.3.2 compiles its EVM chain id in (config.EVMChainID); app.toml says the same. */
export const EVM_CHAIN_ID = 262144n;
/** Gas price for Cosmos txs: well above the fee market's base fee. */
export const GAS_PRICES = `10000000000${DENOM}`;

export interface EvmdPorts {
  rpc: number;
  p2p: number;
  proxy: number;
  pprof: number;
  grpc: number;
  api: number;
  jsonRpc: number;
  jsonRpcWs: number;
  metrics: number;
  prometheus: number;
}

export interface EvmdOptions {
  chainId?: string;
  /** CometBFT timeout_commit; default 500 ms. */
  timeoutCommitMs?: number;
  moniker?: string;
  /** Keep the home (npm run chain prints it); default a new temp folder. */
  home?: string;
  /**
   * A node for contracts and traces: `debug` in the JSON-RPC api and the static precompiles active
   * (with the native token pair), as upstream local_node.sh sets them. REST stays on: one evmd node
   * serves REST, gRPC, `debug` and the precompiles together (PROTOCOLS.md, correction of November
   * 26: what had closed REST was an `EVMD_API` variable in the launching environment, which the
   * SDK reads as configuration; evmdEnv() now keeps every `EVMD_*` variable away from the node).
   */
  trace?: boolean;
  /** app.toml `pruning`; default the SDK's ("default": 362,880 recent states). `"nothing"` keeps every height. */
  pruning?: 'default' | 'nothing' | 'everything';
}

/**
 * The environment for evmd processes: the caller's, without any `EVMD_*` variable. The Cosmos SDK
 * reads every variable prefixed with the binary's name as configuration (viper), so a stray
 * `EVMD_API=…` in a developer's shell would replace the node's whole `[api]` section.
 */
export function evmdEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^EVMD_/i.test(k)));
}

/** The static precompiles the trace node activates: p256, bech32, staking … evidence (0x…0800-0x…0807). */
export const STATIC_PRECOMPILES = [
  '0x0000000000000000000000000000000000000100',
  '0x0000000000000000000000000000000000000400',
  ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `0x000000000000000000000000000000000000080${i}`),
];
/** The ERC-20 address of the native denom (local_node.sh's token pair). */
export const NATIVE_ERC20 = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

export class EvmdNode {
  proc?: ChildProcess;
  ports = {} as EvmdPorts;
  readonly logFile: string;
  readonly addresses: Record<string, { bech32: string; hex: string }> = {};

  private constructor(
    readonly bin: string,
    readonly home: string,
    readonly chainId: string,
  ) {
    this.logFile = path.join(home, 'evmd.log');
  }

  get cometHttp(): string {
    return `http://127.0.0.1:${this.ports.rpc}`;
  }
  get cometWs(): string {
    return `ws://127.0.0.1:${this.ports.rpc}/websocket`;
  }
  get rest(): string {
    return `http://127.0.0.1:${this.ports.api}`;
  }
  get evmRpc(): string {
    return `http://127.0.0.1:${this.ports.jsonRpc}`;
  }
  get evmWs(): string {
    return `ws://127.0.0.1:${this.ports.jsonRpcWs}`;
  }
  get genesisFile(): string {
    return path.join(this.home, 'config', 'genesis.json');
  }

  /** Runs the evmd CLI against this home (60 s limit); returns stdout, throws with the output on failure. */
  cli(args: string[], input?: string, timeoutMs = 60_000): string {
    const r = spawnSync(this.bin, [...args, '--home', this.home], {
      input,
      encoding: 'utf8',
      timeout: timeoutMs,
      env: evmdEnv(),
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.status !== 0) {
      throw new Error(
        `evmd ${args.join(' ')} failed (${r.error?.message ?? r.status ?? r.signal}):\n${(r.stderr ?? '').slice(-2000)}${(r.stdout ?? '').slice(-1000)}`,
      );
    }
    return r.stdout;
  }

  /** A new home with one validator and one funded dev account, listeners on free loopback ports. */
  static async create(options: EvmdOptions = {}): Promise<EvmdNode> {
    const evmd = evmdBinary();
    const home = options.home ?? mkdtempSync(path.join(tmpdir(), 'ce-real-evmd-'));
    const node = new EvmdNode(evmd.path, home, options.chainId ?? 'chain-endpoints-evmd-1');
    if (!options.home) removeOnExit(home);
    try {
      node.init(options);
      await node.configure(options);
    } catch (e) {
      if (!options.home) rmSync(home, { recursive: true, force: true });
      throw e;
    }
    return node;
  }

  private init(options: EvmdOptions): void {
    const kr = ['--keyring-backend', 'test'];
    this.cli(['config', 'set', 'client', 'chain-id', this.chainId]);
    this.cli(['config', 'set', 'client', 'keyring-backend', 'test']);
    for (const k of [VALIDATOR, DEV0]) {
      this.cli(['keys', 'add', k.name, '--recover', '--algo', 'eth_secp256k1', ...kr], `${k.mnemonic}\n`);
      const bech32 = this.cli(['keys', 'show', k.name, '-a', ...kr]).trim();
      const hex = this.cli(['debug', 'addr', bech32]).match(/Address \(hex\):\s*([0-9A-Fa-f]{40})/)?.[1];
      if (!hex) throw new Error(`evmd debug addr ${bech32}: no hex address in its output`);
      this.addresses[k.name] = { bech32, hex: '0x' + hex.toLowerCase() };
    }
    this.cli(['init', options.moniker ?? 'chain-endpoints-real', '-o', '--chain-id', this.chainId]);
    // local_node.sh's genesis edits: one denom everywhere, the fee market as upstream ships it.
    const g = JSON.parse(readFileSync(this.genesisFile, 'utf8'));
    const s = g.app_state;
    s.staking.params.bond_denom = DENOM;
    s.gov.params.min_deposit[0].denom = DENOM;
    s.gov.params.expedited_min_deposit[0].denom = DENOM;
    s.evm.params.evm_denom = DENOM;
    s.mint.params.mint_denom = DENOM;
    s.bank.denom_metadata = [DENOM_METADATA]; // the devnet answers the same
    g.consensus.params.block.max_gas = '10000000';
    if (options.trace) {
      s.evm.params.active_static_precompiles = STATIC_PRECOMPILES;
      s.erc20.native_precompiles = [NATIVE_ERC20];
      s.erc20.token_pairs = [{ contract_owner: 1, erc20_address: NATIVE_ERC20, denom: DENOM, enabled: true }];
    }
    writeFileSync(this.genesisFile, JSON.stringify(g, null, 2));
    this.cli(['genesis', 'add-genesis-account', VALIDATOR.name, `100000000000000000000000000${DENOM}`, ...kr]);
    this.cli(['genesis', 'add-genesis-account', DEV0.name, `1000000000000000000000${DENOM}`, ...kr]);
    this.cli(['genesis', 'gentx', VALIDATOR.name, `1000000000000000000000${DENOM}`, '--gas-prices', `10000000${DENOM}`, '--chain-id', this.chainId, ...kr]);
    this.cli(['genesis', 'collect-gentxs']);
    this.cli(['genesis', 'validate-genesis']);
  }

  private async configure(options: EvmdOptions): Promise<void> {
    const taken = new Set<number>();
    const port = async (): Promise<number> => {
      for (;;) {
        const p = await freePort();
        if (!taken.has(p)) {
          taken.add(p);
          return p;
        }
      }
    };
    for (const k of ['rpc', 'p2p', 'proxy', 'pprof', 'grpc', 'api', 'jsonRpc', 'jsonRpcWs', 'metrics', 'prometheus'] as const) this.ports[k] = await port();
    const P = this.ports;
    const q = (s: string) => JSON.stringify(s);
    const edit = (file: string, edits: Array<[string, string, string]>) => {
      const f = path.join(this.home, 'config', file);
      let text = readFileSync(f, 'utf8');
      for (const [section, key, value] of edits) text = setToml(text, section, key, value);
      writeFileSync(f, text);
    };
    // Every listener on 127.0.0.1: CometBFT's RPC, p2p, ABCI proxy and pprof.
    edit('config.toml', [
      ['', 'moniker', q(options.moniker ?? 'chain-endpoints-real')],
      ['', 'proxy_app', q(`tcp://127.0.0.1:${P.proxy}`)],
      ['rpc', 'laddr', q(`tcp://127.0.0.1:${P.rpc}`)],
      ['rpc', 'pprof_laddr', q(`127.0.0.1:${P.pprof}`)],
      ['p2p', 'laddr', q(`tcp://127.0.0.1:${P.p2p}`)],
      ['p2p', 'external_address', '""'],
      ['p2p', 'seeds', '""'],
      ['p2p', 'persistent_peers', '""'],
      ['p2p', 'pex', 'false'],
      ['p2p', 'addr_book_strict', 'false'],
      ['consensus', 'timeout_commit', q(`${options.timeoutCommitMs ?? 500}ms`)],
      ['consensus', 'timeout_propose', '"1s"'],
      ['instrumentation', 'prometheus', 'false'],
      ['instrumentation', 'prometheus_listen_addr', q(`127.0.0.1:${P.prometheus}`)],
    ]);
    // The app's servers: REST gateway, gRPC, EVM JSON-RPC (HTTP and WebSocket) and its metrics.
    edit('app.toml', [
      ['api', 'enable', 'true'],
      ['api', 'address', q(`tcp://127.0.0.1:${P.api}`)],
      ['grpc', 'enable', 'true'],
      ['grpc', 'address', q(`127.0.0.1:${P.grpc}`)],
      ['json-rpc', 'enable', 'true'],
      ['json-rpc', 'address', q(`127.0.0.1:${P.jsonRpc}`)],
      ['json-rpc', 'ws-address', q(`127.0.0.1:${P.jsonRpcWs}`)],
      ['json-rpc', 'metrics-address', q(`127.0.0.1:${P.metrics}`)],
      ['json-rpc', 'api', q(options.trace ? 'eth,txpool,net,web3,debug' : 'eth,txpool,net,web3')],
      ['evm', 'evm-chain-id', EVM_CHAIN_ID.toString()],
      ...(options.pruning ? ([['', 'pruning', q(options.pruning)]] as Array<[string, string, string]>) : []),
    ]);
  }

  /** `evmd start`; resolves when CometBFT, REST and the EVM JSON-RPC all answer above height 1. */
  async start(timeoutMs = 90_000): Promise<void> {
    if (this.proc && this.proc.exitCode === null && this.proc.signalCode === null) throw new Error('evmd already running');
    const log = createWriteStream(this.logFile, { flags: 'a' });
    log.write(`\n===== start at ${new Date().toISOString()}\n`);
    const p = spawn(
      this.bin,
      ['start', '--home', this.home, '--chain-id', this.chainId, `--minimum-gas-prices=0${DENOM}`, '--log_level', 'info', '--log_no_color'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: evmdEnv() },
    );
    register(p);
    p.stdout?.pipe(log, { end: false });
    p.stderr?.pipe(log, { end: false });
    p.once('exit', () => setTimeout(() => log.end(), 100));
    this.proc = p;
    const deadline = Date.now() + timeoutMs;
    const up = async (): Promise<boolean> => {
      const st = await fetch(`${this.cometHttp}/status`, { signal: AbortSignal.timeout(2000) });
      if (!st.ok || BigInt(((await st.json()) as { result: { sync_info: { latest_block_height: string } } }).result.sync_info.latest_block_height) < 2n)
        return false;
      const rest = await fetch(`${this.rest}/cosmos/base/tendermint/v1beta1/syncing`, { signal: AbortSignal.timeout(2000) });
      const evm = await fetch(this.evmRpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
        signal: AbortSignal.timeout(2000),
      });
      return rest.ok && evm.ok;
    };
    for (;;) {
      if (p.exitCode !== null || p.signalCode !== null) {
        await sleep(200);
        throw new Error(`evmd exited (${p.exitCode ?? p.signalCode}) while starting; log:\n${lastLines(this.logFile, 40)}`);
      }
      try {
        if (await up()) return;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) {
        await terminate(p);
        throw new Error(`evmd did not serve a block on all interfaces within ${timeoutMs} ms; log:\n${lastLines(this.logFile, 40)}`);
      }
      await sleep(200);
    }
  }

  async stop(): Promise<void> {
    await terminate(this.proc, 10_000);
  }

  /** Stops the node and removes its home. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.home, { recursive: true, force: true });
    removeOnExit(this.home, false);
  }

  log(n = 40): string {
    return lastLines(this.logFile, n);
  }

  // ---- Cosmos transactions through the CLI ----------------------------------------------------

  /**
   * Signs and broadcasts a transaction with the CLI (`args`: the `tx …` command and its arguments;
   * `from`: the key, when the command does not name it itself), at the test gas price: its hash as
   * the CLI prints it. Waiting for the block is the caller's.
   */
  broadcastTx(args: string[], opts: { from?: string; gas?: number } = {}): string {
    const out = this.cli([
      ...args,
      ...(opts.from ? ['--from', opts.from] : []),
      '--gas',
      String(opts.gas ?? 300_000),
      '--gas-prices',
      GAS_PRICES,
      '--keyring-backend',
      'test',
      '--node',
      this.cometHttp.replace(/^http/, 'tcp'),
      '--output',
      'json',
      '-y',
    ]);
    return String(JSON.parse(out.slice(out.indexOf('{'))).txhash);
  }

  /**
   * A bank send signed by `from` with the CLI (generate-only, sign with the account's number and
   * sequence read from the node, encode): the tx bytes as base64.
   */
  signBankSend(from: string, to: string, amount: bigint, memo = ''): string {
    const dir = mkdtempSync(path.join(this.home, 'tx-'));
    const common = ['--chain-id', this.chainId, '--keyring-backend', 'test', '--node', `tcp://127.0.0.1:${this.ports.rpc}`];
    const unsigned = this.cli([
      'tx',
      'bank',
      'send',
      from,
      to,
      `${amount}${DENOM}`,
      '--generate-only',
      '--gas',
      '200000',
      '--gas-prices',
      GAS_PRICES,
      '--note',
      memo,
      ...common,
    ]);
    writeFileSync(path.join(dir, 'unsigned.json'), unsigned);
    const signed = this.cli(['tx', 'sign', path.join(dir, 'unsigned.json'), '--from', from, ...common]);
    writeFileSync(path.join(dir, 'signed.json'), signed);
    const bytes = this.cli(['tx', 'encode', path.join(dir, 'signed.json')]).trim();
    rmSync(dir, { recursive: true, force: true });
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(bytes)) throw new Error(`evmd tx encode printed no base64: ${bytes.slice(0, 200)}`);
    return bytes;
  }
}
