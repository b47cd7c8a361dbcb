// The Watch Events argument and prompts, and the batched entry stream, without the editor: what is read from `{ provider, query }`
// / `{ provider, evm }`, what is refused with which sentence, and what is asked for the rest.
import * as assert from 'node:assert/strict';
import type { Provider } from '../../../../src/core/config/providers';
import { groupNetworks } from '../../../../src/core/config/networks';
import { parseProviders, validateAddress } from '../../../../src/core/config/providers';
import { parseEvmTopics, readWatchArgument, validateEvmAddresses, validateEvmTopics, watchTargetOf } from '../../../../src/core/events/watchArgument';
import { EntryStream } from '../../../../src/core/events/stream';
import { chooseWatch } from '../../../../src/ui/events/chooseWatch';
import { decorateProviderItems } from '../../../../src/ui/providers/providerPicks';
import type { PickItem } from '../../../../src/ui/base/prompts';
import { scriptedPrompts } from '../../helpers/prompts';
import { StallMeter } from '../../helpers/stallMeter';

const both: Provider = { name: 'Local node', endpoints: { consensusWs: 'ws://127.0.0.1:26657/websocket', evmWs: 'ws://127.0.0.1:8546' } };
const comet: Provider = { name: 'Comet', endpoints: { consensusWs: 'ws://127.0.0.1:36657/websocket' } };
const http: Provider = { name: 'HTTP only', endpoints: { evmRpc: 'http://127.0.0.1:8545' } };
const ADDR = '0x' + 'ab'.repeat(20);
const TOPIC = '0x' + 'cd'.repeat(32);

/** The shared scripted prompts (helpers/prompts.ts), what was asked written as this file's assertions read it. */
function scripted(picks: Array<(items: readonly PickItem[]) => PickItem | undefined>, inputs: Array<string | undefined>) {
  return scriptedPrompts({
    pick: picks,
    inputs,
    describe: (q) =>
      q.kind === 'pick'
        ? `pick ${q.options.placeHolder ?? q.options.title}`
        : q.kind === 'input'
          ? `input ${q.options.title} [${q.options.value ?? ''}]`
          : `confirm ${q.message}`,
  });
}

