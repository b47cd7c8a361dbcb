import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { encodeAbiParameters, encodeErrorResult, encodeEventTopics, encodeFunctionData, erc721Abi, pad } from 'viem';
import { ArtifactIndex, nodeArtifactFiles } from '../../../../src/core/contracts/artifacts';
import { panicMeaning, precompileAt, tableSize } from '../../../../src/core/contracts/builtin';
import { codePattern, matchesCode, runtimeCode } from '../../../../src/core/contracts/bytecode';
import { ContractRegistry, type ResolveContext } from '../../../../src/core/contracts/registry';
import { ALICE, BOB, ROUTER, ROUTER_BODY, TOKEN, TOKEN_ABI, TOKEN_BODY, runtime, workspace } from './fixtures';

const topicsOf = (t: readonly unknown[]) => t as string[];
const IMM = pad('0x1234', { size: 32 }).slice(2);

/** A registry over a fresh fixture workspace, and a context whose eth_getCode serves the deployed code. */
export function setup(codes: Record<string, string> = { [TOKEN]: runtime(TOKEN_BODY, IMM, 'ef'), [ROUTER]: runtime(ROUTER_BODY, IMM, '01') }) {
  const root = workspace();
  const index = new ArtifactIndex(nodeArtifactFiles(root));
  const registry = new ContractRegistry({ artifacts: index, readFile: (p) => fs.promises.readFile(path.join(root, p)) });
  const asked: string[] = [];
  const notes: string[] = [];
  const ctx: ResolveContext = {
    network: 'devnet',
    notes,
    getCode: async (a) => {
      asked.push(a);
      return codes[a.toLowerCase()] ?? '0x';
    },
  };
  return { root, index, registry, ctx, asked, notes };
}

describe('contracts: built-in ABIs and the signature table', () => {
  it('names the Cosmos EVM precompiles at their fixed addresses, with the published ABIs', () => {
    const bank = precompileAt('0x0000000000000000000000000000000000000804');
    assert.equal(bank?.name, 'bank');
    assert.ok(bank?.abi.some((x) => x.type === 'function' && x.name === 'balances'));
    assert.match(bank?.source.label ?? '', /precompile.*cosmos\/evm v0\.3\.2/);
    for (const [a, n] of [
      ['0100', 'p256'],
      ['0400', 'bech32'],
      ['0800', 'staking'],
      ['0801', 'distribution'],
      ['0802', 'ics20'],
      ['0803', 'vesting'],
      ['0805', 'gov'],
      ['0806', 'slashing'],
      ['0807', 'evidence'],
    ]) {
      assert.equal(precompileAt(`0x${'0'.repeat(36)}${a}`)?.name, n);
    }
    assert.equal(precompileAt('0x0000000000000000000000000000000000000808'), undefined);
    assert.equal(precompileAt(TOKEN), undefined);
    assert.ok(tableSize() > 250, `the table has ${tableSize()} signatures`);
  });

  it('says what each panic code means', () => {
    assert.equal(panicMeaning(0x11n), 'arithmetic overflow or underflow');
    assert.equal(panicMeaning('18'), 'division or modulo by zero');
    assert.equal(panicMeaning(0x99n), 'a panic code Solidity does not define');
  });
});

