// Issue #35's chain side: one evmd node with the static precompiles, `debug` and REST together and
// `pruning = "nothing"` (every height's state kept), and the transactions a receipt must explain:
//   1. dev0 (an EOA) delegates 1 TEST through the staking precompile 0x…0800 (`delegate(address,string,uint256)`);
//   2. a few blocks later, dev0 delegates 1 TEST again: the rewards accrued since are withdrawn automatically;
//   3. dev0 undelegates 1 TEST through the precompile (rewards withdrawn again, an unbonding entry);
//   4. dev0 transfers 2 TEST through the native token's ERC-20 precompile 0xEeee…EEeE (`transfer(address,uint256)`);
//   5. dev0 sends 3 TEST to the same recipient with a plain Cosmos bank send (the evmd CLI signs it);
//   6. a contract (StakeForSelf, compiled here with solc from npm) delegates 1 TEST of its own funds
//      through the precompile: the Cosmos effects come from an inner CALL frame (depth 1).
// For each, what the node itself answers: the EVM transaction, receipt and callTracer trace (EVM
// txs), the CometBFT `tx` and `tx_search` answers, the REST decode, and the state of every account
// the transaction touched at heights N−1 and N (REST with `x-cosmos-block-height`, eth_getBalance
// at the block). Used by test/real/receipt.real.test.ts and test/real/recordEvmdReceipt.ts.
import { createHash } from 'node:crypto';
import { type Hex, encodeFunctionData, parseAbi } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { bech32Decode, bech32Encode } from '../../devnet/encoding';
import { DEV0, EvmdNode, NATIVE_ERC20, VALIDATOR } from './evmd';
import { raw, rawPost, waitFor } from './nodes';

type Json = any;

export const STAKING_PRECOMPILE = '0x0000000000000000000000000000000000000800';
export const STAKING_ABI = parseAbi([
  'function delegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (bool success)',
  'function undelegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (int64 completionTime)',
]);
export const ERC20_ABI = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);
export const TOKEN = 10n ** 18n;
/** The recipient of the ERC-20 transfer and of the bank send: an address nobody else uses. */
export const RECIPIENT_HEX = '0x00000000000000000000000000000000000c0ffe' as Hex;
/** The fee collector, the bonded pool and the distribution module (module accounts, same on every SDK chain). */
export const FEE_COLLECTOR = 'cosmos17xpfvakm2amg962yls6f84z3kell8c5lserqta';
export const BONDED_POOL = 'cosmos1fl48vsnmsdzcv85q5d2q4z5ajdha8yu34mf0eh';
export const NOT_BONDED_POOL = 'cosmos1tygms3xhhs3yv487phx3dw4a95jn7t7lpm470r';
export const DISTRIBUTION = 'cosmos1jv65s3grqf6v6jl3dp4t6c9t9rk99cd88lyufl';

export type ScenarioName = 'delegate' | 'delegate-again' | 'undelegate' | 'erc20-transfer' | 'bank-send' | 'contract-delegate';

/** A contract that delegates its own funds through the staking precompile (msg.sender = the delegator = the contract). */
export const STAKE_FOR_SELF_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IStaking {
    function delegate(address delegatorAddress, string memory validatorAddress, uint256 amount) external returns (bool success);
}

