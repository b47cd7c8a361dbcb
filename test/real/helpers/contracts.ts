// The test contracts on a real evmd: a trace node (helpers/evmd.ts `trace`: `debug` on, static
// precompiles active, REST on too), the fixture token and router (test/fixtures/contracts, Foundry
// artifacts) deployed by dev0 with viem-signed transactions, then the same traffic as the
// devnet's first block (test/devnet/fixtureTxs.ts): an approval, a routed payment (STATICCALL to
// the bank precompile, CALL to the token), a transfer and a failing transfer (InsufficientBalance).
// Receipts are polled (evmd answers an error, not null, for a receipt it does not have yet).
// Reuse it from real tests: `const c = await startContractsChain(); … await c.dispose();`.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { type Hex, encodeDeployData, encodeFunctionData, getContractAddress } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { ROUTER_ABI, ROUTER_ARTIFACT, TOKEN_ABI, TOKEN_ARTIFACT } from '../../devnet/fixtureContracts';
import { FIXTURE_SUPPLY } from '../../devnet/fixtureTxs';
import { DEV0, EvmdNode } from './evmd';
import { rawPost, REPO_ROOT, removeOnExit, waitFor } from './nodes';

/** The Foundry artifacts of the test contracts (checked in; `node scripts/contracts.mjs` rebuilds them). */
export const FIXTURE_ARTIFACTS = path.join(REPO_ROOT, 'test', 'fixtures', 'contracts', 'out');

export interface ContractsChain {
  node: EvmdNode;
  evmRpc: string;
  /** A temporary workspace folder holding `out/` (the Foundry artifacts) and a foundry.toml, removed by dispose(). */
  workspace: string;
  artifacts: { token: typeof TOKEN_ARTIFACT; router: typeof ROUTER_ARTIFACT };
  deployer: Hex;
  /** A second account (receives tokens, then fails to send more than it has). */
  other: Hex;
  token: Hex;
  router: Hex;
  /** Ethereum hashes of the traffic, all mined. */
  txs: { deployToken: Hex; deployRouter: Hex; approve: Hex; route: Hex; transfer: Hex; failedTransfer: Hex };
  rpc(method: string, params: unknown[]): Promise<{ result?: any; error?: { code: number; message: string; data?: unknown } }>;
  dispose(): Promise<void>;
}

const TOKEN = 10n ** 18n;

/** Starts a trace node, deploys the fixtures and sends their traffic (about 15 s on a warm machine). */
export async function startContractsChain(): Promise<ContractsChain> {
  const node = await EvmdNode.create({ trace: true, moniker: 'chain-endpoints-trace' });
  const workspace = mkdtempSync(path.join(tmpdir(), 'ce-contracts-ws-'));
  removeOnExit(workspace);
  const dispose = async (): Promise<void> => {
    await node.dispose();
    rmSync(workspace, { recursive: true, force: true });
    removeOnExit(workspace, false);
  };
  try {
    cpSync(FIXTURE_ARTIFACTS, path.join(workspace, 'out'), { recursive: true });
    writeFileSync(path.join(workspace, 'foundry.toml'), '[profile.default]\nsrc = "src"\nout = "out"\n');
    await node.start();
    const url = node.evmRpc;
    const rpc: ContractsChain['rpc'] = async (method, params) => {
      const r = (await rawPost(url, { jsonrpc: '2.0', id: 1, method, params })).json;
      return r.error ? { error: r.error } : { result: r.result };
    };
    const dev0 = mnemonicToAccount(DEV0.mnemonic);
    // A second account with a fresh key: funded by the deployer so that it can pay for its failing transfer.
    const other = mnemonicToAccount(DEV0.mnemonic, { addressIndex: 1 });
    const chainId = Number(BigInt((await rpc('eth_chainId', [])).result));
    const gasPrice = BigInt((await rpc('eth_gasPrice', [])).result);
    const nonces = new Map<string, number>();
    const send = async (from: typeof dev0, to: Hex | null, data: Hex | undefined, gas: bigint, value = 0n): Promise<Hex> => {
      const n = nonces.get(from.address) ?? Number(BigInt((await rpc('eth_getTransactionCount', [from.address, 'latest'])).result));
      nonces.set(from.address, n + 1);
      const raw = await from.signTransaction({
        type: 'eip1559',
        chainId,
        nonce: n,
        to: to ?? undefined,
        data,
        value,
        gas,
        maxFeePerGas: gasPrice * 2n,
        maxPriorityFeePerGas: 1n,
      });
      const sent = await rpc('eth_sendRawTransaction', [raw]);
      if (!sent.result) throw new Error(`eth_sendRawTransaction refused: ${JSON.stringify(sent.error)}`);
      return sent.result as Hex;
    };
    const mined = (hash: Hex) =>
      waitFor(`the receipt of ${hash}`, async () => (await rpc('eth_getTransactionReceipt', [hash])).result ?? undefined, 30_000, 200);
    const call = (abi: typeof TOKEN_ABI, functionName: string, args: unknown[]): Hex => encodeFunctionData({ abi, functionName, args } as never);

    const n0 = Number(BigInt((await rpc('eth_getTransactionCount', [dev0.address, 'latest'])).result));
    const token = getContractAddress({ from: dev0.address, nonce: BigInt(n0) });
    const router = getContractAddress({ from: dev0.address, nonce: BigInt(n0 + 1) });
    const deployToken = await send(
      dev0,
      null,
      encodeDeployData({ abi: TOKEN_ABI, bytecode: TOKEN_ARTIFACT.bytecode.object as Hex, args: [FIXTURE_SUPPLY] }),
      1_500_000n,
    );
    const deployRouter = await send(
      dev0,
      null,
      encodeDeployData({ abi: ROUTER_ABI, bytecode: ROUTER_ARTIFACT.bytecode.object as Hex, args: [token] }),
      1_500_000n,
    );
    const fund = await send(dev0, other.address, undefined, 21_000n, 10n ** 18n);
    for (const h of [deployToken, deployRouter, fund]) await mined(h);
    const approve = await send(dev0, token, call(TOKEN_ABI, 'approve', [router, 1_000n * TOKEN]), 100_000n);
    await mined(approve);
    const route = await send(dev0, router, call(ROUTER_ABI, 'route', [other.address, 250n * TOKEN]), 300_000n);
    const transfer = await send(dev0, token, call(TOKEN_ABI, 'transfer', ['0x00000000000000000000000000000000000c0ffe', 100n * TOKEN]), 100_000n);
    await mined(route);
    // Only 250 tokens: InsufficientBalance(250e18, 1000e18). Gas is given, so no estimate refuses it first.
    const failedTransfer = await send(other, token, call(TOKEN_ABI, 'transfer', [dev0.address, 1_000n * TOKEN]), 100_000n);
    for (const h of [transfer, failedTransfer]) await mined(h);
    return {
      node,
      evmRpc: url,
      workspace,
      artifacts: { token: TOKEN_ARTIFACT, router: ROUTER_ARTIFACT },
      deployer: dev0.address,
      other: other.address,
      token,
      router,
      txs: { deployToken, deployRouter, approve, route, transfer, failedTransfer },
      rpc,
      dispose,
    };
  } catch (e) {
    await dispose();
    throw e;
  }
}
