// The devnet's accounts and what real transactions do to them: a few funded dev keys, their
// balances (bank `atest` = EVM wei, 18 decimals, as evmd), sequences (= EVM nonces), contract
// code, and for each block a few generated signed transactions (devTx.ts): a bank MsgSend, an
// EVM value transfer and an ERC-20-style `transfer` call that logs `Transfer` (the first block
// deploys that contract). Executing a tx moves the balances and gives the events evmd emits.
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { AuthInfo, SignDoc, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { BinaryWriter } from 'cosmjs-types/binary';
import { type Hex, decodeFunctionData, encodeAbiParameters, encodeFunctionData, getAddress, getContractAddress, parseAbi, toEventSelector } from 'viem';
import type { AbciEvent } from './chain';
import { EMITTER_INIT, EMITTER_RUNTIME, TRANSFER_TOPIC, transferCallData } from './contract';
import {
  DENOM,
  type DevKey,
  ETH_PUBKEY_TYPE,
  MSG_ETH_TX_TYPE,
  MSG_SEND_TYPE,
  type SignedEvmTx,
  buildBankSend,
  buildEthereumTx,
  devKey,
  moduleAddress,
  signEvmTx,
} from './devTx';
import { bech32Decode, bech32Encode, sha256 } from './encoding';
import { type CallFrame, FixtureContracts } from './fixtureContracts';
import { type FixtureDeployment, fixtureTxs } from './fixtureTxs';
import { checkRawEvmTx } from './rawTx';
import { DevStaking } from './staking';

export const BASE_FEE = 1_000_000_000n;
const TOKEN = 10n ** 18n;
/** What each dev account holds at genesis: 1,000,000 test (18 decimals). */
export const INITIAL_BALANCE = 1_000_000n * TOKEN;
const BANK_GAS_LIMIT = 200_000n;
const BANK_GAS_USED = 106_663n;
const BANK_FEE = 2_000_000_000_000_000n;

export interface BankTx {
  kind: 'bank';
  from: DevKey;
  to: Buffer;
  amount: bigint;
  fee: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  sequence: bigint;
  accountNumber: bigint;
  signature: Buffer;
  memo: string;
}

export interface EvmTx {
  kind: 'evm';
  from: Buffer;
  tx: SignedEvmTx;
  gasUsed: bigint;
}

export type RealTx = BankTx | EvmTx;

export interface EvmLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  logIndex: number;
}

export interface EvmExec {
  /** 1 success, 0 failed (reverted: fee paid, no value moved, no logs). */
  status: 0 | 1;
  /** The call frames as callTracer reports them (the top frame is the tx's). */
  trace: CallFrame;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  cumulativeGasUsed: bigint;
  logs: EvmLog[];
  contractAddress: Hex | null;
  /** The tx's index among the block's EVM txs. */
  evmIndex: number;
}

export interface ExecContext {
  height: bigint;
  blockHash: Hex;
  cosmosHash: string;
  evmIndex: number;
  logIndex: number;
  cumulativeGasUsed: bigint;
}

export interface ExecResult {
  events: AbciEvent[];
  data: Buffer;
  gasWanted: bigint;
  gasUsed: bigint;
  exec?: EvmExec;
}

/** The staking precompile (Cosmos EVM static precompile 0x…0800) and the part of its ABI the devnet runs. */
export const STAKING_PRECOMPILE = '0x0000000000000000000000000000000000000800' as Hex;
export const STAKING_PRECOMPILE_ABI = parseAbi([
  'function delegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (bool success)',
  'event Delegate(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount, uint256 newShares)',
]);
const DELEGATE_TOPIC = toEventSelector('Delegate(address,address,uint256,uint256)');
/** What the sample's delegation through the precompile bonds (1 TEST), and its gas (evmd: 154,031 used with a withdrawal). */
export const SAMPLE_DELEGATION = TOKEN;
const PRECOMPILE_DELEGATE_GAS = 300_000n;
const PRECOMPILE_DELEGATE_GAS_USED = 154_031n;
/** Balance changes kept per account (older heights answer the oldest kept balance). */
const MAX_BALANCE_CHANGES = 6_000;

/** The devnet's precompile delegation (the receipt sample, block 2 with the default initial height): its hashes once generated. */
export interface ReceiptSample {
  evmHash: Hex;
  delegator: DevKey;
  validator: string;
  amount: bigint;
}

const hexKey = (a: Buffer | string): string => (typeof a === 'string' ? a.replace(/^0x/i, '') : a.toString('hex')).toLowerCase();

