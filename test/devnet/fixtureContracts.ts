// The test contracts (test/fixtures/contracts: FixtureToken, FixtureRouter) on the devnet. The
// devnet has no EVM: it deploys their real compiled runtime code (immutables filled in, as the
// chain does, so eth_getCode matches the Foundry artifacts) and runs their functions here, with
// the contracts' own semantics: token balances and allowances, Transfer/Approval/Routed logs
// encoded with viem from the ABI, reverts with the same data solc's code returns (the custom
// error InsufficientBalance, Error(string), Panic), and the call frames callTracer reports
// (the router's STATICCALL to the bank precompile 0x…0804, its CALL to the token).
import {
  type Abi,
  type Hex,
  decodeDeployData,
  decodeFunctionData,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeErrorResult,
  encodeEventTopics,
  encodeFunctionData,
  encodeFunctionResult,
  getAddress,
  keccak256,
} from 'viem';
import routerArtifact from '../fixtures/contracts/out/FixtureRouter.sol/FixtureRouter.json';
import tokenArtifact from '../fixtures/contracts/out/FixtureToken.sol/FixtureToken.json';

export const TOKEN_ABI = tokenArtifact.abi as Abi;
export const ROUTER_ABI = routerArtifact.abi as Abi;
export const TOKEN_ARTIFACT = tokenArtifact;
export const ROUTER_ARTIFACT = routerArtifact;
export const BANK_PRECOMPILE = '0x0000000000000000000000000000000000000804' as Hex;
/** The bank precompile's `balances(address)` (cosmos/evm precompiles/bank). */
export const BANK_ABI = [
  {
    type: 'function',
    name: 'balances',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [
      {
        name: 'balances',
        type: 'tuple[]',
        components: [
          { name: 'contractAddress', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
      },
    ],
  },
] as const satisfies Abi;
const ERROR_STRING = [{ type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] }] as const satisfies Abi;
const PANIC = [{ type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] }] as const satisfies Abi;
/** go-ethereum's abi.UnpackRevert wording for the panics these contracts can raise. */
const PANIC_REASONS: Record<number, string> = { 0x11: 'arithmetic underflow or overflow', 0x12: 'division or modulo by zero' };
const MAX = (1n << 256n) - 1n;

/** One callTracer frame (go-ethereum's callFrame), values as bigints until serialised. */
export interface CallFrame {
  type: 'CALL' | 'STATICCALL' | 'CREATE';
  from: Hex;
  to: Hex;
  value?: bigint;
  gas: bigint;
  gasUsed: bigint;
  input: Hex;
  output?: Hex;
  error?: string;
  revertReason?: string;
  calls?: CallFrame[];
}

export interface FixtureLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
}

export interface CallOutcome {
  ok: boolean;
  /** Return data, or the revert data when !ok. */
  output: Hex;
  logs: FixtureLog[];
  frame: CallFrame;
  /** Gas the call used (frames only; the tx's intrinsic gas is the caller's). */
  gasUsed: bigint;
}

interface TokenState {
  owner: Hex;
  totalSupply: bigint;
  balances: Map<string, bigint>;
  allowances: Map<string, bigint>;
}

class Revert {
  constructor(
    readonly data: Hex,
    readonly reason?: string,
  ) {}
}

