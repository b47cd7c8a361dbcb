// The address hover (src/ui/explorer/addressHover.ts) through the vscode stub, on the devnet: the
// balances line (bank and EVM, checked against what the node answers) and the link to the account
// page; nothing sent when `chainEndpoints.hovers.addressBalances` is off or the workspace is not
// trusted (the link still offered); another chain's address and a word that is no address give no
// hover; answers kept 30 s; and a provider's hostile denom shown as text, never as a link.
import { vscodeStub, CancellationTokenSource, type Hover } from '../../helpers/vscodeStub'; // first: answers require('vscode')
import * as assert from 'node:assert/strict';
import { bech32Encode } from '../../../../src/core/chain/validate';
import { forgetContext } from '../../../../src/core/explorer/context';
import { displayAmount } from '../../../../src/core/explorer/decodeEvm';
import { HttpClient } from '../../../../src/core/transport/http';
import { addressHover, forgetAddressHovers } from '../../../../src/ui/explorer/addressHover';
import { type Devnet, startDevnet } from '../../../devnet/devnet';
import { type TestDeps, commandDeps } from '../../helpers/commandDeps';
import { type TestServer, startServer } from '../../helpers/httpServer';

interface Pos {
  readonly line: number;
  readonly character: number;
}

/** A one-line document: what the hover reads of a TextDocument (the word's range and its text). */
function document(text: string) {
  return {
    getWordRangeAtPosition(position: Pos, pattern: RegExp) {
      const re = new RegExp(pattern.source, 'g');
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (position.character >= m.index && position.character <= m.index + m[0].length) {
          return { start: { line: 0, character: m.index }, end: { line: 0, character: m.index + m[0].length } };
        }
      }
      return undefined;
    },
    getText(range: { start: Pos; end: Pos }) {
      return text.slice(range.start.character, range.end.character);
    },
  };
}

describe('ui/explorer/addressHover: the balances of an address under the pointer (devnet)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let http: HttpClient;
  let t: TestDeps;
  const entry = () => {
    const u = devnet.providers[0];
    return { name: 'alpha', evmRpc: u.evmRpc, rest: u.rest, consensusHttp: u.consensusHttp };
  };
  const sent = () => devnet.lastRequests(devnet.providers[0].name).length;
  const hoverOver = async (text: string, at = 12): Promise<Hover | undefined> => {
    const source = new CancellationTokenSource();
    return (await addressHover(t.deps, document(text) as never, { line: 0, character: at } as never, source.token as never)) as unknown as Hover | undefined;
  };
  const markdown = (h: Hover | undefined) => {
    assert.ok(h, 'a hover');
    assert.equal(h.contents.length, 1);
    return h.contents[0];
  };
  const rpc = async (method: string, params: unknown[]) =>
    (
      (await (
        await fetch(devnet.providers[0].evmRpc, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        })
      ).json()) as { result: string }
    ).result;

  before(async () => {
    devnet = await startDevnet({ realTxs: true, blockIntervalMs: 0, providers: [{ name: 'hover node' }] });
    devnet.produceBlock();
    devnet.produceBlock();
    http = new HttpClient();
  });
  after(async () => {
    await http.close();
    await devnet.stop();
  });
  beforeEach(() => {
    forgetContext();
    forgetAddressHovers();
    vscodeStub.reset({ user: { providers: [entry()] } });
    t = commandDeps(http);
  });
  afterEach(() => t.dispose());

  it("an account's bech32 form: bank and EVM balances in one line (as the node answers them) and the link to its page", async () => {
    const dave = devnet.chain.ledger.keys[3];
    const account = bech32Encode('cosmos', dave.address);
    const before = sent();
    const md = markdown(await hoverOver(`send to ${account} later`));
    assert.equal(sent() - before, 2, 'two requests: the bank balances and eth_getBalance');
    const wei = BigInt(await rpc('eth_getBalance', [dave.hex, 'latest']));
    const bank = (await (await fetch(`${devnet.providers[0].rest}/cosmos/bank/v1beta1/balances/${account}`)).json()) as { balances: Array<{ amount: string }> };
    assert.equal(BigInt(bank.balances[0].amount), wei, 'the devnet agrees with itself (no block in between)');
    const first = md.value.split('  \n')[0];
    // Escaped for Markdown (`.` → `\.`): read back without the escapes.
    // Escaped for Markdown (`.` → `\.`): read back without the escapes.
    assert.equal(first.replace(/\\(.)/g, '$1'), `alpha · bank: ${bank.balances[0].amount} atest · EVM: ${displayAmount(wei, 18)}`);
    const link = /\[\$\(account\) Open the account page\]\((command:chainEndpoints\.lookUp\?[^)]+)\)$/.exec(md.value);
    assert.ok(link, md.value);
    assert.deepEqual(JSON.parse(decodeURIComponent(link[1].slice('command:chainEndpoints.lookUp?'.length))), [{ provider: 'alpha', query: account }]);
    assert.deepEqual(md.isTrusted, { enabledCommands: ['chainEndpoints.lookUp'] }, 'only the Look Up command may run from the hover');
    assert.equal(md.supportThemeIcons, true);
  });

  it('the 0x form of the same bytes: the same balances; a second hover within 30 s sends nothing', async () => {
    const dave = devnet.chain.ledger.keys[3];
    const before = sent();
    const h = await hoverOver(`x = "${dave.hex}"`, 8);
    assert.ok(h?.range, 'the range of the address');
    assert.equal(sent() - before, 2);
    const again = markdown(await hoverOver(`y = "${dave.hex.toUpperCase().replace('0X', '0x')}"`, 8));
    assert.equal(sent() - before, 2, 'the kept answer');
    assert.match(again.value, /^alpha · bank\\: [0-9]+ atest · EVM\\: /);
  });

  it('setting off, or an untrusted workspace: nothing sent, the link still offered', async () => {
    const alice = devnet.chain.ledger.keys[0];
    vscodeStub.configure({ user: { 'hovers.addressBalances': false } });
    let before = sent();
    let md = markdown(await hoverOver(`a ${alice.hex}`, 4));
    assert.equal(sent(), before, 'the setting is off');
    assert.match(md.value, /^\[\$\(account\) Open the account page\]\(command:chainEndpoints\.lookUp\?/);

    vscodeStub.reset({ user: { providers: [entry()] } });
    vscodeStub.trusted = false;
    before = sent();
    md = markdown(await hoverOver(`a ${alice.hex}`, 4));
    assert.equal(sent(), before, 'an untrusted folder makes no request');
    assert.doesNotMatch(md.value, /bank:/);
    assert.match(md.value, /Open the account page/);
  });

  it("no hover: a word that is no address, a bad checksum, another chain's prefix", async () => {
    const alice = devnet.chain.ledger.keys[0];
    const before = sent();
    assert.equal(await hoverOver('nothing here at all, friends'), undefined);
    const good = bech32Encode('cosmos', alice.address);
    const bad = `${good.slice(0, -1)}${good.endsWith('q') ? 'p' : 'q'}`;
    assert.equal(await hoverOver(`to ${bad} x`, 6), undefined, 'a bech32 checksum that fails');
    assert.equal(await hoverOver(`to ${bech32Encode('osmo', alice.address)} x`, 6), undefined, "another chain's account");
    assert.equal(sent(), before);
  });

  it('no provider with REST or an EVM RPC: no hover, nothing sent', async () => {
    vscodeStub.reset({ user: { providers: [{ name: 'comet only', consensusHttp: devnet.providers[0].consensusHttp }] } });
    const before = sent();
    assert.equal(await hoverOver(`a ${devnet.chain.ledger.keys[0].hex}`, 4), undefined);
    assert.equal(sent(), before);
  });
});

