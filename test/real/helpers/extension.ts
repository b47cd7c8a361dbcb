// Driving the extension's core (no vscode) against a real node, and remembering which
// operations of the catalogue a suite exercised.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execute, type ExecuteOptions, type Outcome } from '../../../src/core/chain/execute';
import { HttpClient } from '../../../src/core/transport/http';
import { type Args, findOperation } from '../../../src/core/chain/operations';
import { type Provider } from '../../../src/core/config/providers';

export class Runner {
  readonly http = new HttpClient();
  readonly spillDir = mkdtempSync(path.join(tmpdir(), 'ce-real-spill-'));
  readonly exercised = new Set<string>();

  constructor(
    public provider: Provider,
    private readonly defaults: Partial<ExecuteOptions> = {},
  ) {}

  options(extra: Partial<ExecuteOptions> = {}): ExecuteOptions {
    return { http: this.http, timeoutMs: 20_000, maxBufferBytes: 20 * 1024 * 1024, spillDir: this.spillDir, ...this.defaults, ...extra };
  }

  async run(id: string, args: Args = {}, extra: Partial<ExecuteOptions> = {}): Promise<Outcome> {
    const op = findOperation(id);
    if (!op) throw new Error(`no operation ${id} in the catalogue`);
    this.exercised.add(op.id);
    return execute(this.provider, op, args, this.options(extra));
  }

  /** Runs and fails with the extension's own error sentence when the outcome is an error. */
  async ok(id: string, args: Args = {}, extra: Partial<ExecuteOptions> = {}): Promise<Outcome> {
    const o = await this.run(id, args, extra);
    if (o.error) throw new Error(`${id} ${JSON.stringify(args)} failed: ${o.error.message} (status ${o.status ?? '-'})`);
    return o;
  }

  async dispose(): Promise<void> {
    await this.http.close();
    rmSync(this.spillDir, { recursive: true, force: true });
  }
}

/** Messages the real nodes sent, printed at the end of each suite (the report keeps them). */
export const recorded: Array<{ what: string; text: string }> = [];
export function record(what: string, text: string): void {
  recorded.push({ what, text });
}

/** Prints and forgets the messages recorded so far (each suite's after() hook). */
export function printRecorded(node: string): void {
  if (recorded.length === 0) return;
  console.log(`\n      Real ${node} messages recorded:`);
  for (const r of recorded.splice(0)) console.log(`        - ${r.what}: ${r.text}`);
}
