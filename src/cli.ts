#!/usr/bin/env node
// The command-line runner of query files: `chain-endpoints run <file.chainq>… [options]`
// (src/core/queries/cli.ts; README, "Query files"). Built to dist/cli.js, the package's `bin`; the
// extension never loads it.

import { runCli } from './core/queries/cli';

const abort = new AbortController();
process.once('SIGINT', () => abort.abort());
process.once('SIGTERM', () => abort.abort());

runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  signal: abort.signal,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`chain-endpoints: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 2;
  },
);
