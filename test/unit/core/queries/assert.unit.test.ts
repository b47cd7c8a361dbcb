// Every assertion kind of query files, evaluated on records made by hand: each kind both passes and
// fails where it should (an assertion made always-true fails here). The assertions are parsed from
// query-file text, so this test does not depend on how the parser builds them.

import * as assert from 'node:assert/strict';
import { parseQueryFile } from '../../../../src/core/queries/parse';
import {
  asInteger,
  compare,
  evaluate,
  evaluateAcross,
  evaluateOwn,
  heightOf,
  implicitSuccess,
  matchedText,
  preview,
  shorten,
  type ResultRecord,
} from '../../../../src/core/queries/assert';
import { kindOf, valueOf } from '../../../../src/core/queries/assertions/index';
import { masker } from '../../../../src/core/secrets/mask';
import { matchWithin } from '../../../../src/core/queries/regex';
import type { Assertion } from '../../../../src/core/queries/model';

/** The assertion of one `assert …` line. */
function parsed(line: string): Assertion {
  const file = parseQueryFile(`request r = consensusRpc.status\nprovider: *\nassert ${line}\n`);
  assert.deepEqual(
    file.diagnostics.filter((d) => d.severity === 'error'),
    [],
    `"assert ${line}" should parse`,
  );
  const a = file.requests[0].assertions[0];
  assert.ok(a, `"assert ${line}" gave no assertion`);
  return a;
}

const rec = (result: unknown, extra: Partial<ResultRecord> = {}): ResultRecord => ({ provider: 'p', result, latencyMs: 12, status: 200, ...extra });
const passes = (line: string, r: ResultRecord, expected?: string) => evaluate(parsed(line), r, expected).passed;
const across = (line: string, records: ResultRecord[]) => {
  const a = parsed(line);
  assert.ok(a.kind === 'within' || a.kind === 'same');
  return evaluateAcross(a, records);
};

