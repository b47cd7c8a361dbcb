// Issue 34, items 4, 5, 10 and 11: what a hostile workspace artifact (or a setting's ABI file) can do
// to decoding. Each test reproduced its gap on the code before the fix: an artifact whose masks cover
// its code claimed every contract of its length and outranked the user's settings; an untrusted
// workspace's artifacts were read; 350,000 full-length masks blocked the host for seconds; a setting's
// ABI file was read whole before its size was checked; a workspace artifact's colliding selector or
// event outranked the standards and the table, unmarked, naming itself as the emitter.

import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, parseAbi } from 'viem';
import { ArtifactIndex, nodeArtifactFiles, readArtifact } from '../../../../src/core/contracts/artifacts';
import { runtimeCode } from '../../../../src/core/contracts/bytecode';
import { ContractRegistry } from '../../../../src/core/contracts/registry';
import { decodeTrace } from '../../../../src/core/contracts/trace';
import { Doc } from '../../../../src/core/explorer/mdDoc';
import { renderTrace } from '../../../../src/core/explorer/renderEvm';
import { ALICE, BOB, ROUTER, TOKEN, TOKEN_ABI, TOKEN_BODY, runtime } from './fixtures';
import { setup } from './contracts.unit.test';

const IMM = `${'00'.repeat(30)}1234`;
const OTHER = '0x3333333333333333333333333333333333333333';

function write(root: string, rel: string, data: unknown): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), JSON.stringify(data));
}

/** The metadata-stripped length of the fixture token's deployed code. */
function tokenLength(): number {
  return runtimeCode(runtime(TOKEN_BODY, IMM, 'ef'))!.length;
}

/** An artifact whose code is `length` bytes of 0xfe and whose immutables are `masks`. */
function hostile(length: number, masks: ReadonlyArray<{ start: number; length: number }>, abi = TOKEN_ABI as unknown) {
  return { abi, deployedBytecode: { object: `0x${'fe'.repeat(length)}`, immutableReferences: { '1': masks }, linkReferences: {} } };
}

describe('hostile artifacts: a mask cannot claim every contract (issue 34, item 4)', () => {
  it('refuses masks that cover the code (one full-length mask, or 32-byte words end to end): the artifact claims nothing', async () => {
    const L = tokenLength();
    const words = Array.from({ length: Math.floor(L / 32) + 1 }, (_, i) => ({ start: i * 32, length: 32 }));
    for (const masks of [[{ start: 0, length: L }], words, [{ start: 0, length: 31 }]]) {
      const s = setup({ [TOKEN]: runtime(TOKEN_BODY, IMM, 'ef'), [OTHER]: `0x${'aa'.repeat(L)}` });
      write(s.root, 'out/Evil.sol/Evil.json', hostile(L, masks));
      const a = readArtifact('out/Evil.sol/Evil.json', JSON.stringify(hostile(L, masks)));
      assert.equal(a?.code, undefined, `masks ${JSON.stringify(masks).slice(0, 60)} are not used to match`);
      assert.match(a?.refused ?? '', /not plausible/);
      // Any code of that length was Evil's before; now it matches nothing, and the token stays the token.
      assert.equal(await s.registry.contractAt(OTHER, s.ctx), undefined);
      assert.equal((await s.registry.contractAt(TOKEN, s.ctx))?.name, 'Token');
      assert.ok(
        s.index.notes.some((n) => /out\/Evil\.sol\/Evil\.json.*not plausible/.test(n)),
        s.index.notes.join('\n'),
      );
    }
  });

  it('still masks plausible immutables (32-byte words, a small share of the code)', () => {
    const L = tokenLength();
    const a = readArtifact('out/Ok.sol/Ok.json', JSON.stringify(hostile(L, [{ start: 1, length: 32 }])));
    assert.ok(a?.code?.wild);
    assert.equal(a?.refused, undefined);
  });

  it("the user's chainEndpoints.contracts entry outranks a workspace artifact's code match", async () => {
    const s = setup();
    const mine = parseAbi(['function mine(uint256 x)']);
    const r = new ContractRegistry({ artifacts: s.index, settings: () => [{ address: TOKEN, abi: mine, name: 'MyToken' }] });
    const c = await r.contractAt(TOKEN, s.ctx);
    assert.equal(c?.name, 'MyToken');
    assert.equal(c?.source.kind, 'setting');
    assert.equal(r.nameOf(TOKEN, 'devnet')?.name, 'MyToken');
    // Without a setting for it, the router is still named by its code.
    assert.equal((await r.contractAt(ROUTER, s.ctx))?.name, 'Router');
  });

  it('an untrusted workspace: nothing listed or read, and the decoding says why its artifacts were not used', async () => {
    const s = setup();
    let trusted = false;
    let listed = 0;
    const files = nodeArtifactFiles(s.root);
    const index = new ArtifactIndex({ list: (n) => (listed++, files.list(n)), read: files.read }, undefined, { trusted: () => trusted });
    const r = new ContractRegistry({ artifacts: index });
    const notes: string[] = [];
    const ctx = { ...s.ctx, notes };
    const d = await r.decodeCall(encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [BOB, 1n] }), TOKEN, ctx);
    assert.notEqual(d.contract, 'Token');
    assert.equal(listed, 0);
    assert.equal(index.reads, 0);
    assert.deepEqual(await index.artifacts(), []);
    assert.ok(notes.includes('workspace artifacts were not read: the workspace is not trusted'), notes.join('\n'));
    // Trust granted: the next decode reads them.
    trusted = true;
    const later = await r.decodeCall(encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [BOB, 1n] }), TOKEN, { ...s.ctx, notes: [] });
    assert.equal(later.contract, 'Token');
    assert.ok(index.reads > 0);
  });
});

