// Reading an answer (core/documents/interpret.ts): a 2xx JSON body takes a short path (one parse),
// and every other answer the full reading. Both must say the same thing as before the short path:
// these cases sit on the border between the two.

import * as assert from 'node:assert/strict';
import { interpret, readCometStatus } from '../../../../src/core/documents/interpret';
import { JsonFormatter } from '../../../../src/core/documents/jsonFormat';
import type { HttpResponse } from '../../../../src/core/transport/http';

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

  it('a JSON-RPC error keeps every fact of the answer: status, content type, Retry-After, code and data', () => {
    const r = interpret(
      answer(503, '{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"busy","data":{"why":"load"}}}', {
        'content-type': 'application/json',
        'retry-after': '7',
      }),
      'jsonrpc',
      URL_,
    );
    assert.equal(r.error?.kind, 'rpc');
    const d = r.error?.detail;
    assert.deepEqual(
      [d?.status, d?.contentType, d?.retryAfter, d?.code, d?.data, d?.bodyPreview],
      [503, 'application/json', '7', -32005, '{"why":"load"}', undefined],
    );
    assert.equal(r.error?.message, 'JSON-RPC error -32005 busy: {"why":"load"} (HTTP 503 Service Unavailable). Retry after 7 s.');
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

describe('interpret: every other answer gets one clear sentence', () => {
  const msg = (r: ReturnType<typeof interpret>) => r.error?.message ?? '';

  it('a REST gRPC-style error: with its numeric code, without one (or a code that is not a number), without a message', () => {
    const coded = interpret(answer(400, '{"code":3,"message":"bad height"}'), 'rest', URL_);
    assert.equal(msg(coded), `REST error from ${URL_}: HTTP 400 Bad Request, gRPC code 3: bad height.`);
    assert.equal(coded.error?.detail.code, 3);
    assert.equal(coded.error?.detail.status, 400);
    assert.deepEqual(coded.json, { code: 3, message: 'bad height' });
    const uncoded = interpret(answer(404, '{"code":"NotFound","message":"no such block"}'), 'rest', URL_);
    assert.equal(msg(uncoded), `REST error from ${URL_}: HTTP 404 Not Found: no such block.`);
    assert.equal(uncoded.error?.detail.code, undefined);
    assert.match(msg(interpret(answer(500, '{"code":13,"message":""}'), 'rest', URL_)), /gRPC code 13: no message\.$/);
    // A JSON-RPC dialect does not read "message" as a REST error; a 3xx REST body with a message is one.
    assert.doesNotMatch(msg(interpret(answer(500, '{"message":"x"}'), 'jsonrpc', URL_)), /REST error/);
    assert.match(msg(interpret(answer(300, '{"message":"many"}'), 'rest', URL_)), /^REST error .*HTTP 300.*: many\.$/);
    assert.equal(interpret(answer(299, '{"message":"fine"}'), 'rest', URL_).error, undefined);
  });

  it('a redirect is named with where it points, never followed; 399 too, 400 is not a redirect', () => {
    const r = interpret(answer(302, '', { location: 'https://elsewhere.example/x' }), 'rest', URL_);
    assert.equal(msg(r), `HTTP 302 Found from ${URL_} (a redirect to https://elsewhere.example/x, not followed).`);
    assert.match(msg(interpret(answer(399, 'x'), 'rest', URL_)), /HTTP 399 from .* \(a redirect to \?, not followed\)\.$/);
    assert.doesNotMatch(msg(interpret(answer(400, 'x'), 'rest', URL_)), /redirect/);
  });

  it('an error page: HTML by its content type or by its first bytes (after spaces); binary; text shown; nothing', () => {
    assert.equal(
      msg(interpret(answer(502, 'oops', { 'content-type': 'text/HTML; charset=utf-8' }), 'rest', URL_)),
      `HTTP 502 Bad Gateway from ${URL_}: the server answered with an HTML page.`,
    );
    assert.match(msg(interpret(answer(503, '  \n<!DOCTYPE html><p>down'), 'rest', URL_)), /answered with an HTML page\.$/);
    assert.match(msg(interpret(answer(503, '<HTML>down'), 'rest', URL_)), /answered with an HTML page\.$/);
    assert.doesNotMatch(msg(interpret(answer(503, 'see <html> below'), 'rest', URL_)), /HTML page/);
    const binary = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x41, 0x42]);
    const bin = interpret(
      { status: 500, headers: { 'content-type': 'application/octet-stream' }, body: binary, bytes: binary.length, elapsedMs: 1 },
      'rest',
      URL_,
    );
    assert.equal(msg(bin), `HTTP 500 Internal Server Error from ${URL_}: 6 bytes of binary data (application/octet-stream).`);
    assert.equal(msg(interpret(answer(418, 'just text'), 'rest', URL_)), `HTTP 418 from ${URL_}: just text.`);
    assert.equal(msg(interpret(answer(500, ''), 'rest', URL_)), `HTTP 500 Internal Server Error from ${URL_}.`);
    assert.equal(interpret(answer(500, 'just text'), 'rest', URL_).error?.detail.bodyPreview, 'just text');
  });

  it('a 2xx that is not JSON: HTML (by type or first byte), binary, or the text it starts with', () => {
    assert.equal(
      msg(interpret(answer(200, 'hello', { 'content-type': 'text/html' }), 'rest', URL_)),
      `HTTP 200 OK from ${URL_}, but the body is an HTML page, not JSON.`,
    );
    assert.match(msg(interpret(answer(200, '  <div>'), 'jsonrpc', URL_)), /but the body is an HTML page, not JSON\.$/);
    const nul = Buffer.from('ab\u0000cd');
    assert.equal(
      msg(interpret({ status: 200, headers: {}, body: nul, bytes: nul.length, elapsedMs: 1 }, 'rest', URL_)),
      `HTTP 200 OK from ${URL_}, but the body is not JSON: 5 bytes of binary data.`,
    );
    assert.equal(msg(interpret(answer(200, 'not json at all'), 'rest', URL_)), `HTTP 200 OK from ${URL_}, but the body is not JSON: "not json at all".`);
    assert.equal(interpret(answer(200, 'not json'), 'rest', URL_).error?.kind, 'parse');
  });

  it('binary means a NUL, or at least one byte in ten unreadable; fewer is text', () => {
    const nine = Buffer.concat([Buffer.from('a'.repeat(9)), Buffer.from([0x01])]); // 1 in 10: binary
    const eleven = Buffer.concat([Buffer.from('a'.repeat(10)), Buffer.from([0x01])]); // 1 in 11: text
    const of = (b: Buffer) => msg(interpret({ status: 500, headers: {}, body: b, bytes: b.length, elapsedMs: 1 }, 'rest', URL_));
    assert.match(of(nine), /10 bytes of binary data\.$/);
    assert.doesNotMatch(of(eleven), /binary/);
    assert.doesNotMatch(of(Buffer.from('plain words')), /binary/);
    // One NUL anywhere in the first 512 bytes is enough, however much text is around it.
    assert.match(of(Buffer.from(`${'a'.repeat(300)}\u0000${'b'.repeat(100)}`)), /401 bytes of binary data\.$/);
  });

  it('blank: ASCII white space, or white space past ASCII (a no-break space); a byte past ASCII that is a letter is not blank', () => {
    assert.match(msg(interpret(answer(200, '\t\r\n\v\f '), 'rest', URL_)), /with an empty body\.$/);
    assert.match(msg(interpret(answer(200, ' \u00a0 '), 'rest', URL_)), /with an empty body\.$/);
    assert.match(msg(interpret(answer(200, ' \u00e9 '), 'rest', URL_)), /is not JSON/);
    assert.match(msg(interpret(answer(200, '\u0008'), 'rest', URL_)), /is not JSON/);
    // A body held only in part (its head) is never called blank.
    const head = Buffer.from('   ');
    assert.doesNotMatch(msg(interpret({ status: 200, headers: {}, head, bytes: 10_000_000, elapsedMs: 1 }, 'rest', URL_)), /empty body/);
  });

  it('Retry-After is added to every error of 400 and above, never to a 3xx', () => {
    assert.match(msg(interpret(answer(503, 'busy', { 'retry-after': '7' }), 'rest', URL_)), /busy\. Retry after 7 s/);
    assert.match(msg(interpret(answer(400, '{"code":8,"message":"slow down"}', { 'retry-after': '3' }), 'rest', URL_)), /slow down\. Retry after 3 s/);
    assert.doesNotMatch(msg(interpret(answer(307, '', { 'retry-after': '3', location: '/x' }), 'rest', URL_)), /Retry after/);
    assert.equal(interpret(answer(429, 'slow', { 'retry-after': '2' }), 'rest', URL_).error?.detail.retryAfter, '2');
  });

  it('each error has its kind: rest, http (a status, a rate limit), parse (empty or not JSON), rpc, protocol', () => {
    const kind = (status: number, text: string, dialect: 'rest' | 'jsonrpc' = 'rest') => interpret(answer(status, text), dialect, URL_).error?.kind;
    assert.equal(kind(400, '{"code":3,"message":"x"}'), 'rest');
    assert.equal(kind(429, 'slow'), 'http');
    assert.equal(kind(503, 'down'), 'http');
    assert.equal(kind(200, ''), 'parse');
    assert.equal(kind(200, '<html>'), 'parse');
    assert.equal(kind(200, '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}', 'jsonrpc'), 'rpc');
    assert.equal(kind(200, '{}', 'jsonrpc'), 'protocol');
    assert.match(msg(interpret(answer(429, 'slow'), 'rest', URL_)), /^HTTP 429 Too Many Requests from .*: the provider is rate-limiting requests\.$/);
    assert.equal(interpret(answer(200, '<html>'), 'rest', URL_).error?.detail.bodyPreview, '<html>');
  });

  it('a JSON-RPC answer not a JSON-RPC response is a protocol error with its status', () => {
    const r = interpret(answer(200, '{"jsonrpc":"2.0"}', { 'content-type': 'application/json' }), 'jsonrpc', URL_);
    assert.equal(r.error?.kind, 'protocol');
    assert.equal(r.error?.detail.status, 200);
    assert.equal(r.error?.detail.contentType, 'application/json');
  });
});

