// Cosmos-side events of the devnet's EVM transactions, as a Cosmos EVM v0.3 chain (evmd) emits
// them in block_results and Tx events.
import type { AbciEvent } from './chain';
import { bech32Encode, keccak256, sha256 } from './encoding';

/**
 * The events of an EVM transfer as Cosmos EVM v0.3 emits them (the bank module's coin events
 * left out): the ante handler's `ethereum_tx`, the message's, `tx_log` and the evm `message`.
 * Sender and recipient are the same fakes as the EVM service's (no RLP decoding here).
 */
export function evmTxEvents(raw: Buffer, evmHash: string, cosmosHash: string, txIndex: number): AbciEvent[] {
  const attrs = (pairs: Array<[string, string]>) => pairs.map(([key, value]) => ({ key, value, index: true }));
  const from = keccak256(raw).subarray(12);
  const to = sha256(raw).subarray(0, 20);
  return [
    {
      type: 'ethereum_tx',
      attributes: attrs([
        ['ethereumTxHash', evmHash],
        ['txIndex', String(txIndex)],
      ]),
    },
    {
      type: 'message',
      attributes: attrs([
        ['action', '/cosmos.evm.vm.v1.MsgEthereumTx'],
        ['sender', bech32Encode('cosmos', from)],
        ['msg_index', '0'],
      ]),
    },
    {
      type: 'ethereum_tx',
      attributes: attrs([
        ['amount', '0'],
        ['ethereumTxHash', evmHash],
        ['txIndex', String(txIndex)],
        ['txGasUsed', '21000'],
        ['txHash', cosmosHash.toLowerCase()],
        ['recipient', '0x' + to.toString('hex')],
        ['msg_index', '0'],
      ]),
    },
    { type: 'tx_log', attributes: attrs([['msg_index', '0']]) },
    {
      type: 'message',
      attributes: attrs([
        ['module', 'evm'],
        ['sender', '0x' + from.toString('hex')],
        ['txType', '2'],
        ['msg_index', '0'],
      ]),
    },
  ];
}