describe('hostile artifacts: bounded matching work (issue 34, item 5)', () => {
  it('350,000 full-length masks: refused after a constant look, the masks never walked', async () => {
    const L = 4096;
    // 350 immutables of 1,000 references each (one list of 350,000 would overflow a spread: this is the shape that froze the host).
    const lists = Object.fromEntries(Array.from({ length: 350 }, (_, k) => [String(k), Array.from({ length: 1000 }, () => ({ start: 0, length: L }))]));
    const s = setup();
    write(s.root, 'out/Freeze.sol/Freeze.json', { abi: TOKEN_ABI, deployedBytecode: { object: `0x${'fe'.repeat(L)}`, immutableReferences: lists } });
    await s.index.artifacts();
    assert.ok(s.index.stats.masksExamined <= L / 20 + 64, `masks examined: ${s.index.stats.masksExamined}`);
    assert.ok(s.index.notes.some((n) => /Freeze\.json.*not plausible/.test(n)));
  });

  it('parsed off the thread (as the editor does): the same artifacts, the hostile one refused in the worker without its masks sent back', async () => {
    const s = setup();
    write(
      s.root,
      'out/Freeze.sol/Freeze.json',
      hostile(
        4096,
        Array.from({ length: 50_000 }, () => ({ start: 0, length: 4096 })),
      ),
    );
    const index = new ArtifactIndex(nodeArtifactFiles(s.root), undefined, { parseOffThread: true });
    const names = (await index.artifacts()).map((a) => a.name).sort();
    assert.deepEqual(names, ['Freeze', 'IThing', 'Router', 'Token']);
    assert.equal(index.stats.parsedOffThread, 4);
    assert.equal(index.stats.masksExamined, 1, "only the token's one immutable is examined");
    assert.ok(
      index.notes.some((n) => /Freeze\.json.*50000 immutable or link references .* not plausible/.test(n)),
      index.notes.join('\n'),
    );
    const r = new ContractRegistry({ artifacts: index });
    assert.equal((await r.contractAt(TOKEN, s.ctx))?.name, 'Token');
  });

  it('indexing yields to the event loop between slices of work; matching compares a bounded number of bytes', async () => {
    const s = setup();
    const L = tokenLength();
    // 40 artifacts of the token's length that differ from it only in the last byte: each is compared to the end.
    for (let i = 0; i < 40; i++) write(s.root, `out/Near${i}.sol/Near${i}.json`, { abi: [], deployedBytecode: { object: `0x${'fe'.repeat(L)}` } });
    const index = new ArtifactIndex(nodeArtifactFiles(s.root), {
      maxFiles: 100,
      maxFileBytes: 1 << 20,
      maxTotalBytes: 1 << 24,
      sliceWork: 1,
      maxCompareBytes: 10 * L,
    });
    await index.artifacts();
    assert.ok(index.stats.slices >= 40, `slices: ${index.stats.slices}`);
    const m = await index.matching(new Uint8Array(L).fill(0xfe));
    assert.ok(index.stats.bytesCompared <= 11 * L, `compared ${index.stats.bytesCompared} bytes`);
    assert.match(m.cut ?? '', /not all/);
    assert.ok(m.matches.length <= 11);
  });
});