export class Ledger {
  readonly keys: DevKey[];
  readonly feeCollector = moduleAddress('fee_collector');
  private readonly balances = new Map<string, bigint>();
  private readonly nonces = new Map<string, bigint>();
  private readonly code = new Map<string, Hex>();
  contract: Hex | undefined;
  /** The test contracts (FixtureToken, FixtureRouter): deployed, run and traced here. */
  readonly fixtures: FixtureContracts;
  /** Where the first block put the test contracts and which txs used them (with realTxs). */
  fixtureDeployment: FixtureDeployment | undefined;
  /** Staking (delegations, rewards) at every height: restState.ts serves it, the staking precompile changes it. */
  readonly staking = new DevStaking();
  readonly bondedPool = moduleAddress('bonded_tokens_pool');
  readonly distribution = moduleAddress('distribution');
  /** The precompile delegation the second block carries (issue #35's receipt sample). */
  receiptSample: ReceiptSample | undefined;
  /**
   * false: EVM txs emit no `tx_log` events, as Cosmos EVM v0.5 (cosmos/evm #576); true (default):
   * every EVM log is copied into a `tx_log` event, as v0.3.
   */
  txLogEvents = true;
  private round = 0;
  private validator0: string | undefined;
  /** Height of the block being executed (balance history). */
  private height = 0n;
  /** The balances and nonces of a simulation in progress (simulating()), read before the ledger's. */
  private simulation: { balances: Map<string, bigint>; nonces: Map<string, bigint> } | undefined;
  /** Balance changes per account: [height, balance after that height], oldest first. */
  private readonly history = new Map<string, Array<[bigint, bigint]>>();

  /**
   * @param fallback the balance of an address the ledger has not seen (the devnet's deterministic
   * one), so a sender from outside starts from what eth_getBalance showed it.
   */
  constructor(
    private readonly chainId: string,
    private readonly evmChainId: bigint,
    private readonly fallback: (address: Buffer) => bigint = () => 0n,
  ) {
    this.keys = ['alice', 'bob', 'carol', 'dave'].map((n) => devKey(n, sha256(`chain-endpoints devnet key ${n}`)));
    for (const k of this.keys) this.balances.set(hexKey(k.address), INITIAL_BALANCE);
    this.fixtures = new FixtureContracts((account) => bankBalances(this.balance(Buffer.from(account.slice(2), 'hex'))));
  }

  /** Sets a genesis balance (the validators' accounts). */
  fund(address: Buffer, amount: bigint): void {
    this.balances.set(hexKey(address), amount);
  }

  knows(address: Buffer): boolean {
    return this.balances.has(hexKey(address));
  }

  balance(address: Buffer): bigint {
    const key = hexKey(address);
    const simulated = this.simulation?.balances.get(key);
    if (simulated !== undefined) return simulated;
    return this.balances.get(key) ?? this.fallback(address);
  }

  /**
   * Runs `fn` as a simulation (eth_call with overrides, debug_traceCall, eth_simulateV1): balances
   * and nonces it sets (state overrides, value moved by its calls, nonces its calls use) are read
   * first while it runs, and the fixtures' storage it changes is put back; nothing stays. Nested:
   * the outer simulation's state is shared.
   */
  simulating<T>(fn: () => T): T {
    if (this.simulation) return fn();
    this.simulation = { balances: new Map(), nonces: new Map() };
    try {
      return this.fixtures.sandbox(fn);
    } finally {
      this.simulation = undefined;
    }
  }

  /** A state override's balance and nonce (inside simulating()). */
  overrideAccount(address: Buffer, o: { balance?: bigint; nonce?: bigint }): void {
    if (!this.simulation) throw new Error('overrideAccount outside a simulation');
    if (o.balance !== undefined) this.simulation.balances.set(hexKey(address), o.balance);
    if (o.nonce !== undefined) this.simulation.nonces.set(hexKey(address), o.nonce);
  }

  /** A simulated call's value moved from `from` to `to` and `from`'s nonce used (inside simulating()); false when `from` has too little. */
  simulatedTransfer(from: Buffer, to: Buffer, value: bigint): boolean {
    if (!this.simulation) throw new Error('simulatedTransfer outside a simulation');
    const have = this.balance(from);
    if (have < value) return false;
    if (value > 0n && !from.equals(to)) {
      this.simulation.balances.set(hexKey(from), have - value);
      this.simulation.balances.set(hexKey(to), this.balance(to) + value);
    }
    this.simulation.nonces.set(hexKey(from), this.nonce(from) + 1n);
    return true;
  }

  /** The balance at the end of block `height` (state at that height); the current one past the last change. */
  balanceAt(address: Buffer, height: bigint): bigint {
    const changes = this.history.get(hexKey(address));
    if (!changes) return this.balance(address);
    for (let i = changes.length - 1; i >= 0; i--) if (changes[i][0] <= height) return changes[i][1];
    return changes[0][1];
  }

  /**
   * Genesis staking: `delegator` has `amount` bonded to `validator` (the bonded pool holds it) and the
   * distribution module holds what rewards will pay. Called once by the chain, before any block.
   */
  stakeAtGenesis(delegator: DevKey, validator: string, amount: bigint): void {
    this.validator0 = validator;
    this.staking.genesis(delegator.bech32, validator, amount);
    this.fund(this.bondedPool, amount);
    this.fund(this.distribution, 1_000n * TOKEN);
  }

