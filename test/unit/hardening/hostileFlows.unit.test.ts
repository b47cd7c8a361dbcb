// The explorer's whole flows (Look Up of a block, a transaction of either kind, an account; the
// two-layer receipt) on answers that are valid JSON with one field changed: the k-th answer a lookup
// reads has one of its values replaced (markup, a 200,000-character text or number, a negative, null,
// another type, a key removed, a list of 20,000, a deep nest, the whole answer null or text). Recorded
// evmd answers (fakeSource, receiptSource), in memory; seeded (HARDENING_SEED replays a run).
//
// Each case must settle within its deadline, and never as a JavaScript error: a rejection is a
// sentence (not a TypeError, RangeError…), a result renders, and neither its notes nor its document
// carry an engine's error text ("Cannot read properties of undefined"), which is a person reading
// a bug, not a node's fault; the document has the server's markup only inside code spans. No
// unhandled rejection during the run.

import * as assert from 'node:assert/strict';
import { errorMessage } from '../../../src/core/base/errors';
import { ContractRegistry } from '../../../src/core/contracts/registry';
import { type EngineSupport } from '../../../src/core/contracts/engines';
import { type SimulationSpec, evmCaller, simulate } from '../../../src/core/contracts/simulate';
import type { EvmCall } from '../../../src/core/contracts/trace';
import { renderSimulation } from '../../../src/core/explorer/renderSimulation';
import { HttpClient } from '../../../src/core/transport/http';
import { type Devnet, startDevnet } from '../../devnet/devnet';
import { ALL_ENGINES } from '../../devnet/evm';
import { TOKEN_ABI } from '../../devnet/fixtureContracts';
import type { FixtureDeployment } from '../../devnet/fixtureTxs';
import { forgetContext } from '../../../src/core/explorer/context';
import { lookUp } from '../../../src/core/explorer/lookup';
import { renderLookup } from '../../../src/core/explorer/render';
import type { ExplorerSource } from '../../../src/core/explorer/source';
import { fakeSource } from '../core/explorer/lookup.unit.test';
import { receiptFixture, receiptSource } from '../core/explorer/receipt/receiptSource';
import { seededRandom } from '../helpers/seededRandom';

const SEED = Number(process.env.HARDENING_SEED ?? Date.now() % 1_000_000);
const CASES_PER_FLOW = Number(process.env.HOSTILE_FLOW_CASES ?? 60);
const DEADLINE_MS = 20_000;

type Json = Record<string, any>;

