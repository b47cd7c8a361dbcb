import * as assert from 'node:assert/strict';
import * as v from '../../../../src/core/chain/validate';

describe('validate: heights', () => {
  it('accepts 1 to max int64, trimmed', () => {
    for (const ok of ['1', ' 12 ', '9223372036854775807', '0001']) assert.equal(v.validateHeight(ok), undefined, ok);
    assert.equal(v.normalizeHeight(' 0012 '), '12');
  });
  it('refuses everything else with a sentence that says what to type', () => {
    for (const bad of ['', '  ', '-1', '0', '1.5', 'abc', '9223372036854775808', '1'.repeat(30), '0x10', '1e3', '+5']) {
      const error = v.validateHeight(bad);
      assert.ok(error, `should refuse ${JSON.stringify(bad)}`);
      assert.match(error!, /height|int64/i);
    }
  });
  it('optional heights accept empty as latest', () => {
    assert.equal(v.validateOptionalHeight(''), undefined);
    assert.ok(v.validateOptionalHeight('0'));
  });
});

describe('validate: transactions', () => {
  it('accepts base64 and 0x-hex tx bytes and sends base64', () => {
    assert.equal(v.validateTxBytes('a2V5PXZhbHVl'), undefined);
    assert.equal(v.validateTxBytes('0x6b65793d76616c7565'), undefined);
    assert.equal(v.normalizeTxBytes('0x6b65793d76616c7565'), 'a2V5PXZhbHVl');
    assert.equal(v.normalizeTxBytes(' a2V5PXZhbHVl '), 'a2V5PXZhbHVl');
  });
  it('refuses bad base64, odd-length hex and empty input', () => {
    for (const bad of ['', 'a2V5PXZhbHVl=', 'abc', '0x', '0x123', '0xzz', 'not base64!']) assert.ok(v.validateTxBytes(bad), bad);
  });
  it('EVM raw transactions must be 0x-hex', () => {
    assert.equal(v.validateEvmRawTx('0x02f8'), undefined);
    for (const bad of ['02f8', '0x', '0x2f8', '0xgg']) assert.ok(v.validateEvmRawTx(bad), bad);
  });
  it('hashes', () => {
    const h = 'ab'.repeat(32);
    assert.equal(v.validateEvmTxHash('0x' + h), undefined);
    assert.ok(v.validateEvmTxHash(h));
    assert.equal(v.validateCometTxHash(h), undefined);
    assert.equal(v.validateCometTxHash('0x' + h), undefined);
    assert.equal(v.normalizeCometHash('0x' + h), h.toUpperCase());
    assert.ok(v.validateCometTxHash('ab'));
  });
});

describe('validate: booleans', () => {
  it('true or false, any case', () => {
    assert.equal(v.validateBoolean('true'), undefined);
    assert.equal(v.validateBoolean(' FALSE '), undefined);
    assert.match(v.validateBoolean('yes') ?? '', /true or false/);
  });
});