  nonce(address: Buffer): bigint {
    const key = hexKey(address);
    return this.simulation?.nonces.get(key) ?? this.nonces.get(key) ?? 0n;
  }

  codeAt(address: Buffer): Hex {
    return this.code.get(hexKey(address)) ?? '0x';
  }

  /** The dev key and account number of an address, if it is one of the dev accounts. */
  account(address: Buffer): { key: DevKey; accountNumber: bigint; sequence: bigint } | undefined {
    const i = this.keys.findIndex((k) => k.address.equals(address));
    return i < 0 ? undefined : { key: this.keys[i], accountNumber: BigInt(i), sequence: this.nonce(address) };
  }

  private bump(address: Buffer): bigint {
    const n = this.nonce(address);
    this.nonces.set(hexKey(address), n + 1n);
    return n;
  }

  private add(address: Buffer, delta: bigint): void {
    const key = hexKey(address);
    const before = this.balance(address);
    this.balances.set(key, before + delta);
    let changes = this.history.get(key);
    if (!changes) this.history.set(key, (changes = [[0n, before]]));
    const last = changes[changes.length - 1];
    if (last[0] === this.height) last[1] = before + delta;
    else changes.push([this.height, before + delta]);
    if (changes.length > MAX_BALANCE_CHANGES) changes.splice(0, changes.length - MAX_BALANCE_CHANGES);
  }

  private evmTx(from: DevKey, to: Hex | null, value: bigint, input: Hex, gas: bigint, gasUsed: bigint): { bytes: Buffer; real: EvmTx } {
    const tx = signEvmTx(
      { chainId: this.evmChainId, nonce: this.bump(from.address), to, value, gas, maxFeePerGas: 2n * BASE_FEE, maxPriorityFeePerGas: 1n, input },
      from.privateKey,
    );
    return { bytes: buildEthereumTx(tx), real: { kind: 'evm', from: from.address, tx, gasUsed } };
  }

  /** The signed txs of the next block (the first call deploys the Transfer-logging contract). */
  generate(): Array<{ bytes: Buffer; real: RealTx }> {
    const k = this.keys;
    const out: Array<{ bytes: Buffer; real: RealTx }> = [];
    if (!this.contract) {
      const deployer = k[0];
      this.contract = getContractAddress({ from: deployer.hex, nonce: this.nonce(deployer.address) });
      out.push(this.evmTx(deployer, null, 0n, EMITTER_INIT as Hex, 200_000n, 71_000n));
      // The test contracts, and a few txs using them (gas used is computed when they run).
      this.fixtureDeployment = fixtureTxs(
        k,
        (key) => this.nonce(key.address),
        (from, to, input, gas) => {
          const tx = this.evmTx(from, to, 0n, input, gas, 0n);
          out.push(tx);
          return tx.real.tx.hash;
        },
      );
    }
    const r = this.round++;
    const at = (i: number): DevKey => k[(r + i) % k.length];
    // The second block: alice delegates 1 TEST more through the staking precompile (her genesis
    // delegation's rewards are withdrawn). No other tx of that block moves her balance (she only
    // receives the emitter's log), so her receipt explains her whole change.
    if (r === 1 && this.validator0) {
      const alice = k[0];
      const input = encodeFunctionData({ abi: STAKING_PRECOMPILE_ABI, functionName: 'delegate', args: [alice.hex, this.validator0, SAMPLE_DELEGATION] });
      const tx = this.evmTx(alice, STAKING_PRECOMPILE, 0n, input, PRECOMPILE_DELEGATE_GAS, PRECOMPILE_DELEGATE_GAS_USED);
      out.push(tx);
      this.receiptSample = { evmHash: tx.real.tx.hash as Hex, delegator: alice, validator: this.validator0, amount: SAMPLE_DELEGATION };
    }
    // 1. A bank send, signed SIGN_MODE_DIRECT.
    const from = at(0);
    const accountNumber = BigInt(k.indexOf(from));
    const sequence = this.bump(from.address);
    const amount = 1_000_000n + BigInt(r % 1000);
    const memo = `devnet bank send ${r}`;
    const send = { from, to: at(1).address, amount, fee: BANK_FEE, gasLimit: BANK_GAS_LIMIT, sequence, accountNumber, chainId: this.chainId, memo };
    const { bytes, signature } = buildBankSend(send);
    out.push({ bytes, real: { kind: 'bank', ...send, gasUsed: BANK_GAS_USED, signature } });
    // 2. An EVM value transfer.
    out.push(this.evmTx(at(1), at(2).hex, 123_456_789n + BigInt(r), '0x', 21_000n, 21_000n));
    // 3. A contract call that logs an ERC-20 Transfer.
    out.push(this.evmTx(at(2), this.contract, 0n, transferCallData(at(3).hex, 1000n * BigInt(r + 1)) as Hex, 60_000n, 29_512n));
    return out;
  }

