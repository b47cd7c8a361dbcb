// Genesis: `GET /genesis`, and when the node answers that the genesis is too large, every
// `genesis_chunked?chunk=N` decoded and appended in order to a file on disk (one chunk in memory
// at a time). The file is only given its final name once complete; a failed or cancelled
// transfer leaves nothing behind.

import { createWriteStream, promises as fs } from 'node:fs';
import path = require('node:path');
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { EndpointError } from '../base/errors';
import * as l10n from '../base/l10n';
import { type ExecuteOptions, type Outcome, requestWith, sendRecorded } from './outcome';
import { formatBytes } from '../base/numbers';
import { interpret } from '../documents/interpret';
import { isObject } from '../base/text';
import { joinUrl } from '../config/providers';
import { redactUrl } from '../secrets/redact';
import { DEFAULT_MAX_DOWNLOAD_BYTES, downloadCapError } from '../transport/body';

/**
 * The file's write buffer: the default 16 KB paused the socket after every network read (0.56x
 * curl's throughput); 8 MiB reached 0.87x but let a 300 MB transfer grow memory past 100 MB.
 */
const WRITE_BUFFER = 1024 * 1024;

/** What a chunk answer may hold besides `data` (the envelope, an error): far more than a node sends. */
const MAX_ENVELOPE_CHARS = 1024 * 1024;

export async function fetchGenesis(base: string, options: ExecuteOptions, outcome: Outcome): Promise<void> {
  const url = joinUrl(base, '/genesis');
  const res = await sendRecorded(options, outcome, { method: 'GET', url });
  if (res.file) return;
  const read = interpret(res, 'jsonrpc', url);
  // Matched on the node's own words (never on our sentence, which may be translated).
  const rpcError = isObject(read.json) && isObject(read.json.error) ? read.json.error : undefined;
  const nodeWords = [read.error?.detail.data, rpcError?.message, read.error?.detail.bodyPreview].filter((w) => typeof w === 'string').join('\n');
  if (read.error && /genesis_chunked/.test(nodeWords)) {
    outcome.notes.push(l10n.t('/genesis refused: {0}', read.error.detail.data ?? read.error.message));
    await fetchChunked(base, options, outcome);
    return;
  }
  outcome.result = read.result;
  outcome.error = read.error;
}

