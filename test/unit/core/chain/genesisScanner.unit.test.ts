import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ChunkAnswerScanner } from '../../../../src/core/chain/genesis';

async function scan(text: string, pieceSize: number) {
  const out: Buffer[] = [];
  const s = new ChunkAnswerScanner(async (b) => {
    out.push(b);
  });
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += pieceSize) await s.push(bytes.subarray(i, i + pieceSize));
  s.end();
  return { data: Buffer.concat(out), envelope: JSON.parse(s.envelope().toString()) };
}

describe('genesis_chunked streaming scanner', () => {
  const payload = randomBytes(10_000 + 7);
  const answer = JSON.stringify({ jsonrpc: '2.0', id: -1, result: { chunk: '1', total: '3', data: payload.toString('base64') } });

  it('decodes data into the sink whatever the piece boundaries, and keeps the envelope', async () => {
    for (const size of [1, 2, 3, 5, 7, 64, 4096, answer.length]) {
      const { data, envelope } = await scan(answer, size);
      assert.ok(data.equals(payload), `piece size ${size}`);
      assert.deepEqual(envelope, { jsonrpc: '2.0', id: -1, result: { chunk: '1', total: '3', data: '' } });
    }
  });

  it('finds "data" with spaces, in any key order, and ignores "data" inside other strings', async () => {
    const text = `{ "id" : -1, "jsonrpc":"2.0", "result" : { "note": "data", "data" : "${payload.toString('base64')}" , "chunk":"0","total":"1" } }`;
    const { data, envelope } = await scan(text, 13);
    assert.ok(data.equals(payload));
    assert.equal(envelope.result.chunk, '0');
  });

  it('takes "\\/" split between two pieces at any boundary', async () => {
    // Found by a random test: a backslash ending one network piece and its "/" starting the next.
    const text = String.raw`{"result":{"data":"55bHHJRPxzfHtCNfMm+mczxbYSBRBe6QQJoDkW4SX0WR\/6FMvVZCOdDLlPq\/gYYs"}}`;
    const expected = Buffer.from('55bHHJRPxzfHtCNfMm+mczxbYSBRBe6QQJoDkW4SX0WR/6FMvVZCOdDLlPq/gYYs', 'base64');
    for (let size = 1; size <= text.length; size++) {
      const { data } = await scan(text, size);
      assert.ok(data.equals(expected), `piece size ${size}`);
    }
  });

  it('takes padding split from the closing quote, and "\\/" escapes', async () => {
    for (const length of [1, 2, 3, 4, 5, 6, 47, 48, 49]) {
      const bytes = randomBytes(length);
      const b64 = bytes.toString('base64');
      for (const size of [1, 2, 3, 4, 5, 9, 64]) {
        const { data } = await scan(`{"result":{"data":"${b64}"}}`, size);
        assert.ok(data.equals(bytes), `${length} bytes in pieces of ${size}`);
        const escaped = await scan(`{"result":{"data":"${b64.replace(/\//g, '\\/')}"}}`, 64);
        assert.ok(escaped.data.equals(bytes), `${length} bytes with escaped slashes`);
      }
    }
  });

  it('passes an error answer through as the envelope', async () => {
    const err = '{"jsonrpc":"2.0","id":-1,"error":{"code":-32603,"message":"Internal error","data":"there are 2 chunks, 9 is invalid"}}';
    const { data, envelope } = await scan(err, 10);
    assert.equal(data.length, 0);
    assert.equal(envelope.error.data, 'there are 2 chunks, 9 is invalid');
  });

  it('refuses data that is not base64, a truncated string, and an endless envelope', async () => {
    await assert.rejects(scan('{"result":{"data":"abc$"}}', 4), /not base64/);
    await assert.rejects(scan('{"result":{"data":"abcde"}}', 4), /multiple of 4/);
    await assert.rejects(scan('{"result":{"data":"abcd', 4), /ended inside/);
    // Node's decoder alone would skip these or read them as the URL-safe alphabet.
    for (const data of ['ab c', 'ab-_', 'AAA=AAAA', 'AA==AA==', 'A===', '=AAA', 'AAA\\u0041AAA']) {
      for (const size of [1, 3, 64]) {
        await assert.rejects(scan(`{"result":{"data":"${data}"}}`, size), /not base64/, `${data} in pieces of ${size}`);
      }
    }
    await assert.rejects(scan('{"x":"' + 'y'.repeat(2 * 1024 * 1024) + '"}', 65536), /too much besides/);
  });
});
