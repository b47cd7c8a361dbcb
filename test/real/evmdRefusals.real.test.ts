// The devnet refuses what evmd refuses, live: every case of test/devnet/refusalCases.ts (malformed,
// unprotected, wrong-chain, bad-nonce, unfunded, under-gassed, under-priced and malleable
// transactions; legacy and access-list txs accepted; unknown accounts empty) sent to a fresh evmd
// and to the devnet; same error codes, same messages once numbers, hashes and addresses are set
// aside. (devnetRefusals.unit.test.ts checks the devnet against the recording without evmd.)
import * as assert from 'node:assert/strict';
import { privateKeyToAccount, mnemonicToAccount } from 'viem/accounts';
import { type Devnet, startDevnet } from '../devnet/devnet';
import { wording } from '../devnet/refusalCases';
import { DEV0, EvmdNode } from './helpers/evmd';
import { refusalsAt } from './recordEvmdRefusals';

describe('devnet fidelity: eth_sendRawTransaction refusals and unknown accounts, devnet vs evmd', function () {
  this.timeout(120_000);
  let node: EvmdNode;
  let devnet: Devnet;

  before(async () => {
    node = await EvmdNode.create();
    await node.start();
    devnet = await startDevnet({ blockIntervalMs: 0 });
  });
  after(async () => {
    await devnet?.stop();
    await node?.dispose();
  });

  it('every case: refused alike (code and wording) or accepted alike', async () => {
    const evmd = await refusalsAt(node.evmRpc, mnemonicToAccount(DEV0.mnemonic));
    const dave = devnet.chain.ledger.keys[3];
    const dev = await refusalsAt(devnet.providers[0].evmRpc, privateKeyToAccount(`0x${Buffer.from(dave.privateKey).toString('hex')}`));
    const diffs: string[] = [];
    for (const e of evmd) {
      const d = dev.find((x) => x.name === e.name);
      if (!d) diffs.push(`${e.name}: not run on the devnet`);
      else if (!!d.response.error !== !!e.response.error) diffs.push(`${e.name}: devnet ${JSON.stringify(d.response)}, evmd ${JSON.stringify(e.response)}`);
      else if (e.response.error && d.response.error) {
        if (d.response.error.code !== e.response.error.code || wording(d.response.error.message) !== wording(e.response.error.message))
          diffs.push(`${e.name}: devnet ${JSON.stringify(d.response.error)}, evmd ${JSON.stringify(e.response.error)}`);
      } else if (e.request.method !== 'eth_sendRawTransaction' && JSON.stringify(d.response.result) !== JSON.stringify(e.response.result)) {
        diffs.push(`${e.name}: devnet ${JSON.stringify(d.response.result)}, evmd ${JSON.stringify(e.response.result)}`);
      }
    }
    assert.deepEqual(diffs, []);
    assert.ok(evmd.filter((a) => a.response.error).length >= 12, 'evmd refused the bad cases');
  });
});
