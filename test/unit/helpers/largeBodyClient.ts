// Child process for the large-body measurements: runs one operation through execute() with
// nothing else in the process, samples its memory, optionally cancels once the file being
// written reaches a size, and reports back over IPC. Forked by hardening/largeBodies.

import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { execute } from '../../../src/core/chain/execute';
import { HttpClient } from '../../../src/core/transport/http';
import { findOperation } from '../../../src/core/chain/operations';
import { renderDocument } from '../../../src/core/documents/render';

export interface ClientJob {
  op: string;
  args: Record<string, string>;
  base: string;
  iface: 'consensusHttp' | 'rest';
  spillDir: string;
  maxBufferBytes: number;
  timeoutMs: number;
  /** Cancel once a file in spillDir reaches this many bytes. */
  abortAtBytes?: number;
}

export interface ClientReport {
  error?: { kind: string; message: string };
  file?: string;
  bytes: number;
  elapsedMs: number;
  baseline: NodeJS.MemoryUsage;
  /** Peak growth over the baseline, per field. */
  growth: { rss: number; heapUsed: number; external: number; arrayBuffers: number };
  abortAt?: number;
  /** ms from the abort to execute() returning. */
  returnedAfterAbortMs?: number;
  filesAfter: string[];
  documentFirstLine: string;
}

function filesIn(dir: string): Array<{ name: string; size: number }> {
  try {
    return readdirSync(dir).map((name) => {
      try {
        return { name, size: statSync(path.join(dir, name)).size };
      } catch {
        return { name, size: 0 };
      }
    });
  } catch {
    return [];
  }
}

async function main(job: ClientJob): Promise<ClientReport> {
  const op = findOperation(job.op)!;
  const http = new HttpClient();
  // Warm up (modules, the pool) and settle before the baseline.
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 100));
  const baseline = process.memoryUsage();
  const peak = { rss: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss - baseline.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed - baseline.heapUsed);
    peak.external = Math.max(peak.external, m.external - baseline.external);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers - baseline.arrayBuffers);
  };
  const controller = new AbortController();
  let abortAt: number | undefined;
  const sampler = setInterval(() => {
    sample();
    if (job.abortAtBytes !== undefined && abortAt === undefined && filesIn(job.spillDir).some((f) => f.size >= job.abortAtBytes!)) {
      abortAt = Date.now();
      controller.abort();
    }
  }, 5);
  const started = performance.now();
  const o = await execute({ name: 'large', endpoints: { [job.iface]: job.base } }, op, job.args, {
    http,
    timeoutMs: job.timeoutMs,
    maxBufferBytes: job.maxBufferBytes,
    spillDir: job.spillDir,
    signal: controller.signal,
  });
  const returnedAt = Date.now();
  clearInterval(sampler);
  sample();
  const doc = renderDocument(o);
  await http.close();
  return {
    error: o.error ? { kind: o.error.kind, message: o.error.message } : undefined,
    file: o.file,
    bytes: o.bytes,
    elapsedMs: performance.now() - started,
    baseline,
    growth: peak,
    abortAt,
    returnedAfterAbortMs: abortAt !== undefined ? returnedAt - abortAt : undefined,
    filesAfter: filesIn(job.spillDir).map((f) => f.name),
    documentFirstLine: doc.split('\n', 1)[0],
  };
}

if (require.main === module) {
  process.once('message', (job: ClientJob) => {
    main(job).then(
      (report) => process.send!(report, () => process.exit(0)),
      (err) => process.send!({ crash: String((err as Error).stack ?? err) }, () => process.exit(1)),
    );
  });
}
