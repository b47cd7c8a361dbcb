// Reading an answer (core/documents/interpret.ts): a 2xx JSON body takes a short path (one parse),
// and every other answer the full reading. Both must say the same thing as before the short path:
// these cases sit on the border between the two.

import * as assert from 'node:assert/strict';
import { interpret } from '../../src/core/documents/interpret';
import type { HttpResponse } from '../../src/core/transport/http';

function answer(status: number, text: string, headers: Record<string, string> = {}): HttpResponse {
  const body = Buffer.from(text);
  return { status, headers, body, bytes: body.length, elapsedMs: 1 };
}

const URL_ = 'http://127.0.0.1:1/';

describe('interpret: 2xx answers, the short path and the full reading agree', () => {
  it('JSON-RPC 200 with a result: the result, and the whole body as json', () => {
    const r = interpret(answer(200, '{"jsonrpc":"2.0","id":1,"result":"0x10"}'), 'jsonrpc', URL_);
    assert.equal(r.error, undefined);
    assert.equal(r.result, '0x10');
    assert.deepEqual(r.json, { jsonrpc: '2.0', id: 1, result: '0x10' });
  });

  it('JSON-RPC 200 with a null result is a result (null), not an error', () => {
    const r = interpret(answer(200, '{"jsonrpc":"2.0","id":1,"result":null}'), 'jsonrpc', URL_);
    assert.equal(r.error, undefined);
    assert.equal(r.result, null);
  });

  it('JSON-RPC 200 with an error object is the JSON-RPC error, even with a result beside it', () => {
    const r = interpret(answer(200, '{"jsonrpc":"2.0","id":1,"result":"0x1","error":{"code":-32000,"message":"nope"}}'), 'jsonrpc', URL_);
    assert.match(r.error?.message ?? '', /-32000/);
    assert.match(r.error?.message ?? '', /nope/);
  });

  it('JSON-RPC 200 whose "error" is not an object, with a result: the result', () => {
    const r = interpret(answer(200, '{"jsonrpc":"2.0","id":1,"result":5,"error":"text"}'), 'jsonrpc', URL_);
    assert.equal(r.error, undefined);
    assert.equal(r.result, 5);
  });

  it('JSON-RPC 200 without result or error, or an array: not a JSON-RPC response', () => {
    for (const text of ['{"jsonrpc":"2.0","id":1}', '[1,2]', '"0x1"', '5']) {
      const r = interpret(answer(200, text), 'jsonrpc', URL_);
      assert.match(r.error?.message ?? '', /not a JSON-RPC response/, text);
    }
  });

  it('REST 200: the whole body is the result, whatever its shape (a "message" member included)', () => {
    for (const text of ['{"message":"hello","code":3}', '[1]', 'null', '"x"']) {
      const r = interpret(answer(200, text), 'rest', URL_);
      assert.equal(r.error, undefined, text);
      assert.deepEqual(r.result, JSON.parse(text));
    }
  });

  it('200 with a blank, an HTML or a garbage body: the clear errors of the full reading', () => {
    assert.match(interpret(answer(200, ' \n\t'), 'rest', URL_).error?.message ?? '', /empty body/);
    assert.match(interpret(answer(200, ''), 'jsonrpc', URL_).error?.message ?? '', /empty body/);
    assert.match(interpret(answer(200, '<!doctype html><p>hi'), 'rest', URL_).error?.message ?? '', /HTML page, not JSON/);
    assert.match(interpret(answer(200, '{"result": tru'), 'jsonrpc', URL_).error?.message ?? '', /is not JSON: "\{"result": tru"/);
  });

  it('a non-2xx JSON answer still goes to the full reading (REST gRPC error, 429, 500 JSON-RPC error)', () => {
    assert.match(interpret(answer(400, '{"code":3,"message":"bad height"}'), 'rest', URL_).error?.message ?? '', /gRPC code 3: bad height/);
    assert.match(interpret(answer(429, '{"result":1}', { 'retry-after': '2' }), 'jsonrpc', URL_).error?.message ?? '', /rate-limiting.*Retry after/s);
    assert.match(interpret(answer(500, '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"x"}}'), 'jsonrpc', URL_).error?.message ?? '', /-32603/);
    // A 204 or 299 is 2xx: the short path, and an empty one is the empty-body error.
    assert.match(interpret(answer(204, ''), 'rest', URL_).error?.message ?? '', /empty body/);
  });
});
