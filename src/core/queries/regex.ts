// `assert <path> matches /re/` without a hang: a regular expression from a file, run on text from a
// server, can backtrack for ever (`/^(a|a)*$/` on forty a's). One that is linear by construction (no
// quantified group, no backreference, at most one quantifier) on a short text runs here; any other
// runs in a worker thread with a deadline (the request's timeout), which is terminated when the
// deadline passes. The text matched is capped (MAX_MATCHED_CHARS). README: docs/query-files.md.

import { Worker } from 'node:worker_threads';

/** The longest text a regular expression is run on. */
export const MAX_MATCHED_CHARS = 1024 * 1024;
/** Up to this length, a linear expression runs on the calling thread. */
const INLINE_CHARS = 10_000;

export type MatchOutcome = { matched: boolean } | { error: string };

/**
 * Whether `source` cannot backtrack more than linearly per starting position: no quantifier applied
 * to a group, no backreference, at most one quantifier in all.
 */
export function isLinear(source: string): boolean {
  let quantifiers = 0;
  let afterGroup = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1] ?? '';
      if (/[1-9k]/.test(n)) return false; // a backreference
      i++;
      afterGroup = false;
      continue;
    }
    if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      afterGroup = false;
      continue;
    }
    const brace = c === '{' ? /^\{\d+(,\d*)?\}/.exec(source.slice(i)) : null;
    if (c === '*' || c === '+' || (c === '?' && source[i - 1] !== '(') || brace) {
      if (afterGroup) return false;
      if (++quantifiers > 1) return false;
      if (brace) i += brace[0].length - 1;
      if (source[i + 1] === '?') i++; // lazy
      continue;
    }
    afterGroup = c === ')';
  }
  return true;
}

const linear = new WeakMap<RegExp, boolean>();

/** The outcome when it is known at once (a linear expression on a short text, a text too long), else undefined. */
export function matchAtOnce(re: RegExp, text: string): MatchOutcome | undefined {
  if (text.length > MAX_MATCHED_CHARS) return { error: `the value is longer than ${MAX_MATCHED_CHARS} characters: not matched against a regular expression` };
  let isLin = linear.get(re);
  if (isLin === undefined) linear.set(re, (isLin = isLinear(re.source)));
  if (text.length > INLINE_CHARS || !isLin) return undefined;
  re.lastIndex = 0;
  return { matched: re.test(text) };
}

/** `re` on `text`, within `deadlineMs`: the outcome, or an error sentence (too long, too slow). */
export async function matchWithin(re: RegExp, text: string, deadlineMs: number): Promise<MatchOutcome> {
  return matchAtOnce(re, text) ?? runner.match(re.source, re.flags, text, Math.max(50, deadlineMs));
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

  match(source: string, flags: string, text: string, deadlineMs: number): Promise<MatchOutcome> {
    const run = this.queue.then(() => this.once(source, flags, text, deadlineMs));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private once(source: string, flags: string, text: string, deadlineMs: number): Promise<MatchOutcome> {
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
        done({ error: `the regular expression ran past its deadline (${deadlineMs} ms, the request's timeout) and was stopped: simplify it` });
      }, deadlineMs);
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