describe('events: the Watch Events argument', () => {
  it('evmWs is a provider address: ws/wss only, kept by parseProviders', () => {
    assert.equal(validateAddress('evmWs', 'ws://127.0.0.1:8546'), undefined);
    assert.match(validateAddress('evmWs', 'http://127.0.0.1:8546') ?? '', /EVM WebSocket address must start with ws:\/\/ or wss:\/\//);
    const parsed = parseProviders([{ name: 'A', evmWs: 'wss://evm.example.org:8546' }]);
    assert.equal(parsed.providers[0].endpoints.evmWs, 'wss://evm.example.org:8546');
  });

  it('reads a CometBFT and an EVM argument, and builds their targets', () => {
    const a = readWatchArgument({ provider: 'local node', query: "tm.event='Tx'" }, [both]);
    assert.equal(a.provider, both);
    assert.deepEqual(watchTargetOf(both, a), { kind: 'comet', url: both.endpoints.consensusWs, query: "tm.event='Tx'" });
    const e = readWatchArgument({ provider: 'Local node', evm: { subscription: 'logs', address: ADDR, topics: [TOPIC, null, [TOPIC, TOPIC]] } }, [both]);
    assert.deepEqual(watchTargetOf(both, e), {
      kind: 'evm',
      url: both.endpoints.evmWs,
      subscription: 'logs',
      address: ADDR,
      topics: [TOPIC, null, [TOPIC, TOPIC]],
    });
  });

  const refused: Array<[unknown, RegExp]> = [
    ['text', /must be an object/],
    [{ provider: 'Nope', query: "tm.event='Tx'" }, /No provider named "Nope"/],
    [{ provider: 'Local node', query: "tm.event='Tx" }, /never closed/],
    [{ provider: 'Local node', query: "tm.event='Tx'", evm: { subscription: 'newHeads' } }, /either "query"/],
    [{ provider: 'Local node', evm: { subscription: 'syncing' } }, /must be one of newHeads, logs, newPendingTransactions/],
    [{ provider: 'Local node', evm: { subscription: 'logs', address: '0x12' } }, /contract address/],
    [{ provider: 'Local node', evm: { subscription: 'logs', topics: ['0x12'] } }, /"evm.topics"/],
    [{ provider: 'Local node', evm: { subscription: 'newHeads', address: ADDR } }, /filter only the "logs"/],
    [{ provider: 'Comet', evm: { subscription: 'newHeads' } }, /Comet has no EVM WebSocket address/],
    [{ provider: 'HTTP only', query: "tm.event='Tx'" }, /HTTP only has no Consensus WebSocket address/],
  ];
  for (const [arg, sentence] of refused) {
    it(`refuses ${JSON.stringify(arg).slice(0, 80)}`, () => assert.throws(() => readWatchArgument(arg, [both, comet, http]), sentence));
  }

  it('EVM filters: addresses and topics validated, topics parsed by position', () => {
    assert.equal(validateEvmAddresses(`${ADDR}, ${ADDR}`), undefined);
    assert.match(validateEvmAddresses('0xnope') ?? '', /not a contract address/);
    assert.equal(validateEvmTopics(`${TOPIC},*,${TOPIC}|${TOPIC}`), undefined);
    assert.match(validateEvmTopics('0x1') ?? '', /not a topic/);
    assert.deepEqual(parseEvmTopics(`${TOPIC},*,${TOPIC}|${TOPIC},*`), [TOPIC, null, [TOPIC, TOPIC]]);
  });

  it('asks for the provider, the family, a template and the query (pre-filled with the template)', async () => {
    const { prompts, asked } = scripted(
      [(items) => items.find((i) => i.label === 'Local node'), (items) => items[0], (items) => items.find((i) => /sent by an account/.test(i.label))],
      ["tm.event='Tx' AND message.sender='cosmos1abc'"],
    );
    const c = await chooseWatch(undefined, [both, comet, http], prompts);
    assert.equal(c?.provider, both);
    assert.equal(c?.query, "tm.event='Tx' AND message.sender='cosmos1abc'");
    assert.equal(asked.length, 4);
    assert.match(asked[3], /^input CometBFT query \[tm\.event='Tx' AND message\.sender='…'\]$/);
  });

  it('the provider pick is a provider pick: each item names its provider, so the pick shows its state and height and the last used first', async () => {
    let shown: readonly PickItem[] = [];
    const { prompts } = scripted([(items) => ((shown = items), undefined)], []);
    assert.equal(await chooseWatch(undefined, [both, comet, http], prompts), undefined);
    assert.deepEqual(
      shown.map((i) => (i as { provider?: { name: string } }).provider?.name),
      shown.map((i) => i.label),
    );
    const rows = [{ provider: both.name, iface: 'consensusWs', state: 'down' }] as unknown as Parameters<typeof decorateProviderItems>[1];
    assert.match(decorateProviderItems(shown, rows).find((i) => i.label === both.name)?.description ?? '', /down/);
  });

  it('EVM logs: asks for the address and topics; an empty answer means no filter', async () => {
    const { prompts } = scripted([(items) => items.find((i) => i.label === 'logs')], [ADDR, '']);
    const c = await chooseWatch({ provider: 'Local node', evm: undefined }, [both], prompts);
    assert.equal(c, undefined, 'both families: the family pick was dismissed');
    const again = scripted([(items) => items[1], (items) => items.find((i) => i.label === 'logs')], [ADDR, '']);
    const d = await chooseWatch({ provider: 'Local node' }, [both], again.prompts);
    assert.deepEqual(d?.evm, { subscription: 'logs', address: ADDR });
  });

  it('a provider without "evmWs": the family pick says the EVM stream is unavailable and why; picking it explains', async () => {
    let shown: readonly PickItem[] = [];
    const { prompts } = scripted(
      [
        (items) => {
          shown = items;
          return items[1];
        },
      ],
      [],
    );
    await assert.rejects(chooseWatch({ provider: 'Comet' }, [both, comet, http], prompts), /Comet has no EVM WebSocket address: add "evmWs"/);
    assert.deepEqual(
      shown.map((i) => i.label),
      ['CometBFT events', 'EVM subscription'],
    );
    assert.match(String(shown[1].description), /unavailable: Comet has no "evmWs" address/);
  });

  describe('a network (or all providers) without an EVM WebSocket says so, as one provider does', () => {
    const localA: Provider = { name: 'A', chainId: 'local-1', network: 'Local net', endpoints: { consensusWs: 'ws://127.0.0.1:1/websocket' } };
    const localB: Provider = { name: 'B', chainId: 'local-1', network: 'Local net', endpoints: { consensusWs: 'ws://127.0.0.1:2/websocket' } };
    const testA: Provider = { name: 'T1', chainId: 'test-2', network: 'Testnet', endpoints: { consensusWs: 'ws://127.0.0.1:3/websocket' } };
    const testB: Provider = {
      name: 'T2',
      chainId: 'test-2',
      network: 'Testnet',
      endpoints: { consensusWs: 'ws://127.0.0.1:4/websocket', evmWs: 'ws://127.0.0.1:5' },
    };
    const all = [localA, localB, testA, testB];
    const networks = groupNetworks(all);
    const newHeads = { subscription: 'newHeads' };

    it('{ network, evm }: no provider of the network has "evmWs": the sentence names the network, its providers and what to add', async () => {
      await assert.rejects(
        chooseWatch({ network: 'Local net', evm: newHeads }, all, scripted([], []).prompts, networks),
        /No provider of Local net publishes an EVM WebSocket address: add "evmWs" \(such as ws:\/\/host:8546\) to one of them \(A, B\)/,
      );
      await assert.rejects(chooseWatch({ network: 'Nowhere', evm: newHeads }, all, scripted([], []).prompts, networks), /No network named "Nowhere"/);
      // A provider named with a network must be one of its providers; one that is watches there.
      await assert.rejects(
        chooseWatch({ network: 'Local net', provider: 'T1', query: "tm.event='Tx'" }, all, scripted([], []).prompts, networks),
        /Provider "T1" is not a provider of the network "Local net"/,
      );
      assert.equal(
        (await chooseWatch({ network: 'Local net', provider: 'B', query: "tm.event='Tx'" }, all, scripted([], []).prompts, networks))?.provider,
        localB,
      );
      // The network that has one: its provider is taken (the only candidate), no question asked.
      const { prompts, asked } = scripted([], []);
      assert.equal((await chooseWatch({ network: 'Testnet', evm: newHeads }, all, prompts, networks))?.provider, testB);
      assert.deepEqual(asked, []);
    });

    it('{ evm } over all providers, none with "evmWs": the sentence says so (naming the network when there is one)', async () => {
      await assert.rejects(
        chooseWatch({ evm: newHeads }, [localA, localB], scripted([], []).prompts, groupNetworks([localA, localB])),
        /No provider of Local net publishes an EVM WebSocket address/,
      );
      await assert.rejects(
        chooseWatch({ evm: newHeads }, [localA, testA], scripted([], []).prompts, groupNetworks([localA, testA])),
        /No provider publishes an EVM WebSocket address: add "evmWs".*\(A, T1\)/,
      );
    });

    it('{ provider: "best", network }: the ranked best of the candidates; none with "evmWs" says why', async () => {
      const best = (c: readonly Provider[]) => c[c.length - 1];
      assert.equal(
        (await chooseWatch({ provider: 'best', network: 'Local net', query: "tm.event='Tx'" }, all, scripted([], []).prompts, networks, best))?.provider,
        localB,
      );
      await assert.rejects(
        chooseWatch({ provider: 'best', network: 'Local net', evm: newHeads }, all, scripted([], []).prompts, networks, best),
        /No provider of Local net publishes/,
      );
    });

    it('the provider pick: a network without one says so in its separator; with none at all, the placeholder says why', async () => {
      let shown: readonly PickItem[] = [];
      let placeHolder = '';
      const { prompts } = scriptedPrompts({ pick: (items, o) => ((shown = items), (placeHolder = o.placeHolder ?? ''), undefined) });
      await chooseWatch(undefined, all, prompts, networks);
      assert.deepEqual([...new Set(shown.map((i) => i.group))], ['Local net · no EVM WebSocket ("evmWs")', 'Testnet']);
      assert.equal(placeHolder, 'The provider to watch');
      await chooseWatch(undefined, [localA, localB], prompts, groupNetworks([localA, localB]));
      assert.match(placeHolder, /CometBFT only\)\. No provider of Local net publishes an EVM WebSocket address: add "evmWs"/);
    });

    it('the family pick of a provider without "evmWs": whether its network has one elsewhere; picking EVM says why', async () => {
      const family = async (p: Provider) => {
        let evmItem: PickItem | undefined;
        const { prompts } = scripted([(items) => (evmItem = items[1])], []);
        const error = await chooseWatch({ provider: p.name }, all, prompts, networks).catch((e: Error) => e.message);
        return { description: String(evmItem?.description), error: String(error) };
      };
      const local = await family(localA);
      assert.match(local.description, /unavailable: no provider of Local net publishes an EVM WebSocket address/);
      assert.match(local.error, /No provider of Local net publishes an EVM WebSocket address: add "evmWs"/);
      const test = await family(testA);
      assert.match(test.description, /unavailable: T1 has no "evmWs" address \(T2 of the same network has one\)/);
      assert.match(test.error, /T1 has no EVM WebSocket address: add "evmWs"/);
    });
  });

  it('no provider with a WebSocket: one sentence saying what to add', async () => {
    await assert.rejects(chooseWatch(undefined, [http], scripted([], []).prompts), /add "consensusWs" \(CometBFT\) or "evmWs" \(EVM\)/);
  });
});

