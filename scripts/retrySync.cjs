// @ts-check
// Install steps that fetch from a registry (npm, the Go module proxy) are tried again after a
// pause: a stalled fetch (npm's EIDLETIMEOUT) once failed a whole CI run that a second try passes.
// Synchronous, like the install steps that use it (scripts/vscode/codeServer.mjs,
// scripts/real/ensureNodes.cjs); .ci/run has the shell form of the same rule.

/**
 * Calls `attempt(n)` until it returns, at most `times` times, waiting 20 s, 40 s, ... in between
 * (`onRetry(n, err, seconds)` says so); the last failure is thrown.
 */
function retrySync(times, attempt, onRetry) {
  for (let n = 1; ; n++) {
    try {
      return attempt(n);
    } catch (err) {
      if (n >= times) throw err;
      const seconds = n * 20;
      onRetry(n, err, seconds);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, seconds * 1000);
    }
  }
}

module.exports = { retrySync };
