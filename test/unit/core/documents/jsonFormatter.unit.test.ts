// The streaming formatter (JsonFormatter) against the reference (formatJson's text path): the same
// output or the same refusal, however the input is cut into pieces, and top-level members whose
// recorded spans hold exactly their values.
import * as assert from 'node:assert/strict';
import { JsonFormatter, formatJson, formattedText } from '../../../../src/core/documents/jsonFormat';
import { seededRandom as prng } from '../../helpers/seededRandom';

const STRINGS = ['', 'a', 'é', '😀', 'say \\"hi\\"', '\\u00e9\\n\\t', 'x'.repeat(300), '\\\\', '\\/'];
const NUMBERS = ['0', '-0', '1', '-12', '3.25', '1e5', '1E+2', '-4.5e-3', '123456789012345678901234567890'];

function randomJson(rand: () => number, depth = 0): string {
  const r = rand();
  if (depth > 4 || r < 0.35) {
    const s = rand();
    if (s < 0.4) return `"${STRINGS[Math.floor(rand() * STRINGS.length)]}"`;
    if (s < 0.75) return NUMBERS[Math.floor(rand() * NUMBERS.length)];
    return ['true', 'false', 'null'][Math.floor(rand() * 3)];
  }
  const n = Math.floor(rand() * 4);
  const ws = () => [' ', '', '\n', '\t', '\r\n  '][Math.floor(rand() * 5)];
  if (r < 0.65) return `[${ws()}${Array.from({ length: n }, () => randomJson(rand, depth + 1)).join(`${ws()},${ws()}`)}${ws()}]`;
  return `{${ws()}${Array.from({ length: n }, (_, k) => `"k${k}${STRINGS[k % 3]}"${ws()}:${ws()}${randomJson(rand, depth + 1)}`).join(',')}${ws()}}`;
}

/** Replaces, inserts or deletes a byte or two: mostly invalid JSON, sometimes still valid. */
function mutate(rand: () => number, text: string): string {
  const at = Math.floor(rand() * (text.length + 1));
  const junk = ['"', '\\', ',', ':', '}', ']', '{', '[', 'e', '-', '.', '\u0001', 'x', ' ', 'tru', '\\u12'][Math.floor(rand() * 16)];
  const kind = rand();
  if (kind < 0.4) return text.slice(0, at) + junk + text.slice(at + 1);
  if (kind < 0.8) return text.slice(0, at) + junk + text.slice(at);
  return text.slice(0, at) + text.slice(at + 2);
}

/** Formats `bytes` in pieces cut at random places (pieces of 0 to 7 bytes, or one whole). */
function formatInPieces(rand: () => number, bytes: Buffer): string | undefined {
  const f = new JsonFormatter({ reserve: Math.floor(rand() * 16) });
  let at = 0;
  while (at < bytes.length) {
    const size = rand() < 0.1 ? bytes.length : Math.floor(rand() * 8);
    f.push(bytes.subarray(at, at + size));
    at += size;
  }
  const out = f.end();
  return out && formattedText(out);
}

function reference(text: string): string | undefined {
  try {
    return formatJson(text);
  } catch {
    return undefined;
  }
}

describe('JsonFormatter (streaming)', () => {
  it('gives the reference output, or refuses with it, for 6,000 random and mutated inputs cut anywhere', () => {
    const rand = prng(20261122);
    let valid = 0;
    let invalid = 0;
    for (let k = 0; k < 6000; k++) {
      let text = randomJson(rand);
      if (k % 2 === 1) text = mutate(rand, text);
      // A mutation may split a surrogate pair: compare on what the bytes decode to.
      const bytes = Buffer.from(text, 'utf8');
      const expected = reference(bytes.toString('utf8'));
      const got = formatInPieces(rand, bytes);
      assert.equal(got, expected, `input #${k}: ${JSON.stringify(text)}`);
      if (expected === undefined) invalid++;
      else valid++;
    }
    // The generator must exercise both sides, or this test proves little.
    assert.ok(valid > 2000 && invalid > 1500, `${valid} valid, ${invalid} invalid`);
  });

  it('records each top-level member with the span of its value in the output', () => {
    const text = '{ "jsonrpc":"2.0", "id" : 7, "result": {"a":[1,2,{}],"b":"x"}, "error" :null, "e":[], "o":{} }';
    const rand = prng(7);
    for (let k = 0; k < 200; k++) {
      const f = new JsonFormatter({ reserve: 5 });
      const bytes = Buffer.from(text);
      for (let at = 0; at < bytes.length;) {
        const size = 1 + Math.floor(rand() * 9);
        f.push(bytes.subarray(at, at + size));
        at += size;
      }
      const out = f.end()!;
      assert.equal(out.top, 'object');
      assert.deepEqual(
        out.members.map((m) => [JSON.parse(m.key), JSON.parse(out.buffer.toString('utf8', m.start, m.end))]),
        Object.entries(JSON.parse(text)),
      );
    }
    assert.equal(JsonFormatter.format(Buffer.from('[{"a":1}]'))!.top, 'array');
    assert.deepEqual(JsonFormatter.format(Buffer.from('[{"a":1}]'))!.members, []);
    assert.equal(JsonFormatter.format(Buffer.from(' 12 '))!.top, 'scalar');
  });

  it('leaves the reserved room in front of the text', () => {
    const out = JsonFormatter.format(Buffer.from('{"a":1}'), { reserve: 100 })!;
    assert.equal(out.start, 100);
    assert.equal(out.buffer.toString('utf8', out.start, out.end), '{\n  "a": 1\n}');
  });

  it('scans a long token cut into many pieces a few times, not once per piece', () => {
    // A 4 MB string in 1 KB pieces: with the retry threshold doubling, the formatter concatenates
    // about log2(4096) = 12 times; once per piece would be 4,096 rescans of up to 4 MB (8 GB).
    const body = Buffer.from(`["${'a'.repeat(4 * 1024 * 1024)}"]`);
    const f = new JsonFormatter();
    let pushes = 0;
    const realConcat = Buffer.concat;
    let concats = 0;
    Buffer.concat = ((list: readonly Uint8Array[], total?: number) => {
      concats++;
      return realConcat(list, total);
    }) as typeof Buffer.concat;
    try {
      for (let at = 0; at < body.length; at += 1024, pushes++) f.push(body.subarray(at, at + 1024));
    } finally {
      Buffer.concat = realConcat;
    }
    const out = f.end()!;
    assert.equal(out.end - out.start, body.length + 4); // "[\n  " + string + "\n]" minus "[" and "]"
    assert.ok(concats < 30, `${concats} concatenations for ${pushes} pieces`);
  });
});