describe('events: the batched entry stream', () => {
  /** A stream of `capacity` entries (no byte bound) batched every `batchMs`, whose callbacks do nothing. */
  const entryStream = (capacity: number, batchMs: number) =>
    new EntryStream(
      capacity,
      Number.POSITIVE_INFINITY,
      batchMs,
      () => undefined,
      () => undefined,
    );

  it('while paused the buffer keeps filling; resume says how many left it unseen, then delivers the rest in order', async () => {
    const stream = entryStream(100, 10);
    const got: Array<{ seq: number; kind: string; summary: string }> = [];
    stream.listen((b) => got.push(...b));
    stream.pause();
    for (let i = 1; i <= 300; i++) stream.push('event', { summary: String(i) }, 1);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(got.length, 0);
    stream.resume();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(got.length, 101);
    assert.equal(got[0].kind, 'note');
    assert.match(got[0].summary, /^200 entries left the buffer before they could be shown$/);
    assert.deepEqual(
      got.slice(1).map((e) => e.summary),
      Array.from({ length: 100 }, (_, i) => String(201 + i)),
    );
    assert.equal(stream.received, 300);
    assert.ok(stream.ratePerSecond() > 0);
    stream.dispose();
  });

  it('a buffer raised to 200,000 and resumed delivers all of them in one batch (a spread of them threw)', async () => {
    const stream = entryStream(200_000, 10);
    let got = 0;
    const errors: string[] = [];
    stream.listen((b) => (got += b.length));
    stream.pause();
    for (let i = 1; i <= 200_000; i++) stream.push('event', { summary: '' }, 1);
    stream.resume();
    await new Promise((r) => setTimeout(r, 100));
    stream.dispose();
    assert.deepEqual(errors, []);
    assert.equal(got, 200_000);
  });

  it('batches come at most once per batchMs', async () => {
    const stream = entryStream(10_000, 100);
    const at: number[] = [];
    stream.listen(() => at.push(performance.now()));
    // Event-loop stalls (GC, other processes on 2 cores) delay the batch timer: a late batch is
    // allowed the worst stall seen around it, as the HTTP battery allows a late deadline.
    const stalls = new StallMeter();
    stalls.start();
    const t0 = performance.now();
    while (performance.now() - t0 < 450) {
      stream.push('event', { summary: '' }, 1);
      await new Promise((r) => setTimeout(r, 5));
    }
    const t1 = performance.now();
    stream.dispose();
    stalls.stop();
    // At most once per batchMs: a stall only delays a batch, it never brings the next one closer.
    assert.ok(at.length >= 1 && at.length <= 5, `${at.length} batches in ${Math.round(t1 - t0)} ms`);
    for (let i = 1; i < at.length; i++) assert.ok(at[i] - at[i - 1] >= 95, `batches ${Math.round(at[i] - at[i - 1])} ms apart`);
    // At least once per batchMs while events come, but for the stalls: no wait longer than 100 ms
    // plus the worst stall around it plus 60 ms of timer slack.
    const marks = [t0, ...at];
    for (let i = 1; i < marks.length; i++) {
      const late = marks[i] - marks[i - 1] - 100 - stalls.worst(marks[i - 1], marks[i]);
      assert.ok(late <= 60, `a batch ${Math.round(late)} ms later than 100 ms plus the stalls after the one before`);
    }
    const tail = t1 - at.at(-1)! - 100 - stalls.worst(at.at(-1)!, t1);
    assert.ok(tail <= 60, `no batch for the last ${Math.round(t1 - at.at(-1)!)} ms of events`);
  });
});