  /**
   * A bank send broadcast as TxRaw bytes by one of the dev accounts (e.g. signed with cosmjs and a
   * dev key): checked as the ante handler would (ethsecp256k1 signature over the sign doc with
   * the account's number, sequence = the account's) and, when it passes, executed like the
   * generated ones. undefined: not such a tx (the devnet keeps it as opaque kvstore bytes).
   */
  fromCosmosTx(bytes: Buffer): { real: BankTx } | { code: number; log: string } | undefined {
    let decoded: { from: Buffer; to: Buffer; amount: bigint; fee: bigint; gasLimit: bigint; sequence: bigint; signature: Buffer; memo: string; ok: boolean };
    try {
      const raw = TxRaw.decode(bytes);
      if (
        !TxRaw.encode(raw)
          .finish()
          .every((b, i) => b === bytes[i]) ||
        raw.signatures.length !== 1
      )
        return undefined;
      const body = TxBody.decode(raw.bodyBytes);
      const auth = AuthInfo.decode(raw.authInfoBytes);
      const m = body.messages;
      const signer = auth.signerInfos[0];
      if (m.length !== 1 || m[0].typeUrl !== MSG_SEND_TYPE || auth.signerInfos.length !== 1 || signer.publicKey?.typeUrl !== ETH_PUBKEY_TYPE) return undefined;
      const send = MsgSend.decode(m[0].value);
      const coin = send.amount.find((c) => c.denom === DENOM);
      const from = bech32Decode(send.fromAddress);
      const acct = this.account(from.bytes);
      if (!acct || !coin || send.amount.length !== 1) return undefined;
      const key = PubKey.decode(signer.publicKey.value).key;
      const signDoc = SignDoc.encode({
        bodyBytes: raw.bodyBytes,
        authInfoBytes: raw.authInfoBytes,
        chainId: this.chainId,
        accountNumber: acct.accountNumber,
      }).finish();
      const sig = raw.signatures[0];
      const ok = sig.length === 65 && secp256k1.verify(sig.subarray(0, 64), keccak_256(signDoc), key) && Buffer.from(key).equals(acct.key.pubKey);
      const fee = auth.fee?.amount.find((c) => c.denom === DENOM);
      decoded = {
        from: from.bytes,
        to: bech32Decode(send.toAddress).bytes,
        amount: BigInt(coin.amount),
        fee: fee ? BigInt(fee.amount) : 0n,
        gasLimit: auth.fee?.gasLimit ?? 0n,
        sequence: signer.sequence,
        signature: Buffer.from(sig),
        memo: body.memo,
        ok,
      };
    } catch {
      return undefined;
    }
    const acct = this.account(decoded.from);
    if (!acct) return undefined;
    if (!decoded.ok)
      return {
        code: 4,
        log: 'signature verification failed; please verify account number (' + acct.accountNumber + ') and chain-id (' + this.chainId + '): unauthorized',
      };
    if (decoded.sequence !== acct.sequence) {
      return { code: 32, log: `account sequence mismatch, expected ${acct.sequence}, got ${decoded.sequence}: incorrect account sequence` };
    }
    this.bump(decoded.from);
    const { ok: _ok, ...d } = decoded;
    return {
      real: { kind: 'bank', ...d, from: acct.key, accountNumber: acct.accountNumber, gasUsed: d.gasLimit < BANK_GAS_USED ? d.gasLimit : BANK_GAS_USED },
    };
  }

  /**
   * A signed tx sent with eth_sendRawTransaction, checked as evmd checks it (rawTx.ts: decoding,
   * EIP-155, chain id, signature, balance, fee cap, intrinsic gas, nonce) and wrapped as evmd
   * wraps it; throws RawTxRefused with evmd's message.
   */
  fromRawEvm(raw: Buffer): { bytes: Buffer; real: EvmTx } {
    const { tx, from } = checkRawEvmTx(raw, {
      chainId: this.evmChainId,
      baseFee: BASE_FEE,
      balance: (a) => this.balance(a),
      nonce: (a) => this.nonce(a),
      intrinsicGas,
    });
    this.nonces.set(hexKey(from), tx.nonce + 1n);
    // Plain transfers and emitter calls use fixed gas; fixture calls and deploys compute theirs when they run.
    const gasUsed = tx.to === null ? 71_000n : tx.input === '0x' ? 21_000n : 29_512n;
    return { bytes: buildEthereumTx(tx), real: { kind: 'evm', from, tx, gasUsed: gasUsed > tx.gas ? tx.gas : gasUsed } };
  }

