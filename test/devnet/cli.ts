// `npm run devnet`: starts the local devnet and prints the addresses to paste into settings.
//   --block-ms N     block interval in ms (default 1000; 0 = no blocks)
//   --genesis-mb N   pad the genesis to N MiB (above 16 it is served only through genesis_chunked)
//   --extra          also start "Devnet lagging" (3 blocks behind, no debug namespace) and "Devnet trailing slash"
//   --base-port N    ports of the extra providers: N..N+2 and N+3..N+5 (default: free ports)
//   --ports-free     every provider on free ports (default: Local node on 8545/26657/1317, Local node v0.5 on 8555/26667/1327, Pruned node on 8565/26677/1337)
//   --no-pruned      without "Pruned node" (the same chain, keeping only the last 10 heights)
//   --host H         listen address (default 127.0.0.1)
//   --no-txs         blocks without the generated real transactions (bank send, EVM transfer, contract call)
//   --cosmos-evm V   event shapes of EVM txs: v0.3 (default, as evmd v0.3.2: logs copied into tx_log) or v0.5 (no tx_log)
//   --second-network also serve a second chain (chain-endpoints-devnet-2, heights from 5000) with
//                    "Second network" and "Second network lagging" (3 blocks behind), free ports
import { getAddress } from 'viem';
import { stopOnSignals } from './signals';
import { type Devnet, type DevnetOptions, type DevnetProviderOptions, SECOND_NETWORK, localProviders, startDevnet, startNetworks } from './devnet';

interface CliArgs {
  blockMs: number;
  genesisMb: number;
  extra: boolean;
  basePort?: number;
  portsFree: boolean;
  host: string;
  txs: boolean;
  secondNetwork: boolean;
  pruned: boolean;
  cosmosEvm: 'v0.3' | 'v0.5';
}

const USAGE =
  'usage: devnet [--block-ms N] [--genesis-mb N] [--extra] [--base-port N] [--ports-free] [--host H] [--no-txs] [--no-pruned] [--cosmos-evm v0.3|v0.5] [--second-network]';