/** What an engine says when the code read a field that was not there, or of another type. */
const ENGINE_ERROR =
  /Cannot read propert|Cannot set propert|is not a function|is not iterable|is not defined|Cannot convert|Invalid array length|Maximum call stack|Invalid string length|undefined \(reading|null \(reading|Cannot destructure|Cannot create property|toString is not|\.map is not/;
const MARKUP = '<img src=x onerror=alert(1)>](command:workbench.action.terminal.new)\u202e\n# heading';

type Mutation = (r: () => number, value: unknown) => unknown;

const MUTATIONS: Record<string, Mutation> = {
  markup: () => MARKUP,
  longText: () => 'x'.repeat(200_000),
  longNumber: () => '9'.repeat(200_000),
  negative: () => '-1',
  nul: () => null,
  object: () => ({}),
  list: () => [],
  bigJsonNumber: () => 1e308,
  boolean: () => true,
  manyCopies: (_r, v) => Array.from({ length: 20_000 }, () => v),
  deep: () => JSON.parse(`${'['.repeat(5_000)}1${']'.repeat(5_000)}`),
  remove: () => REMOVE,
};
const REMOVE = Symbol('remove');

/** Every node of an answer (depth first, at most 20,000), as [parent, key]; the root as [undefined, undefined]. */
function nodesOf(root: unknown): Array<[Json | undefined, string | number | undefined]> {
  const out: Array<[Json | undefined, string | number | undefined]> = [[undefined, undefined]];
  const stack: unknown[] = [root];
  while (stack.length > 0 && out.length < 20_000) {
    const v = stack.pop();
    if (!v || typeof v !== 'object') continue;
    for (const [k, c] of Object.entries(v as Json)) {
      out.push([v as Json, Array.isArray(v) ? Number(k) : k]);
      stack.push(c);
    }
  }
  return out;
}

/** The answer with one node changed (a clone: the fixtures are shared). */
function mutated(r: () => number, answer: unknown, kind: string): { value: unknown; where: string } {
  const root = answer === undefined ? undefined : structuredClone(answer);
  const nodes = nodesOf(root);
  const [parent, key] = nodes[Math.floor(r() * nodes.length)];
  const current = parent === undefined ? root : parent[key as string];
  const next = MUTATIONS[kind](r, current);
  if (parent === undefined) return { value: next === REMOVE ? undefined : next, where: '(the whole answer)' };
  if (next === REMOVE) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else parent[key as string] = next;
  return { value: root, where: String(key) };
}

/** `src` with the `at`-th answer (counting REST, CometBFT and EVM calls together) changed by `kind`. */
function hostile(src: ExplorerSource, at: number, kind: string, r: () => number): ExplorerSource & { calls: number; changed?: string } {
  const out: ExplorerSource & { calls: number; changed?: string } = {
    ...src,
    calls: 0,
    rest: (path, height) => wrap(() => src.rest(path, height), `rest ${path}`),
    comet: (call) => wrap(() => src.comet(call), `comet ${call.method}`),
    evm: (method, params) => wrap(() => src.evm(method, params), `evm ${method}`),
  };
  async function wrap(call: () => Promise<unknown>, what: string): Promise<unknown> {
    const n = out.calls++;
    const answer = await call();
    if (n !== at) return answer;
    const m = mutated(r, answer, kind);
    out.changed = `${what} at ${m.where}`;
    return m.value;
  }
  return out;
}

/** The stack's first frames in the extension's own code (an overflow's top is the engine's recursion). */
function ownFrames(err: unknown): string {
  return String((err as Error).stack)
    .split('\n')
    .filter((l) => /[\\/]src[\\/]/.test(l))
    .slice(0, 4)
    .join('\n');
}

/** What is wrong with a document: an engine's error in it, or the server's markup outside a code span. */
function documentFaults(label: string, text: string): string[] {
  const faults: string[] = [];
  const m = ENGINE_ERROR.exec(text);
  if (m) faults.push(`${label}: the document says ${JSON.stringify(text.slice(Math.max(0, m.index - 100), m.index + 200))}`);
  // Server text is plain words or inside a code span: outside the spans, no tag and no link of its own.
  const outside = text.replace(/(`+)[^]*?\1/g, '');
  const markup = /<img|\]\(command:/.exec(outside);
  if (markup) faults.push(`${label}: markup outside a code span: ${JSON.stringify(outside.slice(Math.max(0, markup.index - 100), markup.index + 100))}`);
  return faults;
}

/** What is wrong with a rejection: a JavaScript error (a bug, not a node's fault), or a sentence nobody can read. */
function rejectionFaults(label: string, err: unknown): string[] {
  const js = err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError || err instanceof SyntaxError;
  if (js || ENGINE_ERROR.test(errorMessage(err)))
    return [`${label}: rejected with ${(err as Error).name}: ${errorMessage(err).slice(0, 300)}\n${ownFrames(err)}`];
  if (errorMessage(err).length > 5_000) return [`${label}: a sentence of ${errorMessage(err).length} characters`];
  return [];
}

interface Flow {
  readonly name: string;
  readonly source: () => ExplorerSource;
  readonly query: string;
  readonly receipt?: boolean;
}

const BANK = '05DD664CA50845EF5652766A971FE81C10BCB76F601DCE52CF56C23B775E8EB1';
const ETH_COSMOS = '5BD19B2385E7D682AAB45A7210E8C52CFD09A409D1DF58E4159A1A1C9ED39E1C';
const ETH = '0xb1095b1c91b8b316069293d6ecb98b262306416902b888bda4f4ab44d1250163';
const VALIDATOR = 'cosmos10jmp6sgh4cc6zt3e8gw05wavvejgr5pwsjskvv';

const FLOWS: Flow[] = [
  { name: 'a block', source: () => fakeSource(), query: '4' },
  { name: 'a bank send', source: () => fakeSource(), query: BANK },
  { name: 'an Ethereum transaction by its Cosmos hash', source: () => fakeSource(), query: ETH_COSMOS },
  { name: 'an Ethereum transaction by its hash', source: () => fakeSource(), query: ETH },
  { name: 'an account', source: () => fakeSource(), query: VALIDATOR },
  ...['delegate', 'contract-delegate', 'erc20-transfer', 'bank-send', 'undelegate'].map((name) => {
    const fx = receiptFixture(name);
    // The receipt with the contracts registry (built-in ABIs and the precompiles): the call tree decoded too.
    const source = (): ExplorerSource => ({ ...receiptSource(fx), contracts: { registry: new ContractRegistry({ settings: () => [] }) } });
    return { name: `the receipt of ${name}`, source, query: (fx.evmHash ?? fx.cometHash) as string, receipt: true };
  }),
];

describe('hardening: whole explorer flows on answers with one field changed', function () {
  this.timeout(600_000);
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  before(() => {
    process.on('unhandledRejection', onUnhandled);
    console.log(`      seed ${SEED} (HARDENING_SEED=${SEED} replays it), ${CASES_PER_FLOW} cases per flow`);
  });
  after(() => process.off('unhandledRejection', onUnhandled));

  for (const flow of FLOWS) {
    it(`${flow.name}: settles as a result or a sentence, never as an engine's error`, async () => {
      forgetContext();
      // The answers this lookup reads when nothing is changed.
      const plain = hostile(flow.source(), -1, 'nul', () => 0);
      const clean = await lookUp(plain, flow.query, { receipt: flow.receipt });
      renderLookup(clean);
      assert.ok(plain.calls > 0);
      const r = seededRandom(SEED + flow.name.length * 7919);
      const kinds = Object.keys(MUTATIONS);
      const failures: string[] = [];
      for (let i = 0; i < CASES_PER_FLOW; i++) {
        forgetContext();
        const at = Math.floor(r() * plain.calls);
        const kind = kinds[Math.floor(r() * kinds.length)];
        const src = hostile(flow.source(), at, kind, r);
        const label = () => `case ${i} (answer ${at} of ${plain.calls}, ${kind}${src.changed ? `: ${src.changed}` : ''})`;
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), DEADLINE_MS)));
        try {
          const settled = await Promise.race([lookUp(src, flow.query, { receipt: flow.receipt }), deadline]);
          if (settled === 'deadline') {
            failures.push(`${label()}: still running after ${DEADLINE_MS} ms`);
            continue;
          }
          const engine = settled.notes.find((n) => ENGINE_ERROR.test(n));
          if (engine) failures.push(`${label()}: a note says ${JSON.stringify(engine.slice(0, 300))}`);
          failures.push(...documentFaults(label(), renderLookup(settled)));
        } catch (err) {
          failures.push(...rejectionFaults(label(), err));
        } finally {
          clearTimeout(timer);
        }
      }
      assert.deepEqual(failures, [], `seed ${SEED}:\n${failures.join('\n')}`);
      assert.deepEqual(unhandled.map(errorMessage), []);
    });
  }
});

