// `npm run record:evmd`: starts a fresh evmd chain (helpers/evmd.ts), puts a bank send and an
// EVM transfer in the same block, and writes the real answers about them to test/fixtures/evmd/
// (pretty-printed JSON of what each server answered), with an index in its README.md. The
// fixtures are for decoders and explorers; re-recording changes hashes, heights and times only.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { mnemonicToAccount } from 'viem/accounts';
import { bech32Encode, keccak256 } from '../devnet/encoding';
import { DEV0, EVM_CHAIN_ID, EvmdNode, VALIDATOR } from './helpers/evmd';
import { raw, rawPost, REPO_ROOT, waitFor } from './helpers/nodes';

const OUT = path.join(REPO_ROOT, 'test', 'fixtures', 'evmd');

async function main(): Promise<void> {
  const started = Date.now();
  // Slower blocks, so that both transactions land in one block.
  const node = await EvmdNode.create({ timeoutCommitMs: 3000 });
  const kill = setTimeout(() => {
    console.error('record:evmd: gave up after 5 minutes');
    void node.dispose().finally(() => process.exit(1));
  }, 5 * 60_000);
  try {
    await node.start();
    const evm = async (method: string, params: unknown[]) => (await rawPost(node.evmRpc, { jsonrpc: '2.0', id: 1, method, params })).json;
    const dev0 = mnemonicToAccount(DEV0.mnemonic);
    const validator = node.addresses[VALIDATOR.name];
    const files: Array<[string, string, unknown]> = [];
    let pair: { cosmosHash: string; evmHash: string; height: string } | undefined;
    for (let attempt = 1; attempt <= 4 && !pair; attempt++) {
      const to = bech32Encode('cosmos', randomBytes(20));
      const bank = node.signBankSend(validator.bech32, to, 1_000_000n, 'chain-endpoints fixture');
      const nonce = Number(BigInt((await evm('eth_getTransactionCount', [dev0.address, 'pending'])).result));
      const gasPrice = BigInt((await evm('eth_gasPrice', [])).result);
      const evmRaw = await dev0.signTransaction({
        type: 'eip1559',
        chainId: Number(EVM_CHAIN_ID),
        nonce,
        to: `0x${randomBytes(20).toString('hex')}`,
        value: 123_456_789n,
        gas: 21_000n,
        maxFeePerGas: gasPrice * 2n,
        maxPriorityFeePerGas: 1n,
      });
      // Right after a new block, so both reach the mempool well before the next one.
      const h0 = BigInt((await raw(`${node.cometHttp}/status`)).json.result.sync_info.latest_block_height);
      await waitFor(
        'a new block',
        async () => (BigInt((await raw(`${node.cometHttp}/status`)).json.result.sync_info.latest_block_height) > h0 ? true : undefined),
        20_000,
        50,
      );
      const a = await rawPost(`${node.rest}/cosmos/tx/v1beta1/txs`, { tx_bytes: bank, mode: 'BROADCAST_MODE_SYNC' });
      const b = await evm('eth_sendRawTransaction', [evmRaw]);
      if (a.json?.tx_response?.code !== 0 || !b.result) throw new Error(`broadcasts refused: ${a.text} ${JSON.stringify(b)}`);
      const cosmosHash = createHash('sha256').update(Buffer.from(bank, 'base64')).digest('hex').toUpperCase();
      const evmHash = '0x' + keccak256(Buffer.from(evmRaw.slice(2), 'hex')).toString('hex');
      const ct = await waitFor('the bank send', async () => (await raw(`${node.cometHttp}/tx?hash=0x${cosmosHash}`)).json?.result ?? undefined, 30_000, 200);
      const receipt = await waitFor('the receipt', async () => (await evm('eth_getTransactionReceipt', [evmHash])).result ?? undefined, 30_000, 200);
      if (BigInt(receipt.blockNumber).toString() === ct.height) pair = { cosmosHash, evmHash, height: ct.height };
      else console.log(`record:evmd: attempt ${attempt}: the two txs landed in blocks ${ct.height} and ${BigInt(receipt.blockNumber)}; again`);
    }
    if (!pair) throw new Error('could not get a bank send and an EVM transfer into one block in 4 attempts');
    const { cosmosHash, evmHash, height } = pair;
    const block = (await raw(`${node.cometHttp}/block?height=${height}`)).json;
    const evmTxBytes = (block.result.block.data.txs as string[]).find(
      (t) => createHash('sha256').update(Buffer.from(t, 'base64')).digest('hex').toUpperCase() !== cosmosHash,
    ) as string;
    const evmCosmosHash = createHash('sha256').update(Buffer.from(evmTxBytes, 'base64')).digest('hex').toUpperCase();
    const add = (file: string, what: string, body: unknown) => files.push([file, what, body]);
    add('cometbft-block.json', `CometBFT \`GET /block?height=${height}\`: a block holding a bank send (MsgSend) and an EVM transfer (MsgEthereumTx)`, block);
    add(
      'cometbft-block_results.json',
      `CometBFT \`GET /block_results?height=${height}\`: the two txs' results and events (\`ethereum_tx\`, \`transfer\`, ...)`,
      (await raw(`${node.cometHttp}/block_results?height=${height}`)).json,
    );
    add('cometbft-tx-bank-send.json', 'CometBFT `GET /tx?hash=0x<bank send>`', (await raw(`${node.cometHttp}/tx?hash=0x${cosmosHash}`)).json);
    add(
      'cometbft-tx-ethereum.json',
      'CometBFT `GET /tx?hash=0x<sha256 of the MsgEthereumTx bytes>`',
      (await raw(`${node.cometHttp}/tx?hash=0x${evmCosmosHash}`)).json,
    );
    add(
      'rest-block.json',
      `REST \`GET /cosmos/base/tendermint/v1beta1/blocks/${height}\` (the same block: base64 hashes, sdk_block)`,
      (await raw(`${node.rest}/cosmos/base/tendermint/v1beta1/blocks/${height}`)).json,
    );
    add(
      'rest-tx-bank-send.json',
      'REST `GET /cosmos/tx/v1beta1/txs/<bank send>`: the tx decoded (MsgSend, ethsecp256k1 signer)',
      (await raw(`${node.rest}/cosmos/tx/v1beta1/txs/${cosmosHash}`)).json,
    );
    add(
      'rest-tx-ethereum.json',
      'REST `GET /cosmos/tx/v1beta1/txs/<MsgEthereumTx>`: the EVM transfer decoded',
      (await raw(`${node.rest}/cosmos/tx/v1beta1/txs/${evmCosmosHash}`)).json,
    );
    add(
      'rest-account.json',
      `REST \`GET /cosmos/auth/v1beta1/accounts/${validator.bech32}\` (the validator's account)`,
      (await raw(`${node.rest}/cosmos/auth/v1beta1/accounts/${validator.bech32}`)).json,
    );
    add(
      'rest-balances.json',
      `REST \`GET /cosmos/bank/v1beta1/balances/${validator.bech32}\``,
      (await raw(`${node.rest}/cosmos/bank/v1beta1/balances/${validator.bech32}`)).json,
    );
    add('evm-eth_getTransactionByHash.json', 'EVM `eth_getTransactionByHash` of the transfer', await evm('eth_getTransactionByHash', [evmHash]));
    add('evm-eth_getTransactionReceipt.json', 'EVM `eth_getTransactionReceipt` of the transfer', await evm('eth_getTransactionReceipt', [evmHash]));
    add(
      'evm-eth_getBlockByNumber.json',
      'EVM `eth_getBlockByNumber` of the same block, with full transactions',
      await evm('eth_getBlockByNumber', ['0x' + BigInt(height).toString(16), true]),
    );
    mkdirSync(OUT, { recursive: true });
    for (const [file, , body] of files) {
      if (body === undefined || body === null) throw new Error(`${file}: no answer`);
      writeFileSync(path.join(OUT, file), JSON.stringify(body, null, 2) + '\n');
    }
    const readme = [
      '# Real evmd answers (fixtures)',
      '',
      'Recorded by `npm run record:evmd` (test/real/recordEvmd.ts) from a fresh single-validator evmd chain',
      `(Cosmos EVM v0.3.2, Cosmos SDK v0.53.4, CometBFT v0.38.17) with chain id \`${node.chainId}\`, EVM chain id`,
      `${EVM_CHAIN_ID} and denom \`atest\`, on ${new Date().toISOString().slice(0, 10)}. Block ${height} holds a bank send`,
      `(Cosmos hash \`${cosmosHash}\`) and an EVM transfer (Ethereum hash \`${evmHash}\`, Cosmos hash \`${evmCosmosHash}\`).`,
      'Each file is the whole JSON answer as the server sent it, re-indented.',
      '',
      '| file | what |',
      '|---|---|',
      ...files.map(([file, what]) => `| \`${file}\` | ${what} |`),
      '',
    ].join('\n');
    writeFileSync(path.join(OUT, 'README.md'), readme);
    console.log(
      `record:evmd: wrote ${files.length} fixtures to ${path.relative(REPO_ROOT, OUT)} in ${((Date.now() - started) / 1000).toFixed(1)} s (block ${height})`,
    );
  } finally {
    clearTimeout(kill);
    await node.dispose();
  }
}

main().catch((e: unknown) => {
  console.error(`record:evmd: FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(1);
});
