import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describeRequest } from '../../../../src/core/chain/execute';
import { manifestCommands } from '../../../../src/core/chain/manifest';
import { OPERATION_ALIASES, OPERATION_IDS } from '../../../../src/core/chain/operationIds';
import { OPERATIONS, findOperation, validateArgs } from '../../../../src/core/chain/operations';
import { type Provider } from '../../../../src/core/config/providers';
import { toShellCommand } from '../../../../src/core/documents/curl';
import { setProxy } from '../../../../src/core/transport/proxy';
import { getAddress } from 'viem';
import { REPO_ROOT } from '../../helpers/repoRoot';

const provider: Provider = {
  name: 'P',
  endpoints: {
    evmRpc: 'https://evm.example.org/',
    consensusHttp: 'https://rpc.example.org/prefix/',
    consensusRpc: 'https://rpc.example.org/prefix/',
    consensusWs: 'wss://rpc.example.org/websocket',
    rest: 'https://rest.example.org/rest/',
  },
};
const op = (id: string) => findOperation(id)!;

describe('operations: the documented wire forms', () => {
  it('evm.blockNumber posts the exact eth_blockNumber body', () => {
    const r = describeRequest(provider, op('evm.blockNumber'), {}, 7);
    assert.equal(r.method, 'POST');
    assert.equal(r.url, 'https://evm.example.org/');
    assert.equal(r.body, '{"jsonrpc":"2.0","method":"eth_blockNumber","params":[],"id":7}');
  });

  it('consensus.genesis is GET {consensusHttp}/genesis', () => {
    const r = describeRequest(provider, op('chainEndpoints.consensus.genesis'), {});
    assert.deepEqual([r.method, r.url], ['GET', 'https://rpc.example.org/prefix/genesis']);
  });

  it('consensus.block posts the height as a decimal string', () => {
    const r = describeRequest(provider, op('consensus.block'), { height: ' 0042 ' }, 3);
    assert.equal(r.url, 'https://rpc.example.org/prefix/');
    assert.equal(r.body, '{"jsonrpc":"2.0","method":"block","params":["42"],"id":3}');
  });

  it('consensus.block refuses bad heights before sending anything', () => {
    for (const h of ['', '0', '-1', '1.5', 'abc', '9223372036854775808']) {
      assert.throws(
        () => describeRequest(provider, op('consensus.block'), { height: h }),
        (e: Error) => /height|int64/i.test(e.message),
        h,
      );
    }
    assert.match(describeRequest(provider, op('consensus.block'), { height: '9223372036854775807' }).body!, /"9223372036854775807"/);
  });

  it('rest.latestBlock keeps the base path prefix and never doubles a slash', () => {
    const r = describeRequest(provider, op('rest.latestBlock'), {});
    assert.equal(r.url, 'https://rest.example.org/rest/cosmos/base/tendermint/v1beta1/blocks/latest');
  });

  it('the other requests', () => {
    const hash = 'ab'.repeat(32);
    const d = (id: string, args = {}) => describeRequest(provider, op(id), args, 1);
    assert.equal(d('evm.getBlockByNumber').body, '{"jsonrpc":"2.0","method":"eth_getBlockByNumber","params":["latest",false],"id":1}');
    assert.match(d('evm.getBlockByNumber', { height: '255' }).body!, /"params":\["0xff",false\]/);
    assert.match(d('evm.getBlockByNumber', { height: '255', full: 'true' }).body!, /"params":\["0xff",true\]/);
    assert.match(d('evm.getBalance', { address: '0x' + '1'.repeat(40) }).body!, /"params":\["0x1{40}","latest"\]/);
    assert.equal(d('consensusHttp.block', { height: '5' }).url, 'https://rpc.example.org/prefix/block?height=5');
    assert.equal(d('consensusHttp.validators').url, 'https://rpc.example.org/prefix/validators');
    assert.equal(d('consensusHttp.tx', { hash }).url, `https://rpc.example.org/prefix/tx?hash=0x${hash.toUpperCase()}`);
    assert.equal(
      d('consensusRpc.broadcastTxSync', { tx: '0x6b65793d76616c7565' }).body,
      '{"jsonrpc":"2.0","method":"broadcast_tx_sync","params":{"tx":"a2V5PXZhbHVl"},"id":1}',
    );
    assert.equal(d('consensusRpc.validators', { height: '9' }).body, '{"jsonrpc":"2.0","method":"validators","params":{"height":"9"},"id":1}');
    const b = d('rest.broadcast', { tx: 'a2V5PXZhbHVl' });
    assert.equal(b.url, 'https://rest.example.org/rest/cosmos/tx/v1beta1/txs');
    assert.deepEqual(JSON.parse(b.body!), { tx_bytes: 'a2V5PXZhbHVl', mode: 'BROADCAST_MODE_SYNC' });
    assert.equal(
      d('rest.custom', { path: '/cosmos/bank/v1beta1/supply?pagination.limit=5' }).url,
      'https://rest.example.org/rest/cosmos/bank/v1beta1/supply?pagination.limit=5',
    );
    assert.equal(d('consensusHttp.custom', { path: 'abci_info' }).url, 'https://rpc.example.org/prefix/abci_info');
    assert.equal(
      d('evm.custom', { method: 'eth_getLogs', params: '[{"fromBlock":"0x1"}]' }).body,
      '{"jsonrpc":"2.0","method":"eth_getLogs","params":[{"fromBlock":"0x1"}],"id":1}',
    );
    const ws = d('consensusWs.subscribeNewBlocks');
    assert.equal(ws.method, 'WS');
    assert.equal(ws.body, `{"jsonrpc":"2.0","method":"subscribe","params":{"query":"tm.event='NewBlockHeader'"},"id":1}`);
  });

  it('a provider without the interface gives a clear error', () => {
    assert.throws(() => describeRequest({ name: 'Q', endpoints: { rest: 'https://r' } }, op('evm.blockNumber'), {}), /Q" has no EVM RPC address/);
  });

  it('every operation has a unique id and every required param a validator', () => {
    assert.equal(new Set(OPERATIONS.map((o) => o.id)).size, OPERATIONS.length);
    for (const o of OPERATIONS) {
      for (const p of o.params) {
        if (!p.optional) assert.ok(validateArgs(o, {}), `${o.id} should require ${p.key}`);
      }
    }
  });
});

describe('operations: ids named by interface', () => {
  it('consensusRpc.block and consensusHttp.genesis are the same operations as consensus.block and consensus.genesis (both names work)', () => {
    assert.equal(findOperation('consensusRpc.block'), findOperation('consensus.block'));
    assert.equal(findOperation('chainEndpoints.consensusRpc.block')?.iface, 'consensusRpc');
    assert.equal(findOperation('consensusHttp.genesis'), findOperation('consensus.genesis'));
    assert.equal(findOperation('consensusHttp.genesis')?.iface, 'consensusHttp');
    assert.equal(findOperation('constructor'), undefined);
    for (const [alias, target] of Object.entries(OPERATION_ALIASES)) assert.ok(findOperation(target), `${alias} points at ${target}, which exists`);
  });
});

describe('operations: package.json agrees with the catalogue', () => {
  it("activation registers a command for exactly the catalogue's operations (src/core/chain/operationIds.ts)", () => {
    assert.deepEqual(
      [...OPERATION_IDS],
      OPERATIONS.map((op) => op.id),
      'run node scripts/sync-manifest.mjs after changing the catalogue',
    );
  });
  it('declares every operation command with its title and category', () => {
    const root = REPO_ROOT;
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const nls = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8'));
    const english = (v: string) => (/^%.+%$/.test(v) ? nls[v.slice(1, -1)] : v);
    const declared = new Map<string, { title: string; category: string }>(pkg.contributes.commands.map((c: { command: string }) => [c.command, c]));
    for (const c of manifestCommands()) {
      const d = declared.get(c.command);
      assert.ok(d, `${c.command} missing from package.json: run node scripts/sync-manifest.mjs`);
      assert.equal(english(d!.title), c.title);
      assert.equal(english(d!.category), 'Chain Endpoints');
    }
    // Every %key% in the manifest has its English text.
    const keys = JSON.stringify(pkg).match(/"%[A-Za-z0-9_.-]+%"/g) ?? [];
    for (const k of keys) assert.ok(nls[k.slice(2, -2)] !== undefined, `package.nls.json lacks ${k}`);
    for (const id of [
      'chainEndpoints.evm.blockNumber',
      'chainEndpoints.consensus.genesis',
      'chainEndpoints.consensus.block',
      'chainEndpoints.rest.latestBlock',
    ]) {
      assert.ok(declared.has(id), id);
    }
  });
});

describe('copy as curl', () => {
  it('quotes the body for the shell and masks credentials', () => {
    const p: Provider = { name: 'K', endpoints: { consensusRpc: 'https://u:pw@rpc.example.org/' } };
    const line = toShellCommand(describeRequest(p, op('consensusRpc.custom'), { method: 'abci_query', params: `{"path":"it's"}` }));
    assert.equal(
      line,
      `curl -sS -X POST 'https://***:***@rpc.example.org/' -H 'Content-Type: application/json' --data-raw '{"jsonrpc":"2.0","method":"abci_query","params":{"path":"it'"'"'s"},"id":1}'`,
    );
    assert.ok(!line.includes('pw'));
  });
  it('goes through the proxy the extension uses, or says no proxy where the extension goes directly', () => {
    const p: Provider = {
      name: 'K',
      endpoints: { consensusRpc: 'https://rpc.example.org/', consensusHttp: 'http://127.0.0.1:26657', rest: 'https://lcd.internal.test' },
    };
    try {
      setProxy({ url: 'http://user:secret@proxy.corp:3128', noProxy: ['internal.test'], strictSSL: false });
      const proxied = toShellCommand(describeRequest(p, op('consensusRpc.status'), {}));
      assert.match(proxied, /^curl -sS -x 'http:\/\/\*\*\*:\*\*\*@proxy\.corp:3128\/?' -k -X POST 'https:\/\/rpc\.example\.org\/'/);
      assert.ok(!proxied.includes('secret'));
      assert.match(toShellCommand(describeRequest(p, op('consensusRpc.status'), {}), {}, { reveal: true }), /-x 'http:\/\/user:secret@proxy\.corp:3128\/?'/);
      assert.match(toShellCommand(describeRequest(p, op('consensusHttp.status'), {})), /^curl -sS --noproxy '\*' 'http:\/\/127\.0\.0\.1:26657\/status'$/);
      assert.match(toShellCommand(describeRequest(p, op('rest.nodeInfo'), {})), /^curl -sS --noproxy '\*' 'https:\/\/lcd\.internal\.test\//);
      setProxy({ url: 'http://proxy.corp:3128', noProxy: [], strictSSL: true });
      assert.match(toShellCommand(describeRequest(p, op('consensusRpc.status'), {})), /^curl -sS -x 'http:\/\/proxy\.corp:3128\/?' -X POST /);
    } finally {
      setProxy({ noProxy: [], strictSSL: true });
    }
    assert.match(toShellCommand(describeRequest(p, op('consensusRpc.status'), {})), /^curl -sS -X POST /);
  });
  it('websocat for the socket', () => {
    const line = toShellCommand(describeRequest(provider, op('consensusWs.subscribeNewBlocks'), {}));
    assert.match(line, /^printf '%s\\n' '.*subscribe.*' \| websocat -n 'wss:\/\/rpc\.example\.org\/websocket'$/);
  });
});

describe('operations: evm.callContract builds and decodes', () => {
  const a = { address: '0x' + 'ab'.repeat(20), function: 'balanceOf(address)(uint256)', args: '0x' + '22'.repeat(20) };

  it('sends the address checksummed, and refuses a mixed-case address whose checksum is wrong', () => {
    const sent = JSON.parse(describeRequest(provider, op('evm.callContract'), a).body!) as { params: [{ to: string }] };
    const right = getAddress(a.address);
    assert.equal(sent.params[0].to, right);
    // The checksum with its first letter's case flipped: mixed case, and wrong.
    const k = right.slice(2).search(/[a-fA-F]/) + 2;
    const wrong = right.slice(0, k) + (right[k] === right[k].toLowerCase() ? right[k].toUpperCase() : right[k].toLowerCase()) + right.slice(k + 1);
    assert.throws(() => op('evm.callContract').build({ ...a, address: wrong }), /checksum/);
    assert.doesNotThrow(() => op('evm.callContract').build({ ...a, address: right }));
  });

  it('decodes the outputs; an answer too short for them (an address without code: 0x) is kept as received', () => {
    const decode = op('evm.callContract').decodeResult!;
    assert.equal(decode('0x' + '0'.repeat(62) + '2a', a), '42');
    assert.equal(decode('0x', a), '0x');
    assert.equal(decode('0x' + '0'.repeat(62), a), '0x' + '0'.repeat(62));
  });
});