describe('ui/explorer/addressHover: a hostile provider', function () {
  this.timeout(20_000);
  /** The bank answer (undefined: a denom that is Markdown). */
  let bank: unknown;
  let server: TestServer;
  let http: HttpClient;
  let t: TestDeps;
  before(async () => {
    // A denom and an error text that are Markdown: a link to a command, an image, HTML.
    server = await startServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url.startsWith('/cosmos/bank/v1beta1/balances/')) {
        res.end(
          JSON.stringify(bank ?? { balances: [{ denom: '[run](command:workbench.action.terminal.new) ![x](http://evil/x.png) <b>hi</b>', amount: '7' }] }),
        );
      } else res.end(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(req.body || '{}').id ?? 1, error: { code: -32000, message: '[click](http://evil)' } }));
    });
    http = new HttpClient();
  });
  after(async () => {
    await http.close();
    await server.close();
  });
  beforeEach(() => {
    bank = undefined;
    forgetAddressHovers();
    vscodeStub.reset({ user: { providers: [{ name: 'evil', rest: server.url, evmRpc: server.url }] } });
    t = commandDeps(http);
  });
  afterEach(() => t.dispose());

  it("server text is escaped: the only link is the page's", async () => {
    const source = new CancellationTokenSource();
    const hex = `0x${'12'.repeat(20)}`;
    const h = (await addressHover(t.deps, document(`a ${hex}`) as never, { line: 0, character: 4 } as never, source.token as never)) as unknown as
      Hover | undefined;
    assert.ok(h);
    const md = h.contents[0].value;
    assert.match(md, /^evil · bank\\: 7 /);
    assert.match(md, / · EVM\\: JSON\\-RPC error \\-32000 /);
    // Every bracket, parenthesis and angle bracket of server text is escaped: no link, image or tag.
    assert.equal((md.match(/(?<!\\)\]\(/g) ?? []).length, 1, md);
    assert.doesNotMatch(md, /(?<!\\)<b>/);
    assert.ok(md.includes('\\[run\\]\\(command'), md);
    assert.equal(server.requests.length, 2);
  });

  it('a bank answer that is no list, or holds no coin: a sentence, never a JavaScript error or "none"; more than the five asked is said', async () => {
    const line = async (answer: unknown) => {
      bank = answer;
      forgetAddressHovers();
      const source = new CancellationTokenSource();
      const h = (await addressHover(
        t.deps,
        document(`a 0x${'34'.repeat(20)}`) as never,
        { line: 0, character: 4 } as never,
        source.token as never,
      )) as unknown as Hover | undefined;
      assert.ok(h);
      return h.contents[0].value.split('  \n')[0].replace(/\\(.)/g, '$1');
    };
    assert.match(await line({ balances: 'many' }), /^evil · bank: the answer has no balances list · EVM: /);
    assert.match(await line({}), /^evil · bank: the answer has no balances list · EVM: /);
    assert.match(await line({ balances: [null, 7, { denom: 'atest', amount: '3' }] }), /^evil · bank: 3 atest · EVM: /);
    assert.match(await line({ balances: [null, { denom: {}, amount: 3 }] }), /^evil · bank: no coin in the answer reads as one · EVM: /);
    assert.match(
      await line({ balances: Array.from({ length: 1000 }, (_, i) => ({ denom: `d${i}`, amount: '1' })) }),
      /^evil · bank: 1 d0, 1 d1, 1 d2, 1 d3, 1 d4, … · EVM: /,
    );
    assert.match(await line({ balances: [{ denom: 'atest', amount: '3' }], pagination: { next_key: 'QQ==' } }), /^evil · bank: 3 atest, … · EVM: /);
  });
});