describe("a setting's ABI file: its size is checked before it is read (issue 34, item 10)", () => {
  it('a 300 MB file is refused by its size: never read', async () => {
    let read = 0;
    const r = new ContractRegistry({
      settings: () => [{ address: OTHER, abi: '/abs/huge.json', name: 'Huge' }],
      fileSize: async () => 300 * 1024 * 1024,
      readFile: async () => (read++, new Uint8Array(0)),
    });
    const notes: string[] = [];
    assert.equal(await r.contractAt(OTHER, { notes }), undefined);
    assert.equal(read, 0);
    assert.ok(
      notes.some((n) => /huge\.json is larger than 16 MB/.test(n)),
      notes.join('\n'),
    );
  });
});

describe('guessed decodings are marked and name no other contract (issue 34, item 11)', () => {
  const COLLIDER = parseAbi(['function collate_propagate_storage(bytes16 x)', 'event Deposited(address indexed account, uint256 amount)']);

  it('a colliding selector in a workspace artifact ranks after the table, and is marked guessed; a by-topic0 log names no contract', async () => {
    const s = setup();
    write(s.root, 'out/Collider.sol/Collider.json', { abi: COLLIDER, deployedBytecode: { object: '0x' } });
    // burn(uint256) = collate_propagate_storage(bytes16) = 0x42966c68, called on an address no artifact matches.
    const burn = encodeFunctionData({ abi: parseAbi(['function burn(uint256 amount)']), args: [5n] });
    const d = await s.registry.decodeCall(burn, OTHER, s.ctx);
    assert.equal(d.signature, 'burn(uint256)');
    assert.equal(d.guessed, true);
    // An ERC-20 Transfer from an unrelated address: the standard ABI, not the workspace Token's.
    const topics = encodeEventTopics({ abi: TOKEN_ABI, eventName: 'Transfer', args: { from: ALICE as `0x${string}`, to: BOB } }) as string[];
    const t = await s.registry.decodeLog({ address: OTHER, topics, data: encodeAbiParameters([{ type: 'uint256' }], [1n]) }, s.ctx);
    assert.equal(t.contract, 'ERC-20');
    assert.equal(t.guessed, undefined);
    // An event only a workspace artifact has: decoded, marked guessed, and not attributed to Collider.
    const dep = encodeEventTopics({ abi: COLLIDER, eventName: 'Deposited', args: { account: ALICE as `0x${string}` } }) as string[];
    const g = await s.registry.decodeLog({ address: OTHER, topics: dep, data: encodeAbiParameters([{ type: 'uint256' }], [2n]) }, s.ctx);
    assert.equal(g.name, 'Deposited');
    assert.equal(g.guessed, true);
    assert.equal(g.contract, undefined);
    assert.match(g.source ?? '', /guessed from its selector.*Collider\.json/);
    // The event console (nothing read) and the hovers say the same.
    const known = s.registry.decodeLogKnown({ address: OTHER, topics: dep, data: encodeAbiParameters([{ type: 'uint256' }], [2n]) }, 'devnet');
    assert.equal(known?.guessed, true);
    assert.equal(known?.contract, undefined);
    assert.ok(s.registry.knownSignatures(dep[0]).every((l) => /guessed/.test(l)));
    // The address's own ABI still decodes unmarked.
    const own = await s.registry.decodeCall(encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [BOB, 1n] }), TOKEN, s.ctx);
    assert.equal(own.contract, 'Token');
    assert.equal(own.guessed, undefined);
  });

  it('a trace frame decoded by a guess says "guessed" in the document', async () => {
    const s = setup();
    const burn = encodeFunctionData({ abi: parseAbi(['function burn(uint256 amount)']), args: [5n] });
    const t = await decodeTrace({ type: 'CALL', from: ALICE, to: OTHER, input: burn, output: '0x', gasUsed: '0x10' }, 'string', s.registry, s.ctx);
    assert.equal(t.frames[0].call?.guessed, true);
    const doc = new Doc();
    renderTrace(doc, `0x${'ab'.repeat(32)}`, t, 2);
    assert.match(doc.lines.join('\n'), /burn\(amount=`5`\) \(guessed\)/);
    // A frame decoded by the contract's own ABI is not marked.
    const own = await decodeTrace(
      { type: 'CALL', from: ALICE, to: TOKEN, input: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [BOB, 1n] }), gasUsed: '0x10' },
      'string',
      s.registry,
      s.ctx,
    );
    const d2 = new Doc();
    renderTrace(d2, `0x${'ab'.repeat(32)}`, own, 2);
    assert.doesNotMatch(d2.lines.join('\n'), /guessed/);
  });
});
