// Valid signed EVM transactions from the devnet's dev accounts, for tests that send one with
// eth_sendRawTransaction (the devnet checks them as evmd does: rawTx.ts).
import type { Hex } from 'viem';
import type { Chain } from './chain';
import { type EvmTxFields, signEvmTx } from './devTx';
import { BASE_FEE } from './ledger';

/** An EIP-1559 transfer from dev key `key` (0 alice … 3 dave) with its next nonce; `over` changes fields. */
export function devTransfer(chain: Chain, key = 0, over: Partial<EvmTxFields> = {}): { raw: Hex; hash: Hex } {
  const k = chain.ledger.keys[key];
  const fields: EvmTxFields = {
    chainId: chain.opts.evmChainId,
    nonce: chain.ledger.nonce(k.address),
    to: '0x2222222222222222222222222222222222222222',
    value: 1n,
    gas: 21_000n,
    maxFeePerGas: 2n * BASE_FEE,
    maxPriorityFeePerGas: 1n,
    input: '0x',
    ...over,
  };
  const tx = signEvmTx(fields, k.privateKey);
  return { raw: tx.raw, hash: tx.hash };
}
