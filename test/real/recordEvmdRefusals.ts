// `npm run record:evmd:refusals`: starts a fresh evmd chain (helpers/evmd.ts) and writes what its
// EVM JSON-RPC answers to the cases of test/devnet/refusalCases.ts (malformed, unprotected,
// wrong-chain, bad-nonce, unfunded, under-gassed, under-priced and malleable transactions; unknown
// accounts) to test/fixtures/evmd/evm-refusals.json. The devnet is held to these answers by
// test/devnet/devnetRefusals.unit.test.ts (and live by evmdRefusals.real.test.ts).
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { LocalAccount } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { runRefusals } from '../devnet/refusalCases';
import { DEV0, EvmdNode } from './helpers/evmd';
import { rawPost, REPO_ROOT } from './helpers/nodes';

export const REFUSALS_FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'evmd', 'evm-refusals.json');

/** Runs the refusal cases against an EVM JSON-RPC URL whose funded account is `funded`. */
export async function refusalsAt(url: string, funded: LocalAccount) {
  const rpc = async (method: string, params: unknown[]) => {
    const r = (await rawPost(url, { jsonrpc: '2.0', id: 1, method, params })).json;
    return r.error ? { error: r.error } : { result: r.result };
  };
  const chainId = Number(BigInt((await rpc('eth_chainId', [])).result as string));
  const gasPrice = BigInt((await rpc('eth_gasPrice', [])).result as string);
  const nonce = Number(BigInt((await rpc('eth_getTransactionCount', [funded.address, 'latest'])).result as string));
  return runRefusals({ chainId, gasPrice, funded, nonce }, rpc);
}

async function main(): Promise<void> {
  const node = await EvmdNode.create();
  const kill = setTimeout(() => {
    console.error('record:evmd:refusals: gave up after 3 minutes');
    void node.dispose().finally(() => process.exit(1));
  }, 3 * 60_000);
  try {
    await node.start();
    const answers = await refusalsAt(node.evmRpc, mnemonicToAccount(DEV0.mnemonic));
    const body = {
      recorded: new Date().toISOString().slice(0, 10),
      node: 'evmd v0.3.2 (Cosmos EVM; go-ethereum v1.15.11-cosmos-0), json-rpc api eth,txpool,net,web3',
      cases: answers,
    };
    writeFileSync(REFUSALS_FIXTURE, JSON.stringify(body, null, 2) + '\n');
    for (const a of answers) console.log(`${a.name}: ${JSON.stringify(a.response)}`);
    console.log(`record:evmd:refusals: wrote ${path.relative(REPO_ROOT, REFUSALS_FIXTURE)}`);
  } finally {
    clearTimeout(kill);
    await node.dispose();
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(`record:evmd:refusals: FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  });
}