  execute(t: RealTx, ctx: ExecContext): ExecResult {
    this.height = ctx.height;
    if (t.kind === 'evm' && t.tx.to?.toLowerCase() === STAKING_PRECOMPILE) return this.executeStaking(t, ctx);
    return t.kind === 'bank' ? this.executeBank(t) : this.executeEvm(t, ctx);
  }

  private executeBank(t: BankTx): ExecResult {
    const sender = t.from.bech32;
    const fee = `${t.fee}${DENOM}`;
    const amount = `${t.amount}${DENOM}`;
    this.add(t.from.address, -(t.fee + t.amount));
    this.add(this.feeCollector, t.fee);
    this.add(t.to, t.amount);
    const feeCollector = bech32Encode('cosmos', this.feeCollector);
    const recipient = bech32Encode('cosmos', t.to);
    return {
      events: [
        ...coinMove(sender, feeCollector, fee, false),
        ev('tx', [
          ['fee', fee],
          ['fee_payer', sender],
        ]),
        ev('tx', [['acc_seq', `${sender}/${t.sequence}`]]),
        ev('tx', [['signature', t.signature.toString('base64')]]),
        ev('message', [
          ['action', MSG_SEND_TYPE],
          ['sender', sender],
          ['module', 'bank'],
          ['msg_index', '0'],
        ]),
        ...coinMove(sender, recipient, amount, true),
      ],
      data: msgData('/cosmos.bank.v1beta1.MsgSendResponse', new Uint8Array()),
      gasWanted: t.gasLimit,
      gasUsed: t.gasUsed,
    };
  }

