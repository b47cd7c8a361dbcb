// The account page v1 (src/core/explorer/account/): Look Up of an address, and of `<address>@<height>`,
// on the devnet: both forms, balances with the reconciliation line, stake (delegations with their
// validator's moniker, pending rewards, unbondings), the state read at the height asked, and the
// coverage line on a provider that pruned it; identify() reading `@height`.
import * as assert from 'node:assert/strict';
import type { Provider } from '../../../../../src/core/config/providers';
import { encodeAbiParameters } from 'viem';
import { accountPage } from '../../../../../src/core/explorer/account/accountState';
import { addressForms } from '../../../../../src/core/explorer/addresses';
import { TOKEN_PAIRS_PAGE, decodeText, tokenPairs } from '../../../../../src/core/explorer/account/tokens';
import { ChainContext, forgetContext } from '../../../../../src/core/explorer/context';
import { identify } from '../../../../../src/core/explorer/identify';
import { lookUp } from '../../../../../src/core/explorer/lookup';
import { renderLookup } from '../../../../../src/core/explorer/render';
import { type ExplorerSource, executeSource } from '../../../../../src/core/explorer/source';
import type { AddressView, LookupResult } from '../../../../../src/core/explorer/views';
import { HttpClient } from '../../../../../src/core/transport/http';
import { type Devnet, startDevnet } from '../../../../devnet/devnet';
import { bech32Encode } from '../../../../devnet/encoding';
import { DEVNET_REWARD_PER_BLOCK } from '../../../../devnet/restState';

function address(r: LookupResult): AddressView {
  assert.equal(r.kind, 'address');
  return (r as Extract<LookupResult, { kind: 'address' }>).address;
}

