// @ts-check
// Shared helpers of the benchmark suite: statistics, child processes (each case and each server
// runs in its own process, so the two cores split client and server and peak memory is one
// case's), and paths of the compiled sources under out/.
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH_DIR, '..');
/** require() for the compiled CommonJS sources (out/src/core, out/test/devnet) and node_modules. */
export const require = createRequire(path.join(ROOT, 'package.json'));
/** Where the compiled sources are: out/ (npm run compile:tests), or BENCH_OUT_DIR. */
export const OUT = process.env.BENCH_OUT_DIR ? path.resolve(process.env.BENCH_OUT_DIR) : path.join(ROOT, 'out');
export const core = (name) => require(path.join(OUT, 'src', 'core', `${name}.js`));

export function median(xs) {
  return percentile(xs, 0.5);
}

/** Nearest-rank percentile. */
export function percentile(xs, p) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
}

export function summary(xs) {
  return { median: median(xs), p90: percentile(xs, 0.9), n: xs.length };
}

/**
 * Runs `ours` and `baseline` alternately (which goes first flips every iteration, so both see the
 * same noise), `warmup` discarded rounds then `n` measured ones; returns the samples in ms.
 */
export async function interleave({ ours, baseline, warmup, n }) {
  const a = [];
  const b = [];
  for (let i = 0; i < warmup + n; i++) {
    let ta;
    let tb;
    if (i % 2 === 0) {
      ta = await time(ours);
      tb = await time(baseline);
    } else {
      tb = await time(baseline);
      ta = await time(ours);
    }
    if (i >= warmup) {
      a.push(ta);
      b.push(tb);
    }
  }
  return { ours: a, baseline: b };
}

/** `fn` wrapped so that each call pushes the CPU milliseconds of this process it took onto `samples`. */
export function withCpu(fn, samples) {
  return async () => {
    const c0 = process.cpuUsage();
    await fn();
    const d = process.cpuUsage(c0);
    samples.push((d.user + d.system) / 1000);
  };
}

export async function time(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Forks a bench module; resolves with its first message once `ready` is sent. */
export function startChild(script, config, { execArgv = [] } = {}) {
  const child = fork(path.join(BENCH_DIR, script), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = [];
  child.on('message', (m) => pending.shift()?.resolve(m));
  const failed = new Promise((_, reject) => {
    child.once('exit', (code, sig) => {
      const err = new Error(`${script} exited (code ${code}, signal ${sig})`);
      for (const p of pending.splice(0)) p.reject(err);
      reject(err);
    });
  });
  failed.catch(() => undefined);
  const ask = (msg) =>
    new Promise((resolve, reject) => {
      pending.push({ resolve, reject });
      if (msg !== undefined) child.send(msg);
    });
  const ready = ask();
  child.send(config);
  return {
    child,
    ready,
    ask,
    /** Waits up to `graceMs` for the child to exit by itself, then sends SIGTERM. */
    async stop(graceMs = 0) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      const timer = setTimeout(() => child.kill('SIGTERM'), graceMs);
      await gone;
      clearTimeout(timer);
    },
  };
}

/** Runs a case module to completion in its own process; resolves with the result it sends. */
export async function runChild(script, config, opts = {}) {
  const c = startChild(script, config, { execArgv: ['--expose-gc', ...(opts.execArgv ?? [])] });
  try {
    return await c.ready;
  } finally {
    await c.stop(20_000);
  }
}

/** In a child: waits for the config from the parent, runs `main`, sends its result. */
export function childMain(main) {
  process.once('message', async (config) => {
    try {
      const result = await main(config);
      process.send(result, () => process.exit(0));
    } catch (err) {
      console.error(err);
      process.exit(1);
    }
  });
}

export function fmtMs(ms) {
  if (!Number.isFinite(ms)) return '-';
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(0)} µs`;
}

export function fmtBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function gcNow() {
  if (global.gc) {
    global.gc();
    global.gc();
  }
}

/** Peak resident set of this process so far, in bytes. */
export function maxRss() {
  return process.resourceUsage().maxRSS * 1024;
}
