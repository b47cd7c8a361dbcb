// The fast paths of decoding (issue 36's figures): static words read without viem's cursor, and a
// trace decoded with the registry asked once per (to, selector). Each is compared with the slow
// path it replaces, on varied and malformed input: the same values, the same refusals.

import * as assert from 'node:assert/strict';
import { type AbiFunction, type AbiParameter, type Hex, encodeAbiParameters, encodeErrorResult, encodeFunctionData, getAddress, parseAbi } from 'viem';
import { coerceArg, encodeCall, quantity } from '../../../../src/core/chain/abiCall';
import { decodeParams, decodeParamsSlow } from '../../../../src/core/contracts/decode';
import { ContractRegistry, type ResolveContext } from '../../../../src/core/contracts/registry';
import { type TraceFrame, type TraceView, TRACE_PAGE, decodeTrace, flattenTrace } from '../../../../src/core/contracts/trace';
import type { Decoded, DecodedArg } from '../../../../src/core/contracts/types';
import { decodeOutputs } from '../../../../src/core/contracts/decode';
import { argsOf } from '../../../../src/core/contracts/values';
import { ALICE, BANK, BOB, ROUTER, TOKEN, TOKEN_ABI } from './fixtures';
import { setup } from './contracts.unit.test';

/** A small deterministic generator (the same cases every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const TYPES = ['address', 'bool', 'uint8', 'uint48', 'uint56', 'uint256', 'int8', 'int64', 'int256', 'int', 'uint', 'bytes1', 'bytes4', 'bytes20', 'bytes32'];

function outcome(f: () => unknown): { ok: true; v: unknown } | { ok: false } {
  try {
    return { ok: true, v: f() };
  } catch {
    return { ok: false };
  }
}

describe('contracts: fast decoding gives what the slow path gives', () => {
  it('static words (as arguments and as a return): the values viem reads, and a refusal wherever viem refuses (3,000 varied and malformed cases)', () => {
    const r = rng(36);
    const word = (): string => {
      const kind = Math.floor(r() * 6);
      if (kind === 0) return '0'.repeat(63) + (r() < 0.5 ? '0' : '1'); // a bool
      if (kind === 1) return '0'.repeat(24) + Array.from({ length: 40 }, () => 'abcdefABCDEF0123456789'[Math.floor(r() * 22)]).join(''); // an address, mixed case
      if (kind === 2) return 'f'.repeat(56) + Array.from({ length: 8 }, () => '0123456789abcdef'[Math.floor(r() * 16)]).join(''); // a small negative
      if (kind === 3) return '0'.repeat(50) + Array.from({ length: 14 }, () => '0123456789abcdef'[Math.floor(r() * 16)]).join(''); // past 2^53 sometimes
      return Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(r() * 16)]).join('');
    };
    let compared = 0;
    let refused = 0;
    for (let i = 0; i < 3000; i++) {
      const n = 1 + Math.floor(r() * 4);
      const params: AbiParameter[] = Array.from({ length: n }, (_, k) => ({ name: `p${k}`, type: TYPES[Math.floor(r() * TYPES.length)] }));
      let data = `0x${Array.from({ length: n + (r() < 0.3 ? 1 : 0) }, word).join('')}`;
      const damage = r();
      if (damage < 0.08)
        data = data.slice(0, data.length - 2 * (1 + Math.floor(r() * 40))); // cut short
      else if (damage < 0.12)
        data = `${data}0`; // odd length
      else if (damage < 0.15)
        data = `${data.slice(0, 10)}zz${data.slice(12)}`; // not hex
      else if (damage < 0.17) data = '0x';
      const fast = outcome(() => decodeParams(params, data as Hex));
      const slow = outcome(() => decodeParamsSlow(params, data as Hex));
      assert.equal(
        fast.ok,
        slow.ok,
        `${params.map((p) => p.type).join(',')} on ${data}: fast ${fast.ok ? 'decodes' : 'refuses'}, viem ${slow.ok ? 'decodes' : 'refuses'}`,
      );
      if (fast.ok && slow.ok) assert.deepStrictEqual(fast.v, slow.v, `${params.map((p) => p.type).join(',')} on ${data}`);
      // A call's return read the same way (its own fast path, straight to JSON): viem's values as argsOf() makes them.
      const fn = { type: 'function', name: 'f', inputs: [], outputs: params, stateMutability: 'view' } as unknown as AbiFunction;
      const outputs = outcome(() => decodeOutputs(fn, data));
      assert.equal(outputs.ok, slow.ok, `decodeOutputs ${params.map((p) => p.type).join(',')} on ${data}`);
      if (outputs.ok && slow.ok) assert.deepStrictEqual(outputs.v, argsOf(params, slow.v), `decodeOutputs ${params.map((p) => p.type).join(',')} on ${data}`);
      compared++;
      if (!slow.ok) refused++;
    }
    assert.equal(compared, 3000);
    assert.ok(refused > 200, `the malformed cases were refused (${refused})`);
  });

  it('types the fast path does not read (strings, dynamic bytes, arrays, tuples) go to viem unchanged', () => {
    const params = [
      { name: 'a', type: 'string' },
      { name: 'b', type: 'uint256[]' },
      {
        name: 'c',
        type: 'tuple',
        components: [
          { name: 'x', type: 'address' },
          { name: 'y', type: 'bytes' },
        ],
      },
    ] as const;
    const data = encodeAbiParameters(params, ['hé', [1n, 2n], { x: BOB, y: '0x1234' }]);
    assert.deepStrictEqual(decodeParams(params, data), decodeParamsSlow(params, data));
  });

  it('calldata of static words (address, bool, intN/uintN, with extremes) is the bytes viem encodes; other types go to viem (2,000 varied calls)', () => {
    const r = rng(63);
    const types = ['address', 'bool', 'uint8', 'uint32', 'uint56', 'uint256', 'uint', 'int8', 'int64', 'int256', 'int', 'bytes4', 'string'];
    const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(r() * 16)]).join('');
    const valueFor = (type: string): string => {
      if (type === 'address') {
        const a = `0x${hex(40)}`;
        return r() < 0.5 ? a : getAddress(a);
      }
      if (type === 'bool') return r() < 0.5 ? 'true' : 'FALSE';
      if (type === 'bytes4') return `0x${hex(8)}`;
      if (type === 'string') return 'hé, "quoted"';
      const bits = BigInt(/\d+/.exec(type)?.[0] ?? '256');
      const signed = type.startsWith('int');
      const [min, max] = signed ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
      const pick = r();
      const v =
        pick < 0.15 ? min : pick < 0.3 ? max : pick < 0.4 ? 0n : min + ((BigInt(`0x${hex(64)}`) % (max - min + 1n)) >> BigInt(Math.floor(r() * Number(bits))));
      return r() < 0.3 && v >= 0n ? `0x${v.toString(16)}` : v.toString();
    };
    for (let n = 0; n < 2000; n++) {
      const inputs = Array.from({ length: 1 + Math.floor(r() * 4) }, (_, i) => ({ name: `p${i}`, type: types[Math.floor(r() * types.length)] }));
      const fn = { type: 'function', name: 'f', inputs, outputs: [], stateMutability: 'view' } as AbiFunction;
      const args = inputs.map((p) => valueFor(p.type));
      const expected = encodeFunctionData({ abi: [fn], functionName: 'f', args: inputs.map((p, i) => coerceArg(p, args[i])) } as never);
      assert.equal(encodeCall(fn, args), expected, `${inputs.map((p) => p.type).join(',')}: ${args.join(', ')}`);
    }
  });

  it('the last calldata is reused only for the same function and the same scalar arguments; lists and objects are never remembered', () => {
    const [transfer, balanceOf] = parseAbi([
      'function transfer(address to, uint256 amount) returns (bool)',
      'function balanceOf(address) view returns (uint256)',
    ]);
    const viemOf = (fn: AbiFunction, args: unknown[]) => encodeFunctionData({ abi: [fn], functionName: fn.name, args } as never);
    const args: unknown[] = [BOB, '7'];
    assert.equal(encodeCall(transfer, args), viemOf(transfer, [getAddress(BOB), 7n]));
    // The caller's list changed in place after the call: the next call reads the new values.
    args[1] = '8';
    assert.equal(encodeCall(transfer, args), viemOf(transfer, [getAddress(BOB), 8n]));
    assert.equal(encodeCall(transfer, [BOB, 8]), viemOf(transfer, [getAddress(BOB), 8n]), 'a number where a string was: encoded, not taken for the string');
    assert.equal(encodeCall(balanceOf, [BOB]), viemOf(balanceOf, [getAddress(BOB)]), 'another function');
    assert.throws(() => encodeCall(transfer, [BOB]), /takes 2 argument\(s\); 1 given/, 'a wrong count is refused, never answered from memory');
    assert.throws(() => encodeCall(transfer, [BOB, '-1']), /out of range/);
    assert.throws(() => encodeCall(transfer, [BOB, '-1']), /out of range/, 'a refused call is refused again');
    // A list argument: encoded each time from its current contents.
    const [batch] = parseAbi(['function batch(uint256[] amounts)']);
    const list = ['1', '2'];
    assert.equal(encodeCall(batch, [list]), viemOf(batch, [[1n, 2n]]));
    list.push('3');
    assert.equal(encodeCall(batch, [list]), viemOf(batch, [[1n, 2n, 3n]]));
  });

  it('quantities (value, gas, nonce, overrides): decimal or 0x hex within a uint256; 78 digits past 2^256 - 1 refused', () => {
    const max = (1n << 256n) - 1n;
    assert.equal(quantity(undefined, 'value'), undefined);
    assert.equal(quantity('', 'value'), undefined);
    assert.equal(quantity('21000', 'gas'), '0x5208');
    assert.equal(quantity('0x0005208', 'gas'), '0x5208');
    assert.equal(quantity(max.toString(), 'value'), `0x${'f'.repeat(64)}`);
    assert.equal(quantity(`0x${'F'.repeat(64)}`, 'value'), `0x${'f'.repeat(64)}`);
    assert.throws(() => quantity((max + 1n).toString(), 'value'), /^Error: value: out of range \(at most 2\^256 - 1\)\.$/);
    assert.throws(() => quantity('9'.repeat(78), 'steps[1].value'), /^Error: steps\[1\]\.value: out of range/);
    assert.throws(() => quantity('9'.repeat(79), 'value'), /^Error: value: an integer \(decimal or 0x hex\)\.$/);
    assert.throws(() => quantity(`0x${'1'.repeat(65)}`, 'value'), /an integer/);
    assert.throws(() => quantity('-1', 'value'), /an integer/);
    assert.throws(() => quantity('1.5', 'gas'), /an integer/);
  });

  it('an argument that does not fit its type is refused with the parameter named, the type said', () => {
    const refused = (p: AbiParameter, v: unknown, why: RegExp) => assert.throws(() => coerceArg(p, v), why);
    refused({ name: 'to', type: 'address' }, '0x1234', /^Error: to \(address\): an address, 0x and 40 hex digits\.$/);
    refused({ name: 'to', type: 'address' }, `0x${'aB'.repeat(20)}`, /^Error: to \(address\): the checksum \(mixed case\) is wrong\.$/);
    refused({ name: 'to', type: 'address' }, undefined, /^Error: to \(address\): a value is needed\.$/);
    refused({ name: 'ok', type: 'bool' }, 'yes', /^Error: ok \(bool\): true or false\.$/);
    refused({ type: 'bool' }, {}, /^Error: bool: a value is needed\.$/);
    refused({ name: 'n', type: 'uint8' }, '256', /^Error: n \(uint8\): out of range \(0 to 255\)\.$/);
    refused({ name: 'xs', type: 'address[2]' }, [BOB], /^Error: xs \(address\[2\]\): exactly 2 items\.$/);
    refused({ name: 'xs', type: 'address[]' }, ['0x12'], /^Error: xs \(address\): an address, 0x and 40 hex digits\.$/);
    assert.equal(coerceArg({ name: 'to', type: 'address' }, `  ${BOB.toUpperCase().replace('0X', '0x')} `), getAddress(BOB));
    assert.equal(coerceArg({ name: 'ok', type: 'bool' }, 'TRUE'), true);
    assert.equal(coerceArg({ name: 'ok', type: 'bool' }, false), false);
    assert.deepEqual(coerceArg({ name: 'xs', type: 'address[]' }, JSON.stringify([BOB])), [getAddress(BOB)]);
  });
});

// ---- the trace: the old algorithm (every frame asks the registry) kept here as the reference ----

async function decodeTraceSlow(root: Record<string, unknown>, registry: ContractRegistry, ctx: ResolveContext, page = 1): Promise<TraceView> {
  const { frames, total, depthCut } = flattenTrace(root);
  const pages = Math.max(1, Math.ceil(frames.length / TRACE_PAGE));
  const p = Math.min(Math.max(1, page), pages);
  const first = (p - 1) * TRACE_PAGE;
  const out: TraceFrame[] = frames.slice();
  const nameOf = async (a: string | undefined) =>
    !a || a === '?' ? undefined : ((await registry.contractAt(a, ctx))?.name ?? registry.nameOf(a, ctx.network)?.name);
  for (let i = first; i < Math.min(frames.length, first + TRACE_PAGE); i++) {
    const f = frames[i];
    const creation = /^CREATE/.test(f.type);
    const found = creation ? undefined : await registry.functionFor(f.input, f.to, ctx);
    let outputs: DecodedArg[] | undefined;
    let revert: Decoded | undefined;
    if (f.error) {
      if (f.output && f.output !== '0x') revert = await registry.decodeRevert(f.output, f.to, ctx);
    } else if (found && f.output) {
      try {
        outputs = decodeOutputs(found.fn, f.output);
      } catch {
        outputs = undefined;
      }
    }
    const call = creation ? undefined : (found?.decoded ?? (f.input && f.input.length >= 10 ? await registry.decodeCall(f.input, f.to, ctx) : undefined));
    out[i] = { ...f, fromName: await nameOf(f.from), toName: await nameOf(f.to), call, outputs, revert };
  }
  return { frames: out, total, depthCut, page: p, pages, configAs: 'object' };
}

const OTHER_ABI = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function decimals() view returns (uint8)',
  'function delta() view returns (int256)',
  'function name() view returns (string)',
  'function flags(bytes4 id) view returns (bool, bytes32, int8)',
  'error Shortfall(uint256 need, uint256 have)',
]);
const OTHER = '0x3333333333333333333333333333333333333333';

/** A trace that goes through every branch: known and unknown selectors, short inputs, creations, reverts of each kind, bad outputs, precompiles, odd hex. */
function variedTrace(): Record<string, unknown> {
  const r = rng(7);
  const t = (to: string, input: string, output: string | undefined, extra: Record<string, unknown> = {}) => ({
    type: r() < 0.3 ? 'STATICCALL' : 'CALL',
    from: [ALICE, ROUTER, TOKEN, OTHER][Math.floor(r() * 4)],
    to,
    gas: '0x2dc6c0',
    gasUsed: `0x${Math.floor(r() * 50000).toString(16)}`,
    value: r() < 0.1 ? '0x10' : '0x0',
    input,
    ...(output !== undefined ? { output } : {}),
    ...extra,
  });
  const enc = (abi: readonly unknown[], functionName: string, args: readonly unknown[] = []) =>
    encodeFunctionData({ abi: abi as never, functionName, args } as never);
  const frames: Array<Record<string, unknown>> = [];
  for (let i = 0; i < 240; i++) {
    const k = i % 16;
    const amount = BigInt(Math.floor(r() * 1e9)) * 10n ** BigInt(Math.floor(r() * 20));
    if (k === 0) frames.push(t(TOKEN, enc(TOKEN_ABI, 'transfer', [BOB, amount]), encodeAbiParameters([{ type: 'bool' }], [r() < 0.5])));
    else if (k === 1) frames.push(t(TOKEN, enc(TOKEN_ABI, 'balanceOf', [BOB]), encodeAbiParameters([{ type: 'uint256' }], [amount])));
    else if (k === 2)
      frames.push(t(OTHER, enc(OTHER_ABI, 'approve', [ROUTER, amount]), `0x${'0'.repeat(62)}07`)); // a bool output that is not 0 or 1
    else if (k === 3) frames.push(t(OTHER, enc(OTHER_ABI, 'decimals'), encodeAbiParameters([{ type: 'uint8' }], [18])));
    else if (k === 4) frames.push(t(OTHER, enc(OTHER_ABI, 'delta'), encodeAbiParameters([{ type: 'int256' }], [-amount])));
    else if (k === 5) frames.push(t(OTHER, enc(OTHER_ABI, 'name'), encodeAbiParameters([{ type: 'string' }], ['Token'])));
    else if (k === 6)
      frames.push(
        t(
          OTHER,
          enc(OTHER_ABI, 'flags', ['0xdeadbeef']),
          encodeAbiParameters(parseAbi(['function f() returns (bool, bytes32, int8)'])[0].outputs, [true, `0x${'ab'.repeat(32)}`, -3]),
        ),
      );
    else if (k === 7)
      frames.push(t(OTHER, '0x12345678', '0x')); // a selector nobody knows
    else if (k === 8)
      frames.push(t(OTHER, '0x1234', '0x')); // shorter than a selector
    else if (k === 9)
      frames.push(t(BANK, enc(TOKEN_ABI, 'balanceOf', [ALICE]).toUpperCase().replace('0X', '0x'), '0x')); // upper-case hex; a precompile
    else if (k === 10)
      frames.push(
        t(OTHER, enc(OTHER_ABI, 'transfer', [BOB, amount]), encodeErrorResult({ abi: OTHER_ABI, errorName: 'Shortfall', args: [amount, 1n] }), {
          error: 'execution reverted',
        }),
      );
    else if (k === 11)
      frames.push(
        t(OTHER, enc(OTHER_ABI, 'transfer', [BOB, amount]), encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['no'] }), {
          error: 'execution reverted',
        }),
      );
    else if (k === 12)
      frames.push(t(OTHER, enc(OTHER_ABI, 'transfer', [BOB, amount]).slice(0, 60), encodeAbiParameters([{ type: 'bool' }], [true]))); // input cut short
    else if (k === 13)
      frames.push({ type: 'CREATE', from: ALICE, to: OTHER, input: '0x60806040526004361061001e575f3560e01c', output: '0x6080', gasUsed: '0x1' });
    else if (k === 14)
      frames.push(t(TOKEN, `${enc(TOKEN_ABI, 'transfer', [BOB, amount])}0`, '0x01')); // odd-length input
    else frames.push({ type: 'CALL', from: ROUTER, input: enc(TOKEN_ABI, 'transfer', [BOB, 1n]), error: 'out of gas', output: '0x4e487b71' }); // no `to`; revert data cut
  }
  // Nested: groups of frames under the router.
  const groups = [];
  for (let g = 0; g < frames.length; g += 20)
    groups.push({ ...t(ROUTER, enc(TOKEN_ABI, 'owner'), encodeAbiParameters([{ type: 'address' }], [BOB])), calls: frames.slice(g, g + 20) });
  return { ...t(ROUTER, enc(TOKEN_ABI, 'transfer', [BOB, 5n]), encodeAbiParameters([{ type: 'bool' }], [true])), calls: groups };
}