describe('explorer: the account page', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  const source = (i: number) => {
    forgetContext();
    const { name, ...endpoints } = devnet.providers[i];
    const p: Provider = { name, endpoints };
    return executeSource(p, { http, timeoutMs: 10_000, maxBufferBytes: 4 * 1024 * 1024 });
  };

  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 100, providers: [{ name: 'full' }, { name: 'pruned', capabilities: { prunedBelow: 4n } }] });
    http = new HttpClient();
    while (devnet.height() < 6n) await new Promise((r) => setTimeout(r, 30));
  });
  after(async () => {
    await devnet.stop();
    await http.close();
  });

  const alice = () => devnet.chain.ledger.keys[0].address;

  it('reads <address>@<height> in both forms, and refuses @ after anything else', () => {
    const hex = `0x${'ab'.repeat(20)}`;
    const q = identify(`${hex}@1200`);
    assert.equal(q.kind, 'address');
    assert.equal((q as { height?: string }).height, '1200');
    assert.equal((q as { typed: string }).typed, hex);
    const b = identify(`${bech32Encode('cosmos', Buffer.from('ab'.repeat(20), 'hex'))} @ 0012`);
    assert.equal((b as { height?: string }).height, '12');
    assert.throws(() => identify(`${hex}@0`), /Block heights start at 1/);
    assert.throws(() => identify(`${hex}@latest`), /After @ comes a block height/);
    assert.throws(() => identify('12345@7'), /type an account address before it/);
    assert.throws(() => identify(`${'AB'.repeat(20)}@7`), /type an account address before it/); // a consensus address
  });

  it('shows the page at a height: both forms, balances reconciled, stake with monikers', async () => {
    const hex = `0x${alice().toString('hex')}`;
    const r = await lookUp(source(0), `${hex}@5`);
    const a = address(r);
    assert.equal(r.found, 'an account address at height 5');
    assert.equal(a.height, '5');
    assert.equal(a.forms.account, bech32Encode('cosmos', alice()));
    const balance = devnet.chain.balanceOf(alice()).toString();
    assert.deepEqual(
      a.balances?.map((c) => [c.denom, c.amount]),
      [['atest', balance]],
    );
    assert.match(a.balances?.[0].display ?? '', / test$/);
    assert.equal(a.evmBalance?.amount, balance);
    assert.equal(a.isContract, false);
    const s = a.state!;
    assert.equal(s.height, '5');
    assert.equal(s.fractional, '0');
    assert.equal(s.reconciliation?.equal, true);
    assert.equal(s.reconciliation?.line, `bank(atest) = EVM balance (${balance})`);
    assert.equal(s.delegations?.length, 1);
    assert.equal(s.delegations?.[0].moniker, devnet.chain.validators[0].name);
    assert.equal(s.delegations?.[0].amount?.display, '10 test');
    assert.equal(s.rewards?.[0].reward[0].amount, `${5n * DEVNET_REWARD_PER_BLOCK}.000000000000000000`);
    assert.deepEqual(s.unbondings, []);
    assert.deepEqual(s.missing, []);
    assert.equal(s.coverage, undefined);
    const md = renderLookup(r);
    assert.match(md, /## Address `0x[0-9a-f]{40}` at height `5`/);
    assert.ok(md.includes(`- reconciliation: \`bank(atest) = EVM balance (${balance})\``), md);
    assert.match(md, /### Stake/);
    assert.ok(
      md.includes(`- delegation: 10000000000000000000 atest (10 test) to \`${s.delegations?.[0].validator}\` (${devnet.chain.validators[0].name})`),
      md,
    );
    // A DecCoin in display units from its whole part (exact here: no fraction cut off).
    assert.match(md, /- pending rewards: 5000000000000000\.000000000000000000 atest \(`?0\.005 test`?\) from /);
    assert.match(md, /- unbondings: none/);
  });

  it('the latest state without @height, and rewards that grow between two heights', async () => {
    const addr = bech32Encode('cosmos', alice());
    const latest = address(await lookUp(source(0), addr));
    assert.equal(latest.height, undefined);
    assert.equal(latest.state?.height, latest.readAt, 'the latest page reads its state at the tip it read once');
    assert.match(latest.readAt ?? '', /^[0-9]+$/);
    assert.equal(latest.state?.delegations?.length, 1);
    const at3 = address(await lookUp(source(0), `${addr}@3`));
    const at6 = address(await lookUp(source(0), `${addr}@6`));
    assert.equal(at3.state?.rewards?.[0].reward[0].amount, `${3n * DEVNET_REWARD_PER_BLOCK}.000000000000000000`);
    assert.equal(at6.state?.rewards?.[0].reward[0].amount, `${6n * DEVNET_REWARD_PER_BLOCK}.000000000000000000`);
  });

  it('an unbonding entry with its completion time', async () => {
    const bob = devnet.chain.ledger.keys[1].address;
    const a = address(await lookUp(source(0), `${bech32Encode('cosmos', bob)}@4`));
    assert.deepEqual(a.state?.delegations, []);
    assert.equal(a.state?.unbondings?.length, 1);
    assert.equal(a.state?.unbondings?.[0].moniker, devnet.chain.validators[1].name);
    assert.equal(a.state?.unbondings?.[0].balance.display, '0.5 test');
    assert.match(
      renderLookup(await lookUp(source(0), `${bech32Encode('cosmos', bob)}@4`)),
      /- unbonding: 500000000000000000 atest \(`0\.5 test`\) from .*, completes `\d{4}-/,
    );
  });

  it('a pruned height: the coverage line, no "none" for stake, and what was not read', async () => {
    const r = await lookUp(source(1), `${bech32Encode('cosmos', alice())}@2`);
    const a = address(r);
    const s = a.state!;
    assert.match(s.coverage ?? '', /^Height 2 is pruned on this provider/);
    assert.equal(s.delegations, undefined);
    assert.equal(s.rewards, undefined);
    assert.equal(a.balances, undefined);
    assert.ok(
      s.missing.some((m) => m === 'delegations: height 2 is pruned on this provider'),
      s.missing.join('\n'),
    );
    assert.ok(r.notes.includes('bank balances: height 2 is pruned on this provider'), r.notes.join('\n'));
    const md = renderLookup(r);
    assert.match(md, /Coverage: `Height 2 is pruned on this provider/);
    assert.doesNotMatch(md, /delegations: none/);
    assert.match(md, /### Stake\n\nNot read \(see the notes\)\./);
    assert.equal(md.split('- `delegations: height 2 is pruned on this provider`').length, 2, 'said once');
  });
});

describe('explorer: the account page pins the latest height', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  before(async () => {
    devnet = await startDevnet({ blockIntervalMs: 0, realTxs: true, providers: [{ name: 'full' }] });
    http = new HttpClient();
    for (let i = 0; i < 6; i++) devnet.produceBlock();
  });
  after(async () => {
    await devnet.stop();
    await http.close();
  });

  it('reads bank and EVM at the one tip height even when blocks land between the reads: the reconciliation holds', async () => {
    forgetContext();
    const { name, ...endpoints } = devnet.providers[0];
    const inner = executeSource({ name, endpoints }, { http, timeoutMs: 10_000, maxBufferBytes: 8 * 1024 * 1024 });
    const key = devnet.chain.ledger.keys[1];
    const tip = devnet.height();
    const asked: Array<[string, unknown]> = [];
    let moved!: () => void;
    const chainMoved = new Promise<void>((r) => (moved = r));
    // The chain moves right after the bank read answers (blocks until the account's balance changed),
    // and the EVM balance is asked only then: an unpinned page reads two different blocks.
    const src: ExplorerSource = {
      ...inner,
      rest: async (path, height) => {
        const r = await inner.rest(path, height);
        if (path.startsWith('/cosmos/bank/v1beta1/balances/')) {
          asked.push(['bank', height]);
          const before = devnet.chain.balanceOf(key.address);
          for (let i = 0; i < 4 && devnet.chain.balanceOf(key.address) === before; i++) devnet.produceBlock();
          moved();
        }
        return r;
      },
      evm: async (method, params) => {
        if (method === 'eth_getBalance') {
          await chainMoved;
          asked.push(['evm', params[1]]);
        }
        return inner.evm(method, params);
      },
    };
    const r = await lookUp(src, bech32Encode('cosmos', key.address));
    const a = address(r);
    assert.ok(devnet.height() > tip, 'the chain moved during the lookup');
    assert.equal(a.state?.reconciliation?.equal, true, a.state?.reconciliation?.line);
    assert.deepEqual(asked, [
      ['bank', tip.toString()],
      ['evm', `0x${tip.toString(16)}`],
    ]);
    assert.equal(a.height, undefined, 'still the latest page');
    assert.equal(a.readAt, tip.toString());
    assert.equal(a.state?.height, tip.toString());
    // What the node itself says at that block (and that the next block's EVM balance differs: the trap is real).
    const rpc = async (block: bigint) =>
      BigInt(
        (
          (await (
            await fetch(devnet.providers[0].evmRpc, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: 1,
                method: 'eth_getBalance',
                params: [`0x${key.address.toString('hex')}`, `0x${block.toString(16)}`],
              }),
            })
          ).json()) as { result: string }
        ).result,
      );
    assert.equal(a.evmBalance?.amount, (await rpc(tip)).toString());
    assert.notEqual((await rpc(devnet.height())).toString(), (await rpc(tip)).toString());
    assert.equal(a.balances?.find((c) => c.denom === 'atest')?.amount, (await rpc(tip)).toString());
    assert.match(renderLookup(r), new RegExp(`- state read at: block \`${tip}\` \\(the latest, read once`));
  });
});