function parseArgs(argv: string[]): CliArgs {
  const out: CliArgs = {
    blockMs: 1000,
    genesisMb: 0,
    extra: false,
    portsFree: false,
    host: '127.0.0.1',
    txs: true,
    secondNetwork: false,
    pruned: true,
    cosmosEvm: 'v0.3',
  };
  const num = (flag: string, v: string | undefined): number => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < 0) throw new Error(`${flag} needs a non-negative number`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--block-ms':
        out.blockMs = num(flag, value());
        break;
      case '--genesis-mb':
        out.genesisMb = num(flag, value());
        break;
      case '--extra':
        out.extra = true;
        break;
      case '--base-port':
        out.basePort = num(flag, value());
        break;
      case '--no-txs':
        out.txs = false;
        break;
      case '--no-pruned':
        out.pruned = false;
        break;
      case '--ports-free':
        out.portsFree = true;
        break;
      case '--second-network':
        out.secondNetwork = true;
        break;
      case '--cosmos-evm': {
        const v = value();
        if (v !== 'v0.3' && v !== 'v0.5') throw new Error(`--cosmos-evm needs v0.3 or v0.5\n${USAGE}`);
        out.cosmosEvm = v;
        break;
      }
      case '--host':
        out.host = value() ?? out.host;
        break;
      case '-h':
      case '--help':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${a}\n${USAGE}`);
    }
  }
  return out;
}

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(2);
  }
  // Local node (evmd v0.3.2-like) on 8545/26657/1317, Local node v0.5 (its simulation engines) on
  // 8555/26667/1327 and Pruned node (the last 10 heights) on 8565/26677/1337.
  const providers: DevnetProviderOptions[] = localProviders(args.portsFree, args.pruned);
  if (args.extra) {
    const b = args.portsFree ? undefined : args.basePort;
    providers.push(
      // Cosmos EVM's default JSON-RPC namespaces: no debug (call traces come from Local node).
      {
        name: 'Devnet lagging',
        lagBlocks: 3,
        ports: b ? { evmRpc: b, consensus: b + 1, rest: b + 2 } : undefined,
        capabilities: { evmNamespaces: ['eth', 'net', 'web3'] },
      },
      { name: 'Devnet trailing slash', restTrailingSlash: true, ports: b ? { evmRpc: b + 3, consensus: b + 4, rest: b + 5 } : undefined },
    );
  }
  const options: DevnetOptions = {
    host: args.host,
    providers,
    blockIntervalMs: args.blockMs,
    genesisAppStateBytes: Math.round(args.genesisMb * 1024 * 1024),
    realTxs: args.txs,
    cosmosEvm: args.cosmosEvm,
  };
  const second: DevnetOptions = {
    ...SECOND_NETWORK,
    host: args.host,
    blockIntervalMs: args.blockMs,
    providers: [{ name: 'Second network' }, { name: 'Second network lagging', lagBlocks: 3 }],
    realTxs: args.txs,
    cosmosEvm: args.cosmosEvm,
  };
  const networks = args.secondNetwork ? await startNetworks([options, second]) : undefined;
  const devnet: Devnet = networks ? networks.devnets[0] : await startDevnet(options);
  const others = networks ? networks.devnets.slice(1) : [];
  for (const d of others) console.log(`second network ${d.chainId} (EVM chain id ${d.evmChainId}) at height ${d.height()}`);
  const genesisChunks = Math.ceil(devnet.genesisBytes().length / (16 * 1024 * 1024));
  console.log(`devnet ${devnet.chainId} (EVM chain id ${devnet.evmChainId}, 0x${devnet.evmChainId.toString(16)}) at height ${devnet.height()}`);
  console.log(`genesis: ${devnet.genesisBytes().length} bytes${genesisChunks > 1 ? `, ${genesisChunks} chunks (use genesis_chunked)` : ''}`);
  const allProviders = [...devnet.providers, ...others.flatMap((d) => d.providers)];
  for (const p of allProviders) {
    console.log(`\n${p.name}`);
    console.log(`  EVM JSON-RPC    ${p.evmRpc}`);
    console.log(`  Consensus HTTP  ${p.consensusHttp}`);
    console.log(`  Consensus RPC   ${p.consensusRpc}`);
    console.log(`  Consensus WS    ${p.consensusWs}`);
    console.log(`  REST            ${p.rest}`);
    console.log(`  EVM WS          ${p.evmWs}`);
  }
  const snippet = allProviders.map(({ name, evmRpc, consensusHttp, consensusRpc, consensusWs, rest, evmWs }) => ({
    name,
    evmRpc,
    consensusHttp,
    consensusRpc,
    consensusWs,
    rest,
    evmWs,
  }));
  console.log('\nSettings snippet (settings.json):\n');
  console.log(`"chainEndpoints.providers": ${JSON.stringify(snippet, null, 2)}`);
  if (args.txs) printExamples(devnet);
  console.log('\nCtrl+C to stop.');

  let lastLogged = devnet.height();
  const blockLog = setInterval(
    () => {
      const h = devnet.height();
      if (h - lastLogged >= 10n) {
        lastLogged = h - (h % 10n);
        console.log(`${new Date().toISOString()} height ${h}`);
      }
    },
    Math.max(100, args.blockMs || 1000),
  );
  blockLog.unref();

  stopOnSignals((signal) => {
    console.log(`\n${signal}: stopping devnet`);
    clearInterval(blockLog);
    return (networks ?? devnet).stop();
  }, 5000);
}

/** A few real identifiers to look up (the first blocks' transactions and the dev accounts). */
function printExamples(devnet: Devnet): void {
  const chain = devnet.chain;
  if (chain.tip < 2n) chain.produceBlock();
  const txs = [...chain.allTxs()];
  const bank = txs.find((t) => t.real?.kind === 'bank');
  const transfer = txs.find((t) => t.real?.kind === 'evm' && t.real.tx.to !== null && t.real.tx.input === '0x');
  const call = txs.find((t) => t.exec?.logs.length && t.real?.kind === 'evm' && t.real.tx.to === chain.ledger.contract);
  const deploy = txs.find((t) => t.exec?.contractAddress);
  console.log('\nReal transactions to look up (every block carries a bank send, an EVM transfer and a contract call):');
  if (bank) console.log(`  bank send        height ${bank.height}  Cosmos ${bank.hash}`);
  if (transfer) console.log(`  EVM transfer     height ${transfer.height}  EVM ${transfer.evmHash}  Cosmos ${transfer.hash}`);
  if (call) console.log(`  ERC-20 Transfer  height ${call.height}  EVM ${call.evmHash}  Cosmos ${call.hash}`);
  if (deploy?.exec?.contractAddress)
    console.log(`  contract         ${getAddress(deploy.exec.contractAddress)}  (deployed at height ${deploy.height}, EVM ${deploy.evmHash})`);
  const f = chain.ledger.fixtureDeployment;
  if (f) {
    // The test contracts (test/fixtures/contracts; artifacts in examples/workspace/out): decoded by their ABI.
    console.log(`  FixtureToken     ${f.token}  FixtureRouter ${f.router}`);
    console.log(`  routed payment   EVM ${f.txs.route}  (bank precompile STATICCALL, token CALL)`);
    console.log(`  failed transfer  EVM ${f.txs.failedTransfer}  (status 0x0: InsufficientBalance)`);
  }
  const sample = chain.ledger.receiptSample;
  const delegation = sample && chain.txByEvmHash(sample.evmHash);
  if (sample && delegation)
    console.log(
      `  staking delegate height ${delegation.height}  EVM ${sample.evmHash}  Cosmos ${delegation.hash}  (precompile 0x…0800: rewards withdrawn, 1 TEST bonded; look it up for its receipt)`,
    );
  for (const k of chain.ledger.keys.slice(0, 2)) console.log(`  account ${k.name.padEnd(8)} ${k.bech32}  ${k.hex}`);
  // A public test key of this local simulator (like anvil's), to send EIP-1559 txs or bank sends.
  const alice = chain.ledger.keys[0];
  console.log(`  alice's dev key  0x${Buffer.from(alice.privateKey).toString('hex')} (EVM chain id ${devnet.evmChainId}, account number 0)`);
}

main().catch((e: unknown) => {
  console.error(`devnet failed to start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
