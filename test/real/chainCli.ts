// `npm run chain`: a real Cosmos EVM chain (evmd, built on first use by scripts/real/evmd.cjs) on
// loopback, with the addresses and a settings snippet printed, as `npm run devnet` does for the
// simulator. The chain lives in a temporary home removed on exit.
//   --block-ms N   CometBFT timeout_commit in ms (default 1000)
import { stopOnSignals } from '../devnet/signals';
import { DENOM, DEV0, EVM_CHAIN_ID, EvmdNode, VALIDATOR } from './helpers/evmd';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let blockMs = 1000;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--block-ms' && argv[i + 1] !== undefined && /^\d+$/.test(argv[i + 1])) blockMs = Number(argv[++i]);
    else if (argv[i] === '-h' || argv[i] === '--help') {
      console.log('usage: chain [--block-ms N]');
      return;
    } else throw new Error(`unknown argument ${argv[i]}\nusage: chain [--block-ms N]`);
  }
  // eslint-disable-next-line prefer-const -- assigned once the chain has started, read by the signal handler
  let node: EvmdNode | undefined;
  // Before the home exists the set-up finishes first (it checks `stopping`, then cleans up).
  const signals = stopOnSignals((signal) => {
    if (!node) return undefined;
    console.log(`\n${signal}: stopping evmd and removing ${node.home}`);
    return node.dispose();
  }, 15_000);
  const created = await EvmdNode.create({ timeoutCommitMs: blockMs, moniker: 'chain-endpoints-chain' });
  node = created;
  await new Promise((r) => setImmediate(r)); // a signal that arrived during the set-up is handled now
  try {
    if (signals.stopping) throw new Error('stopped during set-up');
    await node.start();
  } catch (e) {
    await created.dispose();
    throw e;
  }
  node.proc?.once('exit', (code, sig) => {
    if (signals.stopping) return;
    console.error(`evmd exited (${code ?? sig}); log:\n${node.log(20)}`);
    void node.dispose().finally(() => process.exit(1));
  });
  console.log(`evmd chain ${node.chainId} (EVM chain id ${EVM_CHAIN_ID}, 0x${EVM_CHAIN_ID.toString(16)}), denom ${DENOM}, home ${node.home}`);
  console.log(`  EVM JSON-RPC    ${node.evmRpc}`);
  console.log(`  EVM WebSocket   ${node.evmWs}`);
  console.log(`  Consensus HTTP  ${node.cometHttp}`);
  console.log(`  Consensus WS    ${node.cometWs}`);
  console.log(`  REST            ${node.rest}`);
  for (const k of [VALIDATOR, DEV0]) {
    const a = node.addresses[k.name];
    console.log(`  account ${k.name.padEnd(6)} ${a.bech32} = ${a.hex}`);
  }
  console.log(`  (test keys from upstream's local_node.sh; dev0's mnemonic: "${DEV0.mnemonic}")`);
  const snippet = [
    {
      name: 'evmd (local)',
      evmRpc: node.evmRpc,
      consensusHttp: node.cometHttp,
      consensusRpc: node.cometHttp,
      consensusWs: node.cometWs,
      rest: node.rest,
      chainId: node.chainId,
      evmChainId: Number(EVM_CHAIN_ID),
    },
  ];
  console.log('\nSettings snippet (settings.json):\n');
  console.log(`"chainEndpoints.providers": ${JSON.stringify(snippet, null, 2)}`);
  console.log(`\nLog: ${node.logFile}\nCtrl+C to stop.`);
}

main().catch((e: unknown) => {
  console.error(`chain failed to start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
