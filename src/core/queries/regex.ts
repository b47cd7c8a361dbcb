// `assert <path> matches /re/` without a hang: a regular expression from a file, run on text from a
// server, can backtrack for ever (`/^(a|a)*$/` on forty a's) or cost the square of the text
// (`/a*b/` on 10,000 a's). Every one runs in a worker thread, within the request's deadline (an
// absolute time shared by all the request's expressions, waiting for the worker included); past it
// the worker is terminated. None runs on the calling thread: no static rule tells a cheap expression
// from a slow one (`(a|a)(a|a)…b` has no quantifier and is exponential), and a round trip to the
// worker costs well under a millisecond. The text matched is capped (MAX_MATCHED_CHARS).
// README: docs/query-files.md.

import { Worker } from 'node:worker_threads';

/** The longest text a regular expression is run on. */
export const MAX_MATCHED_CHARS = 1024 * 1024;

export type MatchOutcome = { matched: boolean } | { error: string };

/** The outcome when it is known without running the expression (a text too long), else undefined. */
export function matchAtOnce(text: string): MatchOutcome | undefined {
  if (text.length > MAX_MATCHED_CHARS) return { error: `the value is longer than ${MAX_MATCHED_CHARS} characters: not matched against a regular expression` };
  return undefined;
}

/**
 * `re` on `text` in the worker, finished by `deadline` (a Date.now() time: the request's, shared by
 * its expressions): the outcome, or an error sentence (too long, too slow, no time left).
 */
export async function matchWithin(re: RegExp, text: string, deadline: number): Promise<MatchOutcome> {
  return matchAtOnce(text) ?? runner.match(re.source, re.flags, text, deadline);
}

const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  let matched = false, error;
  try { matched = new RegExp(m.source, m.flags).test(m.text); } catch (e) { error = String(e && e.message); }
  parentPort.postMessage({ matched, error });
});`;

/** One worker at a time, one match at a time; a match past its deadline terminates the worker. */
class WorkerRunner {
  private worker: Worker | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  match(source: string, flags: string, text: string, deadline: number): Promise<MatchOutcome> {
    // The time waiting for the worker counts: the deadline is the request's, not this match's.
    const run = this.queue.then(() => this.once(source, flags, text, deadline));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private once(source: string, flags: string, text: string, deadline: number): Promise<MatchOutcome> {
    const leftMs = deadline - Date.now();
    if (leftMs <= 0)
      return Promise.resolve({ error: "the request's deadline passed before the regular expression could run: simplify the request's expressions" });
    const worker = (this.worker ??= this.start());
    return new Promise((resolve) => {
      const done = (outcome: MatchOutcome) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.unref();
        resolve(outcome);
      };
      const onMessage = (m: { matched: boolean; error?: string }) => done(m.error ? { error: m.error } : { matched: m.matched });
      const onError = (e: Error) => {
        this.worker = undefined;
        done({ error: `the regular expression could not run (${e.message})` });
      };
      const timer = setTimeout(() => {
        this.worker = undefined;
        void worker.terminate();
        done({ error: `the regular expression ran past its deadline (the ${leftMs} ms left of the request's timeout) and was stopped: simplify it` });
      }, leftMs);
      worker.ref();
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.postMessage({ source, flags, text });
    });
  }

  private start(): Worker {
    const w = new Worker(WORKER_CODE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 64 } });
    w.unref();
    return w;
  }
}

const runner = new WorkerRunner();
