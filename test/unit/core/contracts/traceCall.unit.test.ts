import * as assert from 'node:assert/strict';
import os from 'node:os';
import { parseQueryFile } from '../../../../src/core/queries/parse';
import { runQueryFile } from '../../../../src/core/queries/run';
import { HttpClient } from '../../../../src/core/transport/http';
import { startServer } from '../../helpers/httpServer';
import { encodeAbiParameters, encodeErrorResult, encodeFunctionData } from 'viem';
import { EndpointError } from '../../../../src/core/base/errors';
import { findOperation } from '../../../../src/core/chain/operations';
import { readEvmNotification } from '../../../../src/core/events/entry';
import { hoverAt } from '../../../../src/core/explorer/links';
import { callContract, coerceArg, resolveFunction, splitArgs } from '../../../../src/core/contracts/call';
import { ContractRegistry } from '../../../../src/core/contracts/registry';
import { MAX_TRACE_FRAMES, decodeTrace, fetchCallTrace, flattenTrace } from '../../../../src/core/contracts/trace';
import { lookUp } from '../../../../src/core/explorer/lookup';
import { renderLookup } from '../../../../src/core/explorer/render';
import { Doc } from '../../../../src/core/explorer/mdDoc';
import { renderTrace } from '../../../../src/core/explorer/renderEvm';
import type { ExplorerSource } from '../../../../src/core/explorer/source';
import type { EvmView } from '../../../../src/core/explorer/views';
import { withDecoding } from '../../../../src/core/explorer/evmDecoding';
import { ALICE, BANK, BOB, ROUTER, TOKEN, TOKEN_ABI, evmdTrace } from './fixtures';
import { setup } from './contracts.unit.test';

describe('contracts: call traces', () => {
  it('asks with tracerConfig as a JSON string (evmd), and again as an object when refused (geth)', async () => {
    const sent: unknown[] = [];
    const evmd = await fetchCallTrace(async (_m, p) => (sent.push(p[1]), { type: 'CALL' }), '0xab');
    assert.equal(evmd.configAs, 'string');
    assert.equal(typeof (sent[0] as { tracerConfig: unknown }).tracerConfig, 'string');
    const geth = await fetchCallTrace(async (_m, p) => {
      if (typeof (p[1] as { tracerConfig: unknown }).tracerConfig === 'string')
        throw new EndpointError('rpc', 'json: cannot unmarshal string into Go value of type native.callTracerConfig', { code: -32602 });
      return { type: 'CALL' };
    }, '0xab');
    assert.equal(geth.configAs, 'object');
    await assert.rejects(
      fetchCallTrace(async () => Promise.reject(new EndpointError('rpc', 'the method debug_traceTransaction does not exist', { code: -32601 })), '0xab'),
      /does not exist/,
    );
  });

  it('every frame decoded: names of both ends, the function, its output, the precompile, gas', async () => {
    const s = setup();
    const t = await decodeTrace(evmdTrace(), 'string', s.registry, s.ctx);
    assert.equal(t.frames.length, 3);
    const [top, transfer, bank] = t.frames;
    assert.equal(top.toName, 'Router');
    assert.equal(top.call?.signature, 'send(address,address,uint256)');
    assert.deepEqual(
      top.outputs?.map((o) => o.value),
      ['750'],
    );
    assert.equal(transfer.depth, 1);
    assert.equal(transfer.fromName, 'Router');
    assert.equal(transfer.toName, 'Token');
    assert.deepEqual(
      transfer.outputs?.map((o) => o.value),
      [true],
    );
    assert.equal(bank.type, 'STATICCALL');
    assert.equal(bank.toName, 'bank');
    assert.equal(bank.call?.signature, 'balances(address)');
    assert.deepEqual(bank.outputs?.[0].value, [{ contractAddress: '0x1111111111111111111111111111111111111111', amount: '750' }]);
    assert.equal(bank.gasUsed, '3000');
  });

  it('a creation frame: its init code is not read as a selector', async () => {
    const t = await decodeTrace(
      { type: 'CREATE', from: ALICE, to: TOKEN, input: '0x60a0604052348015600e575f5ffd', gasUsed: '0x10' },
      'string',
      new ContractRegistry(),
      {},
    );
    const d = new Doc();
    renderTrace(d, '0xab', t, 3);
    const line = d.lines.find((l) => l.includes('**CREATE**')) ?? '';
    assert.match(line, /\*\*CREATE\*\* `0x[0-9a-fA-F]{40}` → `0x1111111111111111111111111111111111111111` creation \(init code 14 bytes\)/);
    assert.doesNotMatch(line, /selector/);
  });

  it('a failed frame: its revert decoded from the output; bounded in frames and paged', async () => {
    const s = setup();
    const t = await decodeTrace(evmdTrace(true), 'string', s.registry, s.ctx);
    assert.equal(t.frames[1].error, 'execution reverted');
    assert.equal(t.frames[1].revert?.signature, 'InsufficientBalance(uint256,uint256)');
    const wide = {
      type: 'CALL',
      from: ALICE,
      to: ROUTER,
      calls: Array.from({ length: 12_000 }, () => ({ type: 'STATICCALL', from: ROUTER, to: BANK, input: '0x' })),
    };
    const flat = flattenTrace(wide);
    assert.equal(flat.frames.length, MAX_TRACE_FRAMES);
    assert.equal(flat.total, 12_001);
    const page3 = await decodeTrace(wide, 'string', new ContractRegistry(), {}, 3);
    assert.equal(page3.pages, 10);
    assert.equal(page3.frames[2000].toName, 'bank');
    assert.equal(page3.frames[10].toName, undefined, 'frames outside the page are not decoded');
    let deep: Record<string, unknown> = { type: 'CALL', from: ALICE, to: ROUTER };
    for (let i = 0; i < 400; i++) deep = { type: 'CALL', from: ALICE, to: ROUTER, calls: [deep] };
    assert.equal(flattenTrace(deep).depthCut, true);
  });
});