describe('validate: addresses', () => {
  it('EVM addresses', () => {
    assert.equal(v.validateEvmAddress('0x' + '1'.repeat(40)), undefined);
    assert.ok(v.validateEvmAddress('0x' + '1'.repeat(39)));
    // EIP-55: the right checksum, one case, or refused like Look Up refuses it.
    assert.equal(v.validateEvmAddress('0xC6Fe5D33615a1C52c08018c47E8Bc53646A0E101'), undefined);
    assert.equal(v.validateEvmAddress('0xc6fe5d33615a1c52c08018c47e8bc53646a0e101'), undefined);
    assert.equal(v.validateEvmAddress('0xC6FE5D33615A1C52C08018C47E8BC53646A0E101'), undefined);
    assert.match(v.validateEvmAddress('0xc6Fe5D33615a1C52c08018c47E8Bc53646A0E101') ?? '', /wrong EIP-55 checksum/);
  });
  it('bech32: round trip and checksum', () => {
    const addr = v.bech32Encode('cosmos', new Uint8Array(20).fill(7));
    assert.match(addr, /^cosmos1[a-z0-9]{38}$/);
    assert.equal(v.validateBech32Address(addr), undefined);
    const broken = addr.slice(0, -1) + (addr.endsWith('q') ? 'p' : 'q');
    assert.match(v.validateBech32Address(broken)!, /checksum/);
    assert.match(v.validateBech32Address('cosmos1ABCdef')!, /mixed case|not allowed|too short/);
    assert.ok(v.validateBech32Address('0x1234'));
    // A known-good address from BIP-173's test vectors.
    assert.equal(v.validateBech32Address('a12uel5l'), undefined);
  });
  it('bech32: refuses mixed case, says why, and accepts all upper case', () => {
    const addr = v.bech32Encode('cosmos', new Uint8Array(20).fill(9));
    assert.equal(v.validateBech32Address(addr.toUpperCase()), undefined);
    const mixed = addr.slice(0, 10) + addr.slice(10).toUpperCase();
    assert.match(v.validateBech32Address(mixed)!, /mixed case/);
    assert.equal(v.bech32Decode(mixed), 'mixed case');
  });
  it('bech32: every single-character change fails the checksum', () => {
    const addr = v.bech32Encode('cosmos', new Uint8Array(20).fill(5));
    for (let i = 'cosmos1'.length; i < addr.length; i++) {
      const other = addr[i] === 'q' ? 'p' : 'q';
      const changed = addr.slice(0, i) + other + addr.slice(i + 1);
      assert.equal(v.bech32Decode(changed), 'checksum mismatch', changed);
    }
  });
  it('bech32: the checksum covers the prefix (another prefix on the same data is refused)', () => {
    const addr = v.bech32Encode('cosmos', new Uint8Array(20).fill(11));
    assert.equal(v.bech32Decode(addr.replace(/^cosmos/, 'osmo')), 'checksum mismatch');
    const valoper = v.bech32Encode('cosmosvaloper', new Uint8Array(20).fill(11));
    assert.deepEqual(v.bech32Decode(valoper), v.bech32Decode(valoper.toUpperCase()));
    assert.equal((v.bech32Decode(valoper) as { hrp: string }).hrp, 'cosmosvaloper');
    // Known vector: 20 zero bytes.
    assert.equal(v.bech32Encode('cosmos', new Uint8Array(20)), 'cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a');
  });
  it('bech32: the other reasons, in the order they are checked', () => {
    assert.equal(v.bech32Decode(''), 'empty');
    assert.equal(v.bech32Decode('a'.repeat(91)), 'too long');
    assert.equal(v.bech32Decode('qqqqqqqqq'), 'no human-readable prefix before "1"');
    assert.equal(v.bech32Decode('cosmos1qqqq'), 'too short');
    assert.equal(v.bech32Decode('cosmos1qqqqqqqqb'), 'character "b" is not allowed');
  });
});

describe('validate: custom requests', () => {
  it('params must be a JSON array or object', () => {
    assert.equal(v.validateJsonParams(''), undefined);
    assert.equal(v.validateJsonParams('["latest", false]'), undefined);
    assert.equal(v.validateJsonParams('{"height":"5"}'), undefined);
    assert.match(v.validateJsonParams('[1,')!, /not valid JSON/);
    assert.match(v.validateJsonParams('5')!, /array or object/);
  });
  it('paths are relative, without spaces', () => {
    assert.equal(v.validateGetPath('/status'), undefined);
    assert.equal(v.validateGetPath('cosmos/bank/v1beta1/supply?pagination.limit=5'), undefined);
    assert.ok(v.validateGetPath('https://h/status'));
    assert.ok(v.validateGetPath('/a b'));
    // Dot segments, plain or encoded, would move the request to another route of the host.
    for (const bad of ['/../rpc/broadcast_tx_sync?tx=AA', '/%2e%2e/rpc', '/.%2E/rpc', '\\..\\rpc', '/a/./b', '/a/%252E%252E/b', '..', '.']) {
      assert.match(v.validateGetPath(bad) ?? '', /dot segment/, bad);
    }
    assert.equal(v.validateGetPath('/a/.../b?x=../y'), undefined);
    assert.ok(v.validateMethodName('eth blockNumber'));
  });
});

describe('formatHeight', () => {
  it('groups digits like en-US for any size', () => {
    const { formatHeight } = require('../../../../src/core/base/numbers') as typeof import('../../../../src/core/base/numbers');
    for (const n of [0n, 7n, 999n, 1000n, 1234567n, 9223372036854775807n, 10n ** 30n]) {
      assert.equal(formatHeight(n), new Intl.NumberFormat('en-US').format(n));
    }
    assert.equal(formatHeight('-1234'), '-1,234');
  });
});