describe('query-file assertions: each kind passes and fails', () => {
  it('success and failure', () => {
    assert.equal(passes('success', rec(1)), true);
    assert.equal(passes('success', rec(undefined, { error: 'refused' })), false);
    assert.match(evaluate(parsed('success'), rec(undefined, { error: 'refused' })).message, /refused/);
    assert.equal(passes('failure', rec(undefined, { error: 'refused' })), true);
    assert.equal(passes('failure', rec(1)), false);
  });

  it('status compares the HTTP status, and fails without one', () => {
    assert.equal(passes('status == 200', rec(1)), true);
    assert.equal(passes('status == 200', rec(1, { status: 404 })), false);
    assert.equal(passes('status != 200', rec(1, { status: 404 })), true);
    assert.equal(passes('status != 200', rec(1)), false);
    assert.equal(passes('status < 300', rec(1, { status: 299 })), true);
    assert.equal(passes('status < 300', rec(1, { status: 300 })), false);
    assert.equal(passes('status == 200', rec(1, { status: undefined, error: 'no route' })), false);
    assert.match(evaluate(parsed('status == 200'), rec(1, { status: undefined, error: 'no route' })).message, /no HTTP status \(no route\)/);
    // The resolved expected value wins over the text as written.
    assert.equal(passes('status == 200', rec(1, { status: 201 }), '201'), true);
  });

  it('latency < and <=', () => {
    assert.equal(passes('latency < 13ms', rec(1, { latencyMs: 12 })), true);
    assert.equal(passes('latency < 12ms', rec(1, { latencyMs: 12 })), false);
    assert.equal(passes('latency <= 12ms', rec(1, { latencyMs: 12 })), true);
    assert.equal(passes('latency <= 11ms', rec(1, { latencyMs: 12 })), false);
    assert.match(evaluate(parsed('latency < 1s'), rec(1, { latencyMs: 1500 })).message, /1500 ms, expected < 1000 ms/);
  });

  it('every comparison operator, on integers, hex quantities, decimals and text', () => {
    const r = rec({ h: '100', hex: '0x64', f: 1.5, s: 'abc', big: '123456789012345678901234567890', o: { a: 1 } });
    const table: [string, boolean][] = [
      ['result.h == 100', true],
      ['result.h == 101', false],
      ['result.h != 101', true],
      ['result.h != 100', false],
      ['result.h < 101', true],
      ['result.h < 100', false],
      ['result.h <= 100', true],
      ['result.h <= 99', false],
      ['result.h > 99', true],
      ['result.h > 100', false],
      ['result.h >= 100', true],
      ['result.h >= 101', false],
      ['result.hex == 100', true],
      ['result.hex > 0x63', true],
      ['result.hex < 0x64', false],
      ['result.f > 1.4', true],
      ['result.f < 1.4', false],
      ['result.f <= 1.5', true],
      ['result.f >= 1.6', false],
      ['result.s == "abc"', true],
      ['result.s == "abd"', false],
      ['result.s != "abd"', true],
      ['result.s != "abc"', false],
      ['result.big == 123456789012345678901234567890', true],
      ['result.big == 123456789012345678901234567891', false],
      ['result.big > 123456789012345678901234567889', true],
      ['result.o == {"a":1}', true],
      ['result.o == {"a":2}', false],
      ['result.o != {"a":2}', true],
    ];
    for (const [line, want] of table) assert.equal(passes(line, r), want, line);
  });

  it('an ordering of things that are not two numbers fails and says why', () => {
    const out = evaluate(parsed('result.s < 5'), rec({ s: 'abc' }));
    assert.equal(out.passed, false);
    assert.match(out.message, /not two numbers/);
    assert.equal(compare('x', '>=', 'y').passed, false);
    assert.equal(compare(true, '==', 'true').passed, true);
    assert.equal(compare(null, '==', 'null').passed, true);
    assert.equal(compare(null, '!=', 'null').passed, false);
  });

  it('a compared path that is absent fails, naming the path and the request error', () => {
    const out = evaluate(parsed('result.missing == 1'), rec({}, { error: 'boom' }));
    assert.equal(out.passed, false);
    assert.match(out.message, /result\.missing is absent \(the request failed: boom\)/);
    assert.equal(passes('result.missing != 1', rec({})), false);
  });

  it('exists and not exists', () => {
    const r = rec({ a: 0, n: null, e: '' });
    assert.equal(passes('result.a exists', r), true);
    assert.equal(passes('result.e exists', r), true);
    assert.equal(passes('result.n exists', r), true);
    assert.equal(passes('result.b exists', r), false);
    assert.equal(passes('result.b not exists', r), true);
    assert.equal(passes('result.a not exists', r), false);
    assert.match(evaluate(parsed('result.b exists'), r).message, /result\.b is absent/);
  });

  it('matches a regular expression, on text and on JSON (run by the caller, bounded)', async () => {
    const matches = async (line: string, r: ResultRecord) => {
      const a = parsed(line);
      assert.ok(a.kind === 'matches');
      const text = matchedText(r, a.path);
      return evaluate(a, r, undefined, text === undefined ? undefined : await matchWithin(a.regex, text, Date.now() + 2000));
    };
    assert.equal((await matches('result matches /^0x[0-9a-f]+$/', rec('0x1a'))).passed, true);
    assert.equal((await matches('result matches /^0x[0-9a-f]+$/', rec('1a'))).passed, false);
    assert.match((await matches('result matches /^0x[0-9a-f]+$/', rec('1a'))).message, /does not match/);
    assert.equal((await matches('result.o matches /"a":1/', rec({ o: { a: 1 } }))).passed, true);
    assert.equal((await matches('result.o matches /"a":2/', rec({ o: { a: 1 } }))).passed, false);
    assert.equal((await matches('result.none matches /x/', rec({}))).passed, false);
    assert.equal(matchedText(rec({}), ['result', 'none']), undefined);
    // Not run, or failed to run: never a pass.
    const a = parsed('result matches /x/');
    assert.equal(evaluate(a, rec('x')).passed, false);
    assert.match(evaluate(a, rec('x')).message, /not run/);
    const failed = evaluate(a, rec('x'), undefined, { error: 'took too long' });
    assert.equal(failed.passed, false);
    assert.equal(failed.message, 'took too long');
    assert.equal(evaluate(a, rec('x'), undefined, { matched: true }).passed, true);
    assert.equal(evaluate(a, rec('x'), undefined, { matched: false }).passed, false);
  });
});