export async function fetchChunked(base: string, options: ExecuteOptions, outcome: Outcome): Promise<void> {
  const started = performance.now();
  const dir = options.spillDir;
  if (!dir) throw new EndpointError('input', l10n.both('A chunked genesis needs a folder to be written to.'));
  await fs.mkdir(dir, { recursive: true });
  const finalPath = path.join(dir, `genesis-${safeName(outcome.providerName)}-${Date.now()}.json`);
  const partial = `${finalPath}.partial`;
  const out = createWriteStream(partial, { highWaterMark: WRITE_BUFFER });
  // Always listened to: a write error (disk full) or a write completing after destroy() must not
  // become an uncaught 'error' event; it fails the transfer instead.
  let writeError: Error | undefined;
  out.on('error', (e) => (writeError ??= e));
  let written = 0;
  let total = 1;
  const cap = options.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  try {
    for (let chunk = 0; chunk < total; chunk++) {
      const url = joinUrl(base, '/genesis_chunked', { chunk: String(chunk) });
      options.onProgress?.(l10n.t('genesis chunk {0} of {1}', chunk + 1, chunk === 0 ? '?' : total));
      // Streamed: the base64 of `data` is decoded into the file as it arrives, so memory holds
      // one network read, not the ~22 MB chunk answer.
      const scanner = new ChunkAnswerScanner(async (bytes) => {
        if (writeError) throw writeError;
        // The whole genesis counts against the cap, not each chunk.
        if (written + scanner.decodedBytes > cap) throw downloadCapError(redactUrl(base), cap);
        // Backpressure: wait while the disk is behind (once() also rejects on a write error).
        if (!out.write(bytes)) await once(out, 'drain');
      });
      const res = await options.http.send(requestWith(options, { method: 'GET', url, sink: (piece) => scanner.push(piece) }));
      outcome.status = res.status;
      const read = interpret({ ...res, body: scanner.envelope() }, 'jsonrpc', url);
      if (read.error) throw read.error;
      const r = read.result;
      if (!isObject(r) || typeof r.data !== 'string' || typeof r.total !== 'string' || typeof r.chunk !== 'string') {
        throw new EndpointError('protocol', l10n.both('genesis_chunked chunk {0} from {1} lacks "chunk", "total" or "data".', chunk, redactUrl(url)));
      }
      if (r.chunk !== String(chunk)) {
        throw new EndpointError('protocol', l10n.both('Asked for genesis chunk {0} but the node sent chunk {1}.', chunk, r.chunk));
      }
      const announced = Number(r.total);
      if (!Number.isSafeInteger(announced) || announced < 1 || (chunk > 0 && announced !== total)) {
        throw new EndpointError('protocol', l10n.both('genesis_chunked announced an inconsistent chunk count ("{0}").', r.total));
      }
      total = announced;
      scanner.end();
      written += scanner.decodedBytes;
      // Refused before downloading the rest when the announced size cannot fit: every chunk but the
      // last is as large as the first (the node cuts 16 MiB pieces).
      if (chunk === 0 && total > 1 && (total - 1) * Math.max(1, scanner.decodedBytes) > cap) {
        throw new EndpointError(
          'protocol',
          l10n.both(
            'The genesis from {0} announces {1} chunks of {2}, more than {3} (chainEndpoints.maxDownloadMegabytes): not downloaded, nothing was kept. Raise the setting in user settings to read it.',
            redactUrl(base),
            total,
            formatBytes(scanner.decodedBytes),
            formatBytes(cap),
          ),
        );
      }
    }
    out.end();
    if (!out.closed) await once(out, 'close');
    if (writeError) throw writeError;
    await fs.rename(partial, finalPath);
  } catch (err) {
    // Closed before the file is removed: a stream still opening would create it again after the rm.
    out.destroy();
    await finished(out).catch(() => undefined);
    await fs.rm(partial, { force: true });
    throw err;
  }
  outcome.file = finalPath;
  outcome.body = undefined;
  outcome.bytes = written;
  outcome.elapsedMs = performance.now() - started + outcome.elapsedMs;
  outcome.summary = l10n.t('genesis reassembled from {0} chunk(s): {1}', total, formatBytes(written));
  outcome.notes.push(outcome.summary, l10n.t('saved to {0}', finalPath));
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 40) || 'provider';
}

/**
 * Reads one `genesis_chunked` answer as it streams: the value of `"data"` (base64) is decoded
 * into `write` in 4-character groups; everything else is kept as text with `"data":""` in
 * place, small enough to parse as the JSON-RPC envelope afterwards.
 */
export class ChunkAnswerScanner {
  private envelopeText = '';
  private phase: 'before' | 'data' | 'after' = 'before';
  private inString = false;
  private escaped = false;
  private stringText = '';
  private expect: 'none' | 'quote' = 'none';
  private lastWasString = false;
  private key: string | undefined;
  /** The key of each open object ('[' for arrays), outermost first. */
  private readonly containers: string[] = [];
  private carry = '';
  /** A backslash ended the last piece: its escaped character comes with the next one. */
  private escapePending = false;
  decodedBytes = 0;

  constructor(private readonly write: (bytes: Buffer) => Promise<void>) {}

  async push(piece: Buffer): Promise<void> {
    let i = 0;
    while (i < piece.length) {
      if (this.phase === 'data') {
        const close = piece.indexOf(0x22, i);
        const end = close < 0 ? piece.length : close;
        await this.decode(piece.toString('latin1', i, end), close >= 0);
        if (close < 0) return;
        this.phase = 'after';
        this.keep('"');
        i = close + 1;
        continue;
      }
      if (this.phase === 'after') {
        this.keep(piece.toString('utf8', i));
        return;
      }
      i = this.scanBefore(piece, i);
    }
  }

  /** Checks the data string was complete; call after the answer ended. */
  end(): void {
    if (this.phase === 'data') throw new EndpointError('protocol', l10n.both('A genesis chunk ended inside its "data" string.'));
  }