describe('contracts: runtime code matching', () => {
  it('ignores the metadata and masks immutables (listed, or a PUSH32 of zeros)', () => {
    const token = codePattern(runtime(TOKEN_BODY, undefined, 'ab'), [{ start: 5 + TOKEN_BODY.length / 2 + 1, length: 32 }], true)!;
    assert.ok(matchesCode(token, runtimeCode(runtime(TOKEN_BODY, IMM, 'ef'))!));
    assert.ok(!matchesCode(token, runtimeCode(runtime(ROUTER_BODY, IMM, 'ef'))!));
    // Listed immutables only: a guess is not made (another immutable would differ).
    const exact = codePattern(runtime(TOKEN_BODY, undefined, 'ab'), [], true)!;
    assert.ok(!matchesCode(exact, runtimeCode(runtime(TOKEN_BODY, IMM, 'ef'))!));
    const hardhat = codePattern(runtime(TOKEN_BODY, undefined, 'ab'))!;
    assert.ok(matchesCode(hardhat, runtimeCode(runtime(TOKEN_BODY, IMM, 'ef'))!));
    assert.equal(runtimeCode('0x'), undefined);
    // A library placeholder is masked as well.
    const linked = codePattern(`0x73__$0123456789abcdef0123456789abcdef01$__6000`)!;
    assert.ok(matchesCode(linked, runtimeCode(`0x73${'99'.repeat(20)}6000`)!));
  });

  it('matches an address to exactly one artifact; an ambiguous or missing match is said and falls through', async () => {
    const s = setup();
    assert.equal((await s.registry.contractAt(TOKEN, s.ctx))?.name, 'Token');
    const router = await s.registry.contractAt(ROUTER, s.ctx);
    assert.equal(router?.name, 'Router');
    assert.match(router?.source.label ?? '', /artifacts\/contracts\/Router\.sol\/Router\.json \(runtime code matched\)/);
    // Cached per network: no second eth_getCode.
    await s.registry.contractAt(TOKEN, s.ctx);
    assert.equal(s.asked.filter((a) => a === TOKEN).length, 1);
    assert.equal(s.registry.nameOf(TOKEN, 'devnet')?.name, 'Token');
    // The same code under two names: ambiguous.
    const copy = JSON.parse(fs.readFileSync(path.join(s.root, 'out/Token.sol/Token.json'), 'utf8'));
    copy.abi = copy.abi.filter((x: { name?: string }) => x.name !== 'owner');
    fs.mkdirSync(path.join(s.root, 'out/Other.sol'));
    fs.writeFileSync(path.join(s.root, 'out/Other.sol/Other.json'), JSON.stringify(copy));
    s.registry.invalidate();
    assert.equal(await s.registry.contractAt(TOKEN, s.ctx), undefined);
    assert.ok(
      s.notes.some((n) => /matches 2 artifacts.*ambiguous/.test(n)),
      s.notes.join('\n'),
    );
    const other = '0x3333333333333333333333333333333333333333';
    const none = setup({ [other]: runtime('00', IMM, 'ef') });
    assert.equal(await none.registry.contractAt(other, none.ctx), undefined);
    assert.ok(none.notes.some((n) => n.includes('matches no workspace artifact')));
  });
});

describe('contracts: workspace artifacts', () => {
  it('reads nothing before the first decode, skips build-info and .dbg.json, re-reads what changed', async () => {
    const s = setup();
    assert.equal(s.index.reads, 0);
    const all = await s.index.artifacts();
    assert.deepEqual(all.map((a) => a.path).sort(), ['artifacts/contracts/Router.sol/Router.json', 'out/IThing.sol/IThing.json', 'out/Token.sol/Token.json']);
    assert.equal(s.index.reads, 3);
    await s.index.artifacts();
    assert.equal(s.index.reads, 3, 'not read again while nothing changed');
    const file = path.join(s.root, 'out/IThing.sol/IThing.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ abi: [{ type: 'function', name: 'pong', inputs: [{ name: 'n', type: 'uint8' }], outputs: [], stateMutability: 'nonpayable' }] }),
    );
    s.index.invalidate();
    const d = await s.registry.decodeCall(
      encodeFunctionData({
        abi: [{ type: 'function', name: 'pong', inputs: [{ name: 'n', type: 'uint8' }], outputs: [], stateMutability: 'nonpayable' }],
        args: [7],
      }),
      undefined,
      s.ctx,
    );
    assert.equal(d.signature, 'pong(uint8)');
    assert.match(d.source ?? '', /guessed from its selector \(workspace artifact out\/IThing\.sol\/IThing\.json\)/);
    assert.equal(d.guessed, true);
    assert.equal(s.index.reads, 4, 'only the changed file is read again');
  });

  it('is bounded: file count, file size, total', async () => {
    const root = workspace();
    const small = new ArtifactIndex(nodeArtifactFiles(root), { maxFiles: 1, maxFileBytes: 1 << 20, maxTotalBytes: 1 << 20 });
    assert.equal((await small.artifacts()).length, 1);
    assert.ok(small.notes.some((n) => /only the first 1 artifact/.test(n)));
    const tiny = new ArtifactIndex(nodeArtifactFiles(root), { maxFiles: 10, maxFileBytes: 100, maxTotalBytes: 1 << 20 });
    assert.equal((await tiny.artifacts()).length, 0);
    assert.ok(tiny.notes.some((n) => /larger than/.test(n)));
  });
});

