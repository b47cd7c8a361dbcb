// The transactions the devnet's first block makes with the test contracts (fixtureContracts.ts),
// so that a fresh devnet already has what a decoder needs: the token and the router deployed
// from their Foundry artifacts, an approval, a routed payment (the router's STATICCALL to the
// bank precompile and CALL to the token), a plain transfer, and a transfer that fails with
// InsufficientBalance (status 0x0). Their hashes are in `ledger.fixtureDeployment`.
import { type Hex, encodeDeployData, encodeFunctionData, getContractAddress } from 'viem';
import type { DevKey } from './devTx';
import { ROUTER_ABI, ROUTER_ARTIFACT, TOKEN_ABI, TOKEN_ARTIFACT } from './fixtureContracts';

const TOKEN = 10n ** 18n;
/** The token's initial supply, all the deployer's. */
export const FIXTURE_SUPPLY = 1_000_000n * TOKEN;

export interface FixtureDeployment {
  token: Hex;
  router: Hex;
  deployer: Hex;
  /** Ethereum hashes of the first block's fixture txs. */
  txs: { deployToken: Hex; deployRouter: Hex; approve: Hex; route: Hex; transfer: Hex; failedTransfer: Hex };
}

/** A signed EVM tx from `from` (the ledger bumps its nonce); returns its Ethereum hash. */
export type SignAndQueue = (from: DevKey, to: Hex | null, input: Hex, gas: bigint) => Hex;

/**
 * Queues the fixture txs through `send` (alice deploys and routes to bob, then transfers to carol;
 * bob then tries to send more than he has). `nonceOf` gives the next nonce of a key.
 */
export function fixtureTxs(keys: DevKey[], nonceOf: (k: DevKey) => bigint, send: SignAndQueue): FixtureDeployment {
  const [alice, bob, carol, dave] = keys;
  const n = nonceOf(alice);
  const token = getContractAddress({ from: alice.hex, nonce: n });
  const router = getContractAddress({ from: alice.hex, nonce: n + 1n });
  const call = (abi: typeof TOKEN_ABI, functionName: string, args: unknown[]): Hex => encodeFunctionData({ abi, functionName, args } as never);
  const txs = {
    deployToken: send(alice, null, encodeDeployData({ abi: TOKEN_ABI, bytecode: TOKEN_ARTIFACT.bytecode.object as Hex, args: [FIXTURE_SUPPLY] }), 1_500_000n),
    deployRouter: send(alice, null, encodeDeployData({ abi: ROUTER_ABI, bytecode: ROUTER_ARTIFACT.bytecode.object as Hex, args: [token] }), 1_500_000n),
    approve: send(alice, token, call(TOKEN_ABI, 'approve', [router, 1_000n * TOKEN]), 100_000n),
    route: send(alice, router, call(ROUTER_ABI, 'route', [bob.hex, 250n * TOKEN]), 300_000n),
    transfer: send(alice, token, call(TOKEN_ABI, 'transfer', [carol.hex, 100n * TOKEN]), 100_000n),
    failedTransfer: send(bob, token, call(TOKEN_ABI, 'transfer', [dave.hex, 1_000n * TOKEN]), 100_000n),
  };
  return { token, router, deployer: alice.hex, txs };
}
