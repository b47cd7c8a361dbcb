// The EVM JSON-RPC operations (interface evmRpc).
// A new operation of this interface is one entry here (then `npm run compile:tests && node
// scripts/sync-manifest.mjs` for package.json and the activation ids).

import * as l10n from '../../base/l10n';
import { EndpointError, LocalizedError } from '../../base/errors';
import { callParams, decodeResult, functionForCall, quantity } from '../abiCall';
import type { Operation } from '../operation';
import {
  callArgs,
  callBlock,
  callFunction,
  evmAddress,
  evmRawTx,
  evmTxHash,
  fullTransactions,
  heightOf,
  hexToDecimal,
  hexToWei,
  jsonParams,
  method,
  optionalHeight,
  params,
  simulateParams,
} from '../params';

export const EVM_OPERATIONS: readonly Operation[] = [
  // EVM RPC
  {
    id: 'evm.blockNumber',
    iface: 'evmRpc',
    label: 'eth_blockNumber',
    get title() {
      return l10n.t('EVM RPC: eth_blockNumber (latest block number)');
    },
    params: [],
    build: () => ({ kind: 'jsonrpc', method: 'eth_blockNumber', params: [] }),
    summarize: hexToDecimal,
  },
  {
    id: 'evm.chainId',
    iface: 'evmRpc',
    label: 'eth_chainId',
    get title() {
      return l10n.t('EVM RPC: eth_chainId');
    },
    params: [],
    build: () => ({ kind: 'jsonrpc', method: 'eth_chainId', params: [] }),
    summarize: hexToDecimal,
  },
  {
    id: 'evm.getBlockByNumber',
    iface: 'evmRpc',
    label: 'eth_getBlockByNumber',
    get title() {
      return l10n.t('EVM RPC: eth_getBlockByNumber (latest or a height)');
    },
    params: [optionalHeight, fullTransactions],
    build: (a) => {
      const h = heightOf(a);
      const full = (a.full ?? '').trim().toLowerCase() === 'true';
      return { kind: 'jsonrpc', method: 'eth_getBlockByNumber', params: [h ? '0x' + BigInt(h).toString(16) : 'latest', full] };
    },
    nullSummary: () => l10n.t('null: no such block (past the tip, or pruned)'),
  },
  {
    id: 'evm.getTransactionByHash',
    iface: 'evmRpc',
    label: 'eth_getTransactionByHash',
    get title() {
      return l10n.t('EVM RPC: eth_getTransactionByHash');
    },
    params: [evmTxHash],
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_getTransactionByHash', params: [a.hash.trim().toLowerCase()] }),
    nullSummary: () => l10n.t('null: no transaction with that hash'),
  },
  {
    id: 'evm.getTransactionReceipt',
    iface: 'evmRpc',
    label: 'eth_getTransactionReceipt',
    get title() {
      return l10n.t('EVM RPC: eth_getTransactionReceipt');
    },
    params: [evmTxHash],
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_getTransactionReceipt', params: [a.hash.trim().toLowerCase()] }),
    nullSummary: () => l10n.t('null: no receipt (unknown or pending transaction)'),
  },
  {
    id: 'evm.getBalance',
    iface: 'evmRpc',
    label: 'eth_getBalance',
    get title() {
      return l10n.t('EVM RPC: eth_getBalance (latest)');
    },
    params: [evmAddress],
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_getBalance', params: [a.address.trim(), 'latest'] }),
    summarize: hexToWei,
  },
  {
    id: 'evm.callContract',
    iface: 'evmRpc',
    label: 'eth_call (contract)',
    get title() {
      return l10n.t('EVM RPC: Call Contract (eth_call of a function, outputs decoded)');
    },
    params: [evmAddress, callFunction, callArgs, callBlock],
    build: (a) => {
      try {
        return { kind: 'jsonrpc', method: 'eth_call', params: callParams({ address: a.address, function: a.function, args: a.args, block: a.block }) };
      } catch (err) {
        throw asInputError(err);
      }
    },
    decodeResult: (result, a) => callOutputs(result, a.function),
  },
  {
    id: 'evm.simulate',
    iface: 'evmRpc',
    label: 'simulate (what if)',
    get title() {
      return l10n.t('EVM RPC: Simulate a call, a transaction or a bundle (what if)');
    },
    params: simulateParams,
    // The simulation (several read requests, the engine chosen, the answer decoded: core/contracts/simulate.ts) runs
    // in the Simulate command, query files and api.simulate(). Run as a plain operation (the API's run()), a call
    // without overrides or steps is its eth_call engine; the rest is refused, nothing sent.
    build: (a) => {
      if ((a.overrides ?? '').trim() || (a.blockOverrides ?? '').trim() || (a.steps ?? '').trim() || (a.data ?? '').trim() || (a.replayOf ?? '').trim())
        throw new EndpointError(
          'input',
          l10n.both('evm.simulate with overrides, steps or data runs through the simulation: the Simulate command, a query file or api.simulate().'),
        );
      try {
        const [tx, block] = callParams({ address: a.address ?? '', function: a.function ?? '', args: a.args, block: a.block }) as [
          Record<string, string>,
          string,
        ];
        if (a.from?.trim()) tx.from = a.from.trim();
        const value = quantity(a.value?.trim(), 'value');
        if (value) tx.value = value;
        const gas = quantity(a.gas?.trim(), 'gas');
        if (gas) tx.gas = gas;
        const nonce = quantity(a.nonce?.trim(), 'nonce');
        if (nonce) tx.nonce = nonce;
        return { kind: 'jsonrpc', method: 'eth_call', params: [tx, block] };
      } catch (err) {
        throw asInputError(err);
      }
    },
    decodeResult: (result, a) => callOutputs(result, a.function),
  },
  {
    id: 'evm.sendRawTransaction',
    iface: 'evmRpc',
    label: 'eth_sendRawTransaction',
    get title() {
      return l10n.t('EVM RPC: eth_sendRawTransaction (broadcast)');
    },
    params: [evmRawTx],
    broadcast: true,
    build: (a) => ({ kind: 'jsonrpc', method: 'eth_sendRawTransaction', params: [a.tx.trim().toLowerCase()] }),
  },
  {
    id: 'evm.custom',
    iface: 'evmRpc',
    get label() {
      return l10n.t('Custom JSON-RPC request…');
    },
    get title() {
      return l10n.t('EVM RPC: custom JSON-RPC request');
    },
    params: [method, params],
    build: (a) => ({ kind: 'jsonrpc', method: a.method.trim(), params: jsonParams(a) }),
  },
];

/** An eth_call's answer decoded by the function's outputs; the hex as received when it does not fit them (or is not hex). */
function callOutputs(result: unknown, fn: string): unknown {
  if (typeof result !== 'string') return result;
  try {
    const f = functionForCall(fn);
    // Shorter than its outputs' heads (the `0x` of an address without code): as received, without
    // building the decoder's error (viem's costs more than the request's own work).
    if (result.length < 2 + 64 * f.outputs.length) return result;
    const decoded = decodeResult(f, result);
    return decoded === undefined ? result : decoded;
  } catch {
    return result;
  }
}

/** A call's arguments refused while building it: an input error (nothing sent), in the sentence the encoder gave. */
function asInputError(err: unknown): unknown {
  return err instanceof LocalizedError ? new EndpointError('input', { english: err.message, shown: err.shown }) : err;
}
