// Signing for the EVM checks: anvil's first well-known dev key and viem (test-only dependency).
import { privateKeyToAccount } from 'viem/accounts';
import { rawPost } from './nodes';

/** anvil's first well-known development key (public, test-only). */
export const ANVIL_DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const RECIPIENT = '0x000000000000000000000000000000000000dEaD';

/** A signed EIP-1559 transfer from the dev account, as 0x hex. */
export async function signTransfer(url: string, value: bigint): Promise<`0x${string}`> {
  const account = privateKeyToAccount(ANVIL_DEV_KEY);
  const call = async (method: string, params: unknown[]) => (await rawPost(url, { jsonrpc: '2.0', id: 1, method, params })).json.result as string;
  const chainId = Number(BigInt(await call('eth_chainId', [])));
  const nonce = Number(BigInt(await call('eth_getTransactionCount', [account.address, 'pending'])));
  return account.signTransaction({
    type: 'eip1559',
    chainId,
    nonce,
    to: RECIPIENT,
    value,
    gas: 21_000n,
    maxFeePerGas: 20_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  });
}
