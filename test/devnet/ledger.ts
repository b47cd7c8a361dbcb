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
import { type Hex, getAddress, getContractAddress, keccak256, parseTransaction, serializeTransaction } from 'viem';
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
  status: 1;
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

const hexKey = (a: Buffer | string): string => (typeof a === 'string' ? a.replace(/^0x/i, '') : a.toString('hex')).toLowerCase();

export class Ledger {
  readonly keys: DevKey[];
  readonly feeCollector = moduleAddress('fee_collector');
  private readonly balances = new Map<string, bigint>();
  private readonly nonces = new Map<string, bigint>();
  private readonly code = new Map<string, Hex>();
  contract: Hex | undefined;
  private round = 0;

  constructor(
    private readonly chainId: string,
    private readonly evmChainId: bigint,
  ) {
    this.keys = ['alice', 'bob', 'carol', 'dave'].map((n) => devKey(n, sha256(`chain-endpoints devnet key ${n}`)));
    for (const k of this.keys) this.balances.set(hexKey(k.address), INITIAL_BALANCE);
  }

  knows(address: Buffer): boolean {
    return this.balances.has(hexKey(address));
  }

  balance(address: Buffer): bigint {
    return this.balances.get(hexKey(address)) ?? 0n;
  }

  nonce(address: Buffer): bigint {
    return this.nonces.get(hexKey(address)) ?? 0n;
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
    this.balances.set(hexKey(address), this.balance(address) + delta);
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
    }
    const r = this.round++;
    const at = (i: number): DevKey => k[(r + i) % k.length];
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
   * A signed EIP-1559 tx sent with eth_sendRawTransaction, wrapped as evmd would (sender recovered);
   * undefined when it is not a signed EIP-1559 tx (the devnet then keeps it as opaque bytes).
   */
  fromRawEvm(raw: Buffer): { bytes: Buffer; real: EvmTx } | undefined {
    try {
      const hex = ('0x' + raw.toString('hex')) as Hex;
      const p = parseTransaction(hex);
      if (p.type !== 'eip1559' || p.r === undefined || p.s === undefined || p.yParity === undefined) return undefined;
      const { r, s, v: _v, yParity, ...unsignedFields } = p;
      const digest = Buffer.from(keccak256(serializeTransaction(unsignedFields)).slice(2), 'hex');
      const pub = new secp256k1.Signature(BigInt(r), BigInt(s)).addRecoveryBit(yParity).recoverPublicKey(digest).toRawBytes(false);
      const from = Buffer.from(keccak256(pub.subarray(1)).slice(-40), 'hex');
      const tx: SignedEvmTx = {
        chainId: BigInt(p.chainId ?? 0),
        nonce: BigInt(p.nonce ?? 0),
        to: p.to ?? null,
        value: p.value ?? 0n,
        gas: p.gas ?? 0n,
        maxFeePerGas: p.maxFeePerGas ?? 0n,
        maxPriorityFeePerGas: p.maxPriorityFeePerGas ?? 0n,
        input: p.data ?? '0x',
        raw: hex,
        hash: keccak256(hex),
        yParity,
        r: BigInt(r),
        s: BigInt(s),
      };
      this.nonces.set(hexKey(from), tx.nonce + 1n);
      const gasUsed = tx.to === null ? 71_000n : tx.input === '0x' ? 21_000n : 29_512n;
      return { bytes: buildEthereumTx(tx), real: { kind: 'evm', from, tx, gasUsed: gasUsed > tx.gas ? tx.gas : gasUsed } };
    } catch {
      return undefined;
    }
  }

  execute(t: RealTx, ctx: ExecContext): ExecResult {
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

  private executeEvm(t: EvmTx, ctx: ExecContext): ExecResult {
    const tx = t.tx;
    const effectiveGasPrice = min(tx.maxFeePerGas, BASE_FEE + tx.maxPriorityFeePerGas);
    const feePaid = t.gasUsed * effectiveGasPrice;
    const fromHex = getAddress(('0x' + t.from.toString('hex')) as Hex);
    const sender = bech32Encode('cosmos', t.from);
    const feeCollector = bech32Encode('cosmos', this.feeCollector);
    this.add(t.from, -(feePaid + tx.value));
    this.add(this.feeCollector, feePaid);
    let contractAddress: Hex | null = null;
    const logs: EvmLog[] = [];
    if (tx.to === null) {
      contractAddress = getContractAddress({ from: fromHex, nonce: tx.nonce });
      // The init code returns the emitter's runtime; anything else deploys as sent (no EVM here).
      this.code.set(hexKey(contractAddress), tx.input === EMITTER_INIT ? (EMITTER_RUNTIME as Hex) : tx.input);
    } else {
      const to = Buffer.from(tx.to.slice(2), 'hex');
      this.add(to, tx.value);
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
    }
    const exec: EvmExec = {
      status: 1,
      gasUsed: t.gasUsed,
      effectiveGasPrice,
      cumulativeGasUsed: ctx.cumulativeGasUsed + t.gasUsed,
      logs,
      contractAddress,
      evmIndex: ctx.evmIndex,
    };
    const a = (pairs: Array<[string, string]>): Array<[string, string]> => pairs;
    const ethAttrs = a([
      ['amount', tx.value.toString()],
      ['ethereumTxHash', tx.hash],
      ['txIndex', String(ctx.evmIndex)],
      ['txGasUsed', t.gasUsed.toString()],
      ['txHash', ctx.cosmosHash.toLowerCase()],
    ]);
    if (tx.to) ethAttrs.push(['recipient', getAddress(tx.to)]);
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
    if (tx.value > 0n && tx.to) events.push(...coinMove(sender, bech32Encode('cosmos', Buffer.from(tx.to.slice(2), 'hex')), `${tx.value}${DENOM}`, true));
    events.push(
      ev('ethereum_tx', ethAttrs),
      ev('tx_log', [...logJson.map((j): [string, string] => ['txLog', j]), ['msg_index', '0']]),
      ev('message', [
        ['module', 'evm'],
        ['sender', fromHex],
        ['txType', '2'],
        ['msg_index', '0'],
      ]),
    );
    return {
      events,
      data: msgData('/cosmos.evm.vm.v1.MsgEthereumTxResponse', ethTxResponse(tx.hash, logs, ctx, exec)),
      gasWanted: tx.gas,
      gasUsed: t.gasUsed,
      exec,
    };
  }
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