describe('contracts: decoding calls, logs and reverts', () => {
  it('a call against the contract matched by its code: each argument by name, type and value', async () => {
    const s = setup();
    const input = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [BOB, 250n] });
    const d = await s.registry.decodeCall(input, TOKEN, s.ctx);
    assert.equal(d.kind, 'function');
    assert.equal(d.signature, 'transfer(address,uint256)');
    assert.equal(d.contract, 'Token');
    assert.match(d.source ?? '', /out\/Token\.sol\/Token\.json \(runtime code matched\)/);
    assert.deepEqual(d.args, [
      { name: 'to', type: 'address', value: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
      { name: 'amount', type: 'uint256', value: '250' },
    ]);
    assert.equal(d.guessed, undefined);
  });

  it('a log: indexed arguments marked, a dynamic indexed value as its hash; ERC-20 vs ERC-721 Transfer told apart', async () => {
    const s = setup();
    const topics = encodeEventTopics({ abi: TOKEN_ABI, eventName: 'Transfer', args: { from: ALICE as `0x${string}`, to: BOB } }) as string[];
    const d = await s.registry.decodeLog({ address: TOKEN, topics, data: encodeAbiParameters([{ type: 'uint256' }], [750n]) }, s.ctx);
    assert.equal(d.kind, 'event');
    assert.equal(d.contract, 'Token');
    assert.deepEqual(
      d.args?.map((a) => [a.name, a.indexed ?? false, a.value]),
      [
        ['from', true, '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa'],
        ['to', true, '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB'],
        ['value', false, '750'],
      ],
    );
    const memo = await s.registry.decodeLog(
      {
        address: TOKEN,
        topics: topicsOf(encodeEventTopics({ abi: TOKEN_ABI, eventName: 'Memo', args: { tag: 'x' } })),
        data: encodeAbiParameters([{ type: 'string' }], ['hello']),
      },
      s.ctx,
    );
    assert.equal(memo.args?.[0].type, 'string (hash)');
    assert.equal(memo.args?.[1].value, 'hello');
    // No ABI for the address: the standards decide by what is indexed.
    const bare = new ContractRegistry();
    const nft = await bare.decodeLog({
      address: ROUTER,
      topics: topicsOf(encodeEventTopics({ abi: erc721Abi, eventName: 'Transfer', args: { from: ALICE as `0x${string}`, to: BOB, tokenId: 5n } })),
      data: '0x',
    });
    assert.equal(nft.contract, 'ERC-721');
    assert.equal(nft.args?.[2].value, '5');
    const erc20 = await bare.decodeLog({ address: ROUTER, topics, data: encodeAbiParameters([{ type: 'uint256' }], [1n]) });
    assert.equal(erc20.contract, 'ERC-20');
    assert.equal(erc20.source, 'standard ERC-20 ABI');
  });

  it('only in the bundled table: marked guessed from its selector; nothing known: unknown with the selector', async () => {
    const bare = new ContractRegistry();
    const topics = topicsOf(
      encodeEventTopics({
        abi: [
          {
            type: 'event',
            name: 'OwnershipTransferred',
            inputs: [
              { name: 'previousOwner', type: 'address', indexed: true },
              { name: 'newOwner', type: 'address', indexed: true },
            ],
          },
        ],
        eventName: 'OwnershipTransferred',
        args: { previousOwner: ALICE as `0x${string}`, newOwner: BOB },
      }),
    );
    const d = await bare.decodeLog({ address: TOKEN, topics, data: '0x' });
    assert.equal(d.guessed, true);
    assert.match(d.source ?? '', /guessed from its selector/);
    const u = await bare.decodeCall('0xdeadbeef00', TOKEN);
    assert.equal(u.kind, 'unknown');
    assert.equal(u.selector, '0xdeadbeef');
  });

  it('reverts: Error(string), Panic with its meaning, a custom error with its arguments', async () => {
    const s = setup();
    const custom = await s.registry.decodeRevert(encodeErrorResult({ abi: TOKEN_ABI, errorName: 'InsufficientBalance', args: [100n, 250n] }), TOKEN, s.ctx);
    assert.equal(custom.signature, 'InsufficientBalance(uint256,uint256)');
    assert.deepEqual(
      custom.args?.map((a) => [a.name, a.value]),
      [
        ['balance', '100'],
        ['needed', '250'],
      ],
    );
    const err = await s.registry.decodeRevert(
      encodeErrorResult({ abi: [{ type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] }], errorName: 'Error', args: ['too much'] }),
      TOKEN,
      s.ctx,
    );
    assert.equal(err.name, 'Error');
    assert.equal(err.args?.[0].value, 'too much');
    const panic = await s.registry.decodeRevert(`0x4e487b71${'0'.repeat(62)}11`, TOKEN, s.ctx);
    assert.equal(panic.name, 'Panic');
    assert.equal(panic.meaning, 'arithmetic overflow or underflow');
    assert.equal((await s.registry.decodeRevert('0x', TOKEN, s.ctx)).note, 'no revert data');
  });

  it('chainEndpoints.contracts: an ABI array or a workspace file, per network; before the code match', async () => {
    const s = setup();
    const other = '0x4444444444444444444444444444444444444444';
    const settings = [
      { address: other, abi: 'out/Token.sol/Token.json', name: 'MyToken', network: 'devnet' },
      { address: ROUTER, abi: [...TOKEN_ABI], name: 'NotTheRouter' },
    ];
    const r = new ContractRegistry({ artifacts: s.index, settings: () => settings, readFile: (p) => fs.promises.readFile(path.join(s.root, p)) });
    const mine = await r.contractAt(other, s.ctx);
    assert.equal(mine?.name, 'MyToken');
    assert.match(mine?.source.label ?? '', /chainEndpoints\.contracts \(out\/Token\.sol\/Token\.json\)/);
    assert.equal(await r.contractAt(other, { ...s.ctx, network: 'mainnet' }), undefined);
    assert.equal((await r.contractAt(ROUTER, s.ctx))?.name, 'NotTheRouter', "the user's setting comes first, before the code match (issue 34)");
    assert.equal((await r.contractAt(TOKEN, s.ctx))?.name, 'Token', 'no setting: the code match');
    assert.equal(r.nameOf(other, 'devnet')?.name, 'MyToken');
  });

  it('contractAtNow: answers without waiting only what needs nothing read (inline ABI, a match made), else undefined; the same answer as contractAt', async () => {
    const s = setup();
    const inline = '0x5555555555555555555555555555555555555555';
    const inFile = '0x4444444444444444444444444444444444444444';
    const settings = [
      { address: inline.toUpperCase().replace('0X', '0x'), abi: [...TOKEN_ABI], name: 'Inline' },
      { address: inFile, abi: 'out/Token.sol/Token.json', name: 'InFile' },
    ];
    const r = new ContractRegistry({ artifacts: s.index, settings: () => settings, readFile: (p) => fs.promises.readFile(path.join(s.root, p)) });
    const quiet = { network: 'devnet', getCode: s.ctx.getCode };
    assert.equal(r.contractAtNow(inline, quiet)?.contract?.name, 'Inline', 'an inline ABI, matched in any case');
    assert.equal(r.contractAtNow(inline, quiet)?.contract, await r.contractAt(inline, quiet), 'the same contract object both ways');
    assert.equal(r.contractAtNow(inFile, quiet), undefined, 'an ABI in a file is read first');
    assert.equal(r.contractAtNow(TOKEN, quiet), undefined, 'no match made yet: the code is asked for');
    assert.equal((await r.contractAt(TOKEN, quiet))?.name, 'Token');
    assert.equal(r.contractAtNow(TOKEN, quiet)?.contract?.name, 'Token', 'the match made, answered now');
    assert.deepEqual(r.contractAtNow('0x12', quiet), { contract: undefined }, 'not an address: nothing, at once');
    assert.equal(r.contractAtNow(inline, s.ctx), undefined, "with notes to write, the index's notes come first");
    assert.equal(r.contractAtNow('0x0000000000000000000000000000000000000804', {})?.contract?.name, 'bank', 'a precompile without artifacts');
  });

  it('settings: a new list is read again (the index is per list); an entry for another network is not used', async () => {
    const a = '0x6666666666666666666666666666666666666666';
    let settings: Array<{ address: string; abi: unknown[]; name: string; network?: string }> = [
      { address: a, abi: [...TOKEN_ABI], name: 'First', network: 'other' },
    ];
    const r = new ContractRegistry({ settings: () => settings as never });
    assert.equal(await r.contractAt(a, { network: 'devnet' }), undefined);
    settings = [...settings, { address: a, abi: [...TOKEN_ABI], name: 'Second' }];
    assert.equal((await r.contractAt(a, { network: 'devnet' }))?.name, 'Second', 'the new list is indexed');
    assert.equal((await r.contractAt(a, { network: 'OTHER' }))?.name, 'First', 'networks compared in any case; the first entry that fits');
    settings = [];
    assert.equal(await r.contractAt(a, { network: 'devnet' }), undefined, 'an emptied list: nothing');
  });
});
