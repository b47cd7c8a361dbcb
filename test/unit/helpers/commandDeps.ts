// What a ui handler is handed at activation (src/ui/base/deps.ts's CommandDeps), for unit tests with
// the vscode stub (vscodeStub.ts): the real HttpClient, a log that records its lines, secrets that
// substitute nothing (a provider without secrets; the runner's own tests cover secrets), result
// documents that keep what a command showed, and the disposables made on demand (dispose them in
// after(): the contracts registry is one per session until its disposable runs).

import os from 'node:os';
import type { Outcome } from '../../../src/core/chain/execute';
import type { HttpClient } from '../../../src/core/transport/http';
import type { CommandDeps } from '../../../src/ui/base/deps';

export interface Shown {
  readonly uri: { readonly path: string; readonly query: string; toString(): string };
  readonly text: string;
  readonly language?: string;
}

export interface TestDeps {
  readonly deps: CommandDeps;
  /** `info <line>`, `warn <line>`, `error <line>` in order. */
  readonly lines: string[];
  /** What the command showed as documents, in order. */
  readonly shown: Shown[];
  /** The History's records (record: an operation's id; recordLookUp: the query). */
  readonly history: string[];
  /** Disposes what the handlers kept (deps.keep). */
  dispose(): void;
}

/** `health`: what the handlers read of the HealthController (capabilities), when a test gives it. */
export function commandDeps(http: HttpClient, health?: CommandDeps['health']): TestDeps {
  const lines: string[] = [];
  const shown: Shown[] = [];
  const history: string[] = [];
  const kept: { dispose(): unknown }[] = [];
  const data = new Map<string, Uint8Array>();
  const log = {
    trace: (m: string) => lines.push(`trace ${m}`),
    debug: (m: string) => lines.push(`debug ${m}`),
    info: (m: string) => lines.push(`info ${m}`),
    warn: (m: string) => lines.push(`warn ${m}`),
    error: (m: string | Error) => lines.push(`error ${String(m)}`),
    dispose: () => undefined,
  };
  const documents = {
    async showData(uri: Shown['uri'], bytes: Buffer, options: { language?: string } = {}) {
      data.set(uri.toString(), bytes);
      shown.push({ uri, text: bytes.toString('utf8'), language: options.language });
      return uri;
    },
    dataOf: (uri: Shown['uri']) => data.get(uri.toString()),
  };
  const deps = {
    log,
    http,
    documents,
    secrets: { resolved: async <P>(p: P) => p, ready: Promise.resolve() },
    storageDir: os.tmpdir(),
    history: {
      async record(o: Outcome) {
        history.push(`record ${o.operation.id}`);
      },
      async recordLookUp(provider: string, query: string, found: boolean) {
        history.push(`lookUp ${provider} ${query} ${found ? 'found' : 'not found'}`);
      },
    },
    keep: (d: { dispose(): unknown }) => kept.push(d),
    health,
  } as unknown as CommandDeps;
  return {
    deps,
    lines,
    shown,
    history,
    dispose: () => kept.splice(0).forEach((d) => d.dispose()),
  };
}
