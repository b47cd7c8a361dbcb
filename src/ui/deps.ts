// What the editor-side parts are handed at activation, as types only: code loaded on demand
// (src/ui/onDemand/) imports these, never the modules that build them, so no import runs back across
// the lazy boundary.

import type * as vscode from 'vscode';
import type { Outcome } from '../core/chain/execute';
import type { InterfaceHealth } from '../core/health/model';
import type { Capabilities } from '../core/health/capabilities';
import type { HistoryPoint } from '../core/health/session';
import type { InterfaceId } from '../core/config/providers';
import type { HttpClient } from '../core/transport/http';
import type { Log } from './log';
import type { ResultDocuments } from './resultDocuments';
import type { SecretStore } from './secretStore';

export interface CommandDeps {
  readonly log: Log;
  readonly http: HttpClient;
  readonly documents: ResultDocuments;
  readonly secrets: SecretStore;
  /** Records every finished request with the text it showed (the History view). */
  readonly history?: { record(outcome: Outcome, shown: Uint8Array | undefined): Promise<void> };
  /** Where large bodies and genesis files are written. */
  readonly storageDir: string;
  /** Capabilities and health rows: whether a provider can serve a request, and which can (the HealthController). */
  readonly health?: { capabilities(provider: string): Capabilities | undefined; rows(): readonly InterfaceHealth[] };
  /** Keeps a disposable made on demand (a watcher) until deactivation. */
  readonly keep?: (d: vscode.Disposable) => void;
}

/** The health rows and their refresh, as the comparison view reads them (the HealthController). */
export interface HealthSource {
  readonly onDidChange: vscode.Event<unknown>;
  rows(): readonly InterfaceHealth[];
  refresh(names?: readonly string[]): Promise<readonly InterfaceHealth[]>;
  /** What each provider can serve, when probed (src/core/health/capabilities.ts). */
  capabilities?(provider: string): Capabilities | undefined;
  /** The session's history of one interface, oldest first (src/core/health/session.ts). */
  history?(provider: string, iface: InterfaceId): readonly HistoryPoint[];
}