describe('explorer: the account page against a hostile validator and token', () => {
  it('a moniker or a token name with direction overrides is shown without them; a "validator" that is no address is not asked about', async () => {
    forgetContext();
    const good = bech32Encode('cosmosvaloper', Buffer.alloc(20, 9));
    const hostile = 'x?pagination.limit=1&../../bank';
    const asked: string[] = [];
    const src: ExplorerSource = {
      provider: 'hostile validators',
      has: { rest: true, comet: false, evm: false },
      rest: async (path) => {
        asked.push(path);
        if (path.startsWith('/cosmos/staking/v1beta1/validators/'))
          return { validator: { description: { moniker: `\u202Egnp.exe\u2066 <b>${'m'.repeat(100)}\u200F\u061C` } } };
        if (path.includes('/staking/v1beta1/delegations/'))
          return {
            delegation_responses: [good, hostile].map((v) => ({ delegation: { validator_address: v, shares: '1' }, balance: { denom: 'atest', amount: '1' } })),
            pagination: {},
          };
        throw new Error('HTTP 501 Not Implemented');
      },
      comet: () => Promise.reject(new Error('no CometBFT')),
      evm: () => Promise.reject(new Error('no EVM')),
    };
    const notes: string[] = [];
    const page = await accountPage(src, new ChainContext(src, notes, 'cosmos'), addressForms(Buffer.alloc(20, 0x11), 'cosmos'), '9', notes);
    const [a, b] = page.state.delegations ?? [];
    assert.equal(a.validator, good);
    assert.equal(a.moniker, `gnp.exe <b>${'m'.repeat(70 - 11)}`);
    assert.doesNotMatch(a.moniker ?? '', /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
    assert.equal(b.validator, hostile);
    assert.equal(b.moniker, undefined);
    assert.deepEqual(
      asked.filter((p) => p.startsWith('/cosmos/staking/v1beta1/validators/')),
      [`/cosmos/staking/v1beta1/validators/${good}`],
    );
    // A token's name() with the same characters (ABI string).
    const name = encodeAbiParameters([{ type: 'string' }], ['\u202EDSU\u2069 Coin\u0085']);
    assert.equal(decodeText(name), 'DSU Coin');
  });

  it(`a token pairs answer of 330,000 pairs: the ${TOKEN_PAIRS_PAGE} asked for are read, in well under a second`, async () => {
    const pairs = Array.from({ length: 330_000 }, (_, i) => ({ erc20_address: `0x${i.toString(16).padStart(40, '0')}`, denom: `d${i}` }));
    const src = {
      provider: 'many pairs',
      has: { rest: true, comet: false, evm: true },
      rest: async () => ({ token_pairs: pairs }),
    } as unknown as ExplorerSource;
    const started = Date.now();
    const found = await tokenPairs(src, []);
    assert.equal(found.length, TOKEN_PAIRS_PAGE);
    assert.equal(found[0].source, 'token pair d0');
    assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
  });
});