describe('hardening: simulations on answers with one field changed (devnet engines)', function () {
  this.timeout(600_000);
  let devnet: Devnet;
  let http: HttpClient;
  let d: FixtureDeployment;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  before(async () => {
    process.on('unhandledRejection', onUnhandled);
    devnet = await startDevnet({ realTxs: true, blockIntervalMs: 0, providers: [{ name: 'anvil', capabilities: { engines: ALL_ENGINES } }] });
    devnet.produceBlock();
    d = devnet.chain.ledger.fixtureDeployment as FixtureDeployment;
    http = new HttpClient();
  });
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await http.close();
    await devnet.stop();
  });

  const registry = () => new ContractRegistry({ settings: () => [{ address: d.token, abi: TOKEN_ABI, name: 'FixtureToken' }] });
  const evmOf = () => {
    const p = devnet.providers[0];
    return evmCaller({ name: p.name, endpoints: { evmRpc: p.evmRpc } }, { http, timeoutMs: 10_000, maxBufferBytes: 16 * 1024 * 1024 });
  };
  const bob = () => devnet.chain.ledger.keys[1].hex;
  const cases: Array<{ name: string; support: EngineSupport; spec: () => SimulationSpec }> = [
    {
      name: 'a transfer on eth_simulateV1',
      support: { simulateV1: true, traceCall: true, callOverrides: true },
      spec: () => ({ address: d.token, function: 'transfer(address,uint256)', args: [bob(), '7'], from: d.deployer }),
    },
    {
      name: 'a transfer on debug_traceCall',
      support: { traceCall: true, callOverrides: true },
      spec: () => ({ address: d.token, function: 'transfer(address,uint256)', args: [bob(), '7'], from: d.deployer }),
    },
    {
      name: 'a revert on debug_traceCall',
      support: { traceCall: true },
      spec: () => ({ address: d.token, function: 'transfer(address,uint256)', args: [bob(), '5'], from: devnet.chain.ledger.keys[3].hex }),
    },
    { name: 'a balance on eth_call', support: {}, spec: () => ({ address: d.token, function: 'balanceOf(address)', args: [bob()] }) },
    {
      name: 'a bundle on eth_simulateV1',
      support: { simulateV1: true },
      spec: () => ({
        steps: [
          { address: d.token, function: 'approve(address,uint256)', args: [bob(), '9'], from: d.deployer },
          { address: d.token, function: 'transferFrom(address,address,uint256)', args: [d.deployer, bob(), '9'], from: bob() },
        ],
      }),
    },
  ];

  for (const c of cases) {
    it(`${c.name}: settles as a result or a sentence, never as an engine's error`, async () => {
      let calls = 0;
      const counting: EvmCall = (m, p) => {
        calls++;
        return evmOf()(m, p);
      };
      const clean = await simulate(counting, c.spec(), registry(), { network: 'devnet' }, { provider: 'anvil', support: c.support });
      renderSimulation(clean);
      assert.ok(calls > 0);
      const r = seededRandom(SEED + c.name.length * 104_729);
      const kinds = Object.keys(MUTATIONS);
      const failures: string[] = [];
      const outcomes = { results: 0, sentences: 0 };
      for (let i = 0; i < Math.ceil(CASES_PER_FLOW / 2); i++) {
        const at = Math.floor(r() * calls);
        const kind = kinds[Math.floor(r() * kinds.length)];
        let n = 0;
        let changed = '';
        const evm = evmOf();
        const hostileEvm: EvmCall = async (m, p) => {
          const answer = await evm(m, p);
          if (n++ !== at) return answer;
          const x = mutated(r, answer, kind);
          changed = `${m} at ${x.where}`;
          return x.value;
        };
        const label = () => `case ${i} (answer ${at} of ${calls}, ${kind}${changed ? `: ${changed}` : ''})`;
        try {
          const result = await simulate(hostileEvm, c.spec(), registry(), { network: 'devnet' }, { provider: 'anvil', support: c.support });
          outcomes.results++;
          failures.push(...documentFaults(label(), renderSimulation(result)));
        } catch (err) {
          outcomes.sentences++;
          failures.push(...rejectionFaults(label(), err));
        }
      }
      console.log(`      ${calls} answers; ${outcomes.results} results, ${outcomes.sentences} sentences`);
      assert.deepEqual(failures, [], `seed ${SEED}:\n${failures.join('\n')}`);
      assert.deepEqual(unhandled.map(errorMessage), []);
    });
  }
});
