// The query files' `explorer.receipt` (core/queries/receiptRequest.ts): assertions on the changes by
// address (`changes[0x…].atest`, `changes[cosmos1…].atest`), on `explained` and the causes, the receipt
// built on the recorded evmd answers; without a receipt builder the request fails with one sentence.

import * as assert from 'node:assert/strict';
import os from 'node:os';
import type { Provider } from '../../../../../src/core/config/providers';
import { forgetContext } from '../../../../../src/core/explorer/context';
import { lookUp } from '../../../../../src/core/explorer/lookup';
import { receiptFields } from '../../../../../src/core/explorer/receipt/queryRunner';
import { parseQueryFile } from '../../../../../src/core/queries/parse';
import type { ReceiptRunner } from '../../../../../src/core/queries/receiptRequest';
import { runQueryFile } from '../../../../../src/core/queries/run';
import { parsePath } from '../../../../../src/core/queries/syntax';
import { HttpClient } from '../../../../../src/core/transport/http';
import { receiptFixture, receiptSource } from './receiptSource';

const provider: Provider = {
  name: 'evmd',
  endpoints: { rest: 'http://127.0.0.1:1', consensusHttp: 'http://127.0.0.1:1', evmRpc: 'http://127.0.0.1:1' },
} as Provider;

describe('query files: explorer.receipt (#35)', () => {
  beforeEach(() => forgetContext());

  it('parses an address as a path key, 0x lowercased', () => {
    assert.deepEqual(parsePath('changes[0xC6Fe5D33615a1C52c08018c47E8Bc53646A0E101].atest'), [
      'changes',
      '0xc6fe5d33615a1c52c08018c47e8bc53646a0e101',
      'atest',
    ]);
    assert.deepEqual(parsePath('changes[cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm].atest'), [
      'changes',
      'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm',
      'atest',
    ]);
  });

  it('asserts on the changes of a delegation through the staking precompile; a wrong expectation fails', async () => {
    const fx = receiptFixture('delegate-again');
    const runner: ReceiptRunner = async (_wire, hash) => {
      const r = await lookUp(receiptSource(fx), hash, { receipt: true });
      assert.equal(r.kind, 'tx');
      const receipt = (r as { receipt?: Parameters<typeof receiptFields>[0] }).receipt!;
      return { summary: receipt.summary, result: receipt, fields: receiptFields(receipt) };
    };
    const file = parseQueryFile(
      [
        `request delegation = explorer.receipt`,
        `provider: evmd`,
        `hash: ${fx.evmHash}`,
        `assert changes[0xC6Fe5D33615a1C52c08018c47E8Bc53646A0E101].atest == -985521640176549290`,
        `assert changes[cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm].atest == -985521640176549290`,
        `assert explained == true`,
        `assert causes[2].kind == withdrawRewards`,
        ``,
        `request wrong = explorer.receipt`,
        `provider: evmd`,
        `hash: ${fx.cometHash}`,
        `assert changes[0xc6fe5d33615a1c52c08018c47e8bc53646a0e101].atest == -1000000000000000000`,
      ].join('\n'),
    );
    assert.deepEqual(file.diagnostics, []);
    const http = new HttpClient({ userAgent: 'test' });
    try {
      const execute = { http, timeoutMs: 5_000, maxBufferBytes: 1 << 20, spillDir: os.tmpdir(), formatWhileReceiving: false };
      const run = await runQueryFile(file, {
        providers: [provider],
        execute,
        env: {},
        resolveProvider: (p) => p,
        secretValue: () => undefined,
        receipt: runner,
      });
      const [ok, wrong] = run.requests;
      assert.ok(
        ok.runs[0].assertions.every((a) => a.passed),
        JSON.stringify(ok.runs[0].assertions),
      );
      assert.equal(wrong.runs[0].assertions[0].passed, false);
      assert.equal(run.passed, false);
      // Without a builder (a runner that does not pass one): one sentence, nothing sent.
      const bare = await runQueryFile(parseQueryFile(`request r = explorer.receipt\nprovider: evmd\nhash: ${fx.evmHash}\nassert explained == true`), {
        providers: [provider],
        execute,
        env: {},
        resolveProvider: (p) => p,
        secretValue: () => undefined,
      });
      assert.match(bare.requests[0].runs[0].record.error ?? '', /explorer\.receipt runs in the editor and in the command-line runner only/);
    } finally {
      await http.close();
    }
  });
});