contract StakeForSelf {
    IStaking constant STAKING = IStaking(0x0000000000000000000000000000000000000800);

    constructor() payable {}

    function stake(string calldata validator, uint256 amount) external returns (bool) {
        return STAKING.delegate(address(this), validator, amount);
    }
}
`;
export const STAKE_FOR_SELF_ABI = parseAbi(['function stake(string validator, uint256 amount) returns (bool)']);

/** StakeForSelf's creation bytecode, compiled with solc-js (offline). */
export function stakeForSelfBytecode(): Hex {
  const solc = require('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'StakeForSelf.sol': { content: STAKE_FOR_SELF_SOURCE } },
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'paris', outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as Json;
  const errors = (out.errors ?? []).filter((e: Json) => e.severity === 'error');
  if (errors.length) throw new Error(`solc: ${errors.map((e: Json) => e.formattedMessage).join('\n')}`);
  return `0x${out.contracts['StakeForSelf.sol'].StakeForSelf.evm.bytecode.object}`;
}

/** What one account looked like at one height, as the node answered (REST bodies, eth_getBalance). */
export interface AccountAt {
  height: string;
  /** REST `/cosmos/bank/v1beta1/balances/{addr}` at the height. */
  bank: Json;
  /** `eth_getBalance(hex, N)` (a hex quantity). */
  evmBalance: string;
  /** Delegator accounts only: REST delegations, rewards and unbonding delegations at the height. */
  delegations?: Json;
  rewards?: Json;
  unbondings?: Json;
}

export interface TouchedAccount {
  bech32: string;
  hex: string;
  /** `module account` names for the fee collector, bonded pool, distribution; otherwise absent. */
  module?: string;
  before: AccountAt;
  after: AccountAt;
}

export interface ScenarioTx {
  name: ScenarioName;
  about: string;
  height: string;
  /** The CometBFT (SHA-256, uppercase hex) hash. */
  cometHash: string;
  /** The Ethereum hash (EVM txs only). */
  evmHash?: Hex;
  evm?: { transaction: Json; receipt: Json; trace: Json };
  /** CometBFT `GET /tx?hash=0x…` and `tx_search` answers (whole JSON-RPC bodies). */
  cometbft: { tx: Json; txSearch: Json };
  /** REST `GET /cosmos/tx/v1beta1/txs/{hash}` (the tx decoded, with tx_response). */
  restTx: Json;
  /**
   * CometBFT `block_results` of height N: `finalize_block_events` (mint, fee distribution, rewards and
   * commission: the block-level changes of the module accounts, which no tx event explains).
   */
  blockEvents: Json[];
  /** Validators named by the events, REST `/cosmos/staking/v1beta1/validators/{valoper}` at N−1 and N. */
  validators: Record<string, { before: Json; after: Json }>;
  accounts: TouchedAccount[];
}

export interface ReceiptScenario {
  node: EvmdNode;
  valoper: string;
  dev0: { bech32: string; hex: Hex };
  recipient: { bech32: string; hex: Hex };
  /** The StakeForSelf contract. */
  contract: Hex;
  txs: ScenarioTx[];
  dispose(): Promise<void>;
}

const MODULES: Record<string, string> = {
  [FEE_COLLECTOR]: 'fee_collector',
  [BONDED_POOL]: 'bonded_tokens_pool',
  [NOT_BONDED_POOL]: 'not_bonded_tokens_pool',
  [DISTRIBUTION]: 'distribution',
};

export const toBech32 = (hex: string, hrp = 'cosmos'): string => bech32Encode(hrp, Buffer.from(hex.replace(/^0x/, ''), 'hex'));
export const toHex = (bech32: string): Hex => `0x${bech32Decode(bech32).bytes.toString('hex')}`;
export const sha256Upper = (b64: string): string => createHash('sha256').update(Buffer.from(b64, 'base64')).digest('hex').toUpperCase();
const quantity = (n: bigint | string): string => `0x${BigInt(n).toString(16)}`;

/** Every event attribute of a CometBFT tx result, flattened: [type, key, value]. */
export function attributes(txResult: Json): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  for (const e of txResult.events ?? []) for (const a of e.attributes ?? []) out.push([e.type, a.key, a.value]);
  return out;
}

/** The accounts a tx touched: every `cosmos1…` account named in its events, plus extra (the EVM sender and recipient). */
export function touchedAccounts(txResult: Json, extra: string[]): string[] {
  const seen = new Set<string>();
  for (const [, , v] of attributes(txResult)) if (/^cosmos1[02-9ac-hj-np-z]{38}$/.test(v)) seen.add(v);
  for (const v of extra) seen.add(v);
  return [...seen];
}

/** A call to the staking precompile: `delegate` or `undelegate` of `amount` (default 1 TEST) from `delegator` (who must send it) to `valoper`. */
export function stakeCall(fn: 'delegate' | 'undelegate', delegator: Hex, valoper: string, amount = TOKEN): Hex {
  return encodeFunctionData({ abi: STAKING_ABI, functionName: fn, args: [delegator, valoper, amount] });
}

/**
 * The EVM side of a scenario on `node`: a JSON-RPC call (its `result`, or an error), an EIP-1559
 * transaction signed by `account` and sent (its hash), and its receipt once mined (polled: evmd
 * answers an unknown receipt with an error; a failed one throws with its callTracer trace).
 */
export async function evmSender(
  node: EvmdNode,
  account: ReturnType<typeof mnemonicToAccount>,
): Promise<{
  evm: (method: string, params: unknown[]) => Promise<Json>;
  sendEvm: (to: Hex | undefined, data: Hex, gas: bigint, value?: bigint) => Promise<Hex>;
  minedEvm: (hash: Hex) => Promise<Json>;
}> {
  const evm = async (method: string, params: unknown[]): Promise<Json> => {
    const r = (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method, params })).json;
    if (r?.error) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  };
  const chainId = Number(BigInt(await evm('eth_chainId', [])));
  const sendEvm = async (to: Hex | undefined, data: Hex, gas: bigint, value = 0n): Promise<Hex> => {
    const gasPrice = BigInt(await evm('eth_gasPrice', []));
    const nonce = Number(BigInt(await evm('eth_getTransactionCount', [account.address, 'pending'])));
    const signed = await account.signTransaction({
      type: 'eip1559',
      chainId,
      nonce,
      to,
      data,
      value,
      gas,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: 1n,
    });
    return (await evm('eth_sendRawTransaction', [signed])) as Hex;
  };
  const minedEvm = async (hash: Hex): Promise<Json> => {
    const r = await waitFor(
      `the receipt of ${hash}`,
      async () => {
        const a = (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] })).json;
        return a?.result ?? undefined;
      },
      30_000,
      200,
    );
    if (r.status !== '0x1') {
      const trace = await evm('debug_traceTransaction', [hash, { tracer: 'callTracer' }]).catch((e: unknown) => String(e));
      throw new Error(`${hash} failed: ${JSON.stringify(r)}; trace ${JSON.stringify(trace)}`);
    }
    return r;
  };
  return { evm, sendEvm, minedEvm };
}

/** Starts the node, sends the five transactions and reads what the node says about each (about 40 s). */
export async function runReceiptScenario(log: (line: string) => void = () => undefined): Promise<ReceiptScenario> {
  const node = await EvmdNode.create({ trace: true, pruning: 'nothing', moniker: 'chain-endpoints-receipt' });
  const dispose = () => node.dispose();
  try {
    await node.start();
    const account = mnemonicToAccount(DEV0.mnemonic);
    const { evm, sendEvm, minedEvm } = await evmSender(node, account);
    const comet = async (pathAndQuery: string): Promise<Json> => {
      const r = await raw(`${node.cometHttp}/${pathAndQuery}`);
      if (r.status !== 200 || !r.json?.result) throw new Error(`CometBFT ${pathAndQuery}: ${r.status} ${r.text.slice(0, 300)}`);
      return r.json;
    };
    const restAt = async (p: string, height: string): Promise<Json> => {
      const r = await raw(`${node.rest}${p}`, { headers: { 'x-cosmos-block-height': height } });
      if (r.status !== 200) throw new Error(`REST ${p} at ${height}: ${r.status} ${r.text.slice(0, 300)}`);
      if (r.headers.get('x-cosmos-block-height') !== height)
        throw new Error(`REST ${p}: answered for height ${r.headers.get('x-cosmos-block-height')}, not ${height}`);
      return r.json;
    };
    const tip = async (): Promise<bigint> => BigInt((await comet('status')).result.sync_info.latest_block_height);
    const waitBlocks = async (n: number) => {
      const h = await tip();
      await waitFor(`${n} more blocks`, async () => ((await tip()) >= h + BigInt(n) ? true : undefined), 60_000, 150);
    };

    const dev0 = { bech32: node.addresses[DEV0.name].bech32, hex: account.address.toLowerCase() as Hex };
    if (dev0.hex !== node.addresses[DEV0.name].hex) throw new Error(`dev0: viem ${dev0.hex} vs evmd ${node.addresses[DEV0.name].hex}`);
    const recipient = { bech32: toBech32(RECIPIENT_HEX), hex: RECIPIENT_HEX };
    const valoper = bech32Encode('cosmosvaloper', bech32Decode(node.addresses[VALIDATOR.name].bech32).bytes);
    const txs: ScenarioTx[] = [];
    const readState = async (name: ScenarioName, about: string, height: string, cometHash: string, evmHash?: Hex): Promise<ScenarioTx> => {
      // The node has committed N: wait for N+1 so that every read at N is final.
      await waitFor('a block past the tx', async () => ((await tip()) > BigInt(height) ? true : undefined), 30_000, 150);
      const tx = await comet(`tx?hash=0x${cometHash}`);
      const query = evmHash ? `ethereum_tx.ethereumTxHash='${evmHash}'` : `tx.hash='${cometHash}'`;
      const txSearch = await comet(`tx_search?query=${encodeURIComponent(JSON.stringify(query))}`);
      if (txSearch.result.total_count !== '1' || txSearch.result.txs[0].hash !== cometHash)
        throw new Error(`tx_search ${query}: ${JSON.stringify(txSearch.result).slice(0, 300)}`);
      if (tx.result.tx_result.code !== 0) throw new Error(`${name} failed on the Cosmos side: ${JSON.stringify(tx.result.tx_result).slice(0, 500)}`);
      const restTx = (await raw(`${node.rest}/cosmos/tx/v1beta1/txs/${cometHash}`)).json;
      const blockEvents = (await comet(`block_results?height=${height}`)).result.finalize_block_events ?? [];
      let evmPart: ScenarioTx['evm'];
      const extra: string[] = [];
      if (evmHash) {
        const transaction = await evm('eth_getTransactionByHash', [evmHash]);
        const receipt = await evm('eth_getTransactionReceipt', [evmHash]);
        const trace = await evm('debug_traceTransaction', [evmHash, { tracer: 'callTracer' }]);
        evmPart = { transaction, receipt, trace };
        extra.push(toBech32(transaction.from));
        if (transaction.to && !/^0x0{36}/i.test(transaction.to) && transaction.to.toLowerCase() !== NATIVE_ERC20.toLowerCase())
          extra.push(toBech32(transaction.to));
      }
      const before = (BigInt(height) - 1n).toString();
      const accounts: TouchedAccount[] = [];
      for (const bech32 of touchedAccounts(tx.result.tx_result, extra)) {
        const hex = toHex(bech32);
        const module = MODULES[bech32];
        const at = async (h: string): Promise<AccountAt> => {
          const a: AccountAt = {
            height: h,
            bank: await restAt(`/cosmos/bank/v1beta1/balances/${bech32}`, h),
            evmBalance: await evm('eth_getBalance', [hex, quantity(h)]),
          };
          if (!module && bech32 !== recipient.bech32) {
            a.delegations = await restAt(`/cosmos/staking/v1beta1/delegations/${bech32}`, h);
            a.rewards = await restAt(`/cosmos/distribution/v1beta1/delegators/${bech32}/rewards`, h);
            a.unbondings = await restAt(`/cosmos/staking/v1beta1/delegators/${bech32}/unbonding_delegations`, h);
          }
          return a;
        };
        accounts.push({ bech32, hex, ...(module ? { module } : {}), before: await at(before), after: await at(height) });
      }
      const validators: ScenarioTx['validators'] = {};
      for (const [, , v] of attributes(tx.result.tx_result))
        if (/^cosmosvaloper1/.test(v) && !validators[v])
          validators[v] = {
            before: await restAt(`/cosmos/staking/v1beta1/validators/${v}`, before),
            after: await restAt(`/cosmos/staking/v1beta1/validators/${v}`, height),
          };
      const t: ScenarioTx = {
        name,
        about,
        height,
        cometHash,
        ...(evmHash ? { evmHash } : {}),
        ...(evmPart ? { evm: evmPart } : {}),
        cometbft: { tx, txSearch },
        restTx,
        blockEvents,
        validators,
        accounts,
      };
      txs.push(t);
      log(`receipt scenario: ${name} at height ${height} (${evmHash ?? cometHash}), ${accounts.length} accounts touched`);
      return t;
    };
    const evmTx = async (name: ScenarioName, about: string, to: Hex, data: Hex, gas: bigint) => {
      const hash = await sendEvm(to, data, gas);
      const receipt = await minedEvm(hash);
      const height = BigInt(receipt.blockNumber).toString();
      const found = await comet(`tx_search?query=${encodeURIComponent(JSON.stringify(`ethereum_tx.ethereumTxHash='${hash}'`))}`);
      const cometHash = found.result.txs?.[0]?.hash;
      if (!cometHash) throw new Error(`tx_search found no Cosmos tx for ${hash}`);
      return readState(name, about, height, cometHash, hash);
    };
    const stake = (fn: 'delegate' | 'undelegate') => stakeCall(fn, account.address, valoper);

    await evmTx(
      'delegate',
      `dev0 delegates 1 TEST to ${valoper} through the staking precompile (its first delegation)`,
      STAKING_PRECOMPILE,
      stake('delegate'),
      300_000n,
    );
    await waitBlocks(6);
    await evmTx(
      'delegate-again',
      'dev0 delegates 1 TEST again, blocks later: the rewards accrued since are withdrawn automatically',
      STAKING_PRECOMPILE,
      stake('delegate'),
      300_000n,
    );
    await waitBlocks(3);
    await evmTx(
      'undelegate',
      'dev0 undelegates 1 TEST through the staking precompile (rewards withdrawn, an unbonding entry)',
      STAKING_PRECOMPILE,
      stake('undelegate'),
      300_000n,
    );
    await evmTx(
      'erc20-transfer',
      `dev0 transfers 2 TEST to ${RECIPIENT_HEX} through the native token's ERC-20 precompile ${NATIVE_ERC20}`,
      NATIVE_ERC20 as Hex,
      encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [RECIPIENT_HEX, 2n * TOKEN] }),
      4_000_000n, // evmd estimates about 3,020,000 gas for this transfer (eth_estimateGas)
    );
    // A plain Cosmos bank send, signed by the CLI and broadcast through REST.
    const bytes = node.signBankSend(DEV0.name, recipient.bech32, 3n * TOKEN, 'chain-endpoints receipt');
    const sent = await rawPost(`${node.rest}/cosmos/tx/v1beta1/txs`, { tx_bytes: bytes, mode: 'BROADCAST_MODE_SYNC' });
    if (sent.json?.tx_response?.code !== 0) throw new Error(`bank send refused: ${sent.text.slice(0, 300)}`);
    const bankHash = sha256Upper(bytes);
    const included = await waitFor(
      'the bank send in a block',
      async () => (await raw(`${node.cometHttp}/tx?hash=0x${bankHash}`)).json?.result ?? undefined,
      30_000,
      200,
    );
    await readState(
      'bank-send',
      `dev0 sends 3 TEST to ${recipient.bech32} with a Cosmos bank send (MsgSend, signed by the evmd CLI)`,
      included.height,
      bankHash,
    );
    // A contract delegating its own funds: deployed by dev0 with 2 TEST, then told to stake 1 TEST.
    const deployed = await minedEvm(await sendEvm(undefined, stakeForSelfBytecode(), 1_000_000n, 2n * TOKEN));
    const contract = (deployed.contractAddress as string).toLowerCase() as Hex;
    await evmTx(
      'contract-delegate',
      `a contract (StakeForSelf at ${contract}) delegates 1 TEST of its own funds through the staking precompile (an inner CALL)`,
      contract,
      encodeFunctionData({ abi: STAKE_FOR_SELF_ABI, functionName: 'stake', args: [valoper, TOKEN] }),
      600_000n,
    );
    return { node, valoper, dev0, recipient, contract, txs, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}
