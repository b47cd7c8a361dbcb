// Real nodes for the conformance suite: a single-validator CometBFT home (kvstore app, fast
// blocks, loopback-only RPC and p2p on free ports) and anvil. Every process started here is
// registered and killed when the test process exits, whatever the reason; `stop()` in after()
// hooks is the normal path.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

export interface NodeInfo {
  name: string;
  path: string;
  version: string;
  cached: boolean;
  ms: number;
}
interface EnsureModule {
  ensureNodes(options?: { log?: (m: string) => void; only?: string[] }): NodeBinaries;
}
export interface NodeBinaries {
  cometbft: NodeInfo;
  anvil: NodeInfo;
  evmd: NodeInfo;
}

let ensured: NodeBinaries | undefined;
/** The binaries (installed on first use, cached after); throws with the reason when one cannot be had. */
export function nodeBinaries(): NodeBinaries {
  if (!ensured) {
    const mod = require(path.join(REPO_ROOT, 'scripts', 'real', 'ensureNodes.cjs')) as EnsureModule;
    ensured = mod.ensureNodes({ log: (m) => console.log(`      real-nodes: ${m}`) });
  }
  return ensured;
}

let ensuredEvmd: NodeInfo | undefined;
/** Only evmd (npm run chain and record:evmd need nothing else). */
export function evmdBinary(): NodeInfo {
  if (!ensuredEvmd) {
    const mod = require(path.join(REPO_ROOT, 'scripts', 'real', 'ensureNodes.cjs')) as EnsureModule;
    ensuredEvmd = ensured?.evmd ?? mod.ensureNodes({ only: ['evmd'], log: (m) => console.log(`      real-nodes: ${m}`) }).evmd;
  }
  return ensuredEvmd;
}

// ---- process registry ---------------------------------------------------------------------

const live = new Set<ChildProcess>();
const tempDirs = new Set<string>();
let hooked = false;