describe('interpret: a body read from its formatted text (a document), parsed only when asked', () => {
  function formatted(text: string) {
    const f = new JsonFormatter();
    f.push(Buffer.from(text));
    const out = f.end();
    assert.ok(out, 'formatted');
    return out;
  }
  const digested = (status: number, text: string, held: boolean): HttpResponse => ({
    status,
    headers: {},
    body: held ? Buffer.from(text) : undefined,
    head: held ? undefined : Buffer.from(text.slice(0, 16)),
    digested: true,
    bytes: text.length,
    elapsedMs: 1,
  });

  for (const held of [true, false]) {
    it(`JSON-RPC result and error members${held ? ' (the raw body held too)' : ' (only the formatted text)'}`, () => {
      const text = '{"jsonrpc":"2.0","id":1,"result":{"a":[1,2],"b":"x"}}';
      const ok = interpret(digested(200, text, held), 'jsonrpc', URL_, formatted(text));
      assert.equal(ok.error, undefined);
      assert.deepEqual(ok.result, { a: [1, 2], b: 'x' });
      assert.deepEqual(ok.result, { a: [1, 2], b: 'x' }); // read twice: the same
      const errText = '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad params"}}';
      assert.match(interpret(digested(200, errText, held), 'jsonrpc', URL_, formatted(errText)).error?.message ?? '', /-32602.*bad params/);
      const none = '{"jsonrpc":"2.0","id":1}';
      assert.match(interpret(digested(200, none, held), 'jsonrpc', URL_, formatted(none)).error?.message ?? '', /not a JSON-RPC response/);
      const arr = '[{"result":1}]';
      assert.match(interpret(digested(200, arr, held), 'jsonrpc', URL_, formatted(arr)).error?.message ?? '', /not a JSON-RPC response/);
      // A key written with an escape is the same key.
      const escaped = '{"jsonrpc":"2.0","id":1,"res\\u0075lt":7}';
      assert.equal(interpret(digested(200, escaped, held), 'jsonrpc', URL_, formatted(escaped)).result, 7);
      // REST: the whole body; a gRPC error read from the formatted text.
      const rest = '{"block":{"h":"5"}}';
      assert.deepEqual(interpret(digested(200, rest, held), 'rest', URL_, formatted(rest)).result, { block: { h: '5' } });
      const restErr = '{"code":5,"message":"not found"}';
      assert.match(interpret(digested(404, restErr, held), 'rest', URL_, formatted(restErr)).error?.message ?? '', /gRPC code 5: not found/);
    });

    it(`a null result is told from its text, nothing parsed${held ? ' (the raw body held too)' : ' (only the formatted text)'}`, () => {
      const cases: Array<[string, boolean]> = [
        ['{"jsonrpc":"2.0","id":1,"result":null}', true],
        ['{ "jsonrpc" : "2.0", "id" : 1, "result" :\n  null }', true],
        ['{"jsonrpc":"2.0","id":1,"result":"null"}', false],
        ['{"jsonrpc":"2.0","id":1,"result":{"number":"0x5","transactions":[]}}', false],
        ['{"jsonrpc":"2.0","id":1,"result":[null]}', false],
        ['{"jsonrpc":"2.0","id":1,"result":0}', false],
        // Later duplicates win, as with JSON.parse.
        ['{"jsonrpc":"2.0","id":1,"result":{"a":1},"result":null}', true],
        ['{"jsonrpc":"2.0","id":1,"result":null,"result":{"a":1}}', false],
      ];
      const parse = JSON.parse;
      let parsed = 0;
      JSON.parse = ((...a: Parameters<typeof JSON.parse>) => (parsed++, parse(...a))) as typeof JSON.parse;
      try {
        for (const [text, isNull] of cases) {
          const read = interpret(digested(200, text, held), 'jsonrpc', URL_, formatted(text));
          assert.equal(read.resultIsNull?.(), isNull, text);
        }
      } finally {
        JSON.parse = parse;
      }
      assert.equal(parsed, 0);
      // The same answer parsed: the same verdict.
      for (const [text, isNull] of cases) assert.equal(interpret(digested(200, text, held), 'jsonrpc', URL_, formatted(text)).result === null, isNull, text);
    });
  }
});

describe('readCometStatus', () => {
  it('the height, block time and chain id of a status result; nothing without a height', () => {
    const status = { node_info: { network: 'evmd-1' }, sync_info: { latest_block_height: '42', latest_block_time: '2026-11-25T00:00:00Z' } };
    assert.deepEqual(readCometStatus(status), { height: 42n, time: '2026-11-25T00:00:00Z', chainId: 'evmd-1' });
    assert.deepEqual(readCometStatus({ sync_info: { latest_block_height: '7', latest_block_time: 5 }, node_info: { network: 9 } }), {
      height: 7n,
      time: undefined,
      chainId: undefined,
    });
    assert.deepEqual(readCometStatus({ sync_info: { latest_block_height: '7' }, node_info: 'x' }), { height: 7n, time: undefined, chainId: undefined });
    for (const bad of [
      undefined,
      null,
      'x',
      {},
      { sync_info: 'x' },
      { sync_info: { latest_block_height: 'abc' } },
      { sync_info: { latest_block_height: '1'.repeat(30) } },
    ]) {
      assert.equal(readCometStatus(bad), undefined, JSON.stringify(bad));
    }
  });
});