  /**
   * An EVM call to the staking precompile, with evmd's events in evmd's order (recorded in
   * test/fixtures/evmd/receipt/delegate-again.json): the ante handler charges gas limit × price
   * (`tx.fee`) and lists it once more at twice the amount; inside the message the distribution
   * module pays the pending rewards (`withdraw_rewards`), the delegator's coins go to the bonded
   * pool (`delegate`), the fee collector refunds the unused gas (listed once more at twice the
   * amount); then `ethereum_tx`, `tx_log` (v0.3 only) and the evm `message`. The balances move once
   * per effect. Only `delegate(address,string,uint256)` from the delegator itself succeeds; anything
   * else reverts (fee paid, nothing moved).
   */
  private executeStaking(t: EvmTx, ctx: ExecContext): ExecResult {
    const tx = t.tx;
    const price = min(tx.maxFeePerGas, BASE_FEE + tx.maxPriorityFeePerGas);
    const fromHex = getAddress(('0x' + t.from.toString('hex')) as Hex);
    const sender = bech32Encode('cosmos', t.from);
    const feeCollector = bech32Encode('cosmos', this.feeCollector);
    const lower = (a: string): Hex => a.toLowerCase() as Hex;
    let call: { delegator: Hex; validator: string; amount: bigint } | undefined;
    try {
      const d = decodeFunctionData({ abi: STAKING_PRECOMPILE_ABI, data: tx.input });
      const [delegator, validator, amount] = d.args as [Hex, string, bigint];
      const valBytes = bech32Decode(validator);
      if (d.functionName === 'delegate' && lower(delegator) === lower(fromHex) && valBytes.hrp === 'cosmosvaloper' && amount > 0n && tx.value === 0n)
        call = { delegator, validator, amount };
    } catch {
      call = undefined;
    }
    const fee = tx.gas * price;
    const gasUsed = evmdGasUsed(call ? PRECOMPILE_DELEGATE_GAS_USED : tx.gas, tx.gas);
    const refund = (tx.gas - gasUsed) * price;
    const ok = call !== undefined && this.balance(t.from) - fee >= call.amount;
    // Ante: the fee, charged up front.
    this.add(t.from, -fee);
    this.add(this.feeCollector, fee);
    const events: AbciEvent[] = [
      ...coinMove(sender, feeCollector, `${fee}${DENOM}`, false),
      ...doubled(sender, feeCollector, 2n * fee, false),
      ev('tx', [['fee', `${fee}${DENOM}`]]),
      ev('ethereum_tx', [
        ['ethereumTxHash', tx.hash],
        ['txIndex', String(ctx.evmIndex)],
      ]),
      ev('message', [
        ['action', MSG_ETH_TX_TYPE],
        ['sender', sender],
        ['msg_index', '0'],
      ]),
    ];
    const logs: EvmLog[] = [];
    if (ok && call) {
      const { rewards } = this.staking.delegate(sender, call.validator, call.amount, ctx.height);
      if (rewards > 0n) {
        const distribution = bech32Encode('cosmos', this.distribution);
        this.add(this.distribution, -rewards);
        this.add(t.from, rewards);
        events.push(
          ...coinMove(distribution, sender, `${rewards}${DENOM}`, true),
          ev('withdraw_rewards', [
            ['amount', `${rewards}${DENOM}`],
            ['validator', call.validator],
            ['delegator', sender],
            ['msg_index', '0'],
          ]),
        );
      }
      this.add(t.from, -call.amount);
      this.add(this.bondedPool, call.amount);
      const bonded = bech32Encode('cosmos', this.bondedPool);
      events.push(
        ev('coin_spent', [
          ['spender', sender],
          ['amount', `${call.amount}${DENOM}`],
          ['msg_index', '0'],
        ]),
        ev('coin_received', [
          ['receiver', bonded],
          ['amount', `${call.amount}${DENOM}`],
          ['msg_index', '0'],
        ]),
        ev('delegate', [
          ['validator', call.validator],
          ['delegator', sender],
          ['amount', `${call.amount}${DENOM}`],
          ['new_shares', `${call.amount}.000000000000000000`],
          ['msg_index', '0'],
        ]),
      );
      const valHex = `0x${bech32Decode(call.validator).bytes.toString('hex')}`;
      logs.push({
        address: STAKING_PRECOMPILE,
        topics: [DELEGATE_TOPIC, pad32(fromHex), pad32(valHex)],
        // newShares as the SDK's LegacyDec integer (18 decimals).
        data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [call.amount, call.amount * TOKEN]),
        logIndex: ctx.logIndex,
      });
    }
    // The refund of unused gas, inside the message.
    this.add(this.feeCollector, -refund);
    this.add(t.from, refund);
    events.push(...coinMove(feeCollector, sender, `${refund}${DENOM}`, true), ...doubled(feeCollector, sender, 2n * refund, true));
    const status: 0 | 1 = ok ? 1 : 0;
    const ethAttrs: Array<[string, string]> = [
      ['amount', '0'],
      ['ethereumTxHash', tx.hash],
      ['txIndex', String(ctx.evmIndex)],
      ['txGasUsed', gasUsed.toString()],
      ['txHash', ctx.cosmosHash.toLowerCase()],
      ['recipient', STAKING_PRECOMPILE],
    ];
    if (!ok) ethAttrs.push(['ethereumTxFailed', 'execution reverted']);
    ethAttrs.push(['msg_index', '0']);
    events.push(ev('ethereum_tx', ethAttrs));
    if (this.txLogEvents) events.push(ev('tx_log', [...logs.map((l): [string, string] => ['txLog', txLogJson(l, tx.hash, ctx)]), ['msg_index', '0']]));
    events.push(
      ev('message', [
        ['module', 'evm'],
        ['sender', fromHex],
        ['txType', tx.txType === 'legacy' ? '0' : tx.txType === 'eip2930' ? '1' : '2'],
        ['msg_index', '0'],
      ]),
    );
    const trace: CallFrame = {
      type: 'CALL',
      from: lower(fromHex),
      to: STAKING_PRECOMPILE,
      value: 0n,
      gas: tx.gas,
      gasUsed: ok ? gasUsed : 0n,
      input: tx.input,
      output: ok ? encodeAbiParameters([{ type: 'bool' }], [true]) : '0x',
      ...(ok ? {} : { error: 'execution reverted' }),
    } as CallFrame;
    const exec: EvmExec = {
      status,
      trace,
      gasUsed,
      effectiveGasPrice: price,
      cumulativeGasUsed: ctx.cumulativeGasUsed + gasUsed,
      logs,
      contractAddress: null,
      evmIndex: ctx.evmIndex,
    };
    return {
      events,
      data: msgData('/cosmos.evm.vm.v1.MsgEthereumTxResponse', ethTxResponse(tx.hash, logs, ctx, exec)),
      gasWanted: tx.gas,
      gasUsed,
      exec,
    };
  }

  private executeEvm(t: EvmTx, ctx: ExecContext): ExecResult {
    const tx = t.tx;
    const effectiveGasPrice = min(tx.maxFeePerGas, BASE_FEE + tx.maxPriorityFeePerGas);
    const fromHex = getAddress(('0x' + t.from.toString('hex')) as Hex);
    const sender = bech32Encode('cosmos', t.from);
    const feeCollector = bech32Encode('cosmos', this.feeCollector);
    let contractAddress: Hex | null = null;
    let status: 0 | 1 = 1;
    let gasUsed = t.gasUsed;
    const logs: EvmLog[] = [];
    const pushLogs = (ls: Array<{ address: Hex; topics: Hex[]; data: Hex }>): void => {
      for (const l of ls) logs.push({ address: l.address.toLowerCase() as Hex, topics: l.topics, data: l.data, logIndex: ctx.logIndex + logs.length });
    };
    const lower = (a: string): Hex => a.toLowerCase() as Hex;
    let trace: CallFrame;
    if (tx.to === null) {
      contractAddress = getContractAddress({ from: fromHex, nonce: tx.nonce });
      // The fixtures' and the emitter's init code return their runtime; anything else deploys as sent (no EVM here).
      const fixture = this.fixtures.deploy(fromHex, contractAddress, tx.input);
      const runtime = fixture?.runtime ?? (tx.input === EMITTER_INIT ? (EMITTER_RUNTIME as Hex) : tx.input);
      this.code.set(hexKey(contractAddress), runtime);
      if (fixture) {
        pushLogs(fixture.logs);
        gasUsed = evmdGasUsed(intrinsicGas(tx.input, true) + 200n * BigInt((runtime.length - 2) / 2) + 45_000n, tx.gas);
      }
      trace = { type: 'CREATE', from: lower(fromHex), to: lower(contractAddress), value: tx.value, gas: tx.gas, gasUsed, input: tx.input, output: runtime };
    } else if (this.fixtures.isFixture(tx.to)) {
      const intrinsic = intrinsicGas(tx.input, false);
      const out = this.fixtures.call(fromHex, tx.to, tx.input, tx.value, tx.gas - intrinsic, true);
      status = out.ok ? 1 : 0;
      pushLogs(out.logs);
      gasUsed = evmdGasUsed(intrinsic + out.gasUsed, tx.gas);
      trace = { ...out.frame, gas: tx.gas, gasUsed: out.ok ? gasUsed : 0n };
    } else {
      const to = Buffer.from(tx.to.slice(2), 'hex');
      const code = this.codeAt(to);
      if (code === EMITTER_RUNTIME && tx.input.length >= 2 + 8 + 128) {
        const arg = (i: number): string => tx.input.slice(10 + 64 * i, 10 + 64 * (i + 1));
        logs.push({
          address: tx.to.toLowerCase() as Hex,
          topics: [TRANSFER_TOPIC as Hex, ('0x' + t.from.toString('hex').padStart(64, '0')) as Hex, `0x${'0'.repeat(24)}${arg(0).slice(24)}`],
          data: `0x${arg(1)}`,
          logIndex: ctx.logIndex,
        });
      }
      trace = { type: 'CALL', from: lower(fromHex), to: lower(tx.to), value: tx.value, gas: tx.gas, gasUsed, input: tx.input, output: '0x' };
    }
    const feePaid = gasUsed * effectiveGasPrice;
    this.add(t.from, -feePaid);
    this.add(this.feeCollector, feePaid);
    if (status === 1) {
      this.add(t.from, -tx.value);
      this.add(contractAddress ? Buffer.from(contractAddress.slice(2), 'hex') : Buffer.from((tx.to as Hex).slice(2), 'hex'), tx.value);
    }
    const exec: EvmExec = {
      status,
      trace,
      gasUsed,
      effectiveGasPrice,
      cumulativeGasUsed: ctx.cumulativeGasUsed + gasUsed,
      logs,
      contractAddress,
      evmIndex: ctx.evmIndex,
    };
    const a = (pairs: Array<[string, string]>): Array<[string, string]> => pairs;
    const ethAttrs = a([
      ['amount', tx.value.toString()],
      ['ethereumTxHash', tx.hash],
      ['txIndex', String(ctx.evmIndex)],
      ['txGasUsed', gasUsed.toString()],
      ['txHash', ctx.cosmosHash.toLowerCase()],
    ]);
    if (tx.to) ethAttrs.push(['recipient', getAddress(tx.to)]);
    if (status === 0) ethAttrs.push(['ethereumTxFailed', 'execution reverted']);
    ethAttrs.push(['msg_index', '0']);
    const logJson = logs.map((l) =>
      JSON.stringify({
        address: getAddress(l.address),
        topics: l.topics,
        data: Buffer.from(l.data.slice(2), 'hex').toString('base64'),
        blockNumber: Number(ctx.height),
        transactionHash: tx.hash,
        transactionIndex: ctx.evmIndex,
        blockHash: ctx.blockHash,
        logIndex: l.logIndex,
      }),
    );
    const events: AbciEvent[] = [
      ...coinMove(sender, feeCollector, `${feePaid}${DENOM}`, false),
      ev('tx', [['fee', `${feePaid}${DENOM}`]]),
      ev('ethereum_tx', [
        ['ethereumTxHash', tx.hash],
        ['txIndex', String(ctx.evmIndex)],
      ]),
      ev('message', [
        ['action', MSG_ETH_TX_TYPE],
        ['sender', sender],
        ['msg_index', '0'],
      ]),
    ];
    if (status === 1 && tx.value > 0n && tx.to)
      events.push(...coinMove(sender, bech32Encode('cosmos', Buffer.from(tx.to.slice(2), 'hex')), `${tx.value}${DENOM}`, true));
    events.push(
      ev('ethereum_tx', ethAttrs),
      ...(this.txLogEvents ? [ev('tx_log', [...logJson.map((j): [string, string] => ['txLog', j]), ['msg_index', '0']])] : []),
      ev('message', [
        ['module', 'evm'],
        ['sender', fromHex],
        ['txType', tx.txType === 'legacy' ? '0' : tx.txType === 'eip2930' ? '1' : '2'],
        ['msg_index', '0'],
      ]),
    );
    return {
      events,
      data: msgData('/cosmos.evm.vm.v1.MsgEthereumTxResponse', ethTxResponse(tx.hash, logs, ctx, exec)),
      gasWanted: tx.gas,
      gasUsed,
      exec,
    };
  }
}

