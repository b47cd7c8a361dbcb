import * as assert from 'node:assert/strict';
import { LocalizedError } from '../../../../src/core/base/errors';
import { accountPrefixOf, addressForms, bytesOf, prefixFromChainId } from '../../../../src/core/explorer/addresses';
import { identify } from '../../../../src/core/explorer/identify';
import { hoverAt, scanLinks } from '../../../../src/core/explorer/links';

const VALIDATOR = 'cosmos10jmp6sgh4cc6zt3e8gw05wavvejgr5pwsjskvv';
const VALOPER = 'cosmosvaloper10jmp6sgh4cc6zt3e8gw05wavvejgr5pw4xyrql';

function refused(input: string, pattern: RegExp): void {
  assert.throws(
    () => identify(input),
    (err: unknown) => err instanceof LocalizedError && pattern.test(err.message),
    input,
  );
}

describe('explorer: identify a query', () => {
  it('heights, bounded', () => {
    assert.deepEqual(identify(' 42 '), { kind: 'height', height: '42' });
    assert.deepEqual(identify('0007'), { kind: 'height', height: '7' });
    assert.equal((identify('9223372036854775807') as { height: string }).height, '9223372036854775807');
    refused('9223372036854775808', /largest block height/);
    refused('99999999999999999999999999999999', /largest block height/);
    refused('0', /start at 1/);
  });

  it('a page of a large block: HEIGHT page N, N from 1', () => {
    assert.deepEqual(identify('42 page 3'), { kind: 'height', height: '42', page: 3 });
    assert.deepEqual(identify(' 42  PAGE 1 '), { kind: 'height', height: '42', page: 1 });
    refused('42 page 0', /numbered from 1/);
    refused('42 page 99999999', /numbered from 1/);
    refused('0 page 2', /start at 1/);
    refused('42 page x', /not a block height/);
  });

  it('hashes: 0x is EVM (or a block), 64 hex in any case is Cosmos (or a CometBFT block)', () => {
    const h = 'AB'.repeat(32);
    assert.deepEqual(identify(`0x${h}`), { kind: 'evmHash', hash: `0x${h.toLowerCase()}` });
    assert.deepEqual(identify(h.toLowerCase()), { kind: 'cosmosHash', hash: h });
    refused(`0x${h}0`, /65 hex digits/);
    refused('abc', /3 hex digits/);
    refused('xyz', /not a block height/);
  });

  it('EVM addresses: EIP-55 checksum verified when mixed case', () => {
    const good = '0xC6Fe5D33615a1C52c08018c47E8Bc53646A0E101';
    const q = identify(good);
    assert.equal(q.kind, 'address');
    assert.equal(identify(good.toLowerCase()).kind, 'address');
    assert.equal(identify(`0x${good.slice(2).toUpperCase()}`).kind, 'address');
    refused(good.replace('C6Fe', 'c6Fe'), /EIP-55 checksum/);
  });

  it('bech32 addresses: checksum verified, role from the prefix', () => {
    const a = identify(VALIDATOR);
    assert.equal(a.kind === 'address' && a.role, 'account');
    const v = identify(VALOPER);
    assert.equal(v.kind === 'address' && v.role, 'valoper');
    assert.equal(v.kind === 'address' && v.prefix, 'cosmosvaloper');
    refused(VALIDATOR.slice(0, -1) + (VALIDATOR.endsWith('v') ? 'w' : 'v'), /checksum mismatch/);
    refused('Cosmos10jmp6sgh4cc6zt3e8gw05wavvejgr5pwsjskvv', /mixed case/);
    refused('cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8b', /not a valid bech32/);
    refused('cosmos1' + 'x'.repeat(300), /too long/);
  });

  it('hostile input: nothing but a sentence', () => {
    for (const input of ['', '   ', '\u0000\u0001', '0x', 'SGVsbG8gd29ybGQ=', '💥'.repeat(10), '1'.repeat(200), '-5', '1e9', '0x' + 'g'.repeat(64)]) {
      assert.throws(() => identify(input), LocalizedError, JSON.stringify(input));
    }
  });
});