const lc = (a: string): string => a.toLowerCase();
const word = (a: string): Hex => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`;
const errorString = (message: string): Revert => new Revert(encodeErrorResult({ abi: ERROR_STRING, errorName: 'Error', args: [message] }), message);
const panic = (code: number): Revert => new Revert(encodeErrorResult({ abi: PANIC, errorName: 'Panic', args: [BigInt(code)] }), PANIC_REASONS[code]);

/** The runtime code with each immutable's 32-byte slots filled (what the chain stores after the constructor). */
function withImmutables(runtime: string, refs: Record<string, Array<{ start: number; length: number }>>, values: Record<string, Hex>): Hex {
  const code = Buffer.from(runtime.slice(2), 'hex');
  for (const [id, slots] of Object.entries(refs)) {
    const v = Buffer.from(word(values[id]).slice(2), 'hex');
    for (const s of slots) v.copy(code, s.start, 0, s.length);
  }
  return `0x${code.toString('hex')}`;
}

const TOKEN_OWNER_ID = Object.keys(tokenArtifact.deployedBytecode.immutableReferences)[0];
const ROUTER_TOKEN_ID = Object.keys(routerArtifact.deployedBytecode.immutableReferences)[0];

export class FixtureContracts {
  private tokens = new Map<string, TokenState>();
  private routers = new Map<string, Hex>();

  /** @param bank what the bank precompile answers for an account (contract address of each coin, amount). */
  constructor(private readonly bank: (account: Hex) => Array<{ contractAddress: Hex; amount: bigint }>) {}

  isFixture(address: string): boolean {
    return this.tokens.has(lc(address)) || this.routers.has(lc(address));
  }

  /** A creation of one of the fixtures: its runtime code and the constructor's logs; undefined for other init code. */
  deploy(from: Hex, address: Hex, init: Hex): { runtime: Hex; logs: FixtureLog[] } | undefined {
    const at = getAddress(address);
    if (init.toLowerCase().startsWith(tokenArtifact.bytecode.object.toLowerCase())) {
      const { args } = decodeDeployData({ abi: TOKEN_ABI, bytecode: tokenArtifact.bytecode.object as Hex, data: init });
      const supply = (args as readonly [bigint])[0];
      this.tokens.set(lc(at), { owner: from, totalSupply: supply, balances: new Map([[lc(from), supply]]), allowances: new Map() });
      const runtime = withImmutables(tokenArtifact.deployedBytecode.object, tokenArtifact.deployedBytecode.immutableReferences, { [TOKEN_OWNER_ID]: from });
      return { runtime, logs: [this.transferLog(at, '0x0000000000000000000000000000000000000000', from, supply)] };
    }
    if (init.toLowerCase().startsWith(routerArtifact.bytecode.object.toLowerCase())) {
      const { args } = decodeDeployData({ abi: ROUTER_ABI, bytecode: routerArtifact.bytecode.object as Hex, data: init });
      const token = getAddress((args as readonly [Hex])[0]);
      this.routers.set(lc(at), token);
      const runtime = withImmutables(routerArtifact.deployedBytecode.object, routerArtifact.deployedBytecode.immutableReferences, { [ROUTER_TOKEN_ID]: token });
      return { runtime, logs: [] };
    }
    return undefined;
  }

  /**
   * Runs a call to a fixture (or to the bank precompile). `commit`: keep the state changes when it
   * succeeds (a mined tx); otherwise nothing changes (eth_call, a reverted tx).
   */
  call(from: Hex, to: Hex, input: Hex, value: bigint, gas: bigint, commit: boolean): CallOutcome {
    const saved = this.snapshot();
    const logs: FixtureLog[] = [];
    const frame = this.frame('CALL', from, to, input, value, gas, logs);
    const ok = frame.error === undefined;
    if (!ok || !commit) this.restore(saved);
    return { ok, output: frame.output ?? '0x', logs: ok ? logs : [], frame, gasUsed: frame.gasUsed };
  }

  /** Runs `fn` (calls that commit, sharing state), then puts every fixture back as it was (eth_simulateV1). */
  sandbox<T>(fn: () => T): T {
    const saved = this.snapshot();
    try {
      return fn();
    } finally {
      this.restore(saved);
    }
  }

  private snapshot(): { tokens: Map<string, TokenState>; routers: Map<string, Hex> } {
    const copy = new Map<string, TokenState>();
    for (const [a, t] of this.tokens) copy.set(a, { ...t, balances: new Map(t.balances), allowances: new Map(t.allowances) });
    return { tokens: copy, routers: new Map(this.routers) };
  }

  private restore(s: { tokens: Map<string, TokenState>; routers: Map<string, Hex> }): void {
    this.tokens = s.tokens;
    this.routers = s.routers;
  }

  /**
   * State overrides as go-ethereum applies them before a call (run inside sandbox(): nothing stays).
   * `code`: the token's runtime code makes the address a token with empty storage; any other code
   * makes a fixture at that address plain code (calls answer nothing). `state` (all storage replaced)
   * and `stateDiff` (slots changed) on a token, through FixtureToken.sol's layout: slot 0
   * totalSupply, slot 1 balanceOf, slot 2 allowance; a mapping slot is recognised for the accounts in
   * `known` and those the token already holds. `balance` and `nonce` are the ledger's (see
   * Ledger.withOverrides). Returns the slots it could not place (said by the caller, never silent).
   */
  applyOverrides(overrides: Readonly<Record<string, { code?: unknown; state?: unknown; stateDiff?: unknown }>>, known: readonly string[]): string[] {
    const unplaced: string[] = [];
    for (const [address, o] of Object.entries(overrides)) {
      const a = lc(address);
      if (typeof o.code === 'string') {
        this.routers.delete(a);
        if (o.code.toLowerCase().startsWith(tokenArtifact.deployedBytecode.object.toLowerCase().slice(0, 130)))
          this.tokens.set(a, { owner: '0x0000000000000000000000000000000000000000', totalSupply: 0n, balances: new Map(), allowances: new Map() });
        else this.tokens.delete(a);
      }
      const slots = (o.state ?? o.stateDiff) as Record<string, string> | undefined;
      const t = this.tokens.get(a);
      if (!slots || typeof slots !== 'object') continue;
      if (!t) {
        unplaced.push(...Object.keys(slots).map((k) => `${a}:${k}`));
        continue;
      }
      if (o.state !== undefined) {
        t.totalSupply = 0n;
        t.balances.clear();
        t.allowances.clear();
      }
      const accounts = [...new Set([...known.map(lc), ...t.balances.keys(), ...[...t.allowances.keys()].flatMap((k) => k.split('/'))])];
      const slotOf = (...words: Array<[string, 'address' | 'uint256' | 'bytes32', unknown]>): string =>
        keccak256(
          encodeAbiParameters(
            words.map(([, type]) => ({ type })),
            words.map(([, , v]) => v),
          ),
        ).toLowerCase();
      const balanceSlots = new Map(accounts.map((x) => [slotOf(['a', 'address', x], ['s', 'uint256', 1n]), x]));
      const allowanceSlots = new Map<string, string>();
      for (const owner of accounts) {
        const inner = slotOf(['o', 'address', owner], ['s', 'uint256', 2n]);
        for (const spender of accounts) allowanceSlots.set(slotOf(['sp', 'address', spender], ['in', 'bytes32', inner]), `${owner}/${spender}`);
      }
      for (const [slot, value] of Object.entries(slots)) {
        const key = BigInt(slot) === 0n ? 'totalSupply' : undefined;
        const v = BigInt(value);
        const s = `0x${BigInt(slot).toString(16).padStart(64, '0')}`;
        if (key) t.totalSupply = v;
        else if (balanceSlots.has(s)) t.balances.set(balanceSlots.get(s)!, v);
        else if (allowanceSlots.has(s)) t.allowances.set(allowanceSlots.get(s)!, v);
        else unplaced.push(`${a}:${slot}`);
      }
    }
    return unplaced;
  }

  /** One frame: runs the callee, catching its revert as the EVM does (the frame fails, its logs are dropped). */
  private frame(type: 'CALL' | 'STATICCALL', from: Hex, to: Hex, input: Hex, value: bigint, gas: bigint, logs: FixtureLog[]): CallFrame {
    const f: CallFrame = { type, from: lc(from) as Hex, to: lc(to) as Hex, gas, gasUsed: 0n, input };
    if (type === 'CALL') f.value = value;
    const mark = logs.length;
    try {
      const r = this.run(f, input, value, logs);
      f.output = r.output;
      f.gasUsed = r.gasUsed > gas ? gas : r.gasUsed;
    } catch (e) {
      if (!(e instanceof Revert)) throw e;
      logs.length = mark;
      f.error = 'execution reverted';
      if (e.data !== '0x') f.output = e.data;
      if (e.reason !== undefined) f.revertReason = e.reason;
    }
    return f;
  }

  private run(f: CallFrame, input: Hex, value: bigint, logs: FixtureLog[]): { output: Hex; gasUsed: bigint } {
    const to = lc(f.to);
    if (to === lc(BANK_PRECOMPILE)) {
      const { args } = decodeFunctionData({ abi: BANK_ABI, data: input });
      const out = encodeFunctionResult({ abi: BANK_ABI, functionName: 'balances', result: this.bank(args[0]) });
      return { output: out, gasUsed: 3_108n };
    }
    const token = this.tokens.get(to);
    if (token) return this.runToken(token, f, input, value, logs);
    const routed = this.routers.get(to);
    if (routed) return this.runRouter(routed, f, input, value, logs);
    return { output: '0x', gasUsed: 0n };
  }

  private runToken(t: TokenState, f: CallFrame, input: Hex, value: bigint, logs: FixtureLog[]): { output: Hex; gasUsed: bigint } {
    if (value !== 0n) throw new Revert('0x'); // no payable function: solc's callvalue check
    let call: ReturnType<typeof decodeFunctionData<typeof TOKEN_ABI>>;
    try {
      call = decodeFunctionData({ abi: TOKEN_ABI, data: input });
    } catch {
      throw new Revert('0x'); // no fallback: an unknown selector or bad arguments revert without data
    }
    const a = call.args as readonly unknown[];
    const ret = (result: unknown, gasUsed: bigint) => ({
      output: encodeFunctionResult({ abi: TOKEN_ABI, functionName: call.functionName, result } as never),
      gasUsed,
    });
    const staticCall = f.type === 'STATICCALL';
    const write = (): void => {
      if (staticCall) throw new Revert('0x');
    };
    const bal = (x: string): bigint => t.balances.get(lc(x)) ?? 0n;
    const key = (o: string, s: string): string => `${lc(o)}/${lc(s)}`;
    const move = (from: Hex, to: Hex, amount: bigint): void => {
      const available = bal(from);
      if (available < amount) throw new Revert(encodeErrorResult({ abi: TOKEN_ABI, errorName: 'InsufficientBalance', args: [available, amount] }));
      t.balances.set(lc(from), available - amount);
      t.balances.set(lc(to), bal(to) + amount);
      logs.push(this.transferLog(f.to, from, to, amount));
    };
    switch (call.functionName) {
      case 'name':
        return ret('Fixture Token', 2_400n);
      case 'symbol':
        return ret('FIX', 2_400n);
      case 'decimals':
        return ret(18, 300n);
      case 'owner':
        return ret(t.owner, 300n);
      case 'totalSupply':
        return ret(t.totalSupply, 2_300n);
      case 'balanceOf':
        return ret(bal(a[0] as string), 2_600n);
      case 'allowance':
        return ret(t.allowances.get(key(a[0] as string, a[1] as string)) ?? 0n, 2_700n);
      case 'ratio':
        if ((a[1] as bigint) === 0n) throw panic(0x12);
        return ret((a[0] as bigint) / (a[1] as bigint), 400n);
      case 'transfer':
        write();
        move(f.from, a[0] as Hex, a[1] as bigint);
        return ret(true, 29_800n);
      case 'approve': {
        write();
        t.allowances.set(key(f.from, a[0] as string), a[1] as bigint);
        logs.push({
          address: getAddress(f.to),
          topics: encodeEventTopics({ abi: TOKEN_ABI, eventName: 'Approval', args: { owner: f.from, spender: a[0] } } as never) as Hex[],
          data: encodeAbiParameters([{ type: 'uint256' }], [a[1] as bigint]),
        });
        return ret(true, 24_300n);
      }
      case 'transferFrom': {
        write();
        const [from, to, amount] = a as [Hex, Hex, bigint];
        const allowed = t.allowances.get(key(from, f.from)) ?? 0n;
        if (allowed < amount) throw errorString('FixtureToken: allowance too low');
        t.allowances.set(key(from, f.from), allowed - amount);
        move(from, to, amount);
        return ret(true, 33_900n);
      }
      case 'mint': {
        write();
        const [to, amount] = a as [Hex, bigint];
        if (lc(f.from) !== lc(t.owner)) throw errorString('FixtureToken: only the owner mints');
        if (t.totalSupply + amount > MAX || bal(to) + amount > MAX) throw panic(0x11);
        t.totalSupply += amount;
        t.balances.set(lc(to), bal(to) + amount);
        logs.push(this.transferLog(f.to, '0x0000000000000000000000000000000000000000', to, amount));
        return ret(undefined, 31_200n);
      }
      default:
        throw new Revert('0x');
    }
  }

  private runRouter(token: Hex, f: CallFrame, input: Hex, value: bigint, logs: FixtureLog[]): { output: Hex; gasUsed: bigint } {
    if (value !== 0n) throw new Revert('0x');
    let call: ReturnType<typeof decodeFunctionData<typeof ROUTER_ABI>>;
    try {
      call = decodeFunctionData({ abi: ROUTER_ABI, data: input });
    } catch {
      throw new Revert('0x');
    }
    const a = call.args as readonly unknown[];
    const ret = (result: unknown, gasUsed: bigint) => ({
      output: encodeFunctionResult({ abi: ROUTER_ABI, functionName: call.functionName, result } as never),
      gasUsed,
    });
    const sub = (type: 'CALL' | 'STATICCALL', to: Hex, data: Hex, used: bigint): CallFrame => {
      const frame = this.frame(type, f.to, to, data, 0n, ((f.gas - used) * 63n) / 64n, logs);
      (f.calls ??= []).push(frame);
      if (frame.error !== undefined) throw new Revert(frame.output ?? '0x', frame.revertReason); // solc bubbles the revert up
      return frame;
    };
    const bankCall = (account: Hex): { frame: CallFrame; held: ReturnType<FixtureContracts['bank']> } => {
      const frame = sub('STATICCALL', BANK_PRECOMPILE, encodeBankCall(account), 2_600n);
      const held = (decodeBank(frame.output ?? '0x') as Array<{ contractAddress: Hex; amount: bigint }>).map((b) => ({ ...b }));
      return { frame, held };
    };
    switch (call.functionName) {
      case 'BANK':
        return ret(BANK_PRECOMPILE, 300n);
      case 'token':
        return ret(token, 300n);
      case 'bankBalances': {
        const { frame, held } = bankCall(a[0] as Hex);
        return ret(held, 2_900n + frame.gasUsed);
      }
      case 'route': {
        if (f.type === 'STATICCALL') throw new Revert('0x');
        const [to, amount] = a as [Hex, bigint];
        const { frame: b, held } = bankCall(f.from);
        const data = encodeFunctionDataOf('transferFrom', [f.from, to, amount]);
        const t = sub('CALL', token, data, 5_000n + b.gasUsed);
        logs.push({
          address: getAddress(f.to),
          topics: encodeEventTopics({ abi: ROUTER_ABI, eventName: 'Routed', args: { from: f.from, to } } as never) as Hex[],
          data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [amount, BigInt(held.length)]),
        });
        return ret(BigInt(held.length), 9_800n + b.gasUsed + t.gasUsed);
      }
      default:
        throw new Revert('0x');
    }
  }

  private transferLog(token: Hex, from: Hex, to: Hex, value: bigint): FixtureLog {
    return {
      address: getAddress(token),
      topics: encodeEventTopics({ abi: TOKEN_ABI, eventName: 'Transfer', args: { from, to } } as never) as Hex[],
      data: encodeAbiParameters([{ type: 'uint256' }], [value]),
    };
  }
}

function encodeBankCall(account: Hex): Hex {
  return encodeFunctionData({ abi: BANK_ABI, functionName: 'balances', args: [account] });
}

function decodeBank(output: Hex): unknown {
  return decodeFunctionResult({ abi: BANK_ABI, functionName: 'balances', data: output });
}

function encodeFunctionDataOf(name: 'transferFrom', args: readonly unknown[]): Hex {
  return encodeFunctionData({ abi: TOKEN_ABI, functionName: name, args } as never);
}