/** Intrinsic gas of a tx (go-ethereum's IntrinsicGas: 21,000 or 53,000, 4 per zero byte, 16 per other byte). */
export function intrinsicGas(input: Hex, create: boolean): bigint {
  let g = create ? 53_000n : 21_000n;
  for (let i = 2; i < input.length; i += 2) g += input.slice(i, i + 2) === '00' ? 4n : 16n;
  return g;
}

/** Cosmos EVM charges at least half the gas limit (feemarket min_gas_multiplier 0.5). */
function evmdGasUsed(used: bigint, limit: bigint): bigint {
  const floor = limit / 2n;
  const u = used > limit ? limit : used;
  return u < floor ? floor : u;
}

/** The ERC-20 address of the native denom: local_node.sh's token pair, which the real trace node registers too. */
export const NATIVE_ERC20 = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' as Hex;

/** What the bank precompile's balances(address) lists for an account: its native balance, under the token pair's address. */
function bankBalances(balance: bigint): Array<{ contractAddress: Hex; amount: bigint }> {
  return balance > 0n ? [{ contractAddress: NATIVE_ERC20, amount: balance }] : [];
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function ev(type: string, pairs: Array<[string, string]>): AbciEvent {
  return { type, attributes: pairs.map(([key, value]) => ({ key, value, index: true })) };
}

/** The bank module's events for one coin move (with msg_index when inside a message). */
function coinMove(from: string, to: string, amount: string, inMsg: boolean): AbciEvent[] {
  const m: Array<[string, string]> = inMsg ? [['msg_index', '0']] : [];
  return [
    ev('coin_spent', [['spender', from], ['amount', amount], ...m]),
    ev('coin_received', [['receiver', to], ['amount', amount], ...m]),
    ev('transfer', [['recipient', to], ['sender', from], ['amount', amount], ...m]),
    ev('message', [['sender', from], ...m]),
  ];
}

/** The extra transfer evmd lists after the fee and after the refund: exactly twice the amount, which no balance shows. */
function doubled(from: string, to: string, amount: bigint, inMsg: boolean): AbciEvent[] {
  const m: Array<[string, string]> = inMsg ? [['msg_index', '0']] : [];
  const a = `${amount}${DENOM}`;
  return [
    ev('transfer', [['recipient', to], ['sender', from], ['amount', a], ...m]),
    ev('coin_spent', [['spender', from], ['amount', a], ...m]),
    ev('coin_received', [['receiver', to], ['amount', a], ...m]),
  ];
}

const pad32 = (hex: string): Hex => `0x${hex.slice(2).toLowerCase().padStart(64, '0')}`;

/** An EVM log as Cosmos EVM v0.3 copies it into a `tx_log` event (data in base64, numbers as JSON numbers). */
function txLogJson(l: EvmLog, txHash: string, ctx: ExecContext): string {
  return JSON.stringify({
    address: getAddress(l.address),
    topics: l.topics,
    data: Buffer.from(l.data.slice(2), 'hex').toString('base64'),
    blockNumber: Number(ctx.height),
    transactionHash: txHash,
    transactionIndex: ctx.evmIndex,
    blockHash: ctx.blockHash,
    logIndex: l.logIndex,
  });
}

function msgData(typeUrl: string, value: Uint8Array): Buffer {
  return Buffer.from(TxMsgData.encode({ data: [], msgResponses: [{ typeUrl, value }] }).finish());
}

/** MsgEthereumTxResponse (cosmos/evm/vm/v1/tx.proto): hash, logs, ret, vm_error, gas_used. */
function ethTxResponse(hash: string, logs: EvmLog[], ctx: ExecContext, exec: EvmExec): Uint8Array {
  const w = BinaryWriter.create();
  w.uint32(10).string(hash);
  for (const l of logs) {
    const lw = w.uint32(18).fork();
    lw.uint32(10).string(getAddress(l.address));
    for (const t of l.topics) lw.uint32(18).string(t);
    lw.uint32(26).bytes(Buffer.from(l.data.slice(2), 'hex'));
    lw.uint32(32).uint64(ctx.height);
    lw.uint32(42).string(hash);
    if (exec.evmIndex) lw.uint32(48).uint64(exec.evmIndex);
    lw.uint32(58).string(ctx.blockHash);
    if (l.logIndex) lw.uint32(64).uint64(l.logIndex);
    lw.ldelim();
  }
  w.uint32(40).uint64(exec.gasUsed);
  return w.finish();
}
