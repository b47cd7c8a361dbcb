// What activation does not load: the code behind what no one uses at startup (requests, copy as
// curl, the health probes and the comparison view, adding and importing providers), loaded together
// on the first use (src/ui/loadOnDemand.ts). The release build keeps it in its own file
// (scripts/build.mjs).

export { copyAsCurl, curlLine, runForApi, runOperation } from './runOperation';
export { CompareView } from './compareView';
export { HealthMonitor } from '../../core/health/health';
export { ranked } from '../../core/health/rank';
export { addProvider } from './addProvider';
export { importChainRegistry } from './importChainRegistry';
// For code that activation loads but that needs these only once something has been asked: the
// result document's text (after a request) and the status bar's polling fallback (when its
// WebSocket fails).
export { renderDocumentBytes } from '../../core/documents/render';
export { interpret, readCometStatus } from '../../core/documents/interpret';
// The catalogue: the tree lists an interface's operations when it is expanded.
export { findOperation, operationsFor } from '../../core/chain/operations';