describe('contracts: calling', () => {
  it('reads the function as a signature, cast form, full form, or a name/selector of the known ABI', async () => {
    assert.equal(resolveFunction('balanceOf(address)', undefined).outputs.length, 0);
    assert.equal(resolveFunction('balanceOf(address)(uint256)', undefined).outputs[0].type, 'uint256');
    assert.equal(resolveFunction('function info() view returns (string name, uint256 supply)', undefined).outputs.length, 2);
    const s = setup();
    const token = await s.registry.contractAt(TOKEN, s.ctx);
    assert.equal(resolveFunction('balanceOf', token).outputs[0].type, 'uint256');
    assert.equal(resolveFunction('balanceOf(address)', token).outputs.length, 1, 'the known ABI gives the outputs');
    assert.equal(resolveFunction('0x70a08231', token).name, 'balanceOf');
    assert.throws(() => resolveFunction('nope', token), /Token has no function named nope/);
    assert.throws(() => resolveFunction('balanceOf', undefined), /give the signature/);
    assert.throws(() => resolveFunction('balanceOf(addr', undefined), /not a function signature/);
  });

  it('checks each argument against its type, saying what to type', () => {
    const p = (type: string, name = 'x') => ({ type, name }) as never;
    assert.equal(coerceArg(p('uint8'), '255'), 255n);
    assert.throws(() => coerceArg(p('uint8'), '256'), /x \(uint8\): out of range \(0 to 255\)/);
    assert.throws(() => coerceArg(p('int8'), '-129'), /out of range/);
    assert.throws(() => coerceArg(p('address'), '0x12'), /an address/);
    assert.throws(() => coerceArg(p('address'), '0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAa'), /checksum/);
    assert.equal(coerceArg(p('bool'), 'TRUE'), true);
    assert.throws(() => coerceArg(p('bytes4'), '0x1234'), /exactly 8 hex digits/);
    assert.deepEqual(coerceArg(p('uint256[]'), '["1","0x2"]'), [1n, 2n]);
    assert.deepEqual(splitArgs('0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, [1,2], "a,b"'), ['0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', '[1,2]', 'a,b']);
  });

  it('eth_call at a block with overrides: outputs decoded (one value, or an object by name), the estimate beside it', async () => {
    const s = setup();
    const sent: Array<[string, readonly unknown[]]> = [];
    const evm = async (m: string, p: readonly unknown[]) => {
      sent.push([m, p]);
      if (m === 'eth_estimateGas') return '0x5208';
      const data = (p[0] as { data: string }).data;
      if (data.startsWith('0x70a08231')) return encodeAbiParameters([{ type: 'uint256' }], [750n]);
      return encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], ['Token', 1000n]);
    };
    const one = await callContract(
      evm,
      { address: TOKEN, function: 'balanceOf', args: [BOB], block: '5', overrides: { [BOB]: { balance: '0x1' } } },
      s.registry,
      s.ctx,
    );
    assert.equal(one.result, '750');
    assert.equal(one.contract, 'Token');
    assert.equal(one.gasEstimate, '21000');
    assert.deepEqual(sent[0][1].slice(1), ['0x5', { [BOB]: { balance: '0x1' } }]);
    const two = await callContract(evm, { address: TOKEN, function: 'info' }, s.registry, s.ctx);
    assert.deepEqual(two.result, { name: 'Token', supply: '1000' });
  });

  it('a revert: decoded when the node gives its data, said plainly when evmd gives none; never throws for the chain', async () => {
    const s = setup();
    const data = encodeErrorResult({ abi: TOKEN_ABI, errorName: 'InsufficientBalance', args: [1n, 2n] });
    const withData = await callContract(
      async () => Promise.reject(new EndpointError('rpc', 'execution reverted', { code: 3, data })),
      { address: TOKEN, function: 'transfer', args: [BOB, '2'] },
      s.registry,
      s.ctx,
    );
    assert.equal(withData.revert?.signature, 'InsufficientBalance(uint256,uint256)');
    assert.match(withData.gasError ?? '', /reverted/);
    const evmd = await callContract(
      async () => Promise.reject(new EndpointError('rpc', 'execution reverted', { code: 3, data: '' })),
      { address: TOKEN, function: 'transfer', args: [BOB, '2'] },
      s.registry,
      s.ctx,
    );
    assert.match(evmd.revert?.note ?? '', /no revert data/);
    await assert.rejects(
      callContract(async () => '0x', { address: TOKEN, function: 'transfer', args: [BOB] }, s.registry, s.ctx),
      /takes 2 argument\(s\); 1 given/,
    );
  });
});