describe('query-file assertions across providers: same and within', () => {
  const status = (provider: string, height: string, network = 'n1'): ResultRecord => ({
    provider,
    latencyMs: 1,
    result: { node_info: { network }, sync_info: { latest_block_height: height } },
  });

  it('same passes only when every provider agrees', () => {
    assert.equal(across('result.node_info.network same', [status('a', '1'), status('b', '2')]).passed, true);
    const differ = across('result.node_info.network same', [status('a', '1'), status('b', '2', 'n2')]);
    assert.equal(differ.passed, false);
    assert.match(differ.message, /differ/);
    assert.match(differ.actual ?? '', /a="n1", b="n2"/);
    assert.equal(across('result.node_info.network same', [status('a', '1'), status('b', '2'), status('c', '3', 'n3')]).passed, false);
  });

  it('same fails when a provider has no value', () => {
    const out = across('result.node_info.network same', [status('a', '1'), { provider: 'b', latencyMs: 1, result: {} }]);
    assert.equal(out.passed, false);
    assert.match(out.message, /no value from b/);
    assert.equal(across('result.x same', []).passed, false);
  });

  it('within N: the spread of heights at most N', () => {
    assert.equal(across('heights within 2', [status('a', '10'), status('b', '12')]).passed, true);
    assert.equal(across('heights within 2', [status('a', '10'), status('b', '13')]).passed, false);
    assert.equal(across('heights within 0', [status('a', '10'), status('b', '10')]).passed, true);
    assert.equal(across('heights within 0', [status('a', '10'), status('b', '11')]).passed, false);
    const spread = across('heights within 1', [status('a', '13'), status('b', '10'), status('c', '11')]);
    assert.equal(spread.passed, false);
    assert.match(spread.message, /spread 3 block\(s\) across 3 provider\(s\) \(10 to 13\)/);
  });

  it('within on a path, and on values that are not integers', () => {
    const r = (provider: string, v: unknown): ResultRecord => ({ provider, latencyMs: 1, result: { v } });
    assert.equal(across('result.v within 5', [r('a', '0x10'), r('b', '20')]).passed, true);
    assert.equal(across('result.v within 3', [r('a', '0x10'), r('b', '20')]).passed, false);
    const notInt = across('result.v within 5', [r('a', '1'), r('b', 'x')]);
    assert.equal(notInt.passed, false);
    assert.match(notInt.message, /not all integers/);
  });

  it('within fails for a provider whose request failed or has no height', () => {
    const failed = across('heights within 100', [status('a', '10'), { ...status('b', '10'), error: 'down' }]);
    assert.equal(failed.passed, false);
    assert.match(failed.message, /no value from b/);
    assert.equal(across('heights within 100', [status('a', '10'), { provider: 'b', latencyMs: 1, result: { x: 1 } }]).passed, false);
  });

  it('evaluate() of a fan-out assertion on one record: true when the value is there', () => {
    assert.equal(passes('heights within 0', status('a', '10')), true);
    assert.equal(passes('heights within 0', { provider: 'a', latencyMs: 1, result: {} }), false);
  });
});

describe('query-file assertions: the value readers', () => {
  it('asInteger reads decimal and hex text, safe numbers and bigints only', () => {
    assert.equal(asInteger('42'), 42n);
    assert.equal(asInteger(' -7 '), -7n);
    assert.equal(asInteger('0xff'), 255n);
    assert.equal(asInteger(5), 5n);
    assert.equal(asInteger(7n), 7n);
    assert.equal(asInteger(1.5), undefined);
    assert.equal(asInteger(2 ** 60), undefined);
    assert.equal(asInteger('1.0'), undefined);
    assert.equal(asInteger('0x'), undefined);
    assert.equal(asInteger('x12'), undefined);
    assert.equal(asInteger('12x'), undefined);
    assert.equal(asInteger(null), undefined);
  });

  it('heightOf finds the height of a status, a block, an EVM block number', () => {
    assert.equal(heightOf({ sync_info: { latest_block_height: '7' } }), 7n);
    assert.equal(heightOf({ block: { header: { height: '8' } } }), 8n);
    assert.equal(heightOf({ sdk_block: { header: { height: '9' } } }), 9n);
    assert.equal(heightOf({ number: '0xa' }), 10n);
    assert.equal(heightOf({ height: '11' }), 11n);
    assert.equal(heightOf('0xc'), 12n);
    assert.equal(heightOf({ other: 1 }), undefined);
    assert.equal(heightOf({ height: 'abc', number: '0x5' }), 5n);
  });

  it('preview and shorten cut long values at the limit', () => {
    assert.equal(preview('abc'), '"abc"');
    assert.equal(preview(5n), '5');
    assert.equal(preview({ a: [1, 2], b: null }), '{"a":[1,2],"b":null}');
    assert.equal(preview('x'.repeat(300), 10), `"${'x'.repeat(9)}…`);
    assert.equal(preview({ a: 'x'.repeat(300) }, 20), `{"a":"${'x'.repeat(14)}…`);
    assert.equal(preview([1, [2, { c: 3n }]]), '[1,[2,{"c":3}]]');
    assert.equal(preview(undefined), 'null');
    assert.equal(shorten({ a: 1n }, Infinity), '{"a":"1"}');
    assert.equal(shorten('q', Infinity), '"q"');
    assert.equal(shorten('abcdef', 3), '"ab…');
  });
});