describe('contracts: a trace decoded once per (to, selector) is the trace decoded frame by frame', () => {
  it('the same frames, names, calls, outputs and reverts, and the same notes, on a varied 250-frame trace', async () => {
    const trace = variedTrace();
    const a = setup();
    const b = setup();
    const settings = () => [{ address: OTHER, abi: OTHER_ABI, name: 'Other' }];
    const fastRegistry = new ContractRegistry({ artifacts: a.index, readFile: async () => new Uint8Array(), settings });
    const slowRegistry = new ContractRegistry({ artifacts: b.index, readFile: async () => new Uint8Array(), settings });
    const fast = await decodeTrace(structuredClone(trace), 'object', fastRegistry, a.ctx);
    const slow = await decodeTraceSlow(structuredClone(trace), slowRegistry, b.ctx);
    assert.ok(fast.frames.length > 250);
    // Compared as data (JSON) and property by property (no key lost or added, undefined included).
    assert.equal(JSON.stringify(fast), JSON.stringify(slow));
    assert.deepStrictEqual(fast, slow);
    assert.deepStrictEqual(a.notes, b.notes);
    // The trace really went through the branches it is meant to.
    const calls = fast.frames.map((f) => f.call);
    assert.ok(calls.some((c) => c?.kind === 'unknown' && c.note === 'no known ABI has this selector'));
    assert.ok(fast.frames.some((f) => f.revert?.name === 'Shortfall'));
    assert.ok(fast.frames.some((f) => f.revert?.signature === 'Error(string)'));
    assert.ok(fast.frames.some((f) => f.call?.name === 'decimals' && f.outputs?.[0].value === 18));
    assert.ok(
      fast.frames.some((f) => f.call?.name === 'approve' && f.outputs === undefined),
      'a bool output that is not 0 or 1 decodes as nothing',
    );
    assert.ok(fast.frames.some((f) => f.toName === 'bank'));
  });

  it('the same on a second page (frames outside the page left undecoded in both)', async () => {
    const wide = {
      type: 'CALL',
      from: ALICE,
      to: ROUTER,
      calls: Array.from({ length: 2500 }, (_, i) => ({
        type: 'CALL',
        from: ROUTER,
        to: i % 2 ? TOKEN : OTHER,
        input: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [BOB] }),
        output: encodeAbiParameters([{ type: 'uint256' }], [BigInt(i)]),
      })),
    };
    const registry = () => new ContractRegistry({ settings: () => [{ address: TOKEN, abi: TOKEN_ABI as never, name: 'Token' }] });
    const fast = await decodeTrace(structuredClone(wide), 'object', registry(), {}, 2);
    const slow = await decodeTraceSlow(structuredClone(wide), registry(), {}, 2);
    assert.deepStrictEqual(fast, slow);
    assert.equal(fast.frames[1500].outputs?.[0].value, '1499');
    assert.equal(fast.frames[10].call, undefined);
  });

  it('the same on runs of frames calling the same callee and selector (the entry of the frame before reused), in either case, with and without a callee', async () => {
    const r = rng(11);
    const input = (fn: 'transfer' | 'balanceOf' | 'approve') =>
      fn === 'approve'
        ? encodeFunctionData({ abi: OTHER_ABI, functionName: 'approve', args: [BOB, 3n] })
        : fn === 'transfer'
          ? encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [BOB, BigInt(Math.floor(r() * 1e6))] })
          : encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [ALICE as `0x${string}`] });
    const cased = (x: string) => {
      const k = r();
      return k < 0.3 ? `0x${x.slice(2).toUpperCase()}` : k < 0.5 ? `0x${x.slice(2, 6).toUpperCase()}${x.slice(6)}` : x;
    };
    const calls = Array.from({ length: 120 }, () => {
      const fn = (['transfer', 'transfer', 'balanceOf', 'approve'] as const)[Math.floor(r() * 4)];
      const to = [TOKEN, TOKEN.toUpperCase().replace('0X', '0x'), OTHER, undefined][Math.floor(r() * 4)];
      const run = 1 + Math.floor(r() * 4);
      return Array.from({ length: run }, () => ({
        type: 'CALL',
        from: ALICE,
        ...(to ? { to } : {}),
        input: cased(input(fn)),
        output: encodeAbiParameters([{ type: 'bool' }], [true]),
      }));
    }).flat();
    const root = { type: 'CALL', from: ALICE, to: ROUTER, input: '0x', calls } as Record<string, unknown>;
    const registry = () =>
      new ContractRegistry({
        settings: () => [
          { address: TOKEN, abi: TOKEN_ABI as never, name: 'Token' },
          { address: OTHER, abi: OTHER_ABI, name: 'Other' },
        ],
      });
    const fast = await decodeTrace(structuredClone(root), 'object', registry(), {});
    const slow = await decodeTraceSlow(structuredClone(root), registry(), {});
    assert.equal(JSON.stringify(fast), JSON.stringify(slow));
    assert.deepStrictEqual(fast, slow);
    assert.ok(fast.frames.filter((f) => f.call?.name === 'transfer').length > 50);
    assert.ok(fast.frames.some((f) => f.call?.name === 'approve' && f.to === undefined));
  });

  it('decodeOutputs of a function read by the fast path equals viem on a real ABI item', () => {
    const fn = TOKEN_ABI.find((x) => x.type === 'function' && x.name === 'balanceOf') as AbiFunction;
    const data = encodeAbiParameters([{ type: 'uint256' }], [2n ** 200n]);
    assert.deepStrictEqual(decodeOutputs(fn, data), [{ name: '', type: 'uint256', value: (2n ** 200n).toString() }]);
  });
});
