import * as assert from 'node:assert/strict';
import { formatJson } from '../../../../src/core/documents/jsonFormat';
import { isJson } from '../../../../src/core/documents/jsonReference';

describe('jsonFormat', () => {
  it('matches JSON.stringify(JSON.parse(x), null, 2) on ordinary JSON', () => {
    const samples = [
      '{"a":1,"b":[1,2,{"c":null}],"d":{},"e":[],"f":"x\\"y","g":true,"h":-1500}',
      '[]',
      '{}',
      '"s"',
      '0',
      ' [ [ ] , { } , [ 1 ] ] ',
      '{"k":{"k":{"k":[[[]]]}}}',
    ];
    for (const s of samples) assert.equal(formatJson(s), JSON.stringify(JSON.parse(s), null, 2), s);
  });

  it('keeps numbers past 2^64 and string escapes exactly as sent', () => {
    const s = '{"big":123456789012345678901234567890,"esc":"\\u00e9\\n"}';
    const out = formatJson(s);
    assert.match(out, /123456789012345678901234567890/);
    assert.equal(formatJson('[-1.5e+3]'), '[\n  -1.5e+3\n]');
    assert.match(out, /"\\u00e9\\n"/);
  });

  it('refuses invalid JSON with the offset', () => {
    const bad = ['', '{', '[1,]', '{"a"}', '{"a":}', '[1 2]', 'tru', '01', '{"a":1}x', '"unterminated', '{a:1}', '<html>', '[,1]', '{,}', '"\\x"', '-'];
    for (const b of bad) {
      assert.throws(() => formatJson(b), /Invalid JSON at offset \d+/, b);
      assert.equal(isJson(b), false, b);
      assert.throws(() => JSON.parse(b), SyntaxError, `JSON.parse should agree on ${b}`);
    }
  });

  it('handles deep nesting without recursion', () => {
    const deep = '['.repeat(100000) + ']'.repeat(100000);
    assert.ok(formatJson(deep, 0).length > 0);
  });
});

describe('jsonFormat: hostile nesting', () => {
  it('keeps a deeply nested answer linear in size (indentation stops at MAX_INDENT_DEPTH)', () => {
    const { MAX_INDENT_DEPTH } = require('../../../../src/core/documents/jsonFormat') as typeof import('../../../../src/core/documents/jsonFormat');
    const depth = 10_000;
    const text = '['.repeat(depth) + '1' + ']'.repeat(depth);
    const out = formatJson(text);
    assert.ok(out.length < text.length * (MAX_INDENT_DEPTH * 2 + 4), `${out.length} characters`);
    assert.equal(out.replace(/\s+/g, ''), text, 'the same JSON, only re-indented');
    const shallow = '{"a":{"b":[1,2]}}';
    assert.equal(formatJson(shallow), JSON.stringify(JSON.parse(shallow), null, 2));
  });
});