describe('query-file assertions: a request’s own, on one provider (evaluateOwn)', () => {
  /** The first request of a file of assertion lines. */
  const request = (...lines: string[]) => {
    const file = parseQueryFile(`@v = 7\nrequest r = consensusRpc.status\nprovider: *\n${lines.map((l) => `assert ${l}\n`).join('')}`);
    return file.requests[0];
  };
  const asIs = (v: { text: string }) => v.text;
  afterEach(() => masker.set([]));

  it('none of its own: the implicit success at the request’s line, passing on an answer and failing on an error', async () => {
    for (const r of [request(), request('result.h same', 'heights within 1')]) {
      const ok = await evaluateOwn(r, rec({}), asIs, 1000);
      assert.equal(ok.length, 1);
      assert.deepEqual(ok[0].assertion, implicitSuccess(r));
      assert.deepEqual(implicitSuccess(r), { kind: 'success', text: 'success', line: 2, col: 1 });
      assert.equal(ok[0].passed, true);
      const failed = await evaluateOwn(r, rec(undefined, { error: 'refused' }), asIs, 1000);
      assert.equal(failed[0].passed, false);
      assert.match(failed[0].message, /refused/);
    }
  });

  it('its own in order, those across providers left to evaluateAcross', async () => {
    const results = await evaluateOwn(request('result.h == 5', 'result.h same', 'result.h exists', 'result.h > 9'), rec({ h: 5 }), asIs, 1000);
    assert.deepEqual(
      results.map((x) => [x.assertion.text, x.passed]),
      [
        ['result.h == 5', true],
        ['result.h exists', true],
        ['result.h > 9', false],
      ],
    );
  });

  it('a value side is resolved before comparing; a templated one is shown resolved (masked, one line), a plain one is not', async () => {
    const seen: string[] = [];
    const resolve = (v: { text: string }) => {
      seen.push(v.text);
      return v.text === '${v}' ? '5' : v.text;
    };
    const [templated, plain] = await evaluateOwn(request('result.h == ${v}', 'result.h == 5'), rec({ h: 5 }), resolve, 1000);
    assert.deepEqual(seen, ['${v}', '5']);
    assert.equal(templated.passed, true);
    assert.equal(templated.shownText, 'result.h == 5');
    assert.equal(plain.passed, true);
    assert.equal(plain.shownText, undefined);
    masker.set(['s3cret-value']);
    const [masked] = await evaluateOwn(request('result.h == {{x.result}}'), rec({ h: 1 }), () => 's3cret-value\nnext', 1000);
    assert.equal(masked.passed, false);
    assert.ok(masked.shownText?.startsWith('result.h == '), masked.shownText);
    assert.doesNotMatch(masked.shownText ?? '', /s3cret-value|\n/);
    const [long] = await evaluateOwn(request('result.h == ${v}'), rec({ h: 1 }), () => 'x'.repeat(500), 1000);
    assert.ok(long.shownText?.includes('x'.repeat(40)) && !long.shownText.includes('x'.repeat(81)), long.shownText);
  });

  it('a value that cannot be resolved fails its assertion with why; the others still run', async () => {
    const results = await evaluateOwn(
      request('result.h == ${v}', 'result.h exists'),
      rec({ h: 5 }),
      () => {
        throw new Error('variable "v" is not defined');
      },
      1000,
    );
    assert.equal(results.length, 2);
    assert.equal(results[0].passed, false);
    assert.match(results[0].message, /variable "v" is not defined/);
    assert.equal(results[1].passed, true);
  });

  it('a regular expression runs before it is evaluated (matches)', async () => {
    const [hit] = await evaluateOwn(request('result.h matches /^0x/'), rec({ h: '0xab' }), asIs, 1000);
    assert.equal(hit.passed, true);
    const [miss] = await evaluateOwn(request('result.h matches /^0x/'), rec({ h: 'ab' }), asIs, 1000);
    assert.equal(miss.passed, false);
  });

  it('answers at once (no promise) unless a regular expression waits for the worker; one that waits keeps the order', async () => {
    const now = evaluateOwn(request('result.h == 5', 'result.h matches /^0x/'), rec({ h: '0x5' }), asIs, 1000);
    assert.ok(Array.isArray(now), 'evaluated without a promise');
    // Nested quantifiers have no inline bound: this one runs in the worker (a promise), the next after it.
    const later = evaluateOwn(request('result.h exists', 'result.h matches /^(a+)+$/', 'result.h == 7'), rec({ h: 'aaa' }), asIs, 5000);
    assert.ok(later instanceof Promise);
    assert.deepEqual(
      (await later).map((x) => [x.assertion.text, x.passed]),
      [
        ['result.h exists', true],
        ['result.h matches /^(a+)+$/', true],
        ['result.h == 7', false],
      ],
    );
  });
});