describe('contracts: evm.callContract in the catalogue (query files, run())', () => {
  it('builds eth_call from a signature and its typed arguments; the result is the output decoded', () => {
    const op = findOperation('evm.callContract')!;
    const wire = op.build({ address: TOKEN, function: 'balanceOf(address)', args: BOB, block: '12' }) as { method: string; params: unknown[] };
    assert.equal(wire.method, 'eth_call');
    assert.deepEqual(wire.params[1], '0xc');
    assert.equal((wire.params[0] as { data: string }).data, encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [BOB] }));
    // A standard view written without outputs: its output is known; integers as decimal strings.
    assert.equal(op.decodeResult!(encodeAbiParameters([{ type: 'uint256' }], [750n]), { function: 'balanceOf(address)' }), '750');
    assert.deepEqual(
      op.decodeResult!(encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], ['T', 5n]), {
        function: 'function info() view returns (string name, uint256 supply)',
      }),
      { name: 'T', supply: '5' },
    );
    assert.equal(op.decodeResult!('0x01', { function: 'ping()' }), '0x01', 'no outputs declared: the hex as received');
    assert.throws(() => op.build({ address: TOKEN, function: 'balanceOf(address)', args: '0x12' }), /an address/);
    assert.match(op.params.find((p) => p.key === 'function')!.validate('balanceOf(') ?? '', /not a function signature/);
  });
});