  /** The answer with `"data":""` in place of the payload. */
  envelope(): Buffer {
    return Buffer.from(this.envelopeText, 'utf8');
  }

  private keep(text: string): void {
    this.envelopeText += text;
    if (this.envelopeText.length > MAX_ENVELOPE_CHARS) {
      throw new EndpointError('protocol', l10n.both('The genesis_chunked answer is not the JSON a node sends (too much besides "data").'));
    }
  }

  /** Walks the JSON before the payload, looking for the key "data" of the "result" object. */
  private scanBefore(piece: Buffer, start: number): number {
    let i = start;
    for (; i < piece.length; i++) {
      const c = String.fromCharCode(piece[i]);
      this.keep(c);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        else if (this.stringText.length < 8) this.stringText += c;
        continue;
      }
      if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
      const afterString = this.lastWasString;
      this.lastWasString = false;
      if (c === '"') {
        if (this.expect === 'quote') {
          this.phase = 'data';
          return i + 1;
        }
        this.inString = true;
        this.lastWasString = true;
        this.stringText = '';
        continue;
      }
      if (c === ':' && afterString) {
        this.key = this.stringText;
        this.expect = this.key === 'data' && this.containers.at(-1) === 'result' ? 'quote' : 'none';
        continue;
      }
      this.expect = 'none';
      if (c === '{' || c === '[') {
        this.containers.push(c === '{' ? (this.key ?? '') : '[');
        this.key = undefined;
      } else if (c === '}' || c === ']') this.containers.pop();
      else if (c === ',') this.key = undefined;
    }
    return i;
  }

  /**
   * Decodes the base64 of one piece, whole 4-character groups only (the rest waits for the next
   * piece). Checked without a regular expression (which took as long as the decoding): the
   * standard alphabet only, padding only at the very end, and exactly the bytes its length promises.
   */
  private async decode(text: string, last: boolean): Promise<void> {
    // JSON may escape "/" as "\/" (CometBFT does not); the two characters may arrive in different pieces.
    if (this.escapePending) text = '\\' + text;
    this.escapePending = !last && text.endsWith('\\');
    if (this.escapePending) text = text.slice(0, -1);
    if (text.includes('\\')) text = text.replace(/\\\//g, '/');
    const carry = this.carry;
    const length = carry.length + text.length;
    let rest = length % 4;
    if (last && rest !== 0) throw new EndpointError('protocol', l10n.both('A genesis chunk\'s base64 "data" has a length that is not a multiple of 4.'));
    // Padding ends the data: a group ending in "=" waits until the closing quote is seen.
    if (!last && rest === 0 && text.endsWith('=')) rest = 4;
    if (length - rest === 0 || rest > text.length) {
      this.carry = carry + text;
      return;
    }
    // The group the previous piece began, then this piece's own whole groups.
    const lead = carry === '' ? 0 : Math.max(0, 4 - carry.length);
    const group = carry === '' ? '' : carry + text.slice(0, lead);
    const main = text.slice(lead, text.length - rest);
    this.carry = text.slice(text.length - rest);
    const bytes = Buffer.allocUnsafe(((length - rest) / 4) * 3);
    let n = group === '' ? 0 : decodeGroups(group, bytes, 0, last && main === '');
    n += decodeGroups(main, bytes, n, last);
    this.decodedBytes += n;
    await this.write(n === bytes.length ? bytes : bytes.subarray(0, n));
  }
}

/** Decodes whole base64 groups into `into` at `at`, refusing anything else; the number of bytes. */
function decodeGroups(text: string, into: Buffer, at: number, final: boolean): number {
  if (text === '') return 0;
  const pad = final ? (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0) : 0;
  const eq = text.indexOf('=');
  // Node's decoder would take the URL-safe alphabet and skip other characters: both refused here.
  const n = (eq === -1 || eq === text.length - pad) && !text.includes('-') && !text.includes('_') ? into.write(text, at, 'base64') : -1;
  if (n !== (text.length / 4) * 3 - pad) throw new EndpointError('protocol', l10n.both('A genesis chunk\'s "data" is not base64.'));
  return n;
}