describe('query-file assertions: how each kind reads its line, and what it says', () => {
  /** The error diagnostics of one `assert …` line. */
  const errorsOf = (line: string) =>
    parseQueryFile(`request r = consensusRpc.status\nassert ${line}\n`)
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => d.message);

  it('status: only the bare path "status" is the status kind; its value side and its messages', () => {
    assert.equal(parsed('status == 200').kind, 'status');
    assert.equal(parsed('status.code == 200').kind, 'compare');
    assert.equal(parsed('result == 200').kind, 'compare');
    assert.equal(valueOf(parsed('status == 200'))?.text, '200');
    const failed = evaluate(parsed('status == 200'), rec({}, { status: 500 }));
    assert.equal(failed.message, 'status 500, expected == 200');
    assert.equal(evaluate(parsed('status == ${code}'), rec({}, { status: 404 }), '404').message, 'status 404');
    assert.equal(evaluate(parsed('status == 200'), rec({}, { status: undefined, error: 'refused' })).message, 'no HTTP status (refused)');
  });

  it('comparisons: a missing value and a doubled operator are located errors; what a failure says', () => {
    assert.match(errorsOf('result.h ==').join(), /Give a value after "=="/);
    assert.match(errorsOf('result.h === 5').join(), /"===" is not a comparison/);
    assert.match(errorsOf('result.h <> 5').join(), /"<>" is not a comparison/);
    assert.equal(evaluate(parsed('result.h == 5'), rec({ h: 6 })).message, 'found 6, expected == 5');
    assert.equal(evaluate(parsed('result.h == 5'), rec({ h: 5 })).message, 'found 5');
    assert.equal(evaluate(parsed('result.h == 5'), rec(undefined, { error: 'refused' })).message, 'result.h is absent (the request failed: refused)');
    assert.equal(evaluate(parsed('result.h == 5'), rec({})).message, 'result.h is absent');
  });

  it('matches: the whole rest is "matches /re/flags" (flags used), the same regex compiled once, a bad one located', () => {
    assert.equal(parsed('result.h matches  /^ab/').kind, 'matches');
    assert.match(errorsOf('result.h notmatches /a/').join(), /After the path/);
    assert.match(errorsOf('result.h matches /a/ x').join(), /After the path/);
    assert.match(errorsOf('result.h matches /(/').join(), /Bad regular expression/);
    const a = parsed('result.h matches /^AB/i');
    assert.ok(a.kind === 'matches' && a.regex.flags === 'i');
    const b = parsed('result.h matches /^AB/i');
    assert.ok(b.kind === 'matches' && a.regex === b.regex, 'compiled twice');
    assert.equal(evaluate(parsed('result.h matches /^0x/'), rec(undefined, { error: 'refused' })).message, 'result.h is absent (the request failed: refused)');
    assert.equal(evaluate(parsed('result.h matches /^0x/'), rec({})).message, 'result.h is absent');
  });

  it('matches: prepare() runs the regex on the value (absent: nothing to run), evaluate reads what it found', async () => {
    const a = parsed('result.h matches /^AB/i');
    assert.ok(a.kind === 'matches');
    const kind = kindOf(a);
    assert.equal(await kind.prepare?.(a, rec({}), Date.now() + 1000), undefined);
    const found = await kind.prepare?.(a, rec({ h: 'abc' }), Date.now() + 1000);
    assert.deepEqual(found, { matched: true });
    assert.equal(evaluate(a, rec({ h: 'abc' }), undefined, found).passed, true);
    const missed = await kind.prepare?.(a, rec({ h: 'xabc' }), Date.now() + 1000);
    assert.deepEqual(missed, { matched: false });
    assert.equal(evaluate(a, rec({ h: 'xabc' }), undefined, missed).message, 'found "xabc", which does not match /^AB/i');
    assert.equal(evaluate(a, rec({ h: 'abc' })).message, 'the regular expression was not run');
  });
});
