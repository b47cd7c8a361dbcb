// The API's watch() (src/ui/events/watchEvents.ts) with the vscode stub: each refusal (its one sentence,
// nothing opened, no watch started) and, on the devnet, a watch that delivers a new block's event to
// the listener until disposed.
import { vscodeStub } from '../../helpers/vscodeStub'; // first: answers require('vscode')
import * as assert from 'node:assert/strict';
import { LocalizedError } from '../../../../src/core/base/errors';
import type { WatchEvent } from '../../../../src/api';
import type { Log } from '../../../../src/ui/base/log';
import { watchForApi } from '../../../../src/ui/events/watchEvents';
import { type Devnet, startDevnet } from '../../../devnet/devnet';

describe('ui/events/watchEvents: watch() (devnet)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let lines: string[];
  const deps = () => ({
    log: {
      trace: () => undefined,
      debug: () => undefined,
      info: (m: string) => lines.push(m),
      warn: (m: string) => lines.push(m),
      error: (m: string) => lines.push(m),
      show: () => undefined,
      dispose: () => undefined,
    } as unknown as Log,
    secrets: { resolved: async <P>(p: P) => p },
  });
  const entry = (name: string) => {
    const u = devnet.providers.find((p) => p.name === name)!;
    return { name, consensusWs: u.consensusWs };
  };

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 0, providers: [{ name: 'alpha' }] });
  });
  after(async () => devnet.stop());
  beforeEach(() => {
    lines = [];
    const evmOnly = { name: 'evm only', evmRpc: 'http://127.0.0.1:9', evmWs: 'ws://127.0.0.1:9' };
    vscodeStub.reset({ user: { providers: [entry('alpha'), evmOnly] } });
  });

  const refusals: [string, unknown, RegExp | string][] = [
    ['not an object', 'alpha', /^The argument must be an object such as /],
    ['no provider', { query: "tm.event='NewBlock'" }, 'watch() needs "provider": the name of a configured provider, or "best".'],
    ['nothing to watch', { provider: 'alpha' }, 'watch() needs "query" (CometBFT) or "evm" (an EVM subscription).'],
    [
      'both a query and an EVM subscription',
      { provider: 'alpha', query: "tm.event='Tx'", evm: { subscription: 'newHeads' } },
      /^Pass either "query" \(CometBFT\) or "evm"/,
    ],
    ['a bad query (said before the missing provider)', { query: 'tm.event=' }, /./],
    ['an unknown EVM subscription', { provider: 'alpha', evm: { subscription: 'everything' } }, /^"evm\.subscription" must be one of /],
    ['an unknown provider', { provider: 'gamma', query: "tm.event='NewBlock'" }, 'No provider named "gamma". Configured providers: "alpha", "evm only".'],
    // Was a TypeError from inside the watch (the router took any named provider): now the router's sentence.
    [
      'a provider without the stream asked for',
      { provider: 'evm only', query: "tm.event='NewBlock'" },
      'Provider "evm only" has no Consensus WebSocket address.',
    ],
    ['a provider without the EVM stream asked for', { provider: 'alpha', evm: { subscription: 'newHeads' } }, /^Provider "alpha" has no EVM WebSocket address/],
  ];
  for (const [what, spec, sentence] of refusals)
    it(`refused: ${what}, nothing opened`, async () => {
      await assert.rejects(
        watchForApi(deps(), spec, () => assert.fail('no event')),
        (err: unknown) => {
          assert.ok(err instanceof LocalizedError, String(err));
          if (typeof sentence === 'string') assert.equal(err.message, sentence);
          else assert.match(err.message, sentence);
          return true;
        },
      );
      assert.deepEqual(lines, [], 'no watch logged a connection');
    });

  it('a watch on the devnet: the new block reaches the listener, until disposed', async () => {
    const events: WatchEvent[] = [];
    const watch = await watchForApi(deps(), { provider: 'ALPHA', query: "tm.event='NewBlock'" }, (e) => events.push(e));
    try {
      for (let i = 0; i < 100 && !events.some((e) => e.kind === 'event'); i++) {
        devnet.produceBlock();
        await new Promise((r) => setTimeout(r, 100));
      }
      const block = events.find((e) => e.kind === 'event');
      assert.ok(block, JSON.stringify(events));
      assert.match(block.height ?? '', /^\d+$/);
    } finally {
      watch.dispose();
    }
  });
});
