// Hostile contract artifacts in the real editor (issue 34, items 4, 10, 11). The in-editor harness
// runs with workspace trust disabled (the workspace is trusted), so the untrusted case is proved by
// the unit tests (test/unit/core/contracts/hostileArtifacts.unit.test.ts); here a trusted workspace holds
// two hostile artifacts: Evil, whose immutable mask covers its whole code (on main it claimed every
// contract of that length) and whose ABI collides with burn(uint256) and carries an event, and
// Impostor, with the token's exact code. A Look Up against a loopback node shows the user's setting
// winning over the code match, Evil refused, its colliding selector and event marked guessed and
// attributed to no contract, the trace frame marked "(guessed)"; Attach Artifact stores an absolute path.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import * as vscode from 'vscode';
import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, parseAbi } from 'viem';
import { ALICE, BOB, TOKEN, TOKEN_ABI, TOKEN_BODY, immutableStart, runtime } from '../unit/core/contracts/fixtures';
import { activateExtension, closeAllEditors, runForDocument, setProviders } from './helpers';

const PROVIDER = 'Hostile artifacts node';
const HASH = `0x${'ef'.repeat(32)}`;
const OTHER = '0x3333333333333333333333333333333333333333';
const IMM = `${'00'.repeat(30)}1234`;
const TOKEN_CODE = runtime(TOKEN_BODY, IMM, 'ef');
/** The token's code without its metadata: the length Evil claims. */
const L = immutableStart(TOKEN_BODY) + 32 + 15;
const EVIL_ABI = parseAbi(['function collate_propagate_storage(bytes16 x)', 'event Deposited(address indexed account, uint256 amount)']);
const BURN = encodeFunctionData({ abi: parseAbi(['function burn(uint256 amount)']), args: [5n] });

function answer(method: string, params: unknown[]): unknown {
  const transfer = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [BOB, 1n] });
  switch (method) {
    case 'eth_getCode':
      return String(params[0]).toLowerCase() === TOKEN ? TOKEN_CODE : String(params[0]).toLowerCase() === OTHER ? `0x${'aa'.repeat(L)}` : '0x';
    case 'eth_getTransactionByHash':
      return params[0] === HASH
        ? { hash: HASH, from: ALICE, to: OTHER, value: '0x0', input: BURN, nonce: '0x1', gas: '0x2dc6c0', blockNumber: '0x5', type: '0x2' }
        : null;
    case 'eth_getTransactionReceipt':
      return {
        status: '0x1',
        gasUsed: '0x5208',
        logs: [
          {
            address: OTHER,
            logIndex: '0x0',
            topics: encodeEventTopics({ abi: TOKEN_ABI, eventName: 'Transfer', args: { from: ALICE as `0x${string}`, to: BOB } }),
            data: encodeAbiParameters([{ type: 'uint256' }], [7n]),
          },
          {
            address: OTHER,
            logIndex: '0x1',
            topics: encodeEventTopics({ abi: EVIL_ABI, eventName: 'Deposited', args: { account: ALICE as `0x${string}` } }),
            data: encodeAbiParameters([{ type: 'uint256' }], [9n]),
          },
        ],
      };
    case 'debug_traceTransaction':
      return {
        type: 'CALL',
        from: ALICE,
        to: OTHER,
        input: BURN,
        output: '0x',
        gasUsed: '0x5208',
        value: '0x0',
        calls: [
          { type: 'CALL', from: OTHER, to: TOKEN, input: transfer, output: encodeAbiParameters([{ type: 'bool' }], [true]), gasUsed: '0x100', value: '0x0' },
        ],
      };
    default:
      return null;
  }
}

