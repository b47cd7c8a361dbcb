// `assert <path> matches /re/` without a hang: a regular expression from a file, run on text from a
// server, can backtrack for ever (`/^(a|a)*$/` on forty a's) or cost the square of the text
// (`/a*b/` on 10,000 a's, 100 of them 13.9 s under `timeout: 1s` when such ones ran inline).
// Every expression of a request is bounded by one deadline, the request's (an absolute time shared
// by all its expressions). One runs on the calling thread only when its cost has a small proven
// bound (inlineSteps(): no group, alternation or backreference and at most one quantifier, so at
// most source length x text length steps from each starting position; anchored with `^`, one
// position) and the deadline has not passed; any other runs in a worker thread, terminated at the
// deadline (waiting for the worker counts). The text matched is capped (MAX_MATCHED_CHARS).
// Why not refuse slow shapes: no static rule catches every one (`(a|a)(a|a)…b` has no quantifier
// and is exponential), and a deadline does. README: docs/query-files.md.

import { Worker } from 'node:worker_threads';

/** The longest text a regular expression is run on. */
export const MAX_MATCHED_CHARS = 1024 * 1024;
/** The most steps (inlineSteps()) an expression may cost to run on the calling thread: well under a millisecond. */
export const MAX_INLINE_STEPS = 200_000;

export type MatchOutcome = { matched: boolean } | { error: string };

/**
 * An upper bound on the steps of `re` on a text of `chars` characters, or undefined when there is
 * none short of running it. Only for an expression without groups, alternation or backreferences
 * and with at most one quantifier (on a single atom): from each starting position the quantifier
 * tries at most chars + 1 lengths, each followed by at most source-length comparisons; anchored
 * with `^` (without the m flag) only the first position matches past `^`.
 */
export function inlineSteps(source: string, flags: string, chars: number): number | undefined {
  let quantifiers = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      if (/[1-9k]/.test(source[i + 1] ?? '')) return undefined; // a backreference
      i++;
      continue;
    }
    if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      continue;
    }
    if (c === '(' || c === ')' || c === '|') return undefined;
    const brace = c === '{' ? /^\{\d+(,\d*)?\}/.exec(source.slice(i)) : null;
    if (c === '*' || c === '+' || c === '?' || brace) {
      if (++quantifiers > 1) return undefined;
      if (brace) i += brace[0].length - 1;
      if (source[i + 1] === '?') i++; // lazy
    }
  }
  const anchored = source.startsWith('^') && !flags.includes('m');
  const perStart = (chars + 1) * Math.max(1, source.length);
  return anchored ? perStart + chars : perStart * (chars + 1);
}

/** The outcome when it is known without running the expression (a text too long), else undefined. */
export function matchAtOnce(text: string): MatchOutcome | undefined {
  if (text.length > MAX_MATCHED_CHARS) return { error: `the value is longer than ${MAX_MATCHED_CHARS} characters: not matched against a regular expression` };
  return undefined;
}

const DEADLINE_PASSED: MatchOutcome = {
  error: "the request's deadline passed before the regular expression could run: simplify the request's expressions",
};

/**
 * `re` on `text`, finished by `deadline` (a Date.now() time: the request's, shared by its
 * expressions): on the calling thread when its cost is provably small, else in the worker. The
 * outcome, or an error sentence (too long, too slow, no time left); a promise only when the worker runs it.
 */
export function matchWithin(re: RegExp, text: string, deadline: number): MatchOutcome | Promise<MatchOutcome> {
  const known = matchAtOnce(text);
  if (known) return known;
  const steps = inlineSteps(re.source, re.flags, text.length);
  if (steps !== undefined && steps <= MAX_INLINE_STEPS) {
    if (Date.now() >= deadline) return DEADLINE_PASSED;
    re.lastIndex = 0;
    return { matched: re.test(text) };
  }
  return runner.match(re.source, re.flags, text, deadline);
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
        done({
          error: `the regular expression ran past its deadline (the ${Math.round(leftMs)} ms left of the request's timeout) and was stopped: simplify it`,
        });
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
