// What the editor-side parts are handed at activation, as types only: code loaded on demand (each
// feature's index.ts and what it imports) imports these, never the modules that build them, so no
// import runs back across the lazy boundary.

import type * as vscode from 'vscode';
import type { Outcome } from '../../core/chain/execute';
import type { InterfaceHealth } from '../../core/health/model';
import type { Capabilities, EngineSupport } from '../../core/health/capabilities';
import type { HistoryPoint } from '../../core/health/session';
import type { InterfaceId } from '../../core/config/providers';
import type { Http } from '../../core/transport/http';
import type { Log } from './log';
import type { ResultDocuments } from './resultDocuments';
import type { SecretStore } from '../providers/secretStore';

export interface CommandDeps {
  readonly log: Log;
  readonly http: Http;
  readonly documents: ResultDocuments;
  readonly secrets: SecretStore;
  /** Records every finished request with the text it showed (the History view). */
  readonly history?: {
    /** `name`: the query file's request that sent it (History shows it). */
    record(outcome: Outcome, shown: Uint8Array | undefined, name?: string): Promise<void>;
    recordLookUp?(provider: string, query: string, found: boolean, startedAt: Date, shown: Uint8Array): Promise<void>;
  };
  /** Where large bodies and genesis files are written. */
  readonly storageDir: string;
  /** The extension's global state: the module routes imported for a network (src/ui/requests/importOpenApi.ts). */
  readonly state?: vscode.Memento;
  /** Capabilities and health rows: whether a provider can serve a request, and which can (the HealthController). */
  readonly health?: {
    capabilities(provider: string): Capabilities | undefined;
    rows(): readonly InterfaceHealth[];
    /** A request about to run needs what only a costly probe learns: probe that provider now (chainEndpoints.capabilities.probe permitting). */
    needCapabilities?(provider: string): Promise<void>;
    /** Records what an answer showed: the provider serves a REST module (a 2xx) or not (501). */
    noteModule?(provider: string, module: string, served: boolean): void;
    /** Records what a simulation found the provider serving of the engines (a refusal, until its capabilities are probed again). */
    noteEngines?(provider: string, seen: EngineSupport): void;
  };
  /** Keeps a disposable made on demand (a watcher) until deactivation. */
  readonly keep?: (d: vscode.Disposable) => void;
}

/** The health rows and their refresh, as the comparison view reads them (the HealthController). */
export interface HealthSource {
  readonly onDidChange: vscode.Event<unknown>;
  rows(): readonly InterfaceHealth[];
  /** `capabilities`: someone asked what the providers serve (costly capability probes allowed: docs/capabilities.md). */
  refresh(names?: readonly string[], opts?: { capabilities?: boolean }): Promise<readonly InterfaceHealth[]>;
  /** What each provider can serve, when probed (src/core/health/capabilities.ts). */
  capabilities?(provider: string): Capabilities | undefined;
  /** The session's history of one interface, oldest first (src/core/health/session.ts). */
  history?(provider: string, iface: InterfaceId): readonly HistoryPoint[];
}