describe('Hostile artifacts: masks, settings and guesses in the editor', function () {
  this.timeout(90_000);
  let server: http.Server;
  const folder = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'workspace', 'hostile-artifacts');
  const write = (rel: string, data: unknown) => {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), JSON.stringify(data));
  };
  const contracts = () => vscode.workspace.getConfiguration('chainEndpoints');

  before(async () => {
    write('out/Evil.sol/Evil.json', {
      abi: EVIL_ABI,
      deployedBytecode: { object: `0x${'fe'.repeat(L)}`, immutableReferences: { '1': [{ start: 0, length: L }] }, linkReferences: {} },
    });
    write('out/Impostor.sol/Impostor.json', {
      abi: TOKEN_ABI,
      deployedBytecode: { object: runtime(TOKEN_BODY, undefined, 'ab'), immutableReferences: { '7': [{ start: immutableStart(TOKEN_BODY), length: 32 }] } },
    });
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const m = JSON.parse(body) as { id: number; method: string; params: unknown[] };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: answer(m.method, m.params) }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    await setProviders([{ name: PROVIDER, evmRpc: `http://127.0.0.1:${(server.address() as { port: number }).port}` }]);
    await activateExtension();
    // The user's own entry for the token (the setting change also makes the registry list the new artifacts).
    await contracts().update('contracts', [{ address: TOKEN, abi: [...TOKEN_ABI], name: 'MyToken' }], vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await closeAllEditors();
    server.close();
    fs.rmSync(folder, { recursive: true, force: true });
    await contracts().update('contracts', undefined, vscode.ConfigurationTarget.Global);
  });

  it("Look Up: Evil claims nothing, the user's MyToken beats the Impostor's code match, guesses are marked and name no contract", async () => {
    // The artifacts may be listed before the copy is visible: look up again until Evil's refusal is noted (20 s at most).
    const deadline = Date.now() + 20_000;
    let doc = await runForDocument('chainEndpoints.lookUp', { provider: PROVIDER, query: HASH });
    while (!/Evil\.json.*not plausible/.test(doc.text) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      await contracts().update('contracts', [{ address: TOKEN, abi: [...TOKEN_ABI], name: 'MyToken' }], vscode.ConfigurationTarget.Global);
      doc = await runForDocument('chainEndpoints.lookUp', { provider: PROVIDER, query: HASH });
    }
    const text = doc.text;
    assert.match(text, /Evil\.json.*not plausible/, text);
    assert.doesNotMatch(text, /- contract: Evil/);
    // The colliding selector: the table's burn(uint256), marked guessed; Evil's function is not shown.
    assert.match(text, /- call: `burn\(uint256\)` · `guessed from its selector \(bundled table/);
    assert.doesNotMatch(text, /collate_propagate_storage/);
    // An ERC-20 Transfer from an address no artifact matched: the standard, not a workspace contract.
    assert.match(text, /log 0: `0x3333333333333333333333333333333333333333` \(ERC-20\) event Transfer/);
    // An event only Evil has: decoded, guessed, and not attributed to Evil.
    assert.match(
      text,
      /log 1: `0x3333333333333333333333333333333333333333` event Deposited\(.*guessed from its selector \(workspace artifact [^)]*Evil\.json\)/,
    );
    // The trace: the guessed frame is marked, and the token is the user's MyToken, not the Impostor.
    assert.match(text, /burn\(amount=`5`\) \(guessed\)/);
    assert.match(text, /MyToken `0x1111111111111111111111111111111111111111` transfer\(/);
    assert.doesNotMatch(text, /Impostor `0x1111/);
  });

  it('Attach Artifact writes the absolute path of the artifact into user settings', async () => {
    const address = '0x4444444444444444444444444444444444444444';
    const ok = await vscode.commands.executeCommand('chainEndpoints.contracts.attach', {
      address,
      artifact: 'hostile-artifacts/out/Impostor.sol/Impostor.json',
    });
    assert.equal(ok, true);
    const entries = contracts().inspect<Array<{ address: string; abi: string; name: string }>>('contracts')?.globalValue ?? [];
    const e = entries.find((x) => x.address === address);
    assert.ok(e, JSON.stringify(entries));
    assert.ok(path.isAbsolute(e.abi), e.abi);
    assert.equal(fs.realpathSync(e.abi), fs.realpathSync(path.join(folder, 'out/Impostor.sol/Impostor.json')));
    assert.equal(e.name, 'Impostor');
  });
});