describe('explorer: address forms', () => {
  it('bytesOf: 0x or bech32 (checksum verified) into the same bytes; anything else undefined', () => {
    const bytes = bytesOf(VALIDATOR);
    assert.equal(bytes?.length, 20);
    assert.deepEqual(bytesOf(addressForms(bytes!, 'cosmos').hex!), bytes);
    assert.equal(bytesOf(`${VALIDATOR.slice(0, -1)}x`), undefined);
    assert.equal(bytesOf('0x1234'), undefined);
    assert.equal(bytesOf('hello'), undefined);
  });

  it('the same 20 bytes as bech32 (account, operator, consensus) and 0x checksummed', () => {
    const q = identify(VALIDATOR);
    assert.equal(q.kind, 'address');
    if (q.kind !== 'address') return;
    const f = addressForms(q.bytes, 'cosmos');
    assert.equal(f.account, VALIDATOR);
    assert.equal(f.valoper, VALOPER);
    assert.match(f.hex!, /^0x[0-9a-fA-F]{40}$/);
    const back = identify(f.hex!);
    assert.deepEqual(back.kind === 'address' && [...back.bytes], [...q.bytes]);
    assert.match(addressForms(q.bytes, 'cosmos', 'valcons').valcons!, /^cosmosvalcons1/);
  });

  it('the prefix: from a typed role prefix, or the chain id, else cosmos', () => {
    assert.equal(accountPrefixOf('evmosvaloper'), 'evmos');
    assert.equal(accountPrefixOf('cosmosvalcons'), 'cosmos');
    assert.equal(prefixFromChainId('evmos_9001-2'), 'evmos');
    assert.equal(prefixFromChainId('chain-endpoints-evmd-1'), 'cosmos');
    assert.equal(prefixFromChainId(undefined), 'cosmos');
  });
});

describe('explorer: links and hovers in document text', () => {
  it('finds hashes, addresses and heights with the query each opens', () => {
    const text = [
      `"height": "4", "hash": "${'7F'.repeat(32)}", "proposer_address": "${'6A'.repeat(20)}"`,
      `"from": "${VALIDATOR}", "to": "0xc6fe5d33615a1c52c08018c47e8bc53646a0e101", "number": "0x1f"`,
      `"transactionHash": "0x${'ab'.repeat(32)}", "data": "${'ab'.repeat(40)}", "bad": "${VALIDATOR.slice(0, -1)}x"`,
      '- height: `12`',
    ].join('\n');
    const queries = scanLinks(text).map((l) => l.query);
    assert.deepEqual(queries, [
      '4',
      '7F'.repeat(32),
      '6A'.repeat(20),
      VALIDATOR,
      '0xc6fe5d33615a1c52c08018c47e8bc53646a0e101',
      '31',
      `0x${'ab'.repeat(32)}`,
      '12',
    ]);
    const first = scanLinks(text)[0];
    assert.equal(text.slice(first.start, first.end), '4');
  });

  it('links a page of a block as the explorer writes it, inside its backticks', () => {
    const text = '- pages: transactions 0 to 99 (page 1 of 3, 100 a page) · next `5 page 2` · last `5 page 3` · 7 page 2';
    const links = scanLinks(text);
    assert.deepEqual(
      links.map((l) => l.query),
      ['5 page 2', '5 page 3'],
    );
    assert.equal(text.slice(links[0].start, links[0].end), '5 page 2');
  });

  it('roots and part hashes of a header are not links; block and transaction hashes are', () => {
    const h = 'AB'.repeat(32);
    const text = `"app_hash": "${h}", "data_hash": "${h}", "stateRoot": "0x${h}", - app hash: \`${h}\`, "hash": "${h}", "parentHash": "0x${h}"`;
    assert.deepEqual(
      scanLinks(text).map((l) => l.query),
      [h, `0x${h}`],
    );
  });

  it('caps the links of one call', () => {
    const text = `"height": "5" `.repeat(5000);
    assert.equal(scanLinks(text, 100).length, 100);
  });

  it('hovers: the other address forms, hex in decimal, amounts in display units, times with their age', () => {
    const ctx = {
      prefix: 'cosmos',
      unit: (d: string) => (d === 'atest' ? { display: 'test', exponent: 18 } : undefined),
      now: Date.parse('2026-11-23T19:05:28Z'),
    };
    const line1 = `"to": "0xc6fe5d33615a1c52c08018c47e8bc53646a0e101"`;
    assert.match(hoverAt(line1, 12, ctx)!.lines.join(' '), /account: cosmos1/);
    assert.deepEqual(hoverAt(`"gasUsed": "0x5208"`, 14, ctx)!.lines, ['0x5208 = 21000 (decimal)']);
    assert.deepEqual(hoverAt(`amount=2000000000000000000atest`, 10, ctx)!.lines, ['2 test']);
    assert.deepEqual(hoverAt(`{"denom": "atest", "amount": "1500000000000000000"}`, 33, ctx)!.lines, ['1.5 test']);
    assert.match(hoverAt(`{"denom": "uatom", "amount": "1500000"}`, 33, ctx)!.lines[0], /1\.5 atom \(assuming 6 decimals\)/);
    assert.match(hoverAt(`"time": "2026-11-23T19:03:28.527476419Z"`, 15, ctx)!.lines[0], /\(119 s ago\)/);
    assert.match(hoverAt(VALIDATOR, 5, ctx)!.lines.join(' '), /EVM: 0x/);
    assert.match(hoverAt('6A'.repeat(20), 3, ctx)!.lines[0], /^consensus: cosmosvalcons1/);
    assert.equal(hoverAt('"height": "5"', 2, ctx), undefined);
  });
});