function killAllNow(): void {
  for (const p of live) {
    try {
      p.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
  for (const d of tempDirs) {
    try {
      rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch {
      // best effort on the way out
    }
  }
  tempDirs.clear();
}

/** A node's temporary home, removed on exit and on signals too (dispose() removes it normally). */
export function removeOnExit(dir: string, add = true): void {
  if (!add) {
    tempDirs.delete(dir);
    return;
  }
  tempDirs.add(dir);
  installHooks();
}

export function register(p: ChildProcess): void {
  live.add(p);
  p.once('exit', () => live.delete(p));
  installHooks();
}

function installHooks(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', killAllNow);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      killAllNow();
      process.exit(130);
    });
  }
  // Uncaught exceptions are mocha's to report; the 'exit' hook above still kills the nodes.
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
export async function terminate(p: ChildProcess | undefined, graceMs = 5000): Promise<void> {
  if (!p || p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
  p.kill('SIGTERM');
  const timer = setTimeout(() => p.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

// ---- helpers ------------------------------------------------------------------------------

/** A free loopback port: listen on 0, read it, close. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections at `url`'s host and port (true), else undefined (for waitFor). */
export function listening(url: string): Promise<true | undefined> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(port), hostname, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(undefined));
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function lastLines(file: string, n = 25): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-n).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Sets `key = value` inside `[section]` ('' = the top of the file) of a TOML text; the key must exist. */
export function setToml(text: string, section: string, key: string, value: string): string {
  const lines = text.split('\n');
  let current = '';
  for (let i = 0; i < lines.length; i++) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(lines[i]);
    if (header) {
      current = header[1].trim();
      continue;
    }
    if (current === section && new RegExp(`^\\s*${key.replace(/[.]/g, '\\.')}\\s*=`).test(lines[i])) {
      lines[i] = `${key} = ${value}`;
      return lines.join('\n');
    }
  }
  throw new Error(`config.toml has no ${key} in [${section}]`);
}

// ---- CometBFT -----------------------------------------------------------------------------

export interface CometOptions {
  /** Default 300 ms. */
  timeoutCommitMs?: number;
  /** Rewrites the genesis file written by `cometbft init` (gets its parsed JSON, returns the bytes to write). */
  genesis?: (initial: Record<string, unknown>) => Buffer;
  moniker?: string;
}

export class CometNode {
  readonly home: string;
  rpcPort = 0;
  p2pPort = 0;
  proc?: ChildProcess;
  readonly logFile: string;
  private starts = 0;

  private constructor(
    readonly bin: string,
    home: string,
  ) {
    this.home = home;
    this.logFile = path.join(home, 'cometbft.log');
  }

  get http(): string {
    return `http://127.0.0.1:${this.rpcPort}`;
  }
  get ws(): string {
    return `ws://127.0.0.1:${this.rpcPort}/websocket`;
  }
  get genesisFile(): string {
    return path.join(this.home, 'config', 'genesis.json');
  }

  /** `cometbft init` in a temp folder, then a config for one loopback validator with fast blocks. */
  static async create(options: CometOptions = {}): Promise<CometNode> {
    const { cometbft } = nodeBinaries();
    const home = mkdtempSync(path.join(tmpdir(), 'ce-real-cometbft-'));
    const node = new CometNode(cometbft.path, home);
    const init = spawnSync(cometbft.path, ['init', '--home', home], { encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`cometbft init failed (${init.status}): ${init.stderr}${init.stdout}`);
    node.rpcPort = await freePort();
    node.p2pPort = await freePort();
    while (node.p2pPort === node.rpcPort) node.p2pPort = await freePort();
    const configFile = path.join(home, 'config', 'config.toml');
    let toml = readFileSync(configFile, 'utf8');
    const commit = options.timeoutCommitMs ?? 300;
    const edits: Array<[string, string, string]> = [
      ['', 'moniker', JSON.stringify(options.moniker ?? 'chain-endpoints-real')],
      ['rpc', 'laddr', JSON.stringify(`tcp://127.0.0.1:${node.rpcPort}`)],
      ['p2p', 'laddr', JSON.stringify(`tcp://127.0.0.1:${node.p2pPort}`)],
      ['p2p', 'external_address', '""'],
      ['p2p', 'seeds', '""'],
      ['p2p', 'persistent_peers', '""'],
      ['p2p', 'pex', 'false'],
      ['p2p', 'addr_book_strict', 'false'],
      ['consensus', 'timeout_commit', JSON.stringify(`${commit}ms`)],
      ['consensus', 'timeout_propose', '"1s"'],
      ['instrumentation', 'prometheus', 'false'],
    ];
    for (const [section, key, value] of edits) toml = setToml(toml, section, key, value);
    writeFileSync(configFile, toml);
    if (options.genesis) {
      const initial = JSON.parse(readFileSync(node.genesisFile, 'utf8')) as Record<string, unknown>;
      writeFileSync(node.genesisFile, options.genesis(initial));
    }
    return node;
  }

  /** Starts `cometbft start --proxy_app=kvstore` and waits until /status shows a block. */
  async start(timeoutMs = 60_000): Promise<void> {
    if (this.proc && this.proc.exitCode === null && this.proc.signalCode === null) throw new Error('cometbft already running');
    this.starts++;
    const log = createWriteStream(this.logFile, { flags: 'a' });
    log.write(`\n===== start #${this.starts} at ${new Date().toISOString()}\n`);
    const p = spawn(this.bin, ['start', '--home', this.home, '--proxy_app=kvstore'], { stdio: ['ignore', 'pipe', 'pipe'] });
    register(p);
    p.stdout?.pipe(log, { end: false });
    p.stderr?.pipe(log, { end: false });
    p.once('exit', () => setTimeout(() => log.end(), 100));
    this.proc = p;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (p.exitCode !== null || p.signalCode !== null) {
        await sleep(200);
        throw new Error(`cometbft exited (${p.exitCode ?? p.signalCode}) while starting; log:\n${lastLines(this.logFile)}`);
      }
      try {
        const res = await fetch(`${this.http}/status`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) {
          const body = (await res.json()) as { result: { sync_info: { latest_block_height: string } } };
          if (BigInt(body.result.sync_info.latest_block_height) >= 1n) return;
        }
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) {
        await terminate(p);
        throw new Error(`cometbft did not produce a block within ${timeoutMs} ms; log:\n${lastLines(this.logFile)}`);
      }
      await sleep(150);
    }
  }

  async stop(): Promise<void> {
    await terminate(this.proc);
  }

  /** Stops the node and removes its home. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.home, { recursive: true, force: true });
  }

  log(): string {
    return lastLines(this.logFile, 40);
  }
}

// ---- anvil --------------------------------------------------------------------------------

export class AnvilNode {
  proc?: ChildProcess;
  port = 0;
  private output = '';

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** anvil on a free loopback port with one block per second. */
  static async start(extraArgs: string[] = []): Promise<AnvilNode> {
    const { anvil } = nodeBinaries();
    const node = new AnvilNode();
    node.port = await freePort();
    const p = spawn(anvil.path, ['--host', '127.0.0.1', '--port', String(node.port), '--block-time', '1', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    register(p);
    node.proc = p;
    const keep = (d: Buffer) => {
      node.output = (node.output + d.toString('utf8')).slice(-20_000);
    };
    p.stdout?.on('data', keep);
    p.stderr?.on('data', keep);
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (p.exitCode !== null || p.signalCode !== null) throw new Error(`anvil exited (${p.exitCode ?? p.signalCode}) while starting:\n${node.output}`);
      try {
        const res = await fetch(node.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
          signal: AbortSignal.timeout(2000),
        });
        if (res.ok) return node;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) {
        await terminate(p);
        throw new Error(`anvil did not answer within 30 s:\n${node.output}`);
      }
      await sleep(100);
    }
  }

  async stop(): Promise<void> {
    await terminate(this.proc);
  }
}

// ---- raw requests -------------------------------------------------------------------------

export interface Raw {
  status: number;
  text: string;
  headers: Headers;
  json: any;
}

/** A request with fetch (not the extension's client), for independent checks. */
export async function raw(url: string, init: RequestInit = {}, timeoutMs = 15_000): Promise<Raw> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    // A kept-alive connection the server closed just as fetch reused it (ECONNRESET): a race of
    // the test's HTTP client, not a finding. A GET is sent again once; a POST never is.
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' || (err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw err;
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, headers: res.headers, json };
}

export function rawPost(url: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Raw> {
  return raw(url, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers });
}

/** Waits until `fn` returns a value other than undefined (polling), or throws after `timeoutMs`. */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 150): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (e) {
      lastErr = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastErr ? ` (last error: ${String(lastErr)})` : ''}`);
    await sleep(everyMs);
  }
}