describe('explorer: an EVM transaction explained', () => {
  const HASH = `0x${'ab'.repeat(32)}`;
  function source(failed: boolean, debug = true): ExplorerSource & { asked: string[] } {
    const s = setup();
    const asked: string[] = [];
    const trace = evmdTrace(failed);
    return {
      asked,
      provider: 'trace node',
      chainId: 'devnet',
      has: { rest: false, comet: false, evm: true },
      contracts: { registry: s.registry, network: 'devnet', debug: debug ? undefined : false, debugElsewhere: debug ? undefined : 'Trace node' },
      rest: async () => Promise.reject(new Error('no REST')),
      comet: async () => Promise.reject(new Error('no CometBFT')),
      async evm(method, params) {
        asked.push(method);
        if (method === 'eth_getTransactionByHash')
          return { hash: HASH, from: ALICE, to: ROUTER, value: '0x0', input: trace.input, nonce: '0x1', gas: '0x2dc6c0', blockNumber: '0x5', type: '0x2' };
        if (method === 'eth_getTransactionReceipt')
          return {
            status: failed ? '0x0' : '0x1',
            gasUsed: '0x16e360',
            logs: failed
              ? []
              : [
                  {
                    address: TOKEN,
                    topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', pad(ROUTER), pad(BOB)],
                    data: encodeAbiParameters([{ type: 'uint256' }], [250n]),
                    logIndex: '0x0',
                  },
                ],
          };
        if (method === 'debug_traceTransaction') return trace;
        if (method === 'eth_getCode') return setupCodes[(params[0] as string).toLowerCase()] ?? '0x';
        throw new Error(`unexpected ${method}`);
      },
    };
  }
  const setupCodes: Record<string, string> = {};
  before(async () => {
    const { runtime, TOKEN_BODY, ROUTER_BODY } = await import('./fixtures');
    setupCodes[TOKEN] = runtime(TOKEN_BODY, pad('0x01').slice(2), '77');
    setupCodes[ROUTER] = runtime(ROUTER_BODY, pad('0x02').slice(2), '88');
  });
  const pad = (a: string) => `0x${a.slice(2).padStart(64, '0')}`;

  it('the call, the logs, the return value and the call tree, each naming its contract and ABI source', async () => {
    const r = await lookUp(source(false), HASH);
    assert.equal(r.kind, 'tx');
    const e = r.kind === 'tx' ? r.tx.evm[0] : undefined;
    assert.equal(e?.decoded?.contract?.name, 'Router');
    assert.equal(e?.decoded?.call?.signature, 'send(address,address,uint256)');
    assert.deepEqual(
      e?.decoded?.returns?.map((x) => x.value),
      ['750'],
    );
    assert.equal(e?.logs?.[0].decoded?.name, 'Transfer');
    assert.equal(e?.logs?.[0].decoded?.contract, 'Token');
    assert.equal(e?.decoded?.trace?.frames.length, 3);
    const doc = renderLookup(r);
    assert.match(doc, /- contract: Router \(ABI: `workspace artifact artifacts\/contracts\/Router\.sol\/Router\.json \(runtime code matched\)`\)/);
    assert.match(doc, /- call: `send\(address,address,uint256\)` · Router/);
    assert.match(doc, / {2}- amount \(uint256\): `250`/);
    assert.match(doc, /event Transfer\(from=`0x2222222222222222222222222222222222222222`, to=`0xbBbB/);
    assert.match(
      doc,
      /\*\*STATICCALL\*\* Router `0x2222222222222222222222222222222222222222` → bank `0x0000000000000000000000000000000000000804` balances\(account=/,
    );
    assert.match(doc, /Call trace \(3 frame\(s\)\)/);
  });

  it('a contract creation: the created contract named by its runtime code', async () => {
    const s = setup();
    const src = {
      provider: 'p',
      has: { rest: false, comet: false, evm: true },
      contracts: { registry: s.registry, network: 'devnet', debug: false },
      evm: async (m: string, p: readonly unknown[]) => (m === 'eth_getCode' ? await s.ctx.getCode!(p[0] as string, p[1] as string) : null),
    } as unknown as ExplorerSource;
    const view = { hash: HASH, source: 'evmRpc', contractAddress: TOKEN, blockNumber: '5', input: '0x6080' } as unknown as EvmView;
    const d = await withDecoding(src, view, []);
    assert.equal(d.decoded?.contract?.name, 'Token');
    assert.equal(d.decoded?.call, undefined);
  });

  it('a failed transaction: the revert decoded from the trace (evmd gives it nowhere else)', async () => {
    const r = await lookUp(source(true), HASH);
    const e = r.kind === 'tx' ? r.tx.evm[0] : undefined;
    assert.equal(e?.status, 'failed');
    assert.equal(e?.decoded?.revert?.signature, 'InsufficientBalance(uint256,uint256)');
    assert.match(renderLookup(r), /- revert: InsufficientBalance\(balance=`100`, needed=`250`\)/);
  });

  it('a provider without debug: one line saying so and naming one that has it; no trace asked', async () => {
    const src = source(false, false);
    const r = await lookUp(src, HASH);
    assert.ok(!src.asked.includes('debug_traceTransaction'));
    assert.match(renderLookup(r), /- call trace: `trace node does not serve debug_traceTransaction .*Trace node on the same network does\.`/);
  });
});

describe('contracts: the event console and hovers', () => {
  it('an EVM log line names its event and key arguments; the decoding rides along', () => {
    const r = new ContractRegistry();
    const decodeLog = (l: { address?: string; topics: readonly string[]; data: string }) => {
      const d = r.decodeLogKnown(l);
      return d && { line: `${d.name}(${(d.args ?? []).map((a) => `${a.name}=${String(a.value)}`).join(', ')})`, decoded: d };
    };
    const log = {
      address: TOKEN,
      topics: [
        '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
        `0x${ALICE.slice(2).padStart(64, '0')}`,
        `0x${BOB.slice(2).padStart(64, '0')}`,
      ],
      data: encodeAbiParameters([{ type: 'uint256' }], [250n]),
      blockNumber: '0x5',
    };
    const e = readEvmNotification('logs', log, decodeLog);
    assert.match(e.summary, /^Transfer\(from=0xaAaA.*, to=0xbBbB.*, value=250\) {2}address=/);
    assert.equal((e.decoded as { signature: string }).signature, 'Transfer(address,address,uint256)');
    assert.match(readEvmNotification('logs', { ...log, topics: [`0x${'12'.repeat(32)}`] }, decodeLog).summary, /topic0=/);
  });

  it('hovers: a selector or topic0 shows its signatures, an address its contract name', () => {
    const r = new ContractRegistry();
    const ctx = { unit: () => undefined, signatures: (s: string) => r.knownSignatures(s), contractName: (a: string) => r.nameOf(a)?.name };
    assert.match(hoverAt('selector 0xa9059cbb', 12, ctx)!.lines[0], /function transfer\(address,uint256\) · ERC-20/);
    assert.match(
      hoverAt('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', 3, ctx)!.lines.join('\n'),
      /event Transfer\(address,address,uint256\)/,
    );
    assert.equal(hoverAt('to 0x0000000000000000000000000000000000000804', 5, ctx)!.lines[0], 'contract: bank');
  });
});

describe('contracts: evm.callContract in a query file', () => {
  it('runs through the catalogue: eth_call sent, `result` the decoded output, so `assert result == 750` holds', async () => {
    const server = await startServer((req, res) => {
      const body = JSON.parse(req.body) as { id: number; method: string };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: encodeAbiParameters([{ type: 'uint256' }], [750n]) }));
    });
    const http = new HttpClient();
    try {
      const file = parseQueryFile(
        [
          'request bal = evm.callContract',
          `address: ${TOKEN}`,
          'function: balanceOf(address)',
          `args: ${BOB}`,
          'block: 7',
          'assert result == 750',
          'assert result > 749',
        ].join('\n'),
      );
      assert.deepEqual(file.diagnostics, []);
      const run = await runQueryFile(file, {
        providers: [{ name: 'node', endpoints: { evmRpc: server.url } }],
        execute: { http, timeoutMs: 10_000, maxBufferBytes: 1 << 20, spillDir: os.tmpdir(), formatWhileReceiving: false },
        env: {},
        resolveProvider: (p) => p,
        secretValue: () => undefined,
      });
      assert.equal(run.passed, true, JSON.stringify(run.requests[0].runs[0]?.assertions));
      const sent = JSON.parse(server.requests[0].body) as { method: string; params: [{ data: string }, string] };
      assert.equal(sent.method, 'eth_call');
      assert.equal(sent.params[1], '0x7');
      assert.equal(sent.params[0].data, encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [BOB] }));
    } finally {
      await http.close();
      await server.close();
    }
  });
});
