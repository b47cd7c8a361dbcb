// Genesis: `GET /genesis`, and when the node answers that the genesis is too large, every
// `genesis_chunked?chunk=N` decoded and appended in order to a file on disk (one chunk in memory
// at a time). The file is only given its final name once complete; a failed or cancelled
// transfer leaves nothing behind.

import { createWriteStream, promises as fs, WriteStream } from 'node:fs';
import * as path from 'node:path';
import { once } from 'node:events';
import { EndpointError } from './errors';
import { ExecuteOptions, Outcome, requestWith, sendRecorded } from './outcome';
import { formatBytes } from './http';
import { interpret, isObject } from './interpret';
import { joinUrl, redactUrl } from './providers';

/** A chunk of 16 MiB travels as about 22 MB of base64 inside JSON. */
const MAX_CHUNK_RESPONSE = 128 * 1024 * 1024;

export async function fetchGenesis(base: string, options: ExecuteOptions, outcome: Outcome): Promise<void> {
  const url = joinUrl(base, '/genesis');
  const res = await sendRecorded(options, outcome, { method: 'GET', url });
  if (res.file) return;
  const read = interpret(res, 'jsonrpc', redactUrl(url));
  if (read.error && /genesis_chunked/.test(read.error.detail.data ?? read.error.message)) {
    outcome.notes.push(`/genesis refused: ${read.error.detail.data ?? read.error.message}`);
    await fetchChunked(base, options, outcome);
    return;
  }
  outcome.result = read.result;
  outcome.error = read.error;
}

export async function fetchChunked(base: string, options: ExecuteOptions, outcome: Outcome): Promise<void> {
  const started = performance.now();
  await fs.mkdir(options.spillDir, { recursive: true });
  const finalPath = path.join(options.spillDir, `genesis-${safeName(outcome.providerName)}-${Date.now()}.json`);
  const partial = `${finalPath}.partial`;
  const out = createWriteStream(partial);
  let written = 0;
  let total = 1;
  try {
    for (let chunk = 0; chunk < total; chunk++) {
      const url = joinUrl(base, '/genesis_chunked', { chunk: String(chunk) });
      options.onProgress?.(`genesis chunk ${chunk + 1} of ${chunk === 0 ? '?' : total}`);
      // One chunk in memory at a time, whatever maxDocumentMegabytes says.
      const res = await options.http.send(requestWith(options, { method: 'GET', url, maxBufferBytes: MAX_CHUNK_RESPONSE, spillDir: undefined }));
      outcome.status = res.status;
      const read = interpret(res, 'jsonrpc', redactUrl(url));
      if (read.error) throw read.error;
      const r = read.result;
      if (!isObject(r) || typeof r.data !== 'string' || typeof r.total !== 'string' || typeof r.chunk !== 'string') {
        throw new EndpointError('protocol', `genesis_chunked chunk ${chunk} from ${redactUrl(url)} lacks "chunk", "total" or "data".`);
      }
      if (r.chunk !== String(chunk)) {
        throw new EndpointError('protocol', `Asked for genesis chunk ${chunk} but the node sent chunk ${r.chunk}.`);
      }
      const announced = Number(r.total);
      if (!Number.isSafeInteger(announced) || announced < 1 || (chunk > 0 && announced !== total)) {
        throw new EndpointError('protocol', `genesis_chunked announced an inconsistent chunk count ("${r.total}").`);
      }
      total = announced;
      const bytes = Buffer.from(r.data, 'base64');
      await write(out, bytes);
      written += bytes.length;
    }
    out.end();
    await once(out, 'close');
    await fs.rename(partial, finalPath);
  } catch (err) {
    out.destroy();
    await fs.rm(partial, { force: true });
    throw err;
  }
  outcome.file = finalPath;
  outcome.body = undefined;
  outcome.bytes = written;
  outcome.elapsedMs = performance.now() - started + outcome.elapsedMs;
  outcome.summary = `genesis reassembled from ${total} chunk(s): ${formatBytes(written)}`;
  outcome.notes.push(outcome.summary, `saved to ${finalPath}`);
}

async function write(out: WriteStream, bytes: Buffer): Promise<void> {
  if (!out.write(bytes)) {
    await Promise.race([
      once(out, 'drain'),
      once(out, 'error').then(([e]) => {
        throw e;
      }),
    ]);
  }
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 40) || 'provider';
}
