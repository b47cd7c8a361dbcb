// `npm run record:evmd:receipt`: runs issue #35's scenario (helpers/receiptScenario.ts: two staking
// delegations and an undelegation through the precompile, an ERC-20 transfer of the native token, a
// Cosmos bank send) on a fresh evmd node that keeps every height, and writes what the node answered
// about each transaction to test/fixtures/evmd/receipt/<name>.json, with an index in its README.md.
// Each file holds only what a receipt needs: the EVM transaction, receipt and callTracer trace, the
// CometBFT `tx` and `tx_search` answers, the REST decode, and the state at N−1 and N of every account
// (and validator) the transaction touched. Re-recording changes hashes, heights, times and amounts
// of rewards and fees only.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { EVM_CHAIN_ID } from './helpers/evmd';
import { REPO_ROOT } from './helpers/nodes';
import { runReceiptScenario } from './helpers/receiptScenario';

const omit = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
const OUT = path.join(REPO_ROOT, 'test', 'fixtures', 'evmd', 'receipt');

/**
 * `npm run record:evmd:receipt` rewrites every file; `… -- contract-delegate` writes only the files
 * named and keeps the others as they are (unit tests assert on their amounts).
 */
async function main(): Promise<void> {
  const started = Date.now();
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const kill = setTimeout(() => {
    console.error('record:evmd:receipt: gave up after 5 minutes');
    process.exit(1);
  }, 5 * 60_000);
  const s = await runReceiptScenario((l) => console.log(l));
  try {
    if (only.length === 0) rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    for (const name of only) if (!s.txs.some((t) => t.name === name)) throw new Error(`no transaction named ${name} in the scenario`);
    for (const t of s.txs) {
      if (only.length > 0 && !only.includes(t.name)) continue;
      const body = {
        about: t.about,
        chainId: s.node.chainId,
        evmChainId: EVM_CHAIN_ID.toString(),
        height: t.height,
        cometHash: t.cometHash,
        ...(t.evmHash ? { evmHash: t.evmHash } : {}),
        ...(t.evm ? { evm: t.evm } : {}),
        cometbft: {
          tx: t.cometbft.tx,
          // tx_search's one answer is the same object as `tx.result` (receipt.real.test checks it): kept once.
          txSearch: {
            query: t.evmHash ? `ethereum_tx.ethereumTxHash='${t.evmHash}'` : `tx.hash='${t.cometHash}'`,
            total_count: t.cometbft.txSearch.result.total_count,
            hashes: t.cometbft.txSearch.result.txs.map((x: { hash: string }) => x.hash),
          },
        },
        // REST's tx_response repeats the events of `cometbft.tx` and the decoded tx: both kept once.
        restTx: { tx: t.restTx.tx, tx_response: omit(t.restTx.tx_response, ['tx', 'events']) },
        blockEvents: t.blockEvents,
        validators: t.validators,
        accounts: t.accounts,
      };
      writeFileSync(path.join(OUT, `${t.name}.json`), JSON.stringify(body, null, 2) + '\n');
    }
    // The index lists every file there (kept ones with what they say about themselves), in the scenario's order.
    const order = s.txs.map((t) => `${t.name}.json`);
    const files = readdirSync(OUT)
      .filter((f) => f.endsWith('.json'))
      .sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const rows = files.map((f) => {
      const j = JSON.parse(readFileSync(path.join(OUT, f), 'utf8')) as { height: string; about: string };
      return `| \`${f}\` | ${j.height} | ${j.about} |`;
    });
    const readme = [
      '# Real evmd answers about transactions a receipt explains (issue #35)',
      '',
      'Recorded by `npm run record:evmd:receipt` (test/real/recordEvmdReceipt.ts, scenario in',
      'test/real/helpers/receiptScenario.ts) from a fresh single-validator evmd node (Cosmos EVM v0.3.2,',
      'Cosmos SDK v0.53.4, CometBFT v0.38.17) with the static precompiles active, `debug` and REST on and',
      `\`pruning = "nothing"\`; chain id \`${s.node.chainId}\`, EVM chain id ${EVM_CHAIN_ID}, denom \`atest\`, on`,
      `${new Date().toISOString().slice(0, 10)}. dev0 is \`${s.dev0.bech32}\` = \`${s.dev0.hex}\`; the validator is \`${s.valoper}\`.`,
      '',
      'Each file: `evm` (`transaction`, `receipt`, `trace`: eth_getTransactionByHash, eth_getTransactionReceipt,',
      'debug_traceTransaction with callTracer; EVM txs only), `cometbft` (`tx`: the whole `GET /tx?hash=0x…`',
      'answer; `txSearch`: the query, total_count and hashes of `tx_search`, whose one tx is the same object as',
      '`tx.result`), `restTx` (REST `/cosmos/tx/v1beta1/txs/{hash}`, its `tx_response.events` and `.tx` left out as',
      'repeats), `blockEvents` (`block_results` `finalize_block_events` of height N: mint, fee distribution, rewards',
      'and commission, which move the module accounts outside any tx), `validators` (REST validator records named by the events, at N−1 and',
      'N) and `accounts`: every account named in the events plus the EVM sender, with `before` (height N−1) and',
      '`after` (N): REST bank balances, `eth_getBalance` at the block, and for delegators their delegations,',
      'rewards and unbonding delegations (REST with `x-cosmos-block-height`).',
      '',
      'Facts these answers show (checked live by test/real/receipt.real.test.ts):',
      '',
      "- A delegator's change from N−1 to N (bank `atest` = `eth_getBalance`) is exactly rewards withdrawn − delegated",
      "  − fee + refund, with the fee = the `tx` event's `fee` and the refund = the first `transfer` from the fee",
      '  collector to the sender with a `msg_index`. The events list the fee and the refund once more each at',
      '  **twice** the amount (`transfer`/`coin_spent`/`coin_received` of 2×fee and 2×refund), and an ERC-20',
      "  transfer's bank transfer likewise (2 TEST, then 4 TEST): the balances show each once.",
      '- The price charged per gas is `tx.fee` / gas limit = the BeginBlock base fee of N (`evm_fee_market` in',
      "  `blockEvents`) + the tip; fee − refund = gasUsed × that price. The receipt's `effectiveGasPrice` (and the",
      "  tx's `gasPrice`) is the EndBlock base fee of N (`fee_market`, the next block's) + the tip: gasUsed ×",
      '  effectiveGasPrice is **not** what was paid.',
      '- `gasUsed` is at least half the gas limit (the first delegation: exactly half); above that, the gas used.',
      '- The first delegation withdraws nothing; the second and the undelegation withdraw the rewards accrued',
      '  (`withdraw_rewards`, paid by the distribution module). Pending rewards read at N−1 are at most the amount',
      "  withdrawn (block N's allocation comes first); none are pending at N.",
      "- The unbonding entry's `completion_time` has nanoseconds; the `unbond` event's is cut to seconds; the EVM",
      "  `Unbond` log and the call's output carry it in unix seconds.",
      '- The ERC-20 transfer of the native token through 0xEeee…EEeE costs about 3,020,000 gas (eth_estimateGas); with',
      '  200,000 or 1,000,000 gas it fails with `out of gas` in the trace.',
      '- Module accounts also move at block level (mint, fee distribution, rewards: `blockEvents`): the fee collector',
      "  holds at N the fee − refund of block N's txs; the distribution module gains the block's rewards.",
      '- A bank send (Cosmos tx) pays `tx.fee` = gas limit × gas price, no refund; no `ethereum_tx` event.',
      '',
      '| file | height N | transaction |',
      '|---|---|---|',
      ...rows,
      '',
    ].join('\n');
    writeFileSync(path.join(OUT, 'README.md'), readme);
    console.log(
      `record:evmd:receipt: wrote ${only.length || s.txs.length} fixtures to ${path.relative(REPO_ROOT, OUT)} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    clearTimeout(kill);
    await s.dispose();
  }
}

main().catch((e: unknown) => {
  console.error(`record:evmd:receipt: FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(1);
});
