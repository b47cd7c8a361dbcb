#!/usr/bin/env node
// The command-line runner of query files: `chain-endpoints run <file.chainq>… [options]`
// (src/core/queries/cli.ts; README, "Query files"), and the Prometheus exporter `chain-endpoints
// serve` (src/core/monitor/serve.ts; docs/monitoring.md). Built to dist/cli.js, the package's
// `bin`; the extension never loads it.

import { runCli } from './core/queries/cli';
import { runServe } from './core/monitor/serve';
import { receiptRunner } from './core/explorer/receipt/queryRunner';

const abort = new AbortController();
process.once('SIGINT', () => abort.abort());
process.once('SIGTERM', () => abort.abort());

if (process.argv[2] === 'serve') {
  runServe(process.argv.slice(3), {
    cwd: process.cwd(),
    env: process.env,
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    signal: abort.signal,
    onReload: (listener) => {
      process.on('SIGHUP', listener);
      return () => process.off('SIGHUP', listener);
    },
  }).then(
    // Exits now: a socket still closing must not hold the process past the 2 s a stop may take.
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`chain-endpoints serve: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(2);
    },
  );
} else {
  runCli(process.argv.slice(2), {
    cwd: process.cwd(),
    env: process.env,
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    signal: abort.signal,
    receipt: receiptRunner,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`chain-endpoints: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 2;
    },
  );
}
